// "Sequences" terms that group and reduce: GROUP, UNGROUP and the reductions SUM, AVG, MIN and
// MAX (whose signatures the catalogue does not give). Grouped data is a datum, so that it can
// travel as a result and be reduced per group by COUNT, MAP, REDUCE and the reductions.
import type { JsValue } from '../../../../src/clients/wire/codec.ts';
import { isObject, readAll, seqAt, type Obj } from '../args.ts';
import { compileError, isAbsent, logicError, nonExistence } from '../errors.ts';
import { indexKeys, requireIndex } from '../indexes.ts';
import { defineTerms, resolve, type Call } from '../evaluate.ts';
import { isFunc, isStream, type Value } from '../values.ts';
import { compareDatums } from './logic.ts';
import { getField } from './objects.ts';

const ANY = Infinity;

export interface Grouped {
  $reql_type$: 'GROUPED_DATA';
  data: [JsValue, JsValue][];
}

export function isGrouped(v: Value): v is Grouped & Obj {
  return isObject(v as JsValue) && (v as Obj).$reql_type$ === 'GROUPED_DATA';
}

/** Runs `f` on the whole input, or on each group of grouped data. */
export function perGroup(c: Call, f: (items: JsValue[]) => JsValue, v: Value = resolve(c.arg(0), c.env)): JsValue {
  if (isGrouped(v)) return { $reql_type$: 'GROUPED_DATA', data: v.data.map(([k, items]) => [k, f(items as JsValue[])]) } as JsValue;
  return f(readAll(seqAt(c, 0, v)));
}

/**
 * A reduction over the items whose value is present. On grouped data a group with no such item
 * is left out (RethinkDB: `group('a').sum('b')` has no group for an `a` whose rows lack `b`).
 */
function reduction(c: Call, get: (x: JsValue) => JsValue, f: (found: { x: JsValue; v: JsValue }[]) => JsValue, v: Value = resolve(c.arg(0), c.env)): JsValue {
  if (isGrouped(v)) {
    const data = v.data.map(([k, items]) => [k, present(items as JsValue[], get)] as const).filter(([, found]) => found.length);
    return { $reql_type$: 'GROUPED_DATA', data: data.map(([k, found]) => [k, f(found)]) } as JsValue;
  }
  return f(present(readAll(seqAt(c, 0, v)), get));
}

/** The value a reduction reads from each item: the item, a field of it, or a function of it. */
function selector(c: Call, i: number): (x: JsValue) => JsValue {
  if (c.argc <= i) return (x) => x;
  const v = c.arg(i);
  if (isFunc(v)) return (x) => c.applyDatum(v, [x]);
  const field = c.datum(i);
  if (typeof field !== 'string') throw logicError('Expected a field name or a function.').at({ pos: i });
  return (x) => getField(x, field);
}

/**
 * The values a reduction reads: items whose field (or function) is absent are skipped, as
 * RethinkDB's SUM, AVG, MIN and MAX skip rows without the field (aggregation.yaml
 * `group('a').sum('b')` over rows some of which lack `b`).
 */
function present(xs: JsValue[], get: (x: JsValue) => JsValue): { x: JsValue; v: JsValue }[] {
  const out: { x: JsValue; v: JsValue }[] = [];
  for (const x of xs) {
    try {
      out.push({ x, v: get(x) });
    } catch (err) {
      if (!isAbsent(err)) throw err;
    }
  }
  return out;
}

function numbers(xs: JsValue[]): number[] {
  return xs.map((x) => {
    if (typeof x !== 'number') throw logicError(`Expected type NUMBER but found ${JSON.stringify(x)}.`);
    return x;
  });
}

/** The fault's bug: the reductions whose signatures the catalogue does not give are unknown terms. */
function unsupportedReduction(c: Call): void {
  if (c.env.faults.has('reductions-unsupported')) throw compileError(`${c.name} is not supported by this server.`);
}

function extremum(c: Call, sign: number): JsValue {
  unsupportedReduction(c);
  const input = resolve(c.arg(0), c.env);
  const get = c.argc > 1 ? selector(c, 1) : byIndex(c, input);
  return reduction(
    c,
    get,
    (found) => {
      if (!found.length) throw nonExistence(`Cannot take the ${sign < 0 ? 'min' : 'max'} of an empty stream.`);
      return found.reduce((best, e) => (compareDatums(e.v, best.v) * sign > 0 ? e : best)).x;
    },
    input,
  );
}

/**
 * MIN/MAX of table rows with no field or function: by the `index` optarg, else by the primary
 * key (RethinkDB reads a table in index order; aggregation.yaml `tbl.min()` is the row of
 * the smallest id). Other sequences compare their items whole.
 */
function byIndex(c: Call, input: Value): (x: JsValue) => JsValue {
  const index = c.optarg('index');
  const source = isStream(input) ? input.source : undefined;
  if (!source) {
    if (index !== undefined) throw logicError(`${c.name} with an index expects a table.`).at({ pos: 0 });
    return (x) => x;
  }
  const table = c.env.store.table(source);
  const name = index === undefined ? table.primaryKey : c.datumOf(index);
  if (typeof name !== 'string') throw logicError('Expected type STRING for `index`.').at({ opt: 'index' });
  requireIndex(table, name);
  return (x) => {
    const keys = indexKeys(c, table, name, x as Obj);
    if (!keys.length) throw nonExistence(`No index key for \`${name}\`.`);
    return [keys.reduce((a, b) => (compareDatums(a, b) <= 0 ? a : b)), (x as Obj)[table.primaryKey]];
  };
}

/** A GROUP key argument: a field name, a function, or a constant datum. */
function groupKey(c: Call, i: number): (x: JsValue) => JsValue[] {
  const v = c.arg(i);
  if (isFunc(v)) return (x) => [c.applyDatum(v, [x])];
  const d = c.datumOf(v);
  if (typeof d === 'string') return (x) => [getField(x, d)];
  return () => [d];
}

function indexGroupKey(c: Call, input: Value, name: JsValue): (x: JsValue) => JsValue[] {
  const source = isStream(input) ? input.source : undefined;
  if (!source) throw logicError('GROUP with an index expects a table.').at({ pos: 0 });
  if (typeof name !== 'string') throw logicError('Expected type STRING for `index`.').at({ opt: 'index' });
  const table = c.env.store.table(source);
  requireIndex(table, name);
  return (x) => indexKeys(c, table, name, x as Obj);
}

/** Every combination of one choice per key (a row missing from an index joins no group). */
function product(choices: JsValue[][]): JsValue[][] {
  return choices.reduce<JsValue[][]>((acc, ks) => acc.flatMap((a) => ks.map((k) => [...a, k])), [[]]);
}

defineTerms({
  GROUP: {
    arity: [1, ANY],
    optargs: ['index', 'multi'],
    run: (c) => {
      const input = resolve(c.arg(0), c.env);
      const items = readAll(seqAt(c, 0, input));
      // As RethinkDB's group_term_t: fields or functions, and/or the keys of an `index`; a datum
      // other than a field name is a constant key; `multi` makes each item of an ARRAY key a
      // group of its own; at least one of them is needed.
      const keys: ((x: JsValue) => JsValue[])[] = Array.from({ length: c.argc - 1 }, (_, i) => groupKey(c, i + 1));
      const index = c.optarg('index');
      if (index !== undefined) keys.push(indexGroupKey(c, input, c.datumOf(index)));
      if (!keys.length) throw logicError('Cannot group by nothing.');
      const multi = c.optarg('multi') !== undefined && c.datumOf(c.optarg('multi')!) === true;
      const groups: [JsValue, JsValue[]][] = [];
      const add = (k: JsValue, x: JsValue) => {
        if (c.env.faults.has('group-single-group')) k = null;
        const g = groups.find(([gk]) => compareDatums(gk, k) === 0);
        if (g) g[1].push(x);
        else groups.push([k, [x]]);
      };
      for (const x of items) {
        const choices = keys.map((f) => {
          let ks: JsValue[];
          try {
            ks = f(x);
          } catch (err) {
            if (!isAbsent(err)) throw err;
            ks = [null];
          }
          // With `multi`, an empty ARRAY puts the item in the NULL group.
          return multi ? ks.flatMap((k) => (Array.isArray(k) ? (k.length ? k : [null]) : [k])) : ks;
        });
        for (const combo of product(choices)) add(combo.length === 1 ? combo[0] : combo, x);
      }
      // Groups come in no stated order: ascending keys in the reference, descending in the variant.
      groups.sort((a, b) => compareDatums(a[0], b[0]) * (c.env.variant ? -1 : 1));
      return { $reql_type$: 'GROUPED_DATA', data: groups } as JsValue;
    },
  },
  UNGROUP: {
    arity: [1, 1],
    run: (c) => {
      const v = resolve(c.arg(0), c.env);
      if (!isGrouped(v)) throw logicError('UNGROUP expects grouped data.').at({ pos: 0 });
      return v.data.map(([group, reduction]) => ({ group, reduction }));
    },
  },
  SUM: { arity: [1, 2], run: (c) => { unsupportedReduction(c); const get = selector(c, 1); return reduction(c, get, (found) => numbers(found.map((e) => e.v)).reduce((a, b) => a + b, 0)); } },
  AVG: {
    arity: [1, 2],
    run: (c) => {
      unsupportedReduction(c);
      const get = selector(c, 1);
      return reduction(c, get, (found) => {
        const ns = numbers(found.map((e) => e.v));
        if (!ns.length) throw nonExistence('Cannot take the average of an empty stream.');
        return ns.reduce((a, b) => a + b, 0) / ns.length;
      });
    },
  },
  MIN: { arity: [1, 2], optargs: ['index'], run: (c) => extremum(c, -1) },
  MAX: { arity: [1, 2], optargs: ['index'], run: (c) => extremum(c, 1) },
});
