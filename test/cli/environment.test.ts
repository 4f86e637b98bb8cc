// What the environment can do to a run (issue 23, "Environment" and "Transport"): a report
// directory that cannot hold reports is refused before any check runs; an unwritable GitHub step
// summary costs a warning, not the reports; a config that never finishes loading is cut off with
// one line; a report directory never mixes two runs; an IPv6 literal base URL and a private CA work.
import { execFile } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import https from 'node:https';
import type net from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { prepareTarget } from '../../src/adapters/index.ts';
import { EvidenceLog } from '../../src/core/evidence.ts';
import { timeoutsFor } from '../../src/core/check.ts';
import type { CloudSession } from '../../src/clients/cloud/session.ts';
import { startCloudReference } from '../../targets/cloud/server.ts';

const root = new URL('../..', import.meta.url).pathname;
const bin = join(root, 'bin/conformance.js');
const tempDir = () => mkdtempSync(join(tmpdir(), 'conformance-env-'));

async function cli(args: string[], env: Record<string, string> = {}, cwd = root) {
  try {
    const { stdout, stderr } = await promisify(execFile)(process.execPath, [bin, ...args], { cwd, env: { ...process.env, CI: 'true', ...env } });
    return { code: 0, stdout, stderr };
  } catch (err) {
    const e = err as { code: number; stdout: string; stderr: string };
    return { code: e.code, stdout: e.stdout, stderr: e.stderr };
  }
}

const ONE_CHECK = ['--target', 'wire-ref', '--only', 'wire.limits.*'];

describe('the report directory and the step summary', () => {
  it('an --out that is a file, or under a file: exit 2 before any check runs', async () => {
    const dir = tempDir();
    const file = join(dir, 'a-file');
    writeFileSync(file, 'x');
    for (const out of [file, join(file, 'below')]) {
      const r = await cli([...ONE_CHECK, '--out', out]);
      expect(r.code, r.stderr).toBe(2);
      expect(r.stderr.trim().split('\n')).toHaveLength(1);
      expect(r.stderr).toContain(`--out ${out}`);
      expect(r.stdout, 'no check ran').not.toContain('checks:');
    }
  });

  it('an unwritable GITHUB_STEP_SUMMARY warns, and the reports are written', async () => {
    const out = tempDir();
    const r = await cli([...ONE_CHECK, '--out', out, '--reporter', 'junit,json,github'], { GITHUB_STEP_SUMMARY: join(out, 'no-such-dir', 'summary.md') });
    expect(r.code, r.stdout + r.stderr).toBe(0);
    expect(r.stderr).toContain('conformance: warning: cannot write GITHUB_STEP_SUMMARY');
    expect(existsSync(join(out, 'conformance.json'))).toBe(true);
    expect(existsSync(join(out, 'wire-ref.junit.xml'))).toBe(true);
  });

  it('a directory never mixes two runs: files of the previous run are replaced or removed, leftovers of a killed run cleaned', async () => {
    const out = tempDir();
    expect((await cli(['--target', 'wire-ref', 'cloud-ref', '--only', 'wire.limits.*', 'cloud.pagination.list-envelope', '--out', out])).code).toBe(0);
    expect(existsSync(join(out, 'cloud-ref.junit.xml'))).toBe(true);
    writeFileSync(join(out, 'wire-ref.junit.xml.tmp-4242-abc123'), 'half a file');
    mkdirSync(join(out, '.staging-4242-abc123'));
    writeFileSync(join(out, 'notes.txt'), 'a file of the user');
    expect((await cli([...ONE_CHECK, '--out', out])).code).toBe(0);
    expect(readdirSync(out).sort()).toEqual(['.conformance-files.json', 'conformance.json', 'notes.txt', 'wire-ref.junit.xml']);
  });
});

describe('the config file', () => {
  it('a top-level await that never settles: exit 2 with one line at the load limit', async () => {
    const dir = tempDir();
    writeFileSync(join(dir, 'targets.config.ts'), 'await new Promise(() => {});\nexport default { targets: {} };\n');
    const started = performance.now();
    const r = await cli([], { CONFORMANCE_CONFIG_LOAD_MS: '500' }, dir);
    expect(r.code).toBe(2);
    expect(r.stderr.trim()).toBe('conformance: targets.config.ts: did not finish loading within 500 ms (a top-level await that never settles?)');
    expect(performance.now() - started).toBeLessThan(5000);
  });
});

describe('transport', () => {
  it('a base URL with an IPv6 literal is probed and tested', async () => {
    const ref = await startCloudReference({ host: '::1' });
    try {
      expect(ref.baseUrl).toMatch(/^http:\/\/\[::1\]:\d+$/);
      const dir = tempDir();
      writeFileSync(
        join(dir, 'targets.config.ts'),
        `export default ${JSON.stringify({ targets: { v6: { protocol: 'cloud', baseUrl: ref.baseUrl, tokens: ref.tokens } } })};`,
      );
      const r = await cli(['--target', 'v6', '--only', 'cloud.pagination.list-envelope', '--out', join(dir, 'out')], {}, dir);
      expect(r.code, r.stdout + r.stderr).toBe(0);
      expect(r.stdout).toContain('1 passed');
    } finally {
      await ref.close();
    }
  });

  it('`ca` trusts a private CA for an https base URL; without it the certificate is refused', async () => {
    const tls = join(root, 'test/fixtures/tls');
    const server = https.createServer({ key: readFileSync(join(tls, 'server.key')), cert: readFileSync(join(tls, 'server.pem')) }, (_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end('{"ok":true}');
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
    const { port } = server.address() as net.AddressInfo;
    const get = async (config: Record<string, unknown>) => {
      const target = await prepareTarget('tls', { protocol: 'cloud', tokens: { unrestricted: 'token-x' }, ...config } as never);
      try {
        await target.probe(2000);
        const { extras } = target.createSession({ evidence: new EvidenceLog(), timeouts: timeoutsFor(4000), signal: new AbortController().signal });
        return await (extras.cloud as CloudSession).as('unrestricted').get('/account');
      } finally {
        await target.stop();
      }
    };
    try {
      // localhost and 127.0.0.1 are two origins: the CA is trusted for the one configured only.
      const trusted = await get({ baseUrl: `https://127.0.0.1:${port}`, ca: join(tls, 'ca.pem') });
      expect([trusted.status, trusted.json]).toEqual([200, { ok: true }]);
      await expect(get({ baseUrl: `https://localhost:${port}` })).rejects.toThrow(/certificate/i);
      await expect(get({ baseUrl: `https://127.0.0.1:${port}`, ca: join(tls, 'missing.pem') })).rejects.toThrow("'ca' ");
    } finally {
      server.close();
    }
  });
});
