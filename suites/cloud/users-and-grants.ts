// Section "Users and grants" of cloud-api.md: users of the account and their grants. Checks that
// create users give them names unique to the check and delete them afterwards.
import { randomBytes } from 'node:crypto';
import { check, type CloudCheckContext } from '../../src/core/check.ts';
import { brief, expectRefused, expectRefusedToRestricted, expectShape, expectStatus, isJsonObject, show, bodyObject, bodyField } from './support.ts';
import { expectNotFound, walkPages } from './controls.ts';

const section = 'Users and grants';
const file = 'cloud-api.md';
const USERS = '/account/users';

const userPath = (u: string) => `${USERS}/${encodeURIComponent(u)}`;

/** A username no other check (or earlier run) uses. */
export const uniqueUsername = (what: string) => `conf-${what}-${randomBytes(4).toString('hex')}`;

/** Creates a user as the unrestricted caller (a set-up step: the answer must be 200). */
async function createUser(ctx: CloudCheckContext, what: string, restricted: boolean): Promise<string> {
  const username = uniqueUsername(what);
  const body = { username, email: `${username}@example.com`, restricted };
  return ctx.setup(`create a user (POST /v4${USERS} ${JSON.stringify(body)})`, async () => {
    const res = await ctx.cloud.as('unrestricted').post(USERS, body);
    expectStatus(res, 200, `POST /v4${USERS} ${JSON.stringify(body)}`);
    expectShape(res, 'user', `POST /v4${USERS}`);
    // A 2xx has not been seen to create anything: the user is read back.
    const back = await ctx.cloud.as('unrestricted').get(userPath(username));
    expectStatus(back, 200, `GET /v4${USERS}/${username} of the user just created`);
    if (bodyField(back, 'username') !== username || bodyField(back, 'restricted') !== restricted) ctx.fail(`GET /v4${USERS}/${username} of the user just created: expected username ${show(username)} and restricted ${restricted}, got ${show(back.json)}`);
    return username;
  }, { seeAlso: 'cloud.users.delete' });
}

/** Every user of the account, as the unrestricted caller (a set-up read). */
function users(ctx: CloudCheckContext): Promise<Record<string, unknown>[]> {
  return ctx.setup(`GET /v4${USERS} as an unrestricted user`, () => walkPages(ctx, ctx.cloud.as('unrestricted'), USERS, `GET /v4${USERS} as an unrestricted user`));
}

/** Best-effort cleanup (the answer is not judged). */
export async function deleteUserQuietly(ctx: CloudCheckContext, username: string): Promise<void> {
  await ctx.cloud.as('unrestricted').delete(`${USERS}/${encodeURIComponent(username)}`).catch(() => undefined);
}


export const createRequiresUsernameAndEmail = check(
  {
    id: 'cloud.users.create-requires-username-and-email',
    title: 'Creating a user without username, or without email, is refused',
    protocol: 'cloud',
    section,
    level: 'SHOULD',
    spec: { file, line: 142, quote: '{username, email required, restricted} -> User' },
    touches: ['DELETE /account/users/{username}', 'GET /account/users/{username}', 'POST /account/users'],
    faults: ['user-create-without-email'],
    tags: ['destructive'],
  },
  async (ctx) => {
    const username = uniqueUsername('noemail');
    const api = ctx.cloud.as('unrestricted');
    // The positive control: the route creates a user from a body with both (deleted again).
    const made = await createUser(ctx, 'control', true);
    await deleteUserQuietly(ctx, made);
    try {
      expectRefused(await api.post(USERS, { username, restricted: true }), `POST /v4${USERS} {"username":"${username}","restricted":true} (no email)`);
      expectRefused(await api.post(USERS, { email: `${username}@example.com`, restricted: true }), `POST /v4${USERS} {"email":…,"restricted":true} (no username)`);
    } finally {
      await deleteUserQuietly(ctx, username);
    }
  },
);

export const unrestrictedCallerOnly = check(
  {
    id: 'cloud.users.unrestricted-caller-only',
    title: 'The users operations are refused to a restricted caller',
    protocol: 'cloud',
    section,
    level: 'MUST',
    spec: { file, line: 149, quote: 'All users operations require an unrestricted caller' },
    touches: ['GET /account/users', 'GET /account/users/{username}'],
    faults: ['users-open-to-restricted', 'restricted-passes-unrestricted-only', 'unrestricted-only-as-read-write'],
  },
  async (ctx) => {
    // The positive control first: the unrestricted caller is let through (the list, and a user of it).
    const someone = (await users(ctx)).find((u) => typeof u.username === 'string' && !u.username.startsWith('conf-'));
    if (someone) await ctx.setup(`GET /v4${USERS}/{username} as the unrestricted user (the positive control)`, async () => expectStatus(await ctx.cloud.as('unrestricted').get(userPath(someone.username as string)), 200, `GET /v4${USERS}/${someone.username as string} as the unrestricted user`));
    // The restricted role has account_access read_only, which would be enough for a read_only grant.
    // (and a restricted user with account_access read_write, where the target names one).
    await expectRefusedToRestricted(ctx, (api) => api.get(USERS), `GET /v4${USERS}`);
    if (someone) await expectRefusedToRestricted(ctx, (api) => api.get(userPath(someone.username as string)), `GET /v4${USERS}/{username}`);
  },
);

export const unrestrictedGrants204 = check(
  {
    id: 'cloud.users.unrestricted-grants-204',
    title: 'GET grants of an unrestricted user answers 204 with no body',
    protocol: 'cloud',
    section,
    level: 'MUST',
    spec: { file, line: 146, quote: '204 with no body for an unrestricted user' },
    touches: ['GET /account/users', 'GET /account/users/{username}/grants'],
    faults: ['unrestricted-grants-200'],
  },
  async (ctx) => {
    const api = ctx.cloud.as('unrestricted');
    // Users other checks create (conf-…) may be deleted meanwhile: a seeded user is preferred.
    const candidates = (await users(ctx)).filter((u) => u.restricted === false && typeof u.username === 'string');
    const user = candidates.find((u) => !(u.username as string).startsWith('conf-')) ?? candidates[0];
    if (!user) return ctx.inconclusive(`GET /v4${USERS} lists no user with restricted false`);
    const res = await api.get(`${userPath(user!.username as string)}/grants`);
    const what = `GET /v4${USERS}/${user!.username as string}/grants (an unrestricted user)`;
    expectStatus(res, 204, what);
    ctx.expect(res.text.length === 0, `${what}: 204 comes with no body, got ${show(res.text)}`);
  },
);

export const turnedRestrictedNoGrants = check(
  {
    id: 'cloud.users.turned-restricted-no-grants',
    title: 'A user turned restricted has no grants until they are set',
    protocol: 'cloud',
    section,
    level: 'MUST',
    spec: { file, line: 144, quote: 'turning a user restricted leaves no grants until set' },
    touches: ['DELETE /account/users/{username}', 'GET /account/users/{username}', 'GET /account/users/{username}/grants', 'POST /account/users', 'PUT /account/users/{username}'],
    faults: ['restricted-turn-keeps-grants', 'grants-without-global', 'restricted-turn-keeps-entity-grants'],
    tags: ['destructive'],
  },
  async (ctx) => {
    const api = ctx.cloud.as('unrestricted');
    const username = await createUser(ctx, 'turned', false);
    try {
      const put = await api.put(userPath(username), { restricted: true });
      expectStatus(put, 200, `PUT /v4${USERS}/{username} {"restricted":true}`);
      const res = await api.get(`${userPath(username)}/grants`);
      const what = `GET /v4${USERS}/{username}/grants after turning the user restricted`;
      expectStatus(res, 200, what);
      expectShape(res, 'grants', what);
      const grants = res.json as Record<string, unknown> & { global?: Record<string, unknown> };
      // The value read: the GrantsResponse's global object (line 43), where "no grants" shows.
      ctx.expect(bodyObject(res, 'global'), `${what}: the Grants have no global object (line 43), so which grants the user has cannot be read: ${show(res.json)}`);
      const granted = Object.entries(grants.global ?? {}).filter(([, v]) => v === true || v === 'read_only' || v === 'read_write').map(([k, v]) => `global.${k}=${show(v)}`);
      // The entity arrays (line 43) may list every entity of the account, as Linode does, with
      // permissions null where none is granted: only read_only or read_write is a grant.
      for (const k of ['domain', 'image', 'node', 'monitoring', 'nodebalancer', 'stackscript', 'volume']) {
        const items = grants[k];
        if (!Array.isArray(items)) continue;
        const with_ = items.filter((e) => e !== null && typeof e === 'object' && ((e as { permissions?: unknown }).permissions === 'read_only' || (e as { permissions?: unknown }).permissions === 'read_write'));
        if (with_.length) granted.push(`${k}: ${with_.length} entities with permissions ${show([...new Set(with_.map((e) => (e as { permissions: unknown }).permissions))])}`);
      }
      ctx.expect(granted.length === 0, `${what}: expected no grants until set, got ${granted.join(', ')}`);
    } finally {
      await deleteUserQuietly(ctx, username);
    }
  },
);

export const grantsOmittedUnchanged = check(
  {
    id: 'cloud.users.grants-omitted-unchanged',
    title: 'PUT grants leaves the grants it omits unchanged',
    protocol: 'cloud',
    section,
    level: 'MUST',
    spec: { file, line: 147, quote: 'Grants (omitted grants unchanged) -> Grants' },
    touches: ['DELETE /account/users/{username}', 'GET /account/users/{username}', 'GET /account/users/{username}/grants', 'POST /account/users', 'PUT /account/users/{username}/grants'],
    faults: ['grants-put-replaces'],
    tags: ['destructive'],
  },
  async (ctx) => {
    const api = ctx.cloud.as('unrestricted');
    const username = await createUser(ctx, 'grants', true);
    const grantsPath = `${userPath(username)}/grants`;
    try {
      // Read first, then set values that differ from what the grants hold: a PUT that changes nothing proves nothing.
      const current = await ctx.setup(`GET /v4${USERS}/{username}/grants of the new restricted user`, async () => {
        const res = await api.get(grantsPath);
        expectStatus(res, 200, `GET /v4${USERS}/{username}/grants`);
        return bodyObject(res, 'global') ?? {};
      });
      const first = { add_databases: current.add_databases !== true, account_access: current.account_access === 'read_only' ? 'read_write' : 'read_only' };
      const second = { add_domains: current.add_domains !== true };
      const firstWhat = `PUT /v4${USERS}/{username}/grants ${JSON.stringify({ global: first })}`;
      await ctx.setup(firstWhat, async () => expectStatus(await api.put(grantsPath, { global: first }), 200, firstWhat));
      const res = await api.put(grantsPath, { global: second });
      const what = `PUT /v4${USERS}/{username}/grants ${JSON.stringify({ global: second })} after ${firstWhat}`;
      expectStatus(res, 200, what);
      expectShape(res, 'grants', what);
      const view = await api.get(grantsPath);
      expectStatus(view, 200, `GET /v4${USERS}/{username}/grants`);
      for (const [r, where] of [[res, what], [view, `GET /v4${USERS}/{username}/grants after both PUTs`]] as const) {
        const global = bodyObject(r, 'global') ?? {};
        ctx.expect(global.add_databases === first.add_databases && global.account_access === first.account_access, `${where}: the omitted grants changed: add_databases ${show(global.add_databases)}, account_access ${show(global.account_access)} (expected ${show(first.add_databases)} and ${show(first.account_access)})`);
        ctx.expect(global.add_domains === second.add_domains, `${where}: expected add_domains ${show(second.add_domains)}, got ${show(global.add_domains)}`);
      }
    } finally {
      await deleteUserQuietly(ctx, username);
    }
  },
);

export const deleteUser = check(
  {
    id: 'cloud.users.delete',
    title: 'DELETE of a user answers {} and the user is gone',
    protocol: 'cloud',
    section,
    level: 'MUST',
    spec: { file, line: 145, quote: '| DELETE | /account/users/{username} | account:read_write | -> {}; user is logged out immediately and grants removed |' },
    touches: ['DELETE /account/users/{username}', 'GET /account/users/{username}', 'POST /account/users'],
    faults: ['user-delete-noop', 'delete-answers-text'],
    tags: ['destructive'],
  },
  async (ctx) => {
    const api = ctx.cloud.as('unrestricted');
    const username = await createUser(ctx, 'delete', true);
    await ctx.setup(`GET /v4${USERS}/{username} of the user just created`, async () => expectStatus(await api.get(userPath(username)), 200, `GET /v4${USERS}/{username} of the user just created`));
    const del = await api.delete(userPath(username));
    expectStatus(del, 200, `DELETE /v4${USERS}/{username}`);
    // "-> {}": a JSON object (fields beyond it are not judged).
    ctx.expect(isJsonObject(del), `DELETE /v4${USERS}/{username}: expected {}, got ${brief(del)}`);
    expectStatus(await api.get(userPath(username)), 404, `GET /v4${USERS}/{username} after DELETE`);
  },
);

export const neverExisted404 = check(
  {
    id: 'cloud.users.never-existed-404',
    title: 'GET, PUT and DELETE of a user that never existed answer 404',
    protocol: 'cloud',
    section: 'Errors',
    level: 'MUST',
    spec: { file, line: 214, quote: '| 404 | resource does not exist |' },
    touches: ['DELETE /account/users/{username}', 'GET /account/users', 'GET /account/users/{username}', 'PUT /account/users/{username}'],
    faults: ['delete-unknown-user-200'],
  },
  async (ctx) => {
    const api = ctx.cloud.as('unrestricted');
    // The positive control: an existing user (a listed one; seeded ones preferred) is found on the same route.
    const listed = (await users(ctx)).filter((u) => typeof u.username === 'string');
    const someone = listed.find((u) => !(u.username as string).startsWith('conf-')) ?? listed[0];
    if (!someone) return ctx.inconclusive(`GET /v4${USERS} lists no user: that the route finds an existing user cannot be shown`);
    const name = someone.username as string;
    await ctx.setup(`GET /v4${USERS}/${name} (the positive control: a listed user is found)`, async () => expectStatus(await api.get(userPath(name)), 200, `GET /v4${USERS}/${name} (listed)`));
    const gone = uniqueUsername('never');
    expectNotFound(await api.get(userPath(gone)), `GET /v4${USERS}/${gone} (no user has this name)`);
    expectNotFound(await api.put(userPath(gone), { email: `${gone}@example.com` }), `PUT /v4${USERS}/${gone} {"email":…} (no user has this name)`);
    expectNotFound(await api.delete(userPath(gone)), `DELETE /v4${USERS}/${gone} (no user has this name)`);
  },
);

export const checks = [neverExisted404, createRequiresUsernameAndEmail, unrestrictedCallerOnly, unrestrictedGrants204, turnedRestrictedNoGrants, grantsOmittedUnchanged, deleteUser];
