// "Database and table access" terms: DB, TABLE, GET, GET_ALL.
import type { JsValue } from '../../../../src/clients/wire/codec.ts';
import { optString, str, typeMismatch } from '../args.ts';
import { logicError, nonExistence, opFailed } from '../errors.ts';
import { defineTerms, type Call } from '../evaluate.ts';
import { indexKeys, refuseGeo, requireIndex } from '../indexes.ts';
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

/**
 * Database and table names are made of A-Z, a-z, 0-9, `_` and `-` (RethinkDB's name_string_t;
 * selection.yaml `r.db('%')`); the document is silent on names.
 */
export function validName(c: Call, i: number, what: 'Database' | 'Table'): string {
  const name = str(c, i);
  if (!/^[A-Za-z0-9_-]+$/.test(name)) throw logicError(`${what} name \`${name}\` invalid (Use A-Z, a-z, 0-9, _ and - only).`).at({ pos: i });
  return name;
}

const READ_MODES = ['majority', 'single', 'outdated'];

defineTerms({
  DB: {
    arity: [1, 1],
    run: (c) => {
      const name = validName(c, 0, 'Database');
      if (!c.env.store.hasDb(name)) throw opFailed(`Database \`${name}\` does not exist.`).at({ pos: 0 });
      return { kind: 'db', name };
    },
  },
  TABLE: {
    arity: [1, 2],
    optargs: ['read_mode', 'identifier_format'],
    run: (c) => {
      const db = c.argc === 2 ? database(c, 0).name : c.env.store.defaultDb;
      const name = validName(c, c.argc - 1, 'Table');
      for (const opt of ['read_mode', 'identifier_format']) optString(c, opt);
      const mode = optString(c, 'read_mode');
      if (mode !== undefined && !READ_MODES.includes(mode) && !c.env.faults.has('table-read-mode-refused')) {
        throw logicError(`Read mode \`${mode}\` unrecognized (options are "majority", "single", and "outdated").`).at({ opt: 'read_mode' });
      }
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
      refuseGeo(table, named);
      const keys = Array.from({ length: c.argc - 1 }, (_, i) => c.datum(i + 1));
      // A geometry is looked up with GET_INTERSECTING (RethinkDB, sindex/api.yaml).
      const geo = keys.findIndex((k) => typeof k === 'object' && k !== null && !Array.isArray(k) && (k as Record<string, JsValue>).$reql_type$ === 'GEOMETRY');
      if (geo !== -1) throw logicError('Cannot use a geospatial index with `get_all`. Use `get_intersecting` instead.').at({ pos: geo + 1 });
      // No row has a NULL key (RethinkDB: "Keys cannot be NULL.", an absent value).
      const nul = keys.indexOf(null);
      if (nul !== -1) throw nonExistence('Keys cannot be NULL.').at({ pos: nul + 1 });
      const rows = table.all(compareDatums).filter((row: Row) => {
        // The fault's bug: a multi index is read as one key (the whole array).
        const own = c.env.faults.has('index-multi-ignored') && table.indexes.get(index)?.multi ? [c.applyDatum(table.indexes.get(index)!.fn, [row])] : indexKeys(c, table, index, row);
        return own.some((k) => keys.some((want) => compareDatums(k, want) === 0));
      });
      return Stream.of(rows, false, ref);
    },
  },
});
