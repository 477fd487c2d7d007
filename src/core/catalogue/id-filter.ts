// A Bloom filter of a session's entry ids, kept with its catalogue row: an
// appended line that reuses an earlier id changes what parent links resolve
// to (pi's later-wins lookup), so the row must then be read again in full.
// "Maybe seen" only costs a full read; "not seen" is certain.

const HASHES = 4;
const BITS_PER_ID = 16;
const MIN_BYTES = 32;
// 1 MiB holds 262,144 ids at 2× headroom: a 100 MB session (~100k entries) keeps its append path.
const MAX_BYTES = 1024 * 1024;

function fnv1a(text: string, seed: number): number {
  let h = 0x811c9dc5 ^ seed;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}

const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;

export class IdFilter {
  /** Decoded on first use: a catalogue of 5,000 sessions loads its filters without decoding them. */
  private decoded: Uint8Array | undefined;

  private constructor(
    bits: Uint8Array | undefined,
    private count: number,
    /** Length of the bits in bytes (a power of two). */
    private readonly byteLength: number,
    private readonly base64?: string,
  ) {
    this.decoded = bits;
  }

  // Decoded and encoded without a copy of the bits (a 100 MB session's filter is 1 MiB: each copy was another
  // MiB for the allocator on every write to a listed big session and every save of its row).
  private get bits(): Uint8Array {
    return (this.decoded ??= Buffer.from(this.base64!, "base64"));
  }

  /** A filter sized for `expected` ids (it stays usable while it holds ≤ its capacity). */
  static sizedFor(expected: number): IdFilter {
    let bytes = MIN_BYTES;
    while (bytes * 8 < expected * 2 * BITS_PER_ID && bytes < MAX_BYTES) bytes *= 2;
    return new IdFilter(new Uint8Array(bytes), 0, bytes);
  }

  /**
   * The filter of a session read in full with `entries` entries: room for as many again and a few
   * (a small session is cheap to read again when it outgrows its filter; 64 ids of headroom made
   * each of 5,000 three-entry sessions' filters 512 bytes instead of 128).
   */
  static forSession(entries: number): IdFilter {
    return IdFilter.sizedFor(entries + 16);
  }

  static fromJSON(value: unknown): IdFilter | undefined {
    if (typeof value !== "object" || value === null) return undefined;
    const { bits, count } = value as { bits?: unknown; count?: unknown };
    if (typeof bits !== "string" || typeof count !== "number" || !Number.isInteger(count) || count < 0) return undefined;
    // The decoded length from the text alone (the bytes are decoded when first asked).
    if (bits.length % 4 !== 0 || !BASE64.test(bits)) return undefined;
    const length = (bits.length / 4) * 3 - (bits.endsWith("==") ? 2 : bits.endsWith("=") ? 1 : 0);
    if (length < MIN_BYTES || length > MAX_BYTES || (length & (length - 1)) !== 0) return undefined;
    return new IdFilter(undefined, count, length, bits);
  }

  toJSON(): { bits: string; count: number } {
    const bits = this.decoded;
    return { bits: bits ? Buffer.from(bits.buffer, bits.byteOffset, bits.byteLength).toString("base64") : this.base64!, count: this.count };
  }

  /** Whether it can take more ids and still answer usefully. */
  get hasRoom(): boolean {
    return this.count * BITS_PER_ID <= this.byteLength * 8;
  }

  add(id: string): void {
    this.count++;
    this.each(id, (byte, mask) => {
      this.bits[byte]! |= mask;
    });
  }

  mayHave(id: string): boolean {
    let all = true;
    this.each(id, (byte, mask) => {
      if ((this.bits[byte]! & mask) === 0) all = false;
    });
    return all;
  }

  private each(id: string, visit: (byte: number, mask: number) => void): void {
    const size = this.byteLength * 8;
    const a = fnv1a(id, 0);
    const b = fnv1a(id, 0x9e3779b9) | 1;
    for (let i = 0; i < HASHES; i++) {
      const bit = (a + Math.imul(i, b)) >>> 0;
      const at = bit & (size - 1);
      visit(at >>> 3, 1 << (at & 7));
    }
  }
}
