// The one report model. Every reporter (JUnit, JSON, later HTML/markdown/GitHub) reads this and
// nothing else, so what a reader sees in each format comes from one place.
import type { Protocol } from '../core/check.ts';
import { repeatText, totalsOf, type CheckResult, type Totals } from '../core/result.ts';
import { baselineGates, type BaselineOutcome } from './baseline.ts';

export interface TargetReport {
  name: string;
  protocol: Protocol;
  address: string;
  embedded: boolean;
  faults: readonly string[];
  /**
   * `unreachable`: nothing answered before any check ran; `unusable`: it answered, but refused the
   * handshake or the configured credentials (401); either way every check is listed as not run.
   */
  status: 'completed' | 'unreachable' | 'unusable' | 'interrupted';
  error?: string;
  /** Which of the protocol's registered checks this target ran, and what left the others out. */
  selection?: TargetSelection;
  results: CheckResult[];
  totals: Totals;
  durationMs: number;
}

export interface TargetSelection {
  /** The protocol's registered checks. */
  registered: number;
  selected: number;
  /** Checks left out, by the filter that left each out first (`--include-path`, `implements.paths`, `--shard`). */
  notSelected: Record<string, number>;
}

export interface RunReport {
  schemaVersion: 1;
  tool: { name: string; version: string };
  seed: number;
  startedAt: string;
  finishedAt: string;
  durationMs: number;
  /** The options the run was started with, for the reproduction command. */
  filters: {
    only?: string[];
    skip?: string[];
    level?: string;
    includePath?: string[];
    excludePath?: string[];
    includeMethod?: string[];
    includeTerm?: string[];
    excludeTerm?: string[];
  };
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
/** `unreachable` (3) also covers a target that answered but refused the handshake or the credentials. */
export const EXIT = { ok: 0, failed: 1, usage: 2, unreachable: 3, interrupted: 130 } as const;

/**
 * The gate policy: failed and error results fail the run; inconclusive ones do not, unless the
 * run is `--strict` (a check that could not test its rule proves nothing either way).
 */
export function gates(status: CheckResult['status'], strict: boolean | undefined): boolean {
  return status === 'failed' || status === 'error' || (strict === true && status === 'inconclusive');
}

/** A target that could not be tested at all (nothing listening, handshake or credentials refused). */
export const stoppedBeforeChecks = (t: Pick<TargetReport, 'status'>) => t.status === 'unreachable' || t.status === 'unusable';

export function exitCodeOf(report: RunReport): number {
  if (report.interrupted) return EXIT.interrupted;
  if (report.targets.some(stoppedBeforeChecks)) return EXIT.unreachable;
  // With a baseline only failures it does not list fail the run.
  if (report.baseline) return baselineGates(report.baseline) ? EXIT.failed : EXIT.ok;
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
    r.repeats ? `repeat: ${repeatText(r.repeats)}${r.repeats.failedMessage ? `; a repeat failed: ${r.repeats.failedMessage}` : ''}` : '',
    ...(r.notes ?? []).map((n) => `note: ${n}`),
  ].filter(Boolean);
}

/** "170 of 250 checks selected; not selected: 66 by --include-path, 14 by --level" */
export function selectionText(s: TargetSelection): string {
  const out = Object.entries(s.notSelected).map(([k, n]) => `${n} by ${k}`);
  return `${s.selected} of ${s.registered} checks selected${out.length ? `; not selected: ${out.join(', ')}` : ''}`;
}

/** What decided the run's exit code, counted: every reporter's header says it in the same words. */
export interface GateSummary {
  exitCode: number;
  /** Failed and errored checks (inconclusive ones under --strict) that no baseline knows. */
  newFailures: number;
  known: number;
  baselineFile?: string;
  failuresOnly: boolean;
  newlyInconclusive: number;
  changed: number;
  nowPassing: number;
  inconclusive: number;
  strict: boolean;
  unreachable: string[];
}

export function gateSummary(report: RunReport): GateSummary {
  const b = report.baseline;
  // A target not tested at all is named once, not counted as one failure per check.
  const all = report.targets.filter((t) => !stoppedBeforeChecks(t)).flatMap((t) => t.results);
  return {
    exitCode: exitCodeOf(report),
    newFailures: b ? b.newFailures.length : all.filter((r) => gates(r.status, report.strict) && !r.known).length,
    known: b?.known ?? 0,
    baselineFile: b?.file,
    failuresOnly: b?.failuresOnly === true,
    newlyInconclusive: b?.newlyInconclusive?.length ?? 0,
    changed: b?.changed?.length ?? 0,
    nowPassing: b?.nowPassing.length ?? 0,
    inconclusive: report.totals.inconclusive ?? 0,
    strict: report.strict === true,
    unreachable: report.targets.filter(stoppedBeforeChecks).map((t) => `${t.name} ${t.status}`),
  };
}

const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

/**
 * The gate's verdict in words, first line first: `FAILED (exit 1): 2 new failures`, then what
 * the baseline knew, what is inconclusive and whether --strict applies. Every reporter prints these.
 */
export function verdictLines(report: RunReport): string[] {
  const g = gateSummary(report);
  const why: string[] = [];
  const lines0: string[] = [];
  if (report.interrupted) why.push(`interrupted (${report.interrupted})`);
  if (g.unreachable.length) why.push(`not tested: ${g.unreachable.join(', ')}`);
  if (g.unreachable.length) lines0.push(...report.targets.filter(stoppedBeforeChecks).map((t) => `${t.name} ${t.status}: ${t.error ?? ''}`));
  if (g.newFailures) why.push(plural(g.newFailures, 'new failure'));
  const gatesRegressions = !g.failuresOnly;
  if (g.newlyInconclusive && gatesRegressions) why.push(`${plural(g.newlyInconclusive, 'passed check')} now inconclusive`);
  if (g.changed && gatesRegressions) why.push(`${plural(g.changed, 'known failure')} with another message`);
  const head = g.exitCode === EXIT.ok ? `PASSED (exit 0): no check fails the run` : `FAILED (exit ${g.exitCode}): ${why.join(', ') || 'see below'}`;
  const lines = [head, ...lines0];
  if (g.baselineFile) {
    lines.push(`known failures: ${g.known} (baseline ${g.baselineFile}; they do not fail the run)`);
    const opt = g.failuresOnly ? 'reported only (--baseline-failures-only)' : 'fail the run (--baseline-failures-only would not)';
    if (g.newlyInconclusive) lines.push(`passed in the baseline, inconclusive now: ${g.newlyInconclusive}: ${opt}`);
    if (g.changed) lines.push(`known failures failing with another message: ${g.changed}: ${opt}`);
    if (g.nowPassing) lines.push(`now passing: ${g.nowPassing} (write the baseline again: conformance baseline --from <report> --output ${g.baselineFile})`);
  } else {
    lines.push('known failures: none listed (no --baseline: every failure fails the run)');
  }
  const n = g.inconclusive;
  const checks = `${n} inconclusive ${n === 1 ? 'check' : 'checks'}`;
  lines.push(
    g.strict
      ? `${checks} fail this run (--strict)`
      : g.baselineFile && !g.failuresOnly
        ? `${checks} did not test ${n === 1 ? 'its' : 'their'} rule (they fail the run only where the baseline recorded a pass; --strict makes them all)`
        : `${checks} did not test ${n === 1 ? 'its' : 'their'} rule (they do not fail the run; --strict makes them)`,
  );
  return lines;
}

/** Per target: how many checks were selected and what left the others out. */
export function selectionLines(report: RunReport, onlyNarrowed = false): string[] {
  return report.targets
    .filter((t) => t.selection && (!onlyNarrowed || Object.keys(t.selection.notSelected).length))
    .map((t) => `${t.name}: ${selectionText(t.selection!)}`);
}

/** What the baseline made of a run (console, merge). */
export function baselineLines(b: BaselineOutcome): string[] {
  const ids = (xs: { target: string; id: string }[]) => xs.map((f) => `${f.target} ${f.id}`).join(', ');
  const out = [`baseline ${b.file}: ${b.known} known failures, ${b.newFailures.length} new${b.newFailures.length ? `: ${ids(b.newFailures)}` : ''}`];
  if (b.newlyInconclusive?.length) out.push(`  passed in the baseline, inconclusive now: ${ids(b.newlyInconclusive)}`);
  for (const c of b.changed ?? []) out.push(`  fails differently: ${c.target} ${c.id}: was "${c.was}", now "${c.now}"`);
  if (b.nowPassing.length) out.push(`  now passing, remove from ${b.file}: ${ids(b.nowPassing)} (or write it again with conformance baseline)`);
  if (b.flakyPassing?.length) out.push(`  passed but failed in a repeat (flaky), keep in ${b.file}: ${ids(b.flakyPassing)}`);
  return out;
}
