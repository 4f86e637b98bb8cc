import type { EvidenceItem } from './errors.ts';
import type { CheckMeta } from './check.ts';

export type CheckStatus = 'passed' | 'failed' | 'error' | 'skipped';

export interface CheckResult {
  check: CheckMeta;
  status: CheckStatus;
  /** Why it failed, errored or was skipped; names the deviation. */
  message?: string;
  /** Typed error code for `error` results (E_TARGET_TIMEOUT, E_TARGET_RESET, ...). */
  code?: string;
  evidence: EvidenceItem[];
  durationMs: number;
}

export interface Totals {
  total: number;
  passed: number;
  failed: number;
  error: number;
  skipped: number;
}

export function totalsOf(results: readonly CheckResult[]): Totals {
  const t: Totals = { total: results.length, passed: 0, failed: 0, error: 0, skipped: 0 };
  for (const r of results) t[r.status]++;
  return t;
}
