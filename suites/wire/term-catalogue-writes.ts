// Term catalogue of wire-protocol.md, group "Writes" (line 150). Each check writes only into
// a database it creates for itself and drops afterwards.
import type { JsValue } from '../../src/clients/wire/codec.ts';
import { datum as datumOf, term as t } from '../../src/clients/wire/terms.ts';
import { check } from '../../src/core/check.ts';
import type { WireConnection } from '../../src/clients/wire/connection.ts';
import type { Term } from '../../src/clients/wire/terms.ts';
import { deepEqual, expectArityRefused, expectValue, fn1, perTerm, ResponseType, type SetupContext, setupValue, show, summary, tableOrWhy, tableWith, unavailableEnds, valueOf, values, withDatabase, withOptionalDatabase } from './support.ts';

const section = 'Term catalogue (TermType name = number: signature)';
const file = 'wire-protocol.md';
const line = 150;

type Result = Record<string, JsValue>;
const asResult = (v: JsValue): Result => (typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Result) : {});
const isObject = (v: JsValue) => typeof v === 'object' && v !== null && !Array.isArray(v);

/** True when `v` holds `row` anywhere inside it (compared as values). */
function carries(v: JsValue, row: JsValue): boolean {
  if (deepEqual(v, row)) return true;
  if (Array.isArray(v)) return v.some((x) => carries(x, row));
  if (typeof v === 'object' && v !== null) return Object.values(v).some((x) => carries(x, row));
  return false;
}

export const arity = check(
  {
    id: 'wire.term-catalogue.writes.arity',
    title: 'Write terms refuse argument counts their signatures exclude with COMPILE_ERROR',
    protocol: 'wire',
    section,
    level: 'MUST',
    spec: { file, line, quote: 'DELETE=54: StreamSelection|SingleSelection, {durability:STRING, return_changes:BOOL} -> OBJECT' },
    touches: ['term:DATUM', 'term:DB', 'term:DB_CREATE', 'term:DB_DROP', 'term:DELETE', 'term:FUNC', 'term:GET', 'term:INSERT', 'term:MAKE_ARRAY', 'term:REPLACE', 'term:SYNC', 'term:TABLE', 'term:TABLE_CREATE', 'term:UPDATE', 'term:VAR'],
    faults: ['arity-unchecked-writes'],
    terms: ['UPDATE', 'REPLACE', 'DELETE', 'INSERT', 'SYNC'],
  },
  async (ctx) => {
    await withOptionalDatabase(ctx, 'writes-arity', async (conn, db, why) => {
      const table = await tableOrWhy(ctx, conn, db, why, 'rows', [{ id: 1, v: 0 }]);
      const tb = typeof table === 'string' ? undefined : table;
      const no = typeof table === 'string' ? table : '';
      await expectArityRefused(ctx, conn, {
        UPDATE: { valid: tb && t('UPDATE', [t('GET', [tb, 1]), { v: 1 }]), wrong: [1, 3], why: no },
        REPLACE: { valid: tb && t('REPLACE', [t('GET', [tb, 1]), fn1((x) => x)]), wrong: [1, 3], why: no },
        DELETE: { valid: tb && t('DELETE', [t('GET', [tb, 1])]), wrong: [0, 2], why: no },
        INSERT: { valid: tb && t('INSERT', [tb, { id: 2 }]), wrong: [1, 3], why: no },
        SYNC: { valid: tb && t('SYNC', [tb]), wrong: [0, 2], why: no },
      });
    });
  },
);

export const insertCounts = check(
  {
    id: 'wire.term-catalogue.writes.insert-counts',
    title: 'INSERT answers an OBJECT with the count of inserted rows; SYNC answers an OBJECT',
    protocol: 'wire',
    section,
    level: 'MUST',
    spec: { file, line, quote: 'Writes (results are OBJECTs with counts such as inserted)' },
    touches: ['term:DATUM', 'term:DB', 'term:DB_CREATE', 'term:DB_DROP', 'term:INSERT', 'term:SYNC', 'term:TABLE', 'term:TABLE_CREATE'],
    faults: ['insert-count-missing'],
    terms: ['INSERT', 'SYNC'],
  },
  async (ctx) => {
    await withDatabase(ctx, 'insert-counts', async (conn, db) => {
      const table = await tableWith(ctx, conn, db, 'rows', []);
      const res = await valueOf(conn, t('INSERT', [table, [{ id: 1 }, { id: 2 }, { id: 3 }]]), 'INSERT(table, [{id: 1}, {id: 2}, {id: 3}])');
      ctx.expect(asResult(res).inserted === 3, `INSERT of 3 rows should answer an OBJECT with inserted: 3, got ${show(res)}`);
      const sync = await valueOf(conn, t('SYNC', [table]), 'SYNC(table)');
      ctx.expect(typeof sync === 'object' && sync !== null && !Array.isArray(sync), `SYNC(table) should answer an OBJECT, got ${show(sync)}`);
    });
  },
);

/** A table holding {id: 1, a: 1, b: 1}, and an INSERT of {id: 1, a: 2} with the given conflict option. */
async function conflicting(ctx: SetupContext, conn: WireConnection, db: Term, conflict?: string) {
  const table = await tableWith(ctx, conn, db, 'rows', [{ id: 1, a: 1, b: 1 }]);
  const what = `INSERT(table, {id: 1, a: 2}${conflict ? `, {conflict: "${conflict}"}` : ''}) over {id: 1, a: 1, b: 1}`;
  const res = await conn.start(t('INSERT', [table, { id: 1, a: 2 }], conflict ? { conflict } : {}));
  const row = await valueOf(conn, t('GET', [table, 1]), 'GET(table, 1)');
  return { res, row, what };
}

export const conflictError = check(
  {
    id: 'wire.term-catalogue.writes.insert-conflict-error',
    title: 'INSERT of an existing primary key with conflict `error` or omitted raises an error and keeps the row',
    protocol: 'wire',
    section,
    level: 'MUST',
    spec: { file, line, quote: '`error` or omitted raises an error' },
    touches: ['term:DATUM', 'term:DB', 'term:DB_CREATE', 'term:DB_DROP', 'term:GET', 'term:INSERT', 'term:TABLE', 'term:TABLE_CREATE'],
    faults: ['insert-conflict-error-overwrites'],
    terms: ['INSERT'],
  },
  async (ctx) => {
    for (const conflict of [undefined, 'error']) {
      await withDatabase(ctx, 'insert-conflict-error', async (conn, db) => {
        const { res, row, what } = await conflicting(ctx, conn, db, conflict);
        const answer = res.type === ResponseType.SUCCESS_ATOM ? values(res)[0] : summary(res);
        const errors = asResult(answer as JsValue).errors;
        const raised = res.type === ResponseType.RUNTIME_ERROR || (typeof errors === 'number' && errors > 0);
        ctx.expect(raised, `${what} should raise an error (a RUNTIME_ERROR, or errors > 0), got ${show(answer)}`);
        ctx.expect(deepEqual(row, { id: 1, a: 1, b: 1 }), `${what} should keep the row {id: 1, a: 1, b: 1}, got ${show(row)}`);
      });
    }
  },
);

export const conflictReplace = check(
  {
    id: 'wire.term-catalogue.writes.insert-conflict-replace',
    title: 'INSERT with conflict `replace` overwrites the existing row',
    protocol: 'wire',
    section,
    level: 'MUST',
    spec: { file, line, quote: 'conflict `replace` overwrites' },
    touches: ['term:DATUM', 'term:DB', 'term:DB_CREATE', 'term:DB_DROP', 'term:GET', 'term:INSERT', 'term:TABLE', 'term:TABLE_CREATE'],
    faults: ['insert-conflict-replace-merges'],
    terms: ['INSERT'],
  },
  async (ctx) => {
    await withDatabase(ctx, 'insert-conflict-replace', async (conn, db) => {
      const { row, what } = await conflicting(ctx, conn, db, 'replace');
      ctx.expect(deepEqual(row, { id: 1, a: 2 }), `${what} should overwrite the row with {id: 1, a: 2}, got ${show(row)}`);
    });
  },
);

export const conflictUpdate = check(
  {
    id: 'wire.term-catalogue.writes.insert-conflict-update',
    title: 'INSERT with conflict `update` merges the new fields into the existing row',
    protocol: 'wire',
    section,
    level: 'MUST',
    spec: { file, line, quote: '`update` merges' },
    touches: ['term:DATUM', 'term:DB', 'term:DB_CREATE', 'term:DB_DROP', 'term:GET', 'term:INSERT', 'term:TABLE', 'term:TABLE_CREATE'],
    faults: ['insert-conflict-update-replaces'],
    terms: ['INSERT'],
  },
  async (ctx) => {
    await withDatabase(ctx, 'insert-conflict-update', async (conn, db) => {
      const { row, what } = await conflicting(ctx, conn, db, 'update');
      ctx.expect(deepEqual(row, { id: 1, a: 2, b: 1 }), `${what} should merge into {id: 1, a: 2, b: 1}, got ${show(row)}`);
    });
  },
);

export const returnChanges = check(
  {
    id: 'wire.term-catalogue.writes.return-changes',
    title: 'UPDATE, REPLACE, DELETE and INSERT with return_changes include the changes in their result',
    protocol: 'wire',
    section,
    // Line 150 gives only return_changes:BOOL: including the changes is read from the option's name.
    level: 'SHOULD',
    spec: { file, line, quote: '{non_atomic:BOOL, durability:STRING, return_changes:BOOL} -> OBJECT' },
    touches: ['term:DATUM', 'term:DB', 'term:DB_CREATE', 'term:DB_DROP', 'term:DELETE', 'term:FUNC', 'term:GET', 'term:INSERT', 'term:MAKE_ARRAY', 'term:REPLACE', 'term:TABLE', 'term:TABLE_CREATE', 'term:UPDATE'],
    faults: ['return-changes-ignored'],
    terms: ['UPDATE', 'REPLACE', 'DELETE', 'INSERT', 'GET'],
  },
  async (ctx) => {
    await withDatabase(ctx, 'return-changes', async (conn, db) => {
      const table = await tableWith(ctx, conn, db, 'rows', [{ id: 1, v: 0 }, { id: 2, v: 0 }]);
      const row = t('GET', [table, 1]);
      const written: JsValue[] = [{ id: 3 }, { id: 1, v: 1 }, { id: 1, v: 2 }, { id: 2, v: 0 }];
      const writes: [string, ReturnType<typeof t>][] = [
        ['INSERT(table, {id: 3}, {return_changes: true})', t('INSERT', [table, { id: 3 }], { return_changes: true })],
        ['UPDATE(GET(table, 1), {v: 1}, {return_changes: true})', t('UPDATE', [row, { v: 1 }], { return_changes: true })],
        ['REPLACE(GET(table, 1), x => {id: 1, v: 2}, {return_changes: true})', t('REPLACE', [row, fn1(() => ({ id: 1, v: 2 }))], { return_changes: true })],
        ['DELETE(GET(table, 2), {return_changes: true})', t('DELETE', [t('GET', [table, 2])], { return_changes: true })],
      ];
      // Line 150 names neither the field nor the shape of the changes: each result must hold the
      // row the write produced (or, for DELETE, the row it removed) somewhere inside it.
      for (const [i, [what, query]] of writes.entries()) {
        const res = await valueOf(conn, query, what);
        ctx.expect(isObject(res) && carries(res, written[i]), `${what} should include its change (the row ${show(written[i])}) in its result, got ${show(res)}`);
      }
      await expectValue(conn, t('GET', [table, 1]), { id: 1, v: 2 }, 'GET(table, 1) after the UPDATE and REPLACE');
    });
  },
);

export const selectionWrites = check(
  {
    id: 'wire.term-catalogue.writes.selection-update-delete',
    title: 'UPDATE and DELETE change exactly the rows of their selection',
    protocol: 'wire',
    section,
    // Line 150 gives only signatures: which rows change is read from the names.
    level: 'SHOULD',
    spec: { file, line, quote: 'UPDATE=53: StreamSelection|SingleSelection, Function(1)|OBJECT' },
    touches: ['term:ADD', 'term:BETWEEN', 'term:DATUM', 'term:DB', 'term:DB_CREATE', 'term:DB_DROP', 'term:DELETE', 'term:FILTER', 'term:FUNC', 'term:GET_FIELD', 'term:INSERT', 'term:MAKE_ARRAY', 'term:MAKE_OBJ', 'term:ORDER_BY', 'term:TABLE', 'term:TABLE_CREATE', 'term:UPDATE', 'term:VAR'],
    faults: ['delete-ignores-selection'],
    terms: ['UPDATE', 'DELETE', 'FILTER', 'BETWEEN'],
  },
  async (ctx) => {
    await withDatabase(ctx, 'selection-update-delete', async (conn, db) => {
      const table = await tableWith(ctx, conn, db, 'rows', [1, 2, 3, 4].map((id) => ({ id, v: 0 })));
      // Line 150 names no count but `inserted`: what changed is read from the table itself.
      const upd = await valueOf(conn, t('UPDATE', [t('BETWEEN', [table, 1, 3]), fn1((x) => ({ v: t('ADD', [t('GET_FIELD', [x, 'id']), 10]) }))]), 'UPDATE(BETWEEN(table, 1, 3), x => {v: x.id + 10})');
      ctx.expect(isObject(upd), `UPDATE should answer an OBJECT, got ${show(upd)}`);
      const updated = await valueOf(conn, t('ORDER_BY', [table, 'id']), 'ORDER_BY(table, "id") after the UPDATE');
      const wantUpdated = [{ id: 1, v: 11 }, { id: 2, v: 12 }, { id: 3, v: 0 }, { id: 4, v: 0 }];
      ctx.expect(deepEqual(updated, wantUpdated), `UPDATE(BETWEEN(table, 1, 3), ...) should change rows 1 and 2 only: expected ${show(wantUpdated)}, got ${show(updated)}`);
      const del = await valueOf(conn, t('DELETE', [t('FILTER', [table, { v: 0 }])]), 'DELETE(FILTER(table, {v: 0}))');
      ctx.expect(isObject(del), `DELETE should answer an OBJECT, got ${show(del)}`);
      const left = await valueOf(conn, t('ORDER_BY', [table, 'id']), 'ORDER_BY(table, "id") after the DELETE');
      ctx.expect(deepEqual(left, [{ id: 1, v: 11 }, { id: 2, v: 12 }]), `DELETE(FILTER(table, {v: 0})) should leave the 2 updated rows, got ${show(left)}`);
    });
  },
);

export const writeOptions = check(
  {
    id: 'wire.term-catalogue.writes.durability-and-non-atomic-accepted',
    title: 'UPDATE and REPLACE accept non_atomic and durability, DELETE accepts durability',
    protocol: 'wire',
    section,
    level: 'MUST',
    spec: { file, line, quote: 'UPDATE=53: StreamSelection|SingleSelection, Function(1)|OBJECT, {non_atomic:BOOL, durability:STRING, return_changes:BOOL} -> OBJECT' },
    touches: ['term:COUNT', 'term:DATUM', 'term:DB', 'term:DB_CREATE', 'term:DB_DROP', 'term:DELETE', 'term:FUNC', 'term:GET', 'term:INSERT', 'term:MAKE_ARRAY', 'term:REPLACE', 'term:TABLE', 'term:TABLE_CREATE', 'term:UPDATE'],
    faults: ['write-optargs-refused'],
    terms: ['UPDATE', 'REPLACE', 'DELETE'],
  },
  async (ctx) => {
    await withDatabase(ctx, 'write-options', async (conn, db) => {
      const table = await tableWith(ctx, conn, db, 'rows', [{ id: 1, v: 0 }]);
      const row = t('GET', [table, 1]);
      await valueOf(conn, t('UPDATE', [row, { v: 1 }], { non_atomic: true, durability: 'soft' }), 'UPDATE(GET(table, 1), {v: 1}, {non_atomic: true, durability: "soft"})');
      await valueOf(conn, t('REPLACE', [row, fn1(() => ({ id: 1, v: 2 }))], { non_atomic: true, durability: 'hard' }), 'REPLACE(GET(table, 1), x => {id: 1, v: 2}, {non_atomic: true, durability: "hard"})');
      await valueOf(conn, t('DELETE', [row], { durability: 'soft' }), 'DELETE(GET(table, 1), {durability: "soft"})');
      await expectValue(conn, t('COUNT', [table]), 0, 'COUNT(table) after the DELETE');
    });
  },
);

export const writesNeedSelection = check(
  {
    id: 'wire.term-catalogue.writes.update-delete-need-selection',
    title: 'UPDATE and DELETE on a plain ARRAY or OBJECT (not a selection) are refused with an error',
    protocol: 'wire',
    section,
    // The refusal is implied by the signature's StreamSelection|SingleSelection, not stated: SHOULD
    // (the same wording on the same line as selection-update-delete).
    level: 'SHOULD',
    spec: { file, line, quote: 'UPDATE=53: StreamSelection|SingleSelection, Function(1)|OBJECT' },
    touches: ['term:DATUM', 'term:DB', 'term:DB_CREATE', 'term:DB_DROP', 'term:DELETE', 'term:GET', 'term:INSERT', 'term:TABLE', 'term:TABLE_CREATE', 'term:UPDATE'],
    faults: ['write-on-non-selection', 'delete-on-object-accepted'],
    terms: ['UPDATE', 'DELETE'],
  },
  async (ctx) => {
    await withDatabase(ctx, 'need-selection', async (conn, db) => {
      const table = await tableWith(ctx, conn, db, 'rows', [{ id: 1, v: 1 }, { id: 2 }]);
      // Line 82 keeps ARRAY and OBJECT apart from the selections (StreamSelection, SingleSelection) these terms take.
      const refused = async (what: string, query: Term) => {
        const res = await conn.start(query);
        unavailableEnds(res, query, what);
        ctx.expect(
          res.type === ResponseType.COMPILE_ERROR || res.type === ResponseType.RUNTIME_ERROR,
          `${what}, which is no selection, should be refused with COMPILE_ERROR or RUNTIME_ERROR, got ${summary(res)} ${show(values(res))}`,
        );
      };
      // Each term is first seen to write through a selection (its positive control), then refused on plain data.
      await perTerm(ctx, {
        UPDATE: async () => {
          await setupValue(ctx, conn, t('UPDATE', [t('GET', [table, 1]), { v: 2 }]), 'UPDATE(GET(table, 1), {v: 2}) on a selection', 'wire.term-catalogue.writes.selection-update-delete');
          await refused('UPDATE([{id: 1, v: 1}], {v: 2}) on an ARRAY', t('UPDATE', [datumOf([{ id: 1, v: 1 }]), { v: 2 }]));
          await refused('UPDATE({id: 1, v: 1}, {v: 2}) on an OBJECT', t('UPDATE', [datumOf({ id: 1, v: 1 }), { v: 2 }]));
        },
        DELETE: async () => {
          await setupValue(ctx, conn, t('DELETE', [t('GET', [table, 2])]), 'DELETE(GET(table, 2)) on a selection', 'wire.term-catalogue.writes.selection-update-delete');
          await refused('DELETE([{id: 1}]) on an ARRAY', t('DELETE', [datumOf([{ id: 1 }])]));
          await refused('DELETE({id: 1}) on an OBJECT', t('DELETE', [datumOf({ id: 1 })]));
        },
      });
    });
  },
);

export const checks = [arity, insertCounts, writeOptions, conflictError, conflictReplace, conflictUpdate, returnChanges, selectionWrites, writesNeedSelection];
