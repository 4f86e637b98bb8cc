// "Types and control" terms.
import type { JsValue } from '../../../../src/clients/wire/codec.ts';
import { isObject, list, str } from '../args.ts';
import { compileError, EmptyError, isAbsent, logicError, ReqlError } from '../errors.ts';
import { Call, defineTerms, resolve } from '../evaluate.ts';
import { isFunc, isTable, isDb, typeName } from '../values.ts';
import { isGrouped } from './grouping.ts';

const ANY = Infinity;

/** MINVAL and MAXVAL have no JSON form (RethinkDB, json.yaml): converting one to text is an error. */
function noJson(v: JsValue): void {
  if (Array.isArray(v)) return v.forEach(noJson);
  if (v && typeof v === 'object') {
    const t = (v as Record<string, JsValue>).$reql_type$;
    if (t === 'MINVAL' || t === 'MAXVAL') throw logicError(`Cannot convert \`r.${t.toLowerCase()}\` to JSON.`);
    Object.values(v).forEach(noJson);
  }
}

function coerce(v: JsValue, to: string): JsValue {
  const from = typeName(v);
  // BINARY is a value of its own, not an object: it becomes a STRING (its bytes) or stays BINARY,
  // and a STRING becomes BINARY (its UTF-8 bytes), as in RethinkDB (datum/binary.yaml, json.yaml).
  const binary = isObject(v) && v.$reql_type$ === 'BINARY';
  if (binary || to.toLowerCase() === 'binary') {
    if (binary && to.toLowerCase() === 'binary') return v;
    if (binary && to.toLowerCase() === 'string') return Buffer.from(String(v.data), 'base64').toString('utf8');
    if (typeof v === 'string') return { $reql_type$: 'BINARY', data: Buffer.from(v, 'utf8').toString('base64') };
    if (binary && to.toLowerCase() === 'bool') return true;
    throw logicError(`Cannot coerce ${binary ? 'BINARY' : from} to ${to.toUpperCase()}.`);
  }
  switch (to.toLowerCase()) {
    case 'string':
      if (typeof v !== 'string') noJson(v);
      return typeof v === 'string' ? v : JSON.stringify(v);
    case 'number': {
      if (typeof v === 'number') return v;
      const n = typeof v === 'string' && v.trim() !== '' ? Number(v) : NaN;
      if (Number.isNaN(n)) throw logicError(`Could not coerce ${JSON.stringify(v)} to NUMBER.`);
      return n;
    }
    case 'array':
      if (Array.isArray(v)) return v;
      if (isObject(v)) return Object.entries(v).map(([k, x]) => [k, x]);
      if (typeof v === 'string') return [...v];
      break;
    case 'object':
      if (isObject(v)) return v;
      if (Array.isArray(v) && v.every((p) => Array.isArray(p) && p.length === 2 && typeof p[0] === 'string')) {
        return Object.fromEntries(v as [string, JsValue][]);
      }
      break;
    case 'bool':
      return !(v === false || v === null);
    case 'null':
      if (v === null) return v;
      break;
  }
  throw logicError(`Cannot coerce ${from} to ${to.toUpperCase()}.`);
}

/** Sums the counts of write results (FOR_EACH's OBJECT). */
function addCounts(into: Record<string, JsValue>, res: JsValue): void {
  if (!isObject(res)) return;
  for (const [k, v] of Object.entries(res)) {
    if (typeof v === 'number') into[k] = ((into[k] as number | undefined) ?? 0) + v;
    else if (Array.isArray(v)) into[k] = [...((into[k] as JsValue[] | undefined) ?? []), ...v];
    // The first error message is kept (RethinkDB's FOR_EACH, control.yaml).
    else if (typeof v === 'string' && into[k] === undefined) into[k] = v;
  }
}

defineTerms({
  COERCE_TO: {
    arity: [2, 2],
    run: (c) => {
      if (c.env.faults.has('coerce-to-ignored')) return c.datum(0);
      const v = c.datum(0);
      // Grouped data is coerced group by group, and stays grouped.
      if (isGrouped(v)) return { $reql_type$: 'GROUPED_DATA', data: v.data.map(([k, g]) => [k, coerce(g, str(c, 1))]) } as JsValue;
      return coerce(v, str(c, 1));
    },
  },
  // TYPE_OF=52: Top -> STRING names no string: the variant answers the type names in lower case.
  TYPE_OF: { arity: [1, 1], run: (c) => (c.env.variant ? typeName(c.arg(0)).toLowerCase() : typeName(c.arg(0))) },
  FUNCALL: {
    arity: [1, ANY],
    run: (c) => {
      const fn = c.arg(0);
      const args = Array.from({ length: c.argc - 1 }, (_, i) => c.arg(i + 1));
      // A function of grouped data runs once per group (RethinkDB's grouped-data semantics:
      // aggregation.yaml `group('a').count().do(x => x.mul(x))`).
      if (args.length === 1 && isGrouped(args[0])) {
        return { $reql_type$: 'GROUPED_DATA', data: args[0].data.map(([k, g]) => [k, c.applyDatum(fn, [g])]) } as JsValue;
      }
      return c.apply(fn, args);
    },
  },
  BRANCH: {
    arity: [3, 3],
    run: (c) => {
      // The test is a datum: a table is not read out as its rows (RethinkDB, control.yaml).
      const raw = c.arg(0);
      if (isTable(raw)) throw logicError('Expected type DATUM but found TABLE.').at({ pos: 0 });
      const test = c.datumOf(raw);
      return test === false || test === null ? c.arg(2) : c.arg(1);
    },
  },
  FOR_EACH: {
    arity: [2, 2],
    run: (c) => {
      const items = list(c, 0);
      const fn = c.arg(1);
      const out: Record<string, JsValue> = {};
      const each: JsValue[] = [];
      for (const item of items) {
        const applied = c.apply(fn, [item]);
        // A table is no write result (RethinkDB, control.yaml `forEach(row => tbl)`).
        if (isTable(applied)) throw logicError('FOR_EACH expects one or more basic write queries.').at({ pos: 1 });
        const res = c.datumOf(applied);
        each.push(res);
        // The function gives write results (an OBJECT, or an ARRAY of them), as RethinkDB's
        // for_each_term_t requires (control.yaml `forEach(x => x)` is an error).
        if (!isObject(res) && !Array.isArray(res)) throw logicError(`FOR_EACH expects one or more basic write queries.  Expected type ARRAY but found ${typeName(res)}.`).at({ pos: 1 });
        for (const r of Array.isArray(res) ? res : [res]) addCounts(out, r);
      }
      return c.env.faults.has('for-each-returns-array') ? each : out;
    },
  },
  DEFAULT: {
    arity: [2, 2],
    run: (c: Call) => {
      let caught: ReqlError | undefined;
      try {
        const v = c.arg(0);
        if (v !== null || c.env.faults.has('default-ignores-null')) return v;
      } catch (err) {
        if (!isAbsent(err) && !(err instanceof ReqlError && c.env.faults.has('default-catches-any-error'))) throw err;
        caught = err;
      }
      const env = { ...c.env, caught };
      try {
        const fallback = new Call(c.term, env).arg(1);
        return isFunc(fallback) ? new Call(c.term, env).apply(fallback, [caught ? caught.message : null]) : fallback;
      } catch (err) {
        // An argument-less ERROR in the fallback (RethinkDB's EMPTY_USER): rethrow what was
        // caught, or answer the NULL the first argument gave.
        if (!(err instanceof EmptyError)) throw err;
        if (caught) throw caught;
        return null;
      }
    },
  },
  INFO: {
    arity: [1, 1],
    run: (c) => {
      const v = c.arg(0);
      if (isTable(v)) {
        const t = c.env.store.table(v);
        return { type: 'TABLE', name: v.name, db: { type: 'DB', name: v.db, id: c.env.store.dbId(v.db) }, primary_key: t.primaryKey, indexes: [...t.indexes.keys()], id: t.id } as JsValue;
      }
      // With the database's id, as RethinkDB's INFO (meta/table.yaml).
      if (isDb(v)) return { type: 'DB', name: v.name, id: c.env.store.dbId(v.name) };
      const d = resolve(v, c.env);
      // The fault's bug: INFO answers the JSON text of its description, a STRING instead of an OBJECT.
      if (c.env.faults.has('info-as-string')) return JSON.stringify({ type: typeName(d) });
      return { type: typeName(d), value: isFunc(d) ? null : JSON.stringify(c.datumOf(d)) };
    },
  },
  JSON: {
    arity: [1, 1],
    run: (c) => {
      const text = str(c, 0);
      if (c.env.faults.has('json-returns-string')) return text;
      try {
        return JSON.parse(text) as JsValue;
      } catch (err) {
        throw logicError(`Failed to parse "${text}" as JSON: ${(err as Error).message}.`).at({ pos: 0 });
      }
    },
  },
  // The JSON text's key order and spacing are not stated: the reference writes compact JSON with
  // each object's keys sorted, as RethinkDB does (json.yaml, which compares the text); the variant
  // writes the keys in reverse sorted order, indented.
  TO_JSON_STRING: {
    arity: [1, 1],
    run: (c) => {
      const v = c.datum(0);
      noJson(v);
      return c.env.variant ? JSON.stringify(reverseKeys(sortKeys(v)), null, 1) : JSON.stringify(sortKeys(v));
    },
  },
  // Client-only: drivers build BINARY values themselves; the server does not run the term.
  BINARY: {
    arity: [1, 1],
    run: (c) => {
      if (c.env.faults.has('binary-accepted')) return { $reql_type$: 'BINARY', data: Buffer.from(str(c, 0)).toString('base64') };
      throw compileError('BINARY is a client-only term, not supported on the server.');
    },
  },
});

/** The same value with the keys of every object in sorted (code unit) order. */
function sortKeys(v: JsValue): JsValue {
  if (Array.isArray(v)) return v.map(sortKeys);
  if (v && typeof v === 'object') return Object.fromEntries(Object.entries(v).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([k, x]) => [k, sortKeys(x)]));
  return v;
}

/** The same value with the keys of every object in reverse order. */
export function reverseKeys(v: JsValue): JsValue {
  if (Array.isArray(v)) return v.map(reverseKeys);
  if (v && typeof v === 'object') return Object.fromEntries(Object.entries(v).reverse().map(([k, x]) => [k, reverseKeys(x)]));
  return v;
}
