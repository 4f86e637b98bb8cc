// Events of cloud-ref's "### Account" table: marking one event read (read_only access suffices),
// marking events seen (read_write access). Event fields are not shown, so whether an event then
// reads as read or seen is not asserted. The event actions the "Events" section names are
// checked where they are caused (payment-methods.ts, payments.ts).
import { check, type CloudCheckContext } from '../../src/core/check.ts';
import { brief, expectStatus, isJsonObject, listAll } from './support.ts';

const section = 'Account';
const file = 'cloud-api.md';

/**
 * The smallest event id of the restricted user's own list ("list of Event ... depends on grants":
 * an event of the unrestricted user's list may be one the restricted user cannot see). Marking the
 * oldest event again changes nothing other checks page through.
 */
async function restrictedUsersEventId(ctx: CloudCheckContext): Promise<number> {
  const rows = await ctx.setup("GET /v4/account/events as the restricted user (an event it can see)", () => listAll(ctx.cloud.as('restricted'), '/account/events', 'GET /v4/account/events as the restricted user'));
  const ids = rows.map((e) => e.id).filter((v): v is number => Number.isInteger(v));
  if (!ids.length) return ctx.inconclusive('GET /v4/account/events lists no event with an integer id that the restricted user can see');
  return Math.min(...ids);
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
    const id = await restrictedUsersEventId(ctx);
    const what = `POST /v4/account/events/${id}/read as a restricted user with account_access read_only (an event of its own list)`;
    const res = await ctx.cloud.as('restricted').post(`/account/events/${id}/read`);
    expectStatus(res, 200, what);
    ctx.expect(isJsonObject(res), `${what}: expected {}, got ${brief(res)}`);
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
    const id = await restrictedUsersEventId(ctx);
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
