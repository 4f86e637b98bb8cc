// Term catalogue of wire-protocol.md, group "Arrays and sets" (line 140).
import type { JsValue } from '../../src/clients/wire/codec.ts';
import { term as t } from '../../src/clients/wire/terms.ts';
import { check } from '../../src/core/check.ts';
import { deepEqual, expectArityRefusedTyped, expectValue, show, valueOf } from './support.ts';

const section = 'Term catalogue (TermType name = number: signature)';
const file = 'wire-protocol.md';
const line = 140;

export const arity = check(
  {
    id: 'wire.term-catalogue.arrays-and-sets.arity',
    title: 'Array and set terms refuse argument counts their signatures exclude with COMPILE_ERROR',
    protocol: 'wire',
    section,
    level: 'MUST',
    spec: { file, line, quote: 'APPEND=29: ARRAY, DATUM -> ARRAY' },
    touches: ['term:APPEND', 'term:CHANGE_AT', 'term:DATUM', 'term:DELETE_AT', 'term:DIFFERENCE', 'term:INSERT_AT', 'term:PREPEND', 'term:SET_DIFFERENCE', 'term:SET_INSERT', 'term:SET_INTERSECTION', 'term:SET_UNION', 'term:SPLICE_AT'],
    faults: ['arity-unchecked-arrays-and-sets', 'extra-args-ignored'],
    terms: ['APPEND', 'PREPEND', 'DIFFERENCE', 'SET_INSERT', 'SET_INTERSECTION', 'SET_UNION', 'SET_DIFFERENCE', 'INSERT_AT', 'DELETE_AT', 'CHANGE_AT', 'SPLICE_AT'],
  },
  async (ctx) => {
    const conn = await ctx.wire.connect();
    // Every argument of a wrong count is of the type the signature wants (an ARRAY first): a
    // literal of the wrong type may be refused for its type alone (the variant's COMPILE_ERROR).
    const item: JsValue[][] = [[[1]], [[1], 2, 3]];
    const arrays: JsValue[][] = [[[1, 2]], [[1, 2], [2], [1]]];
    await expectArityRefusedTyped(ctx, conn, {
      APPEND: { valid: t('APPEND', [[1], 2]), wrong: item },
      PREPEND: { valid: t('PREPEND', [[1], 2]), wrong: item },
      DIFFERENCE: { valid: t('DIFFERENCE', [[1, 2], [2]]), wrong: arrays },
      SET_INSERT: { valid: t('SET_INSERT', [[1], 2]), wrong: item },
      SET_INTERSECTION: { valid: t('SET_INTERSECTION', [[1, 2], [2]]), wrong: arrays },
      SET_UNION: { valid: t('SET_UNION', [[1], [2]]), wrong: arrays },
      SET_DIFFERENCE: { valid: t('SET_DIFFERENCE', [[1, 2], [2]]), wrong: arrays },
      INSERT_AT: { valid: t('INSERT_AT', [[1, 3], 1, 2]), wrong: [[[1, 3], 1], [[1, 3], 1, 2, 4]] },
      DELETE_AT: { valid: t('DELETE_AT', [[1, 2, 3], 1]), wrong: [[[1, 2, 3]], [[1, 2, 3], 0, 1, 2]] },
      CHANGE_AT: { valid: t('CHANGE_AT', [[1, 2], 1, 3]), wrong: [[[1, 2], 1], [[1, 2], 1, 3, 4]] },
      SPLICE_AT: { valid: t('SPLICE_AT', [[1, 4], 1, [2, 3]]), wrong: [[[1, 4], 1], [[1, 4], 1, [2, 3], [5]]] },
    });
  },
);

/**
 * Whether an array holds two equal elements. Bucketed by a key with sorted object keys and then
 * compared exactly: the array is the server's answer, and a pairwise scan of a huge one would hold
 * the run for minutes.
 */
const duplicates = (xs: JsValue): boolean => {
  if (!Array.isArray(xs)) return false;
  const sortedKeys = (_k: string, v: unknown) => (v && typeof v === 'object' && !Array.isArray(v) ? Object.fromEntries(Object.entries(v).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) : v);
  const buckets = new Map<string, JsValue[]>();
  for (const x of xs) {
    const key = JSON.stringify(x, sortedKeys) ?? 'undefined';
    const bucket = buckets.get(key);
    if (!bucket) buckets.set(key, [x]);
    else if (bucket.some((y) => deepEqual(x, y))) return true;
    else bucket.push(x);
  }
  return false;
};
const sameSet = (xs: JsValue, want: JsValue[]) => Array.isArray(xs) && xs.length === want.length && want.every((w) => xs.some((x) => deepEqual(x, w)));

export const setsWithoutDuplicates = check(
  {
    id: 'wire.term-catalogue.arrays-and-sets.set-operations-no-duplicates',
    title: 'SET_INSERT, SET_INTERSECTION, SET_UNION and SET_DIFFERENCE return arrays without duplicates',
    protocol: 'wire',
    section,
    level: 'MUST',
    spec: { file, line, quote: 'set operations return arrays without duplicates' },
    touches: ['term:DATUM', 'term:SET_DIFFERENCE', 'term:SET_INSERT', 'term:SET_INTERSECTION', 'term:SET_UNION'],
    faults: ['set-insert-keeps-duplicates', 'set-intersection-keeps-duplicates', 'set-union-keeps-duplicates', 'set-difference-keeps-duplicates'],
    terms: ['SET_INSERT', 'SET_INTERSECTION', 'SET_UNION', 'SET_DIFFERENCE'],
  },
  async (ctx) => {
    const conn = await ctx.wire.connect();
    const cases: [string, JsValue[], JsValue[]][] = [
      ['SET_INSERT', [[1, 2], 2], [1, 2]],
      ['SET_INSERT', [[1, 2], 3], [1, 2, 3]],
      ['SET_INTERSECTION', [[1, 1, 2, 3], [1, 3, 4]], [1, 3]],
      ['SET_UNION', [[1, 2], [2, 3]], [1, 2, 3]],
      ['SET_DIFFERENCE', [[1, 1, 2, 3], [2]], [1, 3]],
    ];
    for (const [name, args, members] of cases) {
      const what = `${name}(${args.map((a) => show(a)).join(', ')})`;
      const got = await valueOf(conn, t(name, args), what);
      ctx.expect(!duplicates(got), `${what} should hold no duplicates, got ${show(got)}`);
      ctx.expect(sameSet(got, members), `${what} should hold exactly ${show(members)}, got ${show(got)}`);
    }
  },
);

export const appendPrepend = check(
  {
    id: 'wire.term-catalogue.arrays-and-sets.append-prepend',
    title: 'APPEND adds an item at the end of an array, PREPEND at the start',
    protocol: 'wire',
    section,
    level: 'SHOULD',
    spec: { file, line, quote: 'PREPEND=80: ARRAY, DATUM -> ARRAY' },
    touches: ['term:APPEND', 'term:DATUM', 'term:DIFFERENCE', 'term:PREPEND'],
    faults: ['prepend-appends'],
    terms: ['APPEND', 'PREPEND', 'DIFFERENCE'],
  },
  async (ctx) => {
    const conn = await ctx.wire.connect();
    await expectValue(conn, t('APPEND', [[1, 2], 3]), [1, 2, 3], 'APPEND([1, 2], 3)');
    await expectValue(conn, t('PREPEND', [[1, 2], 0]), [0, 1, 2], 'PREPEND([1, 2], 0)');
    // Line 140 states no rule for an item held more than once (RethinkDB removes every occurrence,
    // a multiset difference one): no item repeats here (docs/open-choices.md).
    await expectValue(conn, t('DIFFERENCE', [[1, 2, 3], [2]]), [1, 3], 'DIFFERENCE([1, 2, 3], [2])');
  },
);

export const positionalChanges = check(
  {
    id: 'wire.term-catalogue.arrays-and-sets.insert-delete-change-splice-at',
    title: 'INSERT_AT, DELETE_AT (with its optional end), CHANGE_AT and SPLICE_AT (items of an ARRAY spliced in) answer ARRAYs',
    protocol: 'wire',
    section,
    level: 'SHOULD',
    spec: { file, line, quote: 'SPLICE_AT=85: ARRAY, NUMBER, ARRAY -> ARRAY' },
    touches: ['term:CHANGE_AT', 'term:DATUM', 'term:DELETE_AT', 'term:INSERT_AT', 'term:SPLICE_AT'],
    faults: ['splice-at-nests-array'],
    terms: ['INSERT_AT', 'DELETE_AT', 'CHANGE_AT', 'SPLICE_AT'],
  },
  async (ctx) => {
    const conn = await ctx.wire.connect();
    await expectValue(conn, t('INSERT_AT', [[1, 3], 1, 2]), [1, 2, 3], 'INSERT_AT([1, 3], 1, 2)');
    await expectValue(conn, t('DELETE_AT', [[0, 1, 2, 3], 1]), [0, 2, 3], 'DELETE_AT([0, 1, 2, 3], 1)');
    await expectValue(conn, t('DELETE_AT', [[0, 1, 2, 3], 1, 3]), [0, 3], 'DELETE_AT([0, 1, 2, 3], 1, 3)');
    await expectValue(conn, t('CHANGE_AT', [[1, 2], 0, 9]), [9, 2], 'CHANGE_AT([1, 2], 0, 9)');
    await expectValue(conn, t('SPLICE_AT', [[1, 4], 1, [2, 3]]), [1, 2, 3, 4], 'SPLICE_AT([1, 4], 1, [2, 3])');
  },
);

export const checks = [arity, setsWithoutDuplicates, appendPrepend, positionalChanges];
