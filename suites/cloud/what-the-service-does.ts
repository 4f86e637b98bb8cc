// Section "What the service does" of cloud-api.md: times are returned in UTC (line 20).
import { check } from '../../src/core/check.ts';
import { expectStatus, listAll, PAGING_OWNER, show } from './support.ts';
import { CheckInconclusive } from '../../src/core/errors.ts';

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
    touches: ['GET /account', 'GET /account/events', 'GET /account/invoices', 'GET /account/logins'],
    faults: ['times-not-utc', 'times-local-no-offset'],
    reliesOn: [PAGING_OWNER],
  },
  async (ctx) => {
    const api = ctx.cloud.as('unrestricted');
    // Object fields are not shown (line 51): every string of these answers that reads as a date-time.
    const found: { where: string; value: string; offset?: string }[] = [];
    const paths = ['/account/events', '/account/invoices', '/account/logins', '/account'];
    // Every answer served is read; one the server does not serve (or whose pages do not hold
    // together) is left out and named: the times of the others are still times it returned.
    const unread: string[] = [];
    for (const path of paths) {
      const what = `GET /v4${path}`;
      try {
        const body = await ctx.setup(what, async () => {
          if (path !== '/account') return listAll(api, path, what);
          const res = await api.get(path);
          expectStatus(res, 200, what);
          return res.json;
        });
        times(body, what, found);
      } catch (err) {
        if (!(err instanceof CheckInconclusive)) throw err;
        unread.push(`${what} (${err.message.slice(0, 120)})`);
      }
    }
    if (unread.length === paths.length) return ctx.inconclusive(`none of ${paths.map((p) => `GET /v4${p}`).join(', ')} could be read: ${unread.join('; ')}`);
    if (unread.length) ctx.note(`not read: ${unread.join('; ')}`);
    if (!found.length) return ctx.inconclusive(`${paths.filter((p) => !unread.some((u) => u.startsWith(`GET /v4${p} `))).map((p) => `GET /v4${p}`).join(', ')} hold no date-time string: no time to read`);
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
