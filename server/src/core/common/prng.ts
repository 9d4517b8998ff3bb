// Seeded randomness: device inputs, the accuracy table's N inputs and the fuzz tests draw from it,
// so a run (or a failure) is reproducible from its seed.

/** mulberry32: a small, well-known 32-bit PRNG; floats in [0, 1), deterministic for a seed. */
export function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
