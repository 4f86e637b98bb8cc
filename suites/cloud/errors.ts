// Section "Errors" of cloud-api.md: status codes and the error body.
import { check, type CloudCheckContext } from '../../src/core/check.ts';
import type { HttpResponse } from '../../src/clients/http/client.ts';
import { bodyString, brief, errorsOf, expectRefused, expectShape, expectStatus, notAboutTheRule, show } from './support.ts';
import { deleteUserQuietly, uniqueUsername } from './users-and-grants.ts';
import { existingEventId } from './events.ts';

const section = 'Errors';
const file = 'cloud-api.md';

/** Error responses that concern no submitted field: 401, 404 and 403. */
async function nonFieldErrors(ctx: CloudCheckContext): Promise<[string, HttpResponse][]> {
  const out: [string, HttpResponse, string][] = [['GET /v4/account without a token', await ctx.cloud.anonymous().get('/account'), 'cloud.authentication.unauthenticated-401']];
  out.push(['GET /v4/account/events/0', await ctx.cloud.as('unrestricted').get('/account/events/0'), 'cloud.errors.not-found-404']);
  out.push(['PUT /v4/account with only account:read_only', await ctx.cloud.as('readOnly').put('/account', {}), 'cloud.authentication.read-only-scope-refuses-writes']);
  // Each request must be refused for there to be an error body to look at; whether it should be is another check's rule.
  for (const [what, res, owner] of out) if (res.status < 400) ctx.inconclusive(`${what}: answered ${res.status}, not an error: no error body to look at`, { seeAlso: owner });
  return out.map(([what, res]) => [what, res]);
}

/** A 401 or 403 refuses the caller, not the body: a rule about the body's problems is not tested by it. */
function notAboutTheBody(ctx: CloudCheckContext, res: HttpResponse, what: string): void {
  if (res.status === 401 || res.status === 403) ctx.inconclusive(`${what}: answered ${res.status}, a refusal of the caller (an unrestricted user), not of the body: the rule was not tested`, { seeAlso: 'cloud.users.unrestricted-caller-only' });
}

export const reasonAlways = check(
  {
    id: 'cloud.errors.reason-always',
    title: 'Every error in an error body carries a reason',
    protocol: 'cloud',
    section,
    level: 'MUST',
    spec: { file, line: 219, quote: 'Error body: `errors` array, each with `reason` (always)' },
    touches: ['GET /account', 'GET /account/events/{eventId}', 'PUT /account'],
    faults: ['error-without-reason'],
    keptBy: { doNothing: 'its 404 answers carry the error body, each error with a reason: the rule (every error of an error body has a reason) holds for every error body such a server sends' },
  },
  async (ctx) => {
    for (const [what, res] of await nonFieldErrors(ctx)) expectShape(res, 'errorBody', what);
  },
);

export const noFieldUnlessFieldError = check(
  {
    id: 'cloud.errors.no-field-unless-field-error',
    title: 'An error about no submitted JSON field carries no field',
    protocol: 'cloud',
    section,
    level: 'MUST',
    spec: { file, line: 219, quote: '`field` (only when specific to a submitted JSON field)' },
    touches: ['GET /account', 'GET /account/events/{eventId}', 'PUT /account'],
    faults: ['error-field-always'],
    keptBy: { doNothing: 'its 404 answers to requests submitting no JSON field carry errors without field: the rule (field only on an error about a submitted field) holds for them' },
  },
  async (ctx) => {
    for (const [what, res] of await nonFieldErrors(ctx)) {
      const withField = errorsOf(res).filter((e) => e.field !== undefined);
      ctx.expect(withField.length === 0, `${what}: no JSON field was submitted, yet errors carry field: ${show(withField)}`);
    }
  },
);

export const notFound404 = check(
  {
    id: 'cloud.errors.not-found-404',
    title: 'A resource that does not exist gets 404 (where one that exists is found on the same route)',
    protocol: 'cloud',
    section,
    level: 'MUST',
    spec: { file, line: 214, quote: '| 404 | resource does not exist |' },
    touches: ['GET /account/events', 'GET /account/events/{eventId}'],
    faults: ['unknown-event-200'],
  },
  async (ctx) => {
    const api = ctx.cloud.as('unrestricted');
    // Positive control: GET /account/events/{eventId} finds an event of the list.
    const id = await existingEventId(ctx);
    await ctx.setup(`GET /v4/account/events/${id} (an event of the list is found)`, async () => expectStatus(await api.get(`/account/events/${id}`), 200, `GET /v4/account/events/${id}`));
    const res = await api.get('/account/events/0');
    expectStatus(res, 404, 'GET /v4/account/events/0 (no event has id 0; ids are positive integers)');
  },
);

export const allProblemsAtOnce = check(
  {
    id: 'cloud.errors.all-problems-at-once',
    title: 'A body missing two required fields gets both problems reported in one answer',
    protocol: 'cloud',
    section,
    level: 'MUST',
    spec: { file, line: 219, quote: 'As many problems as possible are reported at once' },
    touches: ['DELETE /account/users/{username}', 'POST /account/users'],
    faults: ['first-error-only'],
  },
  async (ctx) => {
    // POST /account/users needs username and email ("Users and grants"); the body has neither.
    const what = 'POST /v4/account/users {"restricted":true} (neither username nor email)';
    const res = await ctx.cloud.as('unrestricted').post('/account/users', { restricted: true });
    notAboutTheBody(ctx, res, what);
    expectRefused(res, what);
    // reason is only human-readable and field names a submitted field, which a missing one is not
    // (line 219): what is asserted is that more than one problem is reported at once.
    const errors = errorsOf(res);
    if (errors.length >= 2) return;
    // One error: a deviation only where each missing field is a problem this server reports. That
    // a missing username or email is refused is implied by "required" (cloud.users.create-requires-
    // username-and-email owns it): a server taking a body without one had one problem to report.
    // Finding out may create a user (then deleted): only where the target allows `destructive`.
    if (!ctx.cloud.target.allows?.includes('destructive')) return ctx.inconclusive(`${what}: one error; whether each missing field alone is refused (else one problem was all there was) is tried only where the target allows 'destructive' (a user may be created, then deleted): ${show(errors)}`, { seeAlso: 'cloud.users.create-requires-username-and-email' });
    for (const missing of ['email', 'username'] as const) {
      const username = uniqueUsername('problems');
      const alone = missing === 'email' ? { username, restricted: true } : { email: `${username}@example.com`, restricted: true };
      const control = `POST /v4/account/users ${JSON.stringify(alone)} (only ${missing} missing)`;
      let created: string | undefined;
      try {
        const one = await ctx.cloud.as('unrestricted').post('/account/users', alone);
        // A user made without a username has the one the server gave it.
        created = one.status < 300 ? bodyString(one, 'username') : undefined;
        notAboutTheRule(one, control);
        if (one.status >= 200 && one.status < 300) return ctx.inconclusive(`${what}: one error, but ${control} was accepted: this server does not count a missing ${missing} as a problem, so one problem was all it had to report: ${show(errors)}`, { seeAlso: 'cloud.users.create-requires-username-and-email' });
      } finally {
        await deleteUserQuietly(ctx, username);
        if (created && created !== username) await deleteUserQuietly(ctx, created);
      }
    }
    ctx.fail(`${what}: two required fields are missing (each alone is refused), problems known at once, yet ${errors.length} error was reported: ${show(errors)}`);
  },
);

export const fieldNamesField = check(
  {
    id: 'cloud.errors.field-names-submitted-field',
    title: 'An error about a submitted JSON field carries that field',
    protocol: 'cloud',
    section: 'Resources and their fields',
    level: 'SHOULD',
    spec: { file, line: 29, quote: 'field (string, present only when the error concerns a specific submitted field)' },
    touches: ['DELETE /account/users/{username}', 'POST /account/users'],
    faults: ['field-error-without-field'],
    tags: ['destructive'],
  },
  async (ctx) => {
    // restricted is a boolean (User); a string there is a problem with that submitted field.
    const username = uniqueUsername('field');
    const body = { username, email: `${username}@example.com`, restricted: 'yes' };
    const what = `POST /v4/account/users ${JSON.stringify(body)}`;
    try {
      const res = await ctx.cloud.as('unrestricted').post('/account/users', body);
      notAboutTheBody(ctx, res, what);
      expectRefused(res, what);
      const errors = errorsOf(res);
      ctx.expect(errors.some((e) => e.field === 'restricted'), `${what}: the problem is the submitted field restricted, yet no error has field "restricted": ${show(errors)}`);
    } finally {
      await deleteUserQuietly(ctx, username);
    }
  },
);

export const invalidRequest400 = check(
  {
    id: 'cloud.errors.invalid-request-400',
    title: 'An invalid request (a page that is not an integer, a body that is not JSON) gets 400, not another 4xx',
    protocol: 'cloud',
    section,
    level: 'MUST',
    spec: { file, line: 211, quote: '| 400 | invalid request (missing parameters etc.) |' },
    touches: ['GET /account/events', 'PUT /account/settings'],
    faults: ['invalid-request-422'],
  },
  async (ctx) => {
    const api = ctx.cloud.as('unrestricted');
    // Each invalid request beside a valid one to the same route (its positive control): a route
    // that does not serve the valid one is not tested, and the result says so.
    const tries: [string, () => Promise<HttpResponse>, string, () => Promise<HttpResponse>][] = [
      ['GET /v4/account/events?page=first (page is an integer)', () => api.get('/account/events', { query: { page: 'first' } }), 'GET /v4/account/events?page=1', () => api.get('/account/events', { query: { page: 1 } })],
      ['GET /v4/account/events?page_size=many (page_size is an integer)', () => api.get('/account/events', { query: { page_size: 'many' } }), 'GET /v4/account/events?page_size=25', () => api.get('/account/events', { query: { page_size: 25 } })],
      // The valid PUT changes nothing (no field): no other check's settings are disturbed.
      ['PUT /v4/account/settings with the body {"network_helper": (not JSON)', () => api.request('PUT', '/account/settings', { body: '{"network_helper":', headers: { 'content-type': 'application/json' } }), 'PUT /v4/account/settings {}', () => api.put('/account/settings', {})],
    ];
    const untested: string[] = [];
    for (const [what, send, control, sendControl] of tries) {
      const ok = await sendControl();
      if (ok.status !== 200) {
        untested.push(`${what} (${control} answered ${ok.status})`);
        continue;
      }
      const res = await send();
      notAboutTheRule(res, what);
      // The route took the valid request: a 404 here is no "not served", it is the wrong status.
      ctx.expect(res.status === 400, `${what}: expected 400, got ${brief(res)} (${control} answered 200)`);
      expectShape(res, 'errorBody', what);
    }
    if (untested.length === tries.length) return ctx.inconclusive(`no route took the valid request of its positive control: ${untested.join('; ')}`);
    if (untested.length) return ctx.inconclusive(`the other invalid requests got 400, but these were not tested, their route not taking a valid request: ${untested.join('; ')}`);
  },
);

export const checks = [reasonAlways, noFieldUnlessFieldError, notFound404, allProblemsAtOnce, fieldNamesField, invalidRequest400];
