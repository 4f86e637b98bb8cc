// Term catalogue of wire-protocol.md, group "Secondary indexes" and write hooks (line 154).
import type { JsValue } from '../../src/clients/wire/codec.ts';
import { term as t } from '../../src/clients/wire/terms.ts';
import { check } from '../../src/core/check.ts';
import { deepEqual, expectArityRefused, expectError, expectValue, fn1, fn2, ResponseType, setupValue, show, summary, tableOrWhy, tableWith, valueOf, withDatabase, withOptionalDatabase } from './support.ts';

const section = 'Term catalogue (TermType name = number: signature)';
const file = 'wire-protocol.md';
const line = 154;

export const arity = check(
  {
    id: 'wire.term-catalogue.secondary-indexes.arity',
    title: 'Index and write-hook terms refuse argument counts their signatures exclude with COMPILE_ERROR',
    protocol: 'wire',
    section,
    level: 'MUST',
    spec: { file, line, quote: 'INDEX_DROP=76: Table, STRING -> OBJECT; INDEX_LIST=77: Table -> ARRAY' },
    touches: ['term:DATUM', 'term:DB', 'term:DB_CREATE', 'term:DB_DROP', 'term:FUNC', 'term:GET_FIELD', 'term:GET_WRITE_HOOK', 'term:INDEX_CREATE', 'term:INDEX_DROP', 'term:INDEX_LIST', 'term:INDEX_RENAME', 'term:INDEX_STATUS', 'term:INDEX_WAIT', 'term:INSERT', 'term:MAKE_ARRAY', 'term:SET_WRITE_HOOK', 'term:TABLE', 'term:TABLE_CREATE', 'term:VAR'],
    faults: ['arity-unchecked-secondary-indexes'],
    terms: ['INDEX_CREATE', 'INDEX_DROP', 'INDEX_LIST', 'INDEX_STATUS', 'INDEX_WAIT', 'INDEX_RENAME', 'SET_WRITE_HOOK', 'GET_WRITE_HOOK'],
  },
  async (ctx) => {
    await withOptionalDatabase(ctx, 'indexes-arity', async (conn, db, why) => {
      const table = await tableOrWhy(ctx, conn, db, why, 'rows', [{ id: 1, v: 1 }]);
      const tb = typeof table === 'string' ? undefined : table;
      const no = typeof table === 'string' ? table : '';
      await expectArityRefused(ctx, conn, {
        INDEX_CREATE: { valid: tb && t('INDEX_CREATE', [tb, 'a', fn1((x) => t('GET_FIELD', [x, 'v']))]), wrong: [1, 4], why: no },
        INDEX_WAIT: { valid: tb && t('INDEX_WAIT', [tb, 'a']), wrong: [0], why: no },
        INDEX_STATUS: { valid: tb && t('INDEX_STATUS', [tb, 'a']), wrong: [0], why: no },
        INDEX_LIST: { valid: tb && t('INDEX_LIST', [tb]), wrong: [0, 2], why: no },
        INDEX_RENAME: { valid: tb && t('INDEX_RENAME', [tb, 'a', 'b']), wrong: [2, 4], why: no },
        INDEX_DROP: { valid: tb && t('INDEX_DROP', [tb, 'b']), wrong: [1, 3], why: no },
        SET_WRITE_HOOK: { valid: tb && t('SET_WRITE_HOOK', [tb, fn2((_old, now) => now)]), wrong: [1, 3], why: no },
        GET_WRITE_HOOK: { valid: tb && t('GET_WRITE_HOOK', [tb]), wrong: [0, 2], why: no },
      });
    });
  },
);

function statusShapeProblem(v: JsValue, index: string): string | undefined {
  if (!Array.isArray(v) || v.length !== 1) return 'not an ARRAY of one object';
  const s = v[0] as Record<string, JsValue>;
  if (typeof s !== 'object' || s === null || Array.isArray(s)) return 'its item is not an OBJECT';
  if (s.index !== index) return `index is ${show(s.index)}, not "${index}"`;
  if (typeof s.ready !== 'boolean') return `ready is ${show(s.ready)}, not a BOOL`;
  if ('progress' in s && typeof s.progress !== 'number') return `progress is ${show(s.progress)}, not a NUMBER`;
  return undefined;
}

export const statusShape = check(
  {
    id: 'wire.term-catalogue.secondary-indexes.index-status-and-wait-shape',
    title: 'INDEX_STATUS and INDEX_WAIT answer ARRAYs of {index, ready[, progress]}; after INDEX_WAIT the index is ready',
    protocol: 'wire',
    section,
    level: 'MUST',
    spec: { file, line, quote: 'INDEX_STATUS=139: Table, STRING... -> ARRAY of {index:STRING, ready:BOOL[, progress:NUMBER]}' },
    touches: ['term:DATUM', 'term:DB', 'term:DB_CREATE', 'term:DB_DROP', 'term:FUNC', 'term:GET_FIELD', 'term:INDEX_CREATE', 'term:INDEX_STATUS', 'term:INDEX_WAIT', 'term:INSERT', 'term:MAKE_ARRAY', 'term:TABLE', 'term:TABLE_CREATE', 'term:VAR'],
    faults: ['index-status-not-ready'],
    terms: ['INDEX_CREATE', 'INDEX_STATUS', 'INDEX_WAIT'],
  },
  async (ctx) => {
    await withDatabase(ctx, 'index-status-shape', async (conn, db) => {
      const table = await tableWith(ctx, conn, db, 'rows', [{ id: 1, v: 1 }]);
      const created = await valueOf(conn, t('INDEX_CREATE', [table, 'v', fn1((x) => t('GET_FIELD', [x, 'v']))]), 'INDEX_CREATE(table, "v", x => x.v)');
      ctx.expect(typeof created === 'object' && created !== null && !Array.isArray(created), `INDEX_CREATE should answer an OBJECT, got ${show(created)}`);
      const waited = await valueOf(conn, t('INDEX_WAIT', [table, 'v']), 'INDEX_WAIT(table, "v")');
      const waitProblem = statusShapeProblem(waited, 'v');
      ctx.expect(!waitProblem, `INDEX_WAIT(table, "v") should be [{index: "v", ready: BOOL}]: ${waitProblem}; got ${show(waited)}`);
      ctx.expect((waited as { ready: JsValue }[])[0].ready === true, `INDEX_WAIT blocks until ready, so it should report ready: true, got ${show(waited)}`);
      const status = await valueOf(conn, t('INDEX_STATUS', [table, 'v']), 'INDEX_STATUS(table, "v")');
      const statusProblem = statusShapeProblem(status, 'v');
      ctx.expect(!statusProblem, `INDEX_STATUS(table, "v") should be [{index: "v", ready: BOOL}]: ${statusProblem}; got ${show(status)}`);
    });
  },
);

export const multiIndex = check(
  {
    id: 'wire.term-catalogue.secondary-indexes.multi-index',
    title: 'A multi index holds each item of an array value: GET_ALL finds a row by any of its items',
    protocol: 'wire',
    section,
    // Line 154 gives only {multi:BOOL}: indexing each item of an array is read from the option's name.
    level: 'SHOULD',
    spec: { file, line, quote: 'INDEX_CREATE=75: Table, STRING, Function(1), {multi:BOOL} -> OBJECT' },
    touches: ['term:DATUM', 'term:DB', 'term:DB_CREATE', 'term:DB_DROP', 'term:FUNC', 'term:GET_ALL', 'term:GET_FIELD', 'term:INDEX_CREATE', 'term:INDEX_WAIT', 'term:INSERT', 'term:MAKE_ARRAY', 'term:TABLE', 'term:TABLE_CREATE', 'term:VAR'],
    faults: ['index-multi-ignored'],
    terms: ['INDEX_CREATE', 'GET_ALL'],
  },
  async (ctx) => {
    await withDatabase(ctx, 'multi-index', async (conn, db) => {
      const table = await tableWith(ctx, conn, db, 'rows', [{ id: 1, tags: ['red', 'big'] }, { id: 2, tags: ['blue'] }, { id: 3, tags: ['red'] }]);
      await valueOf(conn, t('INDEX_CREATE', [table, 'tags', fn1((x) => t('GET_FIELD', [x, 'tags']))], { multi: true }), 'INDEX_CREATE(table, "tags", x => x.tags, {multi: true})');
      await setupValue(ctx, conn, t('INDEX_WAIT', [table, 'tags']), 'INDEX_WAIT(table, "tags")', 'wire.term-catalogue.secondary-indexes.index-status-and-wait-shape');
      const rows = await valueOf(conn, t('GET_ALL', [table, 'red'], { index: 'tags' }), 'GET_ALL(table, "red", {index: "tags"})');
      const ids = Array.isArray(rows) ? rows.map((r) => (r as { id: number }).id).sort() : rows;
      ctx.expect(deepEqual(ids, [1, 3]), `GET_ALL(table, "red", {index: "tags"}) on a multi index should find rows 1 and 3, got ids ${show(ids)}`);
    });
  },
);

export const renameListDrop = check(
  {
    id: 'wire.term-catalogue.secondary-indexes.rename-list-drop',
    title: 'INDEX_RENAME moves an index to its new name; INDEX_LIST (an ARRAY) and INDEX_DROP follow',
    protocol: 'wire',
    section,
    // Line 154 gives only signatures: the effect of INDEX_RENAME and INDEX_DROP on INDEX_LIST is read from the names.
    level: 'SHOULD',
    spec: { file, line, quote: 'INDEX_RENAME=156: Table, STRING, STRING, {overwrite:BOOL} -> OBJECT' },
    touches: ['term:DATUM', 'term:DB', 'term:DB_CREATE', 'term:DB_DROP', 'term:FUNC', 'term:GET_FIELD', 'term:INDEX_CREATE', 'term:INDEX_DROP', 'term:INDEX_LIST', 'term:INDEX_RENAME', 'term:MAKE_ARRAY', 'term:TABLE', 'term:TABLE_CREATE', 'term:VAR'],
    faults: ['index-rename-copies'],
    terms: ['INDEX_RENAME', 'INDEX_LIST', 'INDEX_DROP'],
  },
  async (ctx) => {
    await withDatabase(ctx, 'index-rename', async (conn, db) => {
      const table = await tableWith(ctx, conn, db, 'rows', []);
      await setupValue(ctx, conn, t('INDEX_CREATE', [table, 'a', fn1((x) => t('GET_FIELD', [x, 'a']))]), 'INDEX_CREATE(table, "a")', 'wire.term-catalogue.secondary-indexes.index-status-and-wait-shape');
      const renamed = await valueOf(conn, t('INDEX_RENAME', [table, 'a', 'b']), 'INDEX_RENAME(table, "a", "b")');
      ctx.expect(typeof renamed === 'object' && renamed !== null && !Array.isArray(renamed), `INDEX_RENAME should answer an OBJECT, got ${show(renamed)}`);
      await expectValue(conn, t('INDEX_LIST', [table]), ['b'], 'INDEX_LIST(table) after INDEX_RENAME(table, "a", "b")');
      await valueOf(conn, t('INDEX_DROP', [table, 'b']), 'INDEX_DROP(table, "b")');
      await expectValue(conn, t('INDEX_LIST', [table]), [], 'INDEX_LIST(table) after INDEX_DROP');
    });
  },
);

export const writeHooks = check(
  {
    id: 'wire.term-catalogue.secondary-indexes.write-hook-set-get',
    title: 'SET_WRITE_HOOK takes a table and a two-argument function; GET_WRITE_HOOK takes a table',
    protocol: 'wire',
    section,
    level: 'MUST',
    spec: { file, line, quote: 'Write hooks: SET_WRITE_HOOK=189: Table, Function(2); GET_WRITE_HOOK=190: Table' },
    touches: ['term:DATUM', 'term:DB', 'term:DB_CREATE', 'term:DB_DROP', 'term:FUNC', 'term:GET_WRITE_HOOK', 'term:MAKE_ARRAY', 'term:SET_WRITE_HOOK', 'term:TABLE', 'term:TABLE_CREATE', 'term:VAR'],
    faults: ['arity-unchecked-secondary-indexes'],
    terms: ['SET_WRITE_HOOK', 'GET_WRITE_HOOK'],
  },
  async (ctx) => {
    await withDatabase(ctx, 'write-hook', async (conn, db) => {
      const table = await tableWith(ctx, conn, db, 'rows', []);
      await valueOf(conn, t('SET_WRITE_HOOK', [table, fn2((_old, next) => next)]), 'SET_WRITE_HOOK(table, (old, new) => new)');
      await valueOf(conn, t('GET_WRITE_HOOK', [table]), 'GET_WRITE_HOOK(table)');
      // Arguments of the right types, in the wrong number: only the count can make them COMPILE_ERRORs
      // (with literal numbers, a server that type-checks would refuse them for their types alone).
      const wrong: string[] = [];
      for (const [what, query] of [
        ['SET_WRITE_HOOK(table)', t('SET_WRITE_HOOK', [table])],
        ['GET_WRITE_HOOK(table, table)', t('GET_WRITE_HOOK', [table, table])],
      ] as const) {
        const res = await conn.start(query);
        if (res.type !== ResponseType.COMPILE_ERROR) wrong.push(`${what}: ${summary(res)}`);
      }
      ctx.expect(wrong.length === 0, `wrong argument counts should be COMPILE_ERRORs: ${wrong.join('; ')}`);
    });
  },
);

export const renameOverwrite = check(
  {
    id: 'wire.term-catalogue.secondary-indexes.rename-overwrite',
    title: 'INDEX_RENAME onto an existing index name is refused, unless overwrite is true',
    protocol: 'wire',
    section,
    level: 'SHOULD',
    spec: { file, line, quote: 'INDEX_RENAME=156: Table, STRING, STRING, {overwrite:BOOL} -> OBJECT' },
    touches: ['term:DATUM', 'term:DB', 'term:DB_CREATE', 'term:DB_DROP', 'term:FUNC', 'term:GET_FIELD', 'term:INDEX_CREATE', 'term:INDEX_LIST', 'term:INDEX_RENAME', 'term:MAKE_ARRAY', 'term:TABLE', 'term:TABLE_CREATE', 'term:VAR'],
    faults: ['index-rename-overwrite-ignored'],
    terms: ['INDEX_RENAME', 'INDEX_LIST'],
  },
  async (ctx) => {
    await withDatabase(ctx, 'index-rename-overwrite', async (conn, db) => {
      const table = await tableWith(ctx, conn, db, 'rows', []);
      for (const name of ['a', 'b']) await setupValue(ctx, conn, t('INDEX_CREATE', [table, name, fn1((x) => t('GET_FIELD', [x, name]))]), `INDEX_CREATE(table, "${name}")`, 'wire.term-catalogue.secondary-indexes.index-status-and-wait-shape');
      await expectError(conn, t('INDEX_RENAME', [table, 'a', 'b']), 'INDEX_RENAME(table, "a", "b") onto the existing index "b"');
      await valueOf(conn, t('INDEX_RENAME', [table, 'a', 'b'], { overwrite: true }), 'INDEX_RENAME(table, "a", "b", {overwrite: true})');
      await expectValue(conn, t('INDEX_LIST', [table]), ['b'], 'INDEX_LIST(table) after the overwriting rename');
    });
  },
);

export const checks = [arity, statusShape, multiIndex, renameListDrop, renameOverwrite, writeHooks];
