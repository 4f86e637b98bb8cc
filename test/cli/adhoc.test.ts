// An ad hoc target on the command line (issue 25): `--host/--port` for WIRE, `--url` with
// `--protocol` for CLOUD and BUILD, credentials by flag or by the CONFORMANCE_* environment
// scheme, no config file. Each against a reference the test starts on 127.0.0.1 and stops.
import { execFile } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import type { Io } from '../../src/cli/console.ts';
import { main } from '../../src/cli/main.ts';
import { credentialsFromEnv, envName } from '../../src/config/env.ts';
import { startBuildReference } from '../../targets/build/server.ts';
import { startCloudReference } from '../../targets/cloud/server.ts';
import { startWireReference } from '../../targets/wire/server.ts';

const root = new URL('../..', import.meta.url).pathname;
const bin = join(root, 'bin/conformance.js');
const tempDir = () => mkdtempSync(join(tmpdir(), 'conformance-adhoc-'));

/** The binary in an empty folder (no config to find), with `env` added. */
async function cli(args: string[], env: Record<string, string> = {}, cwd = tempDir()) {
  try {
    const { stdout, stderr } = await promisify(execFile)(process.execPath, [bin, ...args], { cwd, env: { ...process.env, CI: 'true', ...env } });
    return { code: 0, out: stdout + stderr, cwd };
  } catch (err) {
    const e = err as { code: number; stdout: string; stderr: string };
    return { code: e.code, out: e.stdout + e.stderr, cwd };
  }
}

async function run(...args: string[]) {
  const lines: string[] = [];
  const io: Io = { out: (l) => lines.push(l), err: (l) => lines.push(l), interactive: false };
  const code = await main(['node', 'conformance', ...args], io);
  return { code, out: lines.join('\n') };
}

/** Every file of a report directory, as one text (to look for secrets). */
const allReports = (dir: string) => readdirSync(dir).map((f) => readFileSync(join(dir, f), 'utf8')).join('\n');

describe('an ad hoc target on the command line', () => {
  it('WIRE: --port (protocol inferred), the key from CONFORMANCE_AUTH_KEY; reports named by the address, no key in them', async () => {
    const key = 'adhoc-key-9f3e2';
    const ref = await startWireReference({ authKey: key });
    try {
      const r = await cli(['--port', String(ref.port), '--only', 'wire.handshake.*', '--out', 'out'], { [envName('authKey')]: key });
      expect(r.code, r.out).toBe(0);
      expect(r.out).toMatch(new RegExp(`127\\.0\\.0\\.1-${ref.port} \\(wire, 127\\.0\\.0\\.1:${ref.port}\\): \\d+ checks`));
      const out = join(r.cwd, 'out');
      expect(readdirSync(out)).toContain(`127.0.0.1-${ref.port}.junit.xml`);
      const report = JSON.parse(readFileSync(join(out, 'conformance.json'), 'utf8'));
      // The checks that need the key ran with it: none is skipped for want of one.
      const results = report.targets[0].results as { check: { id: string }; status: string; message?: string }[];
      expect(results.filter((x) => x.status === 'skipped')).toEqual([]);
      expect(report.adhoc).toEqual(['--protocol', 'wire', '--host', '127.0.0.1', '--port', String(ref.port)]);
      expect(allReports(out)).not.toContain(key);
    } finally {
      await ref.close();
    }
  }, 30_000);

  it('CLOUD: --url with --protocol and --token by role; tokens never in a report', async () => {
    const ref = await startCloudReference();
    try {
      const out = join(tempDir(), 'out');
      const r = await run('--protocol', 'cloud', '--url', ref.baseUrl, '--token', ref.tokens.unrestricted, `readOnly=${ref.tokens.readOnly}`, '--only', 'cloud.pagination.*', 'cloud.authentication.*', '--out', out);
      expect(r.code, r.out).toBe(0);
      expect(r.out).toMatch(/\d+ checks: [1-9]\d* passed, 0 failed/);
      const text = allReports(out);
      expect(text).not.toContain(ref.tokens.unrestricted);
      expect(text).not.toContain(ref.tokens.readOnly);
    } finally {
      await ref.close();
    }
  }, 30_000);

  it('BUILD: a user from CONFORMANCE_USERS_USER_USERNAME/_PASSWORD, or --user name:password', async () => {
    const ref = await startBuildReference();
    const { username, password } = ref.users.user;
    try {
      const byEnv = await cli(['--protocol', 'build', '--url', ref.baseUrl, '--only', 'build.authentication.*', '--out', 'out'], {
        [envName('users.user.username')]: username,
        [envName('users.user.password')]: password,
      });
      expect(byEnv.code, byEnv.out).toBe(0);
      expect(allReports(join(byEnv.cwd, 'out'))).not.toContain(password);
      const byFlag = await run('--protocol', 'build', '--url', ref.baseUrl, '--user', `${username}:${password}`, '--only', 'build.authentication.*', '--out', join(tempDir(), 'out'));
      expect(byFlag.code, byFlag.out).toBe(0);
      expect(byFlag.out).toMatch(/\d+ checks: [1-9]\d* passed, 0 failed/);
    } finally {
      await ref.close();
    }
  }, 30_000);

  it('a failure against it prints a reproduction that repeats the address, and reproduces', async () => {
    const ref = await startWireReference({ faults: ['batch-1000'] });
    try {
      const r = await cli(['--host', '127.0.0.1', '--port', String(ref.port), '--only', 'wire.limits.*', '--out', 'out']);
      expect(r.code, r.out).toBe(1);
      const line = r.out.split('\n').find((l) => l.startsWith('reproduce the first failure: '))!;
      const command = line.replace('reproduce the first failure: npx conformance ', '');
      expect(command).toMatch(new RegExp(`^--protocol wire --host 127\\.0\\.0\\.1 --port ${ref.port} --only wire\\.limits\\.[a-z0-9.-]+ --seed \\d+$`));
      const again = await cli([...command.split(' '), '--out', 'out']);
      expect(again.code, again.out).toBe(1);
      expect(again.out).toContain('FAIL  wire.limits.');
    } finally {
      await ref.close();
    }
  }, 30_000);

  it('mistakes exit 2 with one line', async () => {
    const cases: [string[], string][] = [
      [['--url', 'http://127.0.0.1:9'], '--url needs --protocol cloud or --protocol build'],
      [['--protocol', 'wire', '--url', 'http://127.0.0.1:9'], 'a WIRE target takes --host and --port, not --url'],
      [['--protocol', 'cloud', '--port', '9'], 'a CLOUD target takes --url, not --host/--port'],
      [['--host', 'db.example.test'], '--host needs --port'],
      [['--protocol', 'build'], '--protocol build needs an address: --url'],
      [['--port', '9', '--token', 't'], '--token does not apply to a WIRE target'],
      [['--port', '9', '--target', 'wire-ref'], 'an ad hoc target (--url, --host/--port, --protocol) stands for a config: leave out --target and --config'],
      [['--token', 't'], '--token is for an ad hoc target'],
      [['--protocol', 'cloud', '--url', 'http://127.0.0.1:9', '--token', 'readonly=t'], "unknown role 'readonly'"],
      [['--protocol', 'build', '--url', 'http://127.0.0.1:9', '--user', 'nopassword'], '--user: expected username:password'],
      [['--protocol', 'cloud', '--url', 'ftp://127.0.0.1:9'], "conformance: the command line: target '127.0.0.1-9': 'baseUrl' is not an http(s) URL"],
    ];
    for (const [args, message] of cases) {
      const r = await run(...args);
      expect([r.code, r.out], args.join(' ')).toEqual([2, expect.stringContaining(message)]);
      expect(r.out.split('\n'), args.join(' ')).toHaveLength(1);
    }
  });

  it('the curl lines of a report use the scheme\'s variables', async () => {
    const out = join(tempDir(), 'out');
    const r = await run('--target', 'cloud-ref', '--fault', 'transfer-usage-missing', '--only', 'cloud.account.transfer-usage', '--out', out);
    expect(r.code, r.out).toBe(1);
    expect(readFileSync(join(out, 'conformance.json'), 'utf8')).toContain('authorization: Bearer $CONFORMANCE_TOKENS_UNRESTRICTED');
  }, 30_000);

  it('the environment scheme: CONFORMANCE_ + the field path in upper snake case', () => {
    expect(['authKey', 'tokens.readOnly', 'tokens.restrictedReadWrite', 'users.admin.password', 'token'].map(envName)).toEqual([
      'CONFORMANCE_AUTH_KEY',
      'CONFORMANCE_TOKENS_READ_ONLY',
      'CONFORMANCE_TOKENS_RESTRICTED_READ_WRITE',
      'CONFORMANCE_USERS_ADMIN_PASSWORD',
      'CONFORMANCE_TOKEN',
    ]);
    expect(credentialsFromEnv('cloud', { CONFORMANCE_TOKENS_OTHER_ACCOUNT: 'b', CONFORMANCE_TOKENS_READ_ONLY: '', CONFORMANCE_AUTH_KEY: 'k' })).toEqual({ tokens: { otherAccount: 'b' } });
  });
});
