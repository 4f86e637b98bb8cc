// The one report model. Every reporter (JUnit, JSON, later HTML/markdown/GitHub) reads this and
// nothing else, so what a reader sees in each format comes from one place.
import type { Protocol } from '../core/check.ts';
import { totalsOf, type CheckResult, type Totals } from '../core/result.ts';
import type { BaselineOutcome } from './baseline.ts';

export interface TargetReport {
  name: string;
  protocol: Protocol;
  address: string;
  embedded: boolean;
  faults: readonly string[];
  /** `unreachable`: nothing answered before any check ran; every check is listed as not run. */
  status: 'completed' | 'unreachable' | 'interrupted';
  error?: string;
  results: CheckResult[];
  totals: Totals;
  durationMs: number;
}

export interface RunReport {
  schemaVersion: 1;
  tool: { name: string; version: string };
  seed: number;
  startedAt: string;
  finishedAt: string;
  durationMs: number;
  /** The options the run was started with, for the reproduction command. */
  filters: { only?: string[]; skip?: string[]; level?: string };
  interrupted?: string;
  /** `--shard i/n`: this report holds one deterministic share of the selected checks. */
  shard?: { index: number; count: number };
  /** `--baseline`: what the known-failures list made of this run. */
  baseline?: BaselineOutcome;
  /** `--strict`: an inconclusive check fails the run like a failed one. */
  strict?: boolean;
  /** Options a reproduction needs besides the selection: `--config`, `--timeout`. */
  config?: string;
  timeoutMs?: number;
  /** An ad hoc target's options (`--protocol cloud --url ...`, no credentials): they replace `--target`. */
  adhoc?: string[];
  targets: TargetReport[];
  totals: Totals;
}

export function targetReport(
  base: Omit<TargetReport, 'totals' | 'results' | 'status'> & { status?: TargetReport['status'] },
  results: CheckResult[],
): TargetReport {
  return { status: 'completed', ...base, results, totals: totalsOf(results) };
}

export function runReport(base: Omit<RunReport, 'schemaVersion' | 'totals'>): RunReport {
  return { schemaVersion: 1, ...base, totals: totalsOf(base.targets.flatMap((t) => t.results)) };
}

/** Exit codes, as documented in --help and README. */
export const EXIT = { ok: 0, failed: 1, usage: 2, unreachable: 3, interrupted: 130 } as const;

/**
 * The gate policy: failed and error results fail the run; inconclusive ones do not, unless the
 * run is `--strict` (a check that could not test its rule proves nothing either way).
 */
export function gates(status: CheckResult['status'], strict: boolean | undefined): boolean {
  return status === 'failed' || status === 'error' || (strict === true && status === 'inconclusive');
}

export function exitCodeOf(report: RunReport): number {
  if (report.interrupted) return EXIT.interrupted;
  if (report.targets.some((t) => t.status === 'unreachable')) return EXIT.unreachable;
  // With a baseline only failures it does not list fail the run.
  if (report.baseline) return report.baseline.newFailures.length ? EXIT.failed : EXIT.ok;
  const gating = report.targets.some((t) => t.results.some((r) => gates(r.status, report.strict)));
  return gating ? EXIT.failed : EXIT.ok;
}

/**
 * Where a check's rule stands: its document by name, the section and the line (`Limits —
 * wire-protocol.md:184`), never a path, since a reader's copy of the documents may be anywhere.
 * The plain-text reports and annotations write it so; HTML and markdown mark up the same parts.
 */
export function citation(c: Pick<CheckResult['check'], 'section' | 'spec'>): string {
  return `${c.section} — ${c.spec.file}:${c.spec.line}`;
}

/** The command that re-runs one check as it ran here. */
export function reproduceCommand(report: RunReport, target: TargetReport, checkId: string): string {
  const parts = ['npx conformance'];
  if (report.config) parts.push(`--config ${shellWord(report.config)}`);
  parts.push(report.adhoc ? report.adhoc.map(shellWord).join(' ') : `--target ${shellWord(target.name)}`, `--only ${checkId}`, `--seed ${report.seed}`);
  if (report.timeoutMs) parts.push(`--timeout ${report.timeoutMs}`);
  if (target.embedded && target.faults.length) parts.push(`--fault ${target.faults.map(shellWord).join(' ')}`);
  if (report.strict) parts.push('--strict');
  return parts.join(' ');
}

/** A word a POSIX shell reads back as it is: plain when safe, else single-quoted. */
function shellWord(s: string): string {
  return /^[A-Za-z0-9_./:=@%+-]+$/.test(s) ? s : `'${s.replace(/'/g, `'\\''`)}'`;
}

/** Why a result is what it is, beyond its message: where it ended and what it refers to. */
export function outcomeDetails(r: CheckResult): string[] {
  return [
    r.phase ? `ended in ${r.phase === 'setup' ? 'set-up (the rule was not tested)' : 'an assertion'}${r.at ? ` at ${r.at}` : ''}` : '',
    r.seeAlso ? `the rule set-up relied on is tested by ${r.seeAlso}` : '',
    ...(r.notes ?? []).map((n) => `note: ${n}`),
  ].filter(Boolean);
}
