// /person (users, registration, password, lock, delete, tokens) and /group of build-ref
// (document: "Users and groups"). Bodies follow the build service's customary shapes
// (<person><login/><email/>…</person>, <group><title/><person><person userid/></person></group>).
import { randomBytes } from 'node:crypto';
import { elements, parseXml, rootOf, text } from '../../../src/clients/xml.ts';
import { notFound, ok, param, refuse, type Api, type Call } from '../api.ts';
import { areaState, newProject, type Token, type User, type World } from '../world.ts';

interface Group {
  title: string;
  email?: string;
  members: Set<string>;
}

const groups = (world: World) => areaState<Map<string, Group>>(world, 'groups', () => new Map([['conformance-reviewers', { title: 'conformance-reviewers', members: new Set(['maintainer']) }]]));

function userOf(call: Call, login = call.params.userid): User {
  const u = call.world.users.get(login);
  if (!u || u.state === 'deleted') throw notFound(`user '${login}' does not exist`);
  return u;
}

/**
 * A user as GET /person/<userid> shows one: the reference does not show a deleted user (404); the
 * variant shows it to an admin with its state `deleted`, as the build service does.
 */
function shownUser(call: Call): User {
  const u = call.world.users.get(call.params.userid);
  if (u && u.state === 'deleted' && call.variant && call.user?.admin) return u;
  return userOf(call);
}

/** The user themself or an admin. */
function selfOrAdmin(call: Call, login: string): void {
  if (call.user?.login !== login && !call.user?.admin) throw refuse(403, 'no_permission', `no permission for user '${login}'`);
}

const adminOnly = (call: Call, what: string) => {
  if (!call.user?.admin) throw refuse(403, 'no_permission', `${what} is for admins`);
};

/** The text of the first element named `name` in an XML body. */
const field = (body: string, name: string) => {
  const el = elements(parseXml(body), name)[0];
  return el ? text(el) : undefined;
};

/** How long after answering the variant carries out cmd=lock and cmd=delete of a user (docs/open-choices.md). */
const VARIANT_PERSON_MS = 300;

/** The home projects of a user: home:<login> and the projects below it. */
const homeProjects = (world: World, login: string) => [...world.projects.values()].filter((p) => p.name === `home:${login}` || p.name.startsWith(`home:${login}:`));

/** A project meta with the lock flag set, as the build service writes it: `<lock><enable/></lock>` (project.rng). */
function lockedMeta(meta: string): string {
  if (/<lock>\s*<enable\s*\/>/.test(meta)) return meta;
  const unlocked = meta.replace(/<lock>[\s\S]*?<\/lock>|<lock\s*\/>/g, '');
  return /<\/project>\s*$/.test(unlocked) ? unlocked.replace(/<\/project>\s*$/, '<lock><enable/></lock></project>') : unlocked;
}

const personXml = (u: User) => ({ person: { login: u.login, email: u.email ?? `${u.login}@build-ref.test`, realname: u.realname ?? u.login, state: u.state ?? 'confirmed' } });

export function registerPeople(api: Api): void {
  const { world } = api;

  api.route('GET', '/person', (call) => {
    const confirmedOnly = param(call, 'confirmed') !== undefined && !call.faults.has('person-confirmed-ignored');
    const users = [...world.users.values()].filter((u) => u.state !== 'deleted' && (!confirmedOnly || (u.state ?? 'confirmed') === 'confirmed'));
    return { xml: { directory: { '@count': String(users.length), entry: users.map((u) => ({ '@name': u.login })) } } };
  });

  api.route('POST', '/person', (call) => {
    if (param(call, 'cmd') !== 'register') throw refuse(400, 'unknown_command', `unknown command '${param(call, 'cmd') ?? ''}'`);
    const login = field(call.body, 'login');
    const password = field(call.body, 'password');
    if (!login || !password || !/^[\w.-]+$/.test(login)) throw refuse(400, 'invalid_person', 'registration needs <login> and <password>');
    if (world.users.has(login)) throw refuse(400, 'user_exists', `user '${login}' exists`);
    world.users.set(login, { login, password, admin: false, privileged: false, state: 'confirmed', email: field(call.body, 'email'), realname: field(call.body, 'realname') });
    world.projects.set(`home:${login}`, newProject(`home:${login}`));
    return ok();
  });

  api.route('GET', '/person/:userid', (call) => ({ xml: personXml(shownUser(call)) }));

  api.route('PUT', '/person/:userid', (call) => {
    const u = userOf(call);
    selfOrAdmin(call, u.login);
    const root = rootOf(parseXml(call.body));
    if (root?.name !== 'person') throw refuse(400, 'invalid_person', 'body must be a <person> document');
    u.email = field(call.body, 'email') ?? u.email;
    u.realname = field(call.body, 'realname') ?? u.realname;
    return ok();
  });

  api.route('POST', '/person/:userid', (call) => {
    const u = userOf(call);
    switch (param(call, 'cmd')) {
      case 'change_password': {
        selfOrAdmin(call, u.login);
        // "new password in body; only the first line is used"
        const pw = call.faults.has('change-password-whole-body') ? call.body : call.body.split(/\r?\n/)[0];
        if (!pw) throw refuse(400, 'password_empty', 'the new password is empty');
        u.password = pw;
        return ok();
      }
      case 'lock':
        adminOnly(call, 'locking a user');
        // "locks user and home projects"; a home project is locked as the build service locks one
        // (user.rb `lock!`, project.rb `lock`): the lock flag, `<lock><enable/></lock>` in its meta.
        if (!call.faults.has('person-lock-noop')) {
          const lock = () => {
            u.state = 'locked';
            if (call.faults.has('person-lock-spares-home')) return;
            for (const p of homeProjects(world, u.login)) {
              p.locked = true;
              p.meta = lockedMeta(p.meta);
            }
          };
          // The variant locks shortly after answering (docs/open-choices.md).
          if (call.variant) setTimeout(lock, VARIANT_PERSON_MS).unref();
          else lock();
        }
        return ok();
      case 'delete': {
        adminOnly(call, 'deleting a user');
        // "marks user deleted, removes home projects"
        const remove = () => {
          if (!call.faults.has('person-delete-not-marked')) u.state = 'deleted';
          if (!call.faults.has('person-delete-keeps-home')) for (const p of homeProjects(world, u.login)) p.deleted = true;
        };
        // The variant deletes shortly after answering (docs/open-choices.md).
        if (call.variant) setTimeout(remove, VARIANT_PERSON_MS).unref();
        else remove();
        return ok();
      }
      default:
        throw refuse(400, 'unknown_command', `unknown command '${param(call, 'cmd') ?? ''}'`);
    }
  });

  // ---- tokens ---------------------------------------------------------------------------------
  api.route('GET', '/person/:userid/token', (call) => {
    selfOrAdmin(call, call.params.userid);
    const tokens = [...world.tokens.values()].filter((t) => t.login === call.params.userid);
    return { xml: { directory: { '@count': String(tokens.length), entry: tokens.map((t) => ({ '@id': String(t.id), '@kind': t.operation, ...(t.project ? { '@project': t.project } : {}), ...(t.package ? { '@package': t.package } : {}) })) } } };
  });

  api.route('POST', '/person/:userid/token', (call) => {
    selfOrAdmin(call, call.params.userid);
    const operation = (param(call, 'operation') ?? 'runservice') as Token['operation'];
    if (!['runservice', 'rebuild', 'release', 'workflow'].includes(operation)) throw refuse(400, 'invalid_operation', `unknown operation '${operation}'`);
    const t: Token = { id: world.nextId(), string: randomBytes(16).toString('hex'), login: call.params.userid, operation, project: param(call, 'project'), package: param(call, 'package') };
    world.tokens.set(t.string, t);
    // The variant names the new token's string only, not its id (as the build service answers).
    const data = [{ '@name': 'token', '#text': t.string }, ...(call.variant ? [] : [{ '@name': 'id', '#text': String(t.id) }])];
    return { xml: { status: { '@code': 'ok', summary: 'Ok', data } } };
  });

  api.route('DELETE', '/person/:userid/token/:id', (call) => {
    selfOrAdmin(call, call.params.userid);
    const t = [...world.tokens.values()].find((x) => x.login === call.params.userid && String(x.id) === call.params.id);
    if (!t) throw notFound(`token ${call.params.id} does not exist`);
    if (!call.faults.has('token-delete-noop')) world.tokens.delete(t.string);
    return ok();
  });

  // ---- groups ---------------------------------------------------------------------------------
  const groupOf = (call: Call) => {
    const g = groups(world).get(call.params.title);
    if (!g) throw notFound(`group '${call.params.title}' does not exist`);
    return g;
  };
  const groupXml = (g: Group) => ({ group: { title: g.title, ...(g.email ? { email: g.email } : {}), person: { person: [...g.members].map((m) => ({ '@userid': m })) } } });

  api.route('GET', '/group', (call) => {
    const login = call.faults.has('group-login-ignored') ? undefined : param(call, 'login');
    const list = [...groups(world).values()].filter((g) => !login || g.members.has(login));
    return { xml: { directory: { '@count': String(list.length), entry: list.map((g) => ({ '@name': g.title })) } } };
  });
  api.route('GET', '/group/:title', (call) => ({ xml: groupXml(groupOf(call)) }));
  api.route('PUT', '/group/:title', (call) => {
    adminOnly(call, 'writing a group');
    if (rootOf(parseXml(call.body))?.name !== 'group') throw refuse(400, 'invalid_group', 'body must be a <group> document');
    const g = groups(world).get(call.params.title) ?? { title: call.params.title, members: new Set<string>() };
    g.email = field(call.body, 'email') ?? g.email;
    for (const p of elements(parseXml(call.body), 'person')) {
      const id = p['@userid'];
      if (typeof id === 'string') g.members.add(id);
    }
    groups(world).set(g.title, g);
    return ok();
  });
  api.route('DELETE', '/group/:title', (call) => {
    adminOnly(call, 'deleting a group');
    groupOf(call);
    groups(world).delete(call.params.title);
    return ok();
  });
  api.route('POST', '/group/:title', (call) => {
    adminOnly(call, 'changing a group');
    const g = groupOf(call);
    const cmd = param(call, 'cmd');
    if (cmd === 'add_user' || cmd === 'remove_user') {
      const userid = param(call, 'userid');
      if (!userid) throw refuse(400, 'missing_parameter', `${cmd} needs userid`);
      userOf(call, userid);
      if (cmd === 'add_user' && !call.faults.has('group-add-user-ignored')) g.members.add(userid);
      if (cmd === 'remove_user' && !call.faults.has('group-remove-user-noop')) g.members.delete(userid);
      return ok();
    }
    if (cmd === 'set_email') {
      // "the group email is removed when not given"
      const email = param(call, 'email');
      if (email || !call.faults.has('group-email-kept')) g.email = email;
      return ok();
    }
    throw refuse(400, 'unknown_command', `unknown command '${cmd ?? ''}'`);
  });
}
