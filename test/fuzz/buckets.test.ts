// Buckets by root cause: with every fuzz-only fault of a reference injected together, a
// fixed-seed campaign gives one bucket per fault (the bucket says what the server did wrong, not
// which queries or routes were around it), and each bucket keeps the variety of its hits as
// examples. The response-type oracle catches the two mismatches the suite's checks catch.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readFinding } from '../../fuzz/core/findings.ts';
import { replayFinding } from '../../fuzz/replay.ts';
import { runFuzz } from '../../fuzz/run.ts';
import { WIRE_FUZZ_FAULTS } from '../../targets/wire/faults.ts';
import { BUILD_FUZZ_FAULTS, CLOUD_FUZZ_FAULTS } from '../../targets/http-fuzz-faults.ts';
import type { TargetConfig } from '../../src/config/types.ts';

const TARGETS: Record<string, TargetConfig> = {
  'wire-ref': { protocol: 'wire', embedded: true, authKey: '' },
  'cloud-ref': { protocol: 'cloud', embedded: true },
  'build-ref': { protocol: 'build', embedded: true },
};

/** `sequential`: one case at a time, for faults that kill the server (cases in flight beside a crash are cut, which is timing). */
function campaign(targetName: string, faults: string[], runs: number, seed: number, kinds?: string[], sequential = false) {
  const outDir = mkdtempSync(join(tmpdir(), 'conformance-buckets-'));
  const lanes = sequential ? { concurrency: 1, window: 1, caseTimeoutMs: 1000 } : { concurrency: 2, caseTimeoutMs: 300 };
  return runFuzz({ targetName, target: TARGETS[targetName], faults, kinds, seed, runs, ...lanes, outDir, shrinkMs: 1000 });
}

const buckets = (r: Awaited<ReturnType<typeof campaign>>) => r.findingFiles.map((f) => f.finding.bucket).sort();

describe('one bucket per injected fault', () => {
  it('wire-ref: the five WIRE fuzz faults together, 2000 cases (seed 20): four buckets', async () => {
    const r = await campaign('wire-ref', Object.keys(WIRE_FUZZ_FAULTS), 2000, 20);
    // crash-on-deep-nesting, two-strings-for-rare-term, oversized-batch-on-limit-0,
    // hang-on-empty-frame (a hang: robustness): in that order. silent-on-unknown-magic is none:
    // after a magic outside the five of line 109 the document owes nothing.
    expect(buckets(r)).toEqual(
      [
        'one-response-per-query|unanswered:closed',
        'error-one-r-str|[R_STR,R_STR]',
        'batch-under-1000|1000+',
        'no-hang|connection',
      ].sort(),
    );
    expect(r.findingFiles.find((f) => f.finding.bucket === 'no-hang|connection')!.finding.rule?.class).toBe('robustness');
    expect(r.findingFiles.find((f) => f.finding.bucket === 'error-one-r-str|[R_STR,R_STR]')!.finding.rule).toMatchObject({ class: 'document', level: 'MUST', spec: { file: 'wire-protocol.md', line: 176 } });
    // The variety stays inside the bucket: the crash's hits differ in the frames around the deep START.
    const crash = r.findingFiles.find((f) => f.finding.bucket === 'one-response-per-query|unanswered:closed')!.finding;
    expect(crash.hits).toBeGreaterThan(1);
    expect(crash.examples!.length).toBeGreaterThan(1);
    expect(crash.examples!.length).toBeLessThanOrEqual(20);
    expect(crash.examples!.reduce((n, e) => n + e.hits, 0)).toBeLessThanOrEqual(crash.hits);
  }, 60_000);

  it('cloud-ref: its seven fuzz faults together, 1500 cases of http-json and the stateful kind (seed 7): eight buckets (one fault breaks two rules), routes as examples', async () => {
    const r = await campaign('cloud-ref', Object.keys(CLOUD_FUZZ_FAULTS), 1500, 7, ['http-json', 'http-json-sequence']);
    // fuzz-refusal-without-error-body answers 400 in plain text: two rules, two buckets (the error
    // body, line 219; a JSON body, line 9), as every violation of a case is recorded.
    expect(buckets(r)).toEqual([
      'body|400 text/plain',
      'error-body|400',
      'no-5xx|500',
      'no-hang|timeout',
      'sequence-deleted-gone|GET after DELETE -> 200',
      'sequence-other-account|cancelled transfer read by another account -> 200',
      'sequence-refused-create|user create refused with 400 -> GET of it 200',
      'sequence-unknown-id-404|GET of a transfer never created -> 200',
    ]);
    const five = r.findingFiles.find((f) => f.finding.oracle === 'no-5xx')!.finding;
    // One bug behind many list routes: one bucket, the routes its examples.
    expect(new Set(five.examples!.map((e) => e.detail)).size).toBeGreaterThan(1);
    expect(five.examples!.every((e) => /^GET \//.test(e.detail))).toBe(true);
  }, 60_000);

  it('build-ref: its five fuzz faults together, 256 chains of http-xml-sequence then 80 cases of http-xml (seed 2): five buckets', async () => {
    // Kinds take turns by chunk of 256 cases: chunk 0 holds the chains, chunk 1 the http-xml cases.
    const r = await campaign('build-ref', Object.keys(BUILD_FUZZ_FAULTS), 256 + 80, 2, ['http-xml-sequence', 'http-xml'], true);
    expect(Object.keys(BUILD_FUZZ_FAULTS)).toHaveLength(5);
    expect(r.findingFiles.map((f) => `${f.finding.kind}: ${f.finding.bucket}`).sort()).toEqual([
      'http-xml-sequence: sequence-deleted-gone|GET _meta after DELETE -> 200',
      'http-xml-sequence: sequence-refused-create|package create refused -> listed',
      'http-xml-sequence: sequence-unknown-id-404|GET _meta of a project never created -> 200',
      'http-xml: liveness|dead',
      'http-xml: no-5xx|500',
    ]);
    // The killing case is named: the finding of the dead server holds a DOCTYPE.
    const dead = r.findingFiles.find((f) => f.finding.bucket === 'liveness|dead')!.finding;
    expect(JSON.stringify(dead.case)).toMatch(/DOCTYPE/i);
    expect(dead.sequence).toBeUndefined();
    expect(r.restarts).toBeGreaterThan(0);
    expect(r.recoveryAttempts).toBe(0);
    // It replays: it kills a fresh build-ref with the fault, and not the clean one.
    const file = r.findingFiles.find((f) => f.finding.bucket === 'liveness|dead')!.path;
    const finding = await readFinding(file);
    expect((await replayFinding(finding, 'build-ref', TARGETS['build-ref'], { faults: ['fuzz-dies-on-doctype'], timeoutMs: 1000 })).sameOracle).toBe(true);
    expect((await replayFinding(finding, 'build-ref', TARGETS['build-ref'], { faults: [], timeoutMs: 1000 })).outcome.violations).toEqual([]);
    // 44 restarts of build-ref's worker: over a minute on a loaded machine, before and after issue 34.
  }, 150_000);
});

describe('the response type fits the query type (wire-protocol.md, Query operations)', () => {
  it('NOREPLY_WAIT answered SUCCESS_ATOM is a finding (fault noreply-wait-wrong-type)', async () => {
    const r = await campaign('wire-ref', ['noreply-wait-wrong-type'], 600, 1, ['wire-protobuf']);
    expect(buckets(r)).toEqual(['response-type-fits-query|NOREPLY_WAIT->SUCCESS_ATOM']);
  }, 30_000);

  it('CONTINUE of an unknown token answered RUNTIME_ERROR is a finding (fault unknown-token-runtime-error)', async () => {
    const r = await campaign('wire-ref', ['unknown-token-runtime-error'], 600, 1, ['wire-protobuf']);
    expect(buckets(r)).toEqual(['response-type-fits-query|CONTINUE of an unknown token->RUNTIME_ERROR']);
  }, 30_000);
});

describe('coverage in every campaign', () => {
  it('wire-ref: response types, terms reached and cases past the handshake', async () => {
    const r = await campaign('wire-ref', [], 300, 3);
    expect(r.coverage.casesCounted).toBe(300);
    expect(r.coverage.casesPastGates).toBeGreaterThan(200);
    expect(Object.keys(r.coverage.answers)).toEqual(expect.arrayContaining(['SUCCESS_ATOM', 'CLIENT_ERROR']));
    // A term is reached only by a START answered with a success type: random term trees mostly
    // fail to type-check, so 300 cases reach DATUM and the two queries answered with their own type.
    expect(r.coverage.casesReached).toBeGreaterThan(100);
    expect(Object.keys(r.coverage.reached)).toEqual(expect.arrayContaining(['DATUM', 'SERVER_INFO', 'NOREPLY_WAIT']));
  }, 30_000);

  it('cloud-ref: statuses and routes reached', async () => {
    const r = await campaign('cloud-ref', [], 300, 3);
    expect(r.coverage.casesPastGates).toBeGreaterThan(100);
    expect(Object.keys(r.coverage.answers)).toContain('200');
    expect(Object.keys(r.coverage.reached).some((k) => k.startsWith('GET /v4/'))).toBe(true);
  }, 30_000);
});
