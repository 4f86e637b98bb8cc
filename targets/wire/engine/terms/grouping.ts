// "Sequences" terms that group and reduce: GROUP, UNGROUP and the reductions SUM, AVG, MIN and
// MAX (whose signatures the catalogue does not give). Grouped data is a datum, so that it can
// travel as a result and be reduced per group by COUNT, MAP, REDUCE and the reductions.
import type { JsValue } from '../../../../src/clients/wire/codec.ts';
import { isObject, list, readAll, seqAt, type Obj } from '../args.ts';
import { compileError, logicError, nonExistence } from '../errors.ts';
import { defineTerms, resolve, type Call } from '../evaluate.ts';
import { isFunc, type Value } from '../values.ts';
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

/** The value a reduction reads from each item: the item, a field of it, or a function of it. */
function selector(c: Call, i: number): (x: JsValue) => JsValue {
  if (c.argc <= i) return (x) => x;
  const v = c.arg(i);
  if (isFunc(v)) return (x) => c.applyDatum(v, [x]);
  const field = c.datum(i);
  if (typeof field !== 'string') throw logicError('Expected a field name or a function.').at({ pos: i });
  return (x) => getField(x, field);
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
  const get = selector(c, 1);
  return perGroup(c, (xs) => {
    if (!xs.length) throw nonExistence(`Cannot take the ${sign < 0 ? 'min' : 'max'} of an empty stream.`);
    return xs.reduce((best, x) => (compareDatums(get(x), get(best)) * sign > 0 ? x : best));
  });
}

defineTerms({
  GROUP: {
    arity: [1, ANY],
    optargs: ['index', 'multi'],
    run: (c) => {
      const items = list(c, 0);
      const keys = Array.from({ length: c.argc - 1 }, (_, i) => selector(c, i + 1));
      const groups: [JsValue, JsValue[]][] = [];
      for (const x of items) {
        let k: JsValue;
        try {
          const ks = keys.map((f) => f(x));
          k = ks.length === 1 ? ks[0] : ks;
        } catch {
          k = null;
        }
        if (c.env.faults.has('group-single-group')) k = null;
        const g = groups.find(([gk]) => compareDatums(gk, k) === 0);
        if (g) g[1].push(x);
        else groups.push([k, [x]]);
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
  SUM: { arity: [1, 2], run: (c) => { unsupportedReduction(c); const get = selector(c, 1); return perGroup(c, (xs) => numbers(xs.map(get)).reduce((a, b) => a + b, 0)); } },
  AVG: {
    arity: [1, 2],
    run: (c) => {
      unsupportedReduction(c);
      const get = selector(c, 1);
      return perGroup(c, (xs) => {
        const ns = numbers(xs.map(get));
        if (!ns.length) throw nonExistence('Cannot take the average of an empty stream.');
        return ns.reduce((a, b) => a + b, 0) / ns.length;
      });
    },
  },
  MIN: { arity: [1, 2], optargs: ['index'], run: (c) => extremum(c, -1) },
  MAX: { arity: [1, 2], optargs: ['index'], run: (c) => extremum(c, 1) },
});
