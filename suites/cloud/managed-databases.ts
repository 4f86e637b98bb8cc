// Section "Managed databases" of cloud-api.md, with the status preconditions of "States and
// transitions" and the snapshot request of "Resources and their fields". The fixture databases
// come from the target (fixtures.databases.<status>); no check changes a database's status, and
// the one that changes the allow_list puts the previous list back.
import { randomBytes } from 'node:crypto';
import { check, type CloudCheckContext } from '../../src/core/check.ts';
import { brief, envelope, errorsOf, expectRefused, expectStatus, isJsonObject, notAboutTheRule, sameValue, show, bodyField, waitFor } from './support.ts';
import type { HttpResponse } from '../../src/clients/http/client.ts';
import { expectNotFound, expectRefusedOr404, walkPages } from './controls.ts';

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
  const rows = await ctx.setup('GET /v4/databases/engines (an engine id)', () => walkPages(ctx, ctx.cloud.anonymous(), '/databases/engines', 'GET /v4/databases/engines'), { seeAlso: 'cloud.authentication.public-without-token' });
  // Engine fields are not shown beyond "engine id of the form <engine>/<version>".
  const ids = rows.map((e) => (typeof e.id === 'string' && e.id.includes('/') ? e.id : typeof e.engine === 'string' && e.version !== undefined ? `${e.engine}/${String(e.version)}` : undefined)).filter((v): v is string => v !== undefined);
  const id = ids.find((x) => prefer !== undefined && x.startsWith(`${prefer}/`)) ?? (prefer === undefined ? ids[0] : undefined);
  if (!id) return ctx.inconclusive(`GET /v4/databases/engines: no ${prefer ?? ''} engine with an <engine>/<version> id in ${show(rows.slice(0, 3))}`);
  return id;
}

/**
 * The positive control of a check about a fixture database: it is found (GET answers 200) and, where
 * `status` is given, shows that status (Database fields are not shown beyond the status values named
 * on line 66; `status` is the field the real service writes).
 */
async function dbFound(ctx: CloudCheckContext, id: number, status?: Status): Promise<void> {
  const what = `GET /v4${MONGO}/${id} (the ${status ?? ''} fixture database)`;
  await ctx.setup(`${what} (the positive control: the database is found${status ? ` and ${status}` : ''})`, async () => {
    const res = await ctx.cloud.as('unrestricted').get(`${MONGO}/${id}`);
    expectStatus(res, 200, what);
    if (status && bodyField(res, 'status') !== status) ctx.fail(`${what}: expected status ${show(status)}, got ${show(bodyField(res, 'status'))}`);
  });
}

/** The shared state of the active fixture database's status: an update or a patch may put it in another status for a while. */
const ACTIVE_DB = 'cloud:database-active';

/**
 * The positive control of a check needing the active fixture database: it is found, and its status
 * is read until it is `active`, for up to timeouts.backgroundMs (after an update or a patch a
 * server may keep it `updating` for a while: transitions are not shown, line 66). A database still
 * in another status ends the check inconclusive: an operation refused then is refused for that.
 */
async function whenActive(ctx: CloudCheckContext, id: number): Promise<void> {
  const what = `GET /v4${MONGO}/${id} (the active fixture database)`;
  await ctx.setup(`${what} (the positive control: the database is found, and active)`, async () => {
    let last: HttpResponse | undefined;
    const active = await waitFor(ctx, async () => {
      last = await ctx.cloud.as('unrestricted').get(`${MONGO}/${id}`);
      notAboutTheRule(last, what);
      return last.status === 200 && bodyField(last, 'status') === 'active' ? true : undefined;
    });
    if (active) return;
    expectStatus(last!, 200, what);
    ctx.inconclusive(`${what}: status ${show(bodyField(last!, 'status'))}, not active, for ${ctx.timeouts.backgroundMs} ms: an operation needing status active would be refused for that`);
  });
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
    touches: ['GET /databases/instances'],
    faults: ['instances-v4-only'],
  },
  async (ctx) => {
    const api = ctx.cloud.as('unrestricted');
    envelope(await api.get('/databases/instances'), 'GET /v4/databases/instances');
    // /v4 serves the list (the positive control): a 404 under /v4beta is the list not served there.
    const beta = await api.get('/databases/instances', { prefix: 'v4beta' });
    const what = 'GET /v4beta/databases/instances (GET /v4/databases/instances answered the list)';
    notAboutTheRule(beta, what);
    ctx.expect(beta.status !== 404, `${what}: managed-database endpoints are served on both prefixes, got ${brief(beta)}`);
    envelope(beta, what);
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
    touches: ['GET /databases/instances'],
    faults: ['instance-without-uri'],
  },
  async (ctx) => {
    const rows = await walkPages(ctx, ctx.cloud.as('unrestricted'), '/databases/instances', 'GET /v4/databases/instances');
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
    touches: ['GET /databases/engines', 'GET /databases/engines/{engineId}', 'GET /databases/engines/{engine}/{version}'],
    faults: ['engine-view-by-version-only'],
    reliesOn: ['cloud.authentication.public-without-token'],
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
      notAboutTheRule(res, `GET /v4${path}`);
      tried.push(`GET /v4${path}: ${brief(res)}`);
    }
    // Neither form answered. Where the engine is served under another id (its version alone), the
    // view route is there with the wrong id form: the rule broken. Where nothing is served, the
    // view route is not served at all (a half-built server): not a verdict on the id form.
    const version = id.slice(id.indexOf('/') + 1);
    const other = await api.get(`/databases/engines/${encodeURIComponent(version)}`);
    if (other.status !== 200) return ctx.inconclusive(`the engine view is not served for ${id} in any form tried (${tried.join('; ')}; GET /v4/databases/engines/${version}: ${brief(other)}): the route is not served here, so the form of its id cannot be tested`);
    ctx.fail(`the engine ${id} of GET /v4/databases/engines is not served at /databases/engines/{engineId} (${tried.join('; ')}), but GET /v4/databases/engines/${version} (the version alone) answers 200: engineId is of the form <engine>/<version>`);
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
    touches: ['GET /databases/mongodb/instances/{instanceId}', 'GET /databases/mongodb/instances/{instanceId}/backups', 'GET /databases/mongodb/instances/{instanceId}/credentials', 'GET /databases/mongodb/instances/{instanceId}/ssl', 'POST /databases/mongodb/instances/{instanceId}/backups', 'POST /databases/mongodb/instances/{instanceId}/backups/{backupId}/restore', 'POST /databases/mongodb/instances/{instanceId}/patch', 'PUT /databases/mongodb/instances/{instanceId}'],
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
      // The positive control: the database is there, in that status.
      await dbFound(ctx, id, status);
      expectRefused(await api.put(base, { label: 'conformance-update' }), `PUT /v4${MONGO}/{instanceId} {"label":…} ${on}`);
      expectRefused(await api.post(`${base}/backups`, { label: snapshotLabel(), target: 'primary' }), `POST /v4${MONGO}/{instanceId}/backups ${on}`);
      expectRefused(await api.get(`${base}/credentials`), `GET /v4${MONGO}/{instanceId}/credentials ${on}`);
      expectRefused(await api.get(`${base}/ssl`), `GET /v4${MONGO}/{instanceId}/ssl ${on}`);
      expectRefused(await api.post(`${base}/patch`), `POST /v4${MONGO}/{instanceId}/patch ${on}`);
      // Restore needs a backup of that database: backup list only needs it not provisioning.
      const backups = await ctx.setup(`GET /v4${MONGO}/{instanceId}/backups ${on} (a backup to restore)`, () => walkPages(ctx, api, `${base}/backups`, `GET /v4${MONGO}/{instanceId}/backups ${on}`), { seeAlso: 'cloud.databases.backups-not-while-provisioning' });
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
    touches: ['DELETE /databases/mongodb/instances/{instanceId}', 'GET /databases/mongodb/instances/{instanceId}'],
    faults: ['delete-provisioning-database'],
    tags: ['destructive'],
  },
  async (ctx) => {
    const id = db(ctx, 'provisioning');
    // The positive control: the database is there, provisioning (a 404 to the DELETE may still be
    // the route not served: no database is deleted to show it is).
    await dbFound(ctx, id, 'provisioning');
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
    touches: ['GET /databases/mongodb/instances/{instanceId}', 'GET /databases/mongodb/instances/{instanceId}/backups', 'GET /databases/mongodb/instances/{instanceId}/backups/{backupId}'],
    faults: ['backups-listed-while-provisioning'],
  },
  async (ctx) => {
    const provisioning = db(ctx, 'provisioning');
    const active = db(ctx, 'active');
    const api = ctx.cloud.as('unrestricted');
    // The positive control first: the route lists the backups of the active database.
    const list = envelope(await api.get(`${MONGO}/${active}/backups`), `GET /v4${MONGO}/{instanceId}/backups of the active database ${active}`);
    await dbFound(ctx, provisioning, 'provisioning');
    expectRefusedOr404(await api.get(`${MONGO}/${provisioning}/backups`), `GET /v4${MONGO}/{instanceId}/backups of the provisioning database ${provisioning} (the route lists those of the active one)`);
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
    touches: ['GET /databases/mongodb/instances/{instanceId}', 'PUT /databases/mongodb/instances/{instanceId}'],
    faults: ['allow-list-merges', 'empty-allow-list-refused'],
    tags: ['destructive'],
    writes: [ACTIVE_DB],
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
      await whenActive(ctx, id);
      const put = await api.put(path, { allow_list: replacement });
      const what = `PUT /v4${MONGO}/{instanceId} {"allow_list":${JSON.stringify(replacement)}} over ${show(previous)}`;
      expectStatus(put, 200, what);
      const after = await shown(put);
      ctx.expect(sameValue(after, replacement), `${what}: the list overwrites the existing one, got allow_list ${show(after)}`);
      // An update may keep the database updating for a while (line 159: "changes may take a short while").
      await whenActive(ctx, id);
      const empty = await api.put(path, { allow_list: [] });
      const emptyWhat = `PUT /v4${MONGO}/{instanceId} {"allow_list":[]}`;
      expectStatus(empty, 200, `${emptyWhat} (an empty array blocks all connections)`);
      const none = await shown(empty);
      ctx.expect(none.length === 0, `${emptyWhat}: got allow_list ${show(none)}`);
    } finally {
      if (Array.isArray(previous)) {
        await whenActive(ctx, id).catch(() => undefined);
        await api.put(path, { allow_list: previous }).catch(() => undefined);
      }
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
    touches: ['GET /databases/mongodb/instances/{instanceId}', 'POST /databases/mongodb/instances/{instanceId}/backups'],
    faults: ['snapshot-label-double-dash'],
    tags: ['destructive'],
    reads: [ACTIVE_DB],
  },
  async (ctx) => {
    const id = db(ctx, 'active');
    const api = ctx.cloud.as('unrestricted');
    const path = `${MONGO}/${id}/backups`;
    // The database is active first: a snapshot of one that is not is refused for that (line 66).
    await whenActive(ctx, id);
    const bad = ['ab', 'x'.repeat(65), '-abc1', 'abc1_', 'ab--cd', 'ab__cd', 'ab..cd', 'ab cd', 'ab/cd'];
    const refusals: [HttpResponse, string][] = [];
    for (const label of bad) {
      const what = `POST /v4${MONGO}/{instanceId}/backups {"label":${JSON.stringify(label)}}`;
      const res = await api.post(path, { label, target: 'primary' });
      notAboutTheRule(res, what);
      if (res.status !== 404) expectRefused(res, what);
      refusals.push([res, what]);
    }
    // The valid label last (a snapshot in progress may refuse the next request): it is taken, so
    // the route serves snapshots and a 404 above was a refusal of the label.
    const good = snapshotLabel();
    const res = await api.post(path, { label: good, target: 'primary' });
    expectStatus(res, 200, `POST /v4${MONGO}/{instanceId}/backups {"label":"${good}","target":"primary"} of the active database ${id}`);
    for (const [r, what] of refusals) expectRefusedOr404(r, what);
  },
);

export const snapshotTargetEnum = check(
  {
    id: 'cloud.databases.snapshot-target-enum',
    title: 'A snapshot target other than primary or secondary is refused',
    protocol: 'cloud',
    section: 'Resources and their fields',
    level: 'SHOULD',
    spec: { file, line: 44, quote: 'target (string, enum primary or secondary, default primary)' },
    touches: ['GET /databases/mongodb/instances/{instanceId}', 'POST /databases/mongodb/instances/{instanceId}/backups'],
    faults: ['snapshot-target-unchecked', 'snapshot-target-unchecked-first-busy'],
    reliesOn: ['cloud.databases.snapshot-label-rules'],
    tags: ['destructive'],
    reads: [ACTIVE_DB],
  },
  async (ctx) => {
    const id = db(ctx, 'active');
    const api = ctx.cloud.as('unrestricted');
    // The database is active first: a snapshot of one that is not is refused for that (line 66).
    await whenActive(ctx, id);
    const body = { label: snapshotLabel(), target: 'tertiary' };
    const what = `POST /v4${MONGO}/{instanceId}/backups ${JSON.stringify(body)} of the active database ${id}`;
    const res = await api.post(`${MONGO}/${id}/backups`, body);
    notAboutTheRule(res, what);
    if (res.status !== 404) expectRefused(res, what);
    // A refusal that names no field target may be for the database's status: it is read again.
    if (res.status !== 404 && !errorsOf(res).some((e) => e.field === 'target')) {
      const now = await api.get(`${MONGO}/${id}`);
      if (now.status === 200 && bodyField(now, 'status') !== 'active') return ctx.inconclusive(`${what}: refused (${brief(res)}) with no error naming field target, and the database is now ${show(bodyField(now, 'status'))}: the refusal may be for its status (line 66), not the target`);
    }
    // The positive control, after (a snapshot in progress may refuse the next): the same request
    // with target primary is taken.
    const good = { label: snapshotLabel(), target: 'primary' };
    const goodWhat = `POST /v4${MONGO}/{instanceId}/backups ${JSON.stringify(good)} of the active database ${id}`;
    await ctx.setup(`${goodWhat} (the positive control)`, async () => expectStatus(await api.post(`${MONGO}/${id}/backups`, good), 200, goodWhat), { seeAlso: 'cloud.databases.snapshot-label-rules' });
    expectRefusedOr404(res, what);
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
    touches: ['POST /databases/mongodb/instances/{instanceId}/credentials/reset'],
    faults: ['restricted-passes-unrestricted-only', 'unrestricted-only-as-read-write'],
    tags: ['destructive'],
  },
  async (ctx) => {
    const id = db(ctx, 'active');
    const path = `${MONGO}/${id}/credentials/reset`;
    const tried: [HttpResponse, string][] = [];
    const roles = ctx.cloud.target.tokens.restrictedReadWrite ? (['restricted', 'restrictedReadWrite'] as const) : (['restricted'] as const);
    if (roles.length === 1) ctx.note('no tokens.restrictedReadWrite: tested with a read_only restricted user only');
    for (const role of roles) {
      const what = `POST /v4${path} as a restricted user (account_access ${role === 'restricted' ? 'read_only' : 'read_write'})`;
      const res = await ctx.cloud.as(role).post(path);
      notAboutTheRule(res, what);
      if (res.status !== 404) expectRefused(res, what);
      tried.push([res, what]);
    }
    // The positive control: the unrestricted user is let through on the same route (a 404 to a
    // restricted user is then the database hidden from it, a refusal).
    const control = `POST /v4${path} as the unrestricted user`;
    await ctx.setup(`${control} (the positive control)`, async () => expectStatus(await ctx.cloud.as('unrestricted').post(path), 200, control));
    for (const [res, what] of tried) expectRefusedOr404(res, what);
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
    touches: ['GET /databases/mongodb/instances/{instanceId}', 'GET /databases/mongodb/instances/{instanceId}/credentials', 'GET /databases/mongodb/instances/{instanceId}/ssl'],
    faults: ['read-only-scope-get-refused', 'credentials-empty'],
    reads: [ACTIVE_DB],
  },
  async (ctx) => {
    const id = db(ctx, 'active');
    const api = ctx.cloud.as('readOnly');
    await whenActive(ctx, id);
    const credsWhat = `GET /v4${MONGO}/{instanceId}/credentials of the active database ${id} with databases:read_only`;
    const creds = await api.get(`${MONGO}/${id}/credentials`);
    expectStatus(creds, 200, credsWhat);
    // The values read: the root username and password (line 47), and the SSL CA certificate (line
    // 48; its field name is not shown: the real service writes ca_certificate, any string is taken).
    const user = bodyField(creds, 'username');
    const password = bodyField(creds, 'password');
    ctx.expect(typeof user === 'string' && user && typeof password === 'string' && password, `${credsWhat}: expected the root username and password, got ${brief(creds)}`);
    const sslWhat = `GET /v4${MONGO}/{instanceId}/ssl of the active database ${id} with databases:read_only`;
    const ssl = await api.get(`${MONGO}/${id}/ssl`);
    expectStatus(ssl, 200, sslWhat);
    const body = isJsonObject(ssl) ? Object.values(ssl.json as Record<string, unknown>) : [];
    ctx.expect(body.some((v) => typeof v === 'string' && v.length > 0), `${sslWhat}: expected the SSL CA certificate, got ${brief(ssl)}`);
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
    touches: ['GET /databases/engines', 'POST /databases/mysql/instances'],
    faults: ['mysql-create-ignores-add-databases'],
    reliesOn: ['cloud.authentication.public-without-token'],
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
  return ctx.setup(`GET /v4${MONGO}/{instanceId}/backups of the active database ${id} (${why})`, () => walkPages(ctx, ctx.cloud.as('unrestricted'), `${MONGO}/${id}/backups`, `GET /v4${MONGO}/${id}/backups`), { seeAlso: 'cloud.databases.backups-not-while-provisioning' });
}

export const backupTypes = check(
  {
    id: 'cloud.databases.backup-type-auto-or-snapshot',
    title: 'Every backup of a database has type auto or snapshot',
    protocol: 'cloud',
    section: 'Resources and their fields',
    level: 'MUST',
    spec: { file, line: 46, quote: '| Managed database backup | type `auto` (created every 24 hours at 0:00 UTC, retained 7 days) or `snapshot` |' },
    touches: ['GET /databases/mongodb/instances/{instanceId}/backups'],
    faults: ['backup-type-unnamed'],
    reliesOn: ['cloud.databases.backups-not-while-provisioning'],
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
    touches: ['GET /databases/mongodb/instances/{instanceId}/backups'],
    faults: ['eight-auto-backups'],
    reliesOn: ['cloud.databases.backups-not-while-provisioning'],
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
    touches: ['DELETE /databases/mongodb/instances/{instanceId}/backups/{backupId}', 'GET /databases/mongodb/instances/{instanceId}', 'GET /databases/mongodb/instances/{instanceId}/backups', 'GET /databases/mongodb/instances/{instanceId}/backups/{backupId}', 'POST /databases/mongodb/instances/{instanceId}/backups'],
    faults: ['backup-delete-noop'],
    reliesOn: ['cloud.databases.snapshot-label-rules'],
    tags: ['destructive'],
    reads: [ACTIVE_DB],
  },
  async (ctx) => {
    const id = db(ctx, 'active');
    const api = ctx.cloud.as('unrestricted');
    // A snapshot of its own to delete (the fixture's automatic backups are left alone), of the database once active.
    await whenActive(ctx, id);
    const label = snapshotLabel();
    const created = `POST /v4${MONGO}/${id}/backups {"label":"${label}"}`;
    await ctx.setup(created, async () => expectStatus(await api.post(`${MONGO}/${id}/backups`, { label }), 200, created), { seeAlso: 'cloud.databases.snapshot-label-rules' });
    // A snapshot "takes several minutes": it is looked for for up to timeouts.backgroundMs.
    const mine = async () => (await walkPages(ctx, api, `${MONGO}/${id}/backups`, `GET /v4${MONGO}/${id}/backups`)).find((b) => b.label === label && (typeof b.id === 'number' || typeof b.id === 'string'));
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
    touches: ['GET /databases/mongodb/instances/{instanceId}', 'POST /databases/mongodb/instances/{instanceId}/patch'],
    faults: ['patch-active-refused'],
    tags: ['destructive'],
    writes: [ACTIVE_DB],
  },
  async (ctx) => {
    const id = db(ctx, 'active');
    // The database is seen to be there and active before its patch is judged.
    await whenActive(ctx, id);
    const what = `POST /v4${MONGO}/${id}/patch (the active database)`;
    const res = await ctx.cloud.as('unrestricted').post(`${MONGO}/${id}/patch`);
    expectStatus(res, 200, what);
    ctx.expect(isJsonObject(res), `${what}: expected {}, got ${brief(res)}`);
  },
);

export const neverExisted404 = check(
  {
    id: 'cloud.databases.never-existed-404',
    title: 'GET, PUT and DELETE of a managed database that never existed answer 404',
    protocol: 'cloud',
    section: 'Errors',
    level: 'MUST',
    spec: { file, line: 214, quote: '| 404 | resource does not exist |' },
    touches: ['DELETE /databases/mongodb/instances/{instanceId}', 'GET /databases/mongodb/instances/{instanceId}', 'PUT /databases/mongodb/instances/{instanceId}'],
    faults: ['put-unknown-database-200'],
  },
  async (ctx) => {
    const id = db(ctx, 'active');
    const api = ctx.cloud.as('unrestricted');
    // The positive control: an existing database is found on the same route.
    await dbFound(ctx, id);
    // 0 is no id a database is given (ids are positive integers, as the fixtures' are).
    const gone = 0;
    expectNotFound(await api.get(`${MONGO}/${gone}`), `GET /v4${MONGO}/${gone} (no database has id ${gone})`);
    expectNotFound(await api.put(`${MONGO}/${gone}`, { label: 'conformance-never' }), `PUT /v4${MONGO}/${gone} {"label":"conformance-never"} (no database has id ${gone})`);
    expectNotFound(await api.delete(`${MONGO}/${gone}`), `DELETE /v4${MONGO}/${gone} (no database has id ${gone})`);
  },
);

export const checks = [
  neverExisted404,
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
