// "Writes" terms: results are OBJECTs of counts (inserted, replaced, unchanged, deleted,
// skipped, errors), with `changes` when return_changes is set. INSERT's conflict modes:
// `error` (or omitted) refuses a duplicate primary key, `replace` overwrites, `update` merges.
import { randomUUID } from 'node:crypto';
import type { JsValue, TermMsg } from '../../../../src/clients/wire/codec.ts';
import { TermType } from '../../../../src/clients/wire/schema.ts';
import { clone, isObject, optBool, optDatum, optDurability, optString, type Obj } from '../args.ts';
import { logicError, opFailed, ReqlError } from '../errors.ts';
import { defineTerms, resolve, type Call } from '../evaluate.ts';
import { asDelivered, TableData, type Row } from '../store.ts';
import { isFunc, isRow, isStream, printDatum, typeName, type TableRef, type Value } from '../values.ts';
import { compareDatums } from './logic.ts';
import { merge } from './objects.ts';
import { tableArg } from './tables.ts';

const WRITE_OPTARGS = ['non_atomic', 'durability', 'return_changes', 'ignore_write_hook'];

interface Counts {
  inserted: number;
  replaced: number;
  unchanged: number;
  deleted: number;
  skipped: number;
  errors: number;
  first_error?: string;
  generated_keys?: string[];
  changes?: JsValue[];
}

function newCounts(c: Call): Counts {
  if (c.env.faults.has('write-optargs-refused') && c.name !== 'INSERT') {
    for (const opt of ['durability', 'non_atomic']) if (c.optarg(opt) !== undefined) throw logicError(`Unrecognized optional argument \`${opt}\`.`).at({ opt });
  }
  const counts: Counts = { inserted: 0, replaced: 0, unchanged: 0, deleted: 0, skipped: 0, errors: 0 };
  // `return_changes: 'always'` (RethinkDB; mutation/atomic_get_set.yaml) also lists the rows left
  // unchanged or refused, the latter with their error.
  const always = optDatum(c, 'return_changes') === 'always';
  if ((always || optBool(c, 'return_changes')) && !c.env.faults.has('return-changes-ignored')) counts.changes = [];
  if (always && counts.changes) alwaysChanges.add(counts);
  optDurability(c);
  return counts;
}

/** Results asked for with `return_changes: 'always'`. */
const alwaysChanges = new WeakSet<Counts>();
/** The last error counted on a result (for the `error` of an 'always' change). */
const lastError = new WeakMap<Counts, string>();

/** Counts an error on a row (the first one's message is kept); undefined, for rewriteRows. */
function fail(counts: Counts, message: string): undefined {
  counts.errors++;
  counts.first_error ??= message;
  lastError.set(counts, message);
  return undefined;
}

/** Under 'always', a row that was not written: its value stays, with the error if any. */
function keptChange(c: Call, counts: Counts, old: Row | null, failed: boolean): void {
  if (!alwaysChanges.has(counts)) return;
  const change = { ...(asDelivered({ old_val: old, new_val: old }, c.env.variant) as Record<string, JsValue>) };
  if (failed) change.error = lastError.get(counts) ?? null;
  counts.changes?.push(change);
}

/** Stores a row through the table's write hook (if any) and records the change. */
function store(c: Call, table: TableData, key: JsValue, old: Row | null, next: Row | null, counts: Counts): void {
  if (table.writeHook) {
    const hooked = c.applyDatum(table.writeHook, [old, next]);
    if (hooked !== null && !isObject(hooked)) return fail(counts, 'A write hook must return an OBJECT or NULL.');
    next = hooked as Row | null;
  }
  table.write(key, next === null ? null : clone(next));
  counts.changes?.push(asDelivered({ old_val: old, new_val: next }, c.env.variant));
}

/** The rows a write on argument 0 targets: one row (GET) or a StreamSelection. */
function targets(c: Call): { table: TableData; rows: Row[]; missing: boolean } {
  const v: Value = c.arg(0);
  if (isRow(v)) {
    const table = c.env.store.table(v.table);
    const row = table.get(v.key);
    return { table, rows: row ? [row] : [], missing: !row };
  }
  if (v === null) throw logicError('Expected a selection but found NULL (a GET of a missing row?).').at({ pos: 0 });
  const s = resolve(v, c.env);
  if (c.env.faults.has('write-on-non-selection') && !isStream(s) && (Array.isArray(s) || isObject(s as JsValue))) {
    // The fault's bug: a plain ARRAY or OBJECT is written as if it were a selection of a scratch table.
    const rows = (Array.isArray(s) ? s : [s]).filter((x): x is Row => isObject(x as JsValue)).map((x) => ({ ...x }));
    const scratch = new TableData('scratch', { kind: 'table', db: '', name: '' }, 'id');
    rows.forEach((row, i) => scratch.rows.set(String(i), row));
    return { table: scratch, rows, missing: false };
  }
  if (!isStream(s) || !s.source) throw logicError(`Expected type SELECTION but found ${typeName(v)}.`).at({ pos: 0 });
  return { table: c.env.store.table(s.source), rows: s.take(Infinity).batch as Row[], missing: false };
}

function applyChange(c: Call, i: number, old: Row): JsValue {
  const v = c.arg(i);
  return isFunc(v) ? c.applyDatum(v, [old]) : c.datumOf(v);
}

/**
 * The result OBJECT. Counts beyond those named ("counts such as inserted") are not stated: the
 * reference lists every count, the variant only those that are not zero.
 */
function finish(c: Call, counts: Counts): JsValue {
  if (c.env.variant) return Object.fromEntries(Object.entries(counts).filter(([, v]) => v !== 0)) as JsValue;
  return counts as unknown as JsValue;
}

/** `next` in place of `old`: unchanged when they are equal, else replaced and stored. */
function storeChanged(c: Call, table: TableData, key: JsValue, old: Row, next: Row, counts: Counts): void {
  if (compareDatums(old, next) === 0) {
    counts.unchanged++;
    keptChange(c, counts, old, false);
  } else {
    counts.replaced++;
    store(c, table, key, old, next, counts);
  }
}

/**
 * UPDATE and REPLACE: every selected row rewritten by `rewrite`, which returns the new row, null
 * to delete it, or undefined when it counted the row itself (unchanged, or an error).
 */
/**
 * Terms whose value may differ from one evaluation to the next: an atomic UPDATE or REPLACE
 * refuses them unless `non_atomic` is set, as RethinkDB does ("Could not prove argument
 * deterministic"; mutation/update.yaml `update({d: tbl.nth(0)})`, `update({d: r.js('5')})`).
 */
const NON_DETERMINISTIC = new Set([TermType.JAVASCRIPT, TermType.HTTP, TermType.RANDOM, TermType.UUID, TermType.SAMPLE, TermType.DB, TermType.TABLE]);

function nonDeterministic(t: TermMsg): boolean {
  if (NON_DETERMINISTIC.has(t.type ?? 0)) return t.type !== TermType.UUID || !t.args?.length;
  return (t.args ?? []).some(nonDeterministic) || (t.optargs ?? []).some((p) => p.val !== undefined && nonDeterministic(p.val));
}

function rewriteRows(c: Call, rewrite: (old: Row, table: TableData, counts: Counts) => Row | null | undefined): JsValue {
  const change = c.term.args?.[1];
  if (change && nonDeterministic(change) && optBool(c, 'non_atomic') !== true) {
    throw logicError('Could not prove argument deterministic.  Maybe you want to use the non_atomic flag?').at({ pos: 1 });
  }
  const { table, rows, missing } = targets(c);
  const counts = newCounts(c);
  if (missing) counts.skipped++;
  for (const old of rows) {
    const key = old[table.primaryKey];
    let next: Row | null | undefined;
    const errorsBefore = counts.errors;
    try {
      next = rewrite(old, table, counts);
    } catch (err) {
      // A run-time error while computing a row's new value counts against that row, as in
      // RethinkDB (mutation/atomic_get_set.yaml: `update({x: r.error('a')})` has first_error `a`).
      if (!(err instanceof ReqlError) || err.responseType !== 'RUNTIME_ERROR') throw err;
      fail(counts, err.message);
    }
    if (next === undefined) {
      keptChange(c, counts, old, counts.errors > errorsBefore);
      continue;
    }
    if (next === undefined) continue;
    if (next === null) {
      counts.deleted++;
      store(c, table, key, old, null, counts);
    } else storeChanged(c, table, key, old, next, counts);
  }
  return finish(c, counts);
}

/** RethinkDB stores no array of more than 100,000 items (limits.yaml). */
function tooLong(v: JsValue): boolean {
  if (Array.isArray(v)) return v.length > 100_000 || v.some(tooLong);
  return !!v && typeof v === 'object' && Object.values(v).some(tooLong);
}

function pkChanged(table: TableData, old: Row, next: Row): string {
  return `Primary key \`${table.primaryKey}\` cannot be changed (\`${printDatum(old)}\` -> \`${printDatum(next)}\`).`;
}

/**
 * A string in a primary key may not hold a NUL byte: RethinkDB's key encoding refuses it
 * (datum_t::print_primary_internal, src/rdb_protocol/datum.cc; selection.yaml's `{"id": "\x00"}`
 * insert counts an error). The document is silent on key contents.
 */
function nullByteIn(key: JsValue): string | undefined {
  if (typeof key === 'string') {
    const at = key.indexOf('\u0000');
    return at === -1 ? undefined : `String ${JSON.stringify(key.slice(0, 20))} (truncated) contains NULL byte at offset ${at} in index key.`;
  }
  if (Array.isArray(key)) for (const k of key) {
    const found = nullByteIn(k);
    if (found) return found;
  }
  return undefined;
}

defineTerms({
  INSERT: {
    arity: [2, 2],
    optargs: ['conflict', 'durability', 'return_changes', 'ignore_write_hook'],
    run: (c) => {
      const ref: TableRef = tableArg(c, 0);
      const table = c.env.store.table(ref);
      const input = c.datum(1);
      const docs = Array.isArray(input) ? input : [input];
      const conflict = optString(c, 'conflict') ?? 'error';
      if (!['error', 'replace', 'update'].includes(conflict)) throw logicError(`Conflict option \`${conflict}\` unrecognized.`).at({ opt: 'conflict' });
      const counts = newCounts(c);
      for (const doc of docs) {
        if (!isObject(doc)) {
          fail(counts, `Expected type OBJECT but found ${typeName(doc)}.`);
          continue;
        }
        if (tooLong(doc)) {
          fail(counts, 'Array too large for disk writes (limit 100,000 elements).');
          continue;
        }
        // MINVAL and MAXVAL have no stored form (RethinkDB: mutation/insert.yaml).
        if (JSON.stringify(doc).includes('"$reql_type$":"MINVAL"') || JSON.stringify(doc).includes('"$reql_type$":"MAXVAL"')) {
          fail(counts, '`r.minval` and `r.maxval` cannot be written to disk.');
          continue;
        }
        const row: Row = { ...doc };
        if (!Object.hasOwn(row, table.primaryKey)) {
          row[table.primaryKey] = randomUUID();
          (counts.generated_keys ??= []).push(row[table.primaryKey] as string);
        }
        const key = row[table.primaryKey];
        const nul = nullByteIn(key);
        if (nul) {
          fail(counts, nul);
          continue;
        }
        const old = table.get(key) ?? null;
        if (!old) {
          counts.inserted++;
          store(c, table, key, null, row, counts);
          continue;
        }
        let mode = conflict;
        if (c.env.faults.has('insert-conflict-update-replaces') && mode === 'update') mode = 'replace';
        if (c.env.faults.has('insert-conflict-replace-merges') && mode === 'replace') mode = 'update';
        if (c.env.faults.has('insert-conflict-error-overwrites') && mode === 'error') mode = 'replace';
        if (mode === 'error' && c.env.variant) {
          // How a conflict "raises an error" is not stated: the reference counts it in `errors`,
          // the variant fails the query with a RUNTIME_ERROR.
          throw opFailed(`duplicate primary key \`${table.primaryKey}\` ${JSON.stringify(key)}`);
        }
        if (mode === 'error') {
          fail(counts, `Duplicate primary key \`${table.primaryKey}\`:\n${printDatum(old)}\n${printDatum(row)}`);
          keptChange(c, counts, old, true);
          continue;
        }
        storeChanged(c, table, key, old, mode === 'update' ? (merge(old, row, c) as Row) : row, counts);
      }
      if (c.env.faults.has('insert-count-missing')) delete (counts as Partial<Counts>).inserted;
      return finish(c, counts);
    },
  },
  UPDATE: {
    arity: [2, 2],
    optargs: WRITE_OPTARGS,
    run: (c) =>
      rewriteRows(c, (old, table, counts) => {
        const change = applyChange(c, 1, old);
        if (change === null) {
          counts.unchanged++;
          return undefined;
        }
        if (!isObject(change)) return fail(counts, `Expected type OBJECT but found ${typeName(change)}.`);
        const next = merge(old, change, c) as Row;
        if (compareDatums(next[table.primaryKey], old[table.primaryKey]) !== 0) return fail(counts, pkChanged(table, old, next));
        return next;
      }),
  },
  REPLACE: {
    arity: [2, 2],
    optargs: WRITE_OPTARGS,
    run: (c) =>
      rewriteRows(c, (old, table, counts) => {
        const next = applyChange(c, 1, old);
        if (next === null) return null;
        if (!isObject(next)) return fail(counts, `Expected type OBJECT but found ${typeName(next)}.`);
        if (!Object.hasOwn(next, table.primaryKey)) return fail(counts, `Inserted object must have primary key \`${table.primaryKey}\`:\n${printDatum(next)}`);
        if (compareDatums(next[table.primaryKey], old[table.primaryKey]) !== 0) return fail(counts, pkChanged(table, old, next));
        return next as Row;
      }),
  },
  DELETE: {
    arity: [1, 1],
    optargs: ['durability', 'return_changes', 'ignore_write_hook'],
    run: (c) => {
      if (c.env.faults.has('delete-on-object-accepted')) {
        // The fault's bug: a plain OBJECT (not a selection) is "deleted": counts, no error.
        const v = c.arg(0);
        if (!isRow(v) && isObject(resolve(v, c.env) as JsValue)) return finish(c, { ...newCounts(c), deleted: 1 });
      }
      const { table, rows: selected, missing } = targets(c);
      const counts = newCounts(c);
      if (missing) counts.skipped++;
      const rows = c.env.faults.has('delete-ignores-selection') ? [...table.rows.values()] : selected;
      for (const old of rows) {
        counts.deleted++;
        store(c, table, old[table.primaryKey], old, null, counts);
      }
      return finish(c, counts);
    },
  },
  SYNC: {
    arity: [1, 1],
    run: (c) => {
      c.env.store.table(tableArg(c, 0));
      return { synced: 1 };
    },
  },
});
