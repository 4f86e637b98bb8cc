// The JSON report of a campaign (`<out>/fuzz.json`): what ran, how it stopped, and every finding
// inline, so that `conformance merge` can combine the shards of a campaign run on many machines
// into one set of buckets without reaching for their finding files.
import { readFile } from 'node:fs/promises';
import { readJsonFile } from '../../src/reports/read.ts';
import { join } from 'node:path';
import { UsageError } from '../../src/core/errors.ts';
import { writeFileAtomic } from '../../src/reports/write.ts';
import { writeFinding, type Finding } from './findings.ts';
import { renderFuzzJUnit } from './junit.ts';
import type { Coverage } from './campaign.ts';

export const FUZZ_REPORT_FORMAT = 'conformance-fuzz/1';

export interface FuzzReport {
  format: typeof FUZZ_REPORT_FORMAT;
  tool: Finding['tool'];
  target: Finding['target'];
  kinds: string[];
  seed: number;
  /** The campaign's case budget (all shards together); absent for a campaign bounded by time. */
  runs?: number;
  /** Shards this report covers: one for a shard's own report, all of them after a merge. */
  shards: { index: number; count: number }[];
  cases: number;
  durationMs: number;
  startedAt: string;
  stopReason: string;
  /** Times an embedded target was started anew after it died. */
  restarts?: number;
  /** Times a target the tool cannot restart was found dead. */
  recoveryAttempts?: number;
  /** What the cases reached: answers by status or response type, routes or terms, cases past the gates. */
  coverage?: Coverage;
  findings: Finding[];
}

/**
 * Why a campaign tested nothing, or undefined: it counted cases, and none reached the server's
 * logic (no route answered other than not-found, 405, a gateway or an authentication refusal; no
 * WIRE term of a query answered with a success type). Reports written before `casesReached`
 * existed are judged by the cases past authentication and rate limits.
 */
export function noCoverageReason(report: Pick<FuzzReport, 'coverage' | 'cases'>): string | undefined {
  const c = report.coverage;
  if (!c || !report.cases || !c.casesCounted) return undefined;
  const answers = Object.entries(c.answers).slice(0, 5).map(([a, n]) => `${a} x${n}`).join(', ');
  if (c.casesReached === undefined) {
    if (c.casesPastGates > 0) return undefined;
    return `no case reached the server's logic: none of ${c.casesCounted} case(s) got an answer from past authentication and rate limits (answers: ${answers || 'none'})`;
  }
  if (c.casesReached > 0) return undefined;
  const gates = c.casesPastGates > 0 ? `${c.casesPastGates} got past authentication and rate limits, but ` : '';
  return `no case reached the server's logic: of ${c.casesCounted} case(s), ${gates}none was answered other than not-found, unknown route, 405, a gateway (502-504) or an authentication refusal (401, 403), or, for WIRE, with a success type for any query (answers: ${answers || 'none'})`;
}

function mergeCoverage(all: (Coverage | undefined)[]): Coverage | undefined {
  const present = all.filter((c): c is Coverage => c !== undefined);
  if (!present.length) return undefined;
  const add = (key: 'answers' | 'reached') => {
    const m = new Map<string, number>();
    for (const c of present) for (const [k, n] of Object.entries(c[key])) m.set(k, (m.get(k) ?? 0) + n);
    return Object.fromEntries([...m].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1)));
  };
  return { answers: add('answers'), reached: add('reached'), ...(present.every((c) => c.casesReached !== undefined) ? { casesReached: present.reduce((n, c) => n + (c.casesReached ?? 0), 0) } : {}), casesPastGates: present.reduce((n, c) => n + c.casesPastGates, 0), casesCounted: present.reduce((n, c) => n + c.casesCounted, 0) };
}

export function isFuzzReport(data: unknown): data is FuzzReport {
  return (data as Partial<FuzzReport>)?.format === FUZZ_REPORT_FORMAT;
}

/** Is this file a fuzz report? Unreadable files are left to the run-report reader's message. */
export async function isFuzzReportFile(file: string): Promise<boolean> {
  try {
    return isFuzzReport(JSON.parse(await readFile(file, 'utf8')));
  } catch {
    return false;
  }
}

export async function readFuzzReport(file: string): Promise<FuzzReport> {
  const data = await readJsonFile(file, 'JSON report');
  if (!isFuzzReport(data)) throw new UsageError(`${file}: not a fuzz report of format ${FUZZ_REPORT_FORMAT}`);
  return data;
}

/**
 * One campaign from its shards: cases and findings added up, each bucket (oracle + signature)
 * once. Two shards that found the same bug keep one finding, preferring a shrunk one, then the
 * smaller case; its hits are the sum of both.
 */
export function mergeFuzzReports(reports: readonly FuzzReport[]): FuzzReport {
  if (!reports.length) throw new UsageError('merge needs at least one report');
  const first = reports[0];
  const other = reports.find((r) => r.target.name !== first.target.name || r.seed !== first.seed);
  if (other) throw new UsageError(`fuzz reports of different campaigns cannot be merged (${first.target.name} seed ${first.seed} vs ${other.target.name} seed ${other.seed})`);
  const buckets = new Map<string, Finding>();
  for (const f of reports.flatMap((r) => r.findings)) {
    const prev = buckets.get(f.bucket);
    if (!prev) {
      buckets.set(f.bucket, { ...f });
      continue;
    }
    const better = preferred(f, prev) ? { ...f } : prev;
    better.hits = prev.hits + f.hits;
    buckets.set(f.bucket, better);
  }
  const stops = [...new Set(reports.map((r) => r.stopReason))];
  return {
    ...first,
    kinds: [...new Set(reports.flatMap((r) => r.kinds))],
    shards: reports.flatMap((r) => r.shards).sort((a, b) => a.index - b.index),
    cases: reports.reduce((n, r) => n + r.cases, 0),
    // Shards run side by side: the campaign took as long as its slowest shard.
    durationMs: reports.reduce((max, r) => Math.max(max, r.durationMs), 0),
    startedAt: reports.map((r) => r.startedAt).sort()[0],
    stopReason: stops.join(', '),
    restarts: reports.reduce((n, r) => n + (r.restarts ?? 0), 0),
    recoveryAttempts: reports.reduce((n, r) => n + (r.recoveryAttempts ?? 0), 0),
    coverage: mergeCoverage(reports.map((r) => r.coverage)),
    findings: [...buckets.values()].sort((a, b) => (a.bucket < b.bucket ? -1 : a.bucket > b.bucket ? 1 : 0)),
  };
}

function preferred(a: Finding, b: Finding): boolean {
  if (a.shrunk !== b.shrunk) return a.shrunk;
  return JSON.stringify(a.case).length < JSON.stringify(b.case).length;
}

/** Writes a campaign's outputs under `outDir`: one finding file per bucket, fuzz.junit.xml, fuzz.json. */
export async function writeFuzzOutputs(outDir: string, report: FuzzReport): Promise<{ junitPath: string; jsonPath: string; findingFiles: { finding: Finding; path: string }[] }> {
  const findingFiles: { finding: Finding; path: string }[] = [];
  for (const finding of report.findings) findingFiles.push({ finding, path: await writeFinding(outDir, finding) });
  const junitPath = join(outDir, 'fuzz.junit.xml');
  await writeFileAtomic(
    junitPath,
    renderFuzzJUnit({ target: report.target.name, kinds: report.kinds, seed: report.seed, cases: report.cases, durationMs: report.durationMs, startedAt: report.startedAt, noCoverage: noCoverageReason(report) }, findingFiles),
  );
  const jsonPath = join(outDir, 'fuzz.json');
  await writeFileAtomic(jsonPath, `${JSON.stringify(report, null, 2)}\n`);
  return { junitPath, jsonPath, findingFiles };
}
