// Combining shard reports into one, and comparing two runs.
import { readJsonFile } from './read.ts';
import { ConfigError } from '../core/errors.ts';
import { totalsOf, type CheckResult } from '../core/result.ts';
import { gates, runReport, type RunReport, type TargetReport } from './model.ts';

export async function readReport(file: string): Promise<RunReport> {
  const parsed = await readJsonFile(file, 'JSON report');
  const r = parsed as Partial<RunReport>;
  if (r?.schemaVersion !== 1 || !Array.isArray(r.targets)) throw new ConfigError(`${file}: not a conformance JSON report (schemaVersion 1)`);
  return r as RunReport;
}

/**
 * One report from shard reports: targets joined by name, each check once (a check reported by
 * two shards keeps its first result), results in check-id order so the merge of n shards reads
 * like the run that was not sharded.
 */
export function mergeReports(reports: readonly RunReport[]): RunReport {
  if (!reports.length) throw new ConfigError('merge needs at least one report');
  const targets = new Map<string, TargetReport>();
  for (const rep of reports) {
    for (const t of rep.targets) {
      const prev = targets.get(t.name);
      if (!prev) {
        targets.set(t.name, { ...t, results: [...t.results] });
        continue;
      }
      const seen = new Set(prev.results.map((r) => r.check.id));
      prev.results.push(...t.results.filter((r) => !seen.has(r.check.id)));
      prev.durationMs = Math.max(prev.durationMs, t.durationMs);
      if (t.status !== 'completed') prev.status = t.status;
      prev.error ??= t.error;
    }
  }
  const merged = [...targets.values()].map((t) => {
    const results = [...t.results].sort((a, b) => (a.check.id < b.check.id ? -1 : a.check.id > b.check.id ? 1 : 0));
    return { ...t, results, totals: totalsOf(results) };
  });
  const first = reports[0];
  const interrupted = reports.find((r) => r.interrupted)?.interrupted;
  return runReport({
    tool: first.tool,
    seed: first.seed,
    startedAt: reports.map((r) => r.startedAt).sort()[0],
    finishedAt: reports.map((r) => r.finishedAt).sort().at(-1)!,
    // Shards run side by side: the merged run took as long as its slowest shard.
    durationMs: Math.max(...reports.map((r) => r.durationMs)),
    filters: first.filters,
    interrupted,
    // A shard run with --strict gates its merge the same way.
    ...(reports.some((r) => r.strict) ? { strict: true } : {}),
    targets: merged,
  });
}

export interface RunDiff {
  regressed: { target: string; id: string; from: string; to: string; message?: string }[];
  fixed: { target: string; id: string; from: string }[];
  /** Checks that passed and are now inconclusive: their rule is no longer tested (not a regression). */
  unobserved: { target: string; id: string; message?: string }[];
  appeared: { target: string; id: string; status: string }[];
  disappeared: { target: string; id: string; status: string }[];
}

export function diffReports(older: RunReport, newer: RunReport): RunDiff {
  // What fails the newer run fails the comparison: failed, error, and inconclusive under --strict.
  const bad = (s: CheckResult['status']) => gates(s, newer.strict);
  const index = (rep: RunReport) => {
    const m = new Map<string, CheckResult & { target: string }>();
    for (const t of rep.targets) for (const r of t.results) m.set(`${t.name}\u0000${r.check.id}`, { ...r, target: t.name });
    return m;
  };
  const a = index(older);
  const b = index(newer);
  const out: RunDiff = { regressed: [], fixed: [], unobserved: [], appeared: [], disappeared: [] };
  for (const [key, r] of b) {
    const prev = a.get(key);
    if (!prev) out.appeared.push({ target: r.target, id: r.check.id, status: r.status });
    else if (bad(r.status) && !bad(prev.status)) out.regressed.push({ target: r.target, id: r.check.id, from: prev.status, to: r.status, message: r.message });
    else if (!bad(r.status) && bad(prev.status) && r.status === 'passed') out.fixed.push({ target: r.target, id: r.check.id, from: prev.status });
    else if (r.status === 'inconclusive' && prev.status === 'passed') out.unobserved.push({ target: r.target, id: r.check.id, message: r.message });
  }
  for (const [key, r] of a) if (!b.has(key)) out.disappeared.push({ target: r.target, id: r.check.id, status: r.status });
  return out;
}
