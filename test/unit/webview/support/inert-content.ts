// What "inert" means for a webview page (the summary panel and the reader):
// no element that runs, loads or embeds; no handler or style attribute; no
// URL attribute a browser would follow to anything but http(s)/mailto/#.

const FORBIDDEN_ELEMENTS = new Set([
  "script", "iframe", "frame", "frameset", "object", "embed", "applet", "style", "link", "meta", "base",
  "form", "svg", "math", "img", "image", "video", "audio", "source", "picture", "template", "noscript",
  "xmp", "plaintext", "portal", "select", "option",
]);

const URL_ATTRIBUTES = new Set([
  "href", "src", "srcset", "action", "formaction", "xlink:href", "data", "srcdoc", "poster",
  "background", "ping", "cite", "longdesc", "lowsrc", "dynsrc",
]);

/** Browser-style check, independent of the code under test: WHATWG URL parsing strips tabs and newlines. */
export function unsafeUrl(value: string): string | undefined {
  const compact = value.replace(/[\u0000-\u0020\u007f-\u009f]/g, "").toLowerCase();
  if (/^(javascript|data|vbscript|file):/.test(compact)) return "dangerous scheme";
  if (value.startsWith("#")) return undefined;
  if (!/^[a-z][a-z0-9+.-]*:/i.test(value)) return "not an absolute URL";
  const protocol = new URL(value, "https://webview.invalid/").protocol;
  return ["http:", "https:", "mailto:"].includes(protocol) ? undefined : `scheme ${protocol}`;
}

/** Every element under `root` (an explicit walk: happy-dom's querySelectorAll("*") is slow on 40k elements). */
export function allElements(root: Element): Element[] {
  const found: Element[] = [];
  const stack = Array.from(root.children);
  while (stack.length > 0) {
    const element = stack.pop()!;
    found.push(element);
    stack.push(...Array.from(element.children));
  }
  return found;
}

/** An <img> that only shows bytes it carries: a base64 data: URI of a raster type, nothing else to load. */
const DATA_IMAGE = /^data:image\/(png|jpeg|gif|webp);base64,[A-Za-z0-9+/]+={0,2}$/;
function isDataImage(element: Element): boolean {
  return (
    element.localName.toLowerCase() === "img" &&
    DATA_IMAGE.test(element.getAttribute("src") ?? "") &&
    Array.from(element.attributes).every((a) => ["src", "alt", "class", "loading", "decoding"].includes(a.name.toLowerCase()))
  );
}

/**
 * Everything that could run, load or navigate, as readable problems (empty when inert).
 * `dataImages`: <img> elements showing a raster data: URI are allowed (the reader's and the export's images).
 */
export function activeContent(root: Element, textareas: number, options: { dataImages?: boolean } = {}): string[] {
  const problems: string[] = [];
  let textareaCount = 0;
  for (const element of allElements(root)) {
    const tag = element.localName.toLowerCase();
    if (options.dataImages && isDataImage(element)) continue;
    if (FORBIDDEN_ELEMENTS.has(tag)) problems.push(`<${tag}> element`);
    if (tag === "textarea") textareaCount++;
    if (tag === "input" && (element.getAttribute("type") !== "checkbox" || !element.hasAttribute("disabled"))) {
      problems.push("an input that is not a disabled checkbox");
    }
    for (const attribute of Array.from(element.attributes)) {
      const name = attribute.name.toLowerCase();
      if (name.startsWith("on")) problems.push(`<${tag} ${name}>`);
      if (name === "style") problems.push(`<${tag} style>`);
      const urlProblem = URL_ATTRIBUTES.has(name) ? unsafeUrl(attribute.value) : undefined;
      if (urlProblem) problems.push(`<${tag} ${name}=${JSON.stringify(attribute.value)}>: ${urlProblem}`);
    }
  }
  if (textareaCount !== textareas) problems.push(`${textareaCount} textareas, expected ${textareas}`);
  return problems;
}

