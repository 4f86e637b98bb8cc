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
  findings: Finding[];
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
    durationMs: Math.max(...reports.map((r) => r.durationMs)),
    startedAt: reports.map((r) => r.startedAt).sort()[0],
    stopReason: stops.join(', '),
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
    renderFuzzJUnit({ target: report.target.name, kinds: report.kinds, seed: report.seed, cases: report.cases, durationMs: report.durationMs, startedAt: report.startedAt }, findingFiles),
  );
  const jsonPath = join(outDir, 'fuzz.json');
  await writeFileAtomic(jsonPath, `${JSON.stringify(report, null, 2)}\n`);
  return { junitPath, jsonPath, findingFiles };
}
