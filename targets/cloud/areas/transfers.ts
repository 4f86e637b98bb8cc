// Service transfers area of cloud-ref (and the deprecated entity-transfer equivalents), as the
// "States and transitions" and "Service transfers" tables of cloud-api.md describe them.
import { randomUUID } from 'node:crypto';
import type { Api, Call, Reply } from '../api.ts';
import { ApiError, conflict, notFound, paginate, refuse, requireCaller, validateBody } from '../api.ts';
import { areaState, type World } from '../world.ts';

export interface Transfer {
  token: string;
  /** The creating account. */
  account: string;
  /** The accepting account, once accepted. */
  acceptedBy?: string;
  entities: { nodes: number[]; [other: string]: unknown };
  status: 'pending' | 'accepted' | 'cancelled' | 'completed' | 'expired';
  /** When it was accepted (ms): the variant shows an accepted transfer completed a moment later. */
  acceptedAt?: number;
  created: string;
  updated: string;
  expiry: string;
}

/** How long a pending transfer stays acceptable (the document names no duration). */
const EXPIRY_MS = 24 * 3600 * 1000;
const WARNING = { title: 'Deprecated endpoint', details: 'Use /account/service-transfers instead of /account/entity-transfers.' };
/** Accounts with a registered payment method (the condition for accepting). */
const PAYING_ACCOUNTS = new Set(['B']);

function transfers(world: World): Map<string, Transfer> {
  return areaState(world, 'transfers', () => new Map<string, Transfer>());
}

/** How soon the variant completes an accepted transfer (the document: within up to three hours). */
const VARIANT_COMPLETION_MS = 200;
/** "Accepting a service transfer: 2 per minute." */
const ACCEPT_LIMIT = { limit: 2, windowMs: 60_000 };

/** Pending transfers past their expiry are expired; the variant completes accepted ones. */
function current(t: Transfer, variant = false): Transfer {
  if (t.status === 'pending' && Date.parse(t.expiry) <= Date.now()) t.status = 'expired';
  if (variant && t.status === 'accepted' && t.acceptedAt !== undefined && Date.now() - t.acceptedAt >= VARIANT_COMPLETION_MS) t.status = 'completed';
  return t;
}

/** The variant writes the statuses as Linode API v4 does (line 41 names only `pending`): `canceled`, `stale`. */
const VARIANT_STATUS: Partial<Record<Transfer['status'], string>> = { cancelled: 'canceled', expired: 'stale' };

function view(t: Transfer, account: string, variant = false): Record<string, unknown> {
  const { account: creator, acceptedBy: _a, token, entities, created, updated, expiry } = t;
  const status = (variant && VARIANT_STATUS[t.status]) || t.status;
  return { token, status, entities, created, updated, expiry, is_sender: creator === account };
}

/** The transfer `token` as the caller's account may see it, else 404. */
function visible(call: Call, account: string): Transfer {
  const t = transfers(call.world).get(call.params.token);
  if (!t) throw notFound('Transfer not found');
  current(t, call.variant);
  const ok =
    t.status === 'pending' ? true
    : t.status === 'accepted' || t.status === 'completed' ? t.account === account || t.acceptedBy === account || call.faults.has('cancelled-transfer-visible-to-others')
    : t.account === account || call.faults.has('cancelled-transfer-visible-to-others');
  if (call.faults.has('pending-transfer-hidden-from-others') && t.status === 'pending' && t.account !== account) throw notFound('Transfer not found');
  if (call.faults.has('accepted-transfer-hidden-from-acceptor') && (t.status === 'accepted' || t.status === 'completed') && t.account !== account) throw notFound('Transfer not found');
  if (!ok) throw notFound('Transfer not found');
  return t;
}

function create(call: Call): Reply {
  const { account } = requireCaller(call);
  const body = call.faults.has('transfer-create-without-entities') && (call.body as { entities?: unknown } | undefined)?.entities === undefined ? { entities: { nodes: [] } } : validateBody<{ entities: { nodes: number[]; [k: string]: unknown } }>(call, 'serviceTransferCreate', call.body);
  const problems: { reason: string; field: string }[] = [];
  // Only compute nodes can be transferred: the reference refuses other entities, the variant
  // leaves them out of the transfer (the fault puts them in).
  const others = Object.keys(body.entities).filter((k) => k !== 'nodes');
  // The fault transfer-owned-non-node-entities transfers other entities the account owns (its
  // domains) and refuses those it does not own, as for nodes (line 59: services owned by creator).
  const ownedOthers = call.faults.has('transfer-owned-non-node-entities');
  if (ownedOthers) {
    for (const key of others) {
      const ids = Array.isArray(body.entities[key]) ? (body.entities[key] as unknown[]) : [];
      for (const id of ids) if (key !== 'domains' || call.world.domains.get(Number(id))?.account !== account.id) problems.push({ field: `entities.${key}`, reason: `${key} ${String(id)} is not owned by this account` });
    }
  } else if (!call.faults.has('transfer-non-node-entities') && !call.variant) {
    for (const key of others) problems.push({ field: `entities.${key}`, reason: `Only compute nodes can be transferred, not ${key}` });
  }
  const busy = new Set([...transfers(call.world).values()].map((t) => current(t, call.variant)).filter((t) => t.status === 'pending' || t.status === 'accepted').flatMap((t) => t.entities.nodes));
  for (const id of body.entities.nodes) {
    const node = call.world.nodes.get(id);
    if (!node || (node.account !== account.id && !call.faults.has('transfer-foreign-nodes'))) problems.push({ field: 'entities.nodes', reason: `Node ${id} is not owned by this account` });
    else if (busy.has(id) && !call.faults.has('transfer-node-twice')) problems.push({ field: 'entities.nodes', reason: `Node ${id} is already in a pending or accepted transfer` });
  }
  if (problems.length) throw new ApiError(400, problems);
  const now = new Date();
  const t: Transfer = {
    token: call.faults.has('transfer-token-not-uuid') ? randomUUID().replace(/-/g, '') : randomUUID(),
    account: account.id,
    entities: call.faults.has('transfer-non-node-entities') || ownedOthers ? { ...body.entities, nodes: [...body.entities.nodes] } : { nodes: [...body.entities.nodes] },
    status: call.faults.has('transfer-created-not-pending') ? 'accepted' : 'pending',
    created: now.toISOString().slice(0, 19),
    updated: now.toISOString().slice(0, 19),
    expiry: new Date(now.getTime() + EXPIRY_MS).toISOString().slice(0, 19),
  };
  transfers(call.world).set(t.token, t);
  return { body: view(t, account.id, call.variant) };
}

function list(call: Call): Reply {
  const { account } = requireCaller(call);
  const rows = [...transfers(call.world).values()]
    .map((t) => current(t, call.variant))
    .filter((t) => t.account === account.id || (t.acceptedBy === account.id && !call.faults.has('transfer-list-omits-accepted')))
    .map((t) => view(t, account.id, call.variant));
  return paginate(call, rows, ['status', 'is_sender']);
}

function cancel(call: Call): Reply {
  const { account } = requireCaller(call);
  if (call.faults.has('delete-unknown-transfer-200') && !transfers(call.world).has(call.params.token)) return { body: {} };
  const t = visible(call, account.id);
  if (t.account !== account.id && !call.faults.has('transfer-cancel-by-receiver')) throw refuse(403, 'Only the creating account can cancel a transfer');
  if (t.status !== 'pending' && !((t.status === 'accepted' || t.status === 'completed') && call.faults.has('cancel-accepted-transfer'))) {
    const refusal = conflict(call, `A transfer that is ${t.status} cannot be cancelled`);
    if ((t.status === 'accepted' || t.status === 'completed') && call.faults.has('cancel-accepted-refused-but-cancelled')) t.status = 'cancelled';
    throw refusal;
  }
  t.status = 'cancelled';
  t.updated = new Date().toISOString().slice(0, 19);
  return { body: {} };
}

/**
 * Accepting, limited to 2 per minute per user. The reference counts every request to each accept
 * endpoint (the EndpointSpec limit); the variant counts, across the service and the deprecated
 * accept, the accepts that take effect.
 */
function accept(api: Api, call: Call): Reply {
  const { account } = requireCaller(call);
  const t = call.faults.has('accept-cancelled-transfer') ? (transfers(call.world).get(call.params.token) ?? visible(call, account.id)) : visible(call, account.id);
  if (t.account === account.id && !call.faults.has('transfer-accept-by-creator')) throw refuse(403, 'The creating account cannot accept its own transfer');
  if (t.status !== 'pending' && !(t.status === 'cancelled' && call.faults.has('accept-cancelled-transfer'))) throw conflict(call, `A transfer that is ${t.status} cannot be accepted`);
  if ((!PAYING_ACCOUNTS.has(account.id) || call.faults.has('transfer-accept-refused-for-acceptor')) && t.account !== account.id) throw refuse(400, 'The accepting account needs a registered payment method');
  if (call.variant && !call.faults.has('accept-limit-missing')) api.countAgainst('accept a service transfer', call, ACCEPT_LIMIT);
  // Completion may take up to three hours on a real service; here the nodes move at once and
  // the transfer stays `accepted` (the variant shows it `completed` a moment later).
  for (const id of t.entities.nodes) {
    const node = call.world.nodes.get(id);
    if (node) node.account = account.id;
  }
  t.status = 'accepted';
  t.acceptedAt = Date.now();
  t.acceptedBy = account.id;
  t.updated = new Date().toISOString().slice(0, 19);
  return { body: {} };
}

/** The deprecated equivalents answer 299 with a `warnings` array ("Versioning"); the variant's array is empty. */
function deprecated(handler: (call: Call) => Reply, isAccept = false): (call: Call) => Reply {
  return (call) => {
    const ignored = isAccept && call.faults.has('entity-transfer-accept-ignored');
    const out = ignored ? { body: {} } : handler(call);
    if (call.faults.has('entity-transfers-200')) return out;
    const body = call.faults.has('entity-transfers-no-warnings') ? out.body : { ...(out.body as object), warnings: call.variant ? [] : [WARNING] };
    return { ...out, status: 299, body };
  };
}

export function registerTransfers(api: Api): void {
  const ro = 'account:read_only';
  const rw = 'account:read_write';
  const g = 'unrestricted' as const;
  const createBody = (call: Call) => void validateBody(call, 'serviceTransferCreate', call.body);
  for (const [base, wrap] of [
    ['/account/service-transfers', (h: (call: Call) => Reply) => h],
    ['/account/entity-transfers', deprecated],
  ] as const) {
    api.endpoint({ method: 'GET', path: base, scope: ro, grant: g }, wrap(list));
    api.endpoint({ method: 'POST', path: base, scope: rw, grant: g, request: createBody }, wrap(create));
    api.endpoint({ method: 'GET', path: `${base}/{token}`, scope: ro, grant: g }, wrap((call) => {
      const { account } = requireCaller(call);
      return { body: view(visible(call, account.id), account.id, call.variant) };
    }));
    api.endpoint({ method: 'DELETE', path: `${base}/{token}`, scope: rw, grant: g }, wrap(cancel));
    // "Accepting a service transfer: 2 per minute" (per user: per token here, as for every limit).
    api.endpoint(
      { method: 'POST', path: `${base}/{token}/accept`, scope: rw, grant: g, request: 'none', ...(api.variant || api.faults.has('accept-limit-missing') ? {} : { rateLimit: ACCEPT_LIMIT }) },
      base === '/account/service-transfers' ? (call) => accept(api, call) : deprecated((call) => accept(api, call), true),
    );
  }
}
