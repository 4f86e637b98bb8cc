// Section "What the service does" of cloud-api.md: times are returned in UTC (line 20).
import { check } from '../../src/core/check.ts';
import { listAll, show } from './support.ts';

const file = 'cloud-api.md';

/** An ISO 8601 date-time, its offset (Z, +hh:mm, -hhmm) captured when it has one. */
const DATE_TIME = /^\d{4}-\d\d-\d\d[T ]\d\d:\d\d(?::\d\d(?:\.\d+)?)?(Z|[+-]\d\d:?\d\d)?$/i;

/** Every string of a JSON value that is a date-time, with where it was found. */
function times(value: unknown, where: string, out: { where: string; value: string; offset?: string }[]): void {
  if (typeof value === 'string') {
    const m = DATE_TIME.exec(value);
    if (m) out.push({ where, value, offset: m[1] });
  } else if (Array.isArray(value)) value.forEach((v, i) => times(v, `${where}[${i}]`, out));
  else if (value !== null && typeof value === 'object') for (const [k, v] of Object.entries(value)) times(v, `${where}.${k}`, out);
}

/** How far apart the target's clock and this one may be. */
const SKEW_MS = 10 * 60_000;

const isUtc = (offset: string) => /^(z|[+-]00:?00)$/i.test(offset);

export const timesUtc = check(
  {
    id: 'cloud.service.times-utc',
    title: 'Every time the API returns is in UTC',
    protocol: 'cloud',
    section: 'What the service does',
    level: 'MUST',
    spec: { file, line: 20, quote: 'All times returned are in UTC regardless of the profile timezone.' },
    faults: ['times-not-utc', 'times-local-no-offset'],
  },
  async (ctx) => {
    const api = ctx.cloud.as('unrestricted');
    // Object fields are not shown (line 51): every string of these answers that reads as a date-time.
    const found: { where: string; value: string; offset?: string }[] = [];
    for (const path of ['/account/events', '/account/invoices', '/account/logins', '/account']) {
      const what = `GET /v4${path}`;
      const body = await ctx.setup(what, async () => (path === '/account' ? (await api.get(path)).json : listAll(api, path, what)));
      times(body, what, found);
    }
    if (!found.length) return ctx.inconclusive('GET /v4/account/events, /account/invoices, /account/logins and /account hold no date-time string: no time to read');
    const offset = found.filter((t) => t.offset !== undefined && !isUtc(t.offset));
    ctx.expect(offset.length === 0, `${offset.length} of ${found.length} times carry an offset other than UTC, e.g. ${offset.slice(0, 3).map((t) => `${t.where} = ${show(t.value)}`).join(', ')}`);
    // A time without an offset is read as UTC. Events and logins happened: one later than now (with
    // 10 minutes for clocks apart) was written in the local time of a zone east of UTC.
    const now = Date.now();
    const past = found.filter((t) => /^GET \/v4\/account\/(events|logins)/.test(t.where));
    const future = past.filter((t) => Date.parse(`${t.value.replace(' ', 'T')}${t.offset === undefined ? 'Z' : ''}`) > now + SKEW_MS);
    ctx.expect(future.length === 0, `${future.length} times of events or logins (which happened) are later than now read as UTC (${new Date(now).toISOString()}), e.g. ${future.slice(0, 3).map((t) => `${t.where} = ${show(t.value)}`).join(', ')}: not UTC`);
    const bare = found.filter((t) => t.offset === undefined).length;
    ctx.note(`${found.length} times read, ${found.length - bare} with a UTC offset, ${bare} without an offset (read as UTC); ${past.length} of events and logins, none later than now`);
  },
);

export const checks = [timesUtc];
