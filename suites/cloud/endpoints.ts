// Section "Endpoints" of cloud-api.md: the conventions of its tables (line 72), here that `{}`
// is an empty object body.
import { check } from '../../src/core/check.ts';
import { brief, expectStatus, listAll, notAboutTheRule, PAGING_OWNER } from './support.ts';

const file = 'cloud-api.md';

export const emptyObject = check(
  {
    id: 'cloud.endpoints.empty-object-body',
    title: 'An action the table answers with {} answers an empty JSON object',
    protocol: 'cloud',
    section: 'Endpoints',
    level: 'MUST',
    spec: { file, line: 72, quote: '`{}` means an empty object body.' },
    touches: ['GET /account/events', 'POST /account/events/{eventId}/read'],
    faults: ['empty-object-not-empty'],
    tags: ['destructive'],
    reliesOn: [PAGING_OWNER],
  },
  async (ctx) => {
    const api = ctx.cloud.as('unrestricted');
    // Marking the oldest event of the caller's own list read ("marks one event read -> {}", line 85).
    const rows = await ctx.setup('GET /v4/account/events (an event to mark read)', () => listAll(api, '/account/events', 'GET /v4/account/events'));
    const ids = rows.map((e) => e.id).filter((v): v is number => Number.isInteger(v));
    if (!ids.length) return ctx.inconclusive('GET /v4/account/events lists no event with an integer id: no action answered {} to try');
    const id = ids.reduce((a, b) => Math.min(a, b));
    const what = `POST /v4/account/events/${id}/read`;
    const res = await api.post(`/account/events/${id}/read`);
    notAboutTheRule(res, what);
    expectStatus(res, 200, what);
    const body = res.json;
    const empty = typeof body === 'object' && body !== null && !Array.isArray(body) && Object.keys(body).length === 0;
    ctx.expect(empty, `${what}: the table answers {} ("an empty object body"), got ${brief(res)}`);
  },
);

export const readWriteGrantWrites = check(
  {
    id: 'cloud.endpoints.read-write-grant-writes',
    title: 'A restricted user with account_access read_write may call an operation whose grant requirement is read_write',
    protocol: 'cloud',
    section: 'Endpoints',
    level: 'MUST',
    spec: { file, line: 74, quote: 'Grant requirement values: read_only, read_write, `unrestricted only` (only unrestricted users)' },
    touches: ['GET /account/events', 'POST /account/events/{eventId}/seen'],
    faults: ['read-write-grant-refused'],
    tags: ['destructive'],
    reliesOn: [PAGING_OWNER],
  },
  async (ctx) => {
    // POST /account/events/{eventId}/seen needs read_write (line 86). Marking the oldest event of
    // the user's own list seen changes nothing other checks page through.
    const api = ctx.cloud.as('restrictedReadWrite');
    const rows = await ctx.setup('GET /v4/account/events as the restricted user with account_access read_write', () => listAll(api, '/account/events', 'GET /v4/account/events as the restricted read_write user'));
    const ids = rows.map((e) => e.id).filter((v): v is number => Number.isInteger(v));
    if (!ids.length) return ctx.inconclusive('GET /v4/account/events lists no event with an integer id that the restricted read_write user can see');
    const id = ids.reduce((a, b) => Math.min(a, b));
    const what = `POST /v4/account/events/${id}/seen as a restricted user whose grants give account_access read_write`;
    const res = await api.post(`/account/events/${id}/seen`);
    notAboutTheRule(res, what);
    expectStatus(res, 200, what);
  },
);

export const checks = [emptyObject, readWriteGrantWrites];
