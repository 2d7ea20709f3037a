// Byte helpers for the index files: a growable writer and LEB128 varints (7 bits per byte, low
// first). Postings are small integers (doc gaps, term counts), so most take one byte.

export class ByteWriter {
  private buf = new Uint8Array(64); // small: a segment has a writer per bucket, most of a few bytes
  length = 0;

  private room(n: number): void {
    if (this.length + n <= this.buf.length) return;
    let size = this.buf.length * 2;
    while (size < this.length + n) size *= 2;
    const next = new Uint8Array(size);
    next.set(this.buf.subarray(0, this.length));
    this.buf = next;
  }

  varint(value: number): void {
    this.room(8);
    let v = value;
    while (v >= 0x80) {
      this.buf[this.length++] = (v & 0x7f) | 0x80;
      v = Math.floor(v / 128);
    }
    this.buf[this.length++] = v;
  }

  bytes(data: Uint8Array): void {
    this.room(data.length);
    this.buf.set(data, this.length);
    this.length += data.length;
  }

  /** Zero bytes up to a multiple of `n`, so a typed array can be read from the offset. */
  align(n: number): void {
    const pad = (n - (this.length % n)) % n;
    this.room(pad);
    this.buf.fill(0, this.length, this.length + pad);
    this.length += pad;
  }

  result(): Uint8Array {
    return this.buf.subarray(0, this.length);
  }
}

/** A read position over a byte array: `next()` decodes one varint. */
export class VarintReader {
  constructor(
    readonly buf: Uint8Array,
    public pos = 0,
  ) {}

  next(): number {
    let result = 0;
    let scale = 1;
    for (;;) {
      if (this.pos >= this.buf.length) throw new Error('varint runs past the end');
      const byte = this.buf[this.pos++] as number;
      result += (byte & 0x7f) * scale;
      if (byte < 0x80) return result;
      scale *= 128;
      if (scale > 2 ** 49) throw new Error('varint too long');
    }
  }
}

export const utf8 = new TextEncoder();
export const fromUtf8 = new TextDecoder();
