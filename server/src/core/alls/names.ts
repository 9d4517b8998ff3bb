// Interned names: each distinct name of a script becomes one string, found by hashing the source
// text in place (no substring is allocated for a repeat). Allocator dumps repeat the same keywords,
// words and layer names tens of thousands of times; sharing one string each cuts allocation, and
// every later Map/Set/property lookup reuses the string's cached hash instead of re-hashing a fresh
// copy. The table is seeded with the schema's words, so those are the schema's own strings.

/**
 * FNV-1a, 32 bits. The lexer hashes each NAME as it scans it (`hash = Math.imul(hash ^ char, FNV_PRIME)`
 * from FNV_OFFSET), `hashName` the same way. The offset is written as a signed 32-bit value so the
 * hash stays an integer in the lexer's loop.
 */
export const FNV_OFFSET = 0x811c9dc5 | 0;
export const FNV_PRIME = 16777619;

export function hashName(src: string, start: number, end: number): number {
  let h = FNV_OFFSET;
  for (let i = start; i < end; i++) h = Math.imul(h ^ src.charCodeAt(i), FNV_PRIME);
  return h;
}

export class NameTable {
  private keys: (string | undefined)[];
  private hashes: Int32Array;
  private mask: number;
  private count = 0;

  constructor(seed: Iterable<string> = [], capacity = 1024) {
    let size = 16;
    while (size < capacity * 2) size <<= 1;
    this.keys = new Array(size);
    this.hashes = new Int32Array(size);
    this.mask = size - 1;
    for (const w of seed) this.intern(w, 0, w.length);
  }

  /** The canonical string for `src[start, end)`; `h` is its `hashName` (the lexer's for NAME tokens). */
  intern(src: string, start: number, end: number, h = hashName(src, start, end)): string {
    const len = end - start;
    let i = h & this.mask;
    for (;;) {
      const k = this.keys[i];
      if (k === undefined) break;
      // `===` on a substring compares natively; startsWith(k, start) measured ~2x slower per name here.
      if (this.hashes[i] === h && k.length === len && src.substring(start, end) === k) return k;
      i = (i + 1) & this.mask;
    }
    const s = start === 0 && end === src.length ? src : src.slice(start, end);
    this.keys[i] = s;
    this.hashes[i] = h;
    if (++this.count * 2 > this.keys.length) this.grow();
    return s;
  }

  private grow(): void {
    const oldKeys = this.keys;
    const oldHashes = this.hashes;
    const size = oldKeys.length * 2;
    this.keys = new Array(size);
    this.hashes = new Int32Array(size);
    this.mask = size - 1;
    for (let j = 0; j < oldKeys.length; j++) {
      const k = oldKeys[j];
      if (k === undefined) continue;
      let i = oldHashes[j] & this.mask;
      while (this.keys[i] !== undefined) i = (i + 1) & this.mask;
      this.keys[i] = k;
      this.hashes[i] = oldHashes[j];
    }
  }
}
