// Baseline gating, sharding with merge, and diff, through main() as the binary runs it.
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Io } from '../../src/cli/console.ts';
import { main } from '../../src/cli/main.ts';

async function run(...args: string[]) {
  const lines: string[] = [];
  const io: Io = { out: (l) => lines.push(l), err: (l) => lines.push(l), interactive: false };
  const code = await main(['node', 'conformance', ...args], io);
  return { code, out: lines.join('\n') };
}

const dir = () => mkdtempSync(join(tmpdir(), 'conformance-reports-'));
const statuses = (file: string) => {
  const report = JSON.parse(readFileSync(file, 'utf8'));
  return Object.fromEntries(report.targets.flatMap((t: any) => t.results.map((r: any) => [`${t.name} ${r.check.id}`, r.status])));
};

describe('baseline', () => {
  it('gates on new failures only and names listed checks that now pass', async () => {
    const d = dir();
    const failing = await run('--target', 'wire-ref', '--fault', 'batch-1000', '--out', join(d, 'a'), '--seed', '1');
    expect(failing.code).toBe(1);
    const base = join(d, 'known.txt');
    const wrote = await run('baseline', '--from', join(d, 'a', 'conformance.json'), '--output', base);
    // batch-1000 breaks every check on batch sizes (the protocol layer's and the term catalogue's).
    const listed = JSON.parse(readFileSync(join(d, 'a', 'conformance.json'), 'utf8')).totals.failed;
    expect(listed).toBeGreaterThan(0);
    expect(wrote.out).toContain(`${listed} known failing checks`);
    expect(readFileSync(base, 'utf8')).toContain('wire-ref wire.limits.batches-under-1000');

    const known = await run('--target', 'wire-ref', '--fault', 'batch-1000', '--baseline', base, '--out', join(d, 'b'));
    expect(known.code, known.out).toBe(0);
    expect(known.out).toContain(`${listed} known failures, 0 new`);

    const fixed = await run('--target', 'wire-ref', '--baseline', base, '--out', join(d, 'c'));
    expect(fixed.code).toBe(0);
    expect(fixed.out).toContain(`now passing, remove from ${base}: `);
    expect(fixed.out).toContain('wire-ref wire.limits.batches-under-1000');

    const worse = await run('--target', 'wire-ref', '--fault', 'batch-1000', 'lenient-add', '--baseline', base, '--out', join(d, 'e'));
    expect(worse.code).toBe(1);
    expect(worse.out).toContain('wire-ref wire.response-message.add-booleans-runtime-error');
  });

  it('a baseline file that cannot be read is a usage error', async () => {
    const r = await run('--target', 'wire-ref', '--baseline', '/nonexistent/known.txt');
    expect(r.code).toBe(2);
    expect(r.out).toBe('conformance: /nonexistent/known.txt: cannot read the baseline (ENOENT)');
  });
});

describe('shards and merge', () => {
  it('the merge of 4 shards equals the run that was not sharded', async () => {
    const d = dir();
    const refs = ['--target', 'wire-ref', 'cloud-ref', 'build-ref'];
    expect((await run(...refs, '--out', join(d, 'whole'), '--seed', '3')).code).toBe(0);
    const shards: string[] = [];
    for (let i = 1; i <= 4; i++) {
      const r = await run(...refs, '--shard', `${i}/4`, '--out', join(d, `shard-${i}`), '--seed', '3');
      expect(r.code, r.out).toBe(0);
      shards.push(join(d, `shard-${i}`, 'conformance.json'));
    }
    const sizes = shards.map((f) => Object.keys(statuses(f)).length);
    expect(Math.max(...sizes) - Math.min(...sizes)).toBeLessThanOrEqual(3);
    const merged = await run('merge', ...shards, '--out', join(d, 'merged'));
    expect(merged.code, merged.out).toBe(0);
    expect(statuses(join(d, 'merged', 'conformance.json'))).toEqual(statuses(join(d, 'whole', 'conformance.json')));
    for (const f of ['wire-ref.junit.xml', 'cloud-ref.junit.xml', 'build-ref.junit.xml', 'conformance.html']) readFileSync(join(d, 'merged', f));
  }, 60_000);

  it('a sharded baseline gate: shards and their merge pass on known failures, fail on a new one; known failures are skipped in JUnit', async () => {
    const d = dir();
    const gate = ['--target', 'wire-ref', '--only', 'wire.limits.*', 'wire.errors.*', '--seed', '5'];
    expect((await run(...gate, '--fault', 'batch-1000', '--out', join(d, 'full'))).code).toBe(1);
    const base = join(d, 'known.txt');
    await run('baseline', '--from', join(d, 'full', 'conformance.json'), '--output', base);
    const shard = async (i: number, faults: string[]) => {
      const r = await run(...gate, '--fault', ...faults, '--baseline', base, '--shard', `${i}/2`, '--out', join(d, `s${i}`));
      return [r.code, join(d, `s${i}`, 'conformance.json')] as const;
    };
    const [c1, f1] = await shard(1, ['batch-1000']);
    const [c2, f2] = await shard(2, ['batch-1000']);
    expect([c1, c2]).toEqual([0, 0]);
    const merged = await run('merge', f1, f2, '--out', join(d, 'merged'), '--reporter', 'junit,json');
    expect(merged.code, merged.out).toBe(0);
    expect(merged.out).toMatch(/baseline .*known\.txt: [1-9]\d* known failures, 0 new/);
    const junit = readFileSync(join(d, 'merged', 'wire-ref.junit.xml'), 'utf8');
    expect(junit).not.toContain('<failure');
    expect(junit).toContain('message="known failed (baseline');
    // A new failure fails the merge although the shards carry the baseline.
    const [, f1b] = await shard(1, ['batch-1000', 'backtrace-reversed']);
    const [, f2b] = await shard(2, ['batch-1000', 'backtrace-reversed']);
    const worse = await run('merge', f1b, f2b, '--out', join(d, 'merged-worse'));
    expect(worse.code, worse.out).toBe(1);
    expect(JSON.parse(readFileSync(join(d, 'merged-worse', 'conformance.json'), 'utf8')).baseline.newFailures.length).toBeGreaterThan(0);
  }, 60_000);

  it('merge refuses a shard given twice, a missing shard (unless --partial) and conflicting results', async () => {
    const d = dir();
    const one = ['--target', 'wire-ref', '--only', 'wire.limits.*', '--seed', '9'];
    await run(...one, '--shard', '1/2', '--out', join(d, 'a'));
    await run(...one, '--shard', '2/2', '--out', join(d, 'b'));
    const a = join(d, 'a', 'conformance.json');
    const b = join(d, 'b', 'conformance.json');
    const twice = await run('merge', a, a, '--out', join(d, 'm1'));
    expect([twice.code, twice.out]).toEqual([2, `conformance: shard 1/2 is given twice: ${a} and ${a}`]);
    const missing = await run('merge', a, '--out', join(d, 'm2'));
    expect([missing.code, missing.out]).toEqual([2, 'conformance: shard 2/2 missing (--partial merges what is there)']);
    expect((await run('merge', a, '--partial', '--out', join(d, 'm3'))).code).toBe(0);
    await run(...one, '--out', join(d, 'clean'));
    await run(...one, '--fault', 'batch-1000', '--out', join(d, 'faulty'));
    const conflict = await run('merge', join(d, 'clean', 'conformance.json'), join(d, 'faulty', 'conformance.json'), '--out', join(d, 'm4'));
    expect(conflict.code).toBe(2);
    expect(conflict.out).toMatch(/^conformance: conflicting results for wire-ref wire\.limits\.[a-z0-9.-]+: passed in .*clean.*, failed in .*faulty/);
  }, 60_000);

  it('rejects a malformed --shard', async () => {
    expect((await run('--shard', '5/4')).code).toBe(2);
  });
});

describe('diff', () => {
  it('lists fixed and regressed checks; a regression exits 1', async () => {
    const d = dir();
    await run('--target', 'wire-ref', '--fault', 'batch-1000', '--out', join(d, 'old'));
    await run('--target', 'wire-ref', '--out', join(d, 'new'));
    const better = await run('diff', join(d, 'old', 'conformance.json'), join(d, 'new', 'conformance.json'));
    expect(better.code).toBe(0);
    expect(better.out).toContain('FIXED      wire-ref wire.limits.batches-under-1000: failed -> passed');
    const worse = await run('diff', join(d, 'new', 'conformance.json'), join(d, 'old', 'conformance.json'));
    expect(worse.code).toBe(1);
    expect(worse.out).toContain('REGRESSED  wire-ref wire.limits.batches-under-1000: passed -> failed');
  });

  it('a file that is not a report is a usage error', async () => {
    const d = dir();
    writeFileSync(join(d, 'x.json'), '{"hello": 1}');
    const r = await run('diff', join(d, 'x.json'), join(d, 'x.json'));
    expect(r.code).toBe(2);
    expect(r.out).toContain('not a conformance JSON report');
  });
});
