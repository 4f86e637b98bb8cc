// The campaign draws each chunk 16 cases at a time (fast-check `path` = the batch's first index).
// Shrinking and finding files name a case by (chunk seed, index): that only holds if batch
// generation gives exactly the cases fc.sample gives for the whole chunk.
import { isDeepStrictEqual } from 'node:util';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { FUZZ_KINDS } from '../../fuzz/core/registry.ts';

describe('batched generation', () => {
  // Safe (the default) and with allow: ['destructive']: the scratch names come from the seed.
  // An opt-in stateful kind refuses to generate without destructive: it is drawn with it only.
  it.each(FUZZ_KINDS.flatMap((k) => (k.optIn ? [[k.name, true] as const] : ([[k.name, false], [k.name, true]] as const))))('%s (destructive: %s): 16 at a time by path equals the whole chunk', (name, destructive) => {
    const kind = FUZZ_KINDS.find((k) => k.name === name)!;
    const arb = kind.arbitrary({ authKey: 'bench-key', user: 'tux', seed: 42, destructive });
    const whole = fc.sample(arb, { seed: 1234, numRuns: 64 });
    const batched = [0, 16, 32, 48].flatMap((first) => fc.sample(arb, { seed: 1234, path: String(first), numRuns: 16 }));
    expect(batched.length).toBe(whole.length);
    for (let i = 0; i < whole.length; i++) expect(isDeepStrictEqual(batched[i], whole[i]), `case ${i}`).toBe(true);
  });
});
