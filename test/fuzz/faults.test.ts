// Each fuzz fault of wire-ref (WIRE_FUZZ_FAULTS) is found by a fixed-seed campaign within a
// bounded number of runs, and shrunk; the clean wire-ref gives no finding over a few thousand cases.
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runFuzz } from '../../fuzz/run.ts';
import { WIRE_FUZZ_FAULTS } from '../../targets/wire/faults.ts';

const target = { protocol: 'wire', embedded: true, authKey: '' } as const;

function campaign(faults: string[], kinds: string[] | undefined, runs: number, seed = 7) {
  const outDir = mkdtempSync(join(tmpdir(), 'conformance-fuzz-'));
  return runFuzz({ targetName: 'wire-ref', target, faults, kinds, seed, runs, concurrency: 2, outDir, caseTimeoutMs: 250, shrinkMs: 1500 });
}

// fault -> the kind that reaches it, the runs within which the seed (7 unless given) finds it, the
// oracle it breaks; null: the fault breaks no rule the fuzzer holds the target to.
const CASES: Record<keyof typeof WIRE_FUZZ_FAULTS, { kind: string; runs: number; oracle: string | null; seed?: number }> = {
  'crash-on-deep-nesting': { kind: 'wire-protobuf', runs: 300, oracle: 'one-response-per-query' },
  // A zero-length frame is owed nothing (no rule states an answer to a Query of no type), but the
  // connection then answers nothing more: a hang, robustness.
  'hang-on-empty-frame': { kind: 'wire-bytes', runs: 60, oracle: 'no-hang' },
  'oversized-batch-on-limit-0': { kind: 'wire-protobuf', runs: 1000, oracle: 'batch-under-1000', seed: 5 },
  'two-strings-for-rare-term': { kind: 'wire-protobuf', runs: 500, oracle: 'error-one-r-str' },
  // After a magic outside the five of line 109 the document owes nothing (no handshake it
  // describes): silence there is no finding, and the server still serves fresh connections.
  'silent-on-unknown-magic': { kind: 'wire-handshake', runs: 20, oracle: null },
};

describe('fuzz campaigns against wire-ref', () => {
  it('every fuzz fault has a test here', () => {
    expect(Object.keys(CASES).sort()).toEqual(Object.keys(WIRE_FUZZ_FAULTS).sort());
  });

  for (const [fault, { kind, runs, oracle, seed = 7 }] of Object.entries(CASES)) {
    it(`${oracle ? 'finds and shrinks' : 'finds nothing for'} ${fault} within ${runs} ${kind} runs (seed ${seed})`, async () => {
      const r = await campaign([fault], [kind], runs, seed);
      if (oracle === null) {
        expect(r.findingFiles.map((f) => f.finding.bucket)).toEqual([]);
        return;
      }
      const found = r.findingFiles.find((f) => f.finding.oracle === oracle);
      expect(found, `findings: ${r.findingFiles.map((f) => f.finding.bucket).join('; ')}`).toBeDefined();
      const f = found!.finding;
      expect(f.shrunk).toBe(true);
      expect(f.path).toMatch(/^\d+(:\d+)*$/);
      expect(f.target.faults).toEqual([fault]);
      // The file on disk is the finding, with the exact bytes as hex.
      const onDisk = JSON.parse(readFileSync(found!.path, 'utf8'));
      expect(onDisk.case.writes.every((w: string) => /^[0-9a-f]*$/.test(w))).toBe(true);
      expect(readFileSync(r.junitPath, 'utf8')).toContain(`${f.oracle} [${f.signature}]`);
    });
  }

  it('the clean wire-ref gives no finding over 3000 cases of every kind (seed 42)', async () => {
    const r = await campaign([], undefined, 3000, 42);
    expect(r.cases).toBe(3000);
    expect(r.findingFiles.map((f) => `${f.finding.bucket}: ${f.finding.message}`)).toEqual([]);
    expect(r.kinds).toEqual(['wire-protobuf', 'wire-bytes', 'wire-handshake']);
  });
});
