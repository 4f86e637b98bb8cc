// HTTP fuzzing against the embedded cloud-ref and build-ref: the clean references give no finding
// over a fixed-seed campaign; each HTTP fuzz fault (targets/http-fuzz-faults.ts) is found, as the
// oracle it breaks, within a bounded number of runs; a finding replays against the faulty
// reference and passes against the clean one; findings are shrunk; no configured secret reaches a finding file.
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readFinding } from '../../fuzz/core/findings.ts';
import { replayFinding } from '../../fuzz/replay.ts';
import { runFuzz } from '../../fuzz/run.ts';
import { BUILD_FUZZ_FAULTS, CLOUD_FUZZ_FAULTS } from '../../targets/http-fuzz-faults.ts';

const targets = { cloud: { protocol: 'cloud', embedded: true }, build: { protocol: 'build', embedded: true } } as const;

function campaign(protocol: 'cloud' | 'build', faults: string[], runs: number, seed = 7, shrinkMs = 1500, sequential = false, kinds?: string[]) {
  const outDir = mkdtempSync(join(tmpdir(), 'conformance-http-fuzz-'));
  const lanes = sequential ? { concurrency: 1, window: 1 } : { concurrency: 2 };
  return runFuzz({ targetName: `${protocol}-ref`, target: targets[protocol], faults, kinds, seed, runs, ...lanes, outDir, caseTimeoutMs: 400, shrinkMs });
}

// fault -> its reference, the runs within which seed 7 finds it, the oracle it breaks (and the
// shrink time: every candidate that crashes build-ref costs a restart of its worker). A fault that
// kills the server runs one case at a time: with cases in flight beside it, each crash cuts the
// others' exchanges, and which shrink candidates still fail the same way would be timing.
// A fault of the stateful kind (opt-in) names it, and its finding holds the chain's steps.
const CASES: Record<string, { protocol: 'cloud' | 'build'; runs: number; oracle: string; shrinkMs?: number; sequential?: boolean; kinds?: string[]; holds?: string }> = {
  'fuzz-500-on-huge-page-size': { protocol: 'cloud', runs: 600, oracle: 'no-5xx' },
  'fuzz-refusal-without-error-body': { protocol: 'cloud', runs: 600, oracle: 'error-body' },
  'fuzz-hang-on-astral-char': { protocol: 'cloud', runs: 600, oracle: 'no-hang' },
  'fuzz-deleted-client-readable': { protocol: 'cloud', runs: 100, oracle: 'sequence-deleted-gone', kinds: ['http-json-sequence'], holds: '"steps"' },
  'fuzz-cancelled-transfer-visible': { protocol: 'cloud', runs: 200, oracle: 'sequence-other-account', kinds: ['http-json-sequence'], holds: '"steps"' },
  'fuzz-unknown-transfer-found': { protocol: 'cloud', runs: 200, oracle: 'sequence-unknown-id-404', kinds: ['http-json-sequence'], holds: '"steps"' },
  'fuzz-refused-user-kept': { protocol: 'cloud', runs: 200, oracle: 'sequence-refused-create', kinds: ['http-json-sequence'], holds: '"steps"' },
  'fuzz-500-on-deep-xml': { protocol: 'build', runs: 300, oracle: 'no-5xx' },
  'fuzz-dies-on-doctype': { protocol: 'build', runs: 60, oracle: 'liveness', shrinkMs: 8000, sequential: true },
  'fuzz-deleted-package-readable': { protocol: 'build', runs: 200, oracle: 'sequence-deleted-gone', kinds: ['http-xml-sequence'], holds: '"steps"' },
  'fuzz-unknown-project-readable': { protocol: 'build', runs: 200, oracle: 'sequence-unknown-id-404', kinds: ['http-xml-sequence'], holds: '"steps"' },
  'fuzz-refused-package-listed': { protocol: 'build', runs: 200, oracle: 'sequence-refused-create', kinds: ['http-xml-sequence'], holds: '"steps"' },
};

describe('HTTP fuzz campaigns', () => {
  it('every HTTP fuzz fault has a case here', () => {
    expect(Object.keys(CASES).sort()).toEqual([...Object.keys(CLOUD_FUZZ_FAULTS), ...Object.keys(BUILD_FUZZ_FAULTS)].sort());
  });

  it.each([
    ['cloud', 2000],
    ['build', 1000],
  ] as const)('the clean %s-ref gives no finding over %i cases (seed 42)', async (protocol, runs) => {
    const r = await campaign(protocol, [], runs, 42);
    expect(r.cases).toBe(runs);
    expect(r.findingFiles.map((f) => `${f.finding.bucket}: ${f.finding.message}`)).toEqual([]);
  }, 60_000);

  for (const [fault, { protocol, runs, oracle, shrinkMs, sequential, kinds, holds = '"request"' }] of Object.entries(CASES)) {
    it(`finds and shrinks ${fault} (${oracle}) within ${runs} runs`, async () => {
      const r = await campaign(protocol, [fault], runs, 7, shrinkMs, sequential, kinds);
      const found = r.findingFiles.find((f) => f.finding.violations.some((v) => v.oracle === oracle));
      expect(found, `findings: ${r.findingFiles.map((f) => f.finding.bucket).join('; ')}`).toBeDefined();
      expect(found!.finding.shrunk, 'the finding is shrunk by fast-check').toBe(true);
      const text = readFileSync(found!.path, 'utf8');
      expect(text).toContain(holds);
      expect(text).not.toMatch(/Bearer [0-9a-f]{8}|Basic [A-Za-z0-9+/=]{12}/);
    }, 60_000);
  }

  it('a finding replays: still failing with the fault, passing without it', async () => {
    const r = await campaign('cloud', ['fuzz-500-on-huge-page-size'], 600);
    const f = await readFinding(r.findingFiles.find((x) => x.finding.oracle === 'no-5xx')!.path);
    const again = await replayFinding(f, 'cloud-ref', targets.cloud, { faults: ['fuzz-500-on-huge-page-size'] });
    expect(again.sameOracle).toBe(true);
    const clean = await replayFinding(f, 'cloud-ref', targets.cloud, { faults: [] });
    expect(clean.outcome.violations).toEqual([]);
  }, 60_000);
});
