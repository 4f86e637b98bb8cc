// Arbitraries of the WIRE messages, built from the one schema (src/clients/wire/schema.ts):
// Datum, Term (every TermType of the catalogue, random args and optargs, bounded depth) and Query
// (every QueryType, tokens beyond 2^32, global_optargs, accepts_r_json). The messages are
// structurally valid protobuf with nonsense semantics: that is what a server must survive.
//
// They are drawn (fuzz/core/drawn.ts), not built from fast-check combinators: the combinators'
// per-node shrink contexts were most of a wire-protobuf case's cost. The shapes are those the
// combinators gave (same choices, weights, lengths, the same deepening bias towards leaves), and
// a failing case shrinks structurally: fewer queries, a term replaced by one of its arguments,
// arguments and optargs dropped, datums made null, strings and numbers made small.
import type fc from 'fast-check';
import type { DatumMsg, QueryMsg, TermMsg } from '../../src/clients/wire/codec.ts';
import { DatumType, QueryType, TermType } from '../../src/clients/wire/schema.ts';
import { drawn, type Draw } from '../core/drawn.ts';

/** Every TermType number of the schema (the document's catalogue), sorted. */
export const TERM_TYPES: readonly number[] = [...new Set(Object.values(TermType))].sort((a, b) => a - b);
const QUERY_TYPES: readonly number[] = Object.values(QueryType);
/** START three times more, next to every QueryType (weight 12); numbers outside the enum (weight 1). */
const COMMON_QUERY_TYPES = [QueryType.START, QueryType.START, QueryType.START, ...QUERY_TYPES];
const ODD_QUERY_TYPES = [0, 6, 99];
/** Numbers outside the TermType enum: still a valid varint on the wire. */
const ODD_TERM_TYPES = [0, 4, 9, 199, 1000, 2 ** 31 - 1];

/** Optional-argument names the catalogue mentions; random keys are added next to them. */
const OPTARG_NAMES = [
  'index', 'default', 'timeout', 'read_mode', 'identifier_format', 'right_bound', 'left_bound', 'conflict',
  'durability', 'return_changes', 'non_atomic', 'primary_key', 'shards', 'replicas', 'multi', 'overwrite',
  'geo_system', 'unit', 'num_vertices', 'fill', 'max_results', 'max_dist', 'float', 'data', 'method',
  'params', 'header', 'attempts', 'redirects', 'verify', 'page', 'page_limit', 'auth', 'result_format',
  'dry_run', 'emergency_repair', 'primary_replica_tag', 'nonvoting_replica_tags',
] as const;
const GLOBAL_OPTARG_NAMES = ['noreply', 'profile', 'db', 'durability', 'read_mode', 'array_limit'] as const;

export interface WireArbitraryOptions {
  /** Deepest nesting of terms (and of datums inside them). */
  maxDepth?: number;
  /** Most positional arguments per term. */
  maxArgs?: number;
  /**
   * The term types a term may have (what the server implements: `--include-term`); default every
   * type of the catalogue, and now and then a number outside it. DATUM leaves are always drawn.
   */
  termTypes?: readonly number[];
}

type Options = Required<Omit<WireArbitraryOptions, 'termTypes'>> & Pick<WireArbitraryOptions, 'termTypes'>;

// ---- drawing ----

/** Numbers a query engine trips on: zero, negatives, huge, NaN, infinities, integers. */
const EDGE_NUMBERS = [0, -0, 1, -1, 999, 1000, 1001, 2 ** 31, 2 ** 32, 2 ** 53, Number.MAX_VALUE];
const EDGE_DOUBLES = [0, -0, NaN, Infinity, -Infinity, Number.MIN_VALUE, -Number.MAX_VALUE, Number.EPSILON, 0.5, -1.5];
const bits = new DataView(new ArrayBuffer(8));

function drawDouble(d: Draw): number {
  switch (d.int(0, 2)) {
    case 0:
      return d.pick(EDGE_DOUBLES);
    case 1:
      return (d.next() - 0.5) * 10 ** d.int(0, 12);
    default:
      // Any bit pattern: subnormals, huge exponents, NaN payloads.
      bits.setUint32(0, d.u32());
      bits.setUint32(4, d.u32());
      return bits.getFloat64(0);
  }
}

/** 0, -0, 1, -1: what engines special-case (fast-check's bias drew them about as often). */
const SMALL_EDGES = [0, -0, 1, -1];

function drawNumber(d: Draw): number {
  switch (d.weighted([2, 1, 3, 2, 1])) {
    case 0:
      return d.pick(SMALL_EDGES);
    case 1:
      return d.int(-3, 3);
    case 2:
      return d.int(-3, 1100);
    case 3:
      return drawDouble(d);
    default:
      return d.pick(EDGE_NUMBERS);
  }
}

function drawAscii(d: Draw, maxLength: number): string {
  let s = '';
  for (let n = d.int(0, maxLength); n > 0; n--) s += String.fromCharCode(d.int(0x20, 0x7e));
  return s;
}

/** Any code points, lone surrogates included. */
function drawUnicode(d: Draw, maxLength: number): string {
  const cps: number[] = [];
  for (let n = d.int(0, maxLength); n > 0; n--) cps.push(d.chance(0.5) ? d.int(0, 0x7ff) : d.int(0, 0x10ffff));
  return String.fromCodePoint(...cps);
}

function drawText(d: Draw): string {
  return d.int(0, 4) < 4 ? drawAscii(d, 12) : drawUnicode(d, 24);
}

/** A JSON text one level deep (what fc.json({ maxDepth: 1 }) gave). */
function drawJson(d: Draw): string {
  const leaf = (): unknown => [null, d.bool(), drawNumber(d), drawAscii(d, 8)][d.int(0, 3)];
  switch (d.int(0, 2)) {
    case 0:
      return JSON.stringify(leaf()) ?? 'null';
    case 1:
      return JSON.stringify(Array.from({ length: d.int(0, 4) }, leaf));
    default:
      return JSON.stringify(Object.fromEntries(Array.from({ length: d.int(0, 4) }, () => [drawAscii(d, 6), leaf()])));
  }
}

/**
 * fast-check's depth bias ('small'): at depth `depth` the first (leaf) choice gets the weight of
 * floor(depth / 2) more rounds of every choice; at `maxDepth` only the leaf remains.
 */
function leafFirst(d: Draw, depth: number, maxDepth: number, choices: number): number {
  if (depth >= maxDepth) return 0;
  const k = Math.floor(depth / 2);
  const x = d.int(-k * choices, choices - 1);
  return x < 0 ? 0 : x;
}

/** Optional record keys: present 5 times in 6. */
const present = (d: Draw) => d.int(0, 5) > 0;

function drawDatum(d: Draw, depth: number, maxDepth: number): DatumMsg {
  switch (leafFirst(d, depth, maxDepth, 9)) {
    case 0:
      return { type: DatumType.R_NULL };
    case 1:
      return { type: DatumType.R_BOOL, r_bool: d.bool() };
    case 2:
      return { type: DatumType.R_NUM, r_num: drawNumber(d) };
    case 3:
      return { type: DatumType.R_STR, r_str: drawText(d) };
    case 4:
      return { type: DatumType.R_ARRAY, r_array: Array.from({ length: d.int(0, 4) }, () => drawDatum(d, depth + 1, maxDepth)) };
    case 5:
      return { type: DatumType.R_OBJECT, r_object: Array.from({ length: d.int(0, 3) }, () => ({ key: drawText(d), val: drawDatum(d, depth + 1, maxDepth) })) };
    case 6:
      // R_JSON in a query, valid JSON or not.
      return { type: DatumType.R_JSON, r_str: d.bool() ? drawJson(d) : drawText(d) };
    default: {
      // A datum whose type disagrees with the fields set (or is unset).
      const out: DatumMsg = {};
      if (present(d)) out.type = d.int(0, 5) === 0 ? undefined : d.int(0, 9);
      if (present(d)) out.r_num = drawNumber(d);
      if (present(d)) out.r_str = drawText(d);
      return out;
    }
  }
}

function drawTerm(d: Draw, depth: number, o: Options): TermMsg {
  if (o.termTypes?.length === 0 || leafFirst(d, depth, o.maxDepth, 2) === 0) return { type: TermType.DATUM, datum: drawDatum(d, 0, 2) };
  const t: TermMsg = {
    type: o.termTypes ? d.pick(o.termTypes) : d.int(0, 20) < 20 ? d.pick(TERM_TYPES) : d.pick(ODD_TERM_TYPES),
    args: Array.from({ length: d.int(0, o.maxArgs) }, () => drawTerm(d, depth + 1, o)),
  };
  if (present(d)) t.optargs = Array.from({ length: d.int(0, 2) }, () => ({ key: d.int(0, 3) < 3 ? d.pick(OPTARG_NAMES) : drawText(d), val: drawTerm(d, depth + 1, o) }));
  if (present(d)) t.datum = drawDatum(d, 0, 2);
  return t;
}

/** Tokens: small, around 2^32 and 2^53, up to the int64 limits (negative ones included). */
function drawToken(d: Draw): bigint {
  switch (d.int(0, 3)) {
    case 0:
      return BigInt(d.int(1, 1000));
    case 1:
      return 2n ** 32n + BigInt(d.int(-4, 4));
    case 2:
      return 2n ** 53n + BigInt(d.int(-2, 2));
    default:
      return BigInt.asIntN(64, (BigInt(d.u32()) << 32n) | BigInt(d.u32()));
  }
}

function drawQuery(d: Draw, o: Options): QueryMsg {
  // Every query gets a term, even the types that should not carry one: nonsense semantics.
  const q: QueryMsg = {
    type: d.int(0, 12) < 12 ? d.pick(COMMON_QUERY_TYPES) : d.pick(ODD_QUERY_TYPES),
    query: drawTerm(d, 0, o),
    token: drawToken(d),
  };
  if (present(d)) q.OBSOLETE_noreply = d.bool();
  if (present(d)) q.accepts_r_json = d.bool();
  // Global optarg values are terms too, but shallow ones: they are evaluated far less than the query.
  if (present(d)) q.global_optargs = Array.from({ length: d.int(0, 2) }, () => ({ key: d.bool() ? d.pick(GLOBAL_OPTARG_NAMES) : drawText(d), val: drawTerm(d, 0, { ...o, maxDepth: 2 }) }));
  return q;
}

const withDefaults = ({ maxDepth = 4, maxArgs = 4, termTypes }: WireArbitraryOptions): Options => ({ maxDepth, maxArgs, termTypes });

/** The catalogue's term types whose names `keep` accepts (`--include-term DB_*`). */
export function termTypesWhere(keep: (name: string) => boolean): number[] {
  return [...new Set(Object.entries(TermType).filter(([name]) => keep(name)).map(([, n]) => n))].sort((a, b) => a - b);
}

// ---- shrinking: strictly smaller candidates, the most aggressive first ----

function* shrinkList<T>(items: readonly T[], shrinkItem: (x: T) => Iterable<T>, minLength = 0): Generator<T[]> {
  if (items.length > minLength) for (let i = 0; i < items.length; i++) yield [...items.slice(0, i), ...items.slice(i + 1)];
  for (let i = 0; i < items.length; i++) for (const s of shrinkItem(items[i])) yield [...items.slice(0, i), s, ...items.slice(i + 1)];
}

function* shrinkString(s: string | undefined): Generator<string> {
  if (!s) return;
  yield '';
  if (s.length > 1) yield s.slice(0, Math.floor(s.length / 2));
}

function* shrinkDatum(x: DatumMsg): Generator<DatumMsg> {
  if (x.type !== DatumType.R_NULL) yield { type: DatumType.R_NULL };
  for (const v of x.r_array ?? []) yield v;
  for (const p of x.r_object ?? []) if (p.val) yield p.val;
  if (x.r_array) for (const r_array of shrinkList(x.r_array, shrinkDatum)) yield { ...x, r_array };
  if (x.r_object) for (const r_object of shrinkList(x.r_object, (p) => mapGen(p.val ? shrinkDatum(p.val) : [], (val) => ({ ...p, val })))) yield { ...x, r_object };
  for (const r_str of shrinkString(x.r_str)) yield { ...x, r_str };
  if (x.r_num !== undefined && x.r_num !== 0 && !Object.is(x.r_num, 0)) yield { ...x, r_num: 0 };
}

function* shrinkTerm(t: TermMsg): Generator<TermMsg> {
  if (t.type === TermType.DATUM && !t.args?.length && !t.optargs?.length) {
    if (t.datum) for (const datum of shrinkDatum(t.datum)) yield { ...t, datum };
    return;
  }
  // The term replaced by one of its arguments: the depth goes down by one.
  for (const a of t.args ?? []) yield a;
  for (const p of t.optargs ?? []) if (p.val) yield p.val;
  if (t.optargs?.length) yield { ...t, optargs: [] };
  if (t.datum) yield withoutKey(t, 'datum');
  if (t.args) for (const args of shrinkList(t.args, shrinkTerm)) yield { ...t, args };
  if (t.optargs) for (const optargs of shrinkList(t.optargs, (p) => mapGen(p.val ? shrinkTerm(p.val) : [], (val) => ({ ...p, val })))) yield { ...t, optargs };
}

function* shrinkQuery(q: QueryMsg): Generator<QueryMsg> {
  if (q.global_optargs?.length) yield { ...q, global_optargs: [] };
  if (q.query) for (const query of shrinkTerm(q.query)) yield { ...q, query };
  if (q.global_optargs) for (const global_optargs of shrinkList(q.global_optargs, (p) => mapGen(p.val ? shrinkTerm(p.val) : [], (val) => ({ ...p, val })))) yield { ...q, global_optargs };
}

function* mapGen<A, B>(items: Iterable<A>, f: (a: A) => B): Generator<B> {
  for (const a of items) yield f(a);
}

function withoutKey<T extends object, K extends keyof T>(x: T, key: K): T {
  const copy = { ...x };
  delete copy[key];
  return copy;
}

// ---- the arbitraries ----

export function datumArbitrary(maxDepth = 3): fc.Arbitrary<DatumMsg> {
  return drawn((d) => drawDatum(d, 0, maxDepth), shrinkDatum);
}

export function termArbitrary(options: WireArbitraryOptions = {}): fc.Arbitrary<TermMsg> {
  const o = withDefaults(options);
  return drawn((d) => drawTerm(d, 0, o), shrinkTerm);
}

export const tokenArbitrary: fc.Arbitrary<bigint> = drawn(drawToken, function* (t) {
  if (t !== 1n) yield 1n;
});

export function queryArbitrary(options: WireArbitraryOptions = {}): fc.Arbitrary<QueryMsg> {
  const o = withDefaults(options);
  return drawn((d) => drawQuery(d, o), shrinkQuery);
}

/**
 * The queries of one case, 1 to `maxQueries`, in one draw; CONTINUE and STOP sometimes reuse the
 * case's first token, as a client would.
 */
export function queriesArbitrary(options: WireArbitraryOptions & { maxQueries: number }): fc.Arbitrary<QueryMsg[]> {
  const o = withDefaults(options);
  return drawn(
    (d) => {
      const queries = Array.from({ length: d.int(1, options.maxQueries) }, () => drawQuery(d, o));
      if (!d.bool()) return queries;
      return queries.map((q, i) => (i > 0 && (q.type === QueryType.CONTINUE || q.type === QueryType.STOP) ? { ...q, token: queries[0].token } : q));
    },
    (queries) => shrinkList(queries, shrinkQuery, 1),
  );
}
