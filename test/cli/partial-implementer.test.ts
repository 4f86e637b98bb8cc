// Issue 32, "A partial implementer's first hour": selection by what a server implements
// (--include-path/--exclude-path/--include-method, --include-term/--exclude-term, a target's
// `implements`), base URLs that carry the API prefix, the gate's verdict and the selection in
// every report's header, skips summarised by reason, the exchange under each failure, a baseline
// of every outcome that gates regressions, and an unusable target stopped at once. Real servers
// on 127.0.0.1, fixed seeds.
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer, request as httpRequest } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Io } from '../../src/cli/console.ts';
import { main } from '../../src/cli/main.ts';
import { normalizeBaseUrl } from '../../src/config/load.ts';
import { selectWithReasons } from '../../src/core/registry.ts';
import { parseBaseline } from '../../src/reports/baseline.ts';
import { startBuildReference } from '../../targets/build/server.ts';
import { startCloudReference } from '../../targets/cloud/server.ts';
import { startWireReference } from '../../targets/wire/server.ts';

const dir = () => mkdtempSync(join(tmpdir(), 'conformance-partial-'));

async function run(...args: string[]) {
  const lines: string[] = [];
  const io: Io = { out: (l) => lines.push(l), err: (l) => lines.push(l), interactive: false };
  const code = await main(['node', 'conformance', ...args], io);
  return { code, out: lines.join('\n'), lines };
}

const json = (file: string) => JSON.parse(readFileSync(file, 'utf8'));

type Synthetic = { id: string; section: string; level: 'MUST' | 'SHOULD'; protocol: 'wire' | 'cloud' | 'build'; touches?: string[] };
const synthetic: Synthetic[] = [
  { id: 'cloud.events.one', section: 'Events', level: 'MUST', protocol: 'cloud', touches: ['GET /account/events/{eventId}', 'GET /account/events'] },
  { id: 'cloud.clients.create', section: 'OAuth', level: 'MUST', protocol: 'cloud', touches: ['POST /account/oauth-clients', 'GET /account/oauth-clients/{clientId}'] },
  { id: 'cloud.undeclared', section: 'Other', level: 'MUST', protocol: 'cloud' },
  { id: 'build.source', section: 'Sources', level: 'SHOULD', protocol: 'build', touches: ['GET /source/{project}'] },
  { id: 'wire.db', section: 'Terms', level: 'MUST', protocol: 'wire', touches: ['term:DB_CREATE', 'term:DATUM'] },
  { id: 'wire.handshake', section: 'Handshake', level: 'MUST', protocol: 'wire', touches: [] },
];
const ids = (f: Parameters<typeof selectWithReasons>[1], impl?: Parameters<typeof selectWithReasons>[2]) => {
  const s = selectWithReasons(synthetic, f, impl);
  return { ids: s.selected.map((c) => c.id), dropped: s.dropped };
};

describe('selection by what a server implements (synthetic checks)', () => {
  it('--include-path keeps a check only when every route it touches matches, with or without /v4', () => {
    for (const glob of ['/account/events/**', '/v4/account/events/**', '/account/events/', '/v4/account/events/']) {
      expect(ids({ protocol: 'cloud', includePath: [glob] }), glob).toEqual({ ids: ['cloud.events.one'], dropped: { includePath: 2 } });
    }
    // A path without a trailing slash or glob names that route alone (under /v4, `/account` is the
    // parent of nearly everything): the routes one by one select the check too.
    expect(ids({ protocol: 'cloud', includePath: ['/account/events'] }).ids).toEqual([]);
    expect(ids({ protocol: 'cloud', includePath: ['/account/events', '/account/events/{eventId}'] }).ids).toEqual(['cloud.events.one']);
    // One route outside the glob drops the check: it would be inconclusive on that server anyway.
    expect(ids({ protocol: 'cloud', includePath: ['/account/events/*'] }).ids).toEqual([]);
    // A method may be named with the path.
    expect(ids({ protocol: 'cloud', includePath: ['GET /account/**'] }).ids).toEqual(['cloud.events.one']);
    // A check that declares no routes is not shown to stay inside: an include list drops it.
    expect(ids({ protocol: 'cloud', includePath: ['/**'] }).ids).toEqual(['cloud.events.one', 'cloud.clients.create']);
    // Path filters leave WIRE checks alone; term filters leave HTTP checks alone.
    expect(ids({ protocol: 'wire', includePath: ['/nothing'] }).ids).toEqual(['wire.db', 'wire.handshake']);
  });

  it('--exclude-path, --include-method, --include-term and --exclude-term', () => {
    expect(ids({ protocol: 'cloud', excludePath: ['/v4/account/oauth-clients/**'] })).toEqual({ ids: ['cloud.events.one', 'cloud.undeclared'], dropped: { excludePath: 1 } });
    expect(ids({ protocol: 'cloud', includeMethod: ['get'] })).toEqual({ ids: ['cloud.events.one'], dropped: { includeMethod: 2 } });
    expect(ids({ protocol: 'wire', includeTerm: ['DB_*'] }).ids).toEqual(['wire.handshake']);
    expect(ids({ protocol: 'wire', includeTerm: ['db_*', 'DATUM'] }).ids).toEqual(['wire.db', 'wire.handshake']);
    expect(ids({ protocol: 'wire', excludeTerm: ['term:DB_CREATE'] })).toEqual({ ids: ['wire.handshake'], dropped: { excludeTerm: 1 } });
  });

  it("a target's implements is counted under its own name, after the command line's filters", () => {
    expect(ids({ protocol: 'cloud', level: 'must' }, { paths: ['/account/events/**'] })).toEqual({ ids: ['cloud.events.one'], dropped: { implementsPaths: 2 } });
    expect(ids({ protocol: 'build', level: 'must' }, { paths: ['/source/**'] })).toEqual({ ids: [], dropped: { level: 1 } });
  });
});

describe('selection on the command line and in the config (WIRE checks, which declare their terms)', () => {
  it('list and run agree: --exclude-term on list, and on a run whose reports say what was left out', async () => {
    const all = JSON.parse((await run('list', '--json', '--protocol', 'wire')).out) as { id: string; touches: string[] }[];
    const expected = all.filter((c) => !c.touches.some((t) => /^term:DB_/.test(t))).map((c) => c.id);
    const listed = JSON.parse((await run('list', '--json', '--protocol', 'wire', '--exclude-term', 'DB_*')).out) as { id: string }[];
    expect(listed.map((c) => c.id)).toEqual(expected);
    expect(expected.length).toBeLessThan(all.length);

    const d = dir();
    const r = await run('--target', 'wire-ref', '--exclude-term', 'DB_*', '--only', 'wire.term-*', 'Limits', '--seed', '3', '--out', d, '--reporter', 'json,junit,markdown,html');
    expect(r.code, r.out).toBe(0);
    const report = json(join(d, 'conformance.json'));
    const sel = report.targets[0].selection;
    expect(sel.registered).toBe(all.length);
    expect(sel.notSelected['--exclude-term']).toBeGreaterThan(0);
    expect(sel.selected).toBe(report.targets[0].results.length);
    expect(report.filters.excludeTerm).toEqual(['DB_*']);
    expect(r.out).toMatch(/selection: wire-ref: \d+ of \d+ checks selected; not selected: \d+ by --only, \d+ by --exclude-term/);
    expect(readFileSync(join(d, 'wire-ref.junit.xml'), 'utf8')).toMatch(/<property name="selection.notSelected --exclude-term" value="\d+"\/>/);
    expect(readFileSync(join(d, 'conformance.md'), 'utf8')).toMatch(/- selection: wire-ref: \d+ of \d+ checks selected; not selected: .*--exclude-term/);
    expect(readFileSync(join(d, 'conformance.html'), 'utf8')).toContain('by --exclude-term');
  }, 60_000);

  it("a target's implements (validated by the schema) applies to run and to list --target", async () => {
    const d = dir();
    const config = join(d, 'targets.config.mjs');
    writeFileSync(config, `export default { targets: { part: { protocol: 'wire', embedded: true, authKey: '', implements: { terms: ['DATUM', 'MAKE_ARRAY', 'ADD', 'RANGE'] } } } };\n`);
    const listed = await run('list', '--config', config, '--target', 'part');
    expect(listed.code, listed.out).toBe(0);
    const summary = listed.lines.at(-1)!;
    expect(summary).toMatch(/^part: (\d+) of \d+ checks selected; not selected: \d+ by implements\.terms \(config\)$/);
    const ran = await run('--config', config, '--target', 'part', '--seed', '4', '--out', d);
    expect(ran.code, ran.out).toBe(0);
    const report = json(join(d, 'conformance.json'));
    expect(`part: ${report.targets[0].selection.selected} of`).toBe(summary.slice(0, summary.indexOf(' of') + 3));
    expect(Object.keys(report.targets[0].selection.notSelected)).toEqual(['implements.terms (config)']);

    const badConfig = join(d, 'bad.config.mjs');
    writeFileSync(badConfig, `export default { targets: { part: { protocol: 'cloud', embedded: true, implements: { methods: ['FETCH'] } } } };\n`);
    const bad = await run('list', '--config', badConfig, '--target', 'part');
    expect(bad.code).toBe(2);
    expect(bad.out).toBe(`conformance: bad.config.mjs: target 'part': 'implements.methods.0' is "FETCH", expected one of "GET", "POST", "PUT", "PATCH", "DELETE", "HEAD", "OPTIONS"`.replace('bad.config.mjs', bad.out.slice(13, bad.out.indexOf(': target'))));
  }, 60_000);
});

describe('a CLOUD base URL that already carries /v4', () => {
  it('is the same server: the prefix is sent once, ad hoc and in a config', async () => {
    expect(normalizeBaseUrl('cloud', 'https://api.example.test/v4')).toBe('https://api.example.test');
    expect(normalizeBaseUrl('cloud', 'https://api.example.test/proxy/v4/')).toBe('https://api.example.test/proxy');
    expect(normalizeBaseUrl('cloud', 'https://api.example.test/v4beta')).toBe('https://api.example.test');
    expect(normalizeBaseUrl('build', 'https://build.example.test/api/v4')).toBe('https://build.example.test/api/v4');
    const ref = await startCloudReference();
    try {
      for (const url of [`${ref.baseUrl}/v4`, `${ref.baseUrl}/v4/`]) {
        const d = dir();
        const r = await run('--protocol', 'cloud', '--url', url, '--token', ref.tokens.unrestricted, '--only', 'cloud.pagination.*', '--seed', '5', '--out', d);
        expect(r.code, r.out).toBe(0);
        // A doubled prefix would be refused as not found: every check would end inconclusive.
        const report = json(join(d, 'conformance.json'));
        expect(report.targets[0].address).toBe(ref.baseUrl);
        expect(report.totals.passed).toBe(report.totals.total);
      }
      const d = dir();
      const config = join(d, 'targets.config.mjs');
      writeFileSync(config, `export default { targets: { mine: { protocol: 'cloud', baseUrl: ${JSON.stringify(`${ref.baseUrl}/v4`)}, tokens: { unrestricted: ${JSON.stringify(ref.tokens.unrestricted)} } } } };\n`);
      const r = await run('--config', config, '--only', 'cloud.pagination.*', '--seed', '5', '--out', d);
      expect(r.code, r.out).toBe(0);
      expect(r.out).toContain(`mine (cloud, ${ref.baseUrl}):`);
      // fuzz reads the same normalised base URL: its cases reach the routes, none is a 404 of /v4/v4.
      const fuzz = await run('fuzz', '--protocol', 'cloud', '--url', `${ref.baseUrl}/v4/`, '--token', ref.tokens.unrestricted, '--runs', '30', '--seed', '5', '--out', join(d, 'fuzz'));
      expect(fuzz.code, fuzz.out).toBe(0);
      expect(fuzz.out).toMatch(/answers 200 x\d+/);
      expect(fuzz.out).not.toContain('/v4/v4');
    } finally {
      await ref.close();
    }
  }, 60_000);
});

describe('a BUILD base URL with a path', () => {
  it('keeps its path: every request goes under it, in run and in fuzz', async () => {
    const ref = await startBuildReference();
    const upstream = new URL(ref.baseUrl);
    const seen: string[] = [];
    // A gateway that serves the service under /api only: anything else is 404.
    const gateway = createServer((req, res) => {
      seen.push(req.url ?? '');
      if (!req.url?.startsWith('/api/')) return void res.writeHead(404).end();
      const fwd = httpRequest({ host: upstream.hostname, port: upstream.port, method: req.method, path: req.url.slice(4), headers: req.headers }, (up) => {
        res.writeHead(up.statusCode ?? 502, up.headers);
        up.pipe(res);
      });
      fwd.on('error', () => res.writeHead(502).end());
      req.pipe(fwd);
    });
    await new Promise<void>((r) => gateway.listen(0, '127.0.0.1', () => r()));
    const base = `http://127.0.0.1:${(gateway.address() as AddressInfo).port}/api`;
    try {
      const d = dir();
      const user = `${ref.users.user.username}:${ref.users.user.password}`;
      const r = await run('--protocol', 'build', '--url', `${base}/`, '--user', user, '--only', 'About', '--seed', '12', '--out', d);
      expect(r.code, r.out).toBe(0);
      const report = json(join(d, 'conformance.json'));
      expect(report.totals).toMatchObject({ failed: 0, inconclusive: 0, error: 0 });
      expect(report.totals.passed).toBeGreaterThan(1);
      expect(seen.length).toBeGreaterThan(0);
      expect(seen.filter((u) => !u.startsWith('/api/'))).toEqual([]);
      seen.length = 0;
      const fuzz = await run('fuzz', '--protocol', 'build', '--url', base, '--user', user, '--runs', '20', '--seed', '12', '--out', join(d, 'fuzz'));
      expect(fuzz.code, fuzz.out).toBe(0);
      expect(seen.length).toBeGreaterThan(0);
      expect(seen.filter((u) => !u.startsWith('/api/'))).toEqual([]);
    } finally {
      gateway.close();
      await ref.close();
    }
  }, 90_000);
});

describe('the console', () => {
  it('summarises skips by reason in one line (-v lists them) and prints the curl line under a failure', async () => {
    const ref = await startCloudReference();
    try {
      const args = ['--protocol', 'cloud', '--url', ref.baseUrl, '--token', ref.tokens.unrestricted, '--only', 'cloud.account.*', '--seed', '6', '--out', dir()];
      const quiet = await run(...args);
      expect(quiet.code, quiet.out).toBe(0);
      expect(quiet.out).not.toMatch(/^ {2}SKIP /m);
      expect(quiet.out).toMatch(/^ {2}(\d+) skipped: (\d+) need allow destructive(, \d+ need [\w.]+)* \(-v lists them\)$/m);
      const verbose = await run(...args, '-v');
      expect(verbose.out).toMatch(/^ {2}SKIP {2}cloud\.account\.[\w-]+: tagged destructive/m);
      expect(verbose.out).not.toContain('(-v lists them)');
    } finally {
      await ref.close();
    }
    const failed = await run('--target', 'cloud-ref', '--fault', 'credit-card-add-200', '--only', 'cloud.account.credit-card-add-299', '--seed', '6', '--out', dir());
    expect(failed.code, failed.out).toBe(1);
    const at = failed.lines.findIndex((l) => l.startsWith('  FAIL  cloud.account.credit-card-add-299'));
    expect(failed.lines.slice(at + 1, at + 3).some((l) => /^ {10}curl: curl -i -X POST '.*\/v4\/account\/credit-card' .*\$CONFORMANCE_TOKENS_OTHER_ACCOUNT/.test(l)), failed.out).toBe(true);
    // WIRE: the query that was sent.
    const wire = await run('--target', 'wire-ref', '--fault', 'batch-1000', '--only', 'wire.limits.batches-under-1000', '--seed', '6', '--out', dir());
    expect(wire.out).toMatch(/^ {10}sent \(conn \d+\): \{"query":/m);
  }, 60_000);
});

describe('a baseline of every outcome gates regressions', () => {
  it('records every outcome; fails on a new failure, a pass now inconclusive, a known failure with another message; --baseline-failures-only does not; diff agrees', async () => {
    const d = dir();
    const sel = ['--target', 'wire-ref', '--only', 'wire.errors.*', 'wire.response-message.*', 'wire.limits.*', '--seed', '7', '--reporter', 'json,junit,markdown'];
    // The baseline: a run where batch-1000 fails and lenient-add breaks add-booleans (error-type-listed relies on it).
    expect((await run(...sel, '--fault', 'batch-1000', '--out', join(d, 'a'))).code).toBe(1);
    const base = join(d, 'known.baseline');
    const wrote = await run('baseline', '--from', join(d, 'a', 'conformance.json'), '--output', base);
    expect(wrote.out).toMatch(/known\.baseline: 1 known failing checks, \d+ passed, 0 inconclusive/);
    const entries = parseBaseline(readFileSync(base, 'utf8'), base);
    expect(entries.find((e) => e.id === 'wire.limits.batches-under-1000')).toMatchObject({ target: 'wire-ref', status: 'failed', message: expect.stringContaining('fewer than 1000') });
    expect(entries.find((e) => e.id === 'wire.errors.error-type-listed')).toMatchObject({ status: 'passed' });

    // The same faults: the known failure is known, exit 0, and the header says so.
    const same = await run(...sel, '--fault', 'batch-1000', '--baseline', base, '--out', join(d, 'b'));
    expect(same.code, same.out).toBe(0);
    expect(same.out).toContain('verdict: PASSED (exit 0): no check fails the run');
    expect(same.out).toContain(`known failures: 1 (baseline ${base}; they do not fail the run)`);

    // lenient-add: a new failure, and a check that passed is now inconclusive (it relies on it).
    const worse = await run(...sel, '--fault', 'batch-1000', 'lenient-add', '--baseline', base, '--out', join(d, 'c'));
    expect(worse.code).toBe(1);
    expect(worse.out).toContain('verdict: FAILED (exit 1): 1 new failure, 1 passed check now inconclusive');
    expect(worse.out).toContain('passed in the baseline, inconclusive now: wire-ref wire.errors.error-type-listed');

    // Only the pass now inconclusive: the baseline knows the new failure; the flag opts out.
    const known2 = join(d, 'known2.baseline');
    const c = json(join(d, 'c', 'conformance.json'));
    const msg = c.targets[0].results.find((x: { check: { id: string } }) => x.check.id === 'wire.response-message.add-booleans-runtime-error').message;
    writeFileSync(known2, readFileSync(base, 'utf8').replace(/^wire-ref wire\.response-message\.add-booleans-runtime-error passed$/m, `wire-ref wire.response-message.add-booleans-runtime-error failed ${msg}`));
    const unobserved = await run(...sel, '--fault', 'batch-1000', 'lenient-add', '--baseline', known2, '--out', join(d, 'e'));
    expect(unobserved.code, unobserved.out).toBe(1);
    expect(unobserved.out).toContain('verdict: FAILED (exit 1): 1 passed check now inconclusive');
    const lenient = await run(...sel, '--fault', 'batch-1000', 'lenient-add', '--baseline', known2, '--baseline-failures-only', '--out', join(d, 'f'));
    expect(lenient.code, lenient.out).toBe(0);
    expect(lenient.out).toContain('passed in the baseline, inconclusive now: 1: reported only (--baseline-failures-only)');

    // A known failure whose message changed fails the run; the flag opts out.
    const changed = join(d, 'changed.baseline');
    writeFileSync(changed, readFileSync(base, 'utf8').replace(/(batches-under-1000 failed ).*/, '$1batch 1 of RANGE(2500): expected fewer than 1000 datums, got 999'));
    const differs = await run(...sel, '--fault', 'batch-1000', '--baseline', changed, '--out', join(d, 'g'));
    expect(differs.code).toBe(1);
    expect(differs.out).toContain('verdict: FAILED (exit 1): 1 known failure with another message');
    expect(differs.out).toMatch(/fails differently: wire-ref wire\.limits\.batches-under-1000: was "failed: .*got 999", now "failed: .*1000 datums"/);
    const optedOut = await run(...sel, '--fault', 'batch-1000', '--baseline', changed, '--baseline-failures-only', '--out', join(d, 'h'));
    expect(optedOut.code, optedOut.out).toBe(0);
    expect(optedOut.out).toContain('known failures failing with another message: 1: reported only (--baseline-failures-only)');

    // The older list of ids still works: any message.
    const old = join(d, 'old.baseline');
    writeFileSync(old, 'wire.limits.batches-under-1000  # known\n');
    expect((await run(...sel, '--fault', 'batch-1000', '--baseline', old, '--out', join(d, 'i'))).code).toBe(0);

    // diff agrees: a pass now inconclusive fails it (--failures-only: not), a changed message too.
    const diff = await run('diff', join(d, 'a', 'conformance.json'), join(d, 'e', 'conformance.json'));
    expect(diff.code).toBe(1);
    expect(diff.out).toContain('UNTESTED   wire-ref wire.errors.error-type-listed: passed -> inconclusive');
    expect((await run('diff', '--failures-only', join(d, 'a', 'conformance.json'), join(d, 'b', 'conformance.json'))).code).toBe(0);
    expect((await run('diff', join(d, 'a', 'conformance.json'), join(d, 'b', 'conformance.json'))).code).toBe(0);

    // The header in the reports: markdown (and so the GitHub step summary) and JUnit properties.
    const md = readFileSync(join(d, 'c', 'conformance.md'), 'utf8');
    expect(md).toContain('**FAILED (exit 1): 1 new failure, 1 passed check now inconclusive**');
    expect(md).toContain(`- known failures: 1 (baseline ${base}; they do not fail the run)`);
    const junit = readFileSync(join(d, 'c', 'wire-ref.junit.xml'), 'utf8');
    expect(junit).toContain('<property name="gate.verdict" value="FAILED (exit 1): 1 new failure, 1 passed check now inconclusive"/>');
    expect(junit).toContain('<property name="gate.newlyInconclusive" value="1"/>');
    expect(junit).toContain('<property name="gate.strict" value="false"/>');
  }, 120_000);

  it('the GitHub step summary carries the verdict', async () => {
    const d = dir();
    const summary = join(d, 'summary.md');
    writeFileSync(summary, '');
    const prev = process.env.GITHUB_STEP_SUMMARY;
    process.env.GITHUB_STEP_SUMMARY = summary;
    try {
      await run('--target', 'wire-ref', '--fault', 'batch-1000', '--only', 'wire.limits.*', '--strict', '--seed', '8', '--reporter', 'github', '--out', d);
    } finally {
      if (prev === undefined) delete process.env.GITHUB_STEP_SUMMARY;
      else process.env.GITHUB_STEP_SUMMARY = prev;
    }
    const text = readFileSync(summary, 'utf8');
    expect(text).toContain('**FAILED (exit 1): 1 new failure**');
    expect(text).toMatch(/- \d+ inconclusive checks? fail this run \(--strict\)/);
  }, 60_000);
});

describe('an unusable target stops the run at once', () => {
  it('credentials refused (401 to the probe), a refused handshake: one message, exit 3, no check run', async () => {
    const ref = await startCloudReference();
    try {
      const r = await run('--protocol', 'cloud', '--url', ref.baseUrl, '--token', 'not-a-token-of-this-server', '--only', 'cloud.account.*', '--seed', '9', '--out', dir());
      expect(r.code).toBe(3);
      expect(r.out).toMatch(/target unusable: credentials refused: GET \/v4\/account with tokens\.unrestricted .* answered 401/);
      expect(r.out).not.toMatch(/^ {2}(ERROR|FAIL) /m);
      expect(r.out).toContain('verdict: FAILED (exit 3): not tested: 127.0.0.1-');
    } finally {
      await ref.close();
    }
    const wire = await startWireReference({ authKey: 'the-right-key' });
    try {
      const r = await run('--port', String(wire.port), '--auth-key', 'a-wrong-key', '--seed', '9', '--out', dir());
      expect(r.code).toBe(3);
      expect(r.out).toMatch(/target unusable: the handshake was refused with the configured key: "ERROR: [^"]+"/);
      expect(r.out).not.toContain('a-wrong-key');
      expect(r.out.match(/^ {2}(ERROR|FAIL) /gm)).toBeNull();
    } finally {
      await wire.close();
    }
  }, 60_000);
});
