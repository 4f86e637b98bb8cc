// Combining shard reports into one, and comparing two runs.
import { readJsonFile } from './read.ts';
import { ConfigError } from '../core/errors.ts';
import { messageKey, oneLine, type Baseline } from './baseline.ts';
import { totalsOf, type CheckResult } from '../core/result.ts';
import { gates, runReport, type RunReport, type TargetReport } from './model.ts';

export async function readReport(file: string): Promise<RunReport> {
  const parsed = await readJsonFile(file, 'JSON report');
  const r = parsed as Partial<RunReport>;
  if (r?.schemaVersion !== 1 || !Array.isArray(r.targets)) throw new ConfigError(`${file}: not a conformance JSON report (schemaVersion 1)`);
  return r as RunReport;
}

export interface MergeInput {
  file: string;
  report: RunReport;
}

/**
 * One report from shard reports: targets joined by name, each check once, results in check-id
 * order so that the merge of n shards reads like the run that was not sharded. Exact: shards of
 * different campaigns (count, seed, selection) are refused, a shard given twice is refused, a
 * missing shard is refused unless `partial`, and a check reported twice with different results
 * is refused, naming both files.
 */
export function mergeReports(inputs: readonly MergeInput[], opts: { partial?: boolean } = {}): RunReport {
  if (!inputs.length) throw new ConfigError('merge needs at least one report');
  checkShards(inputs, opts.partial === true);
  const targets = new Map<string, TargetReport>();
  const seenIn = new Map<string, { file: string; status: string }>();
  for (const { file, report: rep } of inputs) {
    for (const t of rep.targets) {
      let merged = targets.get(t.name);
      if (!merged) {
        merged = { ...t, results: [] };
        targets.set(t.name, merged);
      } else {
        merged.durationMs = Math.max(merged.durationMs, t.durationMs);
        if (t.status !== 'completed') merged.status = t.status;
        merged.error ??= t.error;
      }
      for (const r of t.results) {
        const key = `${t.name} ${r.check.id}`;
        const prev = seenIn.get(key);
        if (prev && prev.status !== r.status) throw new ConfigError(`conflicting results for ${key}: ${prev.status} in ${prev.file}, ${r.status} in ${file}`);
        if (prev) continue;
        seenIn.set(key, { file, status: r.status });
        merged.results.push({ ...r, known: undefined });
      }
    }
  }
  const partial = opts.partial === true;
  const merged = [...targets.values()].map((t) => {
    const results = [...t.results].sort((a, b) => (a.check.id < b.check.id ? -1 : a.check.id > b.check.id ? 1 : 0));
    // The shards' selection joined: what --shard left out of one shard another ran.
    const selection = t.selection && {
      registered: t.selection.registered,
      selected: results.length,
      notSelected: Object.fromEntries(Object.entries(t.selection.notSelected).filter(([k]) => k !== '--shard')),
    };
    if (selection && partial && t.selection!.registered - results.length - Object.values(selection.notSelected).reduce((a, b) => a + b, 0) > 0) {
      selection.notSelected['--shard (missing shards)'] = t.selection!.registered - results.length - Object.values(selection.notSelected).reduce((a, b) => a + b, 0);
    }
    return { ...t, results, totals: totalsOf(results), ...(selection ? { selection } : {}) };
  });
  const reports = inputs.map((i) => i.report);
  const first = reports[0];
  const interrupted = reports.find((r) => r.interrupted)?.interrupted;
  return runReport({
    tool: first.tool,
    seed: first.seed,
    startedAt: reports.map((r) => r.startedAt).sort()[0],
    finishedAt: reports.map((r) => r.finishedAt).sort().at(-1)!,
    // Shards run side by side: the merged run took as long as its slowest shard.
    durationMs: reports.reduce((max, r) => Math.max(max, r.durationMs), 0),
    filters: first.filters,
    interrupted,
    // A shard run with --strict gates its merge the same way.
    ...(reports.some((r) => r.strict) ? { strict: true } : {}),
    ...(first.config ? { config: first.config } : {}),
    ...(first.timeoutMs ? { timeoutMs: first.timeoutMs } : {}),
    ...(first.adhoc ? { adhoc: first.adhoc } : {}),
    targets: merged,
  });
}

function checkShards(inputs: readonly MergeInput[], partial: boolean): void {
  const sharded = inputs.filter((i) => i.report.shard);
  if (!sharded.length) return;
  if (sharded.length !== inputs.length) throw new ConfigError(`${inputs.find((i) => !i.report.shard)!.file} is not a shard, but ${sharded[0].file} is: merge shards of one run`);
  const { file: firstFile, report: first } = sharded[0];
  const count = first.shard!.count;
  const byIndex = new Map<number, string>();
  for (const { file, report } of sharded) {
    const differs =
      report.shard!.count !== count ? `a share of ${report.shard!.count}, not ${count}` :
      report.seed !== first.seed ? `seed ${report.seed}, not ${first.seed}` :
      JSON.stringify(report.filters) !== JSON.stringify(first.filters) ? 'another selection (--only/--skip/--level)' :
      undefined;
    if (differs) throw new ConfigError(`${file} is a shard of another run than ${firstFile}: ${differs}`);
    const twice = byIndex.get(report.shard!.index);
    if (twice) throw new ConfigError(`shard ${report.shard!.index}/${count} is given twice: ${twice} and ${file}`);
    byIndex.set(report.shard!.index, file);
  }
  const missing = Array.from({ length: count }, (_, i) => i + 1).filter((i) => !byIndex.has(i));
  if (missing.length && !partial) throw new ConfigError(`shard${missing.length > 1 ? 's' : ''} ${missing.map((i) => `${i}/${count}`).join(', ')} missing (--partial merges what is there)`);
}

/**
 * The baseline the shards carry (each run with the same `--baseline`), for `merge` to apply to
 * the merged report; undefined when none carries one, an error when they carry different ones.
 */
export function carriedBaseline(inputs: readonly MergeInput[]): Baseline | undefined {
  const carried = inputs.filter((i) => i.report.baseline?.entries);
  if (!carried.length) return undefined;
  const key = (i: MergeInput) => JSON.stringify(i.report.baseline!.entries);
  const other = carried.find((i) => key(i) !== key(carried[0]));
  if (other) throw new ConfigError(`${carried[0].file} and ${other.file} were run with different baselines; give merge one with --baseline`);
  const b = carried[0].report.baseline!;
  return { file: b.file, entries: b.entries!, ...(b.failuresOnly ? { failuresOnly: true } : {}) };
}

export interface RunDiff {
  regressed: { target: string; id: string; from: string; to: string; message?: string }[];
  fixed: { target: string; id: string; from: string }[];
  /** Checks that passed and are now inconclusive: their rule is no longer tested (not a regression). */
  unobserved: { target: string; id: string; message?: string }[];
  /** Checks that failed (or errored) in both runs, with another message now. */
  changed: { target: string; id: string; was: string; now: string }[];
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
  const out: RunDiff = { regressed: [], fixed: [], unobserved: [], changed: [], appeared: [], disappeared: [] };
  for (const [key, r] of b) {
    const prev = a.get(key);
    if (!prev) out.appeared.push({ target: r.target, id: r.check.id, status: r.status });
    else if (bad(r.status) && !bad(prev.status)) out.regressed.push({ target: r.target, id: r.check.id, from: prev.status, to: r.status, message: r.message });
    else if (!bad(r.status) && bad(prev.status) && r.status === 'passed') out.fixed.push({ target: r.target, id: r.check.id, from: prev.status });
    else if (r.status === 'inconclusive' && prev.status === 'passed') out.unobserved.push({ target: r.target, id: r.check.id, message: r.message });
    else if (bad(r.status) && bad(prev.status) && (r.status !== prev.status || messageKey(r.message) !== messageKey(prev.message)))
      out.changed.push({ target: r.target, id: r.check.id, was: `${prev.status}: ${oneLine(prev.message)}`, now: `${r.status}: ${oneLine(r.message)}` });
  }
  for (const [key, r] of a) if (!b.has(key)) out.disappeared.push({ target: r.target, id: r.check.id, status: r.status });
  return out;
}

/** Whether a comparison fails, as `--baseline` gates a run: a regression, a rule no longer tested, a failure that changed. */
export function diffGates(d: RunDiff, failuresOnly = false): boolean {
  return d.regressed.length > 0 || (!failuresOnly && (d.unobserved.length > 0 || d.changed.length > 0));
}
