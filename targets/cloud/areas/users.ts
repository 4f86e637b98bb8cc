// Users and grants area of cloud-ref ("### Users and grants" of cloud-api.md). All users
// operations require an unrestricted caller; unrestricted users have no grants (204).
import type { Api, Call } from '../api.ts';
import { conflict, notFound, paginate, refuse, requireCaller, validateBody } from '../api.ts';
import { allGlobalGrants, type Grants, type User } from '../world.ts';

const ENTITY_GRANTS = ['domain', 'image', 'node', 'monitoring', 'nodebalancer', 'stackscript', 'volume'] as const;

/** "No grants": every global grant off, no account access, no entity grants. */
export function noGrants(): Grants {
  return { global: allGlobalGrants(false), ...Object.fromEntries(ENTITY_GRANTS.map((k) => [k, []])) };
}

/** A User as Linode writes one: the named fields, its SSH keys and whether two-factor login is on. */
const view = (u: User) => ({ username: u.username, email: u.email, restricted: u.restricted, ssh_keys: [], tfa_enabled: false });

type GrantItem = { id: number; permissions: string | null; label?: string };

/**
 * A restricted user's Grants as Linode writes them: each entity array lists every entity of that
 * kind on the account (here its nodes and domains), with the entity's label, and `permissions:
 * null` where none is granted. The variant lists only the entities granted (docs/open-choices.md:
 * line 43 shows items with read_only or read_write only). The fault
 * restricted-turn-keeps-entity-grants lists every entity with read_only instead of null.
 */
function grantsView(call: Call, u: User): Grants {
  const grants = u.grants ?? noGrants();
  const keeps = call.faults.has('restricted-turn-keeps-entity-grants');
  const entities: Record<string, { id: number; label: string }[]> = {
    node: [...call.world.nodes.values()].filter((n) => n.account === u.account),
    domain: [...call.world.domains.values()].filter((d) => d.account === u.account),
  };
  const out: Grants = { ...grants, global: { ...grants.global } };
  for (const k of ENTITY_GRANTS) {
    const granted = ((grants[k] as GrantItem[] | undefined) ?? []).map((g) => ({ id: g.id, permissions: g.permissions, label: entities[k]?.find((e) => e.id === g.id)?.label ?? g.label ?? `${k}-${g.id}` }));
    if (call.variant && !keeps) {
      out[k] = granted.filter((g) => g.permissions === 'read_only' || g.permissions === 'read_write');
      continue;
    }
    const others = (entities[k] ?? []).filter((e) => !granted.some((g) => g.id === e.id)).map((e) => ({ id: e.id, permissions: keeps ? 'read_only' : null, label: e.label }));
    out[k] = [...granted, ...others];
  }
  return out;
}

export function registerUsers(api: Api): void {
  const { world } = api;
  const grant = api.faults.has('users-open-to-restricted') ? ('read_only' as const) : ('unrestricted' as const);
  const ro = 'account:read_only';
  const rw = 'account:read_write';

  /** The user `username` of the caller's account, else 404. */
  const target = (call: Call): User => {
    const { account } = requireCaller(call);
    const u = world.users.get(call.params.username);
    if (!u || u.account !== account.id) throw notFound('User not found');
    return u;
  };

  api.endpoint({ method: 'GET', path: '/account/users', scope: ro, grant }, (call) => {
    const { account } = requireCaller(call);
    return paginate(call, [...world.users.values()].filter((u) => u.account === account.id).map(view), ['username', 'email', 'restricted']);
  });

  api.endpoint({ method: 'POST', path: '/account/users', scope: rw, grant, request: (call) => void validateBody(call, 'userCreate', call.body) }, (call) => {
    const { account } = requireCaller(call);
    type UserCreate = { username: string; email: string; restricted?: boolean };
    const given = (call.body ?? {}) as Partial<UserCreate>;
    // The fault validates as if an email had been given, and stores none.
    const withEmail = call.faults.has('user-create-without-email') && given.email === undefined ? { ...given, email: 'none@example.invalid' } : given;
    const body = { ...validateBody<UserCreate>(call, 'userCreate', withEmail), email: given.email ?? '' };
    if (world.users.has(body.username)) throw refuse(400, 'Username is taken', 'username');
    const restricted = body.restricted === true;
    const u: User = { username: body.username, email: body.email, restricted, account: account.id, grants: restricted ? noGrants() : null };
    world.users.set(u.username, u);
    return { body: view(u) };
  });

  api.endpoint({ method: 'GET', path: '/account/users/{username}', scope: ro, grant }, (call) => ({ body: view(target(call)) }));

  api.endpoint({ method: 'PUT', path: '/account/users/{username}', scope: rw, grant, request: (call) => void validateBody(call, 'user', call.body) }, (call) => {
    const u = target(call);
    const body = validateBody<{ username?: string; email?: string; restricted?: boolean }>(call, 'user', call.body);
    if (body.username !== undefined && body.username !== u.username) {
      if (world.users.has(body.username)) throw refuse(400, 'Username is taken', 'username');
      world.users.delete(u.username);
      for (const t of world.tokens.values()) if (t.username === u.username) t.username = body.username;
      u.username = body.username;
      world.users.set(u.username, u);
    }
    if (body.email !== undefined) u.email = body.email;
    if (body.restricted !== undefined && body.restricted !== u.restricted) {
      u.restricted = body.restricted;
      // Turning a user restricted leaves no grants until set; unrestricted users have none.
      u.grants = body.restricted ? (call.faults.has('restricted-turn-keeps-grants') ? { ...noGrants(), global: allGlobalGrants(true) } : noGrants()) : null;
    }
    return { body: view(u) };
  });

  api.endpoint({ method: 'DELETE', path: '/account/users/{username}', scope: rw, grant }, (call) => {
    if (call.faults.has('delete-unknown-user-200') && !world.users.has(call.params.username)) return { body: {} };
    const u = target(call);
    if (call.faults.has('user-delete-noop')) return { body: {} };
    // Logged out immediately: the user's tokens stop working.
    for (const [k, t] of world.tokens) if (t.username === u.username) world.tokens.delete(k);
    world.users.delete(u.username);
    if (call.faults.has('delete-answers-text')) return { body: 'OK', contentType: 'text/plain' };
    return { body: {} };
  });

  api.endpoint({ method: 'GET', path: '/account/users/{username}/grants', scope: ro, grant }, (call) => {
    const u = target(call);
    if (!u.restricted || !u.grants) return call.faults.has('unrestricted-grants-200') ? { body: { global: allGlobalGrants(true) } } : { status: 204 };
    if (call.faults.has('grants-without-global')) return { body: {} };
    return { body: grantsView(call, u) };
  });

  api.endpoint({ method: 'PUT', path: '/account/users/{username}/grants', scope: rw, grant, request: (call) => void validateBody(call, 'grants', call.body) }, (call) => {
    const u = target(call);
    const body = validateBody<Partial<Grants>>(call, 'grants', call.body);
    if (!u.restricted) throw conflict(call, 'Unrestricted users have every grant; make the user restricted first');
    const before = call.faults.has('grants-put-replaces') ? noGrants() : (u.grants ?? noGrants());
    // Omitted grants stay as they are: global grants key by key, entity lists when given.
    const next: Grants = { ...before, global: { ...before.global, ...(body.global ?? {}) } };
    for (const k of ENTITY_GRANTS) if (body[k] !== undefined) next[k] = body[k];
    u.grants = next;
    return { body: grantsView(call, u) };
  });
}
