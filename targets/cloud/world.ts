// The in-memory state of cloud-ref: two accounts (A young, B old) with users, tokens, grants and
// every kind of object the document names, seeded fresh for each server.
import { randomBytes, randomUUID } from 'node:crypto';

export type Permission = 'read_only' | 'read_write';

export interface Grants {
  global: Record<string, boolean | Permission | null>;
  [entity: string]: unknown;
}

export interface User {
  username: string;
  email: string;
  restricted: boolean;
  account: string;
  /** null for unrestricted users (their grants endpoint answers 204). */
  grants: Grants | null;
}

export interface Token {
  token: string;
  username: string;
  /** `*` for every scope, or `area:read_only` / `area:read_write` entries. */
  scopes: string[];
  /** The OAuth client it was issued to (none for a personal access token). */
  client?: string;
  /** When it stops being accepted (epoch ms; OAuth tokens live 7200 s). */
  expiresAt?: number;
}

export interface Account {
  id: string;
  /** The account's number (an Event's entity of type `account` names it). */
  number: number;
  /** Linode's `euuid` of the Account (fields beyond the named ones are not shown, line 51). */
  euuid: string;
  createdAt: Date;
  fields: Record<string, unknown>;
  /** The settings object as Linode's AccountSettings writes it (line 33 names network_helper and the two subscriptions). */
  settings: { managed: boolean; monitoring_subscription: string | null; network_helper: boolean; backups_enabled: boolean; object_storage: 'disabled' | 'suspended' | 'active' };
  cardChargeable: boolean;
  promotions: Record<string, unknown>[];
}

export interface Node {
  id: number;
  account: string;
  label: string;
}

/** An entity of account A that is not a compute node (fixture `nonNodeEntity`: a transfer may not name it, line 41). */
export interface Domain {
  id: number;
  account: string;
  label: string;
}

export interface Database {
  id: number;
  account: string;
  engine: 'mongodb' | 'mysql';
  label: string;
  status: string;
  allow_list: string[];
  updates: Record<string, unknown>;
  backups: { id: number; label: string; type: 'auto' | 'snapshot'; created: string }[];
  password: string;
  /** When it was created (UTC, as Linode writes times). */
  created: string;
}

export interface World {
  accounts: Map<string, Account>;
  users: Map<string, User>;
  tokens: Map<string, Token>;
  nodes: Map<number, Node>;
  /** Domains (entities that are not compute nodes) by id. */
  domains: Map<number, Domain>;
  /** Area modules keep their own collections here, keyed by area name. */
  areas: Map<string, unknown>;
  databases: Map<number, Database>;
  nextId: () => number;
  /**
   * Choices the document leaves open that neither the reference nor the variant takes, set by
   * startCloudReference's options for the meta-tests of the checks that must accept them.
   */
  choices: { listDeactivatedPaymentMethods: boolean; refuseSecondManagedEnable: boolean; eventCount?: number; creditCardAddsPaymentMethod?: boolean; noPastPayments?: boolean };
}

export const allGlobalGrants = (value: boolean): Grants['global'] => ({
  add_nodes: value,
  add_nodebalancers: value,
  add_databases: value,
  add_domains: value,
  add_monitoring: value,
  add_stackscripts: value,
  monitoring_subscription: value,
  add_images: value,
  add_volumes: value,
  add_firewalls: value,
  cancel_account: value,
  account_access: value ? 'read_write' : null,
});

export interface SeededRoles {
  tokens: { unrestricted: string; restricted: string; restrictedReadWrite: string; readOnly: string; otherAccount: string; cancellable: string };
  transferableNodeIds: number[];
  databases: { active: number; failed: number; degraded: number; provisioning: number };
  promoCode: string;
  /** Another code the target accepts for a young account without promo credit (never applied by a check: applies-once sends it after the first). */
  secondPromoCode: string;
  otherAccountAgeDays: number;
  /** A domain of account A: an entity other than a compute node that account A owns. */
  nonNodeEntity: { key: string; id: number };
}

const DAY = 24 * 3600 * 1000;
export const PROMO_CODE = 'CONFORMANCE-PROMO';
export const SECOND_PROMO_CODE = 'CONFORMANCE-PROMO-2';

/** `fixed`: tokens to seed instead of random ones, by role (`conformance serve cloud --token`). */
export function seedWorld(fixed: Partial<SeededRoles['tokens']> = {}): { world: World; roles: SeededRoles } {
  let id = 1000;
  const world: World = {
    accounts: new Map(),
    users: new Map(),
    tokens: new Map(),
    nodes: new Map(),
    domains: new Map(),
    areas: new Map(),
    databases: new Map(),
    nextId: () => ++id,
    choices: { listDeactivatedPaymentMethods: false, refuseSecondManagedEnable: false },
  };
  const account = (key: string, ageDays: number, email: string): Account => ({
    id: key,
    number: 100 + key.charCodeAt(0),
    euuid: randomUUID(),
    createdAt: new Date(Date.now() - ageDays * DAY),
    fields: { email, first_name: 'Ada', last_name: key, company: `Company ${key}`, address_1: '1 Main St', address_2: '', city: 'Philadelphia', state: 'PA', zip: '19106', country: 'US', phone: '555-0100', tax_id: '' },
    // monitoring_subscription: null for the free tier (Linode: "a Longview Subscription ID or `null` for Longview Free").
    settings: { managed: false, monitoring_subscription: null, network_helper: true, backups_enabled: false, object_storage: 'disabled' },
    cardChargeable: true,
    promotions: [],
  });
  world.accounts.set('A', account('A', 30, 'owner-a@example.com'));
  world.accounts.set('B', account('B', 400, 'owner-b@example.com'));
  // A throwaway account for the account-cancel check.
  world.accounts.set('C', account('C', 200, 'owner-c@example.com'));

  const user = (u: User) => world.users.set(u.username, u);
  user({ username: 'alice', email: 'alice@example.com', restricted: false, account: 'A', grants: null });
  user({
    username: 'rita',
    email: 'rita@example.com',
    restricted: true,
    account: 'A',
    grants: { global: { ...allGlobalGrants(false), account_access: 'read_only' }, node: [], domain: [], image: [], monitoring: [], nodebalancer: [], stackscript: [], volume: [] },
  });
  // A restricted user whose grants give account_access read_write and nothing else: it may write
  // where read_write is the requirement, never where an operation is unrestricted only.
  user({
    username: 'rowan',
    email: 'rowan@example.com',
    restricted: true,
    account: 'A',
    grants: { global: { ...allGlobalGrants(false), account_access: 'read_write' }, node: [], domain: [], image: [], monitoring: [], nodebalancer: [], stackscript: [], volume: [] },
  });
  user({ username: 'bob', email: 'bob@example.com', restricted: false, account: 'B', grants: null });
  user({ username: 'carol', email: 'carol@example.com', restricted: false, account: 'C', grants: null });

  const token = (username: string, scopes: string[], given?: string) => {
    const t = given ?? randomBytes(24).toString('hex');
    world.tokens.set(t, { token: t, username, scopes });
    return t;
  };
  const readOnlyScopes = ['account', 'databases', 'domains', 'events', 'firewall', 'images', 'ips', 'nodes', 'cluster', 'monitoring', 'nodebalancers', 'object_storage', 'stackscripts', 'volumes', 'maintenance'].map((a) => `${a}:read_only`);
  const tokens = {
    unrestricted: token('alice', ['*'], fixed.unrestricted),
    restricted: token('rita', ['*'], fixed.restricted),
    restrictedReadWrite: token('rowan', ['*'], fixed.restrictedReadWrite),
    readOnly: token('alice', readOnlyScopes, fixed.readOnly),
    otherAccount: token('bob', ['*'], fixed.otherAccount),
    cancellable: token('carol', ['*'], fixed.cancellable),
  };

  const transferableNodeIds: number[] = [];
  for (let i = 0; i < 40; i++) {
    const n = { id: world.nextId(), account: 'A', label: `node-a-${i}` };
    world.nodes.set(n.id, n);
    transferableNodeIds.push(n.id);
  }
  for (let i = 0; i < 3; i++) {
    const n = { id: world.nextId(), account: 'B', label: `node-b-${i}` };
    world.nodes.set(n.id, n);
  }

  const db = (status: string, engine: Database['engine'] = 'mongodb'): number => {
    const d: Database = {
      id: world.nextId(),
      account: 'A',
      engine,
      label: `${engine}-${status}-${id}`,
      status,
      allow_list: ['203.0.113.1/32'],
      updates: { frequency: 'weekly', duration: 3, hour_of_day: 0, day_of_week: 1, week_of_month: null },
      // Automatic daily backups, up to seven kept (line 173): the last seven days.
      backups: Array.from({ length: 7 }, (_, i) => ({ id: world.nextId(), label: `auto-${i + 1}`, type: 'auto' as const, created: new Date(Date.now() - (i + 1) * DAY).toISOString().slice(0, 19) })),
      password: randomUUID(),
      created: new Date(Date.now() - 30 * DAY).toISOString().slice(0, 19),
    };
    world.databases.set(d.id, d);
    return d.id;
  };
  const databases = { active: db('active'), failed: db('failed'), degraded: db('degraded'), provisioning: db('provisioning') };
  db('active', 'mysql');
  // A domain of account A: the entity that is not a compute node (fixture nonNodeEntity).
  const domain = { id: world.nextId(), account: 'A', label: 'example-a.com' };
  world.domains.set(domain.id, domain);

  return { world, roles: { tokens, transferableNodeIds, databases, promoCode: PROMO_CODE, secondPromoCode: SECOND_PROMO_CODE, otherAccountAgeDays: 400, nonNodeEntity: { key: 'domains', id: domain.id } } };
}

/** Per-area state, created on first use. */
export function areaState<T>(world: World, area: string, init: () => T): T {
  if (!world.areas.has(area)) world.areas.set(area, init());
  return world.areas.get(area) as T;
}
