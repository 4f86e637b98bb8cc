// Account area of cloud-ref: the account itself (incl. the US zip rule and cancel), the deprecated
// credit-card add, settings, events (view, read, seen), invoices, logins, maintenance (beta),
// notifications, transfer usage.
import type { Api, Call } from '../api.ts';
import { ApiError, paginate, refuse, requireCaller, notFound, validateBody } from '../api.ts';
import type { User } from '../world.ts';
import { areaState, type Account, type World } from '../world.ts';
import { addCardAsDefaultMethod, defaultCardOf } from './payments.ts';

/** What an Event is about, as Linode's Event writes it (`entity`: {id, label, type, url}). */
export interface EventEntity {
  id: number;
  label: string;
  type: string;
  url: string;
}

export interface EventRow {
  id: number;
  account: string;
  action: string;
  created: string;
  username: string;
  read: boolean;
  seen: boolean;
  /** The compute node the event concerns, if any (kept internal: the variant's visibility by grants). */
  node?: number;
  /** What the event is about (Linode's `secondary_entity`, written for some node events only, is left out). */
  entity: EventEntity;
}

/**
 * The fields Linode marks filterable on an Event (`x-linode-filterable`: id, action, created and
 * the entity's id and type); the document: "only fields marked filterable in the interface".
 */
const EVENT_FILTERABLE = ['id', 'action', 'created', 'entity.id', 'entity.type'] as const;

/** The entity of an event of `action` on `account` (Linode: every event names what it is about). */
function entityOf(world: World, action: string, accountKey: string, username: string, node?: number): EventEntity {
  if (node !== undefined) {
    const n = world.nodes.get(node);
    return { id: node, label: n?.label ?? `node-${node}`, type: 'node', url: `/v4/nodes/instances/${node}` };
  }
  if (action.startsWith('ticket_')) {
    const id = world.nextId();
    return { id, label: `Ticket ${id}`, type: 'ticket', url: `/v4/support/tickets/${id}` };
  }
  if (action.startsWith('user_')) return { id: world.nextId(), label: username, type: 'user', url: `/v4/account/users/${username}` };
  const account = world.accounts.get(accountKey);
  return { id: account?.number ?? 0, label: account?.euuid ?? accountKey, type: 'account', url: '/v4/account' };
}

export function events(world: World): EventRow[] {
  return areaState(world, 'events', () => {
    const actions = ['node_boot', 'node_create', 'node_reboot', 'ticket_create', 'user_create', 'payment_submitted'];
    const rows: EventRow[] = [];
    // More than 100 events of account A: a default page size of 100 can be seen.
    const n = world.choices.eventCount ?? 150;
    // An hour apart, closer where that would reach back past the 90 days of the list.
    const step = Math.min(3600_000, Math.floor((80 * 86400_000) / n));
    const nodeOf = (i: number) => [...world.nodes.values()].filter((x) => x.account === 'A')[i % 3]?.id;
    for (let i = 0; i < n; i++) {
      const action = actions[i % actions.length];
      const account = i % 10 === 9 ? 'B' : 'A';
      const node = action.startsWith('node_') ? nodeOf(i) : undefined;
      rows.push({
        id: world.nextId(),
        account,
        action,
        created: new Date(Date.now() - (n - i) * step).toISOString().slice(0, 19),
        username: 'alice',
        // The oldest of each action are already read and seen, so marking them again changes
        // nothing other checks page through while they run.
        read: i < actions.length,
        seen: i < actions.length,
        ...(node !== undefined ? { node } : {}),
        entity: entityOf(world, action, account, 'alice', node),
      });
    }
    return rows;
  });
}

/**
 * Adds an event for an action the document names (payment_method_add, payment_submitted). The
 * variant records it in the background, a moment after the answer (the document does not say
 * when an event is listed).
 */
export function recordEvent(world: World, account: string, action: string, username: string, variant = false): void {
  const add = () => events(world).push({ id: world.nextId(), account, action, created: new Date().toISOString().slice(0, 19), username, read: false, seen: false, entity: entityOf(world, action, account, username) });
  if (variant) setTimeout(add, VARIANT_EVENT_DELAY_MS).unref();
  else add();
}

/** How long after the answer the variant lists an event. */
export const VARIANT_EVENT_DELAY_MS = 300;

/**
 * "list of Event from last 90 days, depends on grants": the variant shows a restricted user only
 * events about no compute node or about a node the user holds a grant for; the reference shows every
 * event of the account.
 */
function eventVisible(e: EventRow, user: User, variant: boolean): boolean {
  if (!variant || !user.restricted || e.node === undefined) return true;
  const grants = (user.grants?.node ?? []) as { id?: unknown }[];
  return grants.some((g) => g.id === e.node);
}

/** US zip code: five digits, optionally a dash and four more. */
const US_ZIP = /^\d{5}(-\d{4})?$/;

/**
 * The Account as Linode API v4 writes it: the named fields, `active_since`, and the account's
 * promo credit as `active_promotions` (an array of Promotion, [] when none). Account fields beyond
 * the named ones are not shown (line 51): the variant leaves `active_promotions` out.
 */
function accountBody(world: World, account: Account, variant: boolean): Record<string, unknown> {
  return {
    ...account.fields,
    active_since: account.createdAt.toISOString().slice(0, 19),
    // Linode's Account fields beyond the named ones: balances, billing source, capabilities, the card on file, euuid.
    balance: 0,
    balance_uninvoiced: 0,
    billing_source: 'akamai',
    capabilities: ['Nodes', 'NodeBalancers', 'Block Storage', 'Object Storage', 'Managed Databases'],
    credit_card: cardOnFile(world, account.id),
    euuid: account.euuid,
    ...(variant ? {} : { active_promotions: account.promotions.map((p) => ({ ...p })) }),
  };
}

/** The Account's `credit_card` ({last_four, expiry}): the card the deprecated add put on file, else the default payment method's. */
function cardOnFile(world: World, accountId: string): { last_four: string; expiry: string } {
  const added = areaState(world, 'cards-on-file', () => new Map<string, { last_four: string; expiry: string }>()).get(accountId);
  return added ?? defaultCardOf(world, accountId) ?? { last_four: '', expiry: '' };
}

function findEvent(call: Call): EventRow | undefined {
  const { account, user } = requireCaller(call);
  return events(call.world).find((x) => x.id === Number(call.params.eventId) && x.account === account.id && eventVisible(x, user, call.variant));
}

/**
 * An Event as Linode writes one: besides the fields kept, the progress of what it reports (every
 * event here is finished, or a notification: percent_complete null) and a message.
 */
const eventView = ({ account: _a, node: _n, id, action, created, username, read, seen, entity }: EventRow) => {
  const notification = entity.type === 'account' || entity.type === 'ticket' || entity.type === 'user';
  return {
    id,
    action,
    created,
    duration: notification ? 0 : 12.5,
    entity,
    percent_complete: notification ? null : 100,
    rate: null,
    read,
    seen,
    status: notification ? 'notification' : 'finished',
    time_remaining: null,
    username,
    message: '',
  };
};

interface InvoiceRow {
  id: number;
  date: string;
  label: string;
  subtotal: number;
  tax: number;
  tax_summary: { name: string; tax: number }[];
  total: number;
  items: Record<string, unknown>[];
}

function invoices(world: World, account: Account): InvoiceRow[] {
  const all = areaState(world, 'invoices', () => new Map<string, InvoiceRow[]>());
  let rows = all.get(account.id);
  if (!rows) {
    rows = [1, 2, 3].map((m) => {
      const date = new Date(Date.UTC(2024, m, 1)).toISOString().slice(0, 19);
      return {
        id: world.nextId(),
        date,
        label: `Invoice ${account.id}-${m}`,
        subtotal: 10 * m,
        tax: 0,
        tax_summary: [{ name: 'PA STATE TAX', tax: 0 }],
        total: 10 * m,
        items: [{ label: 'Node usage', amount: 10 * m, tax: 0, total: 10 * m, quantity: 720, unit_price: (10 * m / 720).toFixed(4), type: 'hourly', from: date, to: date }],
      };
    });
    all.set(account.id, rows);
  }
  return rows;
}

function findInvoice(call: Call): InvoiceRow | undefined {
  const { account } = requireCaller(call);
  return invoices(call.world, account).find((i) => i.id === Number(call.params.invoiceId));
}

/** Successful logins of all users of the account in the last 90 days. */
function logins(world: World, accountId: string): Record<string, unknown>[] {
  const users = [...world.users.values()].filter((u) => u.account === accountId);
  return users.map((u, i) => ({ id: i + 1, username: u.username, datetime: new Date(Date.now() - (i + 1) * 86400_000).toISOString().slice(0, 19), ip: '192.0.2.10', status: 'successful', restricted: u.restricted }));
}

/** Beta: the maintenance list is served under /v4beta only. */
function maintenancePrefixes(api: Api): ('v4' | 'v4beta')[] {
  if (api.faults.has('maintenance-v4-only')) return ['v4'];
  if (api.faults.has('maintenance-on-v4')) return ['v4', 'v4beta'];
  return ['v4beta'];
}

export function registerAccount(api: Api): void {
  const { world } = api;
  api.endpoint({ method: 'GET', path: '/account', scope: 'account:read_only', grant: 'read_only' }, (call) => {
    const { account } = requireCaller(call);
    return { body: accountBody(world, account, call.variant) };
  });

  api.endpoint({ method: 'PUT', path: '/account', scope: 'account:read_write', grant: 'read_write' }, (call) => {
    const { account } = requireCaller(call);
    const changes = (call.body ?? {}) as Record<string, unknown>;
    // Fields an Account PUT cannot change: ignored by the reference, refused by the variant.
    if (call.variant) {
      const unknown = Object.keys(changes).filter((k) => !(k in account.fields));
      if (unknown.length) throw new ApiError(400, unknown.map((field) => ({ field, reason: `${field} cannot be changed here` })));
    }
    const next = { ...account.fields };
    if (call.faults.has('account-put-clears-omitted')) for (const k of Object.keys(next)) if (!(k in changes) && k !== 'email') next[k] = '';
    // Omitted fields stay as they are.
    for (const [k, v] of Object.entries(changes)) if (k in next) next[k] = v;
    // "When country is set to US, zip must be a valid US zip code or an error is returned."
    if (next.country === 'US' && !call.faults.has('us-zip-unchecked') && !(typeof next.zip === 'string' && US_ZIP.test(next.zip))) {
      throw refuse(400, 'zip must be a valid US zip code when country is US', 'zip');
    }
    account.fields = next;
    return { body: accountBody(world, account, call.variant) };
  });

  api.endpoint({ method: 'POST', path: '/account/cancel', scope: 'account:read_write', grant: 'read_write', request: (call) => void validateBody(call, 'accountCancelRequest', call.body) }, (call) => {
    const { account, user } = requireCaller(call);
    if (user.restricted) throw refuse(403, 'Restricted users cannot cancel the account.');
    const body = (call.body ?? {}) as { comments?: unknown };
    if (body.comments !== undefined && typeof body.comments !== 'string') throw refuse(400, 'comments must be a string', 'comments');
    if (!account.cardChargeable) throw refuse(409, 'The card on file could not be charged; pay the outstanding balance before cancelling.');
    areaState(world, 'cancelled-accounts', () => new Set<string>()).add(account.id);
    if (call.faults.has('cancel-without-survey-link')) return { body: {} };
    return { body: { survey_link: `https://survey.example.com/exit?account=${account.id}` } };
  });

  // Deprecated: answers 299 with warnings; the card becomes the card on file.
  api.endpoint({ method: 'POST', path: '/account/credit-card', scope: 'account:read_write', grant: 'read_write', request: (call) => void validateBody(call, 'creditCard', call.body) }, (call) => {
    const { account } = requireCaller(call);
    const card = validateBody<{ card_number: string; expiry_month: number; expiry_year: number }>(call, 'creditCard', call.body);
    areaState(world, 'cards-on-file', () => new Map<string, { last_four: string; expiry: string }>()).set(account.id, { last_four: card.card_number.slice(-4), expiry: `${String(card.expiry_month).padStart(2, '0')}/${card.expiry_year}` });
    if (world.choices.creditCardAddsPaymentMethod) addCardAsDefaultMethod(call, account.id, card);
    if (call.faults.has('credit-card-add-200')) return { body: {} };
    if (call.faults.has('credit-card-add-no-warnings')) return { status: 299, body: {} };
    return { status: 299, body: { warnings: call.variant ? [] : [{ title: 'Deprecated endpoint', details: 'Use POST /account/payment-methods instead of /account/credit-card.' }] } };
  });

  api.endpoint({ method: 'GET', path: '/account/settings', scope: 'account:read_only', grant: 'read_only' }, (call) => {
    const { account } = requireCaller(call);
    return { body: { ...account.settings } };
  });

  api.endpoint({ method: 'PUT', path: '/account/settings', scope: 'account:read_write', grant: 'read_write', request: (call) => void validateBody(call, 'accountSettings', call.body) }, (call) => {
    const { account } = requireCaller(call);
    const changes = validateBody<{ network_helper?: boolean; backups_enabled?: unknown }>(call, 'accountSettings', call.body);
    // Settings this PUT does not change (the monitoring plan is updated elsewhere; Linode's
    // AccountSettings marks managed, the subscription and object_storage read-only): ignored by
    // the reference, refused by the variant. network_helper and (Linode) backups_enabled change.
    const others = Object.keys(changes).filter((k) => k !== 'network_helper' && k !== 'backups_enabled');
    if (call.variant && others.length) throw new ApiError(400, others.map((field) => ({ field, reason: `${field} is not changed by this request` })));
    if (changes.backups_enabled !== undefined && typeof changes.backups_enabled !== 'boolean') throw refuse(400, 'backups_enabled must be a boolean', 'backups_enabled');
    if (typeof changes.backups_enabled === 'boolean') account.settings.backups_enabled = changes.backups_enabled;
    if (changes.network_helper !== undefined && !call.faults.has('settings-put-ignored')) account.settings.network_helper = changes.network_helper;
    const body = { ...account.settings };
    if (call.faults.has('settings-put-ignored') && changes.network_helper !== undefined) body.network_helper = changes.network_helper;
    return { body };
  });

  api.endpoint({ method: 'POST', path: '/account/settings/managed-enable', scope: 'account:read_write', grant: 'read_write', request: 'none' }, (call) => {
    const { account } = requireCaller(call);
    // An enable of what is already enabled is taken again, or refused where the server is started
    // so (the document does not say). The fault refuses it always, also while not enabled.
    if (call.faults.has('managed-enable-refused') || (world.choices.refuseSecondManagedEnable && account.settings.managed)) throw refuse(400, 'The managed service is already enabled for this account.');
    account.settings.managed = true; // and a welcome email is sent
    return { body: {} };
  });

  api.endpoint({ method: 'GET', path: '/account/transfer', scope: 'account:read_only', grant: 'read_only' }, (call) => {
    requireCaller(call);
    // Network utilization in GB for the current month, as Linode API v4 writes it.
    if (call.faults.has('transfer-usage-missing')) return { body: {} };
    return { body: { used: 12, quota: 4000, billable: 0 } };
  });

  api.endpoint({ method: 'GET', path: '/account/invoices', scope: 'account:read_only', grant: 'read_only' }, (call) => {
    const { account } = requireCaller(call);
    // Linode marks no Invoice field filterable.
    return paginate(call, invoices(world, account).map(({ items: _i, ...inv }) => inv), []);
  });

  api.endpoint({ method: 'GET', path: '/account/invoices/{invoiceId}', scope: 'account:read_only', grant: 'read_only' }, (call) => {
    const inv = findInvoice(call);
    if (!inv && call.faults.has('unknown-invoice-200')) return { body: {} };
    if (!inv) throw notFound();
    const { items: _i, ...row } = inv;
    return { body: row };
  });

  api.endpoint({ method: 'GET', path: '/account/invoices/{invoiceId}/items', scope: 'account:read_only', grant: 'read_only' }, (call) => {
    const inv = findInvoice(call);
    if (!inv) throw notFound();
    if (call.faults.has('invoice-items-bare-array')) return { body: inv.items };
    return paginate(call, inv.items, []);
  });

  api.endpoint({ method: 'GET', path: '/account/maintenance', scope: 'maintenance:read_only', grant: 'read_only', prefixes: maintenancePrefixes(api) }, (call) => {
    const { account } = requireCaller(call);
    // Maintenance for viewable entities, currently compute nodes only.
    const rows = [...world.nodes.values()]
      .filter((n) => n.account === account.id)
      .slice(0, 2)
      .map((n, i) => ({ entity: { id: n.id, label: n.label, type: 'node', url: `/v4/nodes/instances/${n.id}` }, type: 'reboot', status: 'pending', reason: 'Host maintenance', when: new Date(Date.UTC(2030, 0, 1 + i)).toISOString().slice(0, 19) }));
    return paginate(call, rows, ['type', 'status', 'when']);
  });

  api.endpoint({ method: 'GET', path: '/account/logins', scope: 'account:read_only', grant: 'unrestricted' }, (call) => {
    const { account } = requireCaller(call);
    const rows = logins(world, account.id);
    // Linode marks no Login field filterable.
    return paginate(call, rows, []);
  });

  api.endpoint({ method: 'GET', path: '/account/logins/{loginId}', scope: 'account:read_only', grant: api.faults.has('login-view-open-to-restricted') ? 'none' : 'unrestricted', exists: (call) => logins(world, requireCaller(call).account.id).some((l) => l.id === Number(call.params.loginId)) }, (call) => {
    const { account } = requireCaller(call);
    const login = logins(world, account.id).find((l) => l.id === Number(call.params.loginId));
    if (!login && call.faults.has('unknown-login-200')) return { body: {} };
    if (!login) throw notFound();
    return { body: login };
  });

  api.endpoint({ method: 'POST', path: '/account/events/{eventId}/read', scope: 'events:read_only', grant: api.faults.has('event-read-needs-read-write') ? 'read_write' : 'read_only', request: 'none', exists: (call) => findEvent(call) !== undefined }, (call) => {
    const e = findEvent(call);
    if (!e && call.faults.has('event-read-unknown-200')) return { body: {} };
    if (!e) throw notFound();
    e.read = true;
    return { body: {} };
  });

  api.endpoint({ method: 'POST', path: '/account/events/{eventId}/seen', scope: 'events:read_only', grant: api.faults.has('event-seen-read-only-grant') ? 'read_only' : 'read_write', request: 'none', exists: (call) => findEvent(call) !== undefined }, (call) => {
    const e = findEvent(call);
    if (!e) throw notFound();
    // Every event of the account up to and including this id.
    for (const x of events(world)) if (x.account === e.account && x.id <= e.id) x.seen = true;
    return { body: {} };
  });

  api.endpoint({ method: 'GET', path: '/account/events', scope: 'events:read_only', grant: 'read_only' }, (call) => {
    const { account, user } = requireCaller(call);
    const ofAccount = (e: EventRow) => e.account === account.id || (user.restricted && call.faults.has('restricted-sees-other-accounts-events'));
    const rows = events(world).filter((e) => ofAccount(e) && eventVisible(e, user, call.variant)).map(eventView);
    return paginate(call, rows, EVENT_FILTERABLE);
  });

  api.endpoint({ method: 'GET', path: '/account/events/{eventId}', scope: 'events:read_only', grant: 'read_only' }, (call) => {
    const e = findEvent(call);
    if (!e && call.faults.has('unknown-event-200')) return { body: {} };
    if (!e) throw notFound();
    return { body: eventView(e) };
  });

  api.endpoint({ method: 'GET', path: '/account/notifications', scope: 'account:read_only', grant: 'read_only' }, (call) => {
    const { account } = requireCaller(call);
    // As Linode's Notification: what it is about (a node with maintenance), severity, and when (null: no time given).
    const node = [...world.nodes.values()].find((n) => n.account === account.id);
    const entity = node ? { id: node.id, label: node.label, type: 'node', url: `/v4/nodes/instances/${node.id}` } : { id: account.number, label: account.euuid, type: 'account', url: '/v4/account' };
    const rows = [{ entity, label: 'Maintenance scheduled', message: 'A maintenance window is scheduled.', body: null, type: 'maintenance', severity: 'minor', when: null, until: null }];
    if (call.faults.has('notifications-bare-array')) return { body: rows };
    return paginate(call, rows, []);
  });
}
