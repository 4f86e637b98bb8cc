// The stateful CLOUD kind http-json-sequence: chains on OAuth clients it creates (create -> read ->
// update -> delete -> read 404, ids never created -> 404, a refused create leaves nothing), opt-in
// and only with allow: ['destructive']; the clean cloud-ref passes, a fault of the lifecycle class
// is found, and its finding replays the whole chain.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readFinding } from '../../fuzz/core/findings.ts';
import { selectKinds } from '../../fuzz/core/registry.ts';
import { replayFinding } from '../../fuzz/replay.ts';
import { runFuzz } from '../../fuzz/run.ts';
import { UsageError } from '../../src/core/errors.ts';

const cloud = { protocol: 'cloud', embedded: true } as const;
const run = (faults: string[], runs: number, target: typeof cloud | (typeof cloud & { allow: [] }) = cloud) =>
  runFuzz({ targetName: 'cloud-ref', target, faults, kinds: ['http-json-sequence'], seed: 5, runs, concurrency: 2, outDir: mkdtempSync(join(tmpdir(), 'conformance-seq-')), caseTimeoutMs: 400, shrinkMs: 1000 });

describe('http-json-sequence', () => {
  it('is opt-in: not among the CLOUD kinds a campaign runs by default', () => {
    expect(selectKinds('cloud').map((k) => k.name)).toEqual(['http-json']);
    expect(selectKinds('cloud', ['http-json-sequence']).map((k) => k.name)).toEqual(['http-json-sequence']);
  });

  it('the clean cloud-ref passes 300 chains of every checker, and no client is left behind', async () => {
    const r = await run([], 300);
    expect(r.findingFiles.map((f) => `${f.finding.bucket}: ${f.finding.message}`)).toEqual([]);
    expect(r.coverage.casesPastGates).toBe(300);
    expect(r.scratch.left).toEqual([]);
  }, 60_000);

  it('refused on a target without allow: destructive', async () => {
    await expect(run([], 10, { ...cloud, allow: [] })).rejects.toBeInstanceOf(UsageError);
  });

  it('a deleted client still readable is found; its finding holds the chain up to the failing step and replays', async () => {
    const r = await run(['fuzz-deleted-client-readable'], 100);
    expect(r.findingFiles.map((f) => f.finding.bucket)).toEqual(['sequence-deleted-gone|GET after DELETE -> 200']);
    const f = await readFinding(r.findingFiles[0].path);
    const steps = (f.received as { steps: { method: string; status: number }[] }).steps;
    // The shortest failing prefix: create, read, update, read, delete, read (no second delete).
    expect(steps.map((s) => `${s.method} ${s.status}`)).toEqual(['POST 200', 'GET 200', 'PUT 200', 'GET 200', 'DELETE 200', 'GET 200']);
    expect((await replayFinding(f, 'cloud-ref', cloud, { faults: ['fuzz-deleted-client-readable'] })).sameOracle).toBe(true);
    expect((await replayFinding(f, 'cloud-ref', cloud, { faults: [] })).outcome.violations).toEqual([]);
  }, 60_000);
});
