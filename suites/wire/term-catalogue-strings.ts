// Term catalogue of wire-protocol.md, group "Strings" (line 148).
import { term as t } from '../../src/clients/wire/terms.ts';
import { check } from '../../src/core/check.ts';
import { expectArityRefusedTyped, expectValue, show, valueOf } from './support.ts';

const section = 'Term catalogue (TermType name = number: signature)';
const file = 'wire-protocol.md';
const line = 148;

export const arity = check(
  {
    id: 'wire.term-catalogue.strings.arity',
    title: 'String terms refuse argument counts their signatures exclude with COMPILE_ERROR',
    protocol: 'wire',
    section,
    level: 'MUST',
    spec: { file, line, quote: 'MATCH=97: STRING, STRING -> DATUM; UPCASE=141, DOWNCASE=142: STRING -> STRING' },
    touches: ['term:DATUM', 'term:DOWNCASE', 'term:MATCH', 'term:RANDOM', 'term:SPLIT', 'term:UPCASE'],
    faults: ['arity-unchecked-strings', 'extra-args-ignored'],
    terms: ['MATCH', 'UPCASE', 'DOWNCASE', 'SPLIT', 'RANDOM'],
  },
  async (ctx) => {
    const conn = await ctx.wire.connect();
    // Extra arguments are of the type the signature wants (STRINGs): a literal of the wrong type
    // may be refused for its type alone (the variant's COMPILE_ERROR), which is not the count refused.
    await expectArityRefusedTyped(ctx, conn, {
      MATCH: { valid: t('MATCH', ['abc', 'b']), wrong: [['abc'], ['abc', 'b', 'c']] },
      UPCASE: { valid: t('UPCASE', ['a']), wrong: [[], ['a', 'b']] },
      DOWNCASE: { valid: t('DOWNCASE', ['A']), wrong: [[], ['A', 'B']] },
      SPLIT: { valid: t('SPLIT', ['a b']), wrong: [[], ['a b', ' ', 1, 2]] },
      RANDOM: { valid: t('RANDOM', [1, 2]), wrong: [[1, 2, 3]] },
    });
  },
);

export const splitOnWhitespace = check(
  {
    id: 'wire.term-catalogue.strings.split-without-separator',
    title: 'SPLIT without a separator (or with NULL) splits on whitespace',
    protocol: 'wire',
    section,
    level: 'MUST',
    spec: { file, line, quote: 'no separator splits on whitespace' },
    touches: ['term:DATUM', 'term:SPLIT'],
    faults: ['split-default-single-space'],
    terms: ['SPLIT'],
  },
  async (ctx) => {
    const conn = await ctx.wire.connect();
    await expectValue(conn, t('SPLIT', ['a  b\tc\nd']), ['a', 'b', 'c', 'd'], 'SPLIT("a  b\\tc\\nd")');
    await expectValue(conn, t('SPLIT', ['a  b\tc', null]), ['a', 'b', 'c'], 'SPLIT("a  b\\tc", null)');
    // With a separator the pieces are cut at it, not at whitespace; whether an empty piece between two
    // separators is kept is not stated (RethinkDB keeps it, docs/open-choices.md): none arises here.
    await expectValue(conn, t('SPLIT', ['a,b c', ',']), ['a', 'b c'], 'SPLIT("a,b c", ",")');
  },
);

export const splitLimit = check(
  {
    id: 'wire.term-catalogue.strings.split-number-limits',
    title: 'SPLIT with a number gives fewer pieces than without it',
    protocol: 'wire',
    section,
    level: 'MUST',
    spec: { file, line, quote: 'a number limits results' },
    touches: ['term:DATUM', 'term:SPLIT'],
    faults: ['split-ignores-limit'],
    terms: ['SPLIT'],
  },
  async (ctx) => {
    const conn = await ctx.wire.connect();
    const all = await valueOf(conn, t('SPLIT', ['a,b,c,d', ',']), 'SPLIT("a,b,c,d", ",")');
    const limited = await valueOf(conn, t('SPLIT', ['a,b,c,d', ',', 1]), 'SPLIT("a,b,c,d", ",", 1)');
    ctx.expect(Array.isArray(limited) && Array.isArray(all) && limited.length < all.length, `SPLIT("a,b,c,d", ",", 1) should be limited below the ${show(all)} of no limit, got ${show(limited)}`);
    const ws = await valueOf(conn, t('SPLIT', ['a b c d', null, 2]), 'SPLIT("a b c d", null, 2)');
    ctx.expect(Array.isArray(ws) && ws.length < 4, `SPLIT("a b c d", null, 2) should give fewer than 4 pieces, got ${show(ws)}`);
  },
);

export const matchAndCase = check(
  {
    id: 'wire.term-catalogue.strings.match-and-case',
    title: 'MATCH answers a datum, also when nothing matches; UPCASE and DOWNCASE answer STRINGs',
    protocol: 'wire',
    section,
    // The signatures give only the kinds answered; which STRING UPCASE and DOWNCASE answer is read from their names.
    level: 'SHOULD',
    spec: { file, line, quote: 'MATCH=97: STRING, STRING -> DATUM; UPCASE=141, DOWNCASE=142: STRING -> STRING' },
    touches: ['term:DATUM', 'term:DOWNCASE', 'term:MATCH', 'term:UPCASE'],
    faults: ['match-no-match-error'],
    terms: ['MATCH', 'UPCASE', 'DOWNCASE'],
  },
  async (ctx) => {
    const conn = await ctx.wire.connect();
    const hit = await valueOf(conn, t('MATCH', ['hello world', 'o w']), 'MATCH("hello world", "o w")');
    ctx.expect(hit !== null, `MATCH("hello world", "o w") should answer a datum describing the match, got ${show(hit)}`);
    // STRING, STRING -> DATUM: which datum stands for "no match" is not stated, only that one is answered.
    await valueOf(conn, t('MATCH', ['hello', 'xyz']), 'MATCH("hello", "xyz"), no match,');
    await expectValue(conn, t('UPCASE', ['aBc']), 'ABC', 'UPCASE("aBc")');
    await expectValue(conn, t('DOWNCASE', ['aBc']), 'abc', 'DOWNCASE("aBc")');
  },
);

export const randomFloat = check(
  {
    id: 'wire.term-catalogue.strings.random-float',
    title: 'RANDOM with float: true answers numbers between its bounds that need not be integers',
    protocol: 'wire',
    section,
    level: 'SHOULD',
    spec: { file, line, quote: 'RANDOM=151: NUMBER, NUMBER {float:BOOL} -> DATUM' },
    touches: ['term:DATUM', 'term:MAKE_ARRAY', 'term:RANDOM'],
    faults: ['random-float-ignored'],
    terms: ['RANDOM'],
  },
  async (ctx) => {
    const conn = await ctx.wire.connect();
    const draws = await valueOf(conn, t('MAKE_ARRAY', Array.from({ length: 16 }, () => t('RANDOM', [1, 2], { float: true }))), '16 draws of RANDOM(1, 2, {float: true})');
    const ok = Array.isArray(draws) && draws.every((x) => typeof x === 'number' && x >= 1 && x <= 2);
    ctx.expect(ok, `RANDOM(1, 2, {float: true}) should answer numbers in [1, 2], got ${show(draws)}`);
    ctx.expect((draws as number[]).some((x) => !Number.isInteger(x)), `16 draws of RANDOM(1, 2, {float: true}) were all integers: ${show(draws)}`);
  },
);

export const checks = [arity, splitOnWhitespace, splitLimit, matchAndCase, randomFloat];
