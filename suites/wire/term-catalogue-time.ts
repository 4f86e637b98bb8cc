// Term catalogue of wire-protocol.md, group "Time" (line 156).
import type { JsValue } from '../../src/clients/wire/codec.ts';
import { term as t, type Term } from '../../src/clients/wire/terms.ts';
import { check } from '../../src/core/check.ts';
import { deepEqual, expectArityRefused, expectValue, show, valueOf } from './support.ts';

const section = 'Term catalogue (TermType name = number: signature)';
const file = 'wire-protocol.md';
const line = 156;

const epoch = (x: Term) => t('TO_EPOCH_TIME', [x]);

export const arity = check(
  {
    id: 'wire.term-catalogue.time.arity',
    title: 'Time terms refuse argument counts their signatures exclude with COMPILE_ERROR',
    protocol: 'wire',
    section,
    level: 'MUST',
    spec: { file, line, quote: 'IN_TIMEZONE=104: TIME, STRING -> TIME; DURING=105: TIME, TIME, TIME -> BOOL' },
    touches: ['term:DATE', 'term:DATUM', 'term:DAY', 'term:DAY_OF_WEEK', 'term:DAY_OF_YEAR', 'term:DURING', 'term:EPOCH_TIME', 'term:HOURS', 'term:IN_TIMEZONE', 'term:ISO8601', 'term:MINUTES', 'term:MONTH', 'term:NOW', 'term:SECONDS', 'term:TIME', 'term:TIMEZONE', 'term:TIME_OF_DAY', 'term:YEAR'],
    faults: ['arity-unchecked-time'],
    terms: ['ISO8601', 'EPOCH_TIME', 'NOW', 'IN_TIMEZONE', 'DURING', 'DATE', 'TIME_OF_DAY', 'TIMEZONE', 'YEAR', 'MONTH', 'DAY', 'DAY_OF_WEEK', 'DAY_OF_YEAR', 'HOURS', 'MINUTES', 'SECONDS', 'TIME'],
  },
  async (ctx) => {
    const conn = await ctx.wire.connect();
    const one = [0, 2];
    const at = t('EPOCH_TIME', [0]);
    await expectArityRefused(ctx, conn, {
      ISO8601: { valid: t('ISO8601', ['2020-01-02T03:04:05Z']), wrong: one },
      EPOCH_TIME: { valid: at, wrong: one },
      NOW: { valid: t('NOW'), wrong: [1] },
      IN_TIMEZONE: { valid: t('IN_TIMEZONE', [at, '+02:00']), wrong: [1, 3] },
      DURING: { valid: t('DURING', [at, at, t('EPOCH_TIME', [1])]), wrong: [2, 4] },
      DATE: { valid: t('DATE', [at]), wrong: one },
      TIME_OF_DAY: { valid: t('TIME_OF_DAY', [at]), wrong: one },
      TIMEZONE: { valid: t('TIMEZONE', [at]), wrong: one },
      YEAR: { valid: t('YEAR', [at]), wrong: one },
      MONTH: { valid: t('MONTH', [at]), wrong: one },
      DAY: { valid: t('DAY', [at]), wrong: one },
      DAY_OF_WEEK: { valid: t('DAY_OF_WEEK', [at]), wrong: one },
      DAY_OF_YEAR: { valid: t('DAY_OF_YEAR', [at]), wrong: one },
      HOURS: { valid: t('HOURS', [at]), wrong: one },
      MINUTES: { valid: t('MINUTES', [at]), wrong: one },
      SECONDS: { valid: t('SECONDS', [at]), wrong: one },
      TIME: { valid: t('TIME', [2020, 1, 2, 'Z']), wrong: [3, 8] },
    });
  },
);

export const epochTime = check(
  {
    id: 'wire.term-catalogue.time.epoch-time-seconds-utc',
    title: 'EPOCH_TIME reads seconds since the epoch (UTC); TO_EPOCH_TIME, TO_ISO8601 and the parts of a time agree',
    protocol: 'wire',
    section,
    level: 'MUST',
    spec: { file, line, quote: 'EPOCH_TIME=101: NUMBER (seconds since epoch UTC) -> TIME' },
    touches: ['term:DATUM', 'term:DAY', 'term:DAY_OF_YEAR', 'term:EPOCH_TIME', 'term:HOURS', 'term:ISO8601', 'term:MAKE_ARRAY', 'term:MINUTES', 'term:MONTH', 'term:SECONDS', 'term:TIMEZONE', 'term:TO_EPOCH_TIME', 'term:TO_ISO8601', 'term:YEAR'],
    faults: ['epoch-time-milliseconds'],
    terms: ['EPOCH_TIME', 'TO_EPOCH_TIME', 'TO_ISO8601', 'ISO8601', 'YEAR', 'MONTH', 'DAY', 'DAY_OF_YEAR', 'HOURS', 'MINUTES', 'SECONDS', 'TIMEZONE'],
  },
  async (ctx) => {
    const conn = await ctx.wire.connect();
    // 2001-02-03T04:05:06Z
    const time = t('EPOCH_TIME', [981173106]);
    await expectValue(conn, epoch(time), 981173106, 'TO_EPOCH_TIME(EPOCH_TIME(981173106))');
    const parts = await valueOf(conn, t('MAKE_ARRAY', ['YEAR', 'MONTH', 'DAY', 'DAY_OF_YEAR', 'HOURS', 'MINUTES', 'SECONDS'].map((p) => t(p, [time]))), 'the parts of EPOCH_TIME(981173106)');
    ctx.expect(deepEqual(parts, [2001, 2, 3, 34, 4, 5, 6]), `EPOCH_TIME(981173106) is 2001-02-03T04:05:06Z: [YEAR, MONTH, DAY, DAY_OF_YEAR, HOURS, MINUTES, SECONDS] should be [2001,2,3,34,4,5,6], got ${show(parts)}`);
    const iso = await valueOf(conn, t('TO_ISO8601', [time]), 'TO_ISO8601(EPOCH_TIME(981173106))');
    ctx.expect(typeof iso === 'string' && iso.startsWith('2001-02-03T04:05:06'), `TO_ISO8601 should give 2001-02-03T04:05:06..., got ${show(iso)}`);
    await expectValue(conn, epoch(t('ISO8601', ['2001-02-03T04:05:06Z'])), 981173106, 'TO_EPOCH_TIME(ISO8601("2001-02-03T04:05:06Z"))');
    const tz = await valueOf(conn, t('TIMEZONE', [time]), 'TIMEZONE(EPOCH_TIME(981173106))');
    ctx.expect(typeof tz === 'string', `TIMEZONE should answer a STRING, got ${show(tz)}`);
  },
);

export const nowIsReceiptTime = check(
  {
    id: 'wire.term-catalogue.time.now-one-time-per-query',
    title: 'NOW is the time the server received the query: every NOW of one query is the same time',
    protocol: 'wire',
    section,
    level: 'MUST',
    spec: { file, line, quote: 'NOW=103: -> TIME (time the server received the query)' },
    touches: ['term:COUNT', 'term:DATUM', 'term:MAKE_ARRAY', 'term:NOW', 'term:RANGE', 'term:TO_EPOCH_TIME'],
    faults: ['now-per-evaluation'],
    terms: ['NOW'],
  },
  async (ctx) => {
    const conn = await ctx.wire.connect();
    const got = await valueOf(conn, t('MAKE_ARRAY', [epoch(t('NOW', [])), t('COUNT', [t('RANGE', [20000])]), epoch(t('NOW', []))]), 'MAKE_ARRAY(NOW(), COUNT(RANGE(20000)), NOW())');
    // The rule is read from the two times: without both (as numbers) nothing was observed.
    if (!Array.isArray(got) || got.length !== 3 || typeof got[0] !== 'number' || typeof got[2] !== 'number') {
      ctx.inconclusive(`MAKE_ARRAY(TO_EPOCH_TIME(NOW()), ..., TO_EPOCH_TIME(NOW())) should hold three items, two of them NUMBERs, got ${show(got)}: the two times were not seen`);
    }
    ctx.expect((got as JsValue[])[0] === (got as JsValue[])[2], `both NOWs of one query should be the receipt time, got ${show(got)}`);
  },
);

export const inTimezone = check(
  {
    id: 'wire.term-catalogue.time.in-timezone-same-instant',
    title: 'IN_TIMEZONE keeps the instant and changes the time zone its parts are read in',
    protocol: 'wire',
    section,
    // Line 156 gives only TIME, STRING -> TIME: keeping the instant is read from the term's name.
    level: 'SHOULD',
    spec: { file, line, quote: 'IN_TIMEZONE=104: TIME, STRING -> TIME' },
    touches: ['term:DATUM', 'term:EPOCH_TIME', 'term:HOURS', 'term:IN_TIMEZONE', 'term:TIMEZONE', 'term:TO_EPOCH_TIME'],
    faults: ['in-timezone-shifts-instant'],
    terms: ['IN_TIMEZONE', 'HOURS', 'TIMEZONE'],
  },
  async (ctx) => {
    const conn = await ctx.wire.connect();
    const moved = t('IN_TIMEZONE', [t('EPOCH_TIME', [0]), '+02:00']);
    await expectValue(conn, epoch(moved), 0, 'TO_EPOCH_TIME(IN_TIMEZONE(EPOCH_TIME(0), "+02:00"))');
    await expectValue(conn, t('HOURS', [moved]), 2, 'HOURS(IN_TIMEZONE(EPOCH_TIME(0), "+02:00"))');
    await expectValue(conn, t('TIMEZONE', [moved]), '+02:00', 'TIMEZONE(IN_TIMEZONE(EPOCH_TIME(0), "+02:00"))');
  },
);

export const duringHalfOpen = check(
  {
    id: 'wire.term-catalogue.time.during-half-open',
    title: 'DURING(a, b, c) is true for b <= a < c: a time before the start is not in the range, the start is, the end is not',
    protocol: 'wire',
    section,
    level: 'MUST',
    spec: { file, line, quote: 'DURING=105: TIME, TIME, TIME -> BOOL (range [b, c))' },
    touches: ['term:DATUM', 'term:DURING', 'term:EPOCH_TIME'],
    faults: ['during-closed-right', 'during-open-left'],
    terms: ['DURING'],
  },
  async (ctx) => {
    const conn = await ctx.wire.connect();
    const [before, b, mid, c] = [50, 100, 150, 200].map((s) => t('EPOCH_TIME', [s]));
    // Both sides of [b, c): a time before it, its start, inside it, its end.
    await expectValue(conn, t('DURING', [before, b, c]), false, 'DURING(a time before b, b, c)');
    await expectValue(conn, t('DURING', [b, b, c]), true, 'DURING(b, b, c), the start');
    await expectValue(conn, t('DURING', [mid, b, c]), true, 'DURING(mid, b, c)');
    await expectValue(conn, t('DURING', [c, b, c]), false, 'DURING(c, b, c), the end');
  },
);

export const dateAndTimeOfDay = check(
  {
    id: 'wire.term-catalogue.time.date-and-time-of-day',
    title: 'DATE is midnight of the day in the time\'s own time zone; TIME_OF_DAY the seconds since that midnight; TIME builds a time',
    protocol: 'wire',
    section,
    level: 'SHOULD',
    spec: { file, line, quote: 'DATE=106: TIME -> TIME; TIME_OF_DAY=126: TIME -> NUMBER' },
    touches: ['term:DATE', 'term:DATUM', 'term:DAY', 'term:HOURS', 'term:MAKE_ARRAY', 'term:TIME', 'term:TIME_OF_DAY', 'term:TO_EPOCH_TIME'],
    faults: ['date-in-utc'],
    terms: ['DATE', 'TIME_OF_DAY', 'TIME', 'HOURS', 'DAY'],
  },
  async (ctx) => {
    const conn = await ctx.wire.connect();
    // 23:30 on 6 May 2020 at +02:00, which is 21:30 UTC of the same day.
    const late = t('TIME', [2020, 5, 6, 23, 30, 0, '+02:00']);
    await expectValue(conn, t('TIME_OF_DAY', [late]), 84600, 'TIME_OF_DAY(TIME(2020, 5, 6, 23, 30, 0, "+02:00"))');
    await expectValue(conn, t('MAKE_ARRAY', [t('DAY', [t('DATE', [late])]), t('HOURS', [t('DATE', [late])])]), [6, 0], '[DAY, HOURS] of DATE(TIME(2020, 5, 6, 23, 30, 0, "+02:00"))');
    await expectValue(conn, epoch(t('TIME', [2020, 5, 6, 'Z'])), 1588723200, 'TO_EPOCH_TIME(TIME(2020, 5, 6, "Z"))');
  },
);

const WEEKDAYS = ['MONDAY', 'TUESDAY', 'WEDNESDAY', 'THURSDAY', 'FRIDAY', 'SATURDAY', 'SUNDAY'];
const MONTHS = ['JANUARY', 'FEBRUARY', 'MARCH', 'APRIL', 'MAY', 'JUNE', 'JULY', 'AUGUST', 'SEPTEMBER', 'OCTOBER', 'NOVEMBER', 'DECEMBER'];

export const constants = check(
  {
    id: 'wire.term-catalogue.time.weekday-and-month-constants',
    title: 'MONDAY..SUNDAY are 1..7 and JANUARY..DECEMBER are 1..12, as DAY_OF_WEEK and MONTH count',
    protocol: 'wire',
    section,
    level: 'MUST',
    spec: { file, line, quote: 'Constants: MONDAY=107 .. SUNDAY=113 (values 1..7); JANUARY=114 .. DECEMBER=125 (values 1..12)' },
    touches: ['term:APRIL', 'term:AUGUST', 'term:DATUM', 'term:DAY_OF_WEEK', 'term:DECEMBER', 'term:EQ', 'term:FEBRUARY', 'term:FRIDAY', 'term:JANUARY', 'term:JULY', 'term:JUNE', 'term:MAKE_ARRAY', 'term:MARCH', 'term:MAY', 'term:MONDAY', 'term:MONTH', 'term:NOVEMBER', 'term:OCTOBER', 'term:SATURDAY', 'term:SEPTEMBER', 'term:SUNDAY', 'term:THURSDAY', 'term:TIME', 'term:TUESDAY', 'term:WEDNESDAY'],
    faults: ['weekday-constants-zero-based'],
    terms: [...WEEKDAYS, ...MONTHS, 'DAY_OF_WEEK', 'MONTH'],
  },
  async (ctx) => {
    const conn = await ctx.wire.connect();
    await expectValue(conn, t('MAKE_ARRAY', WEEKDAYS.map((d) => t(d, []))), [1, 2, 3, 4, 5, 6, 7], 'MAKE_ARRAY(MONDAY(), ..., SUNDAY())');
    await expectValue(conn, t('MAKE_ARRAY', MONTHS.map((m) => t(m, []))), [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12], 'MAKE_ARRAY(JANUARY(), ..., DECEMBER())');
    // 1 January 2024 was a Monday.
    await expectValue(conn, t('EQ', [t('DAY_OF_WEEK', [t('TIME', [2024, 1, 1, 'Z'])]), t('MONDAY', [])]), true, 'DAY_OF_WEEK(TIME(2024, 1, 1, "Z")) == MONDAY()');
    await expectValue(conn, t('EQ', [t('MONTH', [t('TIME', [2024, 3, 1, 'Z'])]), t('MARCH', [])]), true, 'MONTH(TIME(2024, 3, 1, "Z")) == MARCH()');
  },
);

export const checks = [arity, epochTime, nowIsReceiptTime, inTimezone, duringHalfOpen, dateAndTimeOfDay, constants];
