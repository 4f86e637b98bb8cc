// encodeQuery writes Queries without protobufjs' writer (src/clients/wire/query-writer.ts) for the
// fuzzer's speed: the bytes must be exactly protobufjs' own, for every shape the generators draw
// and for the edges where the two could differ (lone surrogates in short and long strings,
// negative enum numbers, NaN and -0, tokens beyond 2^63).
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { encodeQuery, type QueryMsg } from '../../src/clients/wire/codec.ts';
import { QueryType_ } from '../../src/clients/wire/schema.ts';
import { DatumType, QueryType, TermType } from '../../src/clients/wire/schema.ts';
import { queryArbitrary } from '../../fuzz/wire/arbitraries.ts';

/** protobufjs, as encodeQuery wrote every Query before. */
const reference = (q: QueryMsg) => Buffer.from(QueryType_.encode({ ...q, ...(q.token === undefined ? {} : { token: q.token.toString() }) } as object).finish());

describe('encodeQuery: the same bytes as protobufjs', () => {
  it('for 3000 generated queries (seed 5)', () => {
    fc.assert(
      fc.property(queryArbitrary(), (q) => {
        expect(encodeQuery(q).equals(reference(q))).toBe(true);
      }),
      { seed: 5, numRuns: 3000 },
    );
  });

  it('at the edges', () => {
    const lone = '\ud800x\udc00';
    const queries: QueryMsg[] = [
      { type: QueryType.START, token: -1n, query: { type: -5, datum: { type: DatumType.R_STR, r_str: lone } } },
      { type: QueryType.START, token: 2n ** 63n - 1n, query: { type: TermType.DATUM, datum: { type: DatumType.R_STR, r_str: lone.repeat(20) } } },
      { type: 2 ** 31 - 1, token: -(2n ** 63n), query: { type: TermType.DATUM, datum: { r_num: NaN, r_str: '😀'.repeat(30) } } },
      { type: QueryType.STOP, token: 0n, OBSOLETE_noreply: false, accepts_r_json: true, global_optargs: [{ key: 'db', val: { type: TermType.DB, args: [] } }, {}] },
      { type: QueryType.START, token: 7n, query: { type: TermType.DATUM, datum: { type: DatumType.R_OBJECT, r_object: [{ key: '', val: { type: DatumType.R_NUM, r_num: -0 } }, { val: { r_bool: false } }] } } },
      {},
    ];
    for (const q of queries) expect(encodeQuery(q).toString('hex')).toBe(reference(q).toString('hex'));
  });
});
