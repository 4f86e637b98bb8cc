// A small ReQL term builder for the `js` (and, lightly rewritten, the `cd`) forms of RethinkDB's
// polyglot tests: `r.expr(1).add(2)`, `r.table('t').filter(function (x) {...})`, `tbl('a')`.
// Method names map to the document's TermType names (camelCase or snake_case to UPPER_SNAKE);
// a method not in the catalogue, or a Python-only operator on a term, is untranslatable.
import type { DatumMsg, JsValue, TermMsg } from '../../../src/clients/wire/codec.ts';
import { toDatum } from '../../../src/clients/wire/codec.ts';
import { TermType } from '../../../src/clients/wire/schema.ts';

export class Untranslatable extends Error {}
/** An error the real driver raises itself, before anything is sent (ReqlDriverCompileError). */
export class DriverError extends Error {}

const NODE = Symbol('reql-term');
export interface Node {
  [NODE]: TermMsg;
}

/** A Python keyword argument (`name=value`), from the `cd` rewrite. */
export class Kw {
  constructor(
    readonly key: string,
    readonly value: unknown,
  ) {}
}

const ALIASES: Record<string, string> = {
  do: 'FUNCALL', typeOf: 'TYPE_OF', toJSON: 'TO_JSON_STRING', toJsonString: 'TO_JSON_STRING', toJson: 'TO_JSON_STRING', to_json: 'TO_JSON_STRING', toJsonString_: 'TO_JSON_STRING',
  toISO8601: 'TO_ISO8601', to_iso8601: 'TO_ISO8601', ISO8601: 'ISO8601', iso8601: 'ISO8601', js: 'JAVASCRIPT', json: 'JSON', toGeojson: 'TO_GEOJSON', geojson: 'GEOJSON',
  row: 'IMPLICIT_VAR', epochTime: 'EPOCH_TIME', toEpochTime: 'TO_EPOCH_TIME', object: 'OBJECT', minval: 'MINVAL', maxval: 'MAXVAL',
  getField: 'GET_FIELD', eqJoin: 'EQ_JOIN', count: 'COUNT', forEach: 'FOR_EACH', setInsert: 'SET_INSERT', opt: 'BRACKET', getNearest: 'GET_NEAREST',
  // aliases of the official drivers (math_logic/aliases.yaml)
  lte: 'LE', gte: 'GE', neq: 'NE', notEq: 'NE', and_: 'AND', or_: 'OR', not_: 'NOT', bitNot: 'BIT_NOT',
};
/** Zero-argument terms read as properties (`r.row`, `r.minval`, `r.monday`). */
const PROPERTY_TERMS = new Set(['row', 'minval', 'maxval', 'monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday', 'january', 'february', 'march', 'april', 'may', 'june', 'july', 'august', 'september', 'october', 'november', 'december']);

/** Optional-argument names per term (the JS driver's trailing options object). */
const OPTARGS: Record<string, string[]> = {
  INSERT: ['conflict', 'durability', 'return_changes', 'ignore_write_hook'],
  UPDATE: ['non_atomic', 'durability', 'return_changes', 'ignore_write_hook'],
  REPLACE: ['non_atomic', 'durability', 'return_changes', 'ignore_write_hook'],
  DELETE: ['durability', 'return_changes', 'ignore_write_hook'],
  TABLE: ['read_mode', 'identifier_format', 'use_outdated'],
  TABLE_CREATE: ['primary_key', 'shards', 'replicas', 'primary_replica_tag', 'durability', 'nonvoting_replica_tags'],
  GET_ALL: ['index'], BETWEEN: ['index', 'left_bound', 'right_bound'], ORDER_BY: ['index'], EQ_JOIN: ['index', 'ordered'], DISTINCT: ['index'],
  MIN: ['index'], MAX: ['index'], GROUP: ['index', 'multi'], FILTER: ['default'], SLICE: ['left_bound', 'right_bound'], RANDOM: ['float'],
  CIRCLE: ['num_vertices', 'geo_system', 'unit', 'fill'], DISTANCE: ['geo_system', 'unit'], GET_NEAREST: ['index', 'max_results', 'max_dist', 'geo_system', 'unit'],
  GET_INTERSECTING: ['index'], ISO8601: ['default_timezone'], DURING: ['left_bound', 'right_bound'], JAVASCRIPT: ['timeout'], INDEX_CREATE: ['multi', 'geo'],
  INDEX_RENAME: ['overwrite'], FOLD: ['emit', 'final_emit'], RECONFIGURE: ['shards', 'replicas', 'primary_replica_tag', 'dry_run', 'emergency_repair', 'nonvoting_replica_tags'],
  WAIT: ['wait_for', 'timeout'], UNION: ['interleave'], CHANGES: ['squash', 'include_states', 'include_initial', 'include_offsets', 'include_types', 'changefeed_queue_size'],
  HTTP: ['data', 'timeout', 'method', 'params', 'header', 'attempts', 'redirects', 'verify', 'page', 'page_limit', 'auth', 'result_format'],
  TIME: [], DB: [], SPLIT: [], SAMPLE: [], ISO: [],
};

/** Positional arguments (with the term the method is called on) of the writes' JS methods. */
const WRITE_POSITIONAL: Record<string, number> = { INSERT: 2, UPDATE: 2, REPLACE: 2 };

const snake = (s: string) => s.replace(/([a-z0-9])([A-Z])/g, '$1_$2').toLowerCase();

function termName(prop: string): string | undefined {
  if (ALIASES[prop]) return ALIASES[prop];
  const upper = snake(prop).toUpperCase();
  return TermType[upper] !== undefined ? upper : undefined;
}

export function isNode(x: unknown): x is Node {
  return (typeof x === 'function' || typeof x === 'object') && x !== null && (x as Node)[NODE] !== undefined;
}

let nextVar = 1;

function isPlain(x: unknown): x is Record<string, unknown> {
  return typeof x === 'object' && x !== null && !Array.isArray(x) && !isNode(x) && !(x instanceof Date) && !Buffer.isBuffer(x) && !(x instanceof Kw) && Object.getPrototypeOf(x) === Object.prototype;
}

function datum(v: JsValue): TermMsg {
  return { type: TermType.DATUM, datum: toDatum(v) };
}

/** A JavaScript value (or a term) as a term message, as the driver's r.expr does. */
export function toTerm(x: unknown, depth = 0): TermMsg {
  if (depth > 100) throw new DriverError('Nesting depth limit exceeded.');
  if (isNode(x)) return x[NODE];
  if (x instanceof Kw) throw new Untranslatable(`keyword argument ${x.key} outside a call`);
  if (x === undefined) throw new DriverError('Argument to r.expr must be defined (undefined found).');
  if (x === null || typeof x === 'boolean' || typeof x === 'string') return datum(x);
  if (typeof x === 'number') {
    if (!Number.isFinite(x)) throw new DriverError(`Cannot convert \`${x}\` to JSON.`);
    return datum(x);
  }
  if (typeof x === 'function') return func(x as (...a: unknown[]) => unknown);
  if (x instanceof Date) return datum({ $reql_type$: 'TIME', epoch_time: x.getTime() / 1000, timezone: '+00:00' });
  if (Buffer.isBuffer(x)) return datum({ $reql_type$: 'BINARY', data: x.toString('base64') });
  if (Array.isArray(x)) return { type: TermType.MAKE_ARRAY, args: x.map((i) => toTerm(i, depth + 1)) };
  if (typeof x === 'object') {
    return { type: TermType.MAKE_OBJ, optargs: Object.entries(x).map(([key, v]) => ({ key, val: toTerm(v, depth + 1) })) };
  }
  throw new Untranslatable(`cannot convert ${typeof x}`);
}

function func(f: (...a: unknown[]) => unknown): TermMsg {
  const ids = Array.from({ length: f.length }, () => nextVar++);
  const body = f(...ids.map((id) => node({ type: TermType.VAR, args: [datum(id)] })));
  if (body === undefined) throw new DriverError('Anonymous function returned `undefined`. Did you forget a `return`?');
  return { type: TermType.FUNC, args: [{ type: TermType.MAKE_ARRAY, args: ids.map(datum) }, toTerm(body)] };
}

/** Builds TERM(args..., {optargs}) with the driver's reading of a trailing options object. */
export function build(name: string, rawArgs: unknown[]): Node {
  const args = [...rawArgs];
  const optargs: { key: string; val: TermMsg }[] = [];
  while (args.length && args[args.length - 1] instanceof Kw) {
    const kw = args.pop() as Kw;
    optargs.unshift({ key: kw.key, val: toTerm(kw.value) });
  }
  const allowed = OPTARGS[name];
  const last = args[args.length - 1];
  // The writes' JS methods take (value[, options]): the value is never options, and the options
  // object passes every key on (RethinkDB answers an obsolete `return_vals` itself).
  const positional = WRITE_POSITIONAL[name];
  const isOptions = positional !== undefined ? args.length > positional : !!allowed && isPlain(last) && Object.keys(last).every((k) => allowed.includes(snake(k)));
  if (!optargs.length && allowed && isPlain(last) && Object.keys(last).length && isOptions) {
    args.pop();
    for (const [k, v] of Object.entries(last)) optargs.push({ key: snake(k), val: toTerm(v) });
  }
  if (args.some((a) => a instanceof Kw)) throw new Untranslatable('keyword argument before a positional one');
  if (name === 'FUNCALL' && args.length) args.unshift(args.pop()); // r.do(a, b, f) -> FUNCALL(f, a, b)
  const msg: TermMsg = { type: TermType[name] };
  if (args.length) msg.args = args.map((a, i) => (i > 0 || name === 'FUNCALL') && FUNC_WRAPPED.has(name) ? funcWrap(toTerm(a)) : toTerm(a));
  if (optargs.length) msg.optargs = optargs;
  return node(msg);
}

/** Terms whose arguments the drivers wrap in a one-argument function when they use r.row (func_wrap). */
const FUNC_WRAPPED = new Set(['FILTER', 'MAP', 'CONCAT_MAP', 'FOR_EACH', 'UPDATE', 'REPLACE', 'MERGE', 'ORDER_BY', 'GROUP', 'COUNT', 'CONTAINS', 'SUM', 'AVG', 'MIN', 'MAX', 'OFFSETS_OF', 'DEFAULT', 'FUNCALL', 'REDUCE', 'FOLD', 'INNER_JOIN', 'OUTER_JOIN', 'INDEX_CREATE', 'ASC', 'DESC', 'DISTINCT', 'BRANCH', 'ORDER_BY']);

function usesImplicit(t: TermMsg): boolean {
  if (t.type === TermType.IMPLICIT_VAR) return true;
  if (t.type === TermType.FUNC) return false;
  return (t.args ?? []).some(usesImplicit) || (t.optargs ?? []).some((p) => p.val !== undefined && usesImplicit(p.val));
}

function funcWrap(t: TermMsg): TermMsg {
  if (!usesImplicit(t)) return t;
  const id = nextVar++;
  return { type: TermType.FUNC, args: [{ type: TermType.MAKE_ARRAY, args: [datum(id)] }, t] };
}

/** A term, callable for BRACKET (`t('field')`), with the term methods as properties. */
function node(msg: TermMsg): Node {
  const target = function () {} as unknown as Node;
  return new Proxy(target, {
    get(_t, prop) {
      if (prop === NODE) return msg;
      if (prop === Symbol.toPrimitive || prop === 'valueOf' || prop === 'toString') {
        return () => {
          throw new Untranslatable('a Python operator applied to a term');
        };
      }
      if (typeof prop !== 'string') return undefined;
      if (prop === 'then') return undefined;
      const name = termName(prop);
      if (!name) {
        if (/^\d+$/.test(prop)) return build('BRACKET', [node(msg), Number(prop)]);
        throw new Untranslatable(`method ${prop} is not in the document's term catalogue`);
      }
      return (...a: unknown[]) => build(name, [node(msg), ...a]);
    },
    apply(_t, _this, a: unknown[]) {
      return build('BRACKET', [node(msg), ...a]);
    },
  });
}

function rBinary(x: unknown): Node {
  if (Buffer.isBuffer(x)) return node(toTerm(x));
  return build('BINARY', [x]);
}

/** The `r` of the tests: `r(x)`, `r.expr(x)`, `r.add(...)`, `r.row`, `r.minval`... */
export const r: any = new Proxy(function () {} as unknown as object, {
  apply(_t, _this, a: unknown[]) {
    if (a.length > 1) throw new Untranslatable('r.expr with a nesting depth');
    return node(toTerm(a[0]));
  },
  get(_t, prop) {
    if (typeof prop !== 'string') return undefined;
    if (prop === 'expr') return (x: unknown, depth?: number) => {
      if (depth !== undefined) throw new Untranslatable('r.expr with a nesting depth (driver-only)');
      return node(toTerm(x));
    };
    if (prop === 'binary') return rBinary;
    if (prop === 'then') return undefined;
    if (PROPERTY_TERMS.has(prop)) return build(termName(prop)!, []);
    const name = termName(prop);
    if (!name) throw new Untranslatable(`r.${prop} is not in the document's term catalogue`);
    return (...a: unknown[]) => build(name, a);
  },
});

export function termOf(x: unknown): TermMsg {
  return toTerm(x);
}
export type { DatumMsg };
