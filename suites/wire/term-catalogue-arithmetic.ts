// Term catalogue of wire-protocol.md, group "Arithmetic" and the bitwise terms (line 138).
import { ResponseType } from '../../src/clients/wire/schema.ts';
import { term as t } from '../../src/clients/wire/terms.ts';
import { check } from '../../src/core/check.ts';
import { expectArityRefused, expectValue, perTerm, show, summary } from './support.ts';

const section = 'Term catalogue (TermType name = number: signature)';
const file = 'wire-protocol.md';
const line = 138;

export const arity = check(
  {
    id: 'wire.term-catalogue.arithmetic.arity',
    title: 'MOD, FLOOR, CEIL and ROUND refuse argument counts their signatures exclude with COMPILE_ERROR',
    protocol: 'wire',
    section,
    level: 'MUST',
    spec: { file, line, quote: 'MOD=28: NUMBER, NUMBER -> NUMBER; FLOOR=183, CEIL=184, ROUND=185 (NUMBER -> NUMBER)' },
    touches: ['term:CEIL', 'term:DATUM', 'term:FLOOR', 'term:MOD', 'term:ROUND'],
    faults: ['arity-unchecked-arithmetic', 'extra-args-ignored'],
    terms: ['MOD', 'FLOOR', 'CEIL', 'ROUND'],
  },
  async (ctx) => {
    const conn = await ctx.wire.connect();
    await expectArityRefused(ctx, conn, {
      MOD: { valid: t('MOD', [7, 3]), wrong: [1, 3] },
      FLOOR: { valid: t('FLOOR', [1.5]), wrong: [0, 2] },
      CEIL: { valid: t('CEIL', [1.5]), wrong: [0, 2] },
      ROUND: { valid: t('ROUND', [1.5]), wrong: [0, 2] },
    });
  },
);

export const addConcatenates = check(
  {
    id: 'wire.term-catalogue.arithmetic.add-concatenates',
    title: 'ADD sums numbers, concatenates strings, and concatenates arrays',
    protocol: 'wire',
    section,
    level: 'MUST',
    spec: { file, line, quote: 'ADD=24: NUMBER... -> NUMBER | STRING... -> STRING (also concatenates arrays)' },
    touches: ['term:ADD', 'term:DATUM'],
    faults: ['add-arrays-refused'],
    terms: ['ADD'],
  },
  async (ctx) => {
    const conn = await ctx.wire.connect();
    await expectValue(conn, t('ADD', [1, 2, 3.5]), 6.5, 'ADD(1, 2, 3.5)');
    await expectValue(conn, t('ADD', ['ab', 'c', 'd']), 'abcd', 'ADD("ab", "c", "d")');
    await expectValue(conn, t('ADD', [[1], [2, 3], []]), [1, 2, 3], 'ADD([1], [2, 3], [])');
  },
);

export const numberResults = check(
  {
    id: 'wire.term-catalogue.arithmetic.number-results',
    title: 'SUB, MUL, DIV, MOD, FLOOR, CEIL and ROUND compute numbers (DIV not truncated)',
    protocol: 'wire',
    section,
    level: 'SHOULD',
    spec: { file, line, quote: 'SUB=25, MUL=26, DIV=27 (NUMBER... -> NUMBER)' },
    touches: ['term:CEIL', 'term:DATUM', 'term:DIV', 'term:FLOOR', 'term:MOD', 'term:MUL', 'term:ROUND', 'term:SUB'],
    faults: ['div-truncates'],
    terms: ['SUB', 'MUL', 'DIV', 'MOD', 'FLOOR', 'CEIL', 'ROUND'],
  },
  async (ctx) => {
    const conn = await ctx.wire.connect();
    const cases: [string, number[], number][] = [
      ['SUB', [10, 3, 2], 5],
      ['MUL', [2, 3, 4], 24],
      ['DIV', [7, 2], 3.5],
      ['DIV', [24, 2, 3], 4],
      ['MOD', [7, 3], 1],
      ['FLOOR', [2.5], 2],
      ['CEIL', [2.5], 3],
      ['ROUND', [2.4], 2],
      ['ROUND', [2.6], 3],
    ];
    // Term by term: a server without FLOOR still has SUB, MUL, DIV and MOD tested.
    const byTerm: Record<string, () => Promise<void>> = {};
    for (const name of new Set(cases.map(([n]) => n))) {
      byTerm[name] = async () => {
        for (const [, args, expected] of cases.filter(([n]) => n === name)) await expectValue(conn, t(name, args), expected, `${name}(${args.join(', ')})`);
      };
    }
    await perTerm(ctx, byTerm);
  },
);

export const bitwiseAccepted = check(
  {
    id: 'wire.term-catalogue.arithmetic.bitwise-terms-accepted',
    title: 'The bitwise term numbers are accepted (their signatures are not given, so nothing more is asserted)',
    protocol: 'wire',
    section,
    level: 'MUST',
    spec: { file, line, quote: 'Bitwise: BIT_AND=191, BIT_OR=192, BIT_XOR=193, BIT_NOT=194, BIT_SAL=195, BIT_SAR=196 (signatures not given)' },
    touches: ['term:BIT_AND', 'term:BIT_NOT', 'term:BIT_OR', 'term:BIT_SAL', 'term:BIT_SAR', 'term:BIT_XOR', 'term:DATUM'],
    faults: ['bitwise-unsupported'],
    keptBy: { acceptAll: 'the rule is only that the term numbers are accepted (the signatures are not given, so no value is asserted): a server answering every query with a success does accept them' },
    terms: ['BIT_AND', 'BIT_OR', 'BIT_XOR', 'BIT_NOT', 'BIT_SAL', 'BIT_SAR'],
  },
  async (ctx) => {
    const conn = await ctx.wire.connect();
    const calls: [string, number[]][] = [['BIT_AND', [12, 10]], ['BIT_OR', [12, 10]], ['BIT_XOR', [12, 10]], ['BIT_NOT', [5]], ['BIT_SAL', [1, 2]], ['BIT_SAR', [8, 1]]];
    const refused: string[] = [];
    const unseen: string[] = [];
    const answered: number[] = [ResponseType.SUCCESS_ATOM, ResponseType.SUCCESS_SEQUENCE, ResponseType.SUCCESS_PARTIAL];
    for (const [name, args] of calls) {
      const res = await conn.start(t(name, args));
      if (res.type === ResponseType.COMPILE_ERROR) refused.push(`${name}(${args.join(', ')}) (${summary(res)}: ${res.response[0]?.r_str ?? ''})`);
      // Only an answer shows acceptance; a RUNTIME_ERROR (or a response without a type) may as well mean "unknown term".
      else if (!answered.includes(res.type!)) unseen.push(`${name}(${args.join(', ')}): ${summary(res)} ${show(res.response[0]?.r_str ?? '')}`);
    }
    ctx.expect(refused.length === 0, `catalogue term numbers should be accepted, refused: ${refused.join('; ')}`);
    if (unseen.length) ctx.inconclusive(`acceptance not seen: no answer but an error for ${unseen.join('; ')}`);
  },
);

export const checks = [arity, addConcatenates, numberResults, bitwiseAccepted];
