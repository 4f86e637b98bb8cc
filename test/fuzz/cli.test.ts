// `conformance fuzz` as a user runs it: exit codes 0 / 1 / 2 / 3, finding files and JUnit on disk;
// an ad hoc target (--host/--port, --url/--protocol, credentials from the environment) for `fuzz` and `replay`.
import { execFile, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import net from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { startWireReference } from '../../targets/wire/server.ts';

const root = new URL('../..', import.meta.url).pathname;

async function cli(args: string[], env: NodeJS.ProcessEnv = {}) {
  try {
    const { stdout, stderr } = await promisify(execFile)(process.execPath, [join(root, 'bin/conformance.js'), ...args], { cwd: root, env: { ...process.env, CI: 'true', ...env } });
    return { code: 0, stdout, stderr };
  } catch (err) {
    const e = err as { code: number; stdout: string; stderr: string };
    return { code: e.code, stdout: e.stdout, stderr: e.stderr };
  }
}

const tmp = () => mkdtempSync(join(tmpdir(), 'conformance-fuzz-cli-'));

describe('conformance fuzz', () => {
  it('exit 0 and a JUnit file when the clean wire-ref gives no finding', async () => {
    const out = tmp();
    const r = await cli(['fuzz', '--target', 'wire-ref', '--runs', '300', '--seed', '3', '--out', out]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/300 cases, \d+ cases\/s, 0 finding\(s\)/);
    expect(existsSync(join(out, 'fuzz.junit.xml'))).toBe(true);
  });

  it('exit 1 with one finding file per bucket when a fault is injected', async () => {
    const out = tmp();
    const r = await cli(['fuzz', '--fault', 'two-strings-for-rare-term', '--kind', 'wire-protobuf', '--runs', '500', '--seed', '7', '--timeout', '300', '--out', out]);
    expect(r.code, r.stderr).toBe(1);
    expect(r.stdout).toContain('FINDING error-one-r-str');
    expect(readdirSync(join(out, 'findings')).some((f) => f.startsWith('error-one-r-str-'))).toBe(true);
  });

  it('exit 2 for bad options, 3 for an unreachable target', async () => {
    expect((await cli(['fuzz', '--time', 'soon'])).code).toBe(2);
    expect((await cli(['fuzz', '--kind', 'http-json'])).code).toBe(2);
    const server = net.createServer();
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
    const { port } = server.address() as net.AddressInfo;
    await new Promise((r) => server.close(r));
    const dir = tmp();
    writeFileSync(join(dir, 'targets.config.ts'), `export default { targets: { gone: { protocol: 'wire', host: '127.0.0.1', port: ${port} } } };`);
    const r = await cli(['fuzz', '--config', join(dir, 'targets.config.ts'), '--target', 'gone', '--runs', '10']);
    expect(r.code, r.stderr).toBe(3);
  });

  // The campaign runs in a worker thread (fuzz/thread.ts); signals reach the CLI's thread, which
  // must pass them on so that the campaign stops and its reports are written.
  it.each(['SIGINT', 'SIGTERM'] as const)('%s during a campaign: exit 130, fuzz.json says interrupted', async (signal) => {
    const out = tmp();
    const child = spawn(process.execPath, [join(root, 'bin/conformance.js'), 'fuzz', '--target', 'wire-ref', '--time', '60s', '--seed', '5', '--out', out], { cwd: root, env: { ...process.env, CI: 'true' } });
    let stdout = '';
    let sent = false;
    child.stdout.on('data', (d) => {
      stdout += d;
      if (!sent && stdout.includes('concurrency')) {
        sent = true;
        setTimeout(() => child.kill(signal), 500);
      }
    });
    child.stderr.on('data', (d) => (stdout += d));
    const code = await new Promise<number | string | null>((r) => child.on('exit', (c, sig) => r(c ?? sig)));
    expect(code, stdout).toBe(130);
    const report = JSON.parse(readFileSync(join(out, 'fuzz.json'), 'utf8'));
    expect(report.stopReason).toBe('interrupted');
    expect(report.cases).toBeGreaterThan(0);
    expect(existsSync(join(out, 'fuzz.junit.xml'))).toBe(true);
  });

  // The ad hoc target options of `run` (src/cli/adhoc.ts), for a server given by address: here a
  // wire-ref with a key and a fault, started by the test as any external server.
  it('an ad hoc WIRE target: --host/--port, the key from the environment; the finding replays against it', async () => {
    const key = 'adhoc-fuzz-key';
    const ref = await startWireReference({ authKey: key, faults: ['two-strings-for-rare-term'] });
    try {
      const out = tmp();
      const address = ['--host', ref.host, '--port', String(ref.port)];
      const env = { CONFORMANCE_AUTH_KEY: key };
      const r = await cli(['fuzz', ...address, '--kind', 'wire-protobuf', '--runs', '500', '--seed', '7', '--timeout', '300', '--out', out], env);
      expect(r.code, r.stderr).toBe(1);
      expect(r.stdout).toContain(`fuzz ${ref.host}-${ref.port} (${ref.host}:${ref.port})`);
      expect(r.stdout).toContain('FINDING error-one-r-str');
      // The replay line names the target again, without its key.
      const line = r.stdout.split('\n').find((l) => l.includes('bucket error-one-r-str'))!;
      expect(line).toContain(`--protocol wire --host ${ref.host} --port ${ref.port}`);
      const file = join(out, 'findings', readdirSync(join(out, 'findings')).find((f) => f.startsWith('error-one-r-str-'))!);
      expect(readFileSync(file, 'utf8')).not.toContain(key);
      const again = await cli(['replay', file, ...address], env);
      expect(again.code, again.stderr).toBe(1);
      expect(again.stdout).toContain('still fails: error-one-r-str');
      // The wrong key: the standard handshake is refused, the case cannot run.
      expect((await cli(['replay', file, ...address], { CONFORMANCE_AUTH_KEY: 'not-the-key-at-all' })).code).not.toBe(0);
    } finally {
      await ref.close();
    }
  }, 60_000);

  it('an ad hoc target excludes --target and --config, and an address needs its protocol (exit 2)', async () => {
    expect((await cli(['fuzz', '--host', '127.0.0.1', '--port', '1', '--target', 'wire-ref'])).code).toBe(2);
    expect((await cli(['fuzz', '--url', 'http://127.0.0.1:1'])).code).toBe(2);
    expect((await cli(['fuzz', '--auth-key', 'k', '--runs', '1'])).code).toBe(2);
    expect((await cli(['replay', 'no-such-file.json', '--url', 'http://127.0.0.1:1'])).code).toBe(2);
  });
});
