// Section "Users and groups" of build-service-api.md. Checks that change a user work on a user
// they register themselves (POST /person?cmd=register, skipped where the instance does not allow
// it), never on a configured one; group checks make a group of their own (admin).
import { randomBytes } from 'node:crypto';
import type { BuildCaller } from '../../src/clients/build/session.ts';
import { check, type BuildCheckContext } from '../../src/core/check.ts';
import { brief, childCount, deleteProject, expect2xx, expectNot2xx, expectServed, rereadUntil, routeServed, xmlValues } from './support.ts';
import { attr, elements, rootOf, text } from '../../src/clients/xml.ts';
import { direct } from './request-helpers.ts';
import type { BuildResponse } from '../../src/clients/build/session.ts';

const section = 'Users and groups';
const file = 'build-service-api.md';

export const confirmedFilter = check(
  {
    id: 'build.users.person-confirmed',
    title: 'GET /person?confirmed lists only active users',
    protocol: 'build',
    section,
    level: 'MUST',
    spec: { file, line: 72, quote: 'GET /person: list users; `confirmed` lists only active users.' },
    touches: ['GET /person'],
    faults: ['person-confirmed-ignored'],
  },
  async (ctx) => {
    const pending = ctx.build.fixture(ctx.build.fixtures.unconfirmedUser, 'unconfirmedUser');
    const user = ctx.build.as('user');
    const all = expectServed(await user.get('/person'), 'GET /person');
    ctx.expect(xmlValues(all).has(pending), `GET /person does not list the unconfirmed user ${pending}: ${brief(all)}`);
    const confirmed = expect2xx(await user.get('/person', { query: { confirmed: 1 } }), 'GET /person?confirmed=1');
    ctx.expect(!xmlValues(confirmed).has(pending), `GET /person?confirmed=1 lists ${pending}, a user who has not confirmed: ${brief(confirmed)}`);
    ctx.expect(xmlValues(confirmed).has(ctx.build.username('user')), `GET /person?confirmed=1 leaves out the active user ${ctx.build.username('user')}`);
  },
);

interface Registered {
  login: string;
  password: string;
  as(password?: string): BuildCaller;
}

/**
 * A user of the check's own, registered through the API: a set-up step (line 73: "if the instance
 * allows it"), so the check is inconclusive where registration is off.
 */
async function withRegisteredUser(ctx: BuildCheckContext, body: (u: Registered) => Promise<void>): Promise<void> {
  const login = `conformance${randomBytes(4).toString('hex')}`;
  const password = randomBytes(9).toString('hex');
  // Element names are not shown in the document; these are the build service's own.
  const person = `<unregistered_person><login>${login}</login><email>${login}@example.test</email><realname>conformance check</realname><password>${password}</password></unregistered_person>`;
  const reg = await ctx.build.anonymous().post('/person', { query: { cmd: 'register' }, body: person });
  if (reg.status < 200 || reg.status > 299) {
    const withAdmin = await ctx.build.as('admin').post('/person', { query: { cmd: 'register' }, body: person });
    if (withAdmin.status < 200 || withAdmin.status > 299) ctx.inconclusive(`this instance does not register users through POST /person?cmd=register (line 73: "if the instance allows it"): ${brief(withAdmin)}`);
  }
  try {
    await body({ login, password, as: (pw = password) => ctx.build.basic(login, pw, 'REGISTERED_USER') });
  } finally {
    await ctx.build.as('admin').post(`/person/${login}`, { query: { cmd: 'delete' } }).catch(() => undefined);
  }
}

export const changePasswordFirstLine = check(
  {
    id: 'build.users.change-password-first-line',
    title: 'cmd=change_password takes the first line of the body as the new password',
    protocol: 'build',
    section,
    level: 'MUST',
    spec: { file, line: 74, quote: '`change_password` (new password in body; only the first line is used)' },
    touches: ['GET /person/{userid}', 'POST /person', 'POST /person/{userid}'],
    faults: ['change-password-whole-body'],
    tags: ['destructive'],
    reliesOn: ['build.authentication.wrong-password-refused'],
  },
  async (ctx) => {
    await withRegisteredUser(ctx, async (u) => {
      const next = randomBytes(9).toString('hex');
      const self = `/person/${u.login}`;
      // The controls: the registered user reads their own person with their password, and a wrong
      // password is refused there, so logging in below tells which password the server now takes.
      await routeServed(ctx, `GET ${self} as the registered user`, () => u.as().get(self));
      await ctx.setup(`GET ${self} with a wrong password is refused`, async () => expectNot2xx(await u.as(next).get(self), `GET ${self} with a password not yet set`), { seeAlso: 'build.authentication.wrong-password-refused' });
      expect2xx(await u.as().post(`/person/${u.login}`, { query: { cmd: 'change_password' }, body: `${next}\nsecond line that is not part of it\n`, contentType: 'text/plain' }), `POST /person/${u.login}?cmd=change_password`);
      const res = await u.as(next).get(`/person/${u.login}`);
      ctx.expect(res.status >= 200 && res.status <= 299, `after change_password, logging in with the body's first line fails: ${brief(res)}`);
      const old = await u.as().get(self);
      ctx.expect(old.status < 200 || old.status > 299, `after change_password, the old password is still accepted: the password was not changed: ${brief(old)}`);
    });
  },
);

const is2xx = (res: BuildResponse) => res.status >= 200 && res.status <= 299;

/**
 * Whether a project meta shows the project locked. The document says only that a locked project is
 * "locked" (line 57) and shows no meta structure (line 43); the build service writes the lock flag
 * into the meta as `<lock><enable/></lock>` (project.rng; user.rb `lock!` locks each home project
 * through project.rb `lock`, which sets that flag): a `<lock>` child of the root holding an
 * `<enable>` (with or without attributes).
 */
function metaShowsLock(res: BuildResponse): boolean {
  if (!is2xx(res)) return false;
  const root = rootOf(res.xml);
  return direct(root?.node, 'lock').some((l) => elements(l, 'enable').length > 0);
}

export const lockUser = check(
  {
    id: 'build.users.lock',
    title: 'cmd=lock locks the user and the home projects: the user can no longer create projects under home, and a home project is locked',
    protocol: 'build',
    section,
    level: 'MUST',
    spec: { file, line: 74, quote: '`lock` (locks user and home projects)' },
    touches: ['DELETE /source/{project}', 'GET /source/{project}/_meta', 'POST /person', 'POST /person/{userid}', 'PUT /source/{project}/_meta'],
    faults: ['person-lock-noop', 'person-lock-spares-home'],
    tags: ['destructive'],
    reliesOn: ['build.projects.meta-put-creates'],
  },
  async (ctx) => {
    await withRegisteredUser(ctx, async (u) => {
      const admin = ctx.build.as('admin');
      const meta = (name: string) => `<project name="${name}"><title>t</title><description/></project>`;
      const home = `home:${u.login}:before`;
      // A freshly registered user may not be able to act yet (line 72 knows unconfirmed users).
      // The project is read back (rubric 14): it is the home project whose lock is read below.
      await ctx.setup(`create ${home} as the registered user`, async () => {
        expect2xx(await u.as().put(`/source/${home}/_meta`, { body: meta(home) }), `PUT /source/${home}/_meta by the registered user`);
        expect2xx(await admin.get(`/source/${home}/_meta`), `GET /source/${home}/_meta after it was created`);
      }, { seeAlso: 'build.projects.meta-put-creates' });
      // The control of the second way a lock may show (below): before the lock, an admin may
      // write the home project's meta (the same meta again).
      await routeServed(ctx, `PUT /source/${home}/_meta by an admin before the lock`, () => admin.put(`/source/${home}/_meta`, { body: meta(home) }));
      expect2xx(await admin.post(`/person/${u.login}`, { query: { cmd: 'lock' } }), `POST /person/${u.login}?cmd=lock`);
      // The lock may land later (rubric 6): each read is repeated until it shows the lock or what
      // is left of ctx.timeouts.backgroundMs is spent.
      // The user half: the locked user can no longer create a project under home (a try let
      // through before the lock landed created the project: it is removed again, so that each try
      // is a create).
      const after = `home:${u.login}:after`;
      const created = await rereadUntil(ctx, async () => {
        const r = await u.as().put(`/source/${after}/_meta`, { body: meta(after) });
        if (is2xx(r)) await deleteProject(admin, after);
        return r;
      }, (r) => !is2xx(r));
      expectNot2xx(created, `PUT /source/${after}/_meta by the locked user`);
      // The home half: the home project is locked. The document does not show how a locked project
      // looks (lines 43, 57); it is read as the build service shows it (its meta holds
      // <lock><enable/></lock>), and, where the meta shows no lock, as a project that refuses to be
      // changed: the admin's write served before the lock must now be refused.
      const read = await rereadUntil(ctx, () => admin.get(`/source/${home}/_meta`), metaShowsLock);
      if (metaShowsLock(read)) return;
      const write = await admin.put(`/source/${home}/_meta`, { body: meta(home) });
      ctx.expect(!is2xx(write), `the home project ${home} is not locked after cmd=lock: its meta shows no lock (the build service writes <lock><enable/></lock>) within ${ctx.timeouts.backgroundMs} ms, and an admin's PUT of its meta, served before the lock, is still served (${brief(write)}): ${brief(read)}`);
    });
  },
);

export const deleteUser = check(
  {
    id: 'build.users.delete-removes-home',
    title: 'cmd=delete marks the user deleted and removes the home projects',
    protocol: 'build',
    section,
    level: 'MUST',
    spec: { file, line: 74, quote: '`delete` (marks user deleted, removes home projects)' },
    touches: ['GET /person/{userid}', 'GET /source/{project}/_meta', 'POST /person', 'POST /person/{userid}', 'PUT /source/{project}/_meta'],
    faults: ['person-delete-keeps-home', 'person-delete-not-marked'],
    tags: ['destructive'],
    reliesOn: ['build.projects.meta-put-creates'],
  },
  async (ctx) => {
    await withRegisteredUser(ctx, async (u) => {
      const home = `home:${u.login}:project`;
      // A freshly registered user may not be able to act yet (line 72 knows unconfirmed users).
      await ctx.setup(`create ${home} as the registered user`, async () => expect2xx(await u.as().put(`/source/${home}/_meta`, { body: `<project name="${home}"><title>t</title><description/></project>` }), `PUT /source/${home}/_meta`), { seeAlso: 'build.projects.meta-put-creates' });
      const admin = ctx.build.as('admin');
      // The positive control: the home project is found before the user is deleted.
      await routeServed(ctx, `GET /source/${home}/_meta (before the delete)`, () => admin.get(`/source/${home}/_meta`), 'build.projects.meta-put-creates');
      expect2xx(await admin.post(`/person/${u.login}`, { query: { cmd: 'delete' } }), `POST /person/${u.login}?cmd=delete`);
      // The delete may land later (rubric 6): each read is repeated until it shows the effect or
      // what is left of ctx.timeouts.backgroundMs is spent.
      const gone = await rereadUntil(ctx, () => admin.get(`/source/${home}/_meta`), (r) => !is2xx(r));
      expectNot2xx(gone, `GET /source/${home}/_meta after the user was deleted`);
      // "marks user deleted": the user is no longer shown, or shown in state deleted (the
      // person's <state>, as the build service writes it; line 43 shows no structure).
      const stateOf = (res: BuildResponse) => {
        const root = rootOf(res.xml);
        return root ? direct(root.node, 'state').map((e) => text(e).trim())[0] ?? attr(root.node, 'state') : undefined;
      };
      const marked = (res: BuildResponse) => !is2xx(res) || stateOf(res) === 'deleted';
      const shown = await rereadUntil(ctx, () => admin.get(`/person/${u.login}`), marked);
      const state = stateOf(shown);
      ctx.expect(marked(shown), `GET /person/${u.login} after cmd=delete: the user is shown ${state ? `in state ${state}` : 'without a state'}, not marked deleted: ${brief(shown)}`);
    });
  },
);

export const tokenDelete = check(
  {
    id: 'build.users.token-create-delete',
    title: 'A token made by POST /person/<userid>/token is listed, and gone after DELETE',
    protocol: 'build',
    section,
    level: 'MUST',
    spec: { file, line: 75, quote: 'DELETE /person/<userid>/token/<id>: delete (body none)' },
    touches: ['DELETE /person/{userid}/token/{id}', 'GET /person/{userid}/token', 'POST /person/{userid}/token'],
    faults: ['token-delete-noop'],
    tags: ['destructive'],
    // It counts the configured user's tokens before and after: no other check may add or remove one meanwhile.
    writes: ['build:user-tokens'],
  },
  async (ctx) => {
    const user = ctx.build.as('user');
    const login = ctx.build.username('user');
    const path = `/person/${login}/token`;
    const before = await ctx.setup(`list the tokens of ${login}`, async () => expect2xx(await user.get(path), `GET ${path}`));
    expect2xx(await user.post(path), `POST ${path}`);
    const after = expect2xx(await user.get(path), `GET ${path} after POST`);
    ctx.expect(childCount(after) === childCount(before) + 1, `GET ${path}: ${childCount(before)} token(s) before POST, ${childCount(after)} after`);
    // The new token's id, from the listing (neither the document nor the build service puts it in
    // the POST answer): the id of the entry listed now and not before, read as the build service
    // writes a token listing (<entry id="...">; line 43 shows no structure).
    const tokenIds = (res: BuildResponse) => elements(rootOf(res.xml)?.node, 'entry').map((e) => attr(e, 'id')).filter((id): id is string => id !== undefined);
    const old = new Set(tokenIds(before));
    const ids = tokenIds(after).filter((id) => !old.has(id));
    if (ids.length !== 1) ctx.inconclusive(`cannot tell the new token's id from the listing (${ids.length} new entry ids): ${brief(after)}`);
    expect2xx(await user.delete(`${path}/${ids[0]}`), `DELETE ${path}/${ids[0]}`);
    const gone = expect2xx(await user.get(path), `GET ${path} after DELETE`);
    ctx.expect(childCount(gone) === childCount(before), `GET ${path} after DELETE ${path}/${ids[0]} still lists ${childCount(gone)} token(s), ${childCount(before)} before the POST`);
  },
);

/** A group of the check's own (admin), deleted afterwards. */
async function withGroup(ctx: BuildCheckContext, body: (g: { title: string; admin: BuildCaller }) => Promise<void>): Promise<void> {
  const admin = ctx.build.as('admin');
  const title = `conformance-${randomBytes(3).toString('hex')}`;
  await ctx.setup(`create the group ${title}`, async () => expect2xx(await admin.put(`/group/${title}`, { body: `<group><title>${title}</title></group>` }), `PUT /group/${title}`));
  try {
    await body({ title, admin });
  } finally {
    await admin.delete(`/group/${title}`).catch(() => undefined);
  }
}

export const groupMembers = check(
  {
    id: 'build.groups.add-remove-user',
    title: 'add_user and remove_user change the members of a group; `login` lists the groups of a user',
    protocol: 'build',
    section,
    // What add_user and remove_user do is read from their names (line 76 states only that they need `userid`).
    level: 'SHOULD',
    spec: { file, line: 76, quote: 'commands `add_user` and `remove_user` (need `userid`)' },
    touches: ['DELETE /group/{title}', 'GET /group', 'GET /group/{title}', 'POST /group/{title}', 'PUT /group/{title}'],
    faults: ['group-add-user-ignored', 'group-remove-user-noop', 'group-login-ignored'],
    tags: ['destructive'],
  },
  async (ctx) => {
    const login = ctx.build.username('user');
    await withGroup(ctx, async ({ title, admin }) => {
      expect2xx(await admin.post(`/group/${title}`, { query: { cmd: 'add_user', userid: login } }), `POST /group/${title}?cmd=add_user&userid=${login}`);
      const added = expect2xx(await admin.get(`/group/${title}`), `GET /group/${title}`);
      ctx.expect(xmlValues(added).has(login), `GET /group/${title} after add_user does not name ${login}: ${brief(added)}`);
      const mine = expect2xx(await admin.get('/group', { query: { login } }), `GET /group?login=${login}`);
      ctx.expect(xmlValues(mine).has(title), `GET /group?login=${login} does not list ${title}, a group ${login} was added to: ${brief(mine)}`);
      expect2xx(await admin.post(`/group/${title}`, { query: { cmd: 'remove_user', userid: login } }), `POST /group/${title}?cmd=remove_user&userid=${login}`);
      const removed = expect2xx(await admin.get(`/group/${title}`), `GET /group/${title} after remove_user`);
      ctx.expect(!xmlValues(removed).has(login), `GET /group/${title} after remove_user still names ${login}: ${brief(removed)}`);
      const notMine = expect2xx(await admin.get('/group', { query: { login } }), `GET /group?login=${login} after remove_user`);
      ctx.expect(!xmlValues(notMine).has(title), `GET /group?login=${login} lists ${title} after ${login} was removed from it: ${brief(notMine)}`);
    });
  },
);

export const groupEmail = check(
  {
    id: 'build.groups.set-email-removes',
    title: 'set_email without an email removes the group email',
    protocol: 'build',
    section,
    level: 'MUST',
    spec: { file, line: 76, quote: '`set_email` (`email`; the group email is removed when not given)' },
    touches: ['DELETE /group/{title}', 'GET /group/{title}', 'POST /group/{title}', 'PUT /group/{title}'],
    faults: ['group-email-kept'],
    tags: ['destructive'],
  },
  async (ctx) => {
    await withGroup(ctx, async ({ title, admin }) => {
      const email = `${title}@example.test`;
      expect2xx(await admin.post(`/group/${title}`, { query: { cmd: 'set_email', email } }), `POST /group/${title}?cmd=set_email&email=${email}`);
      const set = expect2xx(await admin.get(`/group/${title}`), `GET /group/${title}`);
      ctx.expect(xmlValues(set).has(email), `GET /group/${title} after set_email does not show ${email}: ${brief(set)}`);
      expect2xx(await admin.post(`/group/${title}`, { query: { cmd: 'set_email' } }), `POST /group/${title}?cmd=set_email without email`);
      const cleared = expect2xx(await admin.get(`/group/${title}`), `GET /group/${title} after set_email without email`);
      ctx.expect(!xmlValues(cleared).has(email), `GET /group/${title} still shows ${email} after set_email without an email: ${brief(cleared)}`);
    });
  },
);

export const checks = [confirmedFilter, changePasswordFirstLine, lockUser, deleteUser, tokenDelete, groupMembers, groupEmail];
