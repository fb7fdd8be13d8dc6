// The deal's random numbers, with a const enum for its constants (inlined by the compiler).
const enum Lcg {
  Multiplier = 214013,
  Increment = 2531011,
}

export function* msRand(seed: number): Generator<number, never, void> {
  let state = seed >>> 0;
  for (;;) {
    state = (Math.imul(Lcg.Multiplier, state) + Lcg.Increment) >>> 0;
    yield (state >>> 16) & 0x7fff;
  }
}
