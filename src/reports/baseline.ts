// Baseline gating, as the protobuf conformance runner does with its failure lists: a text file of
// known failing checks. A run then fails only on new failures, and names listed checks that now
// pass so the list shrinks. Line format: `<check-id>` (any target) or `<target> <check-id>`;
// `#` starts a comment.
import { readFile } from 'node:fs/promises';
import { ConfigError } from '../core/errors.ts';
import type { CheckResult } from '../core/result.ts';
import { gates, type RunReport } from './model.ts';

export interface Baseline {
  file: string;
  /** `target check-id` pairs, and bare ids under the target `*`. */
  entries: { target: string; id: string }[];
}

export interface BaselineOutcome {
  file: string;
  /** Listed and still failing. */
  known: number;
  newFailures: { target: string; id: string }[];
  nowPassing: { target: string; id: string }[];
}

export async function loadBaseline(file: string): Promise<Baseline> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (err) {
    throw new ConfigError(`${file}: cannot read the baseline (${(err as NodeJS.ErrnoException).code ?? (err as Error).message})`);
  }
  const entries = text
    .split('\n')
    .map((l) => l.replace(/#.*/, '').trim())
    .filter(Boolean)
    .map((l, i) => {
      const parts = l.split(/\s+/);
      if (parts.length > 2) throw new ConfigError(`${file}:${i + 1}: expected '<check-id>' or '<target> <check-id>', got '${l}'`);
      return parts.length === 2 ? { target: parts[0], id: parts[1] } : { target: '*', id: parts[0] };
    });
  return { file, entries };
}

export function applyBaseline(report: RunReport, baseline: Baseline): BaselineOutcome {
  const failing = (status: CheckResult['status']) => gates(status, report.strict);
  const listed = (target: string, id: string) => baseline.entries.some((e) => e.id === id && (e.target === '*' || e.target === target));
  const outcome: BaselineOutcome = { file: baseline.file, known: 0, newFailures: [], nowPassing: [] };
  for (const t of report.targets) {
    for (const r of t.results) {
      const isListed = listed(t.name, r.check.id);
      if (failing(r.status) && isListed) outcome.known++;
      else if (failing(r.status)) outcome.newFailures.push({ target: t.name, id: r.check.id });
      else if (r.status === 'passed' && isListed) outcome.nowPassing.push({ target: t.name, id: r.check.id });
    }
  }
  return outcome;
}

/** The baseline text for a report: every check that gates the run (failed, error; inconclusive under --strict), per target. */
export function baselineFrom(report: RunReport): string {
  const failing = (status: CheckResult['status']) => gates(status, report.strict);
  const lines = [`# known failures, written by conformance ${report.tool.version} from a run at ${report.startedAt}`, '# one `<target> <check-id>` per line; remove a line once the check passes'];
  for (const t of report.targets) for (const r of t.results) if (failing(r.status)) lines.push(`${t.name} ${r.check.id}`);
  return `${lines.join('\n')}\n`;
}
