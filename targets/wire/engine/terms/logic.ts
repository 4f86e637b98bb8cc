// "Comparison and logic" terms. Datums of different types order by type name, as the
// reference database does (ARRAY < BOOL < NULL < NUMBER < OBJECT < STRING).
import type { JsValue } from '../../../../src/clients/wire/codec.ts';
import { typeMismatch } from '../args.ts';
import { defineTerms, type Call } from '../evaluate.ts';
import { typeName } from '../values.ts';

/** MINVAL and MAXVAL: below and above every other datum (key-range bounds). */
export const MINVAL: JsValue = Object.freeze({ $reql_type$: 'MINVAL' });
export const MAXVAL: JsValue = Object.freeze({ $reql_type$: 'MAXVAL' });

function extreme(v: JsValue): number {
  if (typeof v !== 'object' || v === null || Array.isArray(v)) return 0;
  const t = (v as Record<string, JsValue>).$reql_type$;
  return t === 'MINVAL' ? -1 : t === 'MAXVAL' ? 1 : 0;
}

/**
 * The pseudotype a datum sorts as (RethinkDB's datum_t::cmp: TIME by its instant, BINARY by its
 * bytes, every other pseudotype, GEOMETRY included, as the object it is).
 */
function ptype(v: JsValue): 'TIME' | 'BINARY' | undefined {
  if (typeof v !== 'object' || v === null || Array.isArray(v)) return undefined;
  const t = (v as Record<string, JsValue>).$reql_type$;
  return t === 'TIME' || t === 'BINARY' ? t : undefined;
}

function sortName(v: JsValue): string {
  const p = ptype(v);
  if (p) return `PTYPE<${p}>`;
  const t = typeName(v);
  return t.startsWith('PTYPE<') ? 'OBJECT' : t;
}

export function compareDatums(a: JsValue, b: JsValue): number {
  const xa = extreme(a);
  const xb = extreme(b);
  if (xa || xb) return xa - xb;
  const pa = ptype(a);
  const pb = ptype(b);
  if (pa && pa === pb) {
    const [oa, ob] = [a as Record<string, JsValue>, b as Record<string, JsValue>];
    // At millisecond precision, as RethinkDB keeps every time (a client's TIME may carry more digits).
    if (pa === 'TIME') return Math.sign(Math.round((oa.epoch_time as number) * 1000) - Math.round((ob.epoch_time as number) * 1000));
    return Math.sign(Buffer.compare(Buffer.from(String(oa.data), 'base64'), Buffer.from(String(ob.data), 'base64')));
  }
  const ta = sortName(a);
  const tb = sortName(b);
  if (ta !== tb) return ta < tb ? -1 : 1;
  if (Array.isArray(a) && Array.isArray(b)) {
    for (let i = 0; i < Math.min(a.length, b.length); i++) {
      const c = compareDatums(a[i], b[i]);
      if (c) return c;
    }
    return a.length - b.length;
  }
  if (ta === 'OBJECT') {
    const ea = Object.entries(a as Record<string, JsValue>).sort(([x], [y]) => (x < y ? -1 : x > y ? 1 : 0));
    const eb = Object.entries(b as Record<string, JsValue>).sort(([x], [y]) => (x < y ? -1 : x > y ? 1 : 0));
    return compareDatums(ea.flat() as JsValue, eb.flat() as JsValue);
  }
  if (a === b) return 0;
  return (a as number | string | boolean) < (b as number | string | boolean) ? -1 : 1;
}

function chain(test: (cmp: number) => boolean) {
  return {
    arity: [1, Infinity] as const,
    run: (c: Call) => {
      const xs = c.datums();
      // The fault's bug: only the first pair of a chain is compared.
      const pairs = c.env.faults.has('comparison-first-pair-only') ? Math.min(xs.length, 2) : xs.length;
      for (let i = 1; i < pairs; i++) if (!test(compareDatums(xs[i - 1], xs[i]))) return false;
      return true;
    },
  };
}

function bool(c: Call, i: number): boolean {
  const v = c.datum(i);
  if (typeof v !== 'boolean') throw typeMismatch(c, i, 'BOOL', v);
  return v;
}

defineTerms({
  EQ: chain((x) => x === 0),
  NE: { arity: [1, Infinity], run: (c) => !chain((x) => x === 0).run(c) },
  LT: chain((x) => x < 0),
  LE: chain((x) => x <= 0),
  GT: chain((x) => x > 0),
  GE: chain((x) => x >= 0),
  NOT: {
    arity: [1, 1],
    run: (c) => (c.env.faults.has('not-truthiness') ? !c.datum(0) : !bool(c, 0)),
  },
  // AND/OR short-circuit and return the deciding value, so later arguments may never run.
  AND: {
    arity: [0, Infinity],
    run: (c) => {
      let last: JsValue = true;
      for (let i = 0; i < c.argc; i++) {
        last = c.datum(i);
        if ((last === false || last === null) && !c.env.faults.has('and-no-short-circuit')) return last;
      }
      return last;
    },
  },
  OR: {
    arity: [0, Infinity],
    run: (c) => {
      let last: JsValue = false;
      for (let i = 0; i < c.argc; i++) {
        last = c.datum(i);
        if (last !== false && last !== null && !c.env.faults.has('or-no-short-circuit')) return last;
      }
      return last;
    },
  },
});
