// "Sequences" terms (ordering.ts and grouping.ts hold the rest of the group). Streams stay lazy
// where the term allows (RANGE with no argument is infinite; SKIP, LIMIT, SLICE, MAP, FILTER...
// read only what a batch needs); a sequence read from a table keeps its source, so that a write
// on the result changes that table.
import type { JsValue } from '../../../../src/clients/wire/codec.ts';
import { TermType } from '../../../../src/clients/wire/schema.ts';
import { funcOrDatum, int, isObject, iterate, list, optDatum, optString, readAll, seq, seqAt, str, streamFrom, type Obj, type Seq } from '../args.ts';
import { EmptyError, isAbsent, logicError, nonExistence } from '../errors.ts';
import { checkArrayLimit, defineTerms, evaluate, resolve, type Call } from '../evaluate.ts';
import { compareKeys, keyOf, orderKey, type OrderKey } from './ordering.ts';
import { indexKeys, refuseGeo, requireIndex } from '../indexes.ts';
import { changefeed, unionFeeds, type FeedKind } from '../feeds.ts';
import { isFeed, isFunc, isStream, isTable, rangedBy, Stream, typeName, type Feed, type Value } from '../values.ts';
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

/** Whether a bound optarg ('open' or 'closed') leaves its end out. */
function boundOpen(c: Call, name: string, byDefault: boolean): boolean {
  const v = optString(c, name);
  if (v === undefined) return byDefault;
  if (v !== 'open' && v !== 'closed') throw logicError(`Expected \`open\` or \`closed\` for optarg \`${name}\` (got \`"${v}"\`).`).at({ opt: name });
  return v === 'open';
}

/** A sequence result of the same kind as its input: an array stays an array. */
function sameKind(s: Seq, gen: Iterable<JsValue>, keepSource = true): Value {
  return s.array ? [...gen] : streamFrom(s, gen, keepSource);
}

/** A predicate from a Function(1) or a value (an OBJECT matches rows having its fields; other datums match equal items). */
function predicate(c: Call, i: number): (x: JsValue) => boolean {
  const { fn, value } = funcOrDatum(c, i);
  if (fn) return (x) => passes(c, fn, x);
  return (x) => compareDatums(x, value!) === 0;
}

/**
 * A filter function's verdict on `x`. A function whose body is an object (MAKE_OBJ or an OBJECT
 * datum) is a pattern the item must match, as in RethinkDB's reql_func_t::filter_helper
 * (src/rdb_protocol/func.cc; selection.yaml `filter({'a': r.row('b')})`); any other result
 * counts by truthiness.
 */
function passes(c: Call, fn: Value, x: JsValue): boolean {
  const out = c.applyDatum(fn, [x]);
  const body = isFunc(fn) ? fn.body.type : undefined;
  if (isObject(out) && (body === TermType.MAKE_OBJ || body === TermType.DATUM)) return matchesObject(x, out);
  return truthy(out);
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

// ---- UNION's interleave ----

/**
 * UNION's `interleave` (not in the catalogue; RethinkDB's, transform/unordered_map.yaml): false
 * keeps the sequences one after the other; a field, function, ASC/DESC or an array of them
 * merges sequences already ordered that way. Undefined when not given (or true).
 */
function interleaveKeys(c: Call): false | OrderKey[] | undefined {
  const pair = (c.term.optargs ?? []).find((p) => p.key === 'interleave');
  if (!pair?.val) return undefined;
  // An array may hold functions, which are not datums: its items are evaluated one by one.
  const parts = pair.val.type === TermType.MAKE_ARRAY ? (pair.val.args ?? []).map((t) => evaluate(t, c.env)) : [c.optarg('interleave')!];
  if (parts.length === 1 && typeof parts[0] === 'boolean') return parts[0] ? undefined : false;
  return parts.map((v) => orderKey(c, v));
}

function orderedCompare(keys: OrderKey[], a: JsValue, b: JsValue): number {
  for (const k of keys) {
    const d = compareKeys(keyOf(k, a), keyOf(k, b));
    if (d) return k.desc ? -d : d;
  }
  return 0;
}

function mergeOrdered(parts: JsValue[][], keys: OrderKey[]): JsValue[] {
  for (const part of parts) {
    for (let i = 1; i < part.length; i++) {
      if (orderedCompare(keys, part[i - 1], part[i]) > 0) throw logicError('The streams given as arguments are not ordered by given ordering.');
    }
  }
  const at = parts.map(() => 0);
  const out: JsValue[] = [];
  for (;;) {
    let best = -1;
    parts.forEach((part, i) => {
      if (at[i] < part.length && (best === -1 || orderedCompare(keys, part[at[i]], parts[best][at[best]]) < 0)) best = i;
    });
    if (best === -1) return out;
    out.push(parts[best][at[best]++]);
  }
}

// ---- BETWEEN ----

function inRange(key: JsValue, lo: JsValue, hi: JsValue, leftOpen: boolean, rightClosed: boolean, nullUnbounded: boolean): boolean {
  const lower = nullUnbounded && lo === null ? -1 : compareDatums(lo, key);
  const upper = nullUnbounded && hi === null ? -1 : compareDatums(key, hi);
  return (leftOpen ? lower < 0 : lower <= 0) && (rightClosed ? upper <= 0 : upper < 0);
}

function between(c: Call, nullUnbounded: boolean, refuseNull = false): Value {
  const input = c.arg(0);
  const s = seqAt(c, 0, resolve(input, c.env));
  if (!s.source) throw logicError('BETWEEN expects a table or a table selection.').at({ pos: 0 });
  // As RethinkDB: a table, or a TABLE_SLICE of it that no BETWEEN made (transformation.yaml).
  if (isStream(input)) {
    if (rangedBy.between.has(input)) throw logicError('Cannot perform multiple BETWEENs on the same table.').at({ pos: 0 });
    if (input.selectionKind !== 'TABLE_SLICE') throw logicError(`Expected type TABLE_SLICE but found ${typeName(input)}.`).at({ pos: 0 });
  }
  const table = c.env.store.table(s.source);
  const index = optString(c, 'index') ?? table.primaryKey;
  requireIndex(table, index);
  refuseGeo(table, index);
  const lo = c.datum(1);
  const hi = c.datum(2);
  // BETWEEN's unbounded ends are MINVAL and MAXVAL (line 142); RethinkDB refuses a NULL bound.
  if (refuseNull && (lo === null || hi === null)) throw logicError('Cannot use `null` in BETWEEN, use `r.minval` or `r.maxval` to denote unboundedness.');
  const bound = (name: string, fallback: string) => {
    const b = optString(c, name) ?? fallback;
    if (b !== 'open' && b !== 'closed') throw logicError(`Expected \`open\` or \`closed\` for ${name}, got \`${b}\`.`).at({ opt: name });
    return b;
  };
  const left = bound('left_bound', c.env.faults.has('between-open-left') ? 'open' : 'closed');
  const right = bound('right_bound', c.env.faults.has('between-closed-right') ? 'closed' : 'open');
  const rows = readAll(s);
  // A row comes once per index key in range: a multi index can give it several times (RethinkDB,
  // sindex/api.yaml `between(1, 3, {index: 'mi'})`).
  const kept = rows.flatMap((row) => indexKeys(c, table, index, row as Obj).filter((k) => inRange(k, lo, hi, left === 'open', right === 'closed', nullUnbounded)).map(() => row));
  const out = new Stream(kept[Symbol.iterator](), false, s.source, 'TABLE_SLICE');
  rangedBy.between.add(out);
  return out;
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
    // As RethinkDB's slice_term_t (the document is silent beyond the signature): a negative
    // index counts from the end, `left_bound` (closed by default) and `right_bound` (open by
    // default) say whether each end is included.
    run: (c) => {
      const s = seq(c, 0);
      let from = int(c, 1);
      refuseInfinite(c, s);
      let to = c.argc === 3 ? int(c, 2) : Infinity;
      const leftOpen = boundOpen(c, 'left_bound', false);
      const rightOpen = boundOpen(c, 'right_bound', true);
      if (!s.array) {
        // On a stream only `-1` (to the end, when closed) counts from the end.
        if (from < 0) throw logicError('Cannot use a negative left index on a stream.').at({ pos: 1 });
        if (to < -1) throw logicError('Cannot use a right index < -1 on a stream.').at({ pos: 2 });
        if (to === -1 && rightOpen) throw logicError('Cannot slice to an open right index of -1 on a stream.');
        if (to === -1) to = Infinity;
      }
      const items = s.array;
      if (items) {
        if (from < 0) from = Math.max(0, from + items.length);
        if (to < 0) to += items.length;
      }
      if (leftOpen) from += 1;
      if (to !== Infinity && !rightOpen) to += 1;
      if (items) return items.slice(from, Math.max(from, to));
      return new Stream(first(drop(s.items, from), Math.max(0, to - from)), s.infinite && to === Infinity, s.source);
    },
  },
  OFFSETS_OF: {
    arity: [2, 2],
    run: (c) => {
      // A table is neither a datum nor a function (RethinkDB, transformation.yaml `offsets_of(tbl)`).
      if (isTable(c.arg(1))) throw logicError('Expected type DATUM but found TABLE.').at({ pos: 1 });
      const test = predicate(c, 1);
      return list(c, 0).flatMap((x, i) => (test(x) ? [i] : []));
    },
  },
  CONTAINS: {
    arity: [1, ANY],
    // Bag semantics, as RethinkDB's contains_term_t (src/rdb_protocol/terms/arr.cc): an item
    // satisfies at most one value and one function, so CONTAINS([1, 2, 3], 2, 2) is false.
    run: (c) => {
      const items = list(c, 0);
      const values: ((x: JsValue) => boolean)[] = [];
      const fns: ((x: JsValue) => boolean)[] = [];
      for (let i = 1; i < c.argc; i++) {
        const { fn, value } = funcOrDatum(c, i);
        if (fn) fns.push((x) => passes(c, fn, x));
        else values.push((x) => compareDatums(x, value!) === 0);
      }
      for (const x of items) {
        for (const pending of [values, fns]) {
          const hit = pending.findIndex((t) => t(x));
          if (hit !== -1) pending.splice(hit, 1);
        }
        if (!values.length && !fns.length) return true;
      }
      return !values.length && !fns.length;
    },
  },
  BETWEEN: { arity: [3, 3], optargs: ['index', 'left_bound', 'right_bound'], literal: { optargs: ['index'] }, run: (c) => between(c, false, true) },
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
      // Read lazily, so that an infinite RANGE() pairs with a finite sequence (RethinkDB,
      // transform/map.yaml); arrays give an array, anything else a stream.
      const count = c.env.faults.has('map-single-sequence-only') ? 1 : c.argc - 1;
      const seqs = Array.from({ length: count }, (_, i) => seq(c, i));
      function* zipped() {
        for (;;) {
          const row: JsValue[] = [];
          for (const s of seqs) {
            const r = s.items.next();
            if (r.done) return;
            row.push(r.value);
          }
          yield c.applyDatum(fn, row);
        }
      }
      if (seqs.every((s) => s.array)) return [...zipped()];
      return new Stream(zipped(), seqs.every((s) => s.infinite));
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
        // final_emit alone maps the result (RethinkDB, transform/fold.yaml: 10 rows, `acc * 2` is 20).
        return finalEmit ? c.applyDatum(finalEmit, [acc]) : acc;
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
          // A datum other than an OBJECT is a constant verdict (RethinkDB's constant function).
          return fn ? passes(c, fn, x) : isObject(value as JsValue) ? matchesObject(x, value as Obj) : truthy(value as JsValue);
        } catch (err) {
          // The body is wrapped in an implicit DEFAULT(false): a missing field drops the row.
          if (!isAbsent(err)) throw err;
          if (hasDefault) {
            try {
              return truthy(c.datumOf(c.optarg('default')!));
            } catch (inner) {
              // `default: ERROR()` rethrows the missing-field error, as in DEFAULT.
              throw inner instanceof EmptyError ? err : inner;
            }
          }
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
      const counted = perGroup(c, (items) => items.filter(test).length);
      // With a predicate RethinkDB filters, then counts: a group left with no item is gone (arity.yaml).
      if (c.argc === 2 && isGrouped(counted)) return { ...counted, data: counted.data.filter(([, n]) => n !== 0) } as JsValue;
      return counted;
    },
  },
  IS_EMPTY: { arity: [1, 1], run: (c) => seq(c, 0).items.next().done === true },
  UNION: {
    arity: [0, ANY],
    optargs: ['interleave'],
    run: (c) => {
      const inputs = Array.from({ length: c.argc }, (_, i) => resolve(c.arg(i), c.env));
      if (inputs.some(isFeed)) {
        const notFeed = inputs.findIndex((v) => !isFeed(v));
        if (notFeed !== -1) throw logicError('UNION cannot mix changefeeds with other sequences.').at({ pos: notFeed });
        return unionFeeds(c, inputs as Feed[]);
      }
      // UNION states no order: the reference concatenates its sequences, the variant takes the last first.
      const parts = inputs.map((v, i) => readAll(seqAt(c, i, v), i));
      const interleave = interleaveKeys(c);
      const items = interleave === false ? parts.flat() : interleave ? mergeOrdered(parts, interleave) : (c.env.variant ? parts.reverse() : parts).flat();
      if (inputs.every((v) => Array.isArray(v))) checkArrayLimit(c.env, items);
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
        // On grouped data, per group (RethinkDB applies terms after GROUP to each group).
        if (isGrouped(v)) {
          const field = (g: JsValue): JsValue => (Array.isArray(g) ? g.flatMap((x) => (isObject(x) && Object.hasOwn(x, key) ? [x[key]] : [])) : getField(g, key));
          return { $reql_type$: 'GROUPED_DATA', data: v.data.map(([k, g]) => [k, field(g)]) } as JsValue;
        }
        // Items without the field are skipped; an item that is not an object is an error (RethinkDB, transform/array.yaml).
        if (isStream(v) || Array.isArray(v)) {
          return readAll(seqAt(c, 0, v)).flatMap((x) => {
            if (!isObject(x)) throw logicError(`Cannot perform bracket on a non-object non-sequence \`${JSON.stringify(x)}\`.`);
            return Object.hasOwn(x, key) ? [x[key]] : [];
          });
        }
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
