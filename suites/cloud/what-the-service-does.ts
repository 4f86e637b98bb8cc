// Section "What the service does" of cloud-api.md: times are returned in UTC (line 20).
import { check, type CloudCheckContext } from '../../src/core/check.ts';
import { expectStatus, listAll, PAGING_OWNER, show } from './support.ts';
import { CheckInconclusive, CheckSkipped } from '../../src/core/errors.ts';
import { cancelQuietly, createTransfer } from './service-transfers.ts';

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
    // The service-transfer routes only where the target allows `destructive` (a time known to be now).
    touches: ['DELETE /account/service-transfers/{token}', 'GET /account', 'GET /account/events', 'GET /account/invoices', 'GET /account/logins', 'GET /account/service-transfers', 'POST /account/service-transfers'],
    faults: ['times-not-utc', 'times-local-no-offset', 'times-local-west-no-offset'],
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
    // A zone west of UTC makes every time look older, which no time of unknown age shows: a time
    // known to be now is needed. A service transfer's creation (Linode API v4 writes it as
    // `created`; Transfer fields are not shown, line 51) is one, made and cancelled only where the
    // target allows `destructive`.
    const fresh = await createdNow(ctx);
    if (typeof fresh === 'string') return ctx.note(`a zone west of UTC (times without an offset that read older than they are) was not tested: ${fresh}`);
    ctx.expect(fresh.offset === undefined || isUtc(fresh.offset), `${fresh.where} = ${show(fresh.value)}: an offset other than UTC`);
    const at = Date.parse(`${fresh.value.replace(' ', 'T')}${fresh.offset === undefined ? 'Z' : ''}`);
    ctx.expect(at >= fresh.sent - SKEW_MS && at <= fresh.received + SKEW_MS, `${fresh.where} = ${show(fresh.value)}: the transfer was created between ${new Date(fresh.sent).toISOString()} and ${new Date(fresh.received).toISOString()} (UTC), yet its creation time read as UTC is ${Number.isNaN(at) ? 'no time' : `${Math.round((at - fresh.sent) / 60_000)} minutes off`}: not UTC`);
  },
);

/**
 * The `created` time of a service transfer made for it (then cancelled), with when the request
 * went out and its answer came; a string saying why there is none.
 */
async function createdNow(ctx: CloudCheckContext): Promise<{ where: string; value: string; offset?: string; sent: number; received: number } | string> {
  if (!ctx.cloud.target.allows?.includes('destructive')) return "the target does not allow 'destructive' (a service transfer is created and cancelled to get a time known to be now)";
  const sent = Date.now();
  let token: string | undefined;
  try {
    const t = await createTransfer(ctx);
    token = t.token;
    const received = Date.now();
    const what = 'POST /v4/account/service-transfers';
    const created = (t.res.json as Record<string, unknown> | undefined)?.created;
    const m = typeof created === 'string' ? DATE_TIME.exec(created) : null;
    if (!m) return `${what} answered no created date-time (Transfer fields are not shown; Linode API v4 names it created): ${show(created)}`;
    return { where: `${what} created`, value: created as string, offset: m[1], sent, received };
  } catch (err) {
    if (err instanceof CheckInconclusive || err instanceof CheckSkipped) return `no service transfer could be created (${err.message.slice(0, 160)})`;
    throw err;
  } finally {
    await cancelQuietly(ctx, token);
  }
}

export const checks = [timesUtc];
