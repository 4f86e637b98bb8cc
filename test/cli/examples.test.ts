// The shipped CI examples cannot rot: their commands, read from the YAML files as shipped, run
// against the embedded targets with small shard counts, job after job as the CI would run them,
// and gate as their comments say (known failures pass through the shards and the merge, a new
// one fails the merge). `npm ci` is left out; `npx conformance` is this checkout's binary.
import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { XMLValidator } from 'fast-xml-parser';
import { describe, expect, it } from 'vitest';

const root = new URL('../..', import.meta.url).pathname;
const bin = join(root, 'bin/conformance.js');

/**
 * The shell commands of each job of a CI file, in order: GitHub's `run:` steps and GitLab's
 * `before_script:`/`script:` items, inline or as `>` (folded) and `|` (literal) block scalars.
 * Just enough YAML for these files; no YAML parser is a dependency of the project.
 */
export function jobCommands(yaml: string, kind: 'github' | 'gitlab'): Map<string, string[]> {
  const jobs = new Map<string, string[]>();
  const lines = yaml.split('\n');
  // GitHub: the keys of `jobs:`. GitLab: top-level keys but its global ones.
  const jobIndent = kind === 'github' ? 2 : 0;
  const GITLAB_GLOBAL = ['stages', 'default', 'variables', 'workflow', 'include', 'image', 'cache'];
  let section: string | undefined;
  let job: string | undefined;
  let inScript = -1; // indentation of a GitLab script key whose items are being read
  const indentOf = (l: string) => l.length - l.trimStart().length;
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i];
    if (!line.trim() || line.trimStart().startsWith('#')) continue;
    const indent = indentOf(line);
    const key = /^\s*([\w.-]+):/.exec(line);
    if (indent === 0 && key) section = key[1];
    const inJobs = kind === 'github' ? section === 'jobs' && indent === jobIndent : indent === 0 && !GITLAB_GLOBAL.includes(section!);
    if (inJobs && key && /:\s*$/.test(line)) {
      job = key[1];
      jobs.set(job, []);
      inScript = -1;
      continue;
    }
    if (indent < jobIndent) job = undefined;
    if (!job) continue;
    if (inScript >= 0 && indent <= inScript) inScript = -1;
    if (/^\s*(script|before_script):\s*$/.exec(line)) {
      inScript = indent;
      continue;
    }
    const m = inScript >= 0 ? /^\s*- (.*)$/.exec(line) : /^\s*(?:- )?run:\s*(.*)$/.exec(line);
    if (!m || (inScript >= 0 && indent !== inScript + 2)) continue;
    let text = m[1].trim();
    if (text === '>' || text === '|') {
      // A block scalar's lines are indented past its key (`run` of `- run:` sits 2 further in).
      const keyIndent = inScript >= 0 ? indent : indent + (line.trimStart().startsWith('- ') ? 2 : 0);
      const body: string[] = [];
      while (i + 1 < lines.length && (!lines[i + 1].trim() || indentOf(lines[i + 1]) > keyIndent)) body.push(lines[++i].trim());
      text = body.filter(Boolean).join(text === '>' ? ' ' : '\n');
    }
    jobs.get(job)!.push(text);
  }
  return jobs;
}

async function sh(command: string, cwd: string, env: Record<string, string>) {
  const line = command.replaceAll('npx conformance', `${JSON.stringify(process.execPath)} ${JSON.stringify(bin)}`);
  try {
    const { stdout, stderr } = await promisify(execFile)('sh', ['-c', line], { cwd, env: { ...process.env, CI: 'true', ...env } });
    return { code: 0, out: stdout + stderr };
  } catch (err) {
    const e = err as { code: number; stdout: string; stderr: string };
    return { code: e.code, out: e.stdout + e.stderr };
  }
}

/** A workspace: my-api is cloud-ref with faults, my-db is wire-ref; the baseline knows one failure. */
function workspace(faults: string[]): string {
  const dir = mkdtempSync(join(tmpdir(), 'conformance-examples-'));
  writeFileSync(
    join(dir, 'targets.config.mjs'),
    `export default { targets: {
      'my-api': { protocol: 'cloud', embedded: true, faults: ${JSON.stringify(faults)} },
      'my-db': { protocol: 'wire', embedded: true, authKey: '' },
    } };\n`,
  );
  writeFileSync(join(dir, 'conformance.baseline'), 'cloud.account.transfer-usage\n');
  writeFileSync(join(dir, 'summary.md'), '');
  return dir;
}

const KNOWN = ['transfer-usage-missing'];
const KNOWN_AND_NEW = ['transfer-usage-missing', 'unknown-invoice-200'];
const SHARDS = 2;

interface Step {
  job: string;
  /** Environment of each shard's job (one entry per job run). */
  shards: Record<string, string>[];
}

/** Runs the steps' commands in order in `dir`; returns each job's exit codes (the worst per job run). */
async function pipeline(file: string, kind: 'github' | 'gitlab', steps: Step[], dir: string, substitute: (command: string, env: Record<string, string>) => string, only?: string[]) {
  const jobs = jobCommands(readFileSync(join(root, 'examples', file), 'utf8'), kind);
  // Every job of the file is one the test runs: a new job cannot go untested.
  expect([...jobs.keys()].sort(), `jobs of ${file}`).toEqual(steps.map((s) => s.job).sort());
  const codes: Record<string, number[]> = {};
  const logs: string[] = [];
  for (const step of steps) {
    if (only && !only.includes(step.job)) continue;
    const commands = jobs.get(step.job)!.filter((c) => !/^npm ci\b/.test(c));
    expect(commands.length, `${step.job} runs commands`).toBeGreaterThan(0);
    for (const env of step.shards) {
      let code = 0;
      for (const command of commands) {
        const line = substitute(command, env);
        expect(line, 'every CI expression is known to the test').not.toMatch(/\$\{\{/);
        const r = await sh(line, dir, { ...env, GITHUB_STEP_SUMMARY: join(dir, 'summary.md') });
        logs.push(`$ ${line}\n${r.out}`);
        code = r.code;
        if (code !== 0) break; // a failing step ends its job, as on a runner
      }
      (codes[step.job] ??= []).push(code);
    }
  }
  return { codes, log: logs.join('\n') };
}

/** A port nothing listens on now. */
async function freePort(): Promise<number> {
  const { createServer } = await import('node:net');
  const server = createServer();
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  const { port } = server.address() as { port: number };
  await new Promise((r) => server.close(r));
  return port;
}

/** Until something answers on the port (as the example's curl loop waits). */
async function waitFor(port: number): Promise<void> {
  const { connect } = await import('node:net');
  for (let i = 0; i < 100; i++) {
    const up = await new Promise<boolean>((r) => connect(port, '127.0.0.1').once('connect', function (this: import('node:net').Socket) { this.destroy(); r(true); }).once('error', () => r(false)));
    if (up) return;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`nothing listens on 127.0.0.1:${port}`);
}

const shardEnvs = (f: (i: number) => Record<string, string>) => Array.from({ length: SHARDS }, (_, i) => f(i + 1));

describe('the shipped CI examples', () => {
  const github = (dir: string, only?: string[]) =>
    pipeline(
      'github-actions.yml',
      'github',
      [
        { job: 'shard', shards: shardEnvs((i) => ({ SHARD: String(i) })) },
        { job: 'merge', shards: [{}] },
        { job: 'fuzz', shards: shardEnvs((i) => ({ SHARD: String(i) })) },
        { job: 'fuzz-merge', shards: [{}] },
      ],
      dir,
      (c, env) =>
        c
          .replaceAll('${{ matrix.shard }}', env.SHARD ?? '')
          .replaceAll('${{ strategy.job-total }}', String(SHARDS))
          .replaceAll('${{ github.run_number }}', '7')
          .replace(/--runs \d+/, '--runs 300'),
      only,
    );
  const gitlab = (dir: string, only?: string[]) =>
    pipeline(
      'gitlab-ci.yml',
      'gitlab',
      [
        { job: 'conformance', shards: shardEnvs((i) => ({ CI_NODE_INDEX: String(i), CI_NODE_TOTAL: String(SHARDS), CI_PIPELINE_IID: '7' })) },
        { job: 'conformance-merge', shards: [{}] },
        { job: 'conformance-fuzz', shards: shardEnvs((i) => ({ CI_NODE_INDEX: String(i), CI_NODE_TOTAL: String(SHARDS), CI_PIPELINE_IID: '7' })) },
        { job: 'conformance-fuzz-merge', shards: [{}] },
      ],
      dir,
      (c) => c.replace(/--runs \d+/, '--runs 300'),
      only,
    );

  it('github-actions.yml: shards and merge pass on a known failure, JUnit skips it; the fuzz shards merge', async () => {
    const dir = workspace(KNOWN);
    const { codes, log } = await github(dir);
    expect(codes, log).toEqual({ shard: [0, 0], merge: [0], fuzz: [0, 0], 'fuzz-merge': [0] });
    const junit = readFileSync(join(dir, 'reports/merged/my-api.junit.xml'), 'utf8');
    expect(XMLValidator.validate(junit)).toBe(true);
    expect(junit).not.toContain('<failure');
    expect(junit).toContain('message="known failed (baseline');
    expect(readFileSync(join(dir, 'summary.md'), 'utf8')).toContain('my-api');
    expect(existsSync(join(dir, 'reports/fuzz/fuzz.junit.xml'))).toBe(true);
  }, 120_000);

  it('gitlab-ci.yml: the same gate with one JUnit file for the merge request; the fuzz shards merge', async () => {
    const dir = workspace(KNOWN);
    const { codes, log } = await gitlab(dir);
    expect(codes, log).toEqual({ conformance: [0, 0], 'conformance-merge': [0], 'conformance-fuzz': [0, 0], 'conformance-fuzz-merge': [0] });
    const junit = readFileSync(join(dir, 'reports/merged/junit.xml'), 'utf8');
    expect(XMLValidator.validate(junit)).toBe(true);
    expect(junit).not.toContain('<failure');
    expect(junit).toContain('message="known failed (baseline');
    // The JUnit the merge request reads lists every check of the merged run once.
    const merged = JSON.parse(readFileSync(join(dir, 'reports/merged/conformance.json'), 'utf8'));
    expect((junit.match(/<testcase /g) ?? []).length).toBe(merged.totals.total);
    expect(existsSync(join(dir, 'reports/fuzz/fuzz.junit.xml'))).toBe(true);
  }, 120_000);

  it('github-actions-single-job.yml: starts the server, gates with the baseline, a regression fails it', async () => {
    // The server under test is cloud-ref served on a free port; the job's `npm start` starts it.
    const port = await freePort();
    const token = 'single-job-token';
    for (const [faults, expected] of [[[], 0], [['unknown-invoice-200'], 1]] as const) {
      const dir = mkdtempSync(join(tmpdir(), 'conformance-examples-'));
      writeFileSync(join(dir, 'targets.config.mjs'), `export default { targets: { 'my-api': { protocol: 'cloud', baseUrl: 'http://127.0.0.1:${port}', tokens: { unrestricted: process.env.CONFORMANCE_TOKENS_UNRESTRICTED }, implements: { paths: ['/account/invoices/**', '/account/events/**'] } } } };\n`);
      const env = { CONFORMANCE_TOKENS_UNRESTRICTED: token };
      const serve = `npx conformance serve cloud --port ${port}${faults.length ? ` --fault ${faults.join(' ')}` : ''}`;
      // Today's outcomes on the clean server: the baseline the job gates with.
      const pid = join(dir, 'server.pid');
      const startClean = await sh(`npx conformance serve cloud --port ${port} > base.log 2>&1 & echo $! > ${pid}`, dir, env);
      expect(startClean.code).toBe(0);
      try {
        await waitFor(port);
        expect((await sh('npx conformance --target my-api --out base', dir, env)).code).toBe(0);
        expect((await sh('npx conformance baseline --from base/conformance.json --output conformance.baseline', dir, env)).code).toBe(0);
      } finally {
        process.kill(Number(readFileSync(pid, 'utf8')));
      }
      await new Promise((r) => setTimeout(r, 300));
      try {
        const { codes, log } = await pipeline(
          'github-actions-single-job.yml',
          'github',
          [{ job: 'gate', shards: [env] }],
          dir,
          (c) => c.replace('npm start > server.log 2>&1 &', `${serve} > server.log 2>&1 & echo $! > ${pid}`).replaceAll('8080', String(port)),
        );
        expect(codes, log).toEqual({ gate: [expected] });
        expect(existsSync(join(dir, 'reports/conformance.html'))).toBe(true);
        if (expected) expect(log).toContain('verdict: FAILED (exit 1): 1 new failure');
      } finally {
        if (existsSync(pid)) process.kill(Number(readFileSync(pid, 'utf8')));
      }
      await new Promise((r) => setTimeout(r, 300));
    }
  }, 120_000);

  it('both: a new failure fails the merge job', async () => {
    const gh = await github(workspace(KNOWN_AND_NEW), ['shard', 'merge']);
    expect(gh.codes, gh.log).toEqual({ shard: expect.arrayContaining([1]), merge: [1] });
    const gl = await gitlab(workspace(KNOWN_AND_NEW), ['conformance', 'conformance-merge']);
    expect(gl.codes, gl.log).toEqual({ conformance: expect.arrayContaining([1]), 'conformance-merge': [1] });
  }, 180_000);
});
