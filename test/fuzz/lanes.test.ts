// Pipelined WIRE lanes against a real wire-ref: cases that share tokens wait for each other or
// move to a fresh connection, and none is lost on the way (a lost case would wait out the
// timeout and come back as a suspect).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { encodeQuery, frame, toDatum, type QueryMsg } from '../../src/clients/wire/codec.ts';
import { QueryType, TermType } from '../../src/clients/wire/schema.ts';
import type { WireCase } from '../../fuzz/wire/case.ts';
import { WireLane } from '../../fuzz/wire/executor.ts';
import { startWireReference, type WireReference } from '../../targets/wire/server.ts';

const datum = (token: bigint): QueryMsg => ({ type: QueryType.START, token, query: { type: TermType.DATUM, datum: toDatum(1) } });
// RANGE(5) with batches of 2: the first answer is SUCCESS_PARTIAL, the token stays open on the server.
const range = (token: bigint): QueryMsg => ({ type: QueryType.START, token, query: { type: TermType.RANGE, args: [{ type: TermType.DATUM, datum: toDatum(5) }] } });
const wireCase = (...queries: QueryMsg[]): WireCase => ({ handshake: 'default', writes: [Buffer.concat(queries.map((q) => frame(encodeQuery(q))))], pipelinable: true, queries });

describe('WIRE pipelined lanes', () => {
  let ref: WireReference;
  beforeAll(async () => {
    ref = await startWireReference({ batchSize: 2 });
  });
  afterAll(() => ref.close());

  it('runs many cases that reuse the same few tokens, all at once, with none lost or timed out', async () => {
    const lane = new WireLane({ endpoint: () => ({ host: ref.host, port: ref.port }), authKey: '' }, 2000);
    const cases = Array.from({ length: 60 }, (_, i) => (i % 5 === 0 ? wireCase(range(BigInt(i % 3))) : wireCase(datum(BigInt(i % 3)), datum(7n))));
    const t0 = performance.now();
    const outcomes = await Promise.all(cases.map((c) => lane.submit(c)));
    lane.close();
    expect(outcomes.map((o) => o?.status)).toEqual(cases.map(() => 'passed'));
    expect(performance.now() - t0).toBeLessThan(1500); // far below one 2 s timeout
  });

  it('a case does not go out on a connection another case retired meanwhile', async () => {
    const lane = new WireLane({ endpoint: () => ({ host: ref.host, port: ref.port }), authKey: '' }, 2000);
    // Token 1 stays open on the server (a cursor), so a later case with token 1 retires the connection...
    expect((await lane.submit(wireCase(range(1n))))?.status).toBe('passed');
    // ...while a case submitted in the same tick, holding that same connection, must follow it to a new one.
    const t0 = performance.now();
    const outcomes = await Promise.all([lane.submit(wireCase(datum(1n))), lane.submit(wireCase(datum(2n)))]);
    lane.close();
    expect(outcomes.map((o) => o?.status)).toEqual(['passed', 'passed']);
    expect(performance.now() - t0).toBeLessThan(1500);
  });
});
