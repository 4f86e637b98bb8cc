// Section "Authentication" of cloud-api.md: bearer tokens, scopes, restricted users, 401 vs 403.
import { check } from '../../src/core/check.ts';
import { expectRefused, expectStatus } from './support.ts';

const section = 'Authentication';
const file = 'cloud-api.md';

export const unauthenticated401 = check(
  {
    id: 'cloud.authentication.unauthenticated-401',
    title: 'A request without a token, or with a token no one issued, gets 401',
    protocol: 'cloud',
    section,
    level: 'MUST',
    spec: { file, line: 191, quote: 'Failure to authenticate gives 401' },
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
    faults: ['read-only-scope-get-refused'],
  },
  async (ctx) => {
    const ro = ctx.cloud.as('readOnly');
    expectStatus(await ro.get('/account'), 200, 'GET /v4/account with account:read_only');
    expectStatus(await ro.get('/account/events'), 200, 'GET /v4/account/events with events:read_only');
  },
);

export const readOnlyScopeRefusesWrites = check(
  {
    id: 'cloud.authentication.read-only-scope-refuses-writes',
    title: 'A token with only :read_only scopes is refused with 403 on a PUT',
    protocol: 'cloud',
    section,
    level: 'MUST',
    spec: { file, line: 189, quote: 'Scopes (each `:read_only` allows GET, `:read_write` all endpoints of the area)' },
    faults: ['read-only-scope-writes'],
  },
  async (ctx) => {
    const res = await ctx.cloud.as('readOnly').put('/account', {});
    expectStatus(res, 403, 'PUT /v4/account with only account:read_only');
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
    faults: ['restricted-passes-unrestricted-only'],
  },
  async (ctx) => {
    // GET /account/logins: "unrestricted users only" (Account table).
    const res = await ctx.cloud.as('restricted').get('/account/logins');
    expectRefused(res, 'GET /v4/account/logins as a restricted user');
    expectStatus(await ctx.cloud.as('unrestricted').get('/account/logins'), 200, 'GET /v4/account/logins as an unrestricted user');
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
    faults: ['public-endpoint-needs-token'],
  },
  async (ctx) => {
    expectStatus(await ctx.cloud.anonymous().get('/databases/engines'), 200, 'GET /v4/databases/engines without Authorization');
  },
);

export const checks = [unauthenticated401, insufficientPermission403, readOnlyScopeAllowsGet, readOnlyScopeRefusesWrites, unrestrictedOnlyRefused, publicWithoutToken];
