// Term catalogue of wire-protocol.md, group "Comparison and logic" (line 136).
import { term as t } from '../../src/clients/wire/terms.ts';
import { check } from '../../src/core/check.ts';
import type { WireConnection } from '../../src/clients/wire/connection.ts';
import type { WireCheckContext } from '../../src/core/check.ts';
import { CheckFailure } from '../../src/core/errors.ts';
import { messageOf, OWNER } from './controls.ts';
import { expectArityRefusedTyped, expectError, expectValue, ResponseType, summary } from './support.ts';

/**
 * The control of a short-circuit check: with the deciding argument the other way, the ERROR after
 * it is reached and raises. Without it a server whose ERROR raises nothing in that place would
 * pass the check whether the term stops early or not: the check ends inconclusive then.
 */
async function reachedErrorRaises(ctx: Pick<WireCheckContext, 'setup'>, conn: WireConnection, name: 'OR' | 'AND', first: boolean): Promise<void> {
  await ctx.setup(
    `positive control: ${name}(${first}, ERROR("reached")) evaluates the ERROR and raises it`,
    async () => {
      const res = await conn.start(t(name, [first, t('ERROR', ['reached'])]));
      if (res.type !== ResponseType.RUNTIME_ERROR || !messageOf(res).includes('reached')) throw new CheckFailure(`${name}(${first}, ERROR("reached")) should raise the ERROR's RUNTIME_ERROR, got ${summary(res)}`);
    },
    { seeAlso: OWNER.ERROR },
  );
}

const section = 'Term catalogue (TermType name = number: signature)';
const file = 'wire-protocol.md';
const line = 136;

export const arity = check(
  {
    id: 'wire.term-catalogue.comparison-and-logic.arity',
    title: 'NOT refuses argument counts other than one with COMPILE_ERROR',
    protocol: 'wire',
    section,
    level: 'MUST',
    spec: { file, line, quote: 'NOT=23: BOOL -> BOOL' },
    touches: ['term:DATUM', 'term:NOT'],
    faults: ['arity-unchecked-comparison-and-logic', 'extra-args-ignored'],
    terms: ['NOT'],
  },
  async (ctx) => {
    const conn = await ctx.wire.connect();
    // NOT(true, false), not NOT(1, 2): a NUMBER may be refused for its type alone (the variant's COMPILE_ERROR).
    await expectArityRefusedTyped(ctx, conn, { NOT: { valid: t('NOT', [true]), wrong: [[], [true, false]] } });
  },
);

export const comparisonsChain = check(
  {
    id: 'wire.term-catalogue.comparison-and-logic.comparisons-over-all-arguments',
    title: 'EQ, NE, LT, LE, GT and GE take any number of datums and compare all of them',
    protocol: 'wire',
    section,
    // The signature states any number of datums and a BOOL; what each comparison answers over them is read from its name.
    level: 'SHOULD',
    spec: { file, line, quote: 'EQ=17, NE=18, LT=19, LE=20, GT=21, GE=22 (each DATUM... -> BOOL)' },
    touches: ['term:DATUM', 'term:EQ', 'term:GE', 'term:GT', 'term:LE', 'term:LT', 'term:NE'],
    faults: ['comparison-first-pair-only'],
    terms: ['EQ', 'NE', 'LT', 'LE', 'GT', 'GE'],
  },
  async (ctx) => {
    const conn = await ctx.wire.connect();
    const cases: [string, number[], boolean][] = [
      ['EQ', [1, 1, 1], true],
      ['EQ', [1, 1, 2], false],
      ['NE', [1, 2], true],
      ['NE', [1, 1], false],
      ['LT', [1, 2, 3], true],
      ['LT', [1, 3, 2], false],
      ['LE', [1, 1, 0], false],
      ['GT', [3, 2, 2], false],
      ['GE', [3, 3, 4], false],
      ['GE', [3, 3, 2], true],
    ];
    for (const [name, args, expected] of cases) await expectValue(conn, t(name, args), expected, `${name}(${args.join(', ')})`);
  },
);

export const notTakesBool = check(
  {
    id: 'wire.term-catalogue.comparison-and-logic.not-takes-bool',
    title: 'NOT negates a BOOL and refuses a non-BOOL with COMPILE_ERROR or RUNTIME_ERROR',
    protocol: 'wire',
    section,
    // Negation is read from the name, the refusal of a non-BOOL from the signature. RethinkDB answers
    // NOT(5) false (truthiness): the real service differs here; the text is followed, at SHOULD.
    level: 'SHOULD',
    spec: { file, line, quote: 'NOT=23: BOOL -> BOOL' },
    touches: ['term:DATUM', 'term:NOT'],
    faults: ['not-truthiness'],
    terms: ['NOT'],
  },
  async (ctx) => {
    const conn = await ctx.wire.connect();
    await expectValue(conn, t('NOT', [true]), false, 'NOT(true)');
    await expectValue(conn, t('NOT', [false]), true, 'NOT(false)');
    // Line 49 files type checking under COMPILE_ERROR, line 50 run-time type failures under RUNTIME_ERROR: either answers NOT(5).
    const res = await expectError(conn, t('NOT', [5]), 'NOT(5), a NUMBER where a BOOL is expected');
    ctx.expect(res.type !== ResponseType.CLIENT_ERROR, `NOT(5) is no client bug: expected COMPILE_ERROR or RUNTIME_ERROR, got ${summary(res)}`);
  },
);

export const orShortCircuits = check(
  {
    id: 'wire.term-catalogue.comparison-and-logic.or-short-circuits',
    title: 'OR stops at the first true argument: a later ERROR is never evaluated',
    protocol: 'wire',
    section,
    level: 'MUST',
    spec: { file, line, quote: 'OR=66: BOOL... -> BOOL (short-circuits)' },
    touches: ['term:DATUM', 'term:ERROR', 'term:OR'],
    faults: ['or-no-short-circuit'],
    terms: ['OR', 'ERROR'],
  },
  async (ctx) => {
    const conn = await ctx.wire.connect();
    await reachedErrorRaises(ctx, conn, 'OR', false);
    await expectValue(conn, t('OR', [true, t('ERROR', ['must not run'])]), true, 'OR(true, ERROR("must not run")), which must stop at true without evaluating the ERROR,');
    await expectValue(conn, t('OR', [false, false]), false, 'OR(false, false)');
  },
);

export const andShortCircuits = check(
  {
    id: 'wire.term-catalogue.comparison-and-logic.and-short-circuits',
    title: 'AND stops at the first false argument: a later ERROR is never evaluated',
    protocol: 'wire',
    section,
    level: 'MUST',
    spec: { file, line, quote: 'AND=67: BOOL... -> BOOL (short-circuits)' },
    touches: ['term:AND', 'term:DATUM', 'term:ERROR'],
    faults: ['and-no-short-circuit'],
    terms: ['AND', 'ERROR'],
  },
  async (ctx) => {
    const conn = await ctx.wire.connect();
    await reachedErrorRaises(ctx, conn, 'AND', true);
    await expectValue(conn, t('AND', [false, t('ERROR', ['must not run'])]), false, 'AND(false, ERROR("must not run")), which must stop at false without evaluating the ERROR,');
    await expectValue(conn, t('AND', [true, true]), true, 'AND(true, true)');
  },
);

export const checks = [arity, comparisonsChain, notTakesBool, orShortCircuits, andShortCircuits];
