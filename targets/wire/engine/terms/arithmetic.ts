// "Arithmetic" terms.
import type { JsValue } from '../../../../src/clients/wire/codec.ts';
import { logicError } from '../errors.ts';
import { defineTerms, type Call } from '../evaluate.ts';
import { typeName } from '../values.ts';

function num(c: Call, i: number, v: JsValue = c.datum(i)): number {
  if (typeof v === 'number') return v;
  // The lenient-add fault's bug: a boolean slips through as 0/1.
  if (typeof v === 'boolean' && c.env.faults.has('lenient-add') && c.name === 'ADD') return v ? 1 : 0;
  throw logicError(`Expected type NUMBER but found ${typeName(v)}.`).at({ pos: i });
}

function fold(op: (a: number, b: number) => number, check?: (b: number) => void) {
  return {
    arity: [1, Infinity] as const,
    run: (c: Call) => {
      let acc = num(c, 0);
      for (let i = 1; i < c.argc; i++) {
        const b = num(c, i);
        check?.(b);
        acc = op(acc, b);
      }
      return acc;
    },
  };
}

defineTerms({
  ADD: {
    arity: [1, Infinity],
    run: (c) => {
      const first = c.datum(0);
      if (typeof first === 'string') {
        return c.datums().reduce<string>((acc, v, i) => {
          if (i === 0) return acc;
          if (typeof v !== 'string') throw logicError(`Expected type STRING but found ${typeName(v)}.`).at({ pos: i });
          return acc + v;
        }, first);
      }
      if (Array.isArray(first)) {
        const out = [...first];
        for (let i = 1; i < c.argc; i++) {
          const v = c.datum(i);
          if (!Array.isArray(v)) throw logicError(`Expected type ARRAY but found ${typeName(v)}.`).at({ pos: i });
          out.push(...v);
        }
        return out;
      }
      let acc = num(c, 0, first);
      for (let i = 1; i < c.argc; i++) acc += num(c, i);
      return acc;
    },
  },
  SUB: fold((a, b) => a - b),
  MUL: fold((a, b) => a * b),
  DIV: fold(
    (a, b) => a / b,
    (b) => {
      if (b === 0) throw logicError('Cannot divide by zero.');
    },
  ),
  MOD: {
    arity: [2, 2],
    run: (c) => {
      const a = num(c, 0);
      const b = num(c, 1);
      if (b === 0) throw logicError('Cannot take a number modulo 0.');
      return a % b;
    },
  },
  FLOOR: { arity: [1, 1], run: (c) => Math.floor(num(c, 0)) },
  CEIL: { arity: [1, 1], run: (c) => Math.ceil(num(c, 0)) },
  ROUND: { arity: [1, 1], run: (c) => Math.sign(num(c, 0)) * Math.round(Math.abs(num(c, 0))) },
});
