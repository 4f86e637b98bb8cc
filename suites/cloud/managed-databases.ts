// Section "Managed databases" of cloud-api.md, with the status preconditions of "States and
// transitions" and the snapshot request of "Resources and their fields". The fixture databases
// come from the target (fixtures.databases.<status>); no check changes a database's status, and
// the one that changes the allow_list puts the previous list back.
import { randomBytes } from 'node:crypto';
import { check, type CloudCheckContext } from '../../src/core/check.ts';
import { brief, envelope, expectRefused, expectRefusedToRestricted, expectStatus, isJsonObject, listAll, notAboutTheRule, sameValue, show, bodyField, waitFor } from './support.ts';

const section = 'Managed databases';
const file = 'cloud-api.md';
const MONGO = '/databases/mongodb/instances';

type Status = 'active' | 'failed' | 'degraded' | 'provisioning';

/** The fixture database in `status`, or a skip naming the missing fixture. */
function db(ctx: CloudCheckContext, status: Status): number {
  return ctx.cloud.fixture(ctx.cloud.fixtures.databases?.[status], `databases.${status}`);
}

/** The <engine>/<version> id of an engine of the public list (a set-up read), preferring `prefer`. */
async function engineId(ctx: CloudCheckContext, prefer?: string): Promise<string> {
  const rows = await ctx.setup('GET /v4/databases/engines (an engine id)', () => listAll(ctx.cloud.anonymous(), '/databases/engines', 'GET /v4/databases/engines'), { seeAlso: 'cloud.authentication.public-without-token' });
  // Engine fields are not shown beyond "engine id of the form <engine>/<version>".
  const ids = rows.map((e) => (typeof e.id === 'string' && e.id.includes('/') ? e.id : typeof e.engine === 'string' && e.version !== undefined ? `${e.engine}/${String(e.version)}` : undefined)).filter((v): v is string => v !== undefined);
  const id = ids.find((x) => prefer !== undefined && x.startsWith(`${prefer}/`)) ?? (prefer === undefined ? ids[0] : undefined);
  if (!id) return ctx.inconclusive(`GET /v4/databases/engines: no ${prefer ?? ''} engine with an <engine>/<version> id in ${show(rows.slice(0, 3))}`);
  return id;
}

const snapshotLabel = () => `conf-snap.${randomBytes(3).toString('hex')}`;

export const instancesBothPrefixes = check(
  {
    id: 'cloud.databases.instances-both-prefixes',
    title: 'The database instance list is served under /v4 and /v4beta',
    protocol: 'cloud',
    section: 'Versioning',
    level: 'MUST',
    spec: { file, line: 242, quote: 'payment-method list and managed-database endpoints are served on both' },
    faults: ['instances-v4-only'],
  },
  async (ctx) => {
    const api = ctx.cloud.as('unrestricted');
    for (const prefix of ['v4', 'v4beta'] as const) envelope(await api.get('/databases/instances', { prefix }), `GET /${prefix}/databases/instances`);
  },
);

export const instanceUri = check(
  {
    id: 'cloud.databases.instance-uri',
    title: 'Every database of the instance list has an instance_uri',
    protocol: 'cloud',
    section,
    level: 'MUST',
    spec: { file, line: 156, quote: 'list of Database (each has an `instance_uri`)' },
    faults: ['instance-without-uri'],
  },
  async (ctx) => {
    const rows = await listAll(ctx.cloud.as('unrestricted'), '/databases/instances', 'GET /v4/databases/instances');
    if (!rows.length) return ctx.inconclusive('GET /v4/databases/instances lists no database: no instance_uri to look at');
    const without = rows.filter((d) => typeof d.instance_uri !== 'string' || !d.instance_uri);
    ctx.expect(without.length === 0, `GET /v4/databases/instances: ${without.length} of ${rows.length} databases have no instance_uri, e.g. ${show(without[0])}`);
  },
);

export const engineViewById = check(
  {
    id: 'cloud.databases.engine-view-by-engine-version',
    title: 'A database engine is viewed at /databases/engines/<engine>/<version>',
    protocol: 'cloud',
    section,
    level: 'MUST',
    spec: { file, line: 155, quote: 'engineId string of form <engine>/<version> -> Database engine' },
    faults: ['engine-view-by-version-only'],
  },
  async (ctx) => {
    const api = ctx.cloud.anonymous();
    const id = await engineId(ctx);
    // {engineId} holds a slash: sent percent-encoded as one path segment (mysql%2F8.0.30), and,
    // where a server does not take that form, as written (mysql/8.0.30). Either answering is the rule.
    const tried: string[] = [];
    for (const path of [`/databases/engines/${encodeURIComponent(id)}`, `/databases/engines/${id}`]) {
      const res = await api.get(path);
      if (res.status === 200) return;
      tried.push(`GET /v4${path}: ${brief(res)}`);
    }
    ctx.fail(`the engine ${id} of GET /v4/databases/engines is not served at /databases/engines/{engineId}: ${tried.join('; ')}`);
  },
);

export const activeOnlyOperations = check(
  {
    id: 'cloud.databases.active-only-operations',
    title: 'Update, snapshot create, restore, credentials view, SSL view and patch are refused on a failed or degraded database',
    protocol: 'cloud',
    section: 'States and transitions',
    level: 'MUST',
    spec: { file, line: 66, quote: 'update, snapshot create, restore, credentials view, SSL view and patch need status `active`' },
    faults: ['update-on-failed-database', 'snapshot-on-failed-database', 'restore-on-failed-database', 'credentials-on-failed-database', 'ssl-on-failed-database', 'patch-on-failed-database'],
    tags: ['destructive'],
  },
  async (ctx) => {
    const fixtures = ctx.cloud.fixtures.databases ?? {};
    const inactive = (['failed', 'degraded'] as const).filter((s) => fixtures[s] !== undefined);
    if (!inactive.length) ctx.skip('needs fixtures.databases.failed or fixtures.databases.degraded (config fields; an ad hoc target has none)');
    const api = ctx.cloud.as('unrestricted');
    let restoreTried = false;
    for (const status of inactive) {
      const id = fixtures[status]!;
      const base = `${MONGO}/${id}`;
      const on = `of the ${status} database ${id}`;
      expectRefused(await api.put(base, { label: 'conformance-update' }), `PUT /v4${MONGO}/{instanceId} {"label":…} ${on}`);
      expectRefused(await api.post(`${base}/backups`, { label: snapshotLabel(), target: 'primary' }), `POST /v4${MONGO}/{instanceId}/backups ${on}`);
      expectRefused(await api.get(`${base}/credentials`), `GET /v4${MONGO}/{instanceId}/credentials ${on}`);
      expectRefused(await api.get(`${base}/ssl`), `GET /v4${MONGO}/{instanceId}/ssl ${on}`);
      expectRefused(await api.post(`${base}/patch`), `POST /v4${MONGO}/{instanceId}/patch ${on}`);
      // Restore needs a backup of that database: backup list only needs it not provisioning.
      const backups = await ctx.setup(`GET /v4${MONGO}/{instanceId}/backups ${on} (a backup to restore)`, () => listAll(api, `${base}/backups`, `GET /v4${MONGO}/{instanceId}/backups ${on}`), { seeAlso: 'cloud.databases.backups-not-while-provisioning' });
      const first = backups.find((b) => typeof b.id === 'number');
      if (!first) continue;
      restoreTried = true;
      expectRefused(await api.post(`${base}/backups/${first.id as number}/restore`), `POST /v4${MONGO}/{instanceId}/backups/{backupId}/restore ${on}`);
    }
    if (!restoreTried) return ctx.inconclusive(`no backup of the ${inactive.join(' or ')} database: update, snapshot, credentials, SSL and patch were refused, restore could not be tried`);
  },
);

export const deleteNotProvisioning = check(
  {
    id: 'cloud.databases.delete-not-provisioning',
    title: 'Deleting a database that is provisioning is refused',
    protocol: 'cloud',
    section,
    level: 'MUST',
    spec: { file, line: 160, quote: 'status active, failed or degraded; only unrestricted users' },
    faults: ['delete-provisioning-database'],
    tags: ['destructive'],
  },
  async (ctx) => {
    const id = db(ctx, 'provisioning');
    expectRefused(await ctx.cloud.as('unrestricted').delete(`${MONGO}/${id}`), `DELETE /v4${MONGO}/{instanceId} of the provisioning database ${id}`);
  },
);

export const backupsNotWhileProvisioning = check(
  {
    id: 'cloud.databases.backups-not-while-provisioning',
    title: 'Backups of a provisioning database are refused; those of an active one are listed and viewed',
    protocol: 'cloud',
    section,
    level: 'MUST',
    spec: { file, line: 161, quote: 'database not provisioning -> list of Backup' },
    faults: ['backups-listed-while-provisioning'],
  },
  async (ctx) => {
    const provisioning = db(ctx, 'provisioning');
    const active = db(ctx, 'active');
    const api = ctx.cloud.as('unrestricted');
    expectRefused(await api.get(`${MONGO}/${provisioning}/backups`), `GET /v4${MONGO}/{instanceId}/backups of the provisioning database ${provisioning}`);
    const list = envelope(await api.get(`${MONGO}/${active}/backups`), `GET /v4${MONGO}/{instanceId}/backups of the active database ${active}`);
    const first = list.data.find((b) => typeof b.id === 'number');
    if (!first) return ctx.inconclusive(`GET /v4${MONGO}/{instanceId}/backups of the active database ${active} lists no backup with an integer id: viewing one cannot be tried`);
    expectStatus(await api.get(`${MONGO}/${active}/backups/${first.id as number}`), 200, `GET /v4${MONGO}/{instanceId}/backups/{backupId} of the active database ${active}`);
  },
);

export const allowListOverwrites = check(
  {
    id: 'cloud.databases.allow-list-overwrites',
    title: 'A new allow_list replaces the existing one, and an empty one is accepted',
    protocol: 'cloud',
    section,
    level: 'MUST',
    spec: { file, line: 159, quote: 'allow_list overwrites existing; empty array blocks all connections' },
    faults: ['allow-list-merges', 'empty-allow-list-refused'],
    tags: ['destructive'],
  },
  async (ctx) => {
    const id = db(ctx, 'active');
    const api = ctx.cloud.as('unrestricted');
    const path = `${MONGO}/${id}`;
    const before = await ctx.setup(`GET /v4${MONGO}/{instanceId} of the active database ${id}`, async () => {
      const res = await api.get(path);
      expectStatus(res, 200, `GET /v4${MONGO}/{instanceId} of the active database ${id}`);
      return res;
    });
    // The fields of a MongoDB database are not shown: allow_list is read from the PUT answer, or
    // else from a GET; a target that shows it nowhere leaves the rule unobserved.
    const previous = bodyField(before, 'allow_list');
    const replacement = ['198.51.100.7/32'];
    const shown = async (put: typeof before) => {
      const inAnswer = bodyField(put, 'allow_list');
      if (Array.isArray(inAnswer)) return inAnswer;
      const again = bodyField(await api.get(path), 'allow_list');
      return Array.isArray(again) ? again : ctx.inconclusive(`neither PUT /v4${MONGO}/{instanceId} nor GET show an allow_list: whether the list was overwritten cannot be seen`);
    };
    try {
      const put = await api.put(path, { allow_list: replacement });
      const what = `PUT /v4${MONGO}/{instanceId} {"allow_list":${JSON.stringify(replacement)}} over ${show(previous)}`;
      expectStatus(put, 200, what);
      const after = await shown(put);
      ctx.expect(sameValue(after, replacement), `${what}: the list overwrites the existing one, got allow_list ${show(after)}`);
      const empty = await api.put(path, { allow_list: [] });
      const emptyWhat = `PUT /v4${MONGO}/{instanceId} {"allow_list":[]}`;
      expectStatus(empty, 200, `${emptyWhat} (an empty array blocks all connections)`);
      const none = await shown(empty);
      ctx.expect(none.length === 0, `${emptyWhat}: got allow_list ${show(none)}`);
    } finally {
      if (Array.isArray(previous)) await api.put(path, { allow_list: previous }).catch(() => undefined);
    }
  },
);

export const snapshotLabelRules = check(
  {
    id: 'cloud.databases.snapshot-label-rules',
    title: 'A snapshot with a valid label is accepted with {}; labels breaking the rules are refused',
    protocol: 'cloud',
    section: 'Resources and their fields',
    level: 'MUST',
    spec: { file, line: 44, quote: 'must begin and end with a letter or digit; no two dashes, underscores or periods in a row' },
    faults: ['snapshot-label-double-dash'],
    tags: ['destructive'],
  },
  async (ctx) => {
    const id = db(ctx, 'active');
    const api = ctx.cloud.as('unrestricted');
    const path = `${MONGO}/${id}/backups`;
    const bad = ['ab', 'x'.repeat(65), '-abc1', 'abc1_', 'ab--cd', 'ab__cd', 'ab..cd', 'ab cd', 'ab/cd'];
    for (const label of bad) expectRefused(await api.post(path, { label, target: 'primary' }), `POST /v4${MONGO}/{instanceId}/backups {"label":${JSON.stringify(label)}}`);
    const good = snapshotLabel();
    const res = await api.post(path, { label: good, target: 'primary' });
    expectStatus(res, 200, `POST /v4${MONGO}/{instanceId}/backups {"label":"${good}","target":"primary"} of the active database ${id}`);
  },
);

export const snapshotTargetEnum = check(
  {
    id: 'cloud.databases.snapshot-target-enum',
    title: 'A snapshot target other than primary or secondary is refused',
    protocol: 'cloud',
    section: 'Resources and their fields',
    level: 'MUST',
    spec: { file, line: 44, quote: 'target (string, enum primary or secondary, default primary)' },
    faults: ['snapshot-target-unchecked'],
    tags: ['destructive'],
  },
  async (ctx) => {
    const id = db(ctx, 'active');
    const body = { label: snapshotLabel(), target: 'tertiary' };
    expectRefused(await ctx.cloud.as('unrestricted').post(`${MONGO}/${id}/backups`, body), `POST /v4${MONGO}/{instanceId}/backups ${JSON.stringify(body)}`);
  },
);

export const credentialsResetUnrestrictedOnly = check(
  {
    id: 'cloud.databases.credentials-reset-unrestricted-only',
    title: 'A restricted user cannot reset database credentials',
    protocol: 'cloud',
    section,
    level: 'MUST',
    spec: { file, line: 167, quote: 'new random root password; unrestricted users only' },
    faults: ['restricted-passes-unrestricted-only', 'unrestricted-only-as-read-write'],
    tags: ['destructive'],
  },
  async (ctx) => {
    const id = db(ctx, 'active');
    await expectRefusedToRestricted(ctx, (api) => api.post(`${MONGO}/${id}/credentials/reset`), `POST /v4${MONGO}/{instanceId}/credentials/reset`);
  },
);

export const activeReads = check(
  {
    id: 'cloud.databases.active-reads',
    title: 'Credentials and the SSL CA certificate of an active database can be viewed',
    protocol: 'cloud',
    section,
    level: 'MUST',
    spec: { file, line: 166, quote: '/databases/mongodb/instances/{instanceId}/credentials | databases:read_only | read_only | -> root username and password' },
    faults: ['read-only-scope-get-refused'],
  },
  async (ctx) => {
    const id = db(ctx, 'active');
    const api = ctx.cloud.as('readOnly');
    const creds = await api.get(`${MONGO}/${id}/credentials`);
    expectStatus(creds, 200, `GET /v4${MONGO}/{instanceId}/credentials of the active database ${id} with databases:read_only`);
    expectStatus(await api.get(`${MONGO}/${id}/ssl`), 200, `GET /v4${MONGO}/{instanceId}/ssl of the active database ${id} with databases:read_only`);
  },
);

export const mysqlCreateNeedsAddDatabases = check(
  {
    id: 'cloud.databases.mysql-create-needs-add-databases',
    title: 'A restricted user without the add_databases grant cannot create a MySQL database (403)',
    protocol: 'cloud',
    section,
    level: 'MUST',
    spec: { file, line: 171, quote: '| POST | /databases/mysql/instances | databases:read_write | add_databases |' },
    faults: ['mysql-create-ignores-add-databases'],
    tags: ['destructive'],
  },
  async (ctx) => {
    // The body fields are named but not shown (line 171): every named one is sent, so that the
    // request is refused for the grant, not for its body; only the grant refusal is asserted.
    const engine = await engineId(ctx, 'mysql');
    const body = { label: `conf-mysql-${randomBytes(3).toString('hex')}`, region: 'us-east', type: 'g6-dedicated-2', cluster_size: 1, engine, allow_list: ['203.0.113.0/24'] };
    const res = await ctx.cloud.as('restricted').post('/databases/mysql/instances', body);
    const what = `POST /v4/databases/mysql/instances ${JSON.stringify(body)} as a restricted user without add_databases`;
    notAboutTheRule(res, what);
    expectStatus(res, 403, what);
    expectRefused(res, what);
  },
);

/** The backups of the active fixture database, every page (a set-up read). */
async function activeBackups(ctx: CloudCheckContext, id: number, why: string): Promise<Record<string, unknown>[]> {
  return ctx.setup(`GET /v4${MONGO}/{instanceId}/backups of the active database ${id} (${why})`, () => listAll(ctx.cloud.as('unrestricted'), `${MONGO}/${id}/backups`, `GET /v4${MONGO}/${id}/backups`), { seeAlso: 'cloud.databases.backups-not-while-provisioning' });
}

export const backupTypes = check(
  {
    id: 'cloud.databases.backup-type-auto-or-snapshot',
    title: 'Every backup of a database has type auto or snapshot',
    protocol: 'cloud',
    section: 'Resources and their fields',
    level: 'MUST',
    spec: { file, line: 46, quote: '| Managed database backup | type `auto` (created every 24 hours at 0:00 UTC, retained 7 days) or `snapshot` |' },
    faults: ['backup-type-unnamed'],
  },
  async (ctx) => {
    const id = db(ctx, 'active');
    const rows = await activeBackups(ctx, id, 'the backups whose type is read');
    if (!rows.length) return ctx.inconclusive(`GET /v4${MONGO}/${id}/backups lists no backup: no type to read`);
    const other = rows.filter((b) => b.type !== 'auto' && b.type !== 'snapshot');
    ctx.expect(other.length === 0, `GET /v4${MONGO}/${id}/backups: ${other.length} of ${rows.length} backups have a type other than auto or snapshot: ${show(other.map((b) => b.type))}`);
    ctx.note(`${rows.length} backups, types ${show([...new Set(rows.map((b) => b.type))])}`);
  },
);

export const atMostSevenAuto = check(
  {
    id: 'cloud.databases.at-most-seven-auto-backups',
    title: 'A database keeps at most seven automatic backups',
    protocol: 'cloud',
    section,
    level: 'MUST',
    spec: { file, line: 173, quote: 'Managed databases include automatic daily backups (up to seven kept)' },
    faults: ['eight-auto-backups'],
  },
  async (ctx) => {
    const id = db(ctx, 'active');
    const rows = await activeBackups(ctx, id, 'the automatic backups kept');
    const auto = rows.filter((b) => b.type === 'auto');
    ctx.expect(auto.length <= 7, `GET /v4${MONGO}/${id}/backups lists ${auto.length} backups of type auto: up to seven are kept`);
    // Fewer than seven: the database is younger than a week, and the limit cannot be seen.
    if (auto.length < 7) return ctx.inconclusive(`GET /v4${MONGO}/${id}/backups lists ${auto.length} backups of type auto: the limit of seven is seen only on a database a week old or older`);
  },
);

export const backupDelete = check(
  {
    id: 'cloud.databases.backup-delete',
    title: 'DELETE of a backup answers {} and the backup is gone',
    protocol: 'cloud',
    section,
    level: 'MUST',
    spec: { file, line: 164, quote: '| DELETE | /databases/mongodb/instances/{instanceId}/backups/{backupId} | databases:read_write | - | -> {} |' },
    faults: ['backup-delete-noop'],
    tags: ['destructive'],
  },
  async (ctx) => {
    const id = db(ctx, 'active');
    const api = ctx.cloud.as('unrestricted');
    // A snapshot of its own to delete (the fixture's automatic backups are left alone).
    const label = snapshotLabel();
    const created = `POST /v4${MONGO}/${id}/backups {"label":"${label}"}`;
    await ctx.setup(created, async () => expectStatus(await api.post(`${MONGO}/${id}/backups`, { label }), 200, created), { seeAlso: 'cloud.databases.snapshot-label-rules' });
    // A snapshot "takes several minutes": it is looked for for up to timeouts.backgroundMs.
    const mine = async () => (await listAll(api, `${MONGO}/${id}/backups`, `GET /v4${MONGO}/${id}/backups`)).find((b) => b.label === label && (typeof b.id === 'number' || typeof b.id === 'string'));
    const backup = await ctx.setup(`GET /v4${MONGO}/${id}/backups (the snapshot ${label})`, () => waitFor(ctx, mine));
    if (!backup) return ctx.inconclusive(`${created} answered 200, but no backup labelled ${label} was listed within ${ctx.timeouts.backgroundMs} ms (a snapshot takes several minutes): nothing to delete`);
    const path = `${MONGO}/${id}/backups/${encodeURIComponent(String(backup.id))}`;
    const what = `DELETE /v4${MONGO}/${id}/backups/${String(backup.id)} (the snapshot ${label})`;
    const res = await api.delete(path);
    expectStatus(res, 200, what);
    ctx.expect(isJsonObject(res), `${what}: expected {}, got ${brief(res)}`);
    const gone = await waitFor(ctx, async () => ((await api.get(path)).status === 404 ? true : undefined));
    ctx.expect(gone, `GET /v4${MONGO}/${id}/backups/${String(backup.id)} after ${what} answered 200: still not 404 after ${ctx.timeouts.backgroundMs} ms`);
  },
);

export const patchActive = check(
  {
    id: 'cloud.databases.patch-active',
    title: 'Patching an active database answers {}',
    protocol: 'cloud',
    section,
    level: 'MUST',
    spec: { file, line: 169, quote: '| POST | /databases/mongodb/instances/{instanceId}/patch | databases:read_write | read_write | applies OS security patches; -> {} |' },
    faults: ['patch-active-refused'],
    tags: ['destructive'],
  },
  async (ctx) => {
    const id = db(ctx, 'active');
    const what = `POST /v4${MONGO}/${id}/patch (the active database)`;
    const res = await ctx.cloud.as('unrestricted').post(`${MONGO}/${id}/patch`);
    expectStatus(res, 200, what);
    ctx.expect(isJsonObject(res), `${what}: expected {}, got ${brief(res)}`);
  },
);

export const checks = [
  instancesBothPrefixes,
  instanceUri,
  engineViewById,
  activeOnlyOperations,
  deleteNotProvisioning,
  backupsNotWhileProvisioning,
  allowListOverwrites,
  snapshotLabelRules,
  snapshotTargetEnum,
  credentialsResetUnrestrictedOnly,
  activeReads,
  mysqlCreateNeedsAddDatabases,
  backupTypes,
  atMostSevenAuto,
  backupDelete,
  patchActive,
];
