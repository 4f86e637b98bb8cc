// "Sequences" terms that order: ORDER_BY (by fields, functions, ASC/DESC, or a secondary index)
// and DISTINCT; ASC and DESC build the orderings ORDER_BY reads.
import type { JsValue } from '../../../../src/clients/wire/codec.ts';
import { list, readAll, seqAt, str, type Obj } from '../args.ts';
import { compileError, logicError } from '../errors.ts';
import { defineTerms, resolve, type Call } from '../evaluate.ts';
import { indexKeys, requireIndex } from '../indexes.ts';
import { isFunc, isOrdering, isTable, Stream, type Ordering, type Value } from '../values.ts';
import { compareDatums } from './logic.ts';
import { getField } from './objects.ts';

const ANY = Infinity;

interface OrderKey {
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

function orderKey(c: Call, v: Value): OrderKey {
  const by = isOrdering(v) ? v.by : isFunc(v) ? v : c.datumOf(v);
  const desc = isOrdering(v) && v.desc;
  if (isFunc(by)) return { get: (x) => c.applyDatum(by, [x]), desc };
  if (typeof by === 'string') return { get: (x) => getField(x, by), desc };
  throw logicError('ORDER_BY expects field names, functions, or ASC/DESC.');
}

function sortBy(items: JsValue[], keys: OrderKey[]): JsValue[] {
  const keyed = items.map((x) => ({ x, k: keys.map((k) => { try { return k.get(x); } catch { return null; } }) }));
  keyed.sort((a, b) => {
    for (let i = 0; i < keys.length; i++) {
      const d = compareDatums(a.k[i], b.k[i]);
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
      if (indexArg !== undefined) {
        if (!s.source || !isTable(input)) throw logicError('ORDER_BY with an index expects a table.').at({ pos: 0 });
        const table = c.env.store.table(s.source);
        const spec = isOrdering(indexArg) ? indexArg.by : c.datumOf(indexArg);
        if (typeof spec !== 'string') throw logicError('ORDER_BY index must be named by a string.').at({ opt: 'index' });
        const name = spec;
        const desc = isOrdering(indexArg) && indexArg.desc;
        requireIndex(table, name);
        const get = (x: JsValue) => {
          // The fault's bug: the index is ignored and rows come in primary-key order.
          if (c.env.faults.has('order-by-index-ignored')) return (x as Obj)[table.primaryKey];
          return indexKeys(c, table, name, x as Obj)[0] ?? null;
        };
        keys.unshift({ get, desc });
      }
      if (!keys.length) throw compileError('ORDER_BY expects at least one ordering.');
      const sorted = sortBy(readAll(s), keys);
      return s.array ? sorted : Stream.of(sorted, false, s.source);
    },
  },
  DISTINCT: {
    arity: [1, 1],
    optargs: ['index'],
    run: (c) => {
      const items = list(c, 0);
      // DISTINCT states no order: the reference sorts, the variant keeps each item's first place.
      if (c.env.variant) return items.filter((x, i) => items.findIndex((y) => compareDatums(x, y) === 0) === i);
      const sorted = sortBy(items, [{ get: (x) => x, desc: false }]);
      return sorted.filter((x, i) => i === 0 || compareDatums(sorted[i - 1], x) !== 0);
    },
  },
  ASC: orderMarker('asc'),
  DESC: orderMarker('desc'),
});
