// A small query builder: JavaScript values and nested terms -> Term messages.
// Checks and the fuzzer build queries with it; names follow the document's TermType names.
import { toDatum, type JsValue, type TermMsg } from './codec.ts';
import { TermType } from './schema.ts';

const TERM = Symbol('term');

export interface Term {
  readonly [TERM]: true;
  readonly msg: TermMsg;
}

export type TermLike = Term | JsValue | TermLike[] | { [key: string]: TermLike };

function isTerm(x: unknown): x is Term {
  return typeof x === 'object' && x !== null && (x as Term)[TERM] === true;
}

function containsTerm(x: unknown): boolean {
  if (isTerm(x)) return true;
  if (Array.isArray(x)) return x.some(containsTerm);
  if (x && typeof x === 'object') return Object.values(x).some(containsTerm);
  return false;
}

function wrap(msg: TermMsg): Term {
  return { [TERM]: true, msg };
}

/** Converts a value to a term: plain data becomes one DATUM; data around terms becomes MAKE_ARRAY / MAKE_OBJ. */
export function expr(x: TermLike): Term {
  if (isTerm(x)) return x;
  if (!containsTerm(x)) return wrap({ type: TermType.DATUM, datum: toDatum(x as JsValue) });
  if (Array.isArray(x)) return term('MAKE_ARRAY', x);
  return term('MAKE_OBJ', [], x as Record<string, TermLike>);
}

/** Any term by its catalogue name, e.g. term('ADD', [1, 2]). */
export function term(name: string, args: TermLike[] = [], optargs: Record<string, TermLike> = {}): Term {
  const type = TermType[name];
  if (type === undefined) throw new TypeError(`unknown TermType ${name}`);
  return rawTerm(type, args, optargs);
}

/** A term by number, also numbers the catalogue does not define (for the fuzzer). */
export function rawTerm(type: number, args: TermLike[] = [], optargs: Record<string, TermLike> = {}): Term {
  const msg: TermMsg = { type };
  if (args.length) msg.args = args.map((a) => expr(a).msg);
  const keys = Object.keys(optargs);
  if (keys.length) msg.optargs = keys.map((key) => ({ key, val: expr(optargs[key]).msg }));
  return wrap(msg);
}

/** DATUM term holding exactly this value, even an array or object (no MAKE_ARRAY/MAKE_OBJ). */
export function datum(value: JsValue): Term {
  return wrap({ type: TermType.DATUM, datum: toDatum(value) });
}

// Shorthands for the terms the checks use most. Anything else: term('NAME', args, optargs).
export const r = {
  expr,
  datum,
  term,
  makeArray: (...items: TermLike[]) => term('MAKE_ARRAY', items),
  makeObj: (fields: Record<string, TermLike>) => term('MAKE_OBJ', [], fields),
  error: (message?: string) => term('ERROR', message === undefined ? [] : [message]),
  add: (...xs: TermLike[]) => term('ADD', xs),
  sub: (...xs: TermLike[]) => term('SUB', xs),
  eq: (...xs: TermLike[]) => term('EQ', xs),
  not: (...xs: TermLike[]) => term('NOT', xs),
  range: (...bounds: number[]) => term('RANGE', bounds),
  limit: (seq: TermLike, n: number) => term('LIMIT', [seq, n]),
  branch: (test: TermLike, then: TermLike, otherwise: TermLike) => term('BRANCH', [test, then, otherwise]),
  variable: (id: number) => term('VAR', [id]),
  func: (params: number[], body: TermLike) => term('FUNC', [term('MAKE_ARRAY', params), body]),
  funcall: (fn: TermLike, ...args: TermLike[]) => term('FUNCALL', [fn, ...args]),
  default: (value: TermLike, fallback: TermLike) => term('DEFAULT', [value, fallback]),
};
