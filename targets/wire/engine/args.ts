// Typed access to a term's arguments. A type mismatch is a RUNTIME_ERROR (QUERY_LOGIC) whose
// backtrace points at the faulty argument, as the document asks of run-time type errors.
import type { JsValue } from '../../../src/clients/wire/codec.ts';
import { TermType } from '../../../src/clients/wire/schema.ts';
import { compileError, logicError, nonExistence } from './errors.ts';
import { resolve, type Call } from './evaluate.ts';
import { isFunc, isReference, isStream, Stream, typeName, type TableRef, type Value } from './values.ts';

export type Obj = Record<string, JsValue>;

/** A type mismatch of positional argument `i`: `v` is not of the type `what` (every term reports it here). */
export function typeMismatch(c: Call, i: number, what: string, v: Value): never {
  return expected(c, i, what, v);
}

function expected(c: Call, i: number, what: string, v: Value): never {
  // The fault's bug: the error points at the argument after the one of the wrong type.
  const pos = c.env.faults.has('type-error-wrong-frame') ? i + 1 : i;
  // Whether a mismatch is found by type checking (COMPILE_ERROR, line 49) or at run time, and
  // whether it is located at the argument or at the term applying the signature, is not stated:
  // the variant reports a literal argument of the wrong type as a COMPILE_ERROR of the term.
  if (c.env.variant && c.term.args?.[i]?.type === TermType.DATUM) {
    const err = compileError(`${c.name} cannot take a ${typeName(v)} as argument ${i} (it expects ${what})`);
    throw pos === i ? err : err.at({ pos });
  }
  // A NULL where another type is expected is an absent value (NON_EXISTENCE), which DEFAULT
  // catches (line 146 "raises an absent-value error"), as RethinkDB and its default.yaml tests.
  throw (v === null ? nonExistence : logicError)(`Expected type ${what} but found ${typeName(v)}.`).at({ pos });
}

/** An OBJECT datum (pseudotypes such as TIME are objects too, with a $reql_type$ field). */
export function isObject(v: Value): v is Obj {
  return typeof v === 'object' && v !== null && !Array.isArray(v) && !isReference(v);
}

export function num(c: Call, i: number): number {
  const v = c.datum(i);
  return typeof v === 'number' ? v : expected(c, i, 'NUMBER', v);
}

export function int(c: Call, i: number): number {
  const v = num(c, i);
  if (!Number.isInteger(v)) throw logicError(`Number not an integer: ${v}.`).at({ pos: i });
  // Past 2^53 a double is no longer an exact integer (RethinkDB's checked_convert_to_int; range.yaml).
  if (Math.abs(v) > 2 ** 53) throw logicError(`Number not an integer (${v < 0 ? '<-' : '>'}2^53): ${v}`).at({ pos: i });
  return v;
}

export function str(c: Call, i: number): string {
  const v = c.datum(i);
  return typeof v === 'string' ? v : expected(c, i, 'STRING', v);
}

export function bool(c: Call, i: number): boolean {
  const v = c.datum(i);
  return typeof v === 'boolean' ? v : expected(c, i, 'BOOL', v);
}

export function arr(c: Call, i: number): JsValue[] {
  const v = c.datum(i);
  return Array.isArray(v) ? v : expected(c, i, 'ARRAY', v);
}

export function obj(c: Call, i: number): Obj {
  const v = c.datum(i);
  return isObject(v) ? v : expected(c, i, 'OBJECT', v);
}

/** A sequence argument: arrays, streams, tables and selections. */
export interface Seq {
  items: Iterator<JsValue>;
  infinite: boolean;
  /** The table a StreamSelection comes from. */
  source?: TableRef;
  /** Set when the sequence is an ARRAY (a term on it then answers an array too). */
  array?: JsValue[];
}

export function seqOf(v: Value): Seq | undefined {
  if (Array.isArray(v)) return { items: v[Symbol.iterator](), infinite: false, array: v };
  if (isStream(v)) return { items: v.items, infinite: v.infinite, source: v.source };
  return undefined;
}

/** Sequence argument `i` (evaluated once: a stream can be read only once). */
export function seq(c: Call, i: number): Seq {
  return seqAt(c, i, resolve(c.arg(i), c.env));
}

/** An already evaluated argument `i` as a sequence. */
export function seqAt(c: Call, i: number, v: Value): Seq {
  return seqOf(v) ?? expected(c, i, 'SEQUENCE', v);
}

/** The whole of a finite sequence argument. */
export function list(c: Call, i: number): JsValue[] {
  return readAll(seq(c, i), i);
}

export function readAll(s: Seq, i = 0): JsValue[] {
  if (s.array) return s.array;
  if (s.infinite) throw logicError('Cannot use an infinite stream where a finite sequence is needed.').at({ pos: i });
  const out: JsValue[] = [];
  for (let r = s.items.next(); !r.done; r = s.items.next()) out.push(r.value);
  return out;
}

/** A lazily mapped sequence that keeps the source table (a selection stays a selection). */
export function streamFrom(s: Seq, gen: Iterable<JsValue>, keepSource = true): Stream {
  return Stream.of(gen, s.infinite, keepSource ? s.source : undefined);
}

export function* iterate(it: Iterator<JsValue>): Generator<JsValue> {
  for (let r = it.next(); !r.done; r = it.next()) yield r.value;
}

/** A function argument, or a datum that stands for a constant predicate/value (e.g. FILTER's OBJECT). */
export function funcOrDatum(c: Call, i: number): { fn?: Value; value?: JsValue } {
  const v = c.arg(i);
  return isFunc(v) ? { fn: v } : { value: c.datum(i) };
}

/** An optional argument as a datum, or undefined when absent. */
export function optDatum(c: Call, name: string): JsValue | undefined {
  const v = c.optarg(name);
  if (v === undefined) return undefined;
  if (isFunc(v)) throw logicError(`Expected type DATUM but found FUNCTION.`).at({ opt: name });
  try {
    return c.datumOf(v);
  } catch (err) {
    throw err instanceof Error && 'at' in err ? (err as ReturnType<typeof logicError>).at({ opt: name }) : err;
  }
}

export function optString(c: Call, name: string): string | undefined {
  const v = optDatum(c, name);
  if (v === undefined) return undefined;
  // NULL is an absent value here too (as in `expected`; selection.yaml `table(name, {read_mode: null})`).
  if (typeof v !== 'string') throw (v === null ? nonExistence : logicError)(`Expected type STRING but found ${typeName(v)}.`).at({ opt: name });
  return v;
}

/** The `durability` optional argument: "hard" or "soft" (RethinkDB refuses any other value). */
export function optDurability(c: Call): string | undefined {
  const v = optString(c, 'durability');
  if (v !== undefined && v !== 'hard' && v !== 'soft') throw logicError(`Durability option \`${v}\` unrecognized (options are "hard" and "soft").`).at({ opt: 'durability' });
  return v;
}

export function optBool(c: Call, name: string): boolean | undefined {
  const v = optDatum(c, name);
  if (v === undefined) return undefined;
  if (typeof v !== 'boolean') throw logicError(`Expected type BOOL but found ${typeName(v)}.`).at({ opt: name });
  return v;
}

export function optNum(c: Call, name: string): number | undefined {
  const v = optDatum(c, name);
  if (v === undefined) return undefined;
  if (typeof v !== 'number') throw logicError(`Expected type NUMBER but found ${typeName(v)}.`).at({ opt: name });
  return v;
}

/** Deep copy of a datum (rows handed out must not alias the stored ones). */
export function clone<T extends JsValue>(v: T): T {
  return structuredClone(v);
}
