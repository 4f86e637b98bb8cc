// `conformance fuzz` as a user runs it: exit codes 0 / 1 / 2 / 3, finding files and JUnit on disk.
import { execFile, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import net from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';

const root = new URL('../..', import.meta.url).pathname;

async function cli(args: string[]) {
  try {
    const { stdout, stderr } = await promisify(execFile)(process.execPath, [join(root, 'bin/conformance.js'), ...args], { cwd: root, env: { ...process.env, CI: 'true' } });
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
});
