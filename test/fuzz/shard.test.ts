// `fuzz --shard i/n` splits one campaign (its chunks of the seed space and its case budget) so that
// n machines together run exactly the unsharded campaign; `conformance merge` of their fuzz.json
// files gives the same buckets, the same cases and the same hits as the run that was not sharded.
import { execFile } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { runFuzz } from '../../fuzz/run.ts';
import { mergeFuzzReports, readFuzzReport } from '../../fuzz/core/report.ts';

const root = new URL('../..', import.meta.url).pathname;
const target = { protocol: 'wire', embedded: true, authKey: '' } as const;
// A deterministic fault (a wrong error datum, not a hang): whether a case breaks it does not depend on timing.
const fault = 'two-strings-for-rare-term';
const RUNS = 700; // three chunks of 256, the last one partial

function campaign(shard?: { index: number; count: number }) {
  const outDir = mkdtempSync(join(tmpdir(), 'conformance-fuzz-shard-'));
  return runFuzz({ targetName: 'wire-ref', target, faults: [fault], kinds: ['wire-protobuf'], seed: 7, runs: RUNS, shard, concurrency: 2, outDir, caseTimeoutMs: 300, shrinkMs: 1500 });
}

describe('fuzz --shard and merge', () => {
  it('three shards run exactly the unsharded campaign: same cases, buckets and hits after merge', async () => {
    const whole = await campaign();
    const shards = [];
    for (let i = 1; i <= 3; i++) shards.push(await campaign({ index: i, count: 3 }));
    expect(shards.map((s) => s.cases)).toEqual([256, 256, RUNS - 512]);

    const merged = mergeFuzzReports(await Promise.all(shards.map((s) => readFuzzReport(s.jsonPath))));
    expect(merged.cases).toBe(whole.cases);
    expect(merged.shards).toEqual([1, 2, 3].map((index) => ({ index, count: 3 })));
    const buckets = (fs: { bucket: string; hits: number }[]) => fs.map((f) => [f.bucket, f.hits]).sort();
    expect(whole.findingFiles.length).toBeGreaterThan(0);
    expect(buckets(merged.findings)).toEqual(buckets(whole.findingFiles.map((f) => f.finding)));
  }, 60_000);

  it('`conformance merge` writes one finding file per bucket, fuzz.json and JUnit, and exits 1 on findings', async () => {
    const runs = await Promise.all([1, 2].map((index) => campaign({ index, count: 2 })));
    const out = mkdtempSync(join(tmpdir(), 'conformance-fuzz-merged-'));
    const args = [join(root, 'bin/conformance.js'), 'merge', ...runs.map((r) => r.jsonPath), '--out', out];
    const r = await promisify(execFile)(process.execPath, args, { cwd: root }).then(
      (x) => ({ code: 0, ...x }),
      (e: { code: number; stdout: string; stderr: string }) => e,
    );
    expect(r.code, r.stderr).toBe(1);
    expect(r.stdout).toMatch(/merged 2 fuzz reports \(shards 1\/2, 2\/2\): 700 cases, \d+ finding bucket/);
    const report = JSON.parse(readFileSync(join(out, 'fuzz.json'), 'utf8'));
    const files = readdirSync(join(out, 'findings'));
    expect(files.length).toBe(report.findings.length);
    expect(new Set(report.findings.map((f: { bucket: string }) => f.bucket)).size).toBe(report.findings.length);
    expect(readFileSync(join(out, 'fuzz.junit.xml'), 'utf8')).toContain('<testcase');
  }, 60_000);

  it('--shard without --seed is a usage error (shards must split one campaign)', async () => {
    const r = await promisify(execFile)(process.execPath, [join(root, 'bin/conformance.js'), 'fuzz', '--shard', '1/2', '--runs', '5'], { cwd: root }).catch((e) => e);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('--shard needs --seed');
  });
});
