// Account area of cloud-ref: the account itself, events, notifications.
import type { Api } from '../api.ts';
import { paginate, requireCaller, notFound } from '../api.ts';
import { areaState, type World } from '../world.ts';

export interface EventRow {
  id: number;
  account: string;
  action: string;
  created: string;
  username: string;
  read: boolean;
  seen: boolean;
}

const EVENT_FILTERABLE = ['id', 'action', 'created', 'username', 'read', 'seen'] as const;

export function events(world: World): EventRow[] {
  return areaState(world, 'events', () => {
    const actions = ['node_boot', 'node_create', 'node_reboot', 'ticket_create', 'user_create', 'payment_submitted'];
    const rows: EventRow[] = [];
    for (let i = 0; i < 60; i++) {
      rows.push({
        id: world.nextId(),
        account: i % 10 === 9 ? 'B' : 'A',
        action: actions[i % actions.length],
        created: new Date(Date.now() - (60 - i) * 3600_000).toISOString().slice(0, 19),
        username: 'alice',
        read: false,
        seen: false,
      });
    }
    return rows;
  });
}

/** Adds an event for an action the document names (payment_method_add, payment_submitted). */
export function recordEvent(world: World, account: string, action: string, username: string): void {
  events(world).push({ id: world.nextId(), account, action, created: new Date().toISOString().slice(0, 19), username, read: false, seen: false });
}

export function registerAccount(api: Api): void {
  const { world } = api;
  api.endpoint({ method: 'GET', path: '/account', scope: 'account:read_only', grant: 'read_only' }, (call) => {
    const { account } = requireCaller(call);
    return { body: { ...account.fields, active_since: account.createdAt.toISOString().slice(0, 19) } };
  });

  api.endpoint({ method: 'PUT', path: '/account', scope: 'account:read_write', grant: 'read_write' }, (call) => {
    const { account } = requireCaller(call);
    const changes = (call.body ?? {}) as Record<string, unknown>;
    // Omitted fields stay as they are.
    for (const [k, v] of Object.entries(changes)) if (k in account.fields) account.fields[k] = v;
    return { body: { ...account.fields, active_since: account.createdAt.toISOString().slice(0, 19) } };
  });

  api.endpoint({ method: 'GET', path: '/account/logins', scope: 'account:read_only', grant: 'unrestricted' }, (call) => {
    const { account } = requireCaller(call);
    const users = [...world.users.values()].filter((u) => u.account === account.id);
    const rows = users.map((u, i) => ({ id: i + 1, username: u.username, datetime: new Date(Date.now() - (i + 1) * 86400_000).toISOString().slice(0, 19), ip: '192.0.2.10', status: 'successful', restricted: u.restricted }));
    return paginate(call, rows, ['username', 'status']);
  });

  api.endpoint({ method: 'GET', path: '/account/events', scope: 'events:read_only', grant: 'read_only' }, (call) => {
    const { account } = requireCaller(call);
    const rows = events(world).filter((e) => e.account === account.id).map(({ account: _a, ...e }) => e);
    return paginate(call, rows, EVENT_FILTERABLE);
  });

  api.endpoint({ method: 'GET', path: '/account/events/{eventId}', scope: 'events:read_only', grant: 'read_only' }, (call) => {
    const { account } = requireCaller(call);
    const e = events(world).find((x) => x.id === Number(call.params.eventId) && x.account === account.id);
    if (!e && call.faults.has('unknown-event-200')) return { body: {} };
    if (!e) throw notFound();
    const { account: _a, ...row } = e;
    return { body: row };
  });

  api.endpoint({ method: 'GET', path: '/account/notifications', scope: 'account:read_only', grant: 'read_only' }, (call) => {
    requireCaller(call);
    return paginate(call, [{ type: 'maintenance', label: 'Maintenance scheduled', message: 'A maintenance window is scheduled.' }], []);
  });
}
