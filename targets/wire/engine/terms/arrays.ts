// "Arrays and sets" terms. Set operations return arrays without duplicates, in first-seen order.
import type { JsValue } from '../../../../src/clients/wire/codec.ts';
import { arr, int } from '../args.ts';
import { nonExistence } from '../errors.ts';
import { defineTerms, type Call } from '../evaluate.ts';
import { compareDatums } from './logic.ts';

const same = (a: JsValue, b: JsValue) => compareDatums(a, b) === 0;
const has = (xs: JsValue[], x: JsValue) => xs.some((y) => same(x, y));

/** The items of a set operation are in no stated order: the variant answers them reversed. */
function setOrder(c: Call, xs: JsValue[]): JsValue[] {
  return c.env.variant ? xs.reverse() : xs;
}

function unique(xs: JsValue[]): JsValue[] {
  const out: JsValue[] = [];
  for (const x of xs) if (!has(out, x)) out.push(x);
  return out;
}

/**
 * A position in `xs`, as RethinkDB reads it (src/rdb_protocol/terms/arr.cc): a negative position
 * counts from the end, where INSERT_AT and SPLICE_AT (`end`) count -1 as after the last item; a
 * position outside the array is an absent value (NON_EXISTENCE), so DEFAULT catches it.
 */
function index(c: Call, i: number, xs: JsValue[], end: boolean): number {
  const raw = int(c, i);
  const n = raw < 0 ? raw + xs.length + (end ? 1 : 0) : raw;
  if (n < 0) throw nonExistence(`Index out of bounds: ${raw}`).at({ pos: i });
  if (n > xs.length || (!end && n === xs.length)) throw nonExistence(`Index \`${raw}\` out of bounds for array of size: \`${xs.length}\`.`).at({ pos: i });
  return n;
}

/** An end of DELETE_AT's range: negative counts from the end, the array's size is allowed. */
function rangeEnd(c: Call, i: number, xs: JsValue[]): number {
  const raw = int(c, i);
  const n = raw < 0 ? raw + xs.length : raw;
  if (n < 0) throw nonExistence(`Index out of bounds: ${raw}`).at({ pos: i });
  if (n > xs.length) throw nonExistence(`Index \`${raw}\` out of bounds for array of size: \`${xs.length}\`.`).at({ pos: i });
  return n;
}

defineTerms({
  APPEND: { arity: [2, 2], run: (c) => [...arr(c, 0), c.datum(1)] },
  PREPEND: {
    arity: [2, 2],
    run: (c) => (c.env.faults.has('prepend-appends') ? [...arr(c, 0), c.datum(1)] : [c.datum(1), ...arr(c, 0)]),
  },
  DIFFERENCE: {
    arity: [2, 2],
    run: (c) => {
      const remove = arr(c, 1);
      // Line 140 states no rule for an item the first array holds more than once: the reference
      // removes every occurrence (as RethinkDB does), the variant one occurrence per item removed.
      if (c.env.variant) {
        const left = [...remove];
        return arr(c, 0).filter((x) => {
          const i = left.findIndex((y) => same(x, y));
          if (i < 0) return true;
          left.splice(i, 1);
          return false;
        });
      }
      return arr(c, 0).filter((x) => !has(remove, x));
    },
  },
  SET_INSERT: {
    arity: [2, 2],
    run: (c) => {
      const xs = [...arr(c, 0), c.datum(1)];
      return c.env.faults.has('set-insert-keeps-duplicates') ? xs : setOrder(c, unique(xs));
    },
  },
  SET_INTERSECTION: {
    arity: [2, 2],
    run: (c) => {
      const other = arr(c, 1);
      const xs = arr(c, 0).filter((x) => has(other, x));
      return c.env.faults.has('set-intersection-keeps-duplicates') ? xs : setOrder(c, unique(xs));
    },
  },
  SET_UNION: {
    arity: [2, 2],
    run: (c) => {
      const xs = [...arr(c, 0), ...arr(c, 1)];
      return c.env.faults.has('set-union-keeps-duplicates') ? xs : setOrder(c, unique(xs));
    },
  },
  SET_DIFFERENCE: {
    arity: [2, 2],
    run: (c) => {
      const remove = arr(c, 1);
      const xs = arr(c, 0).filter((x) => !has(remove, x));
      return c.env.faults.has('set-difference-keeps-duplicates') ? xs : setOrder(c, unique(xs));
    },
  },
  INSERT_AT: {
    arity: [3, 3],
    run: (c) => {
      const xs = [...arr(c, 0)];
      xs.splice(index(c, 1, xs, true), 0, c.datum(2));
      return xs;
    },
  },
  DELETE_AT: {
    arity: [2, 3],
    run: (c) => {
      const xs = [...arr(c, 0)];
      // With an end, the range [from, to) may be empty at the end of the array (`DELETE_AT([], 0, 0)`).
      const from = c.argc === 3 ? rangeEnd(c, 1, xs) : index(c, 1, xs, false);
      const to = c.argc === 3 ? rangeEnd(c, 2, xs) : from + 1;
      xs.splice(from, Math.max(0, to - from));
      return xs;
    },
  },
  CHANGE_AT: {
    arity: [3, 3],
    run: (c) => {
      const xs = [...arr(c, 0)];
      xs[index(c, 1, xs, false)] = c.datum(2);
      return xs;
    },
  },
  SPLICE_AT: {
    arity: [3, 3],
    run: (c) => {
      const xs = [...arr(c, 0)];
      const items = arr(c, 2);
      xs.splice(index(c, 1, xs, true), 0, ...(c.env.faults.has('splice-at-nests-array') ? [items] : items));
      return xs;
    },
  },
});
