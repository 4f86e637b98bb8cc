// Section "Authentication" of cloud-api.md: bearer tokens, scopes, restricted users, 401 vs 403.
import { randomBytes } from 'node:crypto';
import { check } from '../../src/core/check.ts';
import { bodyField, brief, envelope, expectRefused, expectStatus, isJsonObject, notAboutTheRule, show } from './support.ts';
import { expectRefusedOr404 } from './controls.ts';
import { authorizationCode, authorize, exchangedPair, pairOf, refused, tokenRequest, withAccessToken, withExchangeClient, withOAuthClient } from './oauth-support.ts';

const section = 'Authentication';
/** The Account fields line 30 names. */
const ACCOUNT_FIELDS = ['address_1', 'address_2', 'city', 'company', 'country', 'email', 'first_name', 'last_name', 'phone', 'state', 'tax_id', 'zip'];
const file = 'cloud-api.md';

export const unauthenticated401 = check(
  {
    id: 'cloud.authentication.unauthenticated-401',
    title: 'A request without a token, or with a token no one issued, gets 401',
    protocol: 'cloud',
    section,
    level: 'MUST',
    spec: { file, line: 191, quote: 'Failure to authenticate gives 401' },
    touches: ['GET /account'],
    faults: ['unauthenticated-as-403'],
  },
  async (ctx) => {
    const none = await ctx.cloud.anonymous().get('/account');
    expectStatus(none, 401, 'GET /v4/account without Authorization');
    expectRefused(none, 'GET /v4/account without Authorization');
    const bogus = await ctx.cloud.withToken('conformance-not-a-token-0000').get('/account');
    expectStatus(bogus, 401, 'GET /v4/account with a token no one issued');
  },
);

export const insufficientPermission403 = check(
  {
    id: 'cloud.authentication.insufficient-permission-403',
    title: 'An authenticated restricted user without the needed grant gets 403',
    protocol: 'cloud',
    section,
    level: 'MUST',
    spec: { file, line: 191, quote: 'insufficient permission gives 403' },
    touches: ['GET /account', 'PUT /account'],
    faults: ['forbidden-as-401'],
  },
  async (ctx) => {
    // The restricted role has account_access read_only: reading the account works, changing it does not.
    const restricted = ctx.cloud.as('restricted');
    await ctx.setup('GET /v4/account as the restricted user (account_access read_only)', async () => expectStatus(await restricted.get('/account'), 200, 'GET /v4/account as the restricted user (account_access read_only)'));
    const res = await restricted.put('/account', {});
    expectStatus(res, 403, 'PUT /v4/account as a restricted user with account_access read_only');
    expectRefused(res, 'PUT /v4/account as a restricted user');
  },
);

export const readOnlyScopeAllowsGet = check(
  {
    id: 'cloud.authentication.read-only-scope-allows-get',
    title: 'A token with only :read_only scopes may GET in each area',
    protocol: 'cloud',
    section,
    level: 'MUST',
    spec: { file, line: 189, quote: 'Scopes (each `:read_only` allows GET, `:read_write` all endpoints of the area)' },
    touches: ['GET /account', 'GET /account/events'],
    faults: ['read-only-scope-get-refused'],
  },
  async (ctx) => {
    const ro = ctx.cloud.as('readOnly');
    // The value read: the Account. Which of its named fields (line 30) the server writes is seen
    // first with the unrestricted user's token (all scopes); the read_only token gets the same ones.
    const named = await ctx.setup('GET /v4/account as the unrestricted user (the Account fields the server writes)', async () => {
      const full = await ctx.cloud.as('unrestricted').get('/account');
      expectStatus(full, 200, 'GET /v4/account as the unrestricted user');
      const keys = ACCOUNT_FIELDS.filter((k) => bodyField(full, k) !== undefined);
      if (!keys.length) ctx.fail(`GET /v4/account as the unrestricted user: the answer holds none of the Account fields named on line 30 (${ACCOUNT_FIELDS.join(', ')}): ${brief(full)}`);
      return keys;
    });
    const res = await ro.get('/account');
    const what = 'GET /v4/account with account:read_only';
    expectStatus(res, 200, what);
    const missing = named.filter((k) => bodyField(res, k) === undefined);
    ctx.expect(isJsonObject(res) && missing.length === 0, `${what}: the Account lacks ${missing.join(', ')}, which the unrestricted user's GET shows: ${brief(res)}`);
    envelope(await ro.get('/account/events'), 'GET /v4/account/events with events:read_only');
  },
);

export const readOnlyScopeRefusesWrites = check(
  {
    id: 'cloud.authentication.read-only-scope-refuses-writes',
    title: 'A token with only :read_only scopes is refused (401 or 403) on a PUT',
    protocol: 'cloud',
    section,
    level: 'MUST',
    spec: { file, line: 189, quote: 'Scopes (each `:read_only` allows GET, `:read_write` all endpoints of the area)' },
    touches: ['GET /account', 'PUT /account'],
    faults: ['read-only-scope-writes'],
  },
  async (ctx) => {
    // The positive controls: the read_only token is accepted (a GET), and the same PUT is served
    // to a token with every scope. A PUT of {} changes nothing (omitted fields unchanged).
    await ctx.setup('GET /v4/account with account:read_only (the token is accepted)', async () => expectStatus(await ctx.cloud.as('readOnly').get('/account'), 200, 'GET /v4/account with account:read_only'), { seeAlso: 'cloud.authentication.read-only-scope-allows-get' });
    await ctx.setup('PUT /v4/account {} as the unrestricted user (the route serves the PUT)', async () => expectStatus(await ctx.cloud.as('unrestricted').put('/account', {}), 200, 'PUT /v4/account {} as the unrestricted user'));
    const res = await ctx.cloud.as('readOnly').put('/account', {});
    const what = 'PUT /v4/account with only account:read_only';
    notAboutTheRule(res, what);
    // Line 191 does not say on which side a missing scope falls (the real service answers 401): either is the refusal.
    expectStatus(res, [401, 403], what);
    expectRefused(res, what);
  },
);

export const unrestrictedOnlyRefused = check(
  {
    id: 'cloud.authentication.unrestricted-only-refused',
    title: 'An operation marked unrestricted only is refused to a restricted user',
    protocol: 'cloud',
    section,
    level: 'MUST',
    spec: { file, line: 190, quote: 'operations marked `unrestricted only` are refused otherwise' },
    touches: ['GET /account/logins', 'GET /account/service-transfers'],
    faults: ['restricted-passes-unrestricted-only', 'unrestricted-only-as-read-write'],
  },
  async (ctx) => {
    // GETs of operations the tables mark unrestricted only: each is tested where the unrestricted
    // user is let through (the positive control); a route not served is named, not judged.
    const routes = ['/account/logins', '/account/service-transfers'];
    const notServedHere: string[] = [];
    const tested: string[] = [];
    for (const route of routes) {
      const control = await ctx.cloud.as('unrestricted').get(route);
      notAboutTheRule(control, `GET /v4${route} as an unrestricted user`);
      if (control.status !== 200) {
        notServedHere.push(`GET /v4${route} (unrestricted user: ${brief(control)})`);
        continue;
      }
      expectRefusedOr404(await ctx.cloud.as('restricted').get(route), `GET /v4${route} as a restricted user (account_access read_only; the unrestricted user is let through)`);
      // Also a restricted user whom a read_write grant would let through, where the target names one.
      if (ctx.cloud.target.tokens.restrictedReadWrite) expectRefusedOr404(await ctx.cloud.as('restrictedReadWrite').get(route), `GET /v4${route} as a restricted user with account_access read_write (the unrestricted user is let through)`);
      tested.push(`GET /v4${route}`);
    }
    if (!tested.length) return ctx.inconclusive(`no unrestricted-only operation tried lets the unrestricted user through, so none can show a refusal for the caller: ${notServedHere.join('; ')}`);
    if (notServedHere.length) ctx.note(`tested ${tested.join(', ')}; not tested (not served to the unrestricted user): ${notServedHere.join('; ')}`);
  },
);

export const publicWithoutToken = check(
  {
    id: 'cloud.authentication.public-without-token',
    title: 'Public operations (the database engine list) answer without a token',
    protocol: 'cloud',
    section,
    level: 'MUST',
    spec: { file, line: 190, quote: 'Some operations are public (engine list, client thumbnail view)' },
    touches: ['GET /databases/engines'],
    faults: ['public-endpoint-needs-token', 'engine-list-bare-object'],
  },
  async (ctx) => {
    // The value read: the engine list (a list envelope), not only a 200.
    envelope(await ctx.cloud.anonymous().get('/databases/engines'), 'GET /v4/databases/engines without Authorization');
  },
);

const bogus = () => randomBytes(20).toString('hex');

export const oauthCodeExchange = check(
  {
    id: 'cloud.authentication.oauth-code-exchange',
    title: 'The token URL exchanges a code for scope, access_token, refresh_token, token_type bearer and expires_in 7200; the access token is accepted',
    protocol: 'cloud',
    section,
    level: 'MUST',
    spec: { file, line: 186, quote: 'Response fields: scope, access_token, refresh_token, token_type (bearer), expires_in (7200 seconds).' },
    touches: ['GET /account', 'GET /oauth/authorize', 'POST /oauth/token'],
    faults: ['oauth-token-type-mac', 'oauth-expires-in-3600'],
  },
  async (ctx) => {
    await withExchangeClient(ctx, 'exchange', async (c) => {
      const code = await authorizationCode(ctx, c);
      const what = 'POST {auth_url}/oauth/token client_id, client_secret, code (application/x-www-form-urlencoded)';
      const res = await tokenRequest(ctx, { client_id: c.id, client_secret: c.secret, code });
      // A rate limit (429, line 224) is no answer about the exchange.
      notAboutTheRule(res, what);
      expectStatus(res, 200, what);
      const p = pairOf(res);
      for (const name of ['scope', 'access_token', 'refresh_token', 'token_type']) ctx.expect(typeof p[name] === 'string', `${what}: the answer has no ${name} (string): ${brief(res)}`);
      // The bearer scheme's name is case-insensitive (RFC 6749, 5.1; RFC 6750).
      ctx.expect(String(p.token_type).toLowerCase() === 'bearer', `${what}: token_type is ${show(p.token_type)}, expected bearer`);
      ctx.expect(Number(p.expires_in) === 7200, `${what}: expires_in is ${show(p.expires_in)}, expected 7200 (seconds)`);
      const use = await withAccessToken(ctx, String(p.access_token));
      expectStatus(use, 200, 'GET /v4/account with the access token just issued (scope account:read_only)');
    });
  },
);

export const oauthCodeExchangeMultipart = check(
  {
    id: 'cloud.authentication.oauth-code-exchange-multipart',
    title: 'The token URL takes the code exchange as multipart/form-data too',
    protocol: 'cloud',
    section,
    level: 'MUST',
    spec: { file, line: 186, quote: 'the app POSTs to the token URL (application/x-www-form-urlencoded or multipart/form-data) with client_id, client_secret, code' },
    touches: ['GET /oauth/authorize', 'POST /oauth/token'],
    faults: ['oauth-token-urlencoded-only'],
  },
  async (ctx) => {
    await withExchangeClient(ctx, 'multipart', async (c) => {
      const code = await authorizationCode(ctx, c);
      const what = 'POST {auth_url}/oauth/token client_id, client_secret, code (multipart/form-data)';
      const res = await tokenRequest(ctx, { client_id: c.id, client_secret: c.secret, code }, 'multipart');
      // A 429 is no answer about the encoding; a 415 is (the form encoding not taken), so only 429 is set aside.
      if (res.status === 429) notAboutTheRule(res, what);
      expectStatus(res, 200, what);
      ctx.expect(typeof pairOf(res).access_token === 'string', `${what}: the answer has no access_token: ${brief(res)}`);
    });
  },
);

export const oauthRefresh = check(
  {
    id: 'cloud.authentication.oauth-refresh-new-pair',
    title: 'A refresh returns a new access_token and refresh_token, and the new access token is accepted',
    protocol: 'cloud',
    section,
    level: 'MUST',
    spec: { file, line: 187, quote: 'returns new access_token and refresh_token (good for another two hours)' },
    touches: ['GET /account', 'GET /oauth/authorize', 'POST /oauth/token'],
    faults: ['oauth-refresh-same-pair'],
  },
  async (ctx) => {
    await withExchangeClient(ctx, 'refresh', async (c) => {
      const old = await exchangedPair(ctx, c);
      const what = 'POST {auth_url}/oauth/token grant_type=refresh_token, client_id, client_secret, refresh_token';
      const res = await tokenRequest(ctx, { grant_type: 'refresh_token', client_id: c.id, client_secret: c.secret, refresh_token: old.refresh_token });
      // A rate limit (429) is no answer about the refresh (line 224).
      notAboutTheRule(res, what);
      expectStatus(res, 200, what);
      const p = pairOf(res);
      ctx.expect(typeof p.access_token === 'string' && typeof p.refresh_token === 'string', `${what}: no access_token and refresh_token: ${brief(res)}`);
      ctx.expect(p.access_token !== old.access_token, `${what}: the access_token is the one the code exchange issued, not a new one`);
      ctx.expect(p.refresh_token !== old.refresh_token, `${what}: the refresh_token is the one it was sent, not a new one`);
      expectStatus(await withAccessToken(ctx, String(p.access_token)), 200, 'GET /v4/account with the refreshed access token');
    });
  },
);

export const oauthImplicit = check(
  {
    id: 'cloud.authentication.oauth-implicit-no-refresh-token',
    title: 'The public (implicit) workflow redirects with an access_token in the URL fragment and issues no refresh_token',
    protocol: 'cloud',
    section,
    level: 'MUST',
    spec: { file, line: 188, quote: 'redirect back with access_token in the URL fragment; expires in two hours; no refresh_token is issued' },
    touches: ['DELETE /account/oauth-clients/{clientId}', 'GET /account', 'GET /oauth/authorize', 'POST /account/oauth-clients'],
    faults: ['oauth-implicit-refresh-token'],
    tags: ['destructive'],
  },
  async (ctx) => {
    await withOAuthClient(ctx, 'implicit', async (c) => {
      const url = await authorize(ctx, c, 'token');
      const what = `the redirect of GET {auth_url}/oauth/authorize?response_type=token for a public client (${url.origin}${url.pathname}#…)`;
      const fragment = new URLSearchParams(url.hash.replace(/^#/, ''));
      ctx.expect(fragment.get('access_token'), `${what}: no access_token in the URL fragment (fragment keys: ${[...fragment.keys()].join(', ') || 'none'})`);
      ctx.expect(!fragment.has('refresh_token') && !url.searchParams.has('refresh_token'), `${what}: a refresh_token was issued`);
      if (fragment.has('expires_in')) ctx.expect(Number(fragment.get('expires_in')) === 7200, `${what}: expires_in is ${show(fragment.get('expires_in'))}, expected 7200 (two hours)`);
      expectStatus(await withAccessToken(ctx, fragment.get('access_token')!), 200, 'GET /v4/account with the access token of the implicit workflow');
    }, true);
  },
);

export const oauthBadCode = check(
  {
    id: 'cloud.authentication.oauth-bad-code-refused',
    title: 'The token URL refuses a code it did not issue',
    protocol: 'cloud',
    section,
    level: 'SHOULD',
    spec: { file, line: 186, quote: 'login server redirects to the redirect URI with a temporary `code`' },
    touches: ['GET /oauth/authorize', 'POST /oauth/token'],
    faults: ['oauth-any-code-accepted'],
  },
  async (ctx) => {
    await withExchangeClient(ctx, 'bad-code', async (c) => {
      // The positive control: the token URL exchanges a code the login server issued.
      await exchangedPair(ctx, c);
      const what = 'POST {auth_url}/oauth/token client_id, client_secret (both right) and a code no login issued';
      const res = await tokenRequest(ctx, { client_id: c.id, client_secret: c.secret, code: bogus() });
      // A 429 (rate limit) or 415 (media type) is no refusal of the code.
      notAboutTheRule(res, what);
      ctx.expect(refused(res), `${what}: expected a refusal (4xx, no tokens), got ${brief(res)}`);
    });
  },
);

export const oauthBadRefresh = check(
  {
    id: 'cloud.authentication.oauth-bad-refresh-refused',
    title: 'The token URL refuses a refresh_token it did not issue',
    protocol: 'cloud',
    section,
    level: 'SHOULD',
    spec: { file, line: 187, quote: 'Refresh: POST to the same URL with grant_type=refresh_token, client_id, client_secret, refresh_token' },
    touches: ['GET /oauth/authorize', 'POST /oauth/token'],
    faults: ['oauth-any-refresh-accepted'],
  },
  async (ctx) => {
    await withExchangeClient(ctx, 'bad-refresh', async (c) => {
      // The positive control: the token URL serves this client (a code exchange gives a pair).
      await exchangedPair(ctx, c);
      const what = 'POST {auth_url}/oauth/token grant_type=refresh_token, client_id, client_secret (both right) and a refresh_token never issued';
      const res = await tokenRequest(ctx, { grant_type: 'refresh_token', client_id: c.id, client_secret: c.secret, refresh_token: bogus() });
      notAboutTheRule(res, what);
      ctx.expect(refused(res), `${what}: expected a refusal (4xx, no tokens), got ${brief(res)}`);
    });
  },
);

export const oauthBadSecret = check(
  {
    id: 'cloud.authentication.oauth-bad-secret-refused',
    title: 'The token URL refuses a code exchange with a wrong client_secret',
    protocol: 'cloud',
    section,
    level: 'SHOULD',
    spec: { file, line: 186, quote: 'the app POSTs to the token URL (application/x-www-form-urlencoded or multipart/form-data) with client_id, client_secret, code' },
    touches: ['GET /oauth/authorize', 'POST /oauth/token'],
    faults: ['oauth-secret-unchecked'],
  },
  async (ctx) => {
    await withExchangeClient(ctx, 'bad-secret', async (c) => {
      // The positive control: the token URL exchanges a code with the right secret (a token URL not
      // served answers 404 to everything, which is no refusal of the secret).
      await exchangedPair(ctx, c);
      const code = await authorizationCode(ctx, c);
      const what = 'POST {auth_url}/oauth/token client_id, a code just issued to it, and a client_secret that is not its secret';
      const res = await tokenRequest(ctx, { client_id: c.id, client_secret: bogus(), code });
      notAboutTheRule(res, what);
      ctx.expect(refused(res), `${what}: expected a refusal (4xx, no tokens), got ${brief(res)}`);
    });
  },
);

export const checks = [unauthenticated401, insufficientPermission403, readOnlyScopeAllowsGet, readOnlyScopeRefusesWrites, unrestrictedOnlyRefused, publicWithoutToken, oauthCodeExchange, oauthCodeExchangeMultipart, oauthRefresh, oauthImplicit, oauthBadCode, oauthBadRefresh, oauthBadSecret];
