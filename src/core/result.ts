import type { EvidenceItem } from './errors.ts';
import type { CheckMeta } from './check.ts';

/**
 * passed: the rule held where the check looked. failed: the target broke the rule under test.
 * inconclusive: the rule was not tested (a set-up step or precondition did not hold, or the
 * behaviour could not be observed). error: the exchange broke down (the target reset, timed out
 * or sent garbage) or the tool did. skipped: not selected, not allowed, or not configured.
 */
export type CheckStatus = 'passed' | 'failed' | 'inconclusive' | 'error' | 'skipped';
export const STATUSES: readonly CheckStatus[] = ['passed', 'failed', 'inconclusive', 'error', 'skipped'];

export interface CheckResult {
  check: CheckMeta;
  status: CheckStatus;
  /** Why it failed, was inconclusive, errored or was skipped; names the deviation. */
  message?: string;
  /**
   * Where a failed or inconclusive check ended: in a set-up step (`setup`) or at an assertion of
   * its own (`assertion`); `at` names the source line (`suites/cloud/pagination.ts:40`).
   */
  phase?: 'setup' | 'assertion';
  at?: string;
  /** Inconclusive: the check that tests the rule a set-up step relied on, where one exists. */
  seeAlso?: string;
  /** The check's remarks (`ctx.note`), kept for every outcome: what a pass could or could not see. */
  notes?: string[];
  /** `--baseline`: a failure the known-failures list names; it does not fail the run. */
  known?: boolean;
  /** `--repeat n`: the check run again n times alone; whether the outcome reproduced. */
  repeats?: RepeatOutcome;
  /** Typed error code for `error` results (E_TARGET_TIMEOUT, E_TARGET_RESET, ...). */
  code?: string;
  evidence: EvidenceItem[];
  durationMs: number;
}

export interface Totals {
  total: number;
  passed: number;
  failed: number;
  inconclusive: number;
  error: number;
  skipped: number;
}

export function totalsOf(results: readonly CheckResult[]): Totals {
  const t: Totals = { total: results.length, passed: 0, failed: 0, inconclusive: 0, error: 0, skipped: 0 };
  // Reports written before `inconclusive` existed read the same.
  for (const r of results) t[r.status] = (t[r.status] ?? 0) + 1;
  return t;
}

/** One line of totals, as every text reporter prints it. */
export function totalsLine(t: Totals): string {
  return `${t.total} checks: ${t.passed} passed, ${t.failed} failed, ${t.inconclusive ?? 0} inconclusive, ${t.error} errors, ${t.skipped} skipped`;
}

/**
 * `--repeat n`: a failing check (or a known failure that passed) run again n times, alone, each on
 * a fresh connection. deterministic: every repeat ended as the run did; flaky: one did not.
 */
export interface RepeatOutcome {
  runs: number;
  /** How the repeats ended, by outcome. */
  outcomes: Partial<Record<CheckStatus, number>>;
  label: 'flaky' | 'deterministic';
  /** The message of the first repeat that failed (or errored), where the run itself did not fail. */
  failedMessage?: string;
}

const failing = (s: CheckStatus) => s === 'failed' || s === 'error';

/** The label of a result's repeats: the same side of pass/fail every time, or not. */
export function repeatOutcome(first: CheckStatus, repeats: readonly Pick<CheckResult, 'status' | 'message'>[]): RepeatOutcome {
  const outcomes: Partial<Record<CheckStatus, number>> = {};
  for (const r of repeats) outcomes[r.status] = (outcomes[r.status] ?? 0) + 1;
  const same = repeats.every((r) => failing(r.status) === failing(first));
  const failedMessage = failing(first) ? undefined : repeats.find((r) => failing(r.status))?.message;
  return { runs: repeats.length, outcomes, label: same ? 'deterministic' : 'flaky', ...(failedMessage !== undefined ? { failedMessage } : {}) };
}

/** `flaky: failed 1 of 3 repeats (passed 2)`. */
export function repeatText(r: RepeatOutcome): string {
  const failed = (r.outcomes.failed ?? 0) + (r.outcomes.error ?? 0);
  const rest = (Object.entries(r.outcomes) as [CheckStatus, number][]).filter(([s]) => !failing(s)).map(([s, n]) => `${s} ${n}`);
  return `${r.label}: failed ${failed} of ${r.runs} repeat${r.runs === 1 ? '' : 's'}${rest.length ? ` (${rest.join(', ')})` : ''}`;
}
