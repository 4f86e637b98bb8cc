// Managed databases area of cloud-ref ("### Managed databases" and the status preconditions of
// "States and transitions" in cloud-api.md): engines (public), instances of both engines, the
// MongoDB operations and the MySQL create.
import { randomBytes, randomUUID } from 'node:crypto';
import type { Api, Call } from '../api.ts';
import { ApiError, conflict, notFound, paginate, refuse, requireCaller, validateBody } from '../api.ts';
import type { CloudFault } from '../faults.ts';
import type { Database } from '../world.ts';

const ENGINES = [
  { id: 'mysql/8.0.30', engine: 'mysql', version: '8.0.30' },
  { id: 'mongodb/4.4.10', engine: 'mongodb', version: '4.4.10' },
];

/**
 * How long the variant keeps a database `updating` after an update or a patch (docs/open-choices.md:
 * transitions between database statuses are not shown, line 66; the real service does this).
 */
export const VARIANT_UPDATING_MS = 400;

/**
 * A managed database as Linode writes it (Database, DatabaseMongoDB, DatabaseMySQL; their fields
 * beyond the named ones are not shown, line 51): the named ones, `instance_uri` (line 156), and
 * Linode's plan, region, version, hosts, times and the engine's own connection settings.
 */
const view = (d: Database, faults: ReadonlySet<CloudFault>, status: string = d.status) => ({
  id: d.id,
  label: d.label,
  type: 'g6-dedicated-2',
  engine: d.engine,
  version: ENGINES.find((e) => e.engine === d.engine)?.version ?? '',
  region: 'us-east',
  status,
  encrypted: false,
  allow_list: d.allow_list,
  cluster_size: 1,
  hosts: { primary: `db-${d.id}-primary.example.net`, secondary: null },
  created: d.created,
  updated: d.created,
  updates: d.updates,
  ...(d.engine === 'mongodb'
    ? { peers: [], replica_set: null, ssl_connection: true, compression_type: 'none', storage_engine: 'wiredtiger', port: 27017 }
    : { ssl_connection: true, replication_type: 'none', port: 3306 }),
  ...(faults.has('instance-without-uri') ? {} : { instance_uri: `/v4/databases/${d.engine}/instances/${d.id}` }),
});

/** The fields Linode marks filterable on a Database. */
const DATABASE_FILTERABLE = ['label', 'type', 'engine', 'version', 'region', 'status'] as const;

/**
 * The MySQL create body: its fields are named but not shown ("label, region, type, cluster_size,
 * engine, allow_list and others"). The reference takes any body; the variant needs label, region,
 * type and engine, and an engine it serves.
 */
function mysqlCreateBody(call: Call): void {
  const body = (call.body ?? {}) as Record<string, unknown>;
  const problems = ['label', 'region', 'type', 'engine'].filter((k) => typeof body[k] !== 'string' || !body[k]).map((field) => ({ field, reason: `${field} is required`, missing: true }));
  if (typeof body.engine === 'string' && body.engine && !ENGINES.some((e) => e.id === body.engine && e.engine === 'mysql')) problems.push({ field: 'engine', reason: `${body.engine} is not a MySQL engine served here`, missing: false });
  if (problems.length) throw new ApiError(400, problems);
}

/** Operations that need status `active`, each with the fault that skips that precondition. */
type ActiveOp = 'update' | 'snapshot' | 'restore' | 'credentials' | 'ssl' | 'patch';

export function registerDatabases(api: Api): void {
  const { world } = api;
  /** Databases whose root password was reset (a restore after that yields a failed cluster). */
  const credentialsReset = new WeakSet<Database>();
  const dbScope = { ro: 'databases:read_only', rw: 'databases:read_write' };

  api.endpoint({ method: 'GET', path: '/databases/engines', scope: 'none', grant: 'none' }, (call) => (call.faults.has('engine-list-bare-object') ? { body: {} } : paginate(call, ENGINES, ['engine', 'version'])));
  // engineId has the form <engine>/<version>: two path segments.
  const engineView = (id: string) => {
    const e = ENGINES.find((x) => x.id === id);
    if (!e) throw notFound();
    return { body: e };
  };
  if (api.faults.has('engine-view-by-version-only')) {
    api.endpoint({ method: 'GET', path: '/databases/engines/{version}', scope: 'none', grant: 'none' }, (call) => engineView(ENGINES.find((e) => e.version === call.params.version)?.id ?? ''));
  } else if (api.variant) {
    // The variant takes the engine id as one path segment, its slash percent-encoded (mysql%2F8.0.30).
    api.endpoint({ method: 'GET', path: '/databases/engines/{engineId}', scope: 'none', grant: 'none' }, (call) => engineView(call.params.engineId));
  } else {
    api.endpoint({ method: 'GET', path: '/databases/engines/{engine}/{version}', scope: 'none', grant: 'none' }, (call) => engineView(`${call.params.engine}/${call.params.version}`));
  }

  const mine = (call: Call, engine?: Database['engine']) => {
    const { account } = requireCaller(call);
    return [...world.databases.values()].filter((d) => d.account === account.id && (!engine || d.engine === engine));
  };
  /** Until when a database is `updating` (the variant, after an update or a patch). */
  const busyUntil = new Map<number, number>();
  /** Under snapshot-target-unchecked-first-busy: active databases no request has been about yet. */
  const firstBusy = new Set(api.faults.has('snapshot-target-unchecked-first-busy') ? [...world.databases.values()].filter((d) => d.status === 'active').map((d) => d.id) : []);
  /** Requests that found their database still updating (under that fault). */
  const busyCalls = new WeakSet<Call>();
  /** The status of `d` as the request `call` finds it. */
  const statusOf = (call: Call, d: Database): string => (busyCalls.has(call) || (busyUntil.get(d.id) ?? 0) > Date.now() ? 'updating' : d.status);
  /** The variant keeps a database `updating` for a while after an update or a patch. */
  const updated = (call: Call, d: Database) => {
    if (call.variant) busyUntil.set(d.id, Date.now() + VARIANT_UPDATING_MS);
  };
  /** The MongoDB instance of the path, else 404. */
  const mongo = (call: Call): Database => {
    const d = mine(call, 'mongodb').find((x) => x.id === Number(call.params.instanceId));
    if (!d) throw notFound('Database not found');
    if (firstBusy.delete(d.id)) busyCalls.add(call);
    return d;
  };
  const requireActive = (call: Call, d: Database, op: ActiveOp) => {
    const status = statusOf(call, d);
    if (status !== 'active' && !call.faults.has(`${op}-on-failed-database` as CloudFault)) throw conflict(call, `The database must be active for ${op}; it is ${status}`);
  };
  const requireNotProvisioning = (call: Call, d: Database) => {
    if (d.status === 'provisioning' && !call.faults.has('backups-listed-while-provisioning')) throw conflict(call, 'Backups are not available while the database is provisioning');
  };

  api.endpoint(
    { method: 'GET', path: '/databases/instances', scope: dbScope.ro, grant: 'read_only', prefixes: api.faults.has('instances-v4-only') ? ['v4'] : ['v4', 'v4beta'] },
    (call) => paginate(call, mine(call).map((d) => view(d, call.faults, statusOf(call, d))), DATABASE_FILTERABLE),
  );
  api.endpoint({ method: 'GET', path: '/databases/mongodb/instances', scope: dbScope.ro, grant: 'read_only' }, (call) => paginate(call, mine(call, 'mongodb').map((d) => view(d, call.faults, statusOf(call, d))), DATABASE_FILTERABLE));
  api.endpoint({ method: 'GET', path: '/databases/mongodb/instances/{instanceId}', scope: dbScope.ro, grant: 'read_only' }, (call) => {
    const d = mongo(call);
    return { body: view(d, call.faults, statusOf(call, d)) };
  });

  api.endpoint({ method: 'PUT', path: '/databases/mongodb/instances/{instanceId}', scope: dbScope.rw, grant: 'read_write', request: (call) => void validateBody(call, 'databaseUpdate', call.body) }, (call) => {
    if (call.faults.has('put-unknown-database-200') && !world.databases.has(Number(call.params.instanceId))) return { body: {} };
    const d = mongo(call);
    requireActive(call, d, 'update');
    const body = validateBody<{ label?: string; allow_list?: string[]; updates?: Record<string, unknown> }>(call, 'databaseUpdate', call.body);
    if (body.allow_list !== undefined) {
      if (body.allow_list.length === 0 && call.faults.has('empty-allow-list-refused')) throw refuse(400, 'allow_list must not be empty', 'allow_list');
      // The new list overwrites the existing one; an empty list blocks all connections.
      d.allow_list = call.faults.has('allow-list-merges') ? [...new Set([...d.allow_list, ...body.allow_list])] : [...body.allow_list];
    }
    if (body.label !== undefined) d.label = body.label;
    if (body.updates !== undefined) d.updates = { ...d.updates, ...body.updates };
    updated(call, d);
    return { body: view(d, call.faults, statusOf(call, d)) };
  });

  api.endpoint({ method: 'DELETE', path: '/databases/mongodb/instances/{instanceId}', scope: dbScope.rw, grant: 'read_write' }, (call) => {
    const { user } = requireCaller(call);
    // Only unrestricted users, regardless of scopes.
    if (user.restricted) throw refuse(403, 'Only unrestricted users can delete a database');
    const d = mongo(call);
    if (!['active', 'failed', 'degraded'].includes(d.status) && !call.faults.has('delete-provisioning-database')) throw conflict(call, `A database that is ${d.status} cannot be deleted`);
    world.databases.delete(d.id);
    return { body: {} };
  });

  const backupView = (b: Database['backups'][number]) => ({ id: b.id, label: b.label, type: b.type === 'auto' && api.faults.has('backup-type-unnamed') ? 'daily' : b.type, created: b.created });
  // Automatic backups: every 24 hours, up to seven kept (the seed holds seven; the fault an eighth).
  if (api.faults.has('eight-auto-backups')) for (const d of world.databases.values()) d.backups.push({ id: world.nextId(), label: 'auto-8', type: 'auto', created: new Date(Date.now() - 8 * 86400_000).toISOString() });
  api.endpoint({ method: 'GET', path: '/databases/mongodb/instances/{instanceId}/backups', scope: dbScope.rw, grant: 'read_only' }, (call) => {
    const d = mongo(call);
    requireNotProvisioning(call, d);
    // Linode marks a backup's type and created filterable.
    return paginate(call, d.backups.map(backupView), ['type', 'created']);
  });
  api.endpoint({ method: 'POST', path: '/databases/mongodb/instances/{instanceId}/backups', scope: dbScope.rw, grant: 'read_write', request: (call) => void validateBody(call, 'snapshotRequest', call.body) }, (call) => {
    const d = mongo(call);
    requireActive(call, d, 'snapshot');
    // The faults relax one rule each by validating a copy the rule no longer sees.
    const checked = { ...(call.body as Record<string, unknown>) };
    if (call.faults.has('snapshot-label-double-dash') && typeof checked.label === 'string') checked.label = checked.label.replace(/([-_.])\1+/g, '$1');
    if (call.faults.has('snapshot-target-unchecked') || call.faults.has('snapshot-target-unchecked-first-busy')) delete checked.target;
    const body = validateBody<{ label: string; target?: string }>(call, 'snapshotRequest', checked);
    // Takes several minutes on a real service; the status of the database does not change.
    d.backups.push({ id: world.nextId(), label: (call.body as { label: string }).label ?? body.label, type: 'snapshot', created: new Date().toISOString().slice(0, 19) });
    return { body: {} };
  });
  const backup = (call: Call, d: Database) => {
    const b = d.backups.find((x) => x.id === Number(call.params.backupId));
    if (!b) throw notFound('Backup not found');
    return b;
  };
  api.endpoint({ method: 'GET', path: '/databases/mongodb/instances/{instanceId}/backups/{backupId}', scope: dbScope.rw, grant: 'read_only' }, (call) => {
    const d = mongo(call);
    requireNotProvisioning(call, d);
    return { body: backupView(backup(call, d)) };
  });
  api.endpoint({ method: 'DELETE', path: '/databases/mongodb/instances/{instanceId}/backups/{backupId}', scope: dbScope.rw, grant: 'none' }, (call) => {
    const d = mongo(call);
    const b = backup(call, d);
    if (!call.faults.has('backup-delete-noop')) d.backups = d.backups.filter((x) => x !== b);
    return { body: {} };
  });
  api.endpoint({ method: 'POST', path: '/databases/mongodb/instances/{instanceId}/backups/{backupId}/restore', scope: dbScope.rw, grant: 'read_write', request: 'none' }, (call) => {
    const d = mongo(call);
    requireActive(call, d, 'restore');
    backup(call, d);
    // After a credentials reset a restore yields a failed cluster.
    if (credentialsReset.has(d)) d.status = 'failed';
    return { body: {} };
  });
  api.endpoint({ method: 'GET', path: '/databases/mongodb/instances/{instanceId}/credentials', scope: dbScope.ro, grant: 'read_only' }, (call) => {
    const d = mongo(call);
    requireActive(call, d, 'credentials');
    if (call.faults.has('credentials-empty')) return { body: {} };
    return { body: { username: 'root', password: d.password } };
  });
  api.endpoint({ method: 'POST', path: '/databases/mongodb/instances/{instanceId}/credentials/reset', scope: dbScope.rw, grant: 'unrestricted', request: 'none' }, (call) => {
    const d = mongo(call);
    d.password = randomUUID();
    credentialsReset.add(d);
    return { body: {} };
  });
  api.endpoint({ method: 'GET', path: '/databases/mongodb/instances/{instanceId}/ssl', scope: dbScope.ro, grant: 'read_only' }, (call) => {
    const d = mongo(call);
    requireActive(call, d, 'ssl');
    return { body: { ca_certificate: randomBytes(48).toString('base64') } };
  });
  api.endpoint({ method: 'POST', path: '/databases/mongodb/instances/{instanceId}/patch', scope: dbScope.rw, grant: 'read_write', request: 'none' }, (call) => {
    if (call.faults.has('patch-active-refused')) throw conflict(call, 'Patches cannot be applied now');
    const d = mongo(call);
    requireActive(call, d, 'patch');
    updated(call, d);
    return { body: {} };
  });

  api.endpoint({ method: 'GET', path: '/databases/mysql/instances', scope: dbScope.ro, grant: 'read_only' }, (call) => paginate(call, mine(call, 'mysql').map((d) => view(d, call.faults)), DATABASE_FILTERABLE));
  api.endpoint(
    { method: 'POST', path: '/databases/mysql/instances', scope: dbScope.rw, grant: api.faults.has('mysql-create-ignores-add-databases') ? 'read_only' : 'add_databases', request: mysqlCreateBody },
    (call) => {
      const { account } = requireCaller(call);
      if (call.variant) mysqlCreateBody(call);
      // The body fields are not shown in the document: a label is taken when given.
      const label = (call.body as { label?: unknown } | undefined)?.label;
      const d: Database = {
        id: world.nextId(),
        account: account.id,
        engine: 'mysql',
        label: typeof label === 'string' ? label : `mysql-${world.nextId()}`,
        status: 'provisioning',
        allow_list: [],
        // A maintenance window from the start, as Linode gives every new database.
        updates: { frequency: 'weekly', duration: 3, hour_of_day: 0, day_of_week: 1, week_of_month: null },
        backups: [],
        password: randomUUID(),
        created: new Date().toISOString().slice(0, 19),
      };
      world.databases.set(d.id, d);
      return { body: view(d, call.faults) };
    },
  );
}
