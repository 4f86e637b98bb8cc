// The stateful kinds http-json-sequence (CLOUD: OAuth clients, users, service transfers) and
// http-xml-sequence (BUILD: packages and subprojects of the scratch project): opt-in, only with
// allow: ['destructive']; the clean references and their variants pass, a fuzz-only fault of each
// checker class is found in one bucket of its own, and a finding holds the chain up to the
// failing step and replays the whole chain.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readFinding } from '../../fuzz/core/findings.ts';
import { selectKinds } from '../../fuzz/core/registry.ts';
import { replayFinding } from '../../fuzz/replay.ts';
import { runFuzz } from '../../fuzz/run.ts';
import { UsageError } from '../../src/core/errors.ts';
import type { TargetConfig } from '../../src/config/types.ts';

const cloud = { protocol: 'cloud', embedded: true } as const;
const build = { protocol: 'build', embedded: true } as const;
const KIND = { cloud: 'http-json-sequence', build: 'http-xml-sequence' } as const;
const run = (target: TargetConfig & { protocol: 'cloud' | 'build' }, faults: string[], runs: number, seed = 5) =>
  runFuzz({ targetName: `${target.protocol}-ref`, target, faults, kinds: [KIND[target.protocol]], seed, runs, concurrency: 2, outDir: mkdtempSync(join(tmpdir(), 'conformance-seq-')), caseTimeoutMs: 400, shrinkMs: 1000 });
const buckets = (r: Awaited<ReturnType<typeof run>>) => r.findingFiles.map((f) => f.finding.bucket);
const shown = (r: Awaited<ReturnType<typeof run>>) => r.findingFiles.map((f) => `${f.finding.bucket}: ${f.finding.message}`);

describe('the stateful kinds', () => {
  it('are opt-in: not among the kinds a campaign runs by default', () => {
    expect(selectKinds('cloud').map((k) => k.name)).toEqual(['http-json']);
    expect(selectKinds('build').map((k) => k.name)).toEqual(['http-xml']);
    expect(selectKinds('cloud', ['http-json-sequence']).map((k) => k.name)).toEqual(['http-json-sequence']);
    expect(selectKinds('build', ['http-xml-sequence']).map((k) => k.name)).toEqual(['http-xml-sequence']);
  });

  it.each([cloud, build])('refused on a %o target without allow: destructive', async (target) => {
    await expect(run({ ...target, allow: [] }, [], 10)).rejects.toBeInstanceOf(UsageError);
  });

  // The clean references and their variants (which take every open choice the other way): nothing
  // found, every chain past the gates, nothing the chains created left behind.
  it.each([
    ['cloud-ref', cloud],
    ['cloud-variant', { ...cloud, variant: true }],
    ['build-ref', build],
    ['build-variant', { ...build, variant: true }],
  ] as const)('the clean %s passes 300 chains of every checker, and nothing is left behind', async (_name, target) => {
    const r = await run(target, [], 300);
    expect(shown(r)).toEqual([]);
    expect(r.coverage.casesPastGates).toBe(300);
    expect(r.scratch.left).toEqual([]);
  }, 60_000);
});

// One fuzz-only fault per checker class and reference (targets/http-fuzz-faults.ts): each found,
// in one bucket, within the runs given (seed 5).
const FAULTS: [string, TargetConfig & { protocol: 'cloud' | 'build' }, number, string][] = [
  ['fuzz-deleted-client-readable', cloud, 100, 'sequence-deleted-gone|GET after DELETE -> 200'],
  ['fuzz-unknown-transfer-found', cloud, 200, 'sequence-unknown-id-404|GET of a transfer never created -> 200'],
  ['fuzz-refused-user-kept', cloud, 200, 'sequence-refused-create|user create refused with 400 -> GET of it 200'],
  ['fuzz-cancelled-transfer-visible', cloud, 200, 'sequence-other-account|cancelled transfer read by another account -> 200'],
  ['fuzz-deleted-package-readable', build, 200, 'sequence-deleted-gone|GET _meta after DELETE -> 200'],
  ['fuzz-unknown-project-readable', build, 200, 'sequence-unknown-id-404|GET _meta of a project never created -> 200'],
  ['fuzz-refused-package-listed', build, 200, 'sequence-refused-create|package create refused -> listed'],
];

describe('a fault of each checker class, in one bucket', () => {
  it.each(FAULTS)('%s', async (fault, target, runs, bucket) => {
    const r = await run(target, [fault], runs);
    expect(buckets(r)).toEqual([bucket]);
  }, 60_000);

  it('a deleted client still readable: the finding holds the chain up to the failing step and replays', async () => {
    const r = await run(cloud, ['fuzz-deleted-client-readable'], 100);
    const f = await readFinding(r.findingFiles[0].path);
    const steps = (f.received as { steps: { method: string; status: number }[] }).steps;
    // The shortest failing prefix: create, read, update, read, delete, read (no second delete).
    expect(steps.map((s) => `${s.method} ${s.status}`)).toEqual(['POST 200', 'GET 200', 'PUT 200', 'GET 200', 'DELETE 200', 'GET 200']);
    expect((await replayFinding(f, 'cloud-ref', cloud, { faults: ['fuzz-deleted-client-readable'] })).sameOracle).toBe(true);
    expect((await replayFinding(f, 'cloud-ref', cloud, { faults: [] })).outcome.violations).toEqual([]);
  }, 60_000);

  it("a cancelled transfer shown to another account: the steps name the role, and the finding replays", async () => {
    const r = await run(cloud, ['fuzz-cancelled-transfer-visible'], 200);
    const f = await readFinding(r.findingFiles[0].path);
    const steps = (f.received as { steps: { method: string; status: number; role?: string }[] }).steps;
    expect(steps.map((s) => `${s.method} ${s.status}${s.role ? ` ${s.role}` : ''}`)).toEqual(['POST 200', 'GET 200 otherAccount', 'DELETE 403 otherAccount', 'GET 200', 'DELETE 200', 'GET 200 otherAccount']);
    expect((await replayFinding(f, 'cloud-ref', cloud, { faults: ['fuzz-cancelled-transfer-visible'] })).sameOracle).toBe(true);
    expect((await replayFinding(f, 'cloud-ref', cloud, { faults: [] })).outcome.violations).toEqual([]);
  }, 60_000);

  it('a deleted package still readable (BUILD): the finding replays', async () => {
    const r = await run(build, ['fuzz-deleted-package-readable'], 200);
    const f = await readFinding(r.findingFiles[0].path);
    const steps = (f.received as { steps: { method: string }[] }).steps;
    expect(steps.map((s) => s.method)).toEqual(['PUT', 'GET', 'DELETE', 'GET', 'GET']);
    expect((await replayFinding(f, 'build-ref', build, { faults: ['fuzz-deleted-package-readable'] })).sameOracle).toBe(true);
    expect((await replayFinding(f, 'build-ref', build, { faults: [] })).outcome.violations).toEqual([]);
  }, 60_000);
});
