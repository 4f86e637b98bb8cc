// "Time" terms over the TIME pseudotype {$reql_type$: 'TIME', epoch_time, timezone}; calendar
// arithmetic is luxon's, in the time's own fixed-offset time zone ('+02:00', '-05:30', 'Z').
import { DateTime, FixedOffsetZone } from 'luxon';
import type { JsValue } from '../../../../src/clients/wire/codec.ts';
import { isObject, num, optString, str, typeMismatch } from '../args.ts';
import { logicError } from '../errors.ts';
import { defineTerms, type Call } from '../evaluate.ts';

export interface Time {
  $reql_type$: 'TIME';
  epoch_time: number;
  timezone: string;
}

/**
 * A time offset as RethinkDB's pseudo_time.cc (sanitize::tz) reads it: `Z`, or `[+-]HH`, `[+-]HHMM`,
 * `[+-]HH:MM`, written back as `+HH:MM`; `-00` and `-00:00` are refused. The document names no
 * offset format.
 */
export function sanitizeTz(tz: string): string {
  if (tz === '-00' || tz === '-00:00') throw logicError(`\`${tz}\` is not a valid time offset.`);
  if (tz === 'Z') return '+00:00';
  const m = /^([+-])(\d\d)(?::?(\d\d))?$/.exec(tz);
  if (!m || Number(m[2]) > 24 || Number(m[3] ?? 0) > 59) throw logicError(`Timezone \`${tz}\` does not match the format [+-]HH:MM.`);
  return `${m[1]}${m[2]}:${m[3] ?? '00'}`;
}

function zoneOf(tz: string): FixedOffsetZone {
  const clean = sanitizeTz(tz);
  return clean === '+00:00' ? FixedOffsetZone.utcInstance : (FixedOffsetZone.parseSpecifier(`UTC${clean}`) as FixedOffsetZone);
}

/** Times keep millisecond precision (RethinkDB's sanitize_epoch_sec rounds to it). */
function makeTime(epochSeconds: number, timezone = '+00:00'): JsValue {
  return { $reql_type$: 'TIME', epoch_time: Math.round(epochSeconds * 1000) / 1000, timezone: sanitizeTz(timezone) };
}

function time(c: Call, i: number): Time {
  const v = c.datum(i);
  if (!isObject(v) || v.$reql_type$ !== 'TIME' || typeof v.epoch_time !== 'number') {
    throw typeMismatch(c, i, 'PTYPE<TIME>', v);
  }
  return v as unknown as Time;
}

function local(t: Time): DateTime {
  const d = DateTime.fromMillis(Math.round(t.epoch_time * 1000), { zone: zoneOf(t.timezone) });
  // RethinkDB's calendar (boost) covers the years 1400 to 10000 only.
  if (d.year < 1400 || d.year > 10000) throw logicError('Error in time logic: Year is out of valid range: 1400..10000.');
  return d;
}

/**
 * The ISO 8601 text of a time. The document does not state it: the reference writes it as
 * RethinkDB does (milliseconds only when not zero, UTC as `+00:00`), the variant always writes
 * milliseconds and calls UTC `Z`.
 */
function iso8601(t: Time, variant: boolean): string {
  const d = local(t);
  if (d.year < 0 || d.year > 9999) throw logicError(`Year \`${d.year}\` out of valid ISO 8601 range [0, 9999].`);
  const ms = variant || d.millisecond ? `.${d.toFormat('SSS')}` : '';
  const offset = variant && d.offset === 0 ? 'Z' : d.toFormat('ZZ');
  return `${d.toFormat("yyyy-MM-dd'T'HH:mm:ss")}${ms}${offset}`;
}

function tzArg(c: Call, i: number): string {
  const tz = str(c, i);
  try {
    zoneOf(tz);
  } catch (err) {
    throw (err as ReturnType<typeof logicError>).at({ pos: i });
  }
  return tz;
}

function part(get: (d: DateTime) => number) {
  return { arity: [1, 1] as const, run: (c: Call) => get(local(time(c, 0))) };
}

function constant(value: number) {
  return { arity: [0, 0] as const, run: () => value };
}

let nowEvaluations = 0;

const WEEKDAYS = ['MONDAY', 'TUESDAY', 'WEDNESDAY', 'THURSDAY', 'FRIDAY', 'SATURDAY', 'SUNDAY'];
const MONTHS = ['JANUARY', 'FEBRUARY', 'MARCH', 'APRIL', 'MAY', 'JUNE', 'JULY', 'AUGUST', 'SEPTEMBER', 'OCTOBER', 'NOVEMBER', 'DECEMBER'];

defineTerms({
  ISO8601: {
    arity: [1, 1],
    optargs: ['default_timezone'],
    run: (c) => {
      const text = str(c, 0);
      const fallback = optString(c, 'default_timezone');
      const explicit = /(?:Z|[+-]\d{2}(?::?\d{2})?)$/.test(text.split('T')[1] ?? '');
      if (!explicit && fallback === undefined) throw logicError(`ISO 8601 string has no time zone, and no default time zone was provided: \`${text}\`.`).at({ pos: 0 });
      const d = DateTime.fromISO(text, { setZone: true, zone: explicit ? undefined : zoneOf(fallback!) });
      if (!d.isValid) throw logicError(`Invalid ISO 8601 time \`${text}\`.`).at({ pos: 0 });
      return makeTime(d.toMillis() / 1000, d.toFormat('ZZ'));
    },
  },
  TO_ISO8601: { arity: [1, 1], run: (c) => iso8601(time(c, 0), c.env.variant === true) },
  EPOCH_TIME: { arity: [1, 1], run: (c) => makeTime(c.env.faults.has('epoch-time-milliseconds') ? num(c, 0) / 1000 : num(c, 0)) },
  TO_EPOCH_TIME: { arity: [1, 1], run: (c) => time(c, 0).epoch_time },
  // The time the server received the query: the same for every NOW of the query.
  NOW: { arity: [0, 0], run: (c) => makeTime(c.env.faults.has('now-per-evaluation') ? c.env.now / 1000 + ++nowEvaluations / 1000 : c.env.now / 1000) },
  IN_TIMEZONE: {
    arity: [2, 2],
    run: (c) => {
      const t = time(c, 0);
      const tz = tzArg(c, 1);
      if (!c.env.faults.has('in-timezone-shifts-instant')) return makeTime(t.epoch_time, tz);
      // The fault's bug: keeps the wall-clock reading and so moves the instant.
      const shift = zoneOf(tz).offset(0) - zoneOf(t.timezone).offset(0);
      return makeTime(t.epoch_time - shift * 60, tz);
    },
  },
  DURING: {
    arity: [3, 3],
    optargs: ['left_bound', 'right_bound'],
    run: (c) => {
      const [t, b, e] = [time(c, 0).epoch_time, time(c, 1).epoch_time, time(c, 2).epoch_time];
      const left = optString(c, 'left_bound') ?? 'closed';
      const right = optString(c, 'right_bound') ?? (c.env.faults.has('during-closed-right') ? 'closed' : 'open');
      // The fault's bug: the start is not checked, so a time before [b, c) counts as during it.
      const afterStart = c.env.faults.has('during-open-left') || (left === 'closed' ? t >= b : t > b);
      return afterStart && (right === 'closed' ? t <= e : t < e);
    },
  },
  DATE: {
    arity: [1, 1],
    run: (c) => {
      const t = time(c, 0);
      const zone = c.env.faults.has('date-in-utc') ? '+00:00' : t.timezone;
      const d = DateTime.fromMillis(t.epoch_time * 1000, { zone: zoneOf(zone) }).startOf('day');
      return makeTime(d.toMillis() / 1000, t.timezone);
    },
  },
  TIME_OF_DAY: part((d) => d.hour * 3600 + d.minute * 60 + d.second + d.millisecond / 1000),
  TIMEZONE: {
    arity: [1, 1],
    run: (c) => {
      const tz = time(c, 0).timezone;
      return c.env.variant && tz === '+00:00' ? 'Z' : tz;
    },
  },
  YEAR: part((d) => d.year),
  MONTH: part((d) => d.month),
  DAY: part((d) => d.day),
  DAY_OF_WEEK: part((d) => d.weekday),
  DAY_OF_YEAR: part((d) => d.ordinal),
  HOURS: part((d) => d.hour),
  MINUTES: part((d) => d.minute),
  SECONDS: part((d) => d.second + d.millisecond / 1000),
  TIME: {
    arity: [4, 7],
    run: (c) => {
      if (c.argc !== 4 && c.argc !== 7) throw logicError(`Expected 4 or 7 argument(s) to TIME but found ${c.argc}.`);
      const n = c.argc - 1;
      const tz = tzArg(c, n);
      const f = Array.from({ length: n }, (_, i) => num(c, i));
      const [year, month, day, hour = 0, minute = 0, second = 0] = f;
      const d = DateTime.fromObject({ year, month, day, hour, minute, second: Math.floor(second), millisecond: Math.round((second % 1) * 1000) }, { zone: zoneOf(tz) });
      if (!d.isValid) throw logicError(`Invalid date: ${f.join(', ')}.`);
      return makeTime(d.toMillis() / 1000, tz);
    },
  },
  // MONDAY..SUNDAY are 1..7; the fault counts them from 0.
  ...Object.fromEntries(WEEKDAYS.map((name, i) => [name, { arity: [0, 0] as const, run: (c: Call) => (c.env.faults.has('weekday-constants-zero-based') ? i : i + 1) }])),
  ...Object.fromEntries(MONTHS.map((name, i) => [name, constant(i + 1)])),
});

