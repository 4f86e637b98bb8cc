// Baseline gating, as the protobuf conformance runner does with its failure lists, extended to
// every outcome: a text file that records each check's outcome on each target (passed,
// inconclusive, failed or error with its message). A later run then fails on a regression only:
// a failure the baseline does not know, a check that passed and is now inconclusive (its rule is
// no longer tested), and a known failure whose message changed (it fails differently now). With
// `--baseline-failures-only` only new failures gate, as lists of failing ids always did.
//
// Line format: `<target> <check-id> <outcome> [message]` (`*` for any target); the older forms
// `<check-id>` and `<target> <check-id>` still name a known failure with any message. A line
// starting with `#` is a comment; so is ` # ...` after an older form.
import { readFile } from 'node:fs/promises';
import { ConfigError } from '../core/errors.ts';
import { repeatText, STATUSES, type CheckResult, type CheckStatus } from '../core/result.ts';
import { gates, type RunReport, type TargetReport } from './model.ts';

export interface BaselineEntry {
  target: string;
  id: string;
  /** The recorded outcome; absent in the older forms, which name a known failure. */
  status?: CheckStatus;
  /** A failure's or error's message, on one line. */
  message?: string;
}

export interface Baseline {
  file: string;
  /** `target check-id` pairs, and bare ids under the target `*`. */
  entries: BaselineEntry[];
  /** `--baseline-failures-only`: only failures the baseline does not know gate the run. */
  failuresOnly?: boolean;
}

export interface BaselineOutcome {
  file: string;
  /** The list itself, so that `merge` can apply it to the shards' merged report. */
  entries?: Baseline['entries'];
  failuresOnly?: boolean;
  /** Listed as failing and still failing the same way. */
  known: number;
  newFailures: { target: string; id: string; message?: string }[];
  /** Passed in the baseline, inconclusive now: the rule is no longer tested. */
  newlyInconclusive?: { target: string; id: string; message?: string }[];
  /** A known failure that fails with another message (or as an error where it failed). */
  changed?: { target: string; id: string; was: string; now: string }[];
  nowPassing: { target: string; id: string }[];
  /** Known failures that passed, but failed again in a repeat (`--repeat`): flaky, to keep in the baseline. */
  flakyPassing?: { target: string; id: string; message?: string }[];
}

export async function loadBaseline(file: string, opts: { failuresOnly?: boolean } = {}): Promise<Baseline> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (err) {
    throw new ConfigError(`${file}: cannot read the baseline (${(err as NodeJS.ErrnoException).code ?? (err as Error).message})`);
  }
  return { file, entries: parseBaseline(text, file), ...(opts.failuresOnly ? { failuresOnly: true } : {}) };
}

export function parseBaseline(text: string, file: string): BaselineEntry[] {
  const entries: BaselineEntry[] = [];
  text.split('\n').forEach((raw, i) => {
    const line = raw.trim();
    if (!line || line.startsWith('#')) return;
    const m = /^(\S+)\s+(\S+)\s+(\S+)(?:\s+(.*))?$/.exec(line);
    if (m && (STATUSES as readonly string[]).includes(m[3])) {
      entries.push({ target: m[1], id: m[2], status: m[3] as CheckStatus, ...(m[4] ? { message: m[4] } : {}) });
      return;
    }
    const parts = line.replace(/\s#.*/, '').trim().split(/\s+/);
    if (parts.length > 2) throw new ConfigError(`${file}:${i + 1}: expected '<target> <check-id> <outcome> [message]', '<check-id>' or '<target> <check-id>', got '${line}'`);
    entries.push(parts.length === 2 ? { target: parts[0], id: parts[1] } : { target: '*', id: parts[0] });
  });
  return entries;
}

/** A message on one line, as the baseline keeps it. */
export const oneLine = (s: string | undefined) => (s ?? '').replace(/\s+/g, ' ').trim();

/**
 * A message as compared with the baseline's: what differs from run to run on any server (ids it
 * assigns, uuids, timestamps, long hex) is masked; status codes, counts and names are kept.
 */
export function messageKey(s: string | undefined): string {
  return oneLine(s)
    .replace(/\b\d{4}-\d\d-\d\dT[\d:.]+(?:Z|[+-]\d\d:?\d\d)?/g, '<time>')
    .replace(/\b[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\b/gi, '<uuid>')
    .replace(/\b[0-9a-f]{16,}\b/gi, '<hex>')
    // Random suffixes of names a check makes (`conf-delete-cbe645ab`): hex of letters and digits.
    .replace(/\b(?=[0-9a-f]*\d)[0-9a-f]{6,}\b/gi, '<hex>')
    .replace(/\d{5,}/g, '<n>');
}

const isFailure = (s: CheckStatus | undefined) => s === undefined || s === 'failed' || s === 'error';

/** The entry for a check on a target: the target's own line first, else a `*` line. */
export function entryFor(baseline: Pick<Baseline, 'entries'>, target: string, id: string): BaselineEntry | undefined {
  return baseline.entries.find((e) => e.id === id && e.target === target) ?? baseline.entries.find((e) => e.id === id && e.target === '*');
}

/** The baseline records the check as failing on the target (or any target). */
export function baselineFailure(baseline: Pick<Baseline, 'entries'>, target: string, id: string): boolean {
  const e = entryFor(baseline, target, id);
  return e !== undefined && isFailure(e.status);
}

/** Whether a gating result is one the baseline knows: listed as a failure, failing the same way (or any way under failuresOnly). */
export function isKnown(baseline: Baseline, target: string, r: Pick<CheckResult, 'status' | 'message'> & { check: { id: string } }, strict: boolean | undefined): boolean {
  if (!gates(r.status, strict)) return false;
  const e = entryFor(baseline, target, r.check.id);
  if (!e) return false;
  // Under --strict an inconclusive check gates; the baseline knows it when it recorded it so.
  if (r.status === 'inconclusive') return e.status === 'inconclusive' || e.status === undefined;
  if (!isFailure(e.status)) return false;
  return baseline.failuresOnly === true || !changedFrom(e, r);
}

function changedFrom(e: BaselineEntry, r: Pick<CheckResult, 'status' | 'message'>): boolean {
  if (e.status === undefined) return false;
  if (e.status !== r.status) return true;
  return e.message !== undefined && messageKey(e.message) !== messageKey(r.message);
}

/** Marks the failures of one target's results that the baseline knows (before they are shown). */
export function markKnown(target: TargetReport, baseline: Baseline, strict: boolean | undefined): void {
  for (const r of target.results) {
    if (isKnown(baseline, target.name, r, strict)) r.known = true;
    else delete r.known;
  }
}

export function applyBaseline(report: RunReport, baseline: Baseline): BaselineOutcome {
  const outcome: BaselineOutcome = {
    file: baseline.file,
    entries: baseline.entries,
    ...(baseline.failuresOnly ? { failuresOnly: true } : {}),
    known: 0,
    newFailures: [],
    newlyInconclusive: [],
    changed: [],
    nowPassing: [],
    flakyPassing: [],
  };
  for (const t of report.targets) {
    markKnown(t, baseline, report.strict);
    for (const r of t.results) {
      const e = entryFor(baseline, t.name, r.check.id);
      if (r.known) {
        outcome.known++;
        // Under --baseline-failures-only a failure that changed is known, and still named.
        if (e && baseline.failuresOnly && r.status !== 'inconclusive' && changedFrom(e, r)) outcome.changed!.push({ target: t.name, id: r.check.id, was: `${e.status}: ${e.message ?? ''}`, now: `${r.status}: ${oneLine(r.message)}` });
      } else if (gates(r.status, report.strict)) {
        if (e && isFailure(e.status) && r.status !== 'inconclusive') outcome.changed!.push({ target: t.name, id: r.check.id, was: `${e.status}: ${e.message ?? ''}`, now: `${r.status}: ${oneLine(r.message)}` });
        else outcome.newFailures.push({ target: t.name, id: r.check.id, message: oneLine(r.message) });
      } else if (r.status === 'inconclusive' && e?.status === 'passed') outcome.newlyInconclusive!.push({ target: t.name, id: r.check.id, message: oneLine(r.message) });
      else if (r.status === 'passed' && e && isFailure(e.status)) {
        // Never advise removing a check that failed in any repeat: the next run would turn red.
        if (r.repeats?.label === 'flaky') outcome.flakyPassing!.push({ target: t.name, id: r.check.id, message: oneLine(r.repeats.failedMessage) });
        else outcome.nowPassing.push({ target: t.name, id: r.check.id });
      }
    }
  }
  return outcome;
}

/** Whether what the baseline made of a run fails it. */
export function baselineGates(b: BaselineOutcome): boolean {
  if (b.newFailures.length) return true;
  return !b.failuresOnly && Boolean(b.newlyInconclusive?.length || b.changed?.length);
}

/** The baseline text for a report: every outcome but skipped, per target; failures with their message. */
export function baselineFrom(report: RunReport): string {
  const lines = [
    `# baseline written by conformance ${report.tool.version} from a run at ${report.startedAt} (seed ${report.seed})`,
    '# `<target> <check-id> <outcome> [message]`: a later run with --baseline fails on a failure not listed',
    '# here, on a passed check now inconclusive, and on a listed failure whose message changed',
    '# (--baseline-failures-only: on new failures only). Write it again once a check is fixed.',
  ];
  for (const t of report.targets) {
    for (const r of t.results) {
      if (r.status === 'skipped') continue;
      // A pass that failed in a repeat (`--repeat`) is recorded as the failure it can be: flaky.
      if (r.status === 'passed' && r.repeats?.label === 'flaky') {
        lines.push(`# flaky (${repeatText(r.repeats)}): passed in the run, failed in a repeat`);
        lines.push(`${t.name} ${r.check.id} failed${r.repeats.failedMessage ? ` ${oneLine(r.repeats.failedMessage)}` : ''}`);
        continue;
      }
      if (r.repeats) lines.push(`# ${repeatText(r.repeats)}`);
      const failing = r.status === 'failed' || r.status === 'error';
      lines.push(`${t.name} ${r.check.id} ${r.status}${failing && r.message ? ` ${oneLine(r.message)}` : ''}`);
    }
  }
  return `${lines.join('\n')}\n`;
}
