// Values the engine computes with: datums (plain JSON-like values), lazy streams, functions.
import type { JsValue, TermMsg } from '../../../src/clients/wire/codec.ts';

/** A lazy sequence: items are produced only as batches are requested (RANGE with no bound is infinite). */
export class Stream {
  constructor(
    readonly items: Iterator<JsValue>,
    /** True for streams without end (RANGE with no argument); reading one out whole is an error. */
    readonly infinite = false,
  ) {}

  static of(values: Iterable<JsValue>, infinite = false): Stream {
    return new Stream(values[Symbol.iterator](), infinite);
  }

  /** Up to `n` items; `done` when the stream has no more. */
  take(n: number): { batch: JsValue[]; done: boolean } {
    const batch: JsValue[] = [];
    while (batch.length < n) {
      const r = this.items.next();
      if (r.done) return { batch, done: true };
      batch.push(r.value);
    }
    return { batch, done: false };
  }
}

export interface Func {
  kind: 'func';
  params: number[];
  body: TermMsg;
  /** Variables visible where the function was written. */
  scope: ReadonlyMap<number, Value>;
}

export type Value = JsValue | Stream | Func;

export function isStream(v: Value): v is Stream {
  return v instanceof Stream;
}

export function isFunc(v: Value): v is Func {
  return typeof v === 'object' && v !== null && !Array.isArray(v) && (v as Func).kind === 'func' && !(v instanceof Stream);
}

/** The type name TYPE_OF reports and error messages use. */
export function typeName(v: Value): string {
  if (v === null) return 'NULL';
  if (v instanceof Stream) return 'STREAM';
  if (isFunc(v)) return 'FUNCTION';
  if (Array.isArray(v)) return 'ARRAY';
  switch (typeof v) {
    case 'boolean':
      return 'BOOL';
    case 'number':
      return 'NUMBER';
    case 'string':
      return 'STRING';
    default:
      return 'OBJECT';
  }
}
