// Events of cloud-ref's "### Account" table: marking one event read (read_only access suffices),
// marking events seen (read_write access). Event fields are not shown, so whether an event then
// reads as read or seen is not asserted. The event actions the "Events" section names are
// checked where they are caused (payment-methods.ts, payments.ts).
import { check, type CloudCheckContext } from '../../src/core/check.ts';
import { brief, envelope, expectStatus } from './support.ts';

const section = 'Account';
const file = 'cloud-api.md';

/** The id of the first event of account A's list (marking it again changes nothing visible to others). */
async function firstEventId(ctx: CloudCheckContext): Promise<number> {
  const list = envelope(await ctx.cloud.as('unrestricted').get('/account/events'), 'GET /v4/account/events');
  const id = list.data.map((e) => e.id).find((v): v is number => Number.isInteger(v));
  if (id === undefined) return ctx.skip('GET /v4/account/events lists no event with an integer id');
  return id;
}

export const readWithReadOnlyAccess = check(
  {
    id: 'cloud.events.read-with-read-only-access',
    title: 'A restricted user with read_only account access may mark an event read',
    protocol: 'cloud',
    section,
    level: 'MUST',
    spec: { file, line: 85, quote: '| POST | /account/events/{eventId}/read | events:read_only | read_only | marks one event read -> {} |' },
    faults: ['event-read-needs-read-write'],
    tags: ['destructive'],
  },
  async (ctx) => {
    const id = await firstEventId(ctx);
    const what = `POST /v4/account/events/${id}/read as a restricted user with account_access read_only`;
    const res = await ctx.cloud.as('restricted').post(`/account/events/${id}/read`);
    expectStatus(res, 200, what);
    ctx.expect(typeof res.json === 'object' && res.json !== null && !Array.isArray(res.json), `${what}: expected {}, got ${brief(res)}`);
  },
);

export const seenNeedsReadWrite = check(
  {
    id: 'cloud.events.seen-needs-read-write',
    title: 'Marking events seen needs read_write access: 403 for read_only, {} for an unrestricted user',
    protocol: 'cloud',
    section,
    level: 'MUST',
    spec: { file, line: 86, quote: '| POST | /account/events/{eventId}/seen | events:read_only | read_write | marks all events up to and including this id as seen -> {} |' },
    faults: ['event-seen-read-only-grant'],
    tags: ['destructive'],
  },
  async (ctx) => {
    const id = await firstEventId(ctx);
    const restricted = await ctx.cloud.as('restricted').post(`/account/events/${id}/seen`);
    expectStatus(restricted, 403, `POST /v4/account/events/${id}/seen as a restricted user with account_access read_only`);
    const res = await ctx.cloud.as('unrestricted').post(`/account/events/${id}/seen`);
    expectStatus(res, 200, `POST /v4/account/events/${id}/seen as an unrestricted user`);
  },
);

export const readUnknown404 = check(
  {
    id: 'cloud.events.read-unknown-404',
    title: 'Marking an event that does not exist read gets 404',
    protocol: 'cloud',
    section: 'Errors',
    level: 'MUST',
    spec: { file, line: 214, quote: '| 404 | resource does not exist |' },
    faults: ['event-read-unknown-200'],
  },
  async (ctx) => {
    expectStatus(await ctx.cloud.as('unrestricted').post('/account/events/0/read'), 404, 'POST /v4/account/events/0/read (no event has id 0)');
  },
);

export const checks = [readWithReadOnlyAccess, seenNeedsReadWrite, readUnknown404];
