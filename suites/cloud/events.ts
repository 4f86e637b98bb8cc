// Events of cloud-ref's "### Account" table: marking one event read (read_only access suffices),
// marking events seen (read_write access). Event fields are not shown, so whether an event then
// reads as read or seen is not asserted. The event actions the "Events" section names are
// checked where they are caused (payment-methods.ts, payments.ts).
import { check, type CloudCheckContext } from '../../src/core/check.ts';
import { brief, envelope, expectStatus, isJsonObject, listAll, PAGING_OWNER } from './support.ts';

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
  return ids.reduce((a, b) => Math.min(a, b));
}

/**
 * The smallest event id on the first page of the unrestricted user's list (no walk over pages: one
 * event that exists is all a 404 check's positive control needs).
 */
export async function existingEventId(ctx: CloudCheckContext): Promise<number> {
  const list = await ctx.setup('GET /v4/account/events (an event that exists)', async () => envelope(await ctx.cloud.as('unrestricted').get('/account/events'), 'GET /v4/account/events'), { seeAlso: 'cloud.pagination.list-envelope' });
  const ids = list.data.map((e) => e.id).filter((v): v is number => Number.isInteger(v) && v !== 0);
  if (!ids.length) return ctx.inconclusive('GET /v4/account/events lists no event with an integer id: the route cannot be seen to find one that exists');
  return ids.reduce((a, b) => Math.min(a, b));
}

export const readWithReadOnlyAccess = check(
  {
    id: 'cloud.events.read-with-read-only-access',
    title: 'A restricted user with read_only account access may mark an event read',
    protocol: 'cloud',
    section,
    level: 'MUST',
    spec: { file, line: 85, quote: '| POST | /account/events/{eventId}/read | events:read_only | read_only | marks one event read -> {} |' },
    touches: ['GET /account/events', 'POST /account/events/{eventId}/read'],
    faults: ['event-read-needs-read-write'],
    tags: ['destructive'],
    reliesOn: [PAGING_OWNER],
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
    touches: ['GET /account/events', 'POST /account/events/{eventId}/seen'],
    faults: ['event-seen-read-only-grant'],
    tags: ['destructive'],
    reliesOn: [PAGING_OWNER],
  },
  async (ctx) => {
    const id = await restrictedUsersEventId(ctx);
    // The unrestricted user first: the route marks this event seen, so the 403 that follows is
    // about the grant (the event, the oldest of the list, is seen already: nothing changes).
    const res = await ctx.cloud.as('unrestricted').post(`/account/events/${id}/seen`);
    expectStatus(res, 200, `POST /v4/account/events/${id}/seen as an unrestricted user`);
    const restricted = await ctx.cloud.as('restricted').post(`/account/events/${id}/seen`);
    expectStatus(restricted, 403, `POST /v4/account/events/${id}/seen as a restricted user with account_access read_only`);
  },
);

export const readUnknown404 = check(
  {
    id: 'cloud.events.read-unknown-404',
    title: 'Marking an event that does not exist read gets 404 (where an event that exists is marked)',
    protocol: 'cloud',
    section: 'Errors',
    level: 'MUST',
    spec: { file, line: 214, quote: '| 404 | resource does not exist |' },
    touches: ['GET /account/events', 'POST /account/events/{eventId}/read'],
    faults: ['event-read-unknown-200'],
    tags: ['destructive'],
  },
  async (ctx) => {
    const api = ctx.cloud.as('unrestricted');
    // Positive control: the route marks an event that exists (the oldest of the first page, read
    // already), so its 404 says "does not exist".
    const id = await existingEventId(ctx);
    await ctx.setup(`POST /v4/account/events/${id}/read (an event of the list)`, async () => expectStatus(await api.post(`/account/events/${id}/read`), 200, `POST /v4/account/events/${id}/read`), { seeAlso: 'cloud.events.read-with-read-only-access' });
    expectStatus(await api.post('/account/events/0/read'), 404, 'POST /v4/account/events/0/read (no event has id 0; ids are positive integers)');
  },
);

export const listDependsOnGrants = check(
  {
    id: 'cloud.events.list-depends-on-grants',
    title: "A restricted user's events list holds no event the account's unrestricted user is not shown",
    protocol: 'cloud',
    section,
    level: 'SHOULD',
    spec: { file, line: 83, quote: '| GET | /account/events | events:read_only | read_only | -> list of Event from last 90 days, depends on grants |' },
    touches: ['GET /account/events'],
    faults: ['restricted-sees-other-accounts-events'],
    reliesOn: [PAGING_OWNER],
  },
  async (ctx) => {
    // Which events a grant shows is not stated; that a restricted user (who "only reach[es] entities
    // and actions they were granted", line 190) sees no more than an unrestricted user of the same
    // account is. The restricted list is read first: an event added meanwhile is in the later list.
    const mine = await ctx.setup('GET /v4/account/events as the restricted user', () => listAll(ctx.cloud.as('restricted'), '/account/events', 'GET /v4/account/events as the restricted user'));
    const all = await ctx.setup('GET /v4/account/events as the unrestricted user of the same account', () => listAll(ctx.cloud.as('unrestricted'), '/account/events', 'GET /v4/account/events as the unrestricted user'));
    const ids = (rows: Record<string, unknown>[]) => rows.map((e) => e.id).filter((v) => typeof v === 'number' || typeof v === 'string');
    const known = new Set(ids(all));
    const mineIds = ids(mine);
    if (!mineIds.length) return ctx.inconclusive(`GET /v4/account/events as the restricted user lists no event with an id (${mine.length} events): nothing to compare`);
    const extra = mineIds.filter((id) => !known.has(id));
    ctx.expect(extra.length === 0, `GET /v4/account/events as the restricted user lists ${extra.length} events the unrestricted user of the same account is not shown (ids ${extra.slice(0, 5).join(', ')}${extra.length > 5 ? ', …' : ''}): a restricted user's list depends on its grants, it cannot exceed the account's`);
    ctx.note(`restricted user: ${mineIds.length} events; unrestricted user: ${known.size}`);
  },
);

export const checks = [readWithReadOnlyAccess, seenNeedsReadWrite, readUnknown404, listDependsOnGrants];
