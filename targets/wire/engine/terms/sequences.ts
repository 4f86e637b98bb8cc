// "Sequences" terms (ordering.ts and grouping.ts hold the rest of the group). Streams stay lazy
// where the term allows (RANGE with no argument is infinite; SKIP, LIMIT, SLICE, MAP, FILTER...
// read only what a batch needs); a sequence read from a table keeps its source, so that a write
// on the result changes that table.
import type { JsValue } from '../../../../src/clients/wire/codec.ts';
import { TermType } from '../../../../src/clients/wire/schema.ts';
import { funcOrDatum, int, isObject, iterate, list, optDatum, optString, readAll, seq, seqAt, str, streamFrom, type Obj, type Seq } from '../args.ts';
import { isAbsent, logicError, nonExistence } from '../errors.ts';
import { defineTerms, resolve, type Call } from '../evaluate.ts';
import { indexKeys, requireIndex } from '../indexes.ts';
import { changefeed, unionFeeds, type FeedKind } from '../feeds.ts';
import { isFeed, isStream, Stream, type Feed, type Value } from '../values.ts';
import { isGrouped, perGroup } from './grouping.ts';
import { compareDatums } from './logic.ts';
import { getField } from './objects.ts';

const ANY = Infinity;

function* count(from: number, to: number): Generator<JsValue> {
  for (let i = from; i < to; i++) yield i;
}

function* first(items: Iterator<JsValue>, n: number): Generator<JsValue> {
  for (let i = 0; i < n; i++) {
    const r = items.next();
    if (r.done) return;
    yield r.value;
  }
}

function* drop(items: Iterator<JsValue>, n: number): Generator<JsValue> {
  for (let r = items.next(); !r.done; r = items.next()) {
    if (n > 0) n--;
    else yield r.value;
  }
}

function nonNegative(c: Call, i: number, what: string): number {
  const n = int(c, i);
  if (n < 0) throw logicError(`${what} takes a non-negative argument.`).at({ pos: i });
  return n;
}

/** A sequence result of the same kind as its input: an array stays an array. */
function sameKind(s: Seq, gen: Iterable<JsValue>, keepSource = true): Value {
  return s.array ? [...gen] : streamFrom(s, gen, keepSource);
}

/** A predicate from a Function(1) or a value (an OBJECT matches rows having its fields; other datums match equal items). */
function predicate(c: Call, i: number): (x: JsValue) => boolean {
  const { fn, value } = funcOrDatum(c, i);
  if (fn) return (x) => truthy(c.applyDatum(fn, [x]));
  return (x) => compareDatums(x, value!) === 0;
}

function truthy(v: JsValue): boolean {
  return v !== false && v !== null;
}

function matchesObject(x: JsValue, pattern: Obj): boolean {
  if (!isObject(x)) return false;
  return Object.entries(pattern).every(([k, v]) =>
    Object.hasOwn(x, k) && (isObject(v) && isObject(x[k]) ? matchesObject(x[k], v) : compareDatums(x[k], v) === 0),
  );
}

function refuseInfinite(c: Call, s: Seq): void {
  if (s.infinite && c.env.faults.has('infinite-stream-refused')) throw logicError('Cannot use an infinite stream here.').at({ pos: 0 });
}

// ---- BETWEEN ----

function inRange(key: JsValue, lo: JsValue, hi: JsValue, leftOpen: boolean, rightClosed: boolean, nullUnbounded: boolean): boolean {
  const lower = nullUnbounded && lo === null ? -1 : compareDatums(lo, key);
  const upper = nullUnbounded && hi === null ? -1 : compareDatums(key, hi);
  return (leftOpen ? lower < 0 : lower <= 0) && (rightClosed ? upper <= 0 : upper < 0);
}

function between(c: Call, nullUnbounded: boolean): Value {
  const s = seq(c, 0);
  if (!s.source) throw logicError('BETWEEN expects a table or a table selection.').at({ pos: 0 });
  const table = c.env.store.table(s.source);
  const index = optString(c, 'index') ?? table.primaryKey;
  requireIndex(table, index);
  const lo = c.datum(1);
  const hi = c.datum(2);
  const bound = (name: string, fallback: string) => {
    const b = optString(c, name) ?? fallback;
    if (b !== 'open' && b !== 'closed') throw logicError(`Expected \`open\` or \`closed\` for ${name}, got \`${b}\`.`).at({ opt: name });
    return b;
  };
  const left = bound('left_bound', c.env.faults.has('between-open-left') ? 'open' : 'closed');
  const right = bound('right_bound', c.env.faults.has('between-closed-right') ? 'closed' : 'open');
  const rows = readAll(s);
  return Stream.of(
    rows.filter((row) => indexKeys(c, table, index, row as Obj).some((k) => inRange(k, lo, hi, left === 'open', right === 'closed', nullUnbounded))),
    false,
    s.source,
  );
}

// ---- CHANGES ----

/** The changefeed kind follows the shape of the argument term (point, ordered-limited, or table). */
function changes(c: Call): Value {
  const argType = c.term.args![0].type;
  const includeStates = optDatum(c, 'include_states') === true;
  const includeInitial = optDatum(c, 'include_initial') === true;
  const target = c.arg(0);
  let kind: FeedKind = 'sequence';
  if (argType === TermType.GET) kind = 'atom';
  else if (argType === TermType.LIMIT && c.term.args![0].args?.[0]?.type === TermType.ORDER_BY) kind = 'order_by_limit';
  // Which selections a changefeed can follow is not stated beyond CHANGES: TABLE -> STREAM: the
  // variant refuses a feed over an ORDER_BY without an index (the reference follows it too).
  const orderBy = kind === 'order_by_limit' ? c.term.args![0].args![0] : undefined;
  if (c.env.variant && orderBy && !(orderBy.optargs ?? []).some((p) => p.key === 'index')) {
    throw logicError('a changefeed over ORDER_BY and LIMIT needs ORDER_BY to use an index').at({ pos: 0 });
  }
  return changefeed(c, target, kind, includeStates, includeInitial);
}


defineTerms({
  RANGE: {
    arity: [0, 2],
    run: (c) => {
      if (c.argc === 0) return Stream.of(count(0, Infinity), true);
      const [from, to] = c.argc === 1 ? [0, int(c, 0)] : [int(c, 0), int(c, 1)];
      return Stream.of(count(from, c.env.faults.has('range-includes-end') ? to + 1 : to));
    },
  },
  LIMIT: {
    arity: [2, 2],
    run: (c) => {
      const s = seq(c, 0);
      const n = nonNegative(c, 1, 'LIMIT');
      refuseInfinite(c, s);
      return s.array ? s.array.slice(0, n) : Stream.of(first(s.items, n), false, s.source);
    },
  },
  SKIP: {
    arity: [2, 2],
    run: (c) => {
      const s = seq(c, 0);
      const n = nonNegative(c, 1, 'SKIP');
      refuseInfinite(c, s);
      return sameKind(s, drop(s.items, n));
    },
  },
  SLICE: {
    arity: [2, 3],
    optargs: ['left_bound', 'right_bound'],
    run: (c) => {
      const s = seq(c, 0);
      const from = nonNegative(c, 1, 'SLICE');
      refuseInfinite(c, s);
      const to = c.argc === 3 ? nonNegative(c, 2, 'SLICE') : Infinity;
      if (s.array) return s.array.slice(from, to);
      return new Stream(first(drop(s.items, from), to - from), s.infinite && to === Infinity, s.source);
    },
  },
  OFFSETS_OF: {
    arity: [2, 2],
    run: (c) => {
      const test = predicate(c, 1);
      return list(c, 0).flatMap((x, i) => (test(x) ? [i] : []));
    },
  },
  CONTAINS: {
    arity: [1, ANY],
    run: (c) => {
      const items = list(c, 0);
      const tests = Array.from({ length: c.argc - 1 }, (_, i) => predicate(c, i + 1));
      return tests.every((t) => items.some(t));
    },
  },
  BETWEEN: { arity: [3, 3], optargs: ['index', 'left_bound', 'right_bound'], literal: { optargs: ['index'] }, run: (c) => between(c, false) },
  // The obsolete form: a null bound means unbounded.
  BETWEEN_DEPRECATED: { arity: [3, 3], optargs: ['index', 'left_bound', 'right_bound'], run: (c) => between(c, !c.env.faults.has('between-deprecated-null-bound')) },
  REDUCE: {
    arity: [2, 2],
    run: (c) => {
      const fn = c.arg(1);
      return perGroup(c, (items) => {
        if (!items.length) throw nonExistence('Cannot reduce over an empty stream.');
        return items.reduce((acc, x) => c.applyDatum(fn, [acc, x]));
      });
    },
  },
  MAP: {
    arity: [2, ANY],
    run: (c) => {
      const fn = c.arg(c.argc - 1);
      if (c.argc === 2) {
        const v = resolve(c.arg(0), c.env);
        if (isGrouped(v)) return perGroup(c, (items) => items.map((x) => c.applyDatum(fn, [x])), v);
        const s = seqAt(c, 0, v);
        function* gen() {
          for (const x of iterate(s.items)) yield c.applyDatum(fn, [x]);
        }
        return sameKind(s, gen(), false);
      }
      // Several sequences: the function takes one item of each, up to the shortest.
      const count = c.env.faults.has('map-single-sequence-only') ? 1 : c.argc - 1;
      const seqs = Array.from({ length: count }, (_, i) => list(c, i));
      const n = Math.min(...seqs.map((s) => s.length));
      return Array.from({ length: n }, (_, j) => c.applyDatum(fn, seqs.map((s) => s[j])));
    },
  },
  FOLD: {
    arity: [3, 3],
    optargs: ['emit', 'final_emit'],
    run: (c) => {
      const items = list(c, 0);
      let acc = c.datum(1);
      const fn = c.arg(2);
      const emit = c.optarg('emit');
      const finalEmit = c.optarg('final_emit');
      if (!emit) {
        for (const x of items) acc = c.applyDatum(fn, [acc, x]);
        return acc;
      }
      const out: JsValue[] = [];
      for (const x of items) {
        const next = c.applyDatum(fn, [acc, x]);
        out.push(...(c.applyDatum(emit, [acc, x, next]) as JsValue[]));
        acc = next;
      }
      if (finalEmit) out.push(...(c.applyDatum(finalEmit, [acc]) as JsValue[]));
      return out;
    },
  },
  FILTER: {
    arity: [2, 2],
    optargs: ['default'],
    run: (c) => {
      const s = seq(c, 0);
      const { fn, value } = funcOrDatum(c, 1);
      const hasDefault = (c.term.optargs ?? []).some((p) => p.key === 'default');
      const keep = (x: JsValue): boolean => {
        try {
          return fn ? truthy(c.applyDatum(fn, [x])) : matchesObject(x, value as Obj);
        } catch (err) {
          // The body is wrapped in an implicit DEFAULT(false): a missing field drops the row.
          if (!isAbsent(err)) throw err;
          if (hasDefault) return truthy(c.datumOf(c.optarg('default')!));
          if (c.env.faults.has('filter-no-implicit-default')) throw err;
          return false;
        }
      };
      function* gen() {
        for (const x of iterate(s.items)) if (keep(x)) yield x;
      }
      return sameKind(s, gen());
    },
  },
  CONCAT_MAP: {
    arity: [2, 2],
    run: (c) => {
      const s = seq(c, 0);
      const fn = c.arg(1);
      function* gen() {
        for (const x of iterate(s.items)) {
          const out = c.applyDatum(fn, [x]);
          if (!Array.isArray(out)) throw logicError('CONCAT_MAP function must return a sequence.');
          yield* out;
        }
      }
      return sameKind(s, gen(), false);
    },
  },
  COUNT: {
    arity: [1, 2],
    run: (c) => {
      const test = c.argc === 2 && !c.env.faults.has('count-ignores-predicate') ? predicate(c, 1) : () => true;
      return perGroup(c, (items) => items.filter(test).length);
    },
  },
  IS_EMPTY: { arity: [1, 1], run: (c) => seq(c, 0).items.next().done === true },
  UNION: {
    arity: [0, ANY],
    run: (c) => {
      const inputs = Array.from({ length: c.argc }, (_, i) => resolve(c.arg(i), c.env));
      if (inputs.some(isFeed)) {
        const notFeed = inputs.findIndex((v) => !isFeed(v));
        if (notFeed !== -1) throw logicError('UNION cannot mix changefeeds with other sequences.').at({ pos: notFeed });
        return unionFeeds(c, inputs as Feed[]);
      }
      // UNION states no order: the reference concatenates its sequences, the variant takes the last first.
      const parts = inputs.map((v, i) => readAll(seqAt(c, i, v), i));
      const items = (c.env.variant ? parts.reverse() : parts).flat();
      if (!c.env.faults.has('union-drops-duplicates')) return items;
      return items.filter((x, i) => items.findIndex((y) => compareDatums(x, y) === 0) === i);
    },
  },
  NTH: {
    arity: [2, 2],
    run: (c) => {
      const items = list(c, 0);
      let i = int(c, 1) - (c.env.faults.has('nth-counts-from-one') ? 1 : 0);
      if (i < 0) i += items.length;
      if (i < 0 || i >= items.length) throw nonExistence(`Index out of bounds: ${int(c, 1)}.`).at({ pos: 1 });
      return items[i];
    },
  },
  BRACKET: {
    arity: [2, 2],
    run: (c) => {
      const key = c.datum(1);
      if (typeof key === 'string') {
        const v = resolve(c.arg(0), c.env);
        if (isStream(v) || Array.isArray(v)) return readAll(seqAt(c, 0, v)).flatMap((x) => (isObject(x) && Object.hasOwn(x, key) ? [x[key]] : []));
        return getField(c.datumOf(v), key);
      }
      if (typeof key !== 'number') throw logicError('BRACKET expects a NUMBER or a STRING.').at({ pos: 1 });
      const items = list(c, 0);
      const at = key - (c.env.faults.has('nth-counts-from-one') ? 1 : 0);
      const i = at < 0 ? at + items.length : at;
      if (!Number.isInteger(i) || i < 0 || i >= items.length) throw nonExistence(`Index out of bounds: ${key}.`).at({ pos: 1 });
      return items[i];
    },
  },
  INNER_JOIN: {
    arity: [3, 3],
    run: (c) => {
      const [left, right, fn] = [list(c, 0), list(c, 1), c.arg(2)];
      return left.flatMap((l) => right.filter((r) => truthy(c.applyDatum(fn, [l, r]))).map((r) => ({ left: l, right: r })));
    },
  },
  OUTER_JOIN: {
    arity: [3, 3],
    run: (c) => {
      const [left, right, fn] = [list(c, 0), list(c, 1), c.arg(2)];
      return left.flatMap((l) => {
        const matches = right.filter((r) => truthy(c.applyDatum(fn, [l, r])));
        return matches.length ? matches.map((r) => ({ left: l, right: r })) : [{ left: l }];
      });
    },
  },
  EQ_JOIN: {
    arity: [3, 3],
    optargs: ['index', 'ordered'],
    literal: { args: [1], optargs: ['index'] },
    run: (c) => {
      const left = list(c, 0);
      const field = str(c, 1);
      const right = seq(c, 2);
      if (!right.source) throw logicError('EQ_JOIN expects a table as its third argument.').at({ pos: 2 });
      const table = c.env.store.table(right.source);
      const requested = optString(c, 'index') ?? table.primaryKey;
      const index = c.env.faults.has('eq-join-ignores-index') ? table.primaryKey : requested;
      requireIndex(table, index);
      const rows = readAll(right, 2);
      return left.flatMap((l) => {
        if (!isObject(l) || !Object.hasOwn(l, field)) return [];
        return rows.filter((r) => indexKeys(c, table, index, r as Obj).some((k) => compareDatums(k, l[field]) === 0)).map((r) => ({ left: l, right: r }));
      });
    },
  },
  ZIP: {
    arity: [1, 1],
    run: (c) =>
      list(c, 0).map((x) => {
        if (!isObject(x) || !Object.hasOwn(x, 'left')) throw logicError('ZIP expects the output of a join ({left, right}).');
        return { ...(x.left as Obj), ...((x.right as Obj | undefined) ?? {}) };
      }),
  },
  SAMPLE: {
    arity: [2, 2],
    run: (c) => {
      const items = [...list(c, 0)];
      const n = nonNegative(c, 1, 'SAMPLE');
      for (let i = items.length - 1; i > 0; i--) {
        const j = Math.floor(Math.random() * (i + 1));
        [items[i], items[j]] = [items[j], items[i]];
      }
      return items.slice(0, n);
    },
  },
  CHANGES: { arity: [1, 1], optargs: ['squash', 'include_states', 'include_initial', 'include_offsets', 'include_types', 'changefeed_queue_size'], run: changes },
  // ARGS is spliced into the term around it by the evaluator; alone it has nothing to splice into.
  ARGS: {
    arity: [1, 1],
    run: () => {
      throw logicError('ARGS must be an argument of another term.');
    },
  },
});
