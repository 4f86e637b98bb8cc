// `conformance serve`: each reference started standalone as a user starts it, its printed target
// entry pasted into a config, the suite pointed at it, and Ctrl-C stopping it.
import { spawn } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { main } from '../../src/cli/main.ts';
import type { Io } from '../../src/cli/console.ts';

const root = new URL('../..', import.meta.url).pathname;
const bin = join(root, 'bin/conformance.js');

/** Starts `serve` and resolves with its printed target entry once it is listening. */
function serve(args: string[], env: Record<string, string> = {}) {
  const child = spawn(process.execPath, [bin, 'serve', ...args], { cwd: root, env: { ...process.env, CI: 'true', ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  const entry = new Promise<{ name: string; target: Record<string, unknown> }>((resolve, reject) => {
    child.stdout.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      // Every line is out once the last one is: output may come in several chunks.
      const m = /^ {2}'([^']+)': (\{.*\}),$/m.exec(out);
      if (m && out.includes('Ctrl-C stops it.')) resolve({ name: m[1], target: JSON.parse(m[2]) });
    });
    child.stderr.on('data', (chunk: Buffer) => (out += chunk.toString()));
    exited.then(() => reject(new Error(`serve exited before listening: ${out}`)));
  });
  return { child, entry, exited, output: () => out };
}

async function runAgainst(name: string, target: Record<string, unknown>, only: string[]) {
  const dir = mkdtempSync(join(tmpdir(), 'conformance-serve-'));
  const config = join(dir, 'targets.config.ts');
  writeFileSync(config, `export default { targets: { ${JSON.stringify(name)}: ${JSON.stringify(target)} } };\n`);
  const lines: string[] = [];
  const io: Io = { out: (l) => lines.push(l), err: (l) => lines.push(l), interactive: false };
  const code = await main(['node', 'conformance', '--config', config, '--target', name, '--only', ...only, '--out', join(dir, 'out')], io);
  return { code, out: lines.join('\n') };
}

describe('conformance serve', () => {
  it.each([
    ['wire', ['wire.limits.*', 'wire.handshake.*']],
    ['cloud', ['cloud.pagination.*', 'cloud.authentication.*']],
    ['build', ['build.authentication.*', 'build.projects.*']],
  ] as const)('%s: the printed target entry runs the suite; Ctrl-C stops it', async (protocol, only) => {
    const s = serve([protocol]);
    try {
      const { name, target } = await s.entry;
      expect(name).toBe(`served-${protocol}`);
      expect(s.output()).toContain(`${protocol}-ref listening on `);
      const r = await runAgainst(name, target, [...only]);
      expect(r.code, r.out).toBe(0);
      expect(r.out).toMatch(/\d+ checks: [1-9]\d* passed, 0 failed/);
    } finally {
      s.child.kill('SIGINT');
    }
    expect(await s.exited).toBe(0);
    expect(s.output()).toContain(`${protocol}-ref stopped (SIGINT)`);
  }, 30_000);

  it('--variant serves the variant mode, --fault a fault the suite then reports', async () => {
    const s = serve(['wire', '--variant', '--fault', 'batch-1000']);
    try {
      const { name, target } = await s.entry;
      expect(s.output()).toContain('wire-ref-variant listening on ');
      const r = await runAgainst(name, target, ['wire.limits.*']);
      expect(r.code).toBe(1);
      expect(r.out).toContain('FAIL  wire.limits.batches-under-1000');
    } finally {
      s.child.kill('SIGTERM');
    }
    expect(await s.exited).toBe(0);
  }, 30_000);

  it('fixed credentials by flag or env are served and printed; the same env then drives an ad hoc run', async () => {
    const cloud = serve(['cloud', '--token', 'readOnly=fixed-read-only-2'], { CONFORMANCE_TOKENS_UNRESTRICTED: 'fixed-unrestricted-1' });
    try {
      const { target } = await cloud.entry;
      expect(target.tokens).toMatchObject({ unrestricted: 'fixed-unrestricted-1', readOnly: 'fixed-read-only-2' });
      const lines: string[] = [];
      const io: Io = { out: (l) => lines.push(l), err: (l) => lines.push(l), interactive: false };
      const adhoc = /npx conformance (--protocol cloud --url \S+)$/m.exec(cloud.output())![1].split(' ');
      // The ad hoc run reads the unrestricted token from the environment the server was given.
      process.env.CONFORMANCE_TOKENS_UNRESTRICTED = 'fixed-unrestricted-1';
      try {
        const code = await main(['node', 'conformance', ...adhoc, '--only', 'cloud.pagination.*', '--out', join(mkdtempSync(join(tmpdir(), 'conformance-serve-')), 'out')], io);
        expect(code, lines.join('\n')).toBe(0);
        expect(lines.join('\n')).toMatch(/\d+ checks: [1-9]\d* passed, 0 failed/);
      } finally {
        delete process.env.CONFORMANCE_TOKENS_UNRESTRICTED;
      }
    } finally {
      cloud.child.kill('SIGINT');
    }
    await cloud.exited;

    const build = serve(['build', '--user', 'admin=Admin:fixed-admin-pw'], { CONFORMANCE_USERS_USER_PASSWORD: 'fixed-user-pw', CONFORMANCE_TOKEN: 'fixed-runservice' });
    try {
      const { name, target } = await build.entry;
      expect(target).toMatchObject({ users: { user: { username: 'tux', password: 'fixed-user-pw' }, admin: { username: 'Admin', password: 'fixed-admin-pw' } }, token: 'fixed-runservice' });
      const r = await runAgainst(name, target, ['build.authentication.*']);
      expect(r.code, r.out).toBe(0);
    } finally {
      build.child.kill('SIGINT');
    }
    await build.exited;
  }, 30_000);

  it('a username that is not the reference\'s, or one token for two roles: exit 2', async () => {
    const lines: string[] = [];
    const io: Io = { out: (l) => lines.push(l), err: (l) => lines.push(l), interactive: false };
    expect(await main(['node', 'conformance', 'serve', 'build', '--user', 'alice:pw'], io)).toBe(2);
    expect(lines.pop()).toBe("conformance: build-ref's user is 'tux', not 'alice': only its password can be fixed (tux:<password>)");
    expect(await main(['node', 'conformance', 'serve', 'cloud', '--token', 'same', 'readOnly=same'], io)).toBe(2);
    expect(lines.pop()).toBe('conformance: tokens unrestricted and readOnly are the same: each role needs its own');
  });

  it('an unknown protocol or fault: exit 2', async () => {
    const lines: string[] = [];
    const io: Io = { out: (l) => lines.push(l), err: (l) => lines.push(l), interactive: false };
    expect(await main(['node', 'conformance', 'serve', 'smtp'], io)).toBe(2);
    expect(await main(['node', 'conformance', 'serve', 'wire', '--fault', 'nope'], io)).toBe(2);
    expect(lines.join('\n')).toContain("unknown protocol 'smtp'");
  });
});
