// The CLI as a user runs it: a real `node bin/conformance.js` process, real reports on disk,
// the documented exit codes, and one-line errors for bad input.
import { execFile, spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync, existsSync, readdirSync } from 'node:fs';
import net from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { XMLValidator } from 'fast-xml-parser';
import { describe, expect, it } from 'vitest';

const root = new URL('../..', import.meta.url).pathname;
const bin = join(root, 'bin/conformance.js');

async function cli(args: string[], cwd = root) {
  try {
    const { stdout, stderr } = await promisify(execFile)(process.execPath, [bin, ...args], { cwd, env: { ...process.env, CI: 'true' } });
    return { code: 0, stdout, stderr };
  } catch (err) {
    const e = err as { code: number; stdout: string; stderr: string };
    return { code: e.code, stdout: e.stdout, stderr: e.stderr };
  }
}

function tempDir(): string {
  return mkdtempSync(join(tmpdir(), 'conformance-test-'));
}

function configIn(dir: string, body: string): string {
  const file = join(dir, 'targets.config.ts');
  writeFileSync(file, body);
  return file;
}

/** A port on 127.0.0.1 with nothing listening (bound, then released). */
async function closedPort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  const { port } = server.address() as net.AddressInfo;
  await new Promise((r) => server.close(r));
  return port;
}

describe('conformance CLI', () => {
  it('--help shows examples and the exit codes', async () => {
    const { code, stdout } = await cli(['--help']);
    expect(code).toBe(0);
    expect(stdout).toContain('Examples:');
    expect(stdout).toMatch(/3\s+a target was unreachable/);
  });

  it('list --json prints every check with its metadata', async () => {
    const { code, stdout } = await cli(['list', '--json']);
    expect(code).toBe(0);
    const checks = JSON.parse(stdout) as Record<string, unknown>[];
    expect(checks.length).toBeGreaterThanOrEqual(30);
    for (const c of checks) {
      expect(c).toMatchObject({ id: expect.any(String), protocol: expect.stringMatching(/^(wire|cloud|build)$/), section: expect.any(String), level: expect.stringMatching(/^(MUST|SHOULD)$/) });
      expect(c.spec).toMatchObject({ file: expect.stringMatching(/\.md$/), line: expect.any(Number), quote: expect.any(String) });
    }
  });

  it('runs wire-ref from targets.config.ts: exit 0, valid JUnit and JSON reports', async () => {
    const out = tempDir();
    const { code, stdout } = await cli(['--target', 'wire-ref', '--config', 'targets.config.ts', '--out', out, '--seed', '42']);
    expect(code, stdout).toBe(0);
    const xml = readFileSync(join(out, 'wire-ref.junit.xml'), 'utf8');
    expect(XMLValidator.validate(xml)).toBe(true);
    const report = JSON.parse(readFileSync(join(out, 'conformance.json'), 'utf8'));
    expect(report.seed).toBe(42);
    expect(report.totals.failed + report.totals.error).toBe(0);
    expect((xml.match(/<testcase /g) ?? []).length).toBe(report.totals.total);
    expect(xml).toContain('name="seed" value="42"');
    expect(readdirSync(out).filter((f) => f.includes('.tmp-'))).toEqual([]);
  });

  it('runs every embedded target with no arguments: exit 0, one JUnit file per target', async () => {
    const out = tempDir();
    const { code, stdout } = await cli(['--out', out]);
    expect(code, stdout).toBe(0);
    const embedded = ['wire-ref', 'cloud-ref', 'build-ref', 'wire-variant', 'cloud-variant', 'build-variant'];
    for (const t of embedded) {
      expect(XMLValidator.validate(readFileSync(join(out, `${t}.junit.xml`), 'utf8')), t).toBe(true);
    }
    expect(JSON.parse(readFileSync(join(out, 'conformance.json'), 'utf8')).targets.map((t: { name: string }) => t.name)).toEqual(embedded);
    // Every check of six targets: ~15 s on an idle machine, past 40 s on a loaded one.
  }, 90_000);

  it('a fault makes the run exit 1, naming the deviation on the console and in JUnit', async () => {
    const out = tempDir();
    const { code, stdout } = await cli(['--fault', 'batch-1000', '--only', 'wire.limits.*', '--out', out]);
    expect(code).toBe(1);
    expect(stdout).toContain('expected fewer than 1000 datums, got SUCCESS_PARTIAL with 1000 datums');
    expect(stdout).toContain('--fault batch-1000');
    const xml = readFileSync(join(out, 'wire-ref.junit.xml'), 'utf8');
    expect(xml).toContain('<failure');
    expect(xml).toContain('wire-protocol.md:184');
  });

  it('the printed reproduction carries --config, --timeout and --strict, and reproduces', async () => {
    const out = tempDir();
    const { code, stdout } = await cli(['--config', 'targets.config.ts', '--target', 'wire-ref', '--fault', 'batch-1000', '--only', 'wire.limits.*', '--timeout', '6000', '--strict', '--out', out]);
    expect(code).toBe(1);
    const line = stdout.split('\n').find((l) => l.startsWith('reproduce the first failure: '))!;
    const command = line.replace('reproduce the first failure: npx conformance ', '');
    expect(command).toBe('--config targets.config.ts --target wire-ref --only wire.limits.batches-under-1000 --seed ' + /--seed (\d+)/.exec(command)![1] + ' --timeout 6000 --fault batch-1000 --strict');
    const again = await cli([...command.split(' '), '--out', tempDir()]);
    expect(again.code, again.stdout).toBe(1);
    expect(again.stdout).toContain('FAIL  wire.limits.batches-under-1000');
  });

  it('--bail stops at the first failure: exit 1, the rest skipped naming it', async () => {
    const out = tempDir();
    const { code } = await cli(['--target', 'wire-ref', '--fault', 'batch-1000', '--bail', '--concurrency', '1', '--out', out]);
    expect(code).toBe(1);
    const report = JSON.parse(readFileSync(join(out, 'conformance.json'), 'utf8'));
    expect(report.totals.failed).toBe(1);
    expect(report.totals.skipped).toBeGreaterThan(10);
    const skipped = report.targets[0].results.filter((r: { status: string }) => r.status === 'skipped');
    expect(skipped.every((r: { message: string }) => / --bail: the run stopped after wire\.[a-z0-9.-]+ failed$/.test(r.message))).toBe(true);
  });

  it('list previews a selection, grouped by section', async () => {
    const { code, stdout } = await cli(['list', '--only', 'handshake', '--level', 'must']);
    expect(code).toBe(0);
    expect(stdout).toContain('wire · Handshake (protobuf protocol) (');
    expect(stdout).toMatch(/\n\d+ checks of \d+ selected; not selected: \d+ by --level, \d+ by --only\n?$/);
    expect(stdout).not.toContain('SHOULD');
  });

  it('the explicit `run` command takes the same options as the default one', async () => {
    const out = tempDir();
    const { code, stdout } = await cli(['run', '--fault', 'backtrace-reversed', '--only', 'wire.errors.*', '--out', out]);
    expect(code).toBe(1);
    expect(stdout).toMatch(/wire-ref .*faults: backtrace-reversed\): 4 checks/);
    expect(stdout).toContain('expected frames [POS 2, POS 0] (outermost first), got [POS 0, POS 2]');
  });

  it('a config file with a syntax error: exit 2, one line naming the file', async () => {
    const dir = tempDir();
    configIn(dir, 'export default { targets: { ');
    const { code, stderr } = await cli([], dir);
    expect(code).toBe(2);
    expect(stderr.trim().split('\n')).toHaveLength(1);
    expect(stderr).toMatch(/^conformance: targets\.config\.ts: cannot load: /);
  });

  it('a config that throws, or breaks the schema: exit 2 naming target and field', async () => {
    const dir = tempDir();
    configIn(dir, "throw new Error('no config today');");
    expect((await cli([], dir)).stderr).toContain('targets.config.ts: cannot load: no config today');
    configIn(dir, "export default { targets: { db: { protocol: 'wire', host: '127.0.0.1', port: 70000 } } };");
    const bad = await cli(['--target', 'db'], dir);
    expect(bad.code).toBe(2);
    expect(bad.stderr.trim()).toBe("conformance: targets.config.ts: target 'db': 'port' must be <= 65535");
    configIn(dir, "export default { targets: { api: { protocol: 'cloud', baseUrl: 'not a url' } } };");
    expect((await cli(['--target', 'api'], dir)).stderr.trim()).toBe(`conformance: targets.config.ts: target 'api': 'baseUrl' is not an http(s) URL: "not a url"`);
    configIn(dir, "export default { targets: { db: { protocol: 'wire', host: '127.0.0.1', port: 28015, variant: true } } };");
    const variant = await cli(['--target', 'db'], dir);
    expect([variant.code, variant.stderr.trim()]).toEqual([2, "conformance: target 'db': variant applies to embedded targets only"]);
    configIn(dir, "export default { targets: { db: { protocol: 'smtp' } } };");
    expect((await cli(['--target', 'db'], dir)).stderr.trim()).toBe(
      `conformance: targets.config.ts: target 'db': 'protocol' is "smtp", expected one of "wire", "cloud", "build"`,
    );
  });

  it('finds targets.config.mjs from a subfolder; only the selected targets are validated; without --target all run', async () => {
    const dir = tempDir();
    const port = await closedPort();
    writeFileSync(
      join(dir, 'targets.config.mjs'),
      `export default { targets: {
        mine: { protocol: 'wire', embedded: true, authKey: '' },
        theirs: { protocol: 'build', baseUrl: 'http://127.0.0.1:${port}', users: { user: { username: 'tux', password: process.env.UNSET_FOR_THE_TEST } } },
      } };\n`,
    );
    const sub = join(dir, 'a', 'b');
    mkdirSync(sub, { recursive: true });
    const selected = await cli(['--target', 'mine', '--only', 'wire.limits.*', '--out', join(dir, 'out')], sub);
    expect(selected.code, selected.stderr).toBe(0);
    const all = await cli(['--only', 'wire.limits.*', 'build.about.*', '--out', join(dir, 'out2')], sub);
    expect(all.code, all.stdout + all.stderr).toBe(2);
    expect(all.stderr.trim()).toBe(`conformance: ${join('..', '..', 'targets.config.mjs')}: target 'theirs': missing field 'users.user.password'`);
  });

  it('an unknown --target: exit 2 listing the known ones', async () => {
    const { code, stderr } = await cli(['--target', 'nope']);
    expect(code).toBe(2);
    expect(stderr.trim()).toBe(
      "conformance: unknown target 'nope' in targets.config.ts (known: wire-ref, cloud-ref, build-ref, wire-variant, cloud-variant, build-variant)",
    );
  });

  it('an unknown --fault: exit 2 pointing at the fault list', async () => {
    const { code, stderr } = await cli(['--fault', 'no-such-fault']);
    expect(code).toBe(2);
    expect(stderr.trim()).toBe("conformance: unknown fault 'no-such-fault' for wire-ref, cloud-ref, build-ref, wire-variant, cloud-variant, build-variant (see: conformance list --faults)");
  });

  it('a bad option value: exit 2', async () => {
    const { code, stderr } = await cli(['--level', 'maybe']);
    expect(code).toBe(2);
    expect(stderr).toContain("argument 'maybe' is invalid");
  });

  it('a target port with nothing listening: exit 3, and the report still lists every check', async () => {
    const dir = tempDir();
    const port = await closedPort();
    configIn(dir, `export default { targets: { db: { protocol: 'wire', host: '127.0.0.1', port: ${port}, authKey: '' } } };`);
    const { code, stdout } = await cli(['--target', 'db', '--out', join(dir, 'out')], dir);
    expect(code).toBe(3);
    expect(stdout).toContain(`target unreachable: 127.0.0.1:${port}: connection refused`);
    const report = JSON.parse(readFileSync(join(dir, 'out', 'conformance.json'), 'utf8'));
    expect(report.targets[0].status).toBe('unreachable');
    expect(report.totals.error).toBe(report.totals.total);
    expect(existsSync(join(dir, 'out', 'db.junit.xml'))).toBe(true);
  });

  it('keeps the authorization key out of reports, even when a check fails on it', async () => {
    const dir = tempDir();
    configIn(dir, "export default { targets: { k: { protocol: 'wire', embedded: true, authKey: 'sekrit-key-123' } } };");
    const { code } = await cli(['--fault', 'accept-any-key', '--out', join(dir, 'out')], dir);
    expect(code).toBe(1);
    for (const f of ['conformance.json', 'k.junit.xml']) {
      const text = readFileSync(join(dir, 'out', f), 'utf8');
      expect(text).toContain('wire.handshake.wrong-key-refused');
      expect(text).not.toContain('sekrit');
      expect(text).not.toContain(Buffer.from('sekrit').toString('hex'));
    }
  });

  it.each(['SIGINT', 'SIGTERM'] as const)('%s against a target that never answers: exit 130, reports list every check', async (signal) => {
    const dir = tempDir();
    const silent = net.createServer(() => {}); // accepts, never sends a byte
    await new Promise<void>((r) => silent.listen(0, '127.0.0.1', () => r()));
    const { port } = silent.address() as net.AddressInfo;
    configIn(dir, `export default { targets: { mute: { protocol: 'wire', host: '127.0.0.1', port: ${port}, authKey: '' } } };`);
    try {
      const child = spawn(process.execPath, [bin, '--target', 'mute', '--timeout', '60000', '--out', join(dir, 'out')], { cwd: dir, env: { ...process.env, CI: 'true' } });
      let stdout = '';
      let sent = false;
      child.stdout.on('data', (d) => {
        stdout += d;
        if (!sent && stdout.includes('checks')) {
          sent = true;
          setTimeout(() => child.kill(signal), 200);
        }
      });
      const code = await new Promise<number | string | null>((r) => child.on('exit', (c, sig) => r(c ?? sig)));
      child.stderr.on('data', (d) => (stdout += d));
      expect(code, stdout).toBe(130);
      const report = JSON.parse(readFileSync(join(dir, 'out', 'conformance.json'), 'utf8'));
      expect(report.interrupted).toBe(`interrupted by ${signal}`);
      expect(report.targets[0].status).toBe('interrupted');
      const listed = JSON.parse((await cli(['list', '--json', '--protocol', 'wire'])).stdout).length;
      expect(report.totals.total).toBe(listed);
      expect(XMLValidator.validate(readFileSync(join(dir, 'out', 'mute.junit.xml'), 'utf8'))).toBe(true);
    } finally {
      silent.close();
    }
  });
});
