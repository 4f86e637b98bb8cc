// "Sequences" terms that order: ORDER_BY (by fields, functions, ASC/DESC, or a secondary index)
// and DISTINCT; ASC and DESC build the orderings ORDER_BY reads.
import type { JsValue } from '../../../../src/clients/wire/codec.ts';
import { list, readAll, seqAt, str, type Obj } from '../args.ts';
import { compileError, isAbsent, logicError } from '../errors.ts';
import { defineTerms, resolve, type Call } from '../evaluate.ts';
import { indexKeys, refuseGeo, requireIndex } from '../indexes.ts';
import { isFunc, isOrdering, isStream, isTable, rangedBy, Stream, type Ordering, type Value } from '../values.ts';
import { compareDatums } from './logic.ts';
import { getField } from './objects.ts';

const ANY = Infinity;

export interface OrderKey {
  get: (x: JsValue) => JsValue;
  desc: boolean;
}

/** ASC/DESC: an ordering ORDER_BY reads (never a datum). */
function orderMarker(direction: 'asc' | 'desc') {
  return {
    arity: [1, 1] as const,
    literal: { args: [0], alsoAllowed: ['FUNC'] },
    run: (c: Call): Ordering => {
      const v = c.arg(0);
      return { kind: 'ordering', desc: direction === 'desc', by: isFunc(v) ? v : str(c, 0) };
    },
  };
}

export function orderKey(c: Call, v: Value): OrderKey {
  const by = isOrdering(v) ? v.by : isFunc(v) ? v : c.datumOf(v);
  const desc = isOrdering(v) && v.desc;
  if (isFunc(by)) return { get: (x) => c.applyDatum(by, [x]), desc };
  if (typeof by === 'string') return { get: (x) => getField(x, by), desc };
  throw logicError('ORDER_BY expects field names, functions, or ASC/DESC.');
}

/**
 * A row without the key (an absent-value error) sorts before every value, in the key's direction,
 * as RethinkDB's lt_cmp_t does (src/rdb_protocol/order_util.cc; default.yaml orders `{}` before
 * `{a: null}`). Other errors stop the query.
 */
export function keyOf(k: OrderKey, x: JsValue): JsValue | undefined {
  try {
    return k.get(x);
  } catch (err) {
    if (isAbsent(err)) return undefined;
    throw err;
  }
}

export function compareKeys(a: JsValue | undefined, b: JsValue | undefined): number {
  if (a === undefined || b === undefined) return a === b ? 0 : a === undefined ? -1 : 1;
  return compareDatums(a, b);
}

function sortBy(items: JsValue[], keys: OrderKey[]): JsValue[] {
  const keyed = items.map((x) => ({ x, k: keys.map((k) => keyOf(k, x)) }));
  keyed.sort((a, b) => {
    for (let i = 0; i < keys.length; i++) {
      const d = compareKeys(a.k[i], b.k[i]);
      if (d) return keys[i].desc ? -d : d;
    }
    return 0;
  });
  return keyed.map((e) => e.x);
}

defineTerms({
  ORDER_BY: {
    arity: [1, ANY],
    optargs: ['index'],
    // (!STRING|Ordering): a literal field name or ASC/DESC; wire-ref also takes a function, as drivers send.
    literal: { restFrom: 1, optargs: ['index'], alsoAllowed: ['ASC', 'DESC', 'FUNC'] },
    run: (c) => {
      const input = c.arg(0);
      const s = seqAt(c, 0, resolve(input, c.env));
      const keys = Array.from({ length: c.argc - 1 }, (_, i) => orderKey(c, c.arg(i + 1)));
      const indexArg = c.optarg('index');
      let indexed: JsValue[] | undefined;
      if (indexArg !== undefined) {
        // A table, or a TABLE_SLICE of it (BETWEEN), as in RethinkDB (transformation.yaml).
        if (!s.source || !(isTable(input) || (isStream(input) && input.selectionKind === 'TABLE_SLICE'))) throw logicError('ORDER_BY with an index expects a table.').at({ pos: 0 });
        if (isStream(input) && rangedBy.indexOrder.has(input)) throw logicError('Cannot perform multiple indexed ORDER_BYs on the same table.').at({ pos: 0 });
        const table = c.env.store.table(s.source);
        const spec = isOrdering(indexArg) ? indexArg.by : c.datumOf(indexArg);
        if (typeof spec !== 'string') throw logicError('ORDER_BY index must be named by a string.').at({ opt: 'index' });
        const name = spec;
        const desc = isOrdering(indexArg) && indexArg.desc;
        requireIndex(table, name);
        refuseGeo(table, name);
        // Each row once per index key (a multi index repeats it), rows without a key left out, as
        // RethinkDB reads an index (sindex/api.yaml `orderBy({index: 'mi'})`).
        const keyOfCopy = new WeakMap<object, JsValue>();
        indexed = readAll(s).flatMap((row) =>
          (c.env.faults.has('order-by-index-ignored') ? [(row as Obj)[table.primaryKey]] : indexKeys(c, table, name, row as Obj)).map((k) => {
            const copy = { ...(row as Obj) };
            keyOfCopy.set(copy, k);
            return copy;
          }),
        );
        // The fault's bug: the index is ignored and rows come in primary-key order.
        keys.unshift({ get: (x: JsValue) => keyOfCopy.get(x as Obj) ?? null, desc });
      }
      if (!keys.length) throw compileError('ORDER_BY expects at least one ordering.');
      const sorted = sortBy(indexed ?? readAll(s), keys);
      if (s.array) return sorted;
      const out = new Stream(sorted[Symbol.iterator](), false, s.source, s.source ? (indexArg !== undefined ? 'TABLE_SLICE' : 'SELECTION<ARRAY>') : undefined);
      if (indexArg !== undefined) rangedBy.indexOrder.add(out);
      return out;
    },
  },
  DISTINCT: {
    arity: [1, 1],
    optargs: ['index'],
    run: (c) => {
      const input = resolve(c.arg(0), c.env);
      const s = seqAt(c, 0, input);
      let items = readAll(s);
      // With an index, the distinct index keys (RethinkDB's DISTINCT on a table's index).
      const index = c.optarg('index');
      if (index !== undefined) {
        const name = c.datumOf(index);
        if (!s.source) throw logicError('DISTINCT with an index expects a table.').at({ pos: 0 });
        if (typeof name !== 'string') throw logicError('Expected type STRING for `index`.').at({ opt: 'index' });
        const table = c.env.store.table(s.source);
        requireIndex(table, name);
        items = items.flatMap((x) => indexKeys(c, table, name, x as Obj));
      }
      // A table or stream gives a stream, an array an array (RethinkDB's TYPE_OF says STREAM).
      const out = (xs: JsValue[]) => (s.array ? xs : Stream.of(xs));
      // DISTINCT states no order: the reference sorts, the variant keeps each item's first place.
      if (c.env.variant) return out(items.filter((x, i) => items.findIndex((y) => compareDatums(x, y) === 0) === i));
      const sorted = sortBy(items, [{ get: (x) => x, desc: false }]);
      return out(sorted.filter((x, i) => i === 0 || compareDatums(sorted[i - 1], x) !== 0));
    },
  },
  ASC: orderMarker('asc'),
  DESC: orderMarker('desc'),
});
