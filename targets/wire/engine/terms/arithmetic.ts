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

/**
 * The catalogue names the bitwise terms without signatures; wire-ref follows RethinkDB
 * (src/rdb_protocol/terms/arith.cc): 64-bit integer operations on integers in [-2^53, 2^53),
 * shifts by a non-negative count, BIT_SAL as multiplication by a power of two.
 */
const MIN_DBL_INT = -(2 ** 53);
const MAX_DBL_INT = 2 ** 53;

/** RethinkDB's checked_convert_to_int: an integer a double holds exactly. */
function integer(c: Call, i: number): bigint {
  const n = num(c, i);
  if (!Number.isInteger(n) || n < MIN_DBL_INT || n > MAX_DBL_INT) {
    const why = n < MIN_DBL_INT ? ' (<-2^53)' : n > MAX_DBL_INT ? ' (>2^53)' : '';
    throw logicError(`Number not an integer${why}: ${n}`).at({ pos: i });
  }
  return BigInt(n);
}

/** RethinkDB's bit_arith_ranged_int: the operands of bitwise operations lie in [-2^53, 2^53). */
function ranged(c: Call, i: number): bigint {
  const n = integer(c, i);
  if (n >= BigInt(MAX_DBL_INT)) throw logicError(`Integer too large: ${n}`).at({ pos: i });
  return n;
}

function unsupported(c: Call): void {
  if (c.env.faults.has('bitwise-unsupported')) throw compileError(`${c.name} is not supported by this server.`);
}

function bitwise(op: (a: bigint, b: bigint) => bigint) {
  return {
    arity: [2, Infinity] as const,
    run: (c: Call) => {
      unsupported(c);
      let acc = ranged(c, 0);
      for (let i = 1; i < c.argc; i++) acc = op(acc, ranged(c, i));
      return Number(BigInt.asIntN(64, acc));
    },
  };
}

function shift(op: (a: bigint, by: number) => number) {
  return {
    arity: [2, 2] as const,
    run: (c: Call) => {
      unsupported(c);
      const a = ranged(c, 0);
      const by = integer(c, 1);
      if (by < 0n) throw logicError('Cannot bit-shift by a negative value');
      return op(a, Number(by));
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
      unsupported(c);
      return Number(~ranged(c, 0));
    },
  },
  // ldexp: the double a * 2^by (Infinity past the double range, refused when answered).
  BIT_SAL: shift((a, by) => (a === 0n ? 0 : Number(a) * 2 ** by)),
  BIT_SAR: shift((a, by) => Number(by > 63 ? (a < 0n ? -1n : 0n) : a >> BigInt(by))),
});
