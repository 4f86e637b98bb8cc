// Term catalogue of wire-protocol.md, group "Strings" (line 148).
import { term as t } from '../../src/clients/wire/terms.ts';
import { check } from '../../src/core/check.ts';
import { arityNotRefused, expectValue, show, valueOf } from './support.ts';

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
    faults: ['arity-unchecked-strings'],
    terms: ['MATCH', 'UPCASE', 'DOWNCASE', 'SPLIT', 'RANDOM'],
  },
  async (ctx) => {
    const conn = await ctx.wire.connect();
    const wrong = await arityNotRefused(conn, { MATCH: [1, 3], UPCASE: [0, 2], DOWNCASE: [0, 2], SPLIT: [0, 4], RANDOM: [3] });
    ctx.expect(wrong.length === 0, `wrong argument counts should be COMPILE_ERRORs: ${wrong.join('; ')}`);
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
    faults: ['split-default-single-space'],
    terms: ['SPLIT'],
  },
  async (ctx) => {
    const conn = await ctx.wire.connect();
    await expectValue(conn, t('SPLIT', ['a  b\tc\nd']), ['a', 'b', 'c', 'd'], 'SPLIT("a  b\\tc\\nd")');
    await expectValue(conn, t('SPLIT', ['a  b\tc', null]), ['a', 'b', 'c'], 'SPLIT("a  b\\tc", null)');
    await expectValue(conn, t('SPLIT', ['a,b,,c', ',']), ['a', 'b', '', 'c'], 'SPLIT("a,b,,c", ",")');
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

export const checks = [arity, splitOnWhitespace, splitLimit];
