// The term evaluator of wire-ref: a compile pass (known terms, argument counts, optional-argument
// names) and an evaluation pass over the Term tree. Term behaviour lives in terms/*.ts, one file
// per group of the document's catalogue; this file only walks the tree.
import type { JsValue, TermMsg } from '../../../src/clients/wire/codec.ts';
import { fromDatum, toDatum } from '../../../src/clients/wire/codec.ts';
import { arityUnchecked } from '../term-faults.ts';
import { ErrorType, names, TermType } from '../../../src/clients/wire/schema.ts';
import type { WireFault } from '../faults.ts';
import { compileError, logicError, ReqlError } from './errors.ts';
import type { Store } from './store.ts';
import { isFunc, isOrdering, isReference, isRow, isStream, isTable, Stream, typeName, type Caught, type Func, type Value } from './values.ts';

export interface Env {
  vars: ReadonlyMap<number, Value>;
  faults: ReadonlySet<WireFault>;
  /** The server's databases (shared by its connections). */
  store: Store;
  /** When the server received the query (NOW), in ms since the epoch. */
  now: number;
  /** The argument of the innermost one-argument function (IMPLICIT_VAR). */
  implicit?: Value;
  /** Inside a DEFAULT handler: the error it caught (ERROR with no argument rethrows it). */
  caught?: Caught;
  /**
   * The variant mode (docs/open-choices.md): every choice the document leaves open taken
   * the other way from the reference. Read only where such a choice is made.
   */
  variant?: boolean;
  /** The run option `array_limit`: the longest array the query may build (checkArrayLimit). */
  arrayLimit?: number;
}

/** Refuses an array the query built beyond its `array_limit` (RethinkDB's RESOURCE_LIMIT error). */
export function checkArrayLimit(env: Env, items: readonly unknown[]): void {
  if (env.arrayLimit !== undefined && items.length > env.arrayLimit) {
    throw new ReqlError('RUNTIME_ERROR', `Array over size limit \`${env.arrayLimit}\`.  To raise the number of allowed elements, modify the \`array_limit\` option to \`.run\` (not available in the Data Explorer), or use an index.`, ErrorType.RESOURCE_LIMIT);
  }
}

export interface TermDef {
  /** Smallest and largest number of positional arguments. */
  arity: readonly [number, number];
  /**
   * The variant's reading where the signature is `TYPE...` only (line 11 does not say whether a
   * rest argument may be repeated zero times): the variant accepts zero, the reference does not.
   */
  variantArity?: readonly [number, number];
  /** Optional-argument names accepted; '*' accepts any (MAKE_OBJ). */
  optargs?: readonly string[] | '*';
  /** Arguments the catalogue marks `!`: they must be literal values (DATUM terms), not sub-terms. */
  literal?: LiteralRule;
  run(call: Call): Value;
}

export interface LiteralRule {
  args?: readonly number[];
  /** Every positional argument from this index on. */
  restFrom?: number;
  optargs?: readonly string[];
  /** Terms also taken in those places (e.g. ASC/DESC where the signature allows an Ordering). */
  alsoAllowed?: readonly string[];
}

/** One evaluation of one term: lazy access to its arguments, so short-circuiting terms stay lazy. */
export class Call {
  constructor(
    readonly term: TermMsg,
    readonly env: Env,
  ) {}

  get argc(): number {
    return this.term.args?.length ?? 0;
  }

  get name(): string {
    return names.termType[this.term.type ?? 0] ?? String(this.term.type);
  }

  /** Evaluates positional argument `i`; an error inside it gains a POS frame. */
  arg(i: number, env: Env = this.env): Value {
    try {
      return evaluate(this.term.args![i], env);
    } catch (err) {
      throw err instanceof ReqlError ? err.at({ pos: i }) : err;
    }
  }

  /** Positional argument `i` as a datum (streams are read out; functions are refused). */
  datum(i: number): JsValue {
    return toDatumValue(orderingFault(resolve(this.arg(i), this.env), this.env), () => ({ pos: i }));
  }

  /** Any value read out as a datum (store references resolved). */
  datumOf(v: Value): JsValue {
    return toDatumValue(orderingFault(resolve(v, this.env), this.env));
  }

  args(): Value[] {
    return Array.from({ length: this.argc }, (_, i) => this.arg(i));
  }

  datums(): JsValue[] {
    return Array.from({ length: this.argc }, (_, i) => this.datum(i));
  }

  optargNames(): string[] {
    return (this.term.optargs ?? []).map((p) => p.key ?? '');
  }

  /** Evaluates optional argument `name`; an error inside it gains an OPT frame. */
  optarg(name: string): Value | undefined {
    const pairs = this.term.optargs ?? [];
    const index = pairs.findIndex((p) => p.key === name);
    if (index === -1) return undefined;
    try {
      return evaluate(pairs[index].val ?? {}, this.env);
    } catch (err) {
      if (!(err instanceof ReqlError)) throw err;
      throw this.env.faults.has('opt-frame-as-pos') ? err.at({ pos: index }) : err.at({ opt: name });
    }
  }

  /** Applies a function value to arguments (FUNCALL, DEFAULT handlers, later MAP/FILTER...). */
  apply(fn: Value, args: Value[]): Value {
    if (!isFunc(fn)) throw logicError(`Expected type FUNCTION but found ${typeName(fn)}.`);
    // A function of no parameters takes any arguments and ignores them, as RethinkDB's
    // reql_func_t::call allows (src/rdb_protocol/func.cc; `r.range(3).map(function(){return 0})`,
    // `.default(r.error)` in its tests). The document is silent on arity mismatches.
    if (fn.params.length !== args.length && fn.params.length !== 0) {
      throw logicError(`Expected function with ${fn.params.length} argument(s) but found function with ${args.length} argument(s).`);
    }
    const vars = new Map(fn.scope);
    fn.params.forEach((p, i) => vars.set(p, args[i]));
    const implicit = args.length === 1 && !this.env.faults.has('implicit-var-unbound') ? args[0] : this.env.implicit;
    return evaluate(fn.body, { ...this.env, vars, implicit });
  }

  /** Applies a function and reads its result out as a datum. */
  applyDatum(fn: Value, args: Value[]): JsValue {
    return toDatumValue(resolve(this.apply(fn, args), this.env));
  }
}

/**
 * Store references become what they stand for: a table its rows (a StreamSelection), a
 * single-row selection its row. Everything else is returned as it is.
 */
export function resolve(v: Value, env: Env): Value {
  if (isTable(v)) {
    const t = env.store.table(v);
    // The document orders no table scan: the reference reads in primary-key order, the variant in reverse.
    const rows = t.all(compareKeys);
    return Stream.of(env.variant ? rows.reverse() : rows, false, v);
  }
  if (isRow(v)) return env.store.table(v.table).get(v.key) ?? null;
  return v;
}

// Primary keys are numbers or strings; numbers sort before strings, as datums of different types do.
function compareKeys(a: JsValue, b: JsValue): number {
  if (typeof a === typeof b) return a === b ? 0 : (a as number) < (b as number) ? -1 : 1;
  return typeof a === 'number' ? -1 : 1;
}

/** The ordering-as-datum fault: ASC/DESC outside ORDER_BY read as the field name they hold. */
export function orderingFault(v: Value, env: Env): Value {
  return env.faults.has('ordering-as-datum') && isOrdering(v) && typeof v.by === 'string' ? v.by : v;
}

/** Reads a value out as a datum: finite streams become arrays, functions are an error. */
export function toDatumValue(v: Value, where?: () => { pos: number }): JsValue {
  if (isStream(v)) {
    if (v.infinite) throw logicError('Cannot use an infinite stream where an array is expected.');
    const out: JsValue[] = [];
    for (let r = v.items.next(); !r.done; r = v.items.next()) out.push(r.value);
    return out;
  }
  if (isReference(v)) {
    const err = logicError(`Expected type DATUM but found ${typeName(v)}.`);
    throw where ? err.at(where()) : err;
  }
  return v as JsValue;
}

const registry = new Map<number, TermDef>();

/** Term files register their definitions by catalogue name. */
export function defineTerms(defs: Record<string, TermDef>): void {
  for (const [name, def] of Object.entries(defs)) {
    const type = TermType[name];
    if (type === undefined) throw new Error(`engine: ${name} is not in the TermType catalogue`);
    registry.set(type, def);
  }
}

export function evaluate(term: TermMsg, env: Env): Value {
  const def = registry.get(term.type ?? 0);
  if (!def) throw compileError(`Unrecognized TermType: ${term.type}.`);
  if (term.optargs && term.optargs.length > 1 && env.faults.has('optargs-by-position')) {
    // The fault's bug: the values are paired with the keys in key order, as if read by position.
    const keys = term.optargs.map((p) => p.key ?? '').sort();
    term = { ...term, optargs: term.optargs.map((p, i) => ({ key: keys[i], val: p.val })) };
  }
  if (term.args?.some((a) => a.type === TermType.ARGS) && !env.faults.has('args-not-spliced')) {
    const spliced = spliceArgs(term, env);
    // The count is known only now, at run time: RethinkDB reports it as a RUNTIME_ERROR
    // (arity.yaml `r.now(r.args([1, 2, 3]))` is a ReqlQueryLogicError).
    try {
      checkArity(spliced, def, env.faults, env.variant === true);
    } catch (err) {
      if (err instanceof ReqlError && err.responseType === 'COMPILE_ERROR') throw logicError(err.message);
      throw err;
    }
    return def.run(new Call(spliced, env));
  }
  return def.run(new Call(term, env));
}

/** ARGS splices an array into the argument list of the term around it. */
function spliceArgs(term: TermMsg, env: Env): TermMsg {
  const args: TermMsg[] = [];
  term.args!.forEach((a, i) => {
    if (a.type !== TermType.ARGS) return args.push(a);
    let items: JsValue;
    try {
      items = toDatumValue(resolve(evaluate(a.args![0], env), env));
    } catch (err) {
      throw err instanceof ReqlError ? err.at({ pos: i }).at({ pos: 0 }) : err;
    }
    if (!Array.isArray(items)) throw logicError('ARGS expects an ARRAY.').at({ pos: i });
    for (const item of items) args.push({ type: TermType.DATUM, datum: toDatum(item) });
  });
  return { ...term, args };
}

/**
 * The compile pass: unknown terms, wrong argument counts and unknown optional arguments are
 * COMPILE_ERRORs found before anything runs, with the path to the faulty term as frames.
 */
export function compile(term: TermMsg, faults: ReadonlySet<WireFault>, variant = false, implicitDepth = 0, inStreamOp = false): void {
  const type = term.type ?? 0;
  const def = registry.get(type);
  const name = names.termType[type];
  if (!def) throw compileError(name ? `${name} is not supported by this server.` : `Unrecognized TermType: ${type}.`);
  // IMPLICIT_VAR inside two nested one-argument functions is ambiguous: RethinkDB refuses it
  // when compiling (src/rdb_protocol/terms/var.cc; selection.yaml's nested r.row).
  if (type === TermType.IMPLICIT_VAR && implicitDepth > 1) throw compileError('Cannot use r.row in nested queries.  Use functions instead.');
  const depth = type === TermType.FUNC && oneParam(term) ? implicitDepth + 1 : implicitDepth;
  // Writes and meta operations run once, so a per-item stream operation cannot hold them
  // (RethinkDB's term walker; control.yaml `map(tbl.insert(...))`); FOR_EACH is where they go.
  if (inStreamOp && WRITES.has(type)) throw compileError('Cannot nest writes or meta ops in stream operations.  Use FOR_EACH instead.');
  const nested = { depth, stream: type === TermType.FOR_EACH ? false : inStreamOp, streamFrom: STREAM_OPS.has(type) ? 1 : Infinity };
  if (type === TermType.DATUM) {
    if (!term.datum) throw compileError('DATUM term without a datum.');
    fromDatum(term.datum);
  }
  // Which of two errors in one query is reported is not stated: the reference checks a term
  // before its arguments (the outermost error), the variant its arguments first (the innermost).
  if (variant) compileChildren(term, faults, variant, nested);
  // With ARGS among the arguments the count is known only once ARGS is evaluated.
  if (!term.args?.some((a) => a.type === TermType.ARGS)) checkArity(term, def, faults, variant);
  // `[Database,] STRING`: a database alone leaves the name out (RethinkDB counts the arguments
  // after the database for TABLE and TABLE_CREATE, arity.yaml `db.table_create()`; its
  // TABLE_DROP takes the database as the name and fails at run time).
  if (DB_THEN_NAME.has(type) && term.args?.length === 1 && term.args[0].type === TermType.DB) {
    throw compileError('Expected 1 argument (not including options) but found 0.');
  }
  if (def.optargs !== '*') {
    for (const pair of term.optargs ?? []) {
      if (!def.optargs?.includes(pair.key ?? '')) throw compileError(`Unrecognized optional argument \`${pair.key}\` to ${name}.`).at({ opt: pair.key ?? '' });
    }
  }
  // Line 11's `!` tells query writers to send a literal; it lays no refusal on the server, and
  // RethinkDB evaluates sub-terms there. The reference refuses them; the variant evaluates them in
  // the Sequences and Geometry terms and GET_ALL's index.
  const literalFree = (variant && LITERAL_FREE_IN_VARIANT.has(name ?? '')) || (name === 'GET_ALL' && faults.has('computed-index-by-primary-key'));
  if (def.literal && !literalFree) checkLiterals(term, def.literal, name ?? String(type));
  if (!variant) compileChildren(term, faults, variant, nested);
}

/** A FUNC whose parameter list is a one-item MAKE_ARRAY (or array datum): it binds IMPLICIT_VAR. */
function oneParam(term: TermMsg): boolean {
  const params = term.args?.[0];
  if (params?.type === TermType.MAKE_ARRAY) return params.args?.length === 1;
  if (params?.type === TermType.DATUM && params.datum) {
    const v = fromDatum(params.datum);
    return Array.isArray(v) && v.length === 1;
  }
  return false;
}

function compileChildren(term: TermMsg, faults: ReadonlySet<WireFault>, variant: boolean, nested: { depth: number; stream: boolean; streamFrom: number }): void {
  const { depth } = nested;
  (term.args ?? []).forEach((a, i) => {
    try {
      compile(a, faults, variant, depth, nested.stream || i >= nested.streamFrom);
    } catch (err) {
      throw err instanceof ReqlError ? err.at({ pos: i }) : err;
    }
  });
  for (const pair of term.optargs ?? []) {
    try {
      compile(pair.val ?? {}, faults, variant, depth, nested.stream);
    } catch (err) {
      if (!(err instanceof ReqlError)) throw err;
      throw err.at({ opt: pair.key ?? '' });
    }
  }
}

const DB_THEN_NAME = new Set([TermType.TABLE, TermType.TABLE_CREATE]);

/** Writes and meta operations (see WRITES' use in compile). */
const WRITES = new Set(['INSERT', 'UPDATE', 'REPLACE', 'DELETE', 'DB_CREATE', 'DB_DROP', 'TABLE_CREATE', 'TABLE_DROP', 'INDEX_CREATE', 'INDEX_DROP', 'INDEX_RENAME', 'SYNC', 'RECONFIGURE', 'REBALANCE', 'SET_WRITE_HOOK', 'GRANT'].map((n) => TermType[n]));

/** Stream operations applying their later arguments per item. */
const STREAM_OPS = new Set(['MAP', 'CONCAT_MAP', 'FILTER', 'REDUCE', 'FOLD', 'ORDER_BY', 'GROUP', 'INNER_JOIN', 'OUTER_JOIN', 'EQ_JOIN', 'CONTAINS', 'OFFSETS_OF', 'SUM', 'AVG', 'MIN', 'MAX', 'COUNT', 'DISTINCT'].map((n) => TermType[n]));

/** Terms whose `!` arguments the variant evaluates as sub-terms (docs/open-choices.md). */
const LITERAL_FREE_IN_VARIANT = new Set(['EQ_JOIN', 'BETWEEN', 'ORDER_BY', 'ASC', 'DESC', 'GET_INTERSECTING', 'GET_NEAREST', 'GET_ALL']);

/** `!` arguments: a sub-term where the catalogue requires a literal value is a COMPILE_ERROR. */
function checkLiterals(term: TermMsg, rule: LiteralRule, name: string): void {
  const allowed = new Set([TermType.DATUM, ...(rule.alsoAllowed ?? []).map((n) => TermType[n])]);
  (term.args ?? []).forEach((a, i) => {
    const listed = rule.args?.includes(i) || (rule.restFrom !== undefined && i >= rule.restFrom);
    if (listed && !allowed.has(a.type ?? 0)) throw compileError(`Argument ${i} of ${name} must be a literal value, not a sub-term.`).at({ pos: i });
  });
  for (const pair of term.optargs ?? []) {
    if (rule.optargs?.includes(pair.key ?? '') && !allowed.has(pair.val?.type ?? 0)) {
      throw compileError(`Optional argument \`${pair.key}\` of ${name} must be a literal value, not a sub-term.`).at({ opt: pair.key ?? '' });
    }
  }
}

function checkArity(term: TermMsg, def: TermDef, faults: ReadonlySet<WireFault>, variant = false): void {
  const name = names.termType[term.type ?? 0];
  const argc = term.args?.length ?? 0;
  const [min, max] = (variant && def.variantArity) || def.arity;
  if (argc >= min && argc <= max) return;
  if (arityUnchecked(name, faults)) return;
  if (argc > max && faults.has('extra-args-ignored')) return;
  if (argc > max && name === 'IMPLICIT_VAR' && faults.has('implicit-var-takes-args')) return;
  const expected = min === max ? `${min}` : max === Infinity ? `${min} or more` : `between ${min} and ${max}`;
  const message = `Expected ${expected} argument(s) to ${name} but found ${argc}.`;
  // The fault reports the same problem, at the same place, as a run-time error.
  throw faults.has('arity-runtime-error') ? logicError(message) : compileError(message);
}

export type { Func };
