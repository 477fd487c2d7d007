// Images in reader blocks: only base64 PNG/JPEG/GIF/WebP whose bytes start with
// that format's signature, up to the size cap, are shown; everything else is
// counted and named in the block's detail, never passed on.
import { describe, expect, it } from "vitest";
import { entryBlock } from "../../../src/core/reader";
import { imageDataUri, imageRefusal, isReaderImage, MAX_IMAGE_CHARS, MAX_IMAGES_PER_BLOCK } from "../../../src/core/reader/reader-image";
import { pngBytes, pngImagePart } from "../../support/png";

const b64 = (bytes: number[] | Buffer): string => Buffer.from(bytes).toString("base64");
const JPEG = b64([0xff, 0xd8, 0xff, 0xe0, 0, 16, 0x4a, 0x46, 0x49, 0x46, 0, 1, 1, 0, 0, 1]);
const GIF = b64(Buffer.from("GIF89a\x01\x00\x01\x00\x80\x00\x00\xff\xff\xff", "latin1"));
const WEBP = b64(Buffer.from("RIFF\x1a\x00\x00\x00WEBPVP8L\x0d\x00\x00\x00", "latin1"));

function userWith(content: unknown[]) {
  return { type: "message", id: "u1", parentId: null, timestamp: "2026-03-01T10:00:00.000Z", message: { role: "user", content, timestamp: 1 } };
}

describe("imageRefusal", () => {
  it.each([
    ["png", pngImagePart(4, 4)],
    ["jpeg", { mimeType: "image/jpeg", data: JPEG }],
    ["gif", { mimeType: "image/gif", data: GIF }],
    ["webp", { mimeType: "image/webp", data: WEBP }],
  ])("shows a %s whose bytes are that format", (_, image) => {
    expect(imageRefusal(image)).toBeUndefined();
  });

  it.each([
    ["SVG (can hold script)", { mimeType: "image/svg+xml", data: b64(Buffer.from('<svg xmlns="http://www.w3.org/2000/svg" onload="alert(1)"/>')) }, /"image\/svg\+xml" is not a shown image type/],
    ["HTML claiming to be PNG", { mimeType: "image/png", data: b64(Buffer.from("<script>alert(1)</script>")) }, /not a PNG image/],
    ["a JPEG claiming to be PNG", { mimeType: "image/png", data: JPEG }, /not a PNG image/],
    ["a mime type breaking out of an attribute", { mimeType: 'image/png" onerror="alert(1)', data: pngImagePart(2, 2).data }, /is not a shown image type/],
    ["data breaking out of the URI", { mimeType: "image/png", data: `${pngImagePart(2, 2).data}"><script>` }, /not base64/],
    ["a remote URL instead of data", { mimeType: "image/png", url: "https://example.com/x.png" }, /no image data/],
    ["data: prefix in the data", { mimeType: "image/png", data: `data:image/png;base64,${pngImagePart(2, 2).data}` }, /not base64/],
    ["upper-case type", { mimeType: "IMAGE/PNG", data: pngImagePart(2, 2).data }, /not a shown image type/],
    ["too large", { mimeType: "image/png", data: "iVBORw0KGgo" + "A".repeat(MAX_IMAGE_CHARS) }, /larger than 5 MB/],
  ])("refuses %s", (_, image, reason) => {
    expect(imageRefusal(image)).toMatch(reason);
    expect(isReaderImage(image)).toBe(false);
  });

  it("a shown image carries nothing but its type and data", () => {
    expect(isReaderImage({ ...pngImagePart(2, 2), type: "image" })).toBe(false);
    const { mimeType, data } = pngImagePart(2, 2);
    expect(isReaderImage({ mimeType, data })).toBe(true);
    expect(imageDataUri({ mimeType, data })).toBe(`data:image/png;base64,${pngBytes(2, 2).toString("base64")}`);
  });
});

describe("entryBlock images", () => {
  it("a user message's and a tool result's images are in the block; refused ones are named in the detail", () => {
    const png = pngImagePart(8, 8);
    const block = entryBlock(userWith([{ type: "text", text: "look" }, png, { type: "image", mimeType: "image/svg+xml", data: "PHN2Zz4=" }]));
    expect(block.images).toEqual([{ mimeType: "image/png", data: png.data }]);
    expect(block.detail).toBe('2 images (1 not shown: "image/svg+xml" is not a shown image type)');
    const result = entryBlock({
      type: "message", id: "t1", parentId: null, timestamp: "",
      message: { role: "toolResult", toolCallId: "c", toolName: "read", content: [{ type: "text", text: "an image" }, png], isError: false },
    });
    expect(result.images).toHaveLength(1);
    expect(result.detail).toBe("1 image");
  });

  it(`shows at most ${MAX_IMAGES_PER_BLOCK} images of one entry`, () => {
    const png = pngImagePart(2, 2);
    const block = entryBlock(userWith(Array.from({ length: MAX_IMAGES_PER_BLOCK + 3 }, () => png)));
    expect(block.images).toHaveLength(MAX_IMAGES_PER_BLOCK);
    expect(block.detail).toBe(`${MAX_IMAGES_PER_BLOCK + 3} images (3 not shown: more than ${MAX_IMAGES_PER_BLOCK} in one entry)`);
  });

  it("no images: no images field", () => {
    expect(entryBlock(userWith([{ type: "text", text: "hi" }])).images).toBeUndefined();
  });
});
