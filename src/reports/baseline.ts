// Baseline gating, as the protobuf conformance runner does with its failure lists: a text file of
// known failing checks. A run then fails only on new failures, and names listed checks that now
// pass so the list shrinks. Line format: `<check-id>` (any target) or `<target> <check-id>`;
// `#` starts a comment.
import { readFile } from 'node:fs/promises';
import { ConfigError } from '../core/errors.ts';
import type { CheckResult } from '../core/result.ts';
import { gates, type RunReport, type TargetReport } from './model.ts';

export interface Baseline {
  file: string;
  /** `target check-id` pairs, and bare ids under the target `*`. */
  entries: { target: string; id: string }[];
}

export interface BaselineOutcome {
  file: string;
  /** The list itself, so that `merge` can apply it to the shards' merged report. */
  entries?: Baseline['entries'];
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

const listedIn = (baseline: Baseline, target: string, id: string) => baseline.entries.some((e) => e.id === id && (e.target === '*' || e.target === target));

/** Marks the failures of one target's results that the baseline lists as known (before they are shown). */
export function markKnown(target: TargetReport, baseline: Baseline, strict: boolean | undefined): void {
  for (const r of target.results) {
    if (gates(r.status, strict) && listedIn(baseline, target.name, r.check.id)) r.known = true;
    else delete r.known;
  }
}

export function applyBaseline(report: RunReport, baseline: Baseline): BaselineOutcome {
  const outcome: BaselineOutcome = { file: baseline.file, entries: baseline.entries, known: 0, newFailures: [], nowPassing: [] };
  for (const t of report.targets) {
    markKnown(t, baseline, report.strict);
    for (const r of t.results) {
      if (r.known) outcome.known++;
      else if (gates(r.status, report.strict)) outcome.newFailures.push({ target: t.name, id: r.check.id });
      else if (r.status === 'passed' && listedIn(baseline, t.name, r.check.id)) outcome.nowPassing.push({ target: t.name, id: r.check.id });
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
