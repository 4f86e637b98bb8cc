// Safe fuzzing: without `allow: ['destructive']` a campaign changes nothing it did not create.
//  - WIRE (always): every query generated, or mutated into another, reaches only the campaign's
//    scratch databases; a campaign leaves the databases, tables and rows that existed unchanged,
//    and drops its scratch databases at the end.
//  - CLOUD and BUILD: the kinds generate no destructive route; a campaign against a reference run
//    as an external target with `allow: []` leaves its account, users, payment methods, payments,
//    OAuth clients (BUILD: projects, person, requests, status messages) as they were, and deletes
//    the scratch resources it made.
import { mkdtempSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runFuzz } from '../../fuzz/run.ts';
import { replayFinding } from '../../fuzz/replay.ts';
import type { Finding } from '../../fuzz/core/findings.ts';
import { UsageError } from '../../src/core/errors.ts';
import type { CloudTargetConfig } from '../../src/config/types.ts';
import { effectOf, httpJson, httpXml, JSON_BODY_ROUTES, xmlRoutes } from '../../fuzz/http/kinds.ts';
import type { HttpCase } from '../../fuzz/http/case.ts';
import { wireBytes, wireProtobuf } from '../../fuzz/wire/kinds.ts';
import { WireSandbox } from '../../fuzz/wire/safety.ts';
import { closeHttpPools, HttpClient } from '../../src/clients/http/client.ts';
import { fromDatum, type QueryMsg, type TermMsg } from '../../src/clients/wire/codec.ts';
import { WireConnection } from '../../src/clients/wire/connection.ts';
import { QueryType, TermType } from '../../src/clients/wire/schema.ts';
import { datum, term } from '../../src/clients/wire/terms.ts';
import { startCloudReference, type CloudReference } from '../../targets/cloud/server.ts';
import { startBuildReference, type BuildReference } from '../../targets/build/server.ts';
import { startWireReference, type WireReference } from '../../targets/wire/server.ts';

const out = () => mkdtempSync(join(tmpdir(), 'conformance-safe-fuzz-'));
const t = (name: string, args: TermMsg[] = []): TermMsg => ({ type: TermType[name], args });
const str = (s: string): TermMsg => datum(s).msg;

describe('WIRE: the sandbox', () => {
  const sb = new WireSandbox(7);
  const scratch = t('DB', [str('conformance_fuzz_7')]);

  it('rewrites every database a term can reach to a scratch one', () => {
    expect(sb.term(t('DB_DROP', [str('keep')]))).toEqual(t('DB_DROP', [str('conformance_fuzz_7_x')]));
    expect(sb.term(t('DB_CREATE', [str('other')]))).toEqual(t('DB_CREATE', [str('conformance_fuzz_7_x')]));
    // The default database: a DB term of the scratch one goes first.
    expect(sb.term(t('TABLE_DROP', [str('t')]))).toEqual(t('TABLE_DROP', [scratch, str('t')]));
    expect(sb.term(t('TABLE_LIST'))).toEqual(t('TABLE_LIST', [scratch]));
    // The system database is a database like any other.
    const insert = t('INSERT', [t('TABLE', [t('DB', [str('rethinkdb')]), str('users')]), str('x')]);
    expect(sb.term(insert)).toEqual(t('INSERT', [t('TABLE', [scratch, str('users')]), str('x')]));
    // A global grant becomes a grant on the scratch database.
    expect(sb.term(t('GRANT', [str('bob'), str('p')]))).toEqual(t('GRANT', [scratch, str('bob'), str('p')]));
    // DELETE over DB_LIST: whatever the names computed, the databases are scratch ones.
    const dropAll = t('FOR_EACH', [t('DB_LIST'), t('FUNC', [str('1'), t('DB_DROP', [t('VAR', [str('1')])])])]);
    expect(JSON.stringify(sb.term(dropAll))).not.toContain('"VAR"');
    expect((sb.term(dropAll).args![1].args![1] as TermMsg).args![0]).toEqual(str('conformance_fuzz_7_x'));
  });

  it('is idempotent and keeps safe queries as they are; the `db` global optarg is the scratch one', () => {
    const q: QueryMsg = { type: QueryType.START, token: 1n, query: t('TABLE_DROP', [str('t')]), global_optargs: [{ key: 'db', val: t('DB', [str('test')]) }] };
    const once = sb.query(q);
    expect(once.global_optargs![0].val).toEqual(scratch);
    expect(sb.query(once)).toBe(once);
    expect(sb.isSafe(once)).toBe(true);
    expect(sb.isSafe(q)).toBe(false);
  });

  it.each([wireProtobuf, wireBytes].map((k) => [k.name, k] as const))('%s: every frame of 2000 generated cases reaches only the scratch databases', (_, kind) => {
    const cases = fc.sample(kind.arbitrary({ authKey: '', seed: 7 }), { seed: 99, numRuns: 2000 });
    const unsafe = cases.filter((c) => !sb.safeBytes(Buffer.concat(c.writes)));
    expect(unsafe.length).toBe(0);
  });
});

describe('WIRE: a campaign changes nothing that existed', () => {
  let ref: WireReference;
  beforeAll(async () => {
    ref = await startWireReference({ authKey: '' });
  });
  afterAll(async () => {
    await ref?.close();
  });

  async function run<T>(fn: (conn: WireConnection) => Promise<T>): Promise<T> {
    const conn = await WireConnection.connect({ host: ref.host, port: ref.port });
    try {
      await conn.handshake({ authKey: '' });
      return await fn(conn);
    } finally {
      conn.close();
    }
  }
  const value = async (conn: WireConnection, x: Parameters<WireConnection['start']>[0]) => {
    const res = await conn.start(x);
    return res.response.length === 1 && res.type === 1 ? fromDatum(res.response[0]) : res.response.map(fromDatum);
  };
  /** Every database, its tables and their rows. */
  const snapshot = () =>
    run(async (conn) => {
      const state: Record<string, Record<string, unknown>> = {};
      for (const db of (await value(conn, term('DB_LIST'))) as string[]) {
        state[db] = {};
        for (const table of (await value(conn, term('TABLE_LIST', [term('DB', [db])]))) as string[]) {
          state[db][table] = await value(conn, term('ORDER_BY', [term('TABLE', [term('DB', [db]), table])], { index: 'id' }));
        }
      }
      return state;
    });

  it('600 cases of every kind (seed 42): databases, tables and rows as before, scratch databases dropped', async () => {
    await run(async (conn) => {
      await conn.start(term('DB_CREATE', ['keep']));
      await conn.start(term('TABLE_CREATE', [term('DB', ['keep']), 'docs']));
      await conn.start(term('TABLE_CREATE', ['in_test']));
      await conn.start(term('INSERT', [term('TABLE', [term('DB', ['keep']), 'docs']), [{ id: 1, a: 'x' }, { id: 2, b: [1, 2] }]]));
      await conn.start(term('INSERT', [term('TABLE', ['in_test']), { id: 'only' }]));
    });
    const before = await snapshot();
    expect(Object.keys(before).sort()).toEqual(['keep', 'test']);
    const r = await runFuzz({ targetName: 'wire-ext', target: { protocol: 'wire', host: ref.host, port: ref.port, authKey: '' }, seed: 42, runs: 600, concurrency: 2, outDir: out(), caseTimeoutMs: 1000, shrinkMs: 500 });
    expect(r.cases).toBe(600);
    expect(r.changes).toContain('conformance_fuzz_42');
    expect(r.scratch.left).toEqual([]);
    expect(r.scratch.removed).toContain('database conformance_fuzz_42');
    expect(await snapshot()).toEqual(before);
  }, 30_000);
});

function sampleCases(kind: typeof httpJson, ctx: Parameters<typeof httpJson.arbitrary>[0]): HttpCase[] {
  return fc.sample(kind.arbitrary(ctx), { seed: 5, numRuns: 1500 });
}

describe('HTTP: routes and their effects', () => {
  it('every route says what it does; without destructive only read and scratch routes are generated', () => {
    for (const [protocol, kind] of [['cloud', httpJson], ['build', httpXml]] as const) {
      const safe = sampleCases(kind, { authKey: '', user: 'tux', seed: 3 });
      const effects = new Set(safe.map((c) => effectOf(protocol, c, { authKey: '', user: 'tux', seed: 3 })));
      // (BUILD: every XML route writes; GET cases are CLOUD's.)
      expect([...effects].sort(), protocol).toEqual(protocol === 'cloud' ? ['read', 'scratch'] : ['scratch']);
      const all = sampleCases(kind, { authKey: '', user: 'tux', seed: 3, destructive: true });
      expect(new Set(all.map((c) => effectOf(protocol, c, { authKey: '', user: 'tux', seed: 3 }))).has('destructive'), protocol).toBe(true);
    }
    // The damage of issue 23 comes from these: all destructive.
    const effect = (method: string, route: string) => JSON_BODY_ROUTES.find((r) => r.method === method && r.route === route)?.effect;
    expect(['/account/payments', '/account/payment-methods', '/account/users', '/account/promo-codes'].map((r) => effect('POST', r))).toEqual(Array(4).fill('destructive'));
    expect(xmlRoutes({ authKey: '', user: 'tux' }).find((r) => r.route === '/person/<userid>')?.effect).toBe('destructive');
  });

  it('BUILD cases without destructive write only under home:<user>:conformance-fuzz-<seed>', () => {
    const safe = sampleCases(httpXml, { authKey: '', user: 'tux', seed: 3 });
    expect(safe.every((c) => c.path.includes('/home:tux:conformance-fuzz-3/') || c.path.endsWith('/home:tux:conformance-fuzz-3'))).toBe(true);
  });
});

/** A pass-through proxy in front of a reference that records the method and path of every request. */
async function recordingProxy(baseUrl: string): Promise<{ url: string; sent: string[]; close(): Promise<void> }> {
  const upstream = new URL(baseUrl);
  const sent: string[] = [];
  const server = http.createServer((req, res) => {
    sent.push(`${req.method} ${req.url}`);
    const fwd = http.request({ host: upstream.hostname, port: upstream.port, method: req.method, path: req.url, headers: req.headers }, (up) => {
      res.writeHead(up.statusCode ?? 502, up.headers);
      up.pipe(res);
    });
    fwd.on('error', () => res.destroy());
    req.pipe(fwd);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    sent,
    close: () => {
      server.closeAllConnections();
      return new Promise((resolve) => server.close(() => resolve()));
    },
  };
}

/** Every item of a paginated CLOUD collection. */
async function listAll(client: HttpClient, auth: string, path: string): Promise<unknown[]> {
  const items: unknown[] = [];
  for (let page = 1; ; page++) {
    const res = await client.request({ method: 'GET', path, query: { page, page_size: 500 }, headers: { authorization: auth } });
    const body = res.json as { data?: unknown[]; pages?: number };
    if (res.status !== 200 || !Array.isArray(body?.data)) return [res.status, res.text];
    items.push(...body.data);
    if (page >= (body.pages ?? 1)) return items;
  }
}

describe('CLOUD: a campaign with allow: [] changes nothing that existed', () => {
  let ref: CloudReference;
  beforeAll(async () => {
    ref = await startCloudReference({ rateLimit: { limit: Number.MAX_SAFE_INTEGER, windowMs: 60_000 } });
  });
  afterAll(async () => {
    await closeHttpPools(ref.baseUrl);
    await ref?.close();
  });

  it('400 cases (seed 11): account, settings, users, payment methods, payments, OAuth clients, transfers, databases as before', async () => {
    const client = new HttpClient({ baseUrl: ref.baseUrl, timeoutMs: 5000 });
    const auth = `Bearer ${ref.tokens.unrestricted}`;
    const state = async () => ({
      account: (await client.request({ method: 'GET', path: '/v4/account', headers: { authorization: auth } })).json,
      settings: (await client.request({ method: 'GET', path: '/v4/account/settings', headers: { authorization: auth } })).json,
      users: await listAll(client, auth, '/v4/account/users'),
      paymentMethods: await listAll(client, auth, '/v4/account/payment-methods'),
      payments: await listAll(client, auth, '/v4/account/payments'),
      oauthClients: await listAll(client, auth, '/v4/account/oauth-clients'),
      transfers: await listAll(client, auth, '/v4/account/service-transfers'),
      databases: await listAll(client, auth, '/v4/databases/instances'),
      invoices: await listAll(client, auth, '/v4/account/invoices'),
    });
    const before = await state();
    // A corpus saved by a campaign that was allowed more: its payment is skipped, its read is run.
    const corpusDir = out();
    const payment = { method: 'POST', path: '/v4/account/payments', route: '/v4/account/payments', headers: { 'content-type': 'application/json' }, body: '{"usd":"5.00"}' };
    const read = { method: 'GET', path: '/v4/account/users', route: '/v4/account/users', query: { page: '1' } };
    writeFileSync(join(corpusDir, 'http-json-a.json'), JSON.stringify({ kind: 'http-json', shape: 'POST /v4/account/payments 200', case: payment }));
    writeFileSync(join(corpusDir, 'http-json-b.json'), JSON.stringify({ kind: 'http-json', shape: 'GET /v4/account/users 200', case: read }));
    const proxy = await recordingProxy(ref.baseUrl);
    const r = await runFuzz({ targetName: 'cloud-ext', target: { protocol: 'cloud', baseUrl: proxy.url, tokens: ref.tokens, allow: [] }, seed: 11, runs: 400, concurrency: 2, outDir: out(), corpusDir, caseTimeoutMs: 2000, shrinkMs: 500 }).finally(() => proxy.close());
    expect(r.cases).toBe(401);
    expect(r.corpusRun).toBe(1);
    // Writes went to OAuth clients only: created, changed (the campaign's own), deleted at the end.
    const writes = proxy.sent.filter((x) => !x.startsWith('GET '));
    expect(writes.length).toBeGreaterThan(50);
    expect(writes.filter((x) => !/^(POST \/v4(beta)?\/account\/oauth-clients|(PUT|DELETE) \/v4(beta)?\/account\/oauth-clients\/[^/?]+)(\?|$)/.test(x))).toEqual([]);
    expect(await state()).toEqual(before);
    expect(r.changes).toMatch(/only OAuth clients it creates/);
    expect(r.scratch.left).toEqual([]);
    // The scratch client of the campaign, and the ones its cases created.
    expect(r.scratch.removed.length).toBeGreaterThan(1);

    // A finding of a campaign that was allowed more (the payment) is not replayed here.
    const finding = { kind: 'http-json', oracle: 'no-5xx', case: payment, campaign: { seed: 11, source: 'generated' } } as unknown as Finding;
    const target: CloudTargetConfig = { protocol: 'cloud', baseUrl: ref.baseUrl, tokens: ref.tokens, allow: [] };
    await expect(replayFinding(finding, 'cloud-ext', target, { faults: [] })).rejects.toThrow(UsageError);
    expect(await state()).toEqual(before);
  }, 30_000);
});

describe('BUILD: a campaign with allow: [] changes nothing that existed', () => {
  let ref: BuildReference;
  beforeAll(async () => {
    ref = await startBuildReference({});
  });
  afterAll(async () => {
    await closeHttpPools(ref.baseUrl);
    await ref?.close();
  });

  it('300 cases (seed 11): projects, the person, requests and status messages as before; the scratch project deleted', async () => {
    const client = new HttpClient({ baseUrl: ref.baseUrl, timeoutMs: 5000 });
    const { username, password } = ref.users.user;
    const auth = `Basic ${Buffer.from(`${username}:${password}`).toString('base64')}`;
    const get = async (path: string, query?: Record<string, string>) => (await client.request({ method: 'GET', path, query, headers: { authorization: auth } })).text;
    const state = async () => ({
      projects: await get('/source/'),
      person: await get(`/person/${username}`),
      messages: await get('/status/messages/'),
      requests: await get('/request', { view: 'collection', states: 'new,review,accepted,declined,revoked,superseded' }),
      report: await get('/status_reports/requests/1'),
    });
    const before = await state();
    const proxy = await recordingProxy(ref.baseUrl);
    const r = await runFuzz({ targetName: 'build-ext', target: { protocol: 'build', baseUrl: proxy.url, users: ref.users, allow: [] }, seed: 11, runs: 300, concurrency: 2, outDir: out(), caseTimeoutMs: 2000, shrinkMs: 500 }).finally(() => proxy.close());
    expect(r.cases).toBe(300);
    // Every write went to the campaign's scratch project (no PUT /person, no request, no status message).
    const writes = proxy.sent.filter((x) => !x.startsWith('GET '));
    expect(writes.length).toBeGreaterThan(50);
    const projectOf = (x: string) => /^\w+ \/(?:source|staging)\/([^/?]+)/.exec(x)?.[1];
    expect(writes.filter((x) => projectOf(x) !== `home:${username}:conformance-fuzz-11`)).toEqual([]);
    const after = await state();
    expect(after).toEqual(before);
    expect(after.projects).not.toContain('conformance-fuzz');
    const home = `home:${username}:conformance-fuzz-11`;
    expect(r.changes).toContain(home);
    expect(r.scratch).toEqual({ removed: [`project ${home}`], left: [] });
  }, 30_000);
});
