// "Core and data" terms: literal data, variables, functions, errors, and the two terms wire-ref
// refuses because they would reach outside the server (JAVASCRIPT, HTTP).
import { randomUUID } from 'node:crypto';
import { fromDatum, type JsValue } from '../../../../src/clients/wire/codec.ts';
import { TermType } from '../../../../src/clients/wire/schema.ts';
import { typeMismatch } from '../args.ts';
import { compileError, EmptyError, logicError, userError } from '../errors.ts';
import { checkArrayLimit, defineTerms, toDatumValue } from '../evaluate.ts';
import type { Value } from '../values.ts';

const ANY = Infinity;

function numberList(v: Value): number[] {
  const list = toDatumValue(v);
  if (!Array.isArray(list) || !list.every((x) => typeof x === 'number' && Number.isInteger(x) && x >= 0)) {
    throw logicError('FUNC expects an array of non-negative variable numbers.');
  }
  return list as number[];
}

defineTerms({
  DATUM: { arity: [0, 0], run: (c) => fromDatum(c.term.datum) },
  MAKE_ARRAY: {
    arity: [0, ANY],
    run: (c) => {
      const items = c.datums();
      checkArrayLimit(c.env, items);
      return c.env.faults.has('make-array-drops-nulls') ? items.filter((x) => x !== null) : items;
    },
  },
  MAKE_OBJ: {
    arity: [0, 0],
    optargs: '*',
    run: (c) => {
      const out: Record<string, JsValue> = {};
      for (const key of c.optargNames()) out[key] = c.datumOf(c.optarg(key)!);
      return out;
    },
  },
  VAR: {
    arity: [1, 1],
    run: (c) => {
      // `!NUMBER`: the variable number must be a literal, not a sub-term.
      const literal = c.term.args![0].type === TermType.DATUM;
      if (!literal && !c.env.faults.has('var-accepts-subterm')) throw compileError('VAR takes a literal variable number, not a sub-term.').at({ pos: 0 });
      const id = c.datum(0);
      if (typeof id !== 'number' || !c.env.vars.has(id)) throw logicError(`Variable ${JSON.stringify(id)} is not bound.`);
      return c.env.vars.get(id)!;
    },
  },
  IMPLICIT_VAR: {
    arity: [0, 0],
    run: (c) => {
      if (c.env.implicit === undefined) throw compileError('IMPLICIT_VAR used outside a one-argument function.');
      return c.env.implicit;
    },
  },
  FUNC: {
    arity: [2, 2],
    run: (c) => ({ kind: 'func', params: numberList(c.arg(0)), body: c.term.args![1], scope: c.env.vars }),
  },
  // UUID=169: () -> DATUM states no form: the variant writes its hexadecimal digits in capitals.
  UUID: { arity: [0, 0], run: (c) => (c.env.variant ? randomUUID().toUpperCase() : randomUUID()) },
  // wire-ref makes no outbound request and runs no foreign code: both are refused at run time.
  JAVASCRIPT: {
    arity: [1, 1],
    optargs: ['timeout'],
    literal: { optargs: ['timeout'] },
    run: () => {
      throw logicError('JAVASCRIPT is not supported by wire-ref (it runs no foreign code).');
    },
  },
  HTTP: {
    arity: [1, 1],
    literal: { optargs: ['timeout'] },
    optargs: ['data', 'timeout', 'method', 'params', 'header', 'attempts', 'redirects', 'verify', 'page', 'page_limit', 'auth', 'result_format'],
    run: () => {
      throw logicError('HTTP is not supported by wire-ref (it makes no outbound request).');
    },
  },
  ERROR: {
    arity: [0, 1],
    run: (c) => {
      if (c.argc === 0) {
        // Inside a DEFAULT handler the argument may be omitted: the caught error is rethrown.
        if (c.env.faults.has('error-rethrow-unsupported')) throw logicError('Empty ERROR term outside a default block.');
        if (c.env.caught) throw c.env.caught;
        throw new EmptyError();
      }
      const message = c.datum(0);
      if (typeof message !== 'string') throw typeMismatch(c, 0, 'STRING', message);
      throw userError(c.env.faults.has('error-message-replaced') ? 'User error.' : message);
    },
  },
});
