// The stateful CLOUD kind `http-json-sequence` (opt-in: `--kind http-json-sequence`; only with
// `allow: ['destructive']`, and only on resources the sequence itself creates). Each case is a
// chain of requests where cloud-api.md states a rule about the chain (RESTler's checker classes):
//   lifecycle       OAuth clients and users: create -> read (what was sent) -> update -> read (the
//                   new value) -> delete -> read (404: "404 | resource does not exist") -> delete
//                   again (404). OAuth client DELETE: "client id and secret stop being accepted";
//                   users DELETE: "user is logged out immediately and grants removed".
//   never-existed   a read of an OAuth client id, a username or a transfer token never created: 404
//   refused-create  a create refused with a 4xx leaves nothing behind: an OAuth client without the
//                   required redirect_uri is not listed; a user without the required email is not found (404)
//   other-account   one account's resource as another sees it, where the document states it:
//                   service transfers ("visibility: pending: unrestricted user of any account; ...
//                   cancelled or expired: creating account only"; DELETE "only creating account"),
//                   users ("All users operations require an unrestricted caller": a restricted
//                   user of the account is refused). The document states no rule for another
//                   account's view of OAuth clients, so no chain asserts one.
// A chain stops at its first failing step: the finding holds that shortest failing prefix, and
// `replay` runs the whole chain again. Chains that need a role or fixture the target's config does
// not give (tokens.otherAccount, tokens.restricted, fixtures.transferableNodeIds) send nothing.
import { randomBytes } from 'node:crypto';
import fc from 'fast-check';
import { UsageError } from '../../src/core/errors.ts';
import type { FuzzKind } from '../core/kind.ts';
import type { HttpCase } from './case.ts';
import { ChainRun, judged, ok, refused, type ChainEnv, type ChainResult } from './chain.ts';
import { selectedRoute } from './kinds.ts';

export type Checker = 'lifecycle' | 'never-existed' | 'refused-create' | 'other-account';
/** The resource a chain works on (absent: an OAuth client, as chains stored before users and transfers were added). */
export type CloudResource = 'oauth-client' | 'user' | 'transfer';

export interface ChainSpec {
  checker: Checker;
  resource?: CloudResource;
  label: string;
  newLabel: string;
  /** An id no resource has (a prefix the server never hands out, and random text). */
  missingId: string;
  /** other-account on transfers: which of the configured transferable nodes the transfer names. */
  node?: number;
}

export type { ChainResult, ChainStep } from './chain.ts';

const V4 = '/v4/account';
const CLIENTS = `${V4}/oauth-clients`;
const USERS = `${V4}/users`;
const TRANSFERS = `${V4}/service-transfers`;
const REDIRECT = 'https://conformance-fuzz.invalid/callback';

/** Which resources each checker runs on (users and transfers where the document states the rule for them). */
const PLAN: readonly [Checker, CloudResource][] = [
  ['lifecycle', 'oauth-client'],
  ['lifecycle', 'oauth-client'],
  ['lifecycle', 'user'],
  ['never-existed', 'oauth-client'],
  ['never-existed', 'user'],
  ['never-existed', 'transfer'],
  ['refused-create', 'oauth-client'],
  ['refused-create', 'user'],
  ['other-account', 'transfer'],
  ['other-account', 'user'],
];

/** Every route a chain on each resource may send (any checker): a resource is chained only when all are selected. */
const CHAIN_ROUTES: Record<CloudResource, readonly string[]> = {
  'oauth-client': ['POST /account/oauth-clients', 'GET /account/oauth-clients', 'GET /account/oauth-clients/{clientId}', 'PUT /account/oauth-clients/{clientId}', 'DELETE /account/oauth-clients/{clientId}'],
  user: ['POST /account/users', 'GET /account/users/{username}', 'PUT /account/users/{username}', 'DELETE /account/users/{username}'],
  transfer: ['POST /account/service-transfers', 'GET /account/service-transfers/{token}', 'DELETE /account/service-transfers/{token}'],
};

/** The chain as a case: the driver runs it step by step (`chain`), the rest names its first request. */
export const httpJsonSequence: FuzzKind<HttpCase> = {
  name: 'http-json-sequence',
  protocol: 'cloud',
  optIn: true,
  description: "CLOUD request chains on resources the campaign creates (OAuth clients, users, service transfers): create-read-update-delete-read, ids never created, refused creates, another account's view (needs allow: ['destructive'])",
  arbitrary: (ctx) => {
    if (!ctx.destructive) throw new UsageError("fuzz kind 'http-json-sequence' changes state through chains of requests: it runs only on a target whose config has allow: ['destructive']");
    const label = fc.string({ minLength: 1, maxLength: 24 }).map((s) => `conformance-fuzz-${ctx.seed ?? 0}-${s}`);
    const plan = PLAN.filter(([, resource]) => CHAIN_ROUTES[resource].every((r) => selectedRoute(ctx, r)));
    if (!plan.length) throw new UsageError("fuzz kind 'http-json-sequence': no resource it chains (OAuth clients, users, service transfers) has all its routes inside the selection");
    return fc
      .record({ plan: fc.constantFrom(...plan), label, newLabel: label, missingId: fc.stringMatching(/^[a-z0-9]{1,16}$/).map((s) => `conformance-never-${s}`), node: fc.nat({ max: 1023 }) })
      .map(({ plan: [checker, resource], ...rest }): HttpCase => {
        const chain: ChainSpec = { checker, resource, ...rest };
        const base = resource === 'user' ? USERS : resource === 'transfer' ? TRANSFERS : CLIENTS;
        return { method: checker === 'never-existed' ? 'GET' : 'POST', path: base, route: `${base} (${checker} sequence)`, chain };
      });
  },
};

const idOf = (json: unknown, key = 'id'): string | undefined => {
  const id = (json as Record<string, unknown> | undefined)?.[key];
  const text = typeof id === 'number' && Number.isSafeInteger(id) ? String(id) : id;
  return typeof text === 'string' && /^[A-Za-z0-9_-]{1,128}$/.test(text) ? text : undefined;
};
const field = (o: { res?: { json?: unknown } }, key: string): unknown => (o.res?.json as Record<string, unknown> | undefined)?.[key];
/** A username of the chain's own: unique per run (chains run concurrently and are replayed), safe in a path. */
const freshName = () => `cfz${randomBytes(6).toString('hex')}`;

/** Runs a chain; stops at the first failing step (the shortest failing prefix) or where it cannot go on. */
export async function runChain(spec: ChainSpec, env: ChainEnv): Promise<ChainResult> {
  const run = new ChainRun(env, spec.checker);
  const resource = spec.resource ?? 'oauth-client';
  switch (spec.checker) {
    case 'never-existed':
      return neverExisted(run, resource, spec);
    case 'refused-create':
      return resource === 'user' ? refusedUser(run, env) : refusedClient(run, spec);
    case 'other-account':
      return resource === 'user' ? userAsRestricted(run, env) : transferAsOtherAccount(run, env, spec);
    default:
      return resource === 'user' ? userLifecycle(run, env) : clientLifecycle(run, env, spec);
  }
}

async function neverExisted(run: ChainRun, resource: CloudResource, spec: ChainSpec): Promise<ChainResult> {
  // A transfer token is a UUID: one made of the id's hex digits, a token no server handed out.
  const hex = Buffer.from(spec.missingId).toString('hex').padEnd(32, '0').slice(0, 32);
  const [path, what] =
    resource === 'user' ? [`${USERS}/${spec.missingId}`, 'user']
    : resource === 'transfer' ? [`${TRANSFERS}/${hex.slice(0, 8)}-${hex.slice(8, 12)}-4${hex.slice(13, 16)}-8${hex.slice(17, 20)}-${hex.slice(20)}`, 'service transfer token']
    : [`${CLIENTS}/${spec.missingId}`, 'OAuth client id'];
  const o = await run.step('GET', path);
  if (judged(o) && o.res!.status !== 404) return run.fail('sequence-unknown-id-404', `GET of a ${resource} never created -> ${o.res!.status}`, `GET of the ${what} ${path.split('/').pop()}, which was never created, answered ${o.res!.status}; the document owes 404 ("resource does not exist")`);
  return run.done();
}

async function refusedClient(run: ChainRun, spec: ChainSpec): Promise<ChainResult> {
  // Other cases create clients meanwhile: the refused one is told apart by a label of its own.
  const label = `${spec.label}-${randomBytes(6).toString('hex')}`;
  const mine = async () => {
    const o = await run.step('GET', CLIENTS);
    const data = field(o, 'data');
    return Array.isArray(data) ? data.filter((c) => (c as { label?: unknown })?.label === label).map((c) => idOf(c) ?? '?') : undefined;
  };
  if (!(await mine())) return run.done();
  // redirect_uri is required on create: a client without it is refused.
  const o = await run.step('POST', CLIENTS, { json: { label } });
  if (!refused(o)) return run.done();
  const added = (await mine()) ?? [];
  if (added.length) return run.fail('sequence-refused-create', `create refused with ${o.res!.status} -> a new client listed`, `a create refused with ${o.res!.status} left OAuth client(s) ${added.join(', ')} behind`);
  return run.done();
}

async function refusedUser(run: ChainRun, env: ChainEnv): Promise<ChainResult> {
  const username = freshName();
  // "username, email (both required on create)": a user without an email is refused.
  const o = await run.step('POST', USERS, { json: { username } });
  if (ok(o)) env.created(`${USERS}/${username}`);
  if (!refused(o)) return run.done();
  const read = await run.step('GET', `${USERS}/${username}`);
  if (judged(read) && read.res!.status !== 404) return run.fail('sequence-refused-create', `user create refused with ${o.res!.status} -> GET of it ${read.res!.status}`, `a user create refused with ${o.res!.status} left the user ${username} behind: GET answered ${read.res!.status}, the document owes 404 ("resource does not exist")`);
  return run.done();
}

/** create -> read -> update -> read -> delete -> read 404 -> delete 404, on an OAuth client. */
async function clientLifecycle(run: ChainRun, env: ChainEnv, spec: ChainSpec): Promise<ChainResult> {
  const created = await run.step('POST', CLIENTS, { json: { label: spec.label, redirect_uri: REDIRECT } });
  const id = ok(created) ? idOf(created.res!.json) : undefined;
  if (id === undefined) return run.done(); // not created: nothing to follow (a refusal is the single-request kinds' to judge)
  const path = `${CLIENTS}/${id}`;
  env.created(path);
  return lifecycle(run, env, { path, what: `the OAuth client ${id}`, key: 'label', value: spec.label, update: { label: spec.newLabel }, newValue: spec.newLabel });
}

/** The same on a user of the campaign's own making (username and email of the chain's). */
async function userLifecycle(run: ChainRun, env: ChainEnv): Promise<ChainResult> {
  const username = freshName();
  const created = await run.step('POST', USERS, { json: { username, email: `${username}@conformance-fuzz.invalid`, restricted: false } });
  if (!ok(created)) return run.done();
  const path = `${USERS}/${username}`;
  env.created(path);
  const email = `${username}-2@conformance-fuzz.invalid`;
  return lifecycle(run, env, { path, what: `the user ${username}`, key: 'email', value: `${username}@conformance-fuzz.invalid`, update: { email }, newValue: email });
}

interface Life {
  path: string;
  what: string;
  /** The field that is read back after the create and after the update. */
  key: string;
  value: unknown;
  update: unknown;
  newValue: unknown;
}

async function lifecycle(run: ChainRun, env: ChainEnv, l: Life): Promise<ChainResult> {
  const read1 = await run.step('GET', l.path);
  if (read1.res?.status === 404) return run.fail('sequence-read-after-write', 'GET after create -> 404', `${l.what} just created was not found`);
  if (!ok(read1)) return run.done();
  if (field(read1, l.key) !== l.value) return run.fail('sequence-read-after-write', `GET after create -> other ${l.key}`, `${l.what} read back without the ${l.key} it was created with`);
  const updated = await run.step('PUT', l.path, { json: l.update });
  if (ok(updated)) {
    const read2 = await run.step('GET', l.path);
    if (ok(read2) && field(read2, l.key) !== l.newValue) return run.fail('sequence-read-after-write', `GET after update -> old ${l.key}`, `${l.what} read back without the ${l.key} it was updated to`);
  }
  const deleted = await run.step('DELETE', l.path);
  if (!ok(deleted)) return run.done();
  env.removed(l.path);
  const gone = await run.step('GET', l.path);
  if (judged(gone) && gone.res!.status !== 404) return run.fail('sequence-deleted-gone', `GET after DELETE -> ${gone.res!.status}`, `${l.what} was deleted, and a read of it answered ${gone.res!.status}; the document owes 404 ("resource does not exist")`);
  const again = await run.step('DELETE', l.path);
  if (judged(again) && again.res!.status !== 404) return run.fail('sequence-deleted-gone', `DELETE after DELETE -> ${again.res!.status}`, `${l.what} was deleted, and deleting it again answered ${again.res!.status}; the document owes 404`);
  return run.done();
}

/**
 * A transfer the campaign's account creates, as account B sees it: pending, B reads it and may
 * not cancel it (it stays pending); cancelled by its creator, B no longer sees it.
 */
async function transferAsOtherAccount(run: ChainRun, env: ChainEnv, spec: ChainSpec): Promise<ChainResult> {
  const nodes = env.transferableNodeIds;
  if (!env.roles.has('otherAccount') || !nodes.length) return run.done();
  const created = await run.step('POST', TRANSFERS, { json: { entities: { nodes: [nodes[(spec.node ?? 0) % nodes.length]] } } });
  const token = ok(created) ? idOf(created.res!.json, 'token') : undefined;
  // Not created (the node is in another chain's transfer, say): nothing to follow.
  if (token === undefined) return run.done();
  const path = `${TRANSFERS}/${token}`;
  env.created(path);
  const seen = await run.step('GET', path, { role: 'otherAccount' });
  if (judged(seen) && !ok(seen)) return run.fail('sequence-other-account', `pending transfer read by another account -> ${seen.res!.status}`, `another account's unrestricted user read the pending transfer and got ${seen.res!.status}; the document: "visibility: pending: unrestricted user of any account"`);
  const cancelled = await run.step('DELETE', path, { role: 'otherAccount', refusalExpected: true });
  if (ok(cancelled)) {
    env.removed(path);
    return run.fail('sequence-other-account', `transfer cancelled by another account -> ${cancelled.res!.status}`, `another account cancelled the transfer (${cancelled.res!.status}); the document: DELETE "only creating account"`);
  }
  const still = await run.step('GET', path);
  if (ok(still) && field(still, 'status') !== 'pending') return run.fail('sequence-other-account', "transfer after another account's cancel -> not pending", `after another account's refused cancel the creator reads the transfer as ${JSON.stringify(field(still, 'status'))}, not pending`);
  const mine = await run.step('DELETE', path);
  if (!ok(mine)) return run.done();
  env.removed(path);
  const hidden = await run.step('GET', path, { role: 'otherAccount', refusalExpected: true });
  if (ok(hidden)) return run.fail('sequence-other-account', `cancelled transfer read by another account -> ${hidden.res!.status}`, `another account read the transfer its creator cancelled (${hidden.res!.status}); the document: "cancelled or expired: creating account only"`);
  return run.done();
}

/** A user the campaign creates, as a restricted user of the same account sees it: refused ("All users operations require an unrestricted caller"). */
async function userAsRestricted(run: ChainRun, env: ChainEnv): Promise<ChainResult> {
  if (!env.roles.has('restricted')) return run.done();
  const username = freshName();
  const created = await run.step('POST', USERS, { json: { username, email: `${username}@conformance-fuzz.invalid` } });
  if (!ok(created)) return run.done();
  const path = `${USERS}/${username}`;
  env.created(path);
  const seen = await run.step('GET', path, { role: 'restricted', refusalExpected: true });
  if (ok(seen)) return run.fail('sequence-other-account', `user read by a restricted user -> ${seen.res!.status}`, `a restricted user read the user ${username} (${seen.res!.status}); the document: "All users operations require an unrestricted caller"`);
  if (ok(await run.step('DELETE', path))) env.removed(path);
  return run.done();
}
