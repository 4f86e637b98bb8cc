// Secondary-index lookups. wire-ref keeps no index structure: an index is its function, applied
// to each row when a query uses it (always "ready"); a multi index yields one key per array item.
import type { JsValue } from '../../../src/clients/wire/codec.ts';
import { logicError, opFailed } from './errors.ts';
import type { Call } from './evaluate.ts';
import { building, type Row, type TableData } from './store.ts';

/** The index keys of `row` under `index` (the primary key counts as an index); [] when the row has none. */
export function indexKeys(c: Call, table: TableData, index: string, row: Row): JsValue[] {
  if (index === table.primaryKey) return [row[table.primaryKey]];
  const def = table.indexes.get(index);
  if (!def) throw opFailed(`Index \`${index}\` was not found on table \`${table.ref.db}.${table.ref.name}\`.`);
  if (building(def)) throw notReady(table, index);
  let value: JsValue;
  try {
    value = c.applyDatum(def.fn, [row]);
  } catch {
    return []; // a row the index function cannot evaluate is not in the index
  }
  // MINVAL and MAXVAL cannot be stored, so a row whose index value holds one is not in the
  // index (RethinkDB; sindex/api.yaml `get_all(r.minval, {index: 'minval'})` finds nothing).
  const keys = def.multi && Array.isArray(value) ? value : [value];
  return keys.filter((k) => !hasExtreme(k));
}

function hasExtreme(v: JsValue): boolean {
  if (Array.isArray(v)) return v.some(hasExtreme);
  if (v && typeof v === 'object') {
    const t = (v as Record<string, JsValue>).$reql_type$;
    return t === 'MINVAL' || t === 'MAXVAL' || Object.values(v).some(hasExtreme);
  }
  return false;
}

export function requireIndex(table: TableData, index: string): void {
  if (index !== table.primaryKey && !table.indexes.has(index)) {
    throw opFailed(`Index \`${index}\` was not found on table \`${table.ref.db}.${table.ref.name}\`.`);
  }
  if (building(table.indexes.get(index))) throw notReady(table, index);
}

/** GET_ALL, BETWEEN and ORDER_BY cannot read a geospatial index (RethinkDB, geo/indexing.yaml). */
export function refuseGeo(table: TableData, index: string): void {
  if (table.indexes.get(index)?.geo) throw logicError(`Index \`${index}\` is a geospatial index.  Only get_nearest and get_intersecting can use a geospatial index.`);
}

function notReady(table: TableData, index: string) {
  return opFailed(`Index \`${index}\` on table \`${table.ref.db}.${table.ref.name}\` was used before it finished building (INDEX_WAIT waits for it).`);
}
