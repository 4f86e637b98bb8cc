// Service transfers of cloud-api.md: the "Service transfers (and deprecated entity transfers)"
// endpoint table, the "States and transitions" table and the Service transfer resource. Each
// check transfers its own node of account A (freshNode) to account B.
import { randomUUID } from 'node:crypto';
import { check, type CloudCheckContext } from '../../src/core/check.ts';
import type { HttpResponse } from '../../src/clients/http/client.ts';
import { brief, expectRefused, expectShape, expectStatus, isJsonObject, listAll, notAboutTheRule, show, bodyField, bodyObject, bodyString } from './support.ts';
import { expectNotFound, expectRefusedOr404, walkPages } from './controls.ts';

const section = 'Service transfers (and deprecated entity transfers)';
const file = 'cloud-api.md';
export const TRANSFERS = '/account/service-transfers';

export interface Created {
  node: number;
  token: string;
  res: HttpResponse;
}

/**
 * Creates a transfer of one fresh node as the unrestricted user of account A. A set-up step
 * (inconclusive when it does not hold) unless `asSetup` is false: for the checks whose rule is
 * the create answer itself.
 */
export async function createTransfer(ctx: CloudCheckContext, opts: { base?: string; status?: number; asSetup?: boolean } = {}): Promise<Created> {
  const { base = TRANSFERS, status = 200, asSetup = true } = opts;
  const node = await freshNode(ctx);
  const what = `POST /v4${base} {"entities":{"nodes":[${node}]}} as account A`;
  const create = async () => {
    const res = await ctx.cloud.as('unrestricted').post(base, { entities: { nodes: [node] } });
    if (!asSetup) notAboutTheRule(res, what);
    expectStatus(res, status, what);
    const token = bodyField(res, 'token');
    if (typeof token !== 'string' || !token) return ctx.fail(`${what}: the answer has no token: ${brief(res)}`);
    return { node, token, res };
  };
  return asSetup ? ctx.setup(`create a service transfer (${what})`, create, { seeAlso: 'cloud.transfers.create-pending' }) : create();
}

const bodyObjectOf = (v: unknown) => (v !== null && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : undefined);

/**
 * A transfer that holds its nodes: any status but cancelled and expired (accepted ones moved them),
 * also as Linode API v4 spells these two (`canceled`, `stale`; line 41 names only `pending`).
 */
function holdsNodes(t: Record<string, unknown>): number[] {
  if (t.status === 'cancelled' || t.status === 'expired' || t.status === 'canceled' || t.status === 'stale') return [];
  const nodes = bodyObjectOf(t.entities)?.nodes;
  return Array.isArray(nodes) ? nodes.filter((n): n is number => Number.isInteger(n)) : [];
}

/**
 * A node of fixtures.transferableNodeIds no other check of this run uses and no transfer of
 * account A holds (a pending one left by an earlier run, or an accepted one that moved it to
 * account B): detected before use, so that a re-run never blames the target for its own fixtures.
 * The transfer list is read once per run, before any check of the run creates a transfer; a list
 * the target does not serve leaves every node usable (its checks say why).
 */
export async function freshNode(ctx: CloudCheckContext): Promise<number> {
  const busy = await ctx.cloud.once('cloud.transfers: nodes already in a transfer', async () => {
    try {
      const rows = await listAll(ctx.cloud.as('unrestricted'), TRANSFERS, `GET /v4${TRANSFERS} as account A (nodes already in a transfer)`);
      return new Set(rows.flatMap(holdsNodes));
    } catch {
      return new Set<number>();
    }
  });
  return ctx.cloud.takeNode(busy);
}

/** Best-effort cleanup: cancels a transfer that may still be pending (the answer is not judged). */
export async function cancelQuietly(ctx: CloudCheckContext, token: string | undefined): Promise<void> {
  if (token) await ctx.cloud.as('unrestricted').delete(`${TRANSFERS}/${encodeURIComponent(token)}`).catch(() => undefined);
}

const path = (token: string) => `${TRANSFERS}/${encodeURIComponent(token)}`;
const statusOf = (res: HttpResponse) => bodyField(res, 'status');
const ACCEPT_WHAT = `POST /v4${TRANSFERS}/{token}/accept by the receiving account B`;

/**
 * One transfer of account A accepted by account B, shared by the checks of a run that need an
 * accepted transfer: accepting is limited to 2 per minute (line 230), so the run accepts once.
 * The accept answer is handed back unjudged: accepted-visible-to-both-accounts asserts it.
 */
async function acceptedTransfer(ctx: CloudCheckContext): Promise<Created & { accept: HttpResponse }> {
  const shared = await ctx.setup('create a service transfer of account A for account B to accept', () =>
    ctx.cloud.once('cloud.transfers: one accepted transfer', async () => {
      const t = await createTransfer(ctx, { asSetup: false });
      const accept = await ctx.cloud.as('otherAccount').post(`${path(t.token)}/accept`);
      // A transfer left pending (the accept refused, e.g. 429) would hold its node until it expires.
      if (accept.status < 200 || accept.status > 299) await cancelQuietly(ctx, t.token);
      return { ...t, accept };
    }), { seeAlso: 'cloud.transfers.create-pending' });
  // The exchange is in the evidence of the check that made it; this one says what it got.
  ctx.note(`the run accepts one transfer (accepting is limited to 2 per minute) and shares it: ${ACCEPT_WHAT} (${shared.token}) answered ${brief(shared.accept)}`);
  notAboutTheRule(shared.accept, ACCEPT_WHAT);
  return shared;
}

/** The shared accepted transfer, for checks whose rule is not the accept itself. */
async function acceptedForSetup(ctx: CloudCheckContext) {
  const t = await acceptedTransfer(ctx);
  await ctx.setup(ACCEPT_WHAT, () => expectStatus(t.accept, 200, ACCEPT_WHAT), { seeAlso: 'cloud.transfers.accepted-visible-to-both-accounts' });
  return t;
}

/**
 * The positive control of a refused create: account A's create of `node` alone is taken (then
 * cancelled), so the route serves a valid create of that node.
 */
async function createControl(ctx: CloudCheckContext, node: number): Promise<void> {
  const what = `POST /v4${TRANSFERS} {"entities":{"nodes":[${node}]}} as account A (the positive control: the route takes a valid create of that node)`;
  const res = await ctx.setup(what, async () => {
    const r = await ctx.cloud.as('unrestricted').post(TRANSFERS, { entities: { nodes: [node] } });
    expectStatus(r, 200, what);
    if (!bodyString(r, 'token')) ctx.fail(`${what}: the answer has no token: ${brief(r)}`);
    return r;
  }, { seeAlso: 'cloud.transfers.create-pending' });
  await cancelQuietly(ctx, bodyString(res, 'token'));
}

/** Cancels a pending transfer as its creator (a set-up step of the checks about cancelled transfers). */
async function cancelled(ctx: CloudCheckContext, t: Created): Promise<void> {
  await ctx.setup(`DELETE /v4${TRANSFERS}/{token} by the creating account`, async () => expectStatus(await ctx.cloud.as('unrestricted').delete(path(t.token)), 200, `DELETE /v4${TRANSFERS}/{token} by the creating account`), { seeAlso: 'cloud.transfers.cancel-only-by-creator' });
}

/** Every transfer listed to `role` (default page size, every page). */
function listTransfers(ctx: CloudCheckContext, role: 'unrestricted' | 'otherAccount', what: string): Promise<Record<string, unknown>[]> {
  return walkPages(ctx, ctx.cloud.as(role), TRANSFERS, `GET /v4${TRANSFERS} ${what}`);
}

export const createPending = check(
  {
    id: 'cloud.transfers.create-pending',
    title: 'Creating a service transfer answers a Service transfer with a UUID token in status pending',
    protocol: 'cloud',
    section: 'Resources and their fields',
    level: 'MUST',
    spec: { file, line: 41, quote: 'Service transfer | token (UUID string)' },
    touches: ['DELETE /account/service-transfers/{token}', 'GET /account/service-transfers', 'POST /account/service-transfers'],
    faults: ['transfer-token-not-uuid', 'transfer-created-not-pending'],
    tags: ['destructive'],
  },
  async (ctx) => {
    const t = await createTransfer(ctx, { asSetup: false });
    try {
      const what = `POST /v4${TRANSFERS} {"entities":{"nodes":[${t.node}]}}`;
      expectShape(t.res, 'serviceTransfer', what);
      ctx.expect(statusOf(t.res) === 'pending', `${what}: expected status "pending" (the state after Service Transfer Create), got ${show(statusOf(t.res))}`);
      const nodes = bodyObject(t.res, 'entities')?.nodes;
      ctx.expect(Array.isArray(nodes) && nodes.includes(t.node), `${what}: expected entities.nodes to hold ${t.node}, got ${show(nodes)}`);
    } finally {
      await cancelQuietly(ctx, t.token);
    }
  },
);

export const createNeedsEntities = check(
  {
    id: 'cloud.transfers.create-needs-entities',
    title: 'Creating a service transfer without entities is refused',
    protocol: 'cloud',
    section,
    level: 'SHOULD',
    spec: { file, line: 130, quote: '{entities} (required) -> Service transfer' },
    touches: ['DELETE /account/service-transfers/{token}', 'GET /account/service-transfers', 'POST /account/service-transfers'],
    faults: ['transfer-create-without-entities'],
    tags: ['destructive'],
  },
  async (ctx) => {
    // The positive control: the route takes a create with entities.
    await createControl(ctx, await freshNode(ctx));
    const res = await ctx.cloud.as('unrestricted').post(TRANSFERS, {});
    await cancelQuietly(ctx, bodyString(res, 'token'));
    expectRefusedOr404(res, `POST /v4${TRANSFERS} {} (no entities; the route took a create with entities)`);
  },
);

export const createUnrestrictedOnly = check(
  {
    id: 'cloud.transfers.create-unrestricted-only',
    title: 'A restricted user cannot create a service transfer',
    protocol: 'cloud',
    section,
    level: 'MUST',
    spec: { file, line: 130, quote: '| POST | /account/service-transfers | account:read_write | unrestricted only |' },
    touches: ['DELETE /account/service-transfers/{token}', 'GET /account/service-transfers', 'POST /account/service-transfers'],
    faults: ['restricted-passes-unrestricted-only', 'unrestricted-only-as-read-write'],
    tags: ['destructive'],
  },
  async (ctx) => {
    const node = await freshNode(ctx);
    const what = `POST /v4${TRANSFERS} {"entities":{"nodes":[${node}]}} as a restricted user (account_access read_only)`;
    const res = await ctx.cloud.as('restricted').post(TRANSFERS, { entities: { nodes: [node] } });
    await cancelQuietly(ctx, bodyString(res, 'token'));
    notAboutTheRule(res, what);
    if (res.status !== 404) expectRefused(res, what);
    // A restricted user whom an ordinary read_write grant would let through (line 74): "unrestricted
    // only" is not a read_write grant. Where the target names no such user, the rule is tested above only.
    const rwWhat = `POST /v4${TRANSFERS} {"entities":{"nodes":[${node}]}} as a restricted user with account_access read_write`;
    const rw = ctx.cloud.target.tokens.restrictedReadWrite ? await ctx.cloud.as('restrictedReadWrite').post(TRANSFERS, { entities: { nodes: [node] } }) : undefined;
    if (rw) {
      await cancelQuietly(ctx, bodyString(rw, 'token'));
      notAboutTheRule(rw, rwWhat);
      if (rw.status !== 404) expectRefused(rw, rwWhat);
    } else ctx.note('no restrictedReadWrite token: tested with a read_only restricted user only');
    // The positive control: the same create of the same node is taken from the unrestricted user,
    // so the refusals were for the caller (a 404 then is the route refusing the caller too).
    await createControl(ctx, node);
    expectRefusedOr404(res, what);
    if (rw) expectRefusedOr404(rw, rwWhat);
  },
);

export const onlyComputeNodes = check(
  {
    id: 'cloud.transfers.only-compute-nodes',
    title: 'A service transfer naming entities other than compute nodes is refused, or transfers the nodes alone',
    protocol: 'cloud',
    section: 'Resources and their fields',
    level: 'MUST',
    spec: { file, line: 41, quote: 'only compute nodes can be transferred' },
    touches: ['DELETE /account/service-transfers/{token}', 'GET /account/service-transfers', 'POST /account/service-transfers'],
    faults: ['transfer-non-node-entities', 'transfer-owned-non-node-entities'],
    tags: ['destructive'],
  },
  async (ctx) => {
    const node = await freshNode(ctx);
    // An entity account A owns that is not a compute node (fixtures.nonNodeEntity: the key of
    // `entities` it goes under and its id), so that a refusal is for its kind, not for an entity
    // the account does not own (line 59: services owned by creator).
    const other = ctx.cloud.fixtures.nonNodeEntity;
    if (!other) ctx.note('no fixtures.nonNodeEntity (an entity of account A that is not a compute node): domains [1] was sent, which account A may not own; a refusal for that is not told apart from the rule (untested)');
    const body = { entities: { nodes: [node], [other?.key ?? 'domains']: [other?.id ?? 1] } };
    const what = `POST /v4${TRANSFERS} ${JSON.stringify(body)}${other ? ` (${other.key} ${other.id}: fixtures.nonNodeEntity, owned by account A)` : ''}`;
    const res = await ctx.cloud.as('unrestricted').post(TRANSFERS, body);
    await cancelQuietly(ctx, bodyString(res, 'token'));
    // Refusing the request meets the rule, and so does transferring the node alone (ignoring domains).
    if (res.status >= 200 && res.status < 300) {
      // The value read: the transfer's entities (in the answer, or read back by its token).
      const token = bodyString(res, 'token');
      let entities = bodyObject(res, 'entities');
      if (!entities && token) entities = bodyObject(await ctx.cloud.as('unrestricted').get(path(token)), 'entities');
      const nodes = entities?.nodes;
      if (!entities || !Array.isArray(nodes) || !nodes.includes(node)) return ctx.inconclusive(`${what}: answered ${brief(res)}, which shows no transfer whose entities.nodes holds ${node} (neither the answer nor GET by its token): what was transferred cannot be seen`, { seeAlso: 'cloud.transfers.create-pending' });
      // Entities are arrays of ids under their kind; other fields of the object are not judged.
      const others = Object.entries(entities).filter(([k, v]) => k !== 'nodes' && Array.isArray(v) && v.length > 0);
      ctx.expect(others.length === 0, `${what}: answered ${res.status} with a transfer of ${others.map(([k]) => k).join(', ')} besides nodes: only compute nodes can be transferred`);
      return;
    }
    notAboutTheRule(res, what);
    if (res.status !== 404) expectRefused(res, what);
    // The positive control: the route takes the same node alone.
    await createControl(ctx, node);
    expectRefusedOr404(res, what);
  },
);

export const pendingVisibleToAnyAccount = check(
  {
    id: 'cloud.transfers.pending-visible-to-any-account',
    title: 'A pending transfer can be viewed by an unrestricted user of another account',
    protocol: 'cloud',
    section,
    level: 'MUST',
    spec: { file, line: 131, quote: 'pending: unrestricted user of any account' },
    touches: ['DELETE /account/service-transfers/{token}', 'GET /account/service-transfers', 'GET /account/service-transfers/{token}', 'POST /account/service-transfers'],
    faults: ['pending-transfer-hidden-from-others'],
    reliesOn: ['cloud.transfers.create-pending'],
    tags: ['destructive'],
  },
  async (ctx) => {
    const t = await createTransfer(ctx);
    try {
      // The positive control: the creating account sees it.
      await ctx.setup(`GET /v4${TRANSFERS}/{token} of the pending transfer, by the creating account A`, async () => expectStatus(await ctx.cloud.as('unrestricted').get(path(t.token)), 200, `GET /v4${TRANSFERS}/{token} by the creating account A`));
      const res = await ctx.cloud.as('otherAccount').get(path(t.token));
      const what = `GET /v4${TRANSFERS}/{token} of a pending transfer of account A, as account B (account A sees it)`;
      notAboutTheRule(res, what);
      ctx.expect(res.status !== 404, `${what}: a pending transfer is visible to an unrestricted user of any account, got ${brief(res)}`);
      expectStatus(res, 200, what);
      expectShape(res, 'serviceTransfer', what);
      ctx.expect(statusOf(res) === 'pending', `${what}: expected status "pending", got ${show(statusOf(res))}`);
    } finally {
      await cancelQuietly(ctx, t.token);
    }
  },
);

export const acceptedVisibleToBoth = check(
  {
    id: 'cloud.transfers.accepted-visible-to-both-accounts',
    title: 'The receiving account accepts with {}; the accepted transfer is visible to the creating and the accepting account',
    protocol: 'cloud',
    section,
    level: 'MUST',
    spec: { file, line: 131, quote: 'accepted: only creating and accepting accounts' },
    touches: ['GET /account/service-transfers', 'GET /account/service-transfers/{token}', 'POST /account/service-transfers', 'POST /account/service-transfers/{token}/accept'],
    faults: ['accepted-transfer-hidden-from-acceptor'],
    tags: ['destructive'],
  },
  async (ctx) => {
    const t = await acceptedTransfer(ctx);
    // The accept has conditions on account B this check cannot see (a registered payment method, no
    // past-due balance or limitations, no Terms-of-Service violations: line 60): a refusal may be for
    // one of them, so it ends the check inconclusive; any other answer than 200 {} fails (line 133).
    if (t.accept.status >= 400 && t.accept.status <= 499 && t.accept.status !== 404) return ctx.inconclusive(`${ACCEPT_WHAT}: refused (${brief(t.accept)}): the accepting account must have a registered payment method, no past-due balance or limitations and no Terms-of-Service violations (line 60), which cannot be seen from here, so the refusal is not put down to the server: the rule was not tested`);
    expectStatus(t.accept, 200, ACCEPT_WHAT);
    ctx.expect(isJsonObject(t.accept), `${ACCEPT_WHAT}: expected {}, got ${brief(t.accept)}`);
    // The creating account first: once it sees the transfer, a 404 to the accepting one is the transfer hidden from it.
    for (const [role, who] of [['unrestricted', 'the creating account A'], ['otherAccount', 'the accepting account B']] as const) {
      const res = await ctx.cloud.as(role).get(path(t.token));
      const what = `GET /v4${TRANSFERS}/{token} of the accepted transfer, as ${who}`;
      notAboutTheRule(res, what);
      if (role === 'otherAccount') ctx.expect(res.status !== 404, `${what} (account A sees it): an accepted transfer is visible to the creating and the accepting account, got ${brief(res)}`);
      expectStatus(res, 200, what);
      expectShape(res, 'serviceTransfer', what);
      ctx.expect(statusOf(res) !== 'pending', `${what}: the transfer was accepted, yet its status is still "pending"`);
    }
  },
);

export const listCreatedAndAccepted = check(
  {
    id: 'cloud.transfers.list-created-and-accepted',
    title: 'The transfer list holds the transfers the account created and those it accepted',
    protocol: 'cloud',
    section,
    level: 'MUST',
    spec: { file, line: 129, quote: 'all created and accepted transfers of the account' },
    touches: ['GET /account/service-transfers', 'POST /account/service-transfers', 'POST /account/service-transfers/{token}/accept'],
    faults: ['transfer-list-omits-accepted'],
    reliesOn: ['cloud.transfers.accepted-visible-to-both-accounts'],
    tags: ['destructive'],
  },
  async (ctx) => {
    const t = await acceptedForSetup(ctx);
    const created = await listTransfers(ctx, 'unrestricted', 'as the creating account A');
    ctx.expect(created.some((r) => r.token === t.token), `GET /v4${TRANSFERS} as account A: the transfer A created (${t.token}) is not listed`);
    const accepted = await listTransfers(ctx, 'otherAccount', 'as the accepting account B');
    ctx.expect(accepted.some((r) => r.token === t.token), `GET /v4${TRANSFERS} as account B: the transfer B accepted (${t.token}) is not listed`);
  },
);

export const acceptNotByCreator = check(
  {
    id: 'cloud.transfers.accept-not-by-creator',
    title: 'The creating account cannot accept its own transfer',
    protocol: 'cloud',
    section: 'States and transitions',
    level: 'MUST',
    spec: { file, line: 60, quote: 'caller unrestricted on another account (not the creating account)' },
    touches: ['DELETE /account/service-transfers/{token}', 'GET /account/service-transfers', 'GET /account/service-transfers/{token}', 'POST /account/service-transfers', 'POST /account/service-transfers/{token}/accept'],
    faults: ['transfer-accept-by-creator'],
    reliesOn: ['cloud.transfers.create-pending'],
    tags: ['destructive'],
  },
  async (ctx) => {
    const t = await createTransfer(ctx);
    try {
      const res = await ctx.cloud.as('unrestricted').post(`${path(t.token)}/accept`);
      expectRefused(res, `POST /v4${TRANSFERS}/{token}/accept by the creating account`);
      const after = await ctx.cloud.as('unrestricted').get(path(t.token));
      expectStatus(after, 200, `GET /v4${TRANSFERS}/{token} after the refused accept`);
      ctx.expect(statusOf(after) === 'pending', `GET /v4${TRANSFERS}/{token} after the creating account's refused accept: expected status "pending", got ${show(statusOf(after))}`);
    } finally {
      await cancelQuietly(ctx, t.token);
    }
  },
);

export const cancelOnlyByCreator = check(
  {
    id: 'cloud.transfers.cancel-only-by-creator',
    title: 'Only the creating account can cancel a transfer; it answers {}',
    protocol: 'cloud',
    section,
    level: 'MUST',
    spec: { file, line: 132, quote: '-> {}; only creating account' },
    touches: ['DELETE /account/service-transfers/{token}', 'GET /account/service-transfers', 'POST /account/service-transfers'],
    faults: ['transfer-cancel-by-receiver'],
    reliesOn: ['cloud.transfers.create-pending'],
    tags: ['destructive'],
  },
  async (ctx) => {
    const t = await createTransfer(ctx);
    try {
      const what = `DELETE /v4${TRANSFERS}/{token} of account A's pending transfer, by account B`;
      const res = await ctx.cloud.as('otherAccount').delete(path(t.token));
      notAboutTheRule(res, what);
      if (res.status !== 404) expectRefused(res, what);
      // The creating account cancels it (the route serves the cancel of that transfer): a 404 to
      // account B was then the cancel refused to it.
      expectStatus(await ctx.cloud.as('unrestricted').delete(path(t.token)), 200, `DELETE /v4${TRANSFERS}/{token} by the creating account A`);
      expectRefusedOr404(res, what);
    } finally {
      await cancelQuietly(ctx, t.token);
    }
  },
);

export const cancelledNotAccepted = check(
  {
    id: 'cloud.transfers.cancelled-cannot-be-accepted',
    title: 'A cancelled transfer cannot be accepted',
    protocol: 'cloud',
    section: 'States and transitions',
    level: 'MUST',
    spec: { file, line: 61, quote: 'cancelled transfer cannot be accepted' },
    touches: ['DELETE /account/service-transfers/{token}', 'GET /account/service-transfers', 'GET /account/service-transfers/{token}', 'POST /account/service-transfers', 'POST /account/service-transfers/{token}/accept'],
    faults: ['accept-cancelled-transfer'],
    reliesOn: ['cloud.transfers.create-pending', 'cloud.transfers.cancel-only-by-creator', 'cloud.transfers.pending-visible-to-any-account', 'cloud.transfers.accepted-visible-to-both-accounts'],
    tags: ['destructive'],
  },
  async (ctx) => {
    // The positive control of the accept route: account B accepts a pending transfer (the run's
    // shared one, accepting being limited to 2 per minute), so a refusal below is not for account B
    // (no payment method, line 60) nor for the route not being served.
    await acceptedForSetup(ctx);
    const t = await createTransfer(ctx);
    // The positive control: account B sees the transfer while it is pending (visible to any account).
    await ctx.setup(`GET /v4${TRANSFERS}/{token} of the pending transfer, by account B`, async () => expectStatus(await ctx.cloud.as('otherAccount').get(path(t.token)), 200, `GET /v4${TRANSFERS}/{token} of the pending transfer, by account B`), { seeAlso: 'cloud.transfers.pending-visible-to-any-account' });
    await cancelled(ctx, t);
    // A cancelled transfer is visible to the creating account only (line 131): a 404 is a refusal too.
    expectRefusedOr404(await ctx.cloud.as('otherAccount').post(`${path(t.token)}/accept`), `POST /v4${TRANSFERS}/{token}/accept of a cancelled transfer, by account B`);
  },
);

export const acceptedNotCancelled = check(
  {
    id: 'cloud.transfers.accepted-cannot-be-cancelled',
    title: 'An accepted transfer cannot be cancelled',
    protocol: 'cloud',
    section: 'States and transitions',
    level: 'MUST',
    spec: { file, line: 62, quote: '| expired or accepted | Service Transfer Cancel | - | unchanged | cancel is not allowed |' },
    touches: ['DELETE /account/service-transfers/{token}', 'GET /account/service-transfers', 'GET /account/service-transfers/{token}', 'POST /account/service-transfers', 'POST /account/service-transfers/{token}/accept'],
    faults: ['cancel-accepted-transfer', 'cancel-accepted-refused-but-cancelled'],
    reliesOn: ['cloud.transfers.accepted-visible-to-both-accounts'],
    tags: ['destructive'],
  },
  async (ctx) => {
    const t = await acceptedForSetup(ctx);
    // The positive control: the creating account sees the accepted transfer.
    await ctx.setup(`GET /v4${TRANSFERS}/{token} of the accepted transfer, by the creating account`, async () => expectStatus(await ctx.cloud.as('unrestricted').get(path(t.token)), 200, `GET /v4${TRANSFERS}/{token} of the accepted transfer, by the creating account`), { seeAlso: 'cloud.transfers.accepted-visible-to-both-accounts' });
    const what = `DELETE /v4${TRANSFERS}/{token} of an accepted transfer, by the creating account`;
    expectRefusedOr404(await ctx.cloud.as('unrestricted').delete(path(t.token)), what);
    // "| unchanged |" (line 62): the refused cancel left the transfer as it was, not cancelled (it
    // may have moved on from accepted to completed in the background meanwhile).
    const after = await ctx.cloud.as('unrestricted').get(path(t.token));
    notAboutTheRule(after, `GET /v4${TRANSFERS}/{token} after the refused ${what}`);
    expectStatus(after, 200, `GET /v4${TRANSFERS}/{token} after the refused ${what}`);
    ctx.expect(statusOf(after) !== 'cancelled' && statusOf(after) !== 'canceled', `GET /v4${TRANSFERS}/{token} after the refused ${what}: expected the transfer unchanged, got status ${show(statusOf(after))}`);
  },
);

export const cancelledVisibleToCreatorOnly = check(
  {
    id: 'cloud.transfers.cancelled-visible-to-creator-only',
    title: 'A cancelled transfer is visible to the creating account only',
    protocol: 'cloud',
    section,
    level: 'MUST',
    spec: { file, line: 131, quote: 'cancelled or expired: creating account only' },
    touches: ['DELETE /account/service-transfers/{token}', 'GET /account/service-transfers', 'GET /account/service-transfers/{token}', 'POST /account/service-transfers'],
    faults: ['cancelled-transfer-visible-to-others'],
    reliesOn: ['cloud.transfers.create-pending', 'cloud.transfers.cancel-only-by-creator'],
    tags: ['destructive'],
  },
  async (ctx) => {
    const t = await createTransfer(ctx);
    await cancelled(ctx, t);
    expectStatus(await ctx.cloud.as('unrestricted').get(path(t.token)), 200, `GET /v4${TRANSFERS}/{token} of the cancelled transfer, by the creating account`);
    // The creating account sees it (the positive control): a 404 to account B is the rule kept.
    expectRefusedOr404(await ctx.cloud.as('otherAccount').get(path(t.token)), `GET /v4${TRANSFERS}/{token} of account A's cancelled transfer, by account B`);
  },
);

export const nodeNotTwice = check(
  {
    id: 'cloud.transfers.node-not-in-two-transfers',
    title: 'A node already in a pending transfer cannot be put in another one',
    protocol: 'cloud',
    section: 'States and transitions',
    level: 'MUST',
    spec: { file, line: 59, quote: 'not already in a pending or accepted-incomplete transfer' },
    touches: ['DELETE /account/service-transfers/{token}', 'GET /account/service-transfers', 'POST /account/service-transfers'],
    faults: ['transfer-node-twice'],
    reliesOn: ['cloud.transfers.create-pending'],
    tags: ['destructive'],
  },
  async (ctx) => {
    const t = await createTransfer(ctx);
    let second: string | undefined;
    try {
      const res = await ctx.cloud.as('unrestricted').post(TRANSFERS, { entities: { nodes: [t.node] } });
      second = bodyString(res, 'token');
      // The first create of the node was taken on the same route (the positive control).
      expectRefusedOr404(res, `POST /v4${TRANSFERS} {"entities":{"nodes":[${t.node}]}} while node ${t.node} is in the pending transfer ${t.token}`);
    } finally {
      await cancelQuietly(ctx, second);
      await cancelQuietly(ctx, t.token);
    }
  },
);

export const onlyOwnServices = check(
  {
    id: 'cloud.transfers.only-own-services',
    title: 'An account cannot create a transfer of nodes it does not own',
    protocol: 'cloud',
    section: 'States and transitions',
    level: 'MUST',
    spec: { file, line: 59, quote: 'services owned by creator' },
    touches: ['DELETE /account/service-transfers/{token}', 'GET /account/service-transfers', 'POST /account/service-transfers'],
    faults: ['transfer-foreign-nodes'],
    tags: ['destructive'],
  },
  async (ctx) => {
    // A node of account A, offered for transfer by account B.
    const node = await freshNode(ctx);
    const res = await ctx.cloud.as('otherAccount').post(TRANSFERS, { entities: { nodes: [node] } });
    const token = bodyString(res, 'token');
    if (token) await ctx.cloud.as('otherAccount').delete(path(token)).catch(() => undefined);
    const what = `POST /v4${TRANSFERS} {"entities":{"nodes":[${node}]}} by account B (node ${node} belongs to account A)`;
    notAboutTheRule(res, what);
    if (res.status !== 404) expectRefused(res, what);
    // The positive control: the route takes the owner's create of that node; a 404 to account B is
    // then the node refused to it (not found among its services).
    await createControl(ctx, node);
    expectRefusedOr404(res, what);
  },
);

export const neverExisted404 = check(
  {
    id: 'cloud.transfers.never-existed-404',
    title: 'GET and DELETE of a service transfer whose token no transfer has answer 404',
    protocol: 'cloud',
    section: 'Errors',
    level: 'MUST',
    spec: { file, line: 214, quote: '| 404 | resource does not exist |' },
    touches: ['DELETE /account/service-transfers/{token}', 'GET /account/service-transfers', 'GET /account/service-transfers/{token}', 'POST /account/service-transfers'],
    faults: ['delete-unknown-transfer-200'],
    reliesOn: ['cloud.transfers.create-pending'],
    tags: ['destructive'],
  },
  async (ctx) => {
    const t = await createTransfer(ctx);
    try {
      // The positive control: a transfer of the account is found on the same route.
      await ctx.setup(`GET /v4${TRANSFERS}/{token} of the transfer just created (the positive control)`, async () => expectStatus(await ctx.cloud.as('unrestricted').get(path(t.token)), 200, `GET /v4${TRANSFERS}/{token} of the transfer just created`));
      const gone = randomUUID();
      expectNotFound(await ctx.cloud.as('unrestricted').get(path(gone)), `GET /v4${TRANSFERS}/${gone} (a UUID no transfer has)`);
      expectNotFound(await ctx.cloud.as('unrestricted').delete(path(gone)), `DELETE /v4${TRANSFERS}/${gone} (a UUID no transfer has)`);
    } finally {
      await cancelQuietly(ctx, t.token);
    }
  },
);

export const checks = [
  neverExisted404,
  createPending,
  nodeNotTwice,
  onlyOwnServices,
  createNeedsEntities,
  createUnrestrictedOnly,
  onlyComputeNodes,
  pendingVisibleToAnyAccount,
  acceptedVisibleToBoth,
  listCreatedAndAccepted,
  acceptNotByCreator,
  cancelOnlyByCreator,
  cancelledNotAccepted,
  acceptedNotCancelled,
  cancelledVisibleToCreatorOnly,
];
