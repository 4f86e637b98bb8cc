// Term catalogue of wire-protocol.md, group "Database and table access" (line 134), and the
// example of nesting that follows the catalogue (line 160).
import { term as t } from '../../src/clients/wire/terms.ts';
import { check } from '../../src/core/check.ts';
import type { WireConnection } from '../../src/clients/wire/connection.ts';
import type { Term } from '../../src/clients/wire/terms.ts';
import { deepEqual, expectArityRefusedTyped, expectValue, fn1, ResponseType, type SetupContext, setupValue, show, summary, tableOrWhy, tableWith, unavailableEnds, valueOf, withDatabase, withOptionalDatabase } from './support.ts';
import { isError } from './controls.ts';

const section = 'Term catalogue (TermType name = number: signature)';
const file = 'wire-protocol.md';
const line = 134;

const ids = (rows: unknown) => (Array.isArray(rows) ? rows.map((r) => (r as { id: unknown }).id).sort() : rows);

/** A secondary index `colour` over the rows' colour field, created and waited for as set-up. */
async function colourIndex(ctx: SetupContext, conn: WireConnection, table: Term): Promise<void> {
  const seeAlso = 'wire.term-catalogue.secondary-indexes.index-status-and-wait-shape';
  await setupValue(ctx, conn, t('INDEX_CREATE', [table, 'colour', fn1((x) => t('GET_FIELD', [x, 'colour']))]), 'INDEX_CREATE(table, "colour", x => x.colour)', seeAlso);
  await setupValue(ctx, conn, t('INDEX_WAIT', [table, 'colour']), 'INDEX_WAIT(table, "colour")', seeAlso);
}

export const arity = check(
  {
    id: 'wire.term-catalogue.database-and-table-access.arity',
    title: 'DB, TABLE, GET and GET_ALL refuse argument counts their signatures exclude with COMPILE_ERROR',
    protocol: 'wire',
    section,
    level: 'MUST',
    spec: { file, line, quote: 'DB=14: STRING -> Database' },
    touches: ['term:DATUM', 'term:DB', 'term:DB_CREATE', 'term:DB_DROP', 'term:GET', 'term:GET_ALL', 'term:INSERT', 'term:TABLE', 'term:TABLE_CREATE', 'term:TABLE_LIST'],
    faults: ['arity-unchecked-database-and-table-access', 'extra-args-ignored'],
    terms: ['DB', 'TABLE', 'GET', 'GET_ALL'],
  },
  async (ctx) => {
    await withOptionalDatabase(ctx, 'access-arity', async (conn, db, why) => {
      const table = await tableOrWhy(ctx, conn, db, why, 'rows', [{ id: 1 }]);
      const tb = typeof table === 'string' ? undefined : table;
      const no = typeof table === 'string' ? table : '';
      // Extra arguments are of the type the signature wants: a literal of the wrong type may be
      // refused for its type alone (the variant's COMPILE_ERROR), which is not the count refused.
      await expectArityRefusedTyped(ctx, conn, {
        DB: { valid: db && t('TABLE_LIST', [db]), wrong: [[], ['a', 'b']], why },
        TABLE: { valid: tb, wrong: db ? [[], [db, 'rows', 'rows']] : [], why: no },
        GET: { valid: tb && t('GET', [tb, 1]), wrong: tb ? [[tb], [tb, 1, 1]] : [], why: no },
        GET_ALL: { valid: tb && t('GET_ALL', [tb, 1]), wrong: [[]], why: no },
      });
    });
  },
);

export const getMissingIsNull = check(
  {
    id: 'wire.term-catalogue.database-and-table-access.get-missing-null',
    title: 'GET returns the row for a primary key, NULL for a key with no row',
    protocol: 'wire',
    section,
    level: 'MUST',
    spec: { file, line, quote: 'GET=16: Table, STRING|NUMBER -> SingleSelection or NULL' },
    touches: ['term:DATUM', 'term:DB', 'term:DB_CREATE', 'term:DB_DROP', 'term:GET', 'term:INSERT', 'term:TABLE', 'term:TABLE_CREATE'],
    faults: ['get-missing-raises'],
    terms: ['DB', 'TABLE', 'GET'],
  },
  async (ctx) => {
    await withDatabase(ctx, 'get-missing-null', async (conn, db) => {
      const table = await tableWith(ctx, conn, db, 'rows', [{ id: 1, v: 'one' }, { id: 'k', v: 'kay' }]);
      await expectValue(conn, t('GET', [table, 1]), { id: 1, v: 'one' }, 'GET(table, 1)');
      await expectValue(conn, t('GET', [table, 'k']), { id: 'k', v: 'kay' }, 'GET(table, "k")');
      await expectValue(conn, t('GET', [table, 2]), null, 'GET(table, 2) of a key with no row');
    });
  },
);

export const getAllByIndex = check(
  {
    id: 'wire.term-catalogue.database-and-table-access.get-all-index',
    title: 'GET_ALL returns the rows with any of the given keys, by primary key or by the named index',
    protocol: 'wire',
    section,
    // Line 134 gives only the signature: what the keys and the `index` option select is read from their names.
    level: 'SHOULD',
    spec: { file, line, quote: 'GET_ALL=78: Table, DATUM..., {index:!STRING} -> ARRAY' },
    touches: ['term:DATUM', 'term:DB', 'term:DB_CREATE', 'term:DB_DROP', 'term:FUNC', 'term:GET_ALL', 'term:GET_FIELD', 'term:INDEX_CREATE', 'term:INDEX_WAIT', 'term:INSERT', 'term:MAKE_ARRAY', 'term:TABLE', 'term:TABLE_CREATE', 'term:VAR'],
    faults: ['get-all-ignores-index'],
    terms: ['GET_ALL', 'INDEX_CREATE', 'INDEX_WAIT'],
  },
  async (ctx) => {
    await withDatabase(ctx, 'get-all-index', async (conn, db) => {
      const table = await tableWith(ctx, conn, db, 'rows', [{ id: 1, colour: 'red' }, { id: 2, colour: 'blue' }, { id: 3, colour: 'red' }]);
      await colourIndex(ctx, conn, table);
      const byKey = ids(await valueOf(conn, t('GET_ALL', [table, 1, 3]), 'GET_ALL(table, 1, 3)'));
      ctx.expect(deepEqual(byKey, [1, 3]), `GET_ALL(table, 1, 3) should return rows 1 and 3, got ids ${show(byKey)}`);
      const byIndex = ids(await valueOf(conn, t('GET_ALL', [table, 'red'], { index: 'colour' }), 'GET_ALL(table, "red", {index: "colour"})'));
      ctx.expect(deepEqual(byIndex, [1, 3]), `GET_ALL(table, "red", {index: "colour"}) should return rows 1 and 3, got ids ${show(byIndex)}`);
    });
  },
);

export const nestingExample = check(
  {
    id: 'wire.term-catalogue.database-and-table-access.nested-insert-read-mode',
    title: 'An INSERT whose first argument is a TABLE with read_mode and whose second is an array of objects inserts them',
    protocol: 'wire',
    section,
    level: 'MUST',
    spec: { file, line: 160, quote: 'a table reference with a read_mode option sits as the first argument of an insert term' },
    touches: ['term:COUNT', 'term:DATUM', 'term:DB', 'term:DB_CREATE', 'term:DB_DROP', 'term:INSERT', 'term:MAKE_ARRAY', 'term:TABLE', 'term:TABLE_CREATE'],
    faults: ['table-read-mode-refused'],
    terms: ['TABLE', 'INSERT', 'MAKE_ARRAY', 'COUNT'],
  },
  async (ctx) => {
    await withDatabase(ctx, 'nested-insert-read-mode', async (conn, db) => {
      await tableWith(ctx, conn, db, 'rows', []);
      const table = t('TABLE', [db, 'rows'], { read_mode: 'single' });
      const res = await valueOf(conn, t('INSERT', [table, t('MAKE_ARRAY', [{ id: 1 }, { id: 2 }])]), 'INSERT(TABLE(db, "rows", {read_mode: "single"}), MAKE_ARRAY({id: 1}, {id: 2}))');
      ctx.expect((res as { inserted?: unknown })?.inserted === 2, `the nested INSERT should insert 2 rows, got ${show(res)}`);
      await expectValue(conn, t('COUNT', [t('TABLE', [db, 'rows'])]), 2, 'COUNT of the table after the INSERT');
    });
  },
);

export const getAllIndexLiteral = check(
  {
    id: 'wire.term-catalogue.database-and-table-access.get-all-index-literal',
    title: 'GET_ALL given its index name as a sub-term (where !STRING asks for a literal) refuses it or reads that index, never another',
    protocol: 'wire',
    section,
    // Line 11's `!` tells the query writer to send a literal: it lays no refusal on the server (RethinkDB
    // evaluates the sub-term), so either answer is kept; that a taken name names the index is implied.
    level: 'SHOULD',
    spec: { file, line, quote: 'GET_ALL=78: Table, DATUM..., {index:!STRING} -> ARRAY' },
    touches: ['term:ADD', 'term:DATUM', 'term:DB', 'term:DB_CREATE', 'term:DB_DROP', 'term:FUNC', 'term:GET_ALL', 'term:GET_FIELD', 'term:INDEX_CREATE', 'term:INDEX_WAIT', 'term:INSERT', 'term:MAKE_ARRAY', 'term:TABLE', 'term:TABLE_CREATE', 'term:VAR'],
    faults: ['computed-index-by-primary-key'],
    terms: ['GET_ALL'],
  },
  async (ctx) => {
    await withDatabase(ctx, 'get-all-index-literal', async (conn, db) => {
      // Row 2's primary key is "red": read by primary key instead of the index, "red" finds row 2, not row 1.
      const table = await tableWith(ctx, conn, db, 'rows', [{ id: 1, colour: 'red' }, { id: 'red', colour: 'blue' }]);
      await colourIndex(ctx, conn, table);
      const literal = ids(await setupValue(ctx, conn, t('GET_ALL', [table, 'red'], { index: 'colour' }), 'GET_ALL(table, "red", {index: "colour"})', 'wire.term-catalogue.database-and-table-access.get-all-index'));
      if (!deepEqual(literal, [1])) ctx.inconclusive(`GET_ALL(table, "red", {index: "colour"}) answered ids ${show(literal)}, not row 1: the index is not read as wire.term-catalogue.database-and-table-access.get-all-index wants, so a computed name cannot be compared with it`);
      const query = t('GET_ALL', [table, 'red'], { index: t('ADD', ['col', 'our']) });
      const what = 'GET_ALL(table, "red", {index: ADD("col", "our")})';
      const res = await conn.start(query);
      unavailableEnds(res, query, what);
      if (isError(res)) {
        ctx.note(`${what} was refused (${summary(res)}): the sub-term is not taken`);
        return;
      }
      if (res.type === ResponseType.SUCCESS_PARTIAL) conn.stop(res.token!);
      const computed = ids(await valueOf(conn, query, what));
      ctx.expect(deepEqual(computed, [1]), `${what} was taken, so it should read the index "colour" like the literal name (row 1), got ids ${show(computed)}`);
    });
  },
);

export const checks = [arity, getMissingIsNull, getAllByIndex, getAllIndexLiteral, nestingExample];
