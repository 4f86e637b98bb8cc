// "Arithmetic" and bitwise terms.
import type { JsValue } from '../../../../src/clients/wire/codec.ts';
import { typeMismatch } from '../args.ts';
import { compileError, logicError } from '../errors.ts';
import { defineTerms, type Call } from '../evaluate.ts';

function num(c: Call, i: number, v: JsValue = c.datum(i)): number {
  if (typeof v === 'number') return v;
  // The lenient-add fault's bug: a boolean slips through as 0/1.
  if (typeof v === 'boolean' && c.env.faults.has('lenient-add') && c.name === 'ADD') return v ? 1 : 0;
  throw typeMismatch(c, i, 'NUMBER', v);
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
          if (typeof v !== 'string') throw typeMismatch(c, i, 'STRING', v);
          return acc + v;
        }, first);
      }
      if (Array.isArray(first) && !c.env.faults.has('add-arrays-refused')) {
        const out = [...first];
        for (let i = 1; i < c.argc; i++) {
          const v = c.datum(i);
          if (!Array.isArray(v)) throw typeMismatch(c, i, 'ARRAY', v);
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
  DIV: {
    arity: [1, Infinity],
    run: (c) => {
      let acc = num(c, 0);
      for (let i = 1; i < c.argc; i++) {
        const b = num(c, i);
        if (b === 0) throw logicError('Cannot divide by zero.').at({ pos: i });
        acc = c.env.faults.has('div-truncates') ? Math.trunc(acc / b) : acc / b;
      }
      return acc;
    },
  },
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

/** The catalogue names the bitwise terms without signatures; wire-ref applies them to integers. */
function bitwise(op: (a: number, b: number) => number, arity: readonly [number, number] = [2, Infinity]) {
  return {
    arity,
    run: (c: Call) => {
      if (c.env.faults.has('bitwise-unsupported')) throw compileError(`${c.name} is not supported by this server.`);
      let acc = num(c, 0);
      for (let i = 1; i < c.argc; i++) acc = op(acc, num(c, i));
      return acc;
    },
  };
}

defineTerms({
  BIT_AND: bitwise((a, b) => a & b),
  BIT_OR: bitwise((a, b) => a | b),
  BIT_XOR: bitwise((a, b) => a ^ b),
  BIT_NOT: {
    arity: [1, 1],
    run: (c: Call) => {
      if (c.env.faults.has('bitwise-unsupported')) throw compileError(`${c.name} is not supported by this server.`);
      return ~num(c, 0);
    },
  },
  BIT_SAL: bitwise((a, b) => a << b, [2, 2]),
  BIT_SAR: bitwise((a, b) => a >> b, [2, 2]),
});
