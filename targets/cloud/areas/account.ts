// Account area of cloud-ref: the account itself (incl. the US zip rule and cancel), the deprecated
// credit-card add, settings, events (view, read, seen), invoices, logins, maintenance (beta),
// notifications, transfer usage.
import type { Api, Call } from '../api.ts';
import { ApiError, paginate, refuse, requireCaller, notFound, validateBody } from '../api.ts';
import type { User } from '../world.ts';
import { areaState, type Account, type World } from '../world.ts';
import { addCardAsDefaultMethod } from './payments.ts';

export interface EventRow {
  id: number;
  account: string;
  action: string;
  created: string;
  username: string;
  read: boolean;
  seen: boolean;
  /** The compute node the event concerns, if any (kept internal: Event fields are not shown). */
  node?: number;
}

const EVENT_FILTERABLE = ['id', 'action', 'created', 'username', 'read', 'seen'] as const;

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
      rows.push({
        id: world.nextId(),
        account: i % 10 === 9 ? 'B' : 'A',
        action,
        created: new Date(Date.now() - (n - i) * step).toISOString().slice(0, 19),
        username: 'alice',
        // The oldest of each action are already read and seen, so marking them again changes
        // nothing other checks page through while they run.
        read: i < actions.length,
        seen: i < actions.length,
        ...(action.startsWith('node_') ? { node: nodeOf(i) } : {}),
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
  const add = () => events(world).push({ id: world.nextId(), account, action, created: new Date().toISOString().slice(0, 19), username, read: false, seen: false });
  if (variant) setTimeout(add, VARIANT_EVENT_DELAY_MS).unref();
  else add();
}

/** How long after the answer the variant lists an event. */
export const VARIANT_EVENT_DELAY_MS = 300;

/**
 * "list of Event from last 90 days, depends on grants": the variant shows a restricted user only
 * events about no entity or about a node the user holds a grant for; the reference shows every
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
function accountBody(account: Account, variant: boolean): Record<string, unknown> {
  return { ...account.fields, active_since: account.createdAt.toISOString().slice(0, 19), ...(variant ? {} : { active_promotions: account.promotions.map((p) => ({ ...p })) }) };
}

function findEvent(call: Call): EventRow | undefined {
  const { account, user } = requireCaller(call);
  return events(call.world).find((x) => x.id === Number(call.params.eventId) && x.account === account.id && eventVisible(x, user, call.variant));
}

const eventView = ({ account: _a, node: _n, ...e }: EventRow) => e;

interface InvoiceRow {
  id: number;
  date: string;
  label: string;
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
        total: 10 * m,
        items: [{ label: 'Node usage', amount: 10 * m, quantity: 720, type: 'hourly', from: date, to: date }],
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
    return { body: accountBody(account, call.variant) };
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
    return { body: accountBody(account, call.variant) };
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
    areaState(world, 'cards-on-file', () => new Map<string, unknown>()).set(account.id, { last_four: card.card_number.slice(-4), expiry: `${card.expiry_month}/${card.expiry_year}` });
    if (world.choices.creditCardAddsPaymentMethod) addCardAsDefaultMethod(call, account.id, card);
    if (call.faults.has('credit-card-add-200')) return { body: {} };
    if (call.faults.has('credit-card-add-no-warnings')) return { status: 299, body: {} };
    return { status: 299, body: { warnings: call.variant ? [] : [{ title: 'Deprecated endpoint', detail: 'Use POST /account/payment-methods instead of /account/credit-card.' }] } };
  });

  api.endpoint({ method: 'GET', path: '/account/settings', scope: 'account:read_only', grant: 'read_only' }, (call) => {
    const { account } = requireCaller(call);
    return { body: { ...account.settings } };
  });

  api.endpoint({ method: 'PUT', path: '/account/settings', scope: 'account:read_write', grant: 'read_write', request: (call) => void validateBody(call, 'accountSettings', call.body) }, (call) => {
    const { account } = requireCaller(call);
    const changes = validateBody<{ network_helper?: boolean }>(call, 'accountSettings', call.body);
    // Settings this PUT does not change (the monitoring plan is updated elsewhere): ignored by the reference, refused by the variant.
    const others = Object.keys(changes).filter((k) => k !== 'network_helper');
    if (call.variant && others.length) throw new ApiError(400, others.map((field) => ({ field, reason: `${field} is not changed by this request` })));
    // The monitoring plan is updated elsewhere; only network_helper changes here.
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
    return paginate(call, invoices(world, account).map(({ items: _i, ...inv }) => inv), ['date', 'label', 'total']);
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
      .map((n) => ({ entity: { id: n.id, label: n.label, type: 'node' }, type: 'reboot', status: 'pending', reason: 'Host maintenance' }));
    return paginate(call, rows, ['status', 'type']);
  });

  api.endpoint({ method: 'GET', path: '/account/logins', scope: 'account:read_only', grant: 'unrestricted' }, (call) => {
    const { account } = requireCaller(call);
    const rows = logins(world, account.id);
    return paginate(call, rows, ['username', 'status']);
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
    requireCaller(call);
    const rows = [{ type: 'maintenance', label: 'Maintenance scheduled', message: 'A maintenance window is scheduled.' }];
    if (call.faults.has('notifications-bare-array')) return { body: rows };
    return paginate(call, rows, []);
  });
}
