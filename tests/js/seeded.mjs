// A seeded generator the JS tests share; no imports, so any runtime can load it.

/** A xorshift32 generator from a seed: each call returns the next unsigned 32-bit value. */
export function xorshift32(seed) {
  let state = seed >>> 0 || 1;
  return () => {
    state ^= state << 13; state >>>= 0;
    state ^= state >>> 17;
    state ^= state << 5; state >>>= 0;
    return state;
  };
}
