// Term catalogue of wire-protocol.md, group "Sequences" (line 142), with the changefeed notes
// the CHANGES term's streams carry (ResponseNote values, line 54).
import type { JsValue, ResponseMsg } from '../../src/clients/wire/codec.ts';
import type { WireConnection } from '../../src/clients/wire/connection.ts';
import { names, ResponseNote, ResponseType } from '../../src/clients/wire/schema.ts';
import { term as t, type Term } from '../../src/clients/wire/terms.ts';
import { check, type WireCheckContext } from '../../src/core/check.ts';
import { deepEqual, expectArityRefused, expectType, expectValue, fn1, fn2, perTerm, type SetupContext, setupValue, show, summary, tableOrWhy, tableWith, typeOf, unavailableEnds, valueOf, values, withDatabase, withOptionalDatabase } from './support.ts';

const section = 'Term catalogue (TermType name = number: signature)';
const file = 'wire-protocol.md';
const line = 142;

const SUCCESS: number[] = [ResponseType.SUCCESS_ATOM, ResponseType.SUCCESS_SEQUENCE, ResponseType.SUCCESS_PARTIAL];

const idsOf = (rows: JsValue) => (Array.isArray(rows) ? rows.map((r) => (r as { id: JsValue }).id) : rows);
const sortedIds = (rows: JsValue) => (Array.isArray(rows) ? (idsOf(rows) as number[]).sort((a, b) => a - b) : rows);

/** A table with rows {id: 1..5}. */
async function fiveRows(ctx: SetupContext, conn: WireConnection, db: Term): Promise<Term> {
  return tableWith(ctx, conn, db, 'rows', [1, 2, 3, 4, 5].map((id) => ({ id })));
}

/** INDEX_CREATE of an index over one field, then INDEX_WAIT: a set-up step. */
async function fieldIndex(ctx: SetupContext, conn: WireConnection, table: Term, field: string, what: string): Promise<void> {
  await setupValue(ctx, conn, t('INDEX_CREATE', [table, field, fn1((x) => t('GET_FIELD', [x, field]))]), `INDEX_CREATE(${what}, "${field}")`, 'wire.term-catalogue.secondary-indexes.index-status-and-wait-shape');
  await setupValue(ctx, conn, t('INDEX_WAIT', [table, field]), `INDEX_WAIT(${what}, "${field}")`, 'wire.term-catalogue.secondary-indexes.index-status-and-wait-shape');
}

export const arity = check(
  {
    id: 'wire.term-catalogue.sequences.arity',
    title: 'Sequence terms refuse argument counts their signatures exclude with COMPILE_ERROR',
    protocol: 'wire',
    section,
    level: 'MUST',
    spec: { file, line, quote: 'SLICE=30: Sequence, NUMBER, NUMBER -> Sequence; SKIP=70 and LIMIT=71: Sequence, NUMBER -> Sequence' },
    touches: ['term:ADD', 'term:ARGS', 'term:ASC', 'term:BETWEEN', 'term:BRACKET', 'term:CHANGES', 'term:CONCAT_MAP', 'term:CONTAINS', 'term:COUNT', 'term:DATUM', 'term:DB', 'term:DB_CREATE', 'term:DB_DROP', 'term:DESC', 'term:DISTINCT', 'term:EQ_JOIN', 'term:FILTER', 'term:FUNC', 'term:GROUP', 'term:INNER_JOIN', 'term:INSERT', 'term:IS_EMPTY', 'term:LIMIT', 'term:MAKE_ARRAY', 'term:MAP', 'term:NTH', 'term:OFFSETS_OF', 'term:ORDER_BY', 'term:OUTER_JOIN', 'term:RANGE', 'term:REDUCE', 'term:SAMPLE', 'term:SKIP', 'term:SLICE', 'term:TABLE', 'term:TABLE_CREATE', 'term:UNGROUP', 'term:VAR', 'term:ZIP'],
    faults: ['arity-unchecked-sequences'],
    terms: ['SLICE', 'SKIP', 'LIMIT', 'OFFSETS_OF', 'CONTAINS', 'BETWEEN', 'REDUCE', 'MAP', 'FILTER', 'CONCAT_MAP', 'ORDER_BY', 'DISTINCT', 'COUNT', 'IS_EMPTY', 'NTH', 'BRACKET', 'INNER_JOIN', 'OUTER_JOIN', 'EQ_JOIN', 'ZIP', 'RANGE', 'SAMPLE', 'GROUP', 'UNGROUP', 'CHANGES', 'ARGS', 'ASC', 'DESC'],
  },
  async (ctx) => {
    await withOptionalDatabase(ctx, 'sequences-arity', async (conn, db, why) => {
      const table = await tableOrWhy(ctx, conn, db, why, 'rows', [{ id: 1 }, { id: 2 }]);
      const tb = typeof table === 'string' ? undefined : table;
      const no = typeof table === 'string' ? table : '';
      const rows = [{ k: 1 }, { k: 2 }];
      await expectArityRefused(ctx, conn, {
        SLICE: { valid: t('SLICE', [[1, 2, 3], 0, 1]), wrong: [1, 4] },
        SKIP: { valid: t('SKIP', [[1, 2], 1]), wrong: [1, 3] },
        LIMIT: { valid: t('LIMIT', [[1, 2], 1]), wrong: [1, 3] },
        OFFSETS_OF: { valid: t('OFFSETS_OF', [[1, 2], 2]), wrong: [1, 3] },
        CONTAINS: { valid: t('CONTAINS', [[1, 2], 2]), wrong: [0] },
        BETWEEN: { valid: tb && t('BETWEEN', [tb, 1, 2]), wrong: [2, 4], why: no },
        REDUCE: { valid: t('REDUCE', [[1, 2], fn2((a) => a)]), wrong: [1, 3] },
        MAP: { valid: t('MAP', [[1, 2], fn1((x) => x)]), wrong: [1] },
        FILTER: { valid: t('FILTER', [rows, { k: 1 }]), wrong: [1, 3] },
        CONCAT_MAP: { valid: t('CONCAT_MAP', [[1, 2], fn1((x) => t('MAKE_ARRAY', [x]))]), wrong: [1, 3] },
        ORDER_BY: { valid: t('ORDER_BY', [rows, 'k']), wrong: [0] },
        DISTINCT: { valid: t('DISTINCT', [[1, 1]]), wrong: [2] },
        COUNT: { valid: t('COUNT', [[1, 2]]), wrong: [3] },
        IS_EMPTY: { valid: t('IS_EMPTY', [[1]]), wrong: [2] },
        NTH: { valid: t('NTH', [[1, 2], 0]), wrong: [1, 3] },
        BRACKET: { valid: t('BRACKET', [[1, 2], 0]), wrong: [1, 3] },
        INNER_JOIN: { valid: t('INNER_JOIN', [[1], [2], fn2(() => true)]), wrong: [2, 4] },
        OUTER_JOIN: { valid: t('OUTER_JOIN', [[1], [2], fn2(() => true)]), wrong: [2, 4] },
        EQ_JOIN: { valid: tb && t('EQ_JOIN', [[{ r: 1 }], 'r', tb]), wrong: [2, 4], why: no },
        ZIP: { valid: t('ZIP', [[{ left: { a: 1 }, right: { b: 2 } }]]), wrong: [2] },
        RANGE: { valid: t('RANGE', [2]), wrong: [3] },
        SAMPLE: { valid: t('SAMPLE', [[1, 2], 1]), wrong: [1, 3] },
        GROUP: { valid: t('GROUP', [rows, 'k']), wrong: [0] },
        UNGROUP: { valid: t('UNGROUP', [t('GROUP', [rows, 'k'])]), wrong: [2] },
        CHANGES: { valid: tb && t('CHANGES', [tb]), wrong: [2], why: no },
        ARGS: { valid: t('ADD', [t('ARGS', [[1, 2]])]), wrong: [2] },
        ASC: { valid: t('ORDER_BY', [rows, t('ASC', ['k'])]), wrong: [2] },
        DESC: { valid: t('ORDER_BY', [rows, t('DESC', ['k'])]), wrong: [2] },
      });
    });
  },
);

export const rangeForms = check(
  {
    id: 'wire.term-catalogue.sequences.range-forms',
    title: 'RANGE(a) is [0, a), RANGE(a, b) is [a, b), RANGE() is an unbounded stream',
    protocol: 'wire',
    section,
    level: 'MUST',
    spec: { file, line, quote: 'RANGE=173: () -> [0,inf) | NUMBER -> [0,a) | NUMBER, NUMBER -> [a,b)' },
    touches: ['term:DATUM', 'term:RANGE'],
    faults: ['range-includes-end'],
    terms: ['RANGE'],
  },
  async (ctx) => {
    const conn = await ctx.wire.connect();
    await expectValue(conn, t('RANGE', [4]), [0, 1, 2, 3], 'RANGE(4)');
    await expectValue(conn, t('RANGE', [2, 5]), [2, 3, 4], 'RANGE(2, 5)');
    const res = await conn.start(t('RANGE', []));
    expectType(res, 'SUCCESS_PARTIAL', 'RANGE(), an unbounded stream');
    conn.stop(res.token!);
  },
);

export const limitSkipSliceOnInfinite = check(
  {
    id: 'wire.term-catalogue.sequences.limit-skip-slice-on-unbounded-range',
    title: 'LIMIT, SKIP and SLICE work over the unbounded stream of RANGE()',
    protocol: 'wire',
    section,
    level: 'SHOULD',
    spec: { file, line, quote: 'SKIP=70 and LIMIT=71: Sequence, NUMBER -> Sequence' },
    touches: ['term:DATUM', 'term:LIMIT', 'term:RANGE', 'term:SKIP', 'term:SLICE'],
    faults: ['infinite-stream-refused'],
    terms: ['LIMIT', 'SKIP', 'SLICE', 'RANGE'],
  },
  async (ctx) => {
    const conn = await ctx.wire.connect();
    const range = t('RANGE', []);
    // Term by term: a server without SLICE still has LIMIT and SKIP tested (SKIP's case needs LIMIT).
    await perTerm(ctx, {
      LIMIT: () => expectValue(conn, t('LIMIT', [range, 3]), [0, 1, 2], 'LIMIT(RANGE(), 3)'),
      SKIP: () => expectValue(conn, t('LIMIT', [t('SKIP', [range, 1500]), 2]), [1500, 1501], 'LIMIT(SKIP(RANGE(), 1500), 2)'),
      SLICE: () => expectValue(conn, t('SLICE', [range, 2, 5]), [2, 3, 4], 'SLICE(RANGE(), 2, 5)'),
    });
  },
);

export const betweenHalfOpen = check(
  {
    id: 'wire.term-catalogue.sequences.between-half-open',
    title: 'BETWEEN includes its lower bound and excludes its upper bound unless left_bound/right_bound say otherwise',
    protocol: 'wire',
    section,
    level: 'MUST',
    spec: { file, line, quote: "bounds are 'open' or 'closed'; half-open by default" },
    touches: ['term:BETWEEN', 'term:DATUM', 'term:DB', 'term:DB_CREATE', 'term:DB_DROP', 'term:INSERT', 'term:TABLE', 'term:TABLE_CREATE'],
    faults: ['between-closed-right', 'between-open-left'],
    terms: ['BETWEEN'],
  },
  async (ctx) => {
    await withDatabase(ctx, 'between-half-open', async (conn, db) => {
      const table = await fiveRows(ctx, conn, db);
      const cases: [Record<string, string>, number[]][] = [
        [{}, [2, 3]],
        [{ right_bound: 'closed' }, [2, 3, 4]],
        [{ left_bound: 'open' }, [3]],
        [{ left_bound: 'open', right_bound: 'closed' }, [3, 4]],
      ];
      for (const [bounds, want] of cases) {
        const what = `BETWEEN(table of ids 1..5, 2, 4${Object.keys(bounds).length ? `, ${show(bounds)}` : ''})`;
        const got = sortedIds(await valueOf(conn, t('BETWEEN', [table, 2, 4], bounds), what));
        ctx.expect(deepEqual(got, want), `${what} should select ids ${show(want)}, got ${show(got)}`);
      }
    });
  },
);

export const betweenDeprecated = check(
  {
    id: 'wire.term-catalogue.sequences.between-deprecated-null-unbounded',
    title: 'BETWEEN_DEPRECATED takes a NULL bound as unbounded',
    protocol: 'wire',
    section,
    // Line 142 states the rule ("null means unbounded"). Line 193 calls the term obsolete: a server
    // without it leaves the check inconclusive (the term is missing), one that has it keeps the rule.
    level: 'MUST',
    spec: { file, line, quote: 'BETWEEN_DEPRECATED=36 (null means unbounded)' },
    touches: ['term:BETWEEN_DEPRECATED', 'term:DATUM', 'term:DB', 'term:DB_CREATE', 'term:DB_DROP', 'term:INSERT', 'term:TABLE', 'term:TABLE_CREATE'],
    faults: ['between-deprecated-null-bound'],
    terms: ['BETWEEN_DEPRECATED'],
  },
  async (ctx) => {
    await withDatabase(ctx, 'between-deprecated-null-unbounded', async (conn, db) => {
      const table = await fiveRows(ctx, conn, db);
      const low = sortedIds(await valueOf(conn, t('BETWEEN_DEPRECATED', [table, null, 3]), 'BETWEEN_DEPRECATED(table, null, 3)'));
      ctx.expect(deepEqual(low, [1, 2]), `BETWEEN_DEPRECATED(table of ids 1..5, null, 3) should select ids [1,2], got ${show(low)}`);
      const high = sortedIds(await valueOf(conn, t('BETWEEN_DEPRECATED', [table, 4, null]), 'BETWEEN_DEPRECATED(table, 4, null)'));
      ctx.expect(deepEqual(high, [4, 5]), `BETWEEN_DEPRECATED(table of ids 1..5, 4, null) should select ids [4,5], got ${show(high)}`);
    });
  },
);

export const filterImplicitDefault = check(
  {
    id: 'wire.term-catalogue.sequences.filter-implicit-default-false',
    title: 'FILTER drops rows whose predicate hits a missing field (implicit default false), or uses the default option',
    protocol: 'wire',
    section,
    level: 'MUST',
    spec: { file, line, quote: 'FILTER=39: Sequence, Function(1)|OBJECT, {default:DATUM} -> Sequence (body wrapped in implicit default false)' },
    touches: ['term:DATUM', 'term:FILTER', 'term:FUNC', 'term:GET_FIELD', 'term:GT', 'term:MAKE_ARRAY', 'term:VAR'],
    faults: ['filter-no-implicit-default'],
    terms: ['FILTER'],
  },
  async (ctx) => {
    const conn = await ctx.wire.connect();
    const rows: JsValue[] = [{ a: 1 }, { b: 2 }, { a: 3 }];
    const pred = fn1((x) => t('GT', [t('GET_FIELD', [x, 'a']), 0]));
    await expectValue(conn, t('FILTER', [rows, pred]), [{ a: 1 }, { a: 3 }], 'FILTER([{a: 1}, {b: 2}, {a: 3}], x => x.a > 0)');
    await expectValue(conn, t('FILTER', [rows, pred], { default: true }), rows, 'FILTER([{a: 1}, {b: 2}, {a: 3}], x => x.a > 0, {default: true})');
    await expectValue(conn, t('FILTER', [rows, { a: 3 }]), [{ a: 3 }], 'FILTER([{a: 1}, {b: 2}, {a: 3}], {a: 3})');
  },
);

export const unionKeepsDuplicates = check(
  {
    id: 'wire.term-catalogue.sequences.union-keeps-duplicates',
    title: 'UNION keeps duplicates',
    protocol: 'wire',
    section,
    level: 'MUST',
    spec: { file, line, quote: 'UNION=44: Sequence... -> Sequence (keeps duplicates)' },
    touches: ['term:DATUM', 'term:UNION'],
    faults: ['union-drops-duplicates'],
    terms: ['UNION'],
  },
  async (ctx) => {
    const conn = await ctx.wire.connect();
    const got = await valueOf(conn, t('UNION', [[1, 2], [2, 3], [3]]), 'UNION([1, 2], [2, 3], [3])');
    const sorted = Array.isArray(got) ? [...(got as number[])].sort() : got;
    ctx.expect(deepEqual(sorted, [1, 2, 2, 3, 3]), `UNION([1, 2], [2, 3], [3]) should keep duplicates ([1,2,2,3,3] in some order), got ${show(got)}`);
  },
);

export const countWithPredicate = check(
  {
    id: 'wire.term-catalogue.sequences.count-with-value-or-function',
    title: 'COUNT counts all items, the items equal to a DATUM, or the items a function accepts',
    protocol: 'wire',
    section,
    // Line 142 gives only the signature: what the optional DATUM or function counts is read from the term's name.
    level: 'SHOULD',
    spec: { file, line, quote: 'COUNT=43: Sequence [, DATUM|Function(1)] -> NUMBER' },
    touches: ['term:CONTAINS', 'term:COUNT', 'term:DATUM', 'term:FUNC', 'term:GE', 'term:GT', 'term:IS_EMPTY', 'term:MAKE_ARRAY', 'term:OFFSETS_OF', 'term:VAR'],
    faults: ['count-ignores-predicate'],
    terms: ['COUNT', 'IS_EMPTY', 'CONTAINS', 'OFFSETS_OF'],
  },
  async (ctx) => {
    const conn = await ctx.wire.connect();
    const xs = [1, 2, 2, 3, 4];
    // Term by term: a server without IS_EMPTY still has COUNT tested, and a COUNT regression is not hidden by it.
    await perTerm(ctx, {
      COUNT: async () => {
        await expectValue(conn, t('COUNT', [xs]), 5, 'COUNT([1, 2, 2, 3, 4])');
        await expectValue(conn, t('COUNT', [xs, 2]), 2, 'COUNT([1, 2, 2, 3, 4], 2)');
        await expectValue(conn, t('COUNT', [xs, fn1((x) => t('GT', [x, 2]))]), 2, 'COUNT([1, 2, 2, 3, 4], x => x > 2)');
      },
      IS_EMPTY: async () => {
        await expectValue(conn, t('IS_EMPTY', [[]]), true, 'IS_EMPTY([])');
        await expectValue(conn, t('IS_EMPTY', [xs]), false, 'IS_EMPTY([1, 2, 2, 3, 4])');
      },
      CONTAINS: () => expectValue(conn, t('CONTAINS', [xs, 3, fn1((x) => t('GT', [x, 3]))]), true, 'CONTAINS([1, 2, 2, 3, 4], 3, x => x > 3)'),
      OFFSETS_OF: async () => {
        await expectValue(conn, t('OFFSETS_OF', [xs, 2]), [1, 2], 'OFFSETS_OF([1, 2, 2, 3, 4], 2)');
        await expectValue(conn, t('OFFSETS_OF', [xs, fn1((x) => t('GE', [x, 3]))]), [3, 4], 'OFFSETS_OF([1, 2, 2, 3, 4], x => x >= 3)');
      },
    });
  },
);

export const orderByIndex = check(
  {
    id: 'wire.term-catalogue.sequences.order-by-index',
    title: 'ORDER_BY orders by fields with ASC/DESC, and by a secondary index named in `index`',
    protocol: 'wire',
    section,
    // Line 142 gives only the signature: the order ASC, DESC and `index` give is read from their names.
    level: 'SHOULD',
    spec: { file, line, quote: 'ORDER_BY=41: Sequence, (!STRING|Ordering)..., {index:(!STRING|Ordering)} -> Sequence' },
    touches: ['term:ASC', 'term:DATUM', 'term:DB', 'term:DB_CREATE', 'term:DB_DROP', 'term:DESC', 'term:FUNC', 'term:GET_FIELD', 'term:INDEX_CREATE', 'term:INDEX_WAIT', 'term:INSERT', 'term:MAKE_ARRAY', 'term:ORDER_BY', 'term:TABLE', 'term:TABLE_CREATE', 'term:VAR'],
    faults: ['order-by-index-ignored'],
    terms: ['ORDER_BY', 'ASC', 'DESC', 'INDEX_CREATE'],
  },
  async (ctx) => {
    await withDatabase(ctx, 'order-by-index', async (conn, db) => {
      const rows = [{ id: 1, score: 30 }, { id: 2, score: 10 }, { id: 3, score: 20 }];
      const table = await tableWith(ctx, conn, db, 'rows', rows);
      await expectValue(conn, t('ORDER_BY', [rows, 'score']), [rows[1], rows[2], rows[0]], 'ORDER_BY(rows, "score")');
      await expectValue(conn, t('ORDER_BY', [rows, t('DESC', ['score'])]), [rows[0], rows[2], rows[1]], 'ORDER_BY(rows, DESC("score"))');
      await expectValue(conn, t('ORDER_BY', [rows, t('ASC', ['id'])]), rows, 'ORDER_BY(rows, ASC("id"))');
      await fieldIndex(ctx, conn, table, 'score', 'table');
      const asc = idsOf(await valueOf(conn, t('ORDER_BY', [table], { index: 'score' }), 'ORDER_BY(table, {index: "score"})'));
      ctx.expect(deepEqual(asc, [2, 3, 1]), `ORDER_BY(table, {index: "score"}) should give ids [2,3,1], got ${show(asc)}`);
      const desc = idsOf(await valueOf(conn, t('ORDER_BY', [table], { index: t('DESC', ['score']) }), 'ORDER_BY(table, {index: DESC("score")})'));
      ctx.expect(deepEqual(desc, [1, 3, 2]), `ORDER_BY(table, {index: DESC("score")}) should give ids [1,3,2], got ${show(desc)}`);
    });
  },
);

export const eqJoinIndex = check(
  {
    id: 'wire.term-catalogue.sequences.eq-join-index',
    title: 'EQ_JOIN matches a field of each left item against the right table by primary key or by the named index',
    protocol: 'wire',
    section,
    // Line 142 gives only the signature: how items are matched, and what `index` does, is read from the names.
    level: 'SHOULD',
    spec: { file, line, quote: 'EQ_JOIN=50: Sequence, !STRING, Sequence, {index:!STRING} -> Sequence' },
    touches: ['term:DATUM', 'term:DB', 'term:DB_CREATE', 'term:DB_DROP', 'term:EQ', 'term:EQ_JOIN', 'term:FUNC', 'term:GET_FIELD', 'term:INDEX_CREATE', 'term:INDEX_WAIT', 'term:INNER_JOIN', 'term:INSERT', 'term:MAKE_ARRAY', 'term:OUTER_JOIN', 'term:TABLE', 'term:TABLE_CREATE', 'term:VAR', 'term:ZIP'],
    faults: ['eq-join-ignores-index'],
    terms: ['EQ_JOIN', 'ZIP', 'INNER_JOIN', 'OUTER_JOIN'],
  },
  async (ctx) => {
    await withDatabase(ctx, 'eq-join-index', async (conn, db) => {
      const users = await tableWith(ctx, conn, db, 'users', [{ id: 1, name: 'ann' }, { id: 2, name: 'bob' }]);
      await fieldIndex(ctx, conn, users, 'name', 'users');
      const left = [{ who: 'bob', n: 1 }, { who: 'zed', n: 2 }];
      // Line 142 names no field of a joined pair: a pair is recognised by the items it carries.
      const pairs = async (query: Term, what: string, want: [JsValue, JsValue][]) => {
        const got = await valueOf(conn, query, what);
        ctx.expect(
          Array.isArray(got) && got.length === want.length && want.every(([l, r], i) => carries(got[i], l) && carries(got[i], r)),
          `${what} should give ${want.length} pair(s) ${show(want)}, got ${show(got)}`,
        );
      };
      await pairs(t('EQ_JOIN', [left, 'who', users], { index: 'name' }), 'EQ_JOIN([{who: "bob"}, {who: "zed"}], "who", users, {index: "name"})', [[left[0], { id: 2, name: 'bob' }]]);
      await pairs(t('EQ_JOIN', [[{ uid: 1 }], 'uid', users]), 'EQ_JOIN([{uid: 1}], "uid", users)', [[{ uid: 1 }, { id: 1, name: 'ann' }]]);
      await expectValue(conn, t('ZIP', [t('EQ_JOIN', [[{ uid: 1 }], 'uid', users])]), [{ uid: 1, id: 1, name: 'ann' }], 'ZIP(EQ_JOIN([{uid: 1}], "uid", users))');
      const on = fn2((l, r) => t('EQ', [t('GET_FIELD', [l, 'x']), t('GET_FIELD', [r, 'x'])]));
      await pairs(t('INNER_JOIN', [[{ x: 1, l: true }, { x: 2, l: true }], [{ x: 2, r: true }], on]), 'INNER_JOIN([{x: 1}, {x: 2}], [{x: 2}], l.x == r.x)', [[{ x: 2, l: true }, { x: 2, r: true }]]);
      const outer = await valueOf(conn, t('OUTER_JOIN', [[{ x: 1 }, { x: 2 }], [{ x: 2 }], on]), 'OUTER_JOIN([{x: 1}, {x: 2}], [{x: 2}], l.x == r.x)');
      ctx.expect(Array.isArray(outer) && outer.length === 2, `OUTER_JOIN should keep the unmatched left item (2 results), got ${show(outer)}`);
    });
  },
);

export const literalArguments = check(
  {
    id: 'wire.term-catalogue.sequences.literal-only-arguments',
    title: 'EQ_JOIN\'s field and index, BETWEEN\'s and ORDER_BY\'s index, ORDER_BY\'s fields and ASC/DESC\'s field, given as literals (!STRING), name the field or index used',
    protocol: 'wire',
    section,
    // Line 11's `!` is a note to query writers (send a literal), not a refusal the server owes:
    // RethinkDB evaluates sub-terms there. What stays is that each literal names what is used,
    // read from the argument's place in the signature: SHOULD.
    level: 'SHOULD',
    spec: { file, line, quote: 'EQ_JOIN=50: Sequence, !STRING, Sequence, {index:!STRING} -> Sequence' },
    touches: ['term:BETWEEN', 'term:DATUM', 'term:DB', 'term:DB_CREATE', 'term:DB_DROP', 'term:DESC', 'term:EQ_JOIN', 'term:FUNC', 'term:GET_FIELD', 'term:INDEX_CREATE', 'term:INDEX_WAIT', 'term:INSERT', 'term:MAKE_ARRAY', 'term:ORDER_BY', 'term:TABLE', 'term:TABLE_CREATE', 'term:VAR'],
    faults: ['eq-join-ignores-index', 'order-by-index-ignored'],
    terms: ['EQ_JOIN', 'BETWEEN', 'ORDER_BY', 'ASC', 'DESC'],
  },
  async (ctx) => {
    await withDatabase(ctx, 'literal-only-arguments', async (conn, db) => {
      // n runs against the primary key (ids 1..5 have n 50..10), so an index named by a literal
      // and ignored (the primary key used instead) gives another answer.
      const table = await tableWith(ctx, conn, db, 'rows', [1, 2, 3, 4, 5].map((id) => ({ id, n: 60 - id * 10 })));
      await fieldIndex(ctx, conn, table, 'n', 'table');
      const rows = [{ id: 1, score: 2 }, { id: 2, score: 1 }];
      // Term by term: a server without one of them still has the others tested.
      await perTerm(ctx, {
        EQ_JOIN: async () => {
          const byKey = await valueOf(conn, t('EQ_JOIN', [[{ uid: 1 }], 'uid', table]), 'EQ_JOIN([{uid: 1}], "uid", table)');
          ctx.expect(Array.isArray(byKey) && byKey.length === 1 && carries(byKey[0], { id: 1, n: 50 }), `EQ_JOIN([{uid: 1}], "uid", table) should pair {uid: 1} with the row {id: 1, n: 50}, got ${show(byKey)}`);
          const byIndex = await valueOf(conn, t('EQ_JOIN', [[{ k: 40 }], 'k', table], { index: 'n' }), 'EQ_JOIN([{k: 40}], "k", table, {index: "n"})');
          ctx.expect(Array.isArray(byIndex) && byIndex.length === 1 && carries(byIndex[0], { id: 2, n: 40 }), `EQ_JOIN([{k: 40}], "k", table, {index: "n"}) should pair {k: 40} with the row {id: 2, n: 40} (found by the index "n"), got ${show(byIndex)}`);
        },
        BETWEEN: async () => {
          const got = sortedIds(await valueOf(conn, t('BETWEEN', [table, 20, 40], { index: 'n' }), 'BETWEEN(table, 20, 40, {index: "n"})'));
          ctx.expect(deepEqual(got, [3, 4]), `BETWEEN(table, 20, 40, {index: "n"}) should select the rows whose n is 20 or 30 (ids [3,4]), got ${show(got)}`);
        },
        ORDER_BY: async () => {
          await expectValue(conn, t('ORDER_BY', [rows, 'score']), [rows[1], rows[0]], 'ORDER_BY(rows, "score")');
          await expectValue(conn, t('ORDER_BY', [rows, t('DESC', ['id'])]), [rows[1], rows[0]], 'ORDER_BY(rows, DESC("id"))');
          const got = idsOf(await valueOf(conn, t('ORDER_BY', [table], { index: 'n' }), 'ORDER_BY(table, {index: "n"})'));
          ctx.expect(deepEqual(got, [5, 4, 3, 2, 1]), `ORDER_BY(table, {index: "n"}) should give ids [5,4,3,2,1] (n ascending), got ${show(got)}`);
        },
      });
    });
  },
);

export const groupUngroup = check(
  {
    id: 'wire.term-catalogue.sequences.group-ungroup',
    title: 'GROUP by a field and a reduction per group; UNGROUP turns the groups into an ARRAY, one item per group',
    protocol: 'wire',
    section,
    // Line 142 gives only signatures: what a group holds and UNGROUP's items are read from the names.
    level: 'SHOULD',
    spec: { file, line, quote: 'GROUP=144: Sequence, STRING|FUNCTION -> GROUPED_SEQUENCE; UNGROUP=150: GROUPED_DATA -> ARRAY' },
    touches: ['term:ADD', 'term:COUNT', 'term:DATUM', 'term:FUNC', 'term:GET_FIELD', 'term:GROUP', 'term:MAKE_ARRAY', 'term:MAP', 'term:REDUCE', 'term:UNGROUP', 'term:VAR'],
    faults: ['group-single-group'],
    terms: ['GROUP', 'UNGROUP', 'COUNT', 'MAP', 'REDUCE'],
  },
  async (ctx) => {
    const conn = await ctx.wire.connect();
    const rows = [{ k: 'a', v: 1 }, { k: 'b', v: 2 }, { k: 'a', v: 3 }];
    const grouped = t('GROUP', [rows, 'k']);
    const counted = await valueOf(conn, t('UNGROUP', [t('COUNT', [grouped])]), 'UNGROUP(COUNT(GROUP(rows, "k")))');
    ctx.expect(Array.isArray(counted) && counted.length === 2, `UNGROUP(COUNT(GROUP(rows by k of "a", "b", "a"))) should be an ARRAY of 2 groups, got ${show(counted)}`);
    const byFn = await valueOf(conn, t('UNGROUP', [t('GROUP', [rows, fn1((x) => t('GET_FIELD', [x, 'k']))])]), 'UNGROUP(GROUP(rows, x => x.k))');
    ctx.expect(Array.isArray(byFn) && byFn.length === 2, `UNGROUP(GROUP(rows, x => x.k)) should be an ARRAY of 2 groups, got ${show(byFn)}`);
    await expectValue(conn, t('REDUCE', [t('MAP', [rows, fn1((x) => t('GET_FIELD', [x, 'v']))]), fn2((a, b) => t('ADD', [a, b]))]), 6, 'REDUCE(MAP(rows, x => x.v), ADD)');
  },
);

export const mapSeveralSequences = check(
  {
    id: 'wire.term-catalogue.sequences.map-several-sequences',
    title: 'MAP applies its function to each item of one sequence, or to the items of several sequences side by side',
    protocol: 'wire',
    section,
    // Line 142 gives only the signature (Sequence..., Function(n)): pairing the sequences item by item is read from the name.
    level: 'SHOULD',
    spec: { file, line, quote: 'MAP=38: Sequence..., Function(n) -> Sequence' },
    touches: ['term:ADD', 'term:DATUM', 'term:FUNC', 'term:MAKE_ARRAY', 'term:MAP', 'term:MUL', 'term:VAR'],
    faults: ['map-single-sequence-only'],
    terms: ['MAP'],
  },
  async (ctx) => {
    const conn = await ctx.wire.connect();
    await expectValue(conn, t('MAP', [[1, 2, 3], fn1((x) => t('MUL', [x, 2]))]), [2, 4, 6], 'MAP([1, 2, 3], x => x * 2)');
    await expectValue(conn, t('MAP', [[1, 2], [10, 20], fn2((a, b) => t('ADD', [a, b]))]), [11, 22], 'MAP([1, 2], [10, 20], (a, b) => a + b)');
  },
);

export const tableBatches = check(
  {
    id: 'wire.term-catalogue.sequences.table-read-in-batches-under-1000',
    title: 'A table of 1500 rows is read in batches of fewer than 1000 rows, through CONTINUE',
    protocol: 'wire',
    section: 'Limits',
    level: 'MUST',
    spec: { file, line: 184, quote: 'Batches of results contain fewer than 1000 items; further items require CONTINUE with the same token' },
    touches: ['term:DATUM', 'term:DB', 'term:DB_CREATE', 'term:DB_DROP', 'term:FUNC', 'term:INSERT', 'term:MAKE_ARRAY', 'term:MAKE_OBJ', 'term:MAP', 'term:RANGE', 'term:TABLE', 'term:TABLE_CREATE', 'term:VAR'],
    faults: ['batch-1000', 'no-batching', 'stream-as-atom'],
    terms: ['TABLE', 'INSERT', 'RANGE', 'MAP'],
  },
  async (ctx) => {
    await withDatabase(ctx, 'table-read-in-batches', async (conn, db) => {
      const table = await tableWith(ctx, conn, db, 'rows', []);
      await setupValue(ctx, conn, t('INSERT', [table, t('MAP', [t('RANGE', [1500]), fn1((i) => t('MAKE_OBJ', [], { id: i }))])]), 'INSERT(table, MAP(RANGE(1500), i => {id: i}))', 'wire.term-catalogue.writes.insert-counts');
      let res = await conn.start(table);
      let rows = 0;
      for (let batch = 1; batch <= 1500; batch++) {
        // The response type first: a table is a Sequence, not one DATUM (line 82), read in batches.
        const [atom] = res.type === ResponseType.SUCCESS_ATOM ? values(res) : [];
        ctx.expect(
          res.type === ResponseType.SUCCESS_PARTIAL || res.type === ResponseType.SUCCESS_SEQUENCE,
          `${batch === 1 ? 'START TABLE' : `CONTINUE ${batch - 1}`} of the 1500-row table: got ${Array.isArray(atom) ? `SUCCESS_ATOM holding an array of ${atom.length} rows` : summary(res)} where SUCCESS_PARTIAL or SUCCESS_SEQUENCE was expected`,
        );
        ctx.expect(res.response.length < 1000, `batch ${batch} of the 1500-row table (${typeOf(res)}) should hold fewer than 1000 rows, got ${res.response.length} rows`);
        rows += res.response.length;
        if (res.type !== ResponseType.SUCCESS_PARTIAL) break;
        res = await conn.continue(res.token!);
      }
      ctx.expect(rows === 1500, `the batches of the 1500-row table should hold its 1500 rows, got ${rows} rows`);
    });
  },
);

export const reductionsAccepted = check(
  {
    id: 'wire.term-catalogue.sequences.sum-avg-min-max-accepted',
    title: 'The SUM, AVG, MIN and MAX term numbers are accepted (their signatures are not given, so nothing more is asserted)',
    protocol: 'wire',
    section,
    level: 'MUST',
    spec: { file, line, quote: 'SUM=145, AVG=146, MIN=147, MAX=148 (signatures not given)' },
    touches: ['term:AVG', 'term:DATUM', 'term:MAX', 'term:MIN', 'term:SUM'],
    faults: ['reductions-unsupported'],
    keptBy: { acceptAll: 'the rule is only that the term numbers are accepted (the signatures are not given, so no value is asserted): a server answering every query with a success does accept them' },
    terms: ['SUM', 'AVG', 'MIN', 'MAX'],
  },
  async (ctx) => {
    const conn = await ctx.wire.connect();
    const refused: string[] = [];
    const unseen: string[] = [];
    for (const name of ['SUM', 'AVG', 'MIN', 'MAX']) {
      const res = await conn.start(t(name, [[1, 2, 3]]));
      if (res.type === ResponseType.COMPILE_ERROR) refused.push(`${name}([1, 2, 3]) (${summary(res)}: ${res.response[0]?.r_str ?? ''})`);
      // Only an answer shows acceptance; a RUNTIME_ERROR (or a response without a type) may as well mean "unknown term".
      else if (!SUCCESS.includes(res.type!)) unseen.push(`${name}([1, 2, 3]): ${summary(res)} ${show(res.response[0]?.r_str ?? '')}`);
    }
    ctx.expect(refused.length === 0, `catalogue term numbers should be accepted, refused: ${refused.join('; ')}`);
    if (unseen.length) ctx.inconclusive(`acceptance not seen: no answer but an error for ${unseen.join('; ')}`);
  },
);

export const argsSplices = check(
  {
    id: 'wire.term-catalogue.sequences.args-splices',
    title: 'ARGS splices an array into the arguments of the term around it',
    protocol: 'wire',
    section,
    level: 'MUST',
    spec: { file, line, quote: 'ARGS=154: ARRAY -> SPECIAL (splices arguments)' },
    touches: ['term:ADD', 'term:ARGS', 'term:DATUM', 'term:MAKE_ARRAY'],
    faults: ['args-not-spliced'],
    terms: ['ARGS'],
  },
  async (ctx) => {
    const conn = await ctx.wire.connect();
    await expectValue(conn, t('ADD', [t('ARGS', [[1, 2, 3]])]), 6, 'ADD(ARGS([1, 2, 3]))');
    await expectValue(conn, t('MAKE_ARRAY', [0, t('ARGS', [[1, 2]]), 3]), [0, 1, 2, 3], 'MAKE_ARRAY(0, ARGS([1, 2]), 3)');
  },
);

export const otherSequenceTerms = check(
  {
    id: 'wire.term-catalogue.sequences.nth-bracket-distinct-sample',
    title: 'NTH and BRACKET pick an item (BRACKET also a field), DISTINCT drops duplicates, SAMPLE takes a number of items, CONCAT_MAP, FOLD',
    protocol: 'wire',
    section,
    level: 'SHOULD',
    spec: { file, line, quote: 'NTH=45: Sequence, NUMBER -> DATUM; BRACKET=170: Sequence|OBJECT, NUMBER|STRING -> DATUM' },
    touches: ['term:ADD', 'term:BRACKET', 'term:CONCAT_MAP', 'term:DATUM', 'term:DISTINCT', 'term:FOLD', 'term:FUNC', 'term:MAKE_ARRAY', 'term:NTH', 'term:SAMPLE', 'term:VAR'],
    faults: ['nth-counts-from-one'],
    terms: ['NTH', 'BRACKET', 'DISTINCT', 'SAMPLE', 'CONCAT_MAP', 'FOLD'],
  },
  async (ctx) => {
    const conn = await ctx.wire.connect();
    await expectValue(conn, t('NTH', [[10, 20, 30], 1]), 20, 'NTH([10, 20, 30], 1)');
    await expectValue(conn, t('BRACKET', [[10, 20, 30], 2]), 30, 'BRACKET([10, 20, 30], 2)');
    await expectValue(conn, t('BRACKET', [{ a: 5 }, 'a']), 5, 'BRACKET({a: 5}, "a")');
    // DISTINCT=42: Sequence -> Sequence states no order: the same items, each once, in any order.
    const distinct = await valueOf(conn, t('DISTINCT', [[3, 1, 3, 2, 1]]), 'DISTINCT([3, 1, 3, 2, 1])');
    const sortedDistinct = Array.isArray(distinct) ? [...(distinct as number[])].sort((a, b) => a - b) : distinct;
    ctx.expect(deepEqual(sortedDistinct, [1, 2, 3]), `DISTINCT([3, 1, 3, 2, 1]) should hold 1, 2 and 3 once each (in any order), got ${show(distinct)}`);
    const sample = await valueOf(conn, t('SAMPLE', [[1, 2, 3, 4, 5], 2]), 'SAMPLE([1..5], 2)');
    ctx.expect(Array.isArray(sample) && sample.length === 2, `SAMPLE([1..5], 2) should give 2 items, got ${show(sample)}`);
    await expectValue(conn, t('CONCAT_MAP', [[1, 2], fn1((x) => t('MAKE_ARRAY', [x, x]))]), [1, 1, 2, 2], 'CONCAT_MAP([1, 2], x => [x, x])');
    await expectValue(conn, t('FOLD', [[1, 2, 3], 10, fn2((acc, x) => t('ADD', [acc, x]))]), 16, 'FOLD([1, 2, 3], 10, ADD)');
  },
);

// ---- changefeeds ----

function noteNames(res: ResponseMsg): string {
  return `[${res.notes.map((n) => names.responseNote[n] ?? n).join(', ')}]`;
}

const ERRORS: number[] = [ResponseType.CLIENT_ERROR, ResponseType.COMPILE_ERROR, ResponseType.RUNTIME_ERROR];

/**
 * True when `v` holds `row` anywhere inside it. The document names no field of a change (line
 * 171), so a change is recognised by the row it carries, not by field names.
 */
function carries(v: JsValue, row: JsValue): boolean {
  if (deepEqual(v, row)) return true;
  if (Array.isArray(v)) return v.some((x) => carries(x, row));
  if (typeof v === 'object' && v !== null) return Object.values(v).some((x) => carries(x, row));
  return false;
}

/**
 * Writes once under an open changefeed and returns the first CONTINUE response that carries the
 * written row (initial values or states may come first), or the last response read.
 */
async function changeAfter(ctx: SetupContext, conn: WireConnection, first: ResponseMsg, write: Term, row: JsValue, what: string): Promise<ResponseMsg> {
  await setupValue(ctx, conn, write, `the write under ${what}`);
  let change = await conn.continue(first.token!);
  for (let i = 0; i < 3 && change.type === ResponseType.SUCCESS_PARTIAL && !values(change).some((v) => carries(v, row)); i++) change = await conn.continue(first.token!);
  return change;
}

/**
 * The first response of a changefeed whose kind the document only names (line 54): a server may
 * refuse to follow such a selection (CHANGES=152: TABLE -> STREAM), which leaves the note unseen.
 */
async function optionalFeed(ctx: WireCheckContext, conn: WireConnection, feed: Term, what: string): Promise<ResponseMsg> {
  const first = await conn.start(feed);
  unavailableEnds(first, feed, what);
  if (ERRORS.includes(first.type!)) ctx.inconclusive(`${what} was refused (${summary(first)} ${show(first.response[0]?.r_str ?? '')}), so the note such a feed carries cannot be seen`);
  expectType(first, 'SUCCESS_PARTIAL', what);
  return first;
}

export const sequenceFeed = check(
  {
    id: 'wire.term-catalogue.sequences.changes-sequence-feed',
    title: 'CHANGES on a table is a stream marked SEQUENCE_FEED whose changes arrive through CONTINUE',
    protocol: 'wire',
    section: 'Response (message)',
    level: 'MUST',
    spec: { file, line: 54, quote: 'SEQUENCE_FEED=1 (stream is a changefeed)' },
    touches: ['term:CHANGES', 'term:DATUM', 'term:DB', 'term:DB_CREATE', 'term:DB_DROP', 'term:INSERT', 'term:TABLE', 'term:TABLE_CREATE'],
    faults: ['feed-missing-note'],
    terms: ['CHANGES', 'INSERT'],
  },
  async (ctx) => {
    await withDatabase(ctx, 'changes-sequence-feed', async (conn, db) => {
      const table = await tableWith(ctx, conn, db, 'rows', []);
      const feed = t('CHANGES', [table]);
      const first = await conn.start(feed);
      unavailableEnds(first, feed, 'CHANGES(table)');
      expectType(first, 'SUCCESS_PARTIAL', 'CHANGES(table)');
      const change = await changeAfter(ctx, conn, first, t('INSERT', [table, { id: 7 }]), { id: 7 }, 'CHANGES(table)');
      conn.stop(first.token!);
      ctx.expect(first.notes.includes(ResponseNote.SEQUENCE_FEED), `CHANGES(table) should carry the SEQUENCE_FEED note, got notes ${noteNames(first)}`);
      ctx.expect(
        change.type === ResponseType.SUCCESS_PARTIAL && values(change).some((v) => carries(v, { id: 7 })),
        `the INSERT of {id: 7} should arrive on the feed through CONTINUE, got ${summary(change)} ${show(values(change))}`,
      );
    });
  },
);

export const atomFeed = check(
  {
    id: 'wire.term-catalogue.sequences.changes-atom-feed',
    title: 'CHANGES on a single row (GET) is marked ATOM_FEED',
    protocol: 'wire',
    section: 'Response (message)',
    level: 'MUST',
    spec: { file, line: 54, quote: 'ATOM_FEED=2 (point changefeed on a single row)' },
    touches: ['term:CHANGES', 'term:DATUM', 'term:DB', 'term:DB_CREATE', 'term:DB_DROP', 'term:GET', 'term:INSERT', 'term:TABLE', 'term:TABLE_CREATE'],
    faults: ['feed-missing-note', 'feed-kind-always-sequence'],
    terms: ['CHANGES', 'GET', 'UPDATE'],
  },
  async (ctx) => {
    await withDatabase(ctx, 'changes-atom-feed', async (conn, db) => {
      const table = await tableWith(ctx, conn, db, 'rows', [{ id: 1, v: 0 }]);
      const first = await optionalFeed(ctx, conn, t('CHANGES', [t('GET', [table, 1])]), 'CHANGES(GET(table, 1))');
      conn.stop(first.token!);
      ctx.expect(first.notes.includes(ResponseNote.ATOM_FEED), `CHANGES(GET(table, 1)) should carry the ATOM_FEED note, got notes ${noteNames(first)}`);
    });
  },
);

export const orderByLimitFeed = check(
  {
    id: 'wire.term-catalogue.sequences.changes-order-by-limit-feed',
    title: 'CHANGES on an ordered, limited selection, where the server answers it, is marked ORDER_BY_LIMIT_FEED',
    protocol: 'wire',
    section: 'Response (message)',
    level: 'MUST',
    spec: { file, line: 54, quote: 'ORDER_BY_LIMIT_FEED=3 (changefeed over an ordered, limited selection)' },
    touches: ['term:CHANGES', 'term:DATUM', 'term:DB', 'term:DB_CREATE', 'term:DB_DROP', 'term:DESC', 'term:INSERT', 'term:LIMIT', 'term:ORDER_BY', 'term:TABLE', 'term:TABLE_CREATE'],
    faults: ['feed-missing-note', 'feed-kind-always-sequence'],
    terms: ['CHANGES', 'ORDER_BY', 'LIMIT', 'DESC'],
  },
  async (ctx) => {
    await withDatabase(ctx, 'changes-order-by-limit-feed', async (conn, db) => {
      const table = await tableWith(ctx, conn, db, 'rows', [{ id: 1 }, { id: 2 }]);
      const top = t('LIMIT', [t('ORDER_BY', [table], { index: t('DESC', ['id']) }), 2]);
      const first = await optionalFeed(ctx, conn, t('CHANGES', [top]), 'CHANGES(LIMIT(ORDER_BY(table, {index: DESC("id")}), 2))');
      conn.stop(first.token!);
      ctx.expect(first.notes.includes(ResponseNote.ORDER_BY_LIMIT_FEED), `the ordered, limited changefeed should carry the ORDER_BY_LIMIT_FEED note, got notes ${noteNames(first)}`);
    });
  },
);

export const unionedFeed = check(
  {
    id: 'wire.term-catalogue.sequences.changes-unioned-feed',
    title: 'A UNION of a point changefeed and a table changefeed is marked UNIONED_FEED and carries the changes of both',
    protocol: 'wire',
    section: 'Response (message)',
    level: 'MUST',
    spec: { file, line: 54, quote: 'UNIONED_FEED=4 (union of several changefeed kinds that cannot be collapsed)' },
    touches: ['term:CHANGES', 'term:DATUM', 'term:DB', 'term:DB_CREATE', 'term:DB_DROP', 'term:GET', 'term:INSERT', 'term:TABLE', 'term:TABLE_CREATE', 'term:UNION'],
    faults: ['unioned-feed-unannounced'],
    terms: ['UNION', 'CHANGES', 'GET'],
  },
  async (ctx) => {
    await withDatabase(ctx, 'changes-unioned-feed', async (conn, db) => {
      const table = await tableWith(ctx, conn, db, 'rows', [{ id: 1 }]);
      const what = 'UNION(CHANGES(GET(table, 1)), CHANGES(table))';
      const first = await optionalFeed(ctx, conn, t('UNION', [t('CHANGES', [t('GET', [table, 1])]), t('CHANGES', [table])]), what);
      const change = await changeAfter(ctx, conn, first, t('INSERT', [table, { id: 2 }]), { id: 2 }, what);
      conn.stop(first.token!);
      ctx.expect(first.notes.includes(ResponseNote.UNIONED_FEED), `the union of a point and a table changefeed should carry the UNIONED_FEED note, got notes ${noteNames(first)}`);
      ctx.expect(values(change).some((v) => carries(v, { id: 2 })), `the INSERT of {id: 2} should arrive on the unioned feed, got ${summary(change)} ${show(values(change))}`);
    });
  },
);

export const includesStates = check(
  {
    id: 'wire.term-catalogue.sequences.changes-includes-states',
    title: 'A changefeed that sends {state: ...} objects is marked INCLUDES_STATES',
    protocol: 'wire',
    section: 'Response (message)',
    level: 'MUST',
    spec: { file, line: 54, quote: 'INCLUDES_STATES=5 (changefeed stream also includes objects of the form {state: <name>}' },
    touches: ['term:CHANGES', 'term:DATUM', 'term:DB', 'term:DB_CREATE', 'term:DB_DROP', 'term:TABLE', 'term:TABLE_CREATE'],
    faults: ['feed-states-unannounced', 'feed-missing-note', 'feed-states-late-unannounced'],
    terms: ['CHANGES'],
  },
  async (ctx) => {
    await withDatabase(ctx, 'changes-includes-states', async (conn, db) => {
      const table = await tableWith(ctx, conn, db, 'rows', []);
      // include_states is not among the optional arguments line 142 gives CHANGES: a refusal leaves the rule untested.
      const first = await ctx.setup('CHANGES(table, {include_states: true})', async () => {
        const res = await conn.start(t('CHANGES', [table], { include_states: true }));
        expectType(res, 'SUCCESS_PARTIAL', 'CHANGES(table, {include_states: true})');
        return res;
      });
      const isState = (v: JsValue) => typeof v === 'object' && v !== null && !Array.isArray(v) && 'state' in v;
      // The states may come in any response of the stream, not only the first: when the first
      // holds none, a write makes the feed answer CONTINUE, and up to 4 responses are read.
      const read: ResponseMsg[] = [first];
      if (!values(first).some(isState)) {
        await setupValue(ctx, conn, t('INSERT', [table, { id: 1 }]), 'INSERT(table, {id: 1}) under the feed', 'wire.term-catalogue.writes.insert-counts');
        for (let i = 0; i < 3 && read.at(-1)!.type === ResponseType.SUCCESS_PARTIAL && !read.some((r) => values(r).some(isState)); i++) read.push(await conn.continue(first.token!));
      }
      conn.stop(first.token!);
      ctx.expect(first.notes.includes(ResponseNote.SEQUENCE_FEED), `CHANGES(table, {include_states: true}) should carry the SEQUENCE_FEED note, got notes ${noteNames(first)}`);
      const states = read.flatMap((r) => values(r).filter(isState));
      if (!states.length) ctx.inconclusive(`the feed sent no {state: ...} object in ${read.length} response(s) (${read.map(summary).join(', ')}), so the INCLUDES_STATES rule was not exercised`);
      const marked = read.filter((r) => r.notes.includes(ResponseNote.INCLUDES_STATES)).length;
      ctx.expect(marked > 0, `a feed sending ${show(states)} should carry the INCLUDES_STATES note, got notes ${read.map(noteNames).join(', ')} on its ${read.length} response(s)`);
    });
  },
);

export const stopEndsFeed = check(
  {
    id: 'wire.term-catalogue.sequences.changes-stopped-by-stop',
    title: 'STOP ends a changefeed: a later change is not delivered on its token',
    protocol: 'wire',
    section: 'States and transitions',
    level: 'SHOULD',
    spec: { file, line: 92, quote: 'partial or running | Query STOP with same token | - | stopped' },
    touches: ['term:CHANGES', 'term:DATUM', 'term:DB', 'term:DB_CREATE', 'term:DB_DROP', 'term:INSERT', 'term:TABLE', 'term:TABLE_CREATE'],
    faults: ['feed-stop-ignored', 'feed-stop-delivers-final', 'feed-stop-ignored-late'],
    terms: ['CHANGES', 'INSERT'],
  },
  async (ctx) => {
    await withDatabase(ctx, 'changes-stopped-by-stop', async (conn, db) => {
      const table = await tableWith(ctx, conn, db, 'rows', []);
      const first = await ctx.setup('CHANGES(table)', async () => {
        const res = await conn.start(t('CHANGES', [table]));
        expectType(res, 'SUCCESS_PARTIAL', 'CHANGES(table)');
        return res;
      }, { seeAlso: 'wire.term-catalogue.sequences.changes-sequence-feed' });
      conn.stop(first.token!);
      await conn.quiet(ctx.timeouts.quietMs); // whatever STOP is answered with
      await setupValue(ctx, conn, t('INSERT', [table, { id: 1 }]), 'INSERT(table, {id: 1}) after STOP');
      // A change delivered after STOP counts in whatever response carries it (a final SUCCESS_SEQUENCE
      // too), and "not delivered" must hold for the whole background window: an empty
      // SUCCESS_PARTIAL (a feed still open) is CONTINUEd until the window ends.
      const until = Date.now() + ctx.timeouts.backgroundMs;
      let after = await conn.continue(first.token!);
      while (after.type === ResponseType.SUCCESS_PARTIAL && !values(after).some((v) => carries(v, { id: 1 })) && Date.now() < until) after = await conn.continue(first.token!);
      const delivered = values(after).some((v) => carries(v, { id: 1 }));
      ctx.expect(!delivered, `after STOP the feed should be stopped, but CONTINUE delivered ${summary(after)} ${show(values(after))}`);
    });
  },
);

export const checks = [
  arity, rangeForms, limitSkipSliceOnInfinite, betweenHalfOpen, betweenDeprecated, filterImplicitDefault, unionKeepsDuplicates,
  countWithPredicate, mapSeveralSequences, tableBatches, orderByIndex, literalArguments, eqJoinIndex, groupUngroup, reductionsAccepted, argsSplices, otherSequenceTerms,
  sequenceFeed, atomFeed, orderByLimitFeed, unionedFeed, includesStates, stopEndsFeed,
];
