// Cheap generation for the fuzzer's hot path: a fast-check arbitrary whose values are drawn by a
// plain function from a small PRNG seeded by fast-check's random source, instead of being built
// from fast-check combinators. fc.record / fc.oneof / fc.array build a Value with a shrink
// context for every node (a WIRE case has about 80), and that cost about 190 µs of CPU per
// wire-protobuf case (generation and the garbage it leaves), more than everything else the
// fuzzer does per case. A drawn value has no context: it is shrunk, only when a case fails, by a
// function of the value itself (smaller candidates first).
//
// Determinism is fast-check's: the same seed and path give the same Random, hence the same PRNG
// seed and the same value, so campaigns, shards, replays from seed and path, and fc.check's
// shrinking (which regenerates the failing case from its seed and path) work as with any arbitrary.
import fc from 'fast-check';

/** mulberry32: one 32-bit state, a few integer operations a draw; plenty for test-case shapes. */
export class Draw {
  private s: number;
  constructor(seed: number) {
    this.s = seed >>> 0;
  }

  /** A float in [0, 1). */
  next(): number {
    let t = (this.s = (this.s + 0x6d2b79f5) | 0);
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }

  /** An unsigned 32-bit integer. */
  u32(): number {
    return Math.floor(this.next() * 4294967296) >>> 0;
  }

  /** An integer in [min, max] (a range of at most 2^32). */
  int(min: number, max: number): number {
    return min + Math.floor(this.next() * (max - min + 1));
  }

  bool(): boolean {
    return this.next() < 0.5;
  }

  /** True with probability p. */
  chance(p: number): boolean {
    return this.next() < p;
  }

  pick<T>(items: readonly T[]): T {
    return items[Math.floor(this.next() * items.length)];
  }

  /** An index by weight. */
  weighted(weights: readonly number[]): number {
    let total = 0;
    for (const w of weights) total += w;
    let x = this.next() * total;
    for (let i = 0; i < weights.length; i++) if ((x -= weights[i]) < 0) return i;
    return weights.length - 1;
  }
}

class DrawnArbitrary<T> extends fc.Arbitrary<T> {
  constructor(
    private readonly draw: (d: Draw) => T,
    private readonly shrinker: (value: T) => Iterable<T>,
  ) {
    super();
  }

  generate(mrng: fc.Random): fc.Value<T> {
    return new fc.Value(this.draw(new Draw(mrng.nextInt(-0x80000000, 0x7fffffff))), undefined);
  }

  canShrinkWithoutContext(value: unknown): value is T {
    return false;
  }

  shrink(value: T): fc.Stream<fc.Value<T>> {
    return new fc.Stream(mapIterable(this.shrinker(value), (v) => new fc.Value(v, undefined)));
  }
}

function* mapIterable<A, B>(items: Iterable<A>, f: (a: A) => B): IterableIterator<B> {
  for (const a of items) yield f(a);
}

/**
 * An arbitrary drawn by `draw` and shrunk by `shrink` (lazily: fast-check takes candidates until one
 * still fails). Candidates must be strictly smaller than the value, so that shrinking ends.
 */
export function drawn<T>(draw: (d: Draw) => T, shrink: (value: T) => Iterable<T> = () => []): fc.Arbitrary<T> {
  return new DrawnArbitrary(draw, shrink);
}
