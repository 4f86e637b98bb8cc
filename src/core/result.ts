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
