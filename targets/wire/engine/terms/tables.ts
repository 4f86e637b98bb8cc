// "Database and table access" terms: DB, TABLE, GET, GET_ALL.
import type { JsValue } from '../../../../src/clients/wire/codec.ts';
import { optString, str, typeMismatch } from '../args.ts';
import { logicError, opFailed } from '../errors.ts';
import { defineTerms, type Call } from '../evaluate.ts';
import { indexKeys, requireIndex } from '../indexes.ts';
import type { Row } from '../store.ts';
import { isDb, Stream, typeName, type DbRef, type TableRef } from '../values.ts';
import { compareDatums } from './logic.ts';


/** A database argument at `i`, checked to exist. */
export function database(c: Call, i: number): DbRef {
  const v = c.arg(i);
  if (!isDb(v)) throw typeMismatch(c, i, 'DATABASE', v);
  return v;
}

export function tableArg(c: Call, i: number): TableRef {
  const v = c.arg(i);
  if (typeof v !== 'object' || v === null || (v as TableRef).kind !== 'table') throw typeMismatch(c, i, 'TABLE', v);
  return v as TableRef;
}

function primaryKeyValue(c: Call, i: number): JsValue {
  const key = c.datum(i);
  if (typeof key !== 'string' && typeof key !== 'number') throw logicError(`Primary keys must be a STRING or a NUMBER, found ${typeName(key)}.`).at({ pos: i });
  return key;
}

defineTerms({
  DB: {
    arity: [1, 1],
    run: (c) => {
      const name = str(c, 0);
      if (!c.env.store.hasDb(name)) throw opFailed(`Database \`${name}\` does not exist.`).at({ pos: 0 });
      return { kind: 'db', name };
    },
  },
  TABLE: {
    arity: [1, 2],
    optargs: ['read_mode', 'identifier_format'],
    run: (c) => {
      const db = c.argc === 2 ? database(c, 0).name : c.env.store.defaultDb;
      const name = str(c, c.argc - 1);
      for (const opt of ['read_mode', 'identifier_format']) optString(c, opt);
      if (c.optarg('read_mode') !== undefined && c.env.faults.has('table-read-mode-refused')) throw logicError('read_mode is not supported.').at({ opt: 'read_mode' });
      const ref: TableRef = { kind: 'table', db, name };
      c.env.store.table(ref); // refuses a missing table now, not at first read
      return ref;
    },
  },
  GET: {
    arity: [2, 2],
    run: (c) => {
      const table = tableArg(c, 0);
      const key = primaryKeyValue(c, 1);
      const row = c.env.store.table(table).get(key);
      if (!row && !c.env.faults.has('get-missing-raises')) return null;
      if (!row) throw opFailed(`No row with primary key ${JSON.stringify(key)}.`);
      return { kind: 'row', table, key };
    },
  },
  GET_ALL: {
    arity: [1, Infinity],
    optargs: ['index'],
    literal: { optargs: ['index'] },
    run: (c) => {
      const ref = tableArg(c, 0);
      const table = c.env.store.table(ref);
      const named = optString(c, 'index') ?? table.primaryKey;
      // The fault's bug: an index given as a sub-term is taken, then not used.
      const computed = c.env.faults.has('computed-index-by-primary-key') && (c.term.optargs ?? []).some((p) => p.key === 'index' && p.val?.type !== 1);
      const index = c.env.faults.has('get-all-ignores-index') || computed ? table.primaryKey : named;
      requireIndex(table, named);
      const keys = Array.from({ length: c.argc - 1 }, (_, i) => c.datum(i + 1));
      const rows = table.all(compareDatums).filter((row: Row) => {
        // The fault's bug: a multi index is read as one key (the whole array).
        const own = c.env.faults.has('index-multi-ignored') && table.indexes.get(index)?.multi ? [c.applyDatum(table.indexes.get(index)!.fn, [row])] : indexKeys(c, table, index, row);
        return own.some((k) => keys.some((want) => compareDatums(k, want) === 0));
      });
      return Stream.of(rows, false, ref);
    },
  },
});
