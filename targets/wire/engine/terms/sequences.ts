// "Sequences" terms of the protocol layer: RANGE (lazy, possibly infinite), LIMIT, SKIP, COUNT.
import type { JsValue } from '../../../../src/clients/wire/codec.ts';
import { logicError } from '../errors.ts';
import { defineTerms, toDatumValue, type Call } from '../evaluate.ts';
import { isStream, Stream, typeName, type Value } from '../values.ts';

function integer(c: Call, i: number): number {
  const v = c.datum(i);
  if (typeof v !== 'number' || !Number.isInteger(v)) throw logicError(`Expected type NUMBER (an integer) but found ${JSON.stringify(v)}.`).at({ pos: i });
  return v;
}

function* count(from: number, to: number): Generator<JsValue> {
  for (let i = from; i < to; i++) yield i;
}

function sequence(c: Call, i: number): Stream | JsValue[] {
  const v: Value = c.arg(i);
  if (isStream(v) || Array.isArray(v)) return v;
  throw logicError(`Expected type SEQUENCE but found ${typeName(v)}.`).at({ pos: i });
}

function* drop(items: Iterator<JsValue>, n: number): Generator<JsValue> {
  for (let r = items.next(); !r.done; r = items.next()) {
    if (n > 0) n--;
    else yield r.value;
  }
}

function* first(items: Iterator<JsValue>, n: number): Generator<JsValue> {
  for (let i = 0; i < n; i++) {
    const r = items.next();
    if (r.done) return;
    yield r.value;
  }
}

defineTerms({
  RANGE: {
    arity: [0, 2],
    run: (c) => {
      if (c.argc === 0) return Stream.of(count(0, Infinity), true);
      if (c.argc === 1) return Stream.of(count(0, integer(c, 0)));
      return Stream.of(count(integer(c, 0), integer(c, 1)));
    },
  },
  LIMIT: {
    arity: [2, 2],
    run: (c) => {
      const seq = sequence(c, 0);
      const n = integer(c, 1);
      if (n < 0) throw logicError('LIMIT takes a non-negative argument.').at({ pos: 1 });
      return isStream(seq) ? Stream.of(first(seq.items, n)) : seq.slice(0, n);
    },
  },
  SKIP: {
    arity: [2, 2],
    run: (c) => {
      const seq = sequence(c, 0);
      const n = integer(c, 1);
      if (n < 0) throw logicError('SKIP takes a non-negative argument.').at({ pos: 1 });
      return isStream(seq) ? new Stream(drop(seq.items, n), seq.infinite) : seq.slice(n);
    },
  },
  COUNT: {
    arity: [1, 1],
    run: (c) => {
      const seq = sequence(c, 0);
      return (toDatumValue(seq) as JsValue[]).length;
    },
  },
});
