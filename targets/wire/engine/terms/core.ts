// "Core and data" and "Types and control" terms the protocol layer needs.
import { fromDatum, type JsValue } from '../../../../src/clients/wire/codec.ts';
import { ErrorType } from '../../../../src/clients/wire/schema.ts';
import { logicError, nonExistence, ReqlError, userError } from '../errors.ts';
import { defineTerms, toDatumValue, type Call } from '../evaluate.ts';
import { isFunc, typeName, type Value } from '../values.ts';

const ANY = Infinity;

function numberList(v: Value): number[] {
  const list = toDatumValue(v);
  if (!Array.isArray(list) || !list.every((x) => typeof x === 'number' && Number.isInteger(x) && x >= 0)) {
    throw logicError('FUNC expects an array of non-negative variable numbers.');
  }
  return list as number[];
}

/** The error DEFAULT catches: a missing value, not a user error or a type error. */
function isAbsent(err: unknown): err is ReqlError {
  return err instanceof ReqlError && err.errorType === ErrorType.NON_EXISTENCE;
}

defineTerms({
  DATUM: { arity: [0, 0], run: (c) => fromDatum(c.term.datum) },
  MAKE_ARRAY: { arity: [0, ANY], run: (c) => c.datums() },
  MAKE_OBJ: {
    arity: [0, 0],
    optargs: '*',
    run: (c) => {
      const out: Record<string, JsValue> = {};
      for (const key of c.optargNames()) out[key] = toDatumValue(c.optarg(key)!);
      return out;
    },
  },
  VAR: {
    arity: [1, 1],
    run: (c) => {
      const id = c.datum(0);
      if (typeof id !== 'number' || !c.env.vars.has(id)) throw logicError(`Variable ${JSON.stringify(id)} is not bound.`);
      return c.env.vars.get(id)!;
    },
  },
  FUNC: {
    arity: [2, 2],
    run: (c) => ({ kind: 'func', params: numberList(c.arg(0)), body: c.term.args![1], scope: c.env.vars }),
  },
  FUNCALL: {
    arity: [1, ANY],
    run: (c) => {
      const fn = c.arg(0);
      const args = Array.from({ length: c.argc - 1 }, (_, i) => c.arg(i + 1));
      return c.apply(fn, args);
    },
  },
  ERROR: {
    arity: [0, 1],
    run: (c) => {
      if (c.argc === 0) throw logicError('Empty ERROR term outside a default block.');
      const message = c.datum(0);
      if (typeof message !== 'string') throw logicError(`Expected type STRING but found ${typeName(message)}.`).at({ pos: 0 });
      throw userError(message);
    },
  },
  BRANCH: {
    arity: [3, 3],
    run: (c) => {
      const test = c.datum(0);
      return test === false || test === null ? c.arg(2) : c.arg(1);
    },
  },
  DEFAULT: {
    arity: [2, 2],
    run: (c: Call) => {
      let caught: string | null = null;
      try {
        const v = c.arg(0);
        if (v !== null) return v;
      } catch (err) {
        if (!isAbsent(err)) throw err;
        caught = err.message;
      }
      const fallback = c.arg(1);
      return isFunc(fallback) ? c.apply(fallback, [caught]) : fallback;
    },
  },
  TYPE_OF: { arity: [1, 1], run: (c) => typeName(c.arg(0)) },
});
