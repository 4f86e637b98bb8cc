// The WIRE fuzz kinds:
//   wire-protobuf   1-3 well-framed Queries of random structure (pipelined on shared connections)
//   wire-bytes      valid frames, then byte mutations: bit flips, truncation, size prefixes that
//                   disagree with the body, oversized sizes, zero-length and garbage frames, the
//                   bytes split across several writes (one fresh connection per case)
//   wire-handshake  mutated handshakes (magics, key lengths, protocol magic, truncation, trailing
//                   bytes), followed by a SERVER_INFO frame, split across writes
// Every generated query goes through the sandbox of safety.ts: whatever it writes or drops, it
// writes or drops in the campaign's scratch databases (named from the seed in the kind context).
import fc from 'fast-check';
import { encodeQuery, frame, type QueryMsg } from '../../src/clients/wire/codec.ts';
import { QueryType } from '../../src/clients/wire/schema.ts';
import type { FuzzKind, KindContext } from '../core/kind.ts';
import type { WireCase } from './case.ts';
import { queriesArbitrary as caseQueries, termTypesWhere } from './arbitraries.ts';
import { frameMutationArbitrary, handshakeMutationArbitrary, mutateFrames, mutateHandshake, splitWrites } from './mutators.ts';
import { WireSandbox } from './safety.ts';

/**
 * Queries of one case, through the sandbox; only terms of the selection (`--include-term`, a
 * target's `implements.terms`) when there is one. The sandbox's own terms (DB, to keep writes in
 * the scratch database) and byte mutations (wire-bytes) may still reach other types.
 */
function queriesArbitrary(maxDepth: number, maxQueries: number, sandbox: WireSandbox, ctx: KindContext): fc.Arbitrary<QueryMsg[]> {
  const termTypes = ctx.select?.term ? termTypesWhere(ctx.select.term) : undefined;
  return caseQueries({ maxDepth, maxQueries, termTypes }).map((queries) => queries.map((q) => sandbox.query(q)));
}

export const wireProtobuf: FuzzKind<WireCase> = {
  name: 'wire-protobuf',
  protocol: 'wire',
  weight: 4,
  description: 'random Queries (every QueryType and TermType, nested terms, tokens > 2^32, global optargs), well framed',
  arbitrary: (ctx: KindContext) =>
    queriesArbitrary(4, 3, new WireSandbox(ctx.seed), ctx).map((queries): WireCase => ({
      handshake: 'default',
      writes: [Buffer.concat(queries.map((q) => frame(encodeQuery(q))))],
      pipelinable: true,
      queries,
    })),
};

export const wireBytes: FuzzKind<WireCase> = {
  name: 'wire-bytes',
  protocol: 'wire',
  weight: 2,
  description: 'valid frames with byte mutations (bit flips, truncation, wrong/oversized/zero sizes, garbage frames, split writes)',
  arbitrary: (ctx: KindContext) => {
    const sandbox = new WireSandbox(ctx.seed);
    return fc
      .record({
        queries: queriesArbitrary(2, 3, sandbox, ctx),
        mutations: fc.array(frameMutationArbitrary, { maxLength: 3 }),
        cuts: fc.array(fc.nat(512), { maxLength: 3 }),
      })
      .map(({ queries, mutations, cuts }): WireCase => {
        let bytes = mutateFrames(queries, mutations);
        // A mutation that made a frame reach outside the scratch databases (a flipped term type or
        // name) is not sent: the case keeps its frames as they were before the mutations.
        const unsafe = mutations.length > 0 && !sandbox.safeBytes(bytes);
        if (unsafe) bytes = mutateFrames(queries, []);
        return { handshake: 'default', writes: splitWrites(bytes, cuts), pipelinable: false, note: unsafe ? { mutations, dropped: 'the mutated frames reached outside the scratch database' } : { mutations } };
      });
  },
};

export const wireHandshake: FuzzKind<WireCase> = {
  name: 'wire-handshake',
  protocol: 'wire',
  description: 'mutated handshakes (unknown magics, wrong key lengths, missing protocol, truncation, trailing bytes)',
  arbitrary: (ctx: KindContext) =>
    fc.record({ mutation: handshakeMutationArbitrary, cuts: fc.array(fc.nat(64), { maxLength: 2 }) }).map(({ mutation, cuts }): WireCase => {
      const bytes = Buffer.concat([mutateHandshake(mutation, ctx.authKey), frame(encodeQuery({ type: QueryType.SERVER_INFO, token: 1n }))]);
      return { handshake: 'none', writes: splitWrites(bytes, cuts), pipelinable: false, note: { mutation } };
    }),
};

export const WIRE_KINDS = [wireProtobuf, wireBytes, wireHandshake] as const;
