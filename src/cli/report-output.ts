// Where the reports of a run (or of a merge) go: `--reporter` and `--out`, and `--junit <file>`,
// which puts the JUnit of every target in one file at a path of the user's choosing (as
// pytest's --junitxml and vitest's --outputFile do), for a CI that reads one named file.
import { stat } from 'node:fs/promises';
import { dirname } from 'node:path';
import { UsageError } from '../core/errors.ts';
import type { RunReport } from '../reports/model.ts';
import { isReporter, prepareOutDir, REPORTER_NAMES, writeFileAtomic, writeReports, type ReporterName } from '../reports/write.ts';

export const JUNIT_HELP = 'write the JUnit of every target to this one file, instead of <out>/<target>.junit.xml per target';

/** `--reporter a,b`: known names only (a usage error names the unknown one). */
export function parseReporters(list: string): ReporterName[] {
  const reporters = list.split(',').map((s) => s.trim()).filter(Boolean);
  const unknown = reporters.find((r) => !isReporter(r));
  if (unknown) throw new UsageError(`unknown reporter '${unknown}' (known: ${REPORTER_NAMES.join(', ')})`);
  return reporters;
}

/** Before anything runs: `--out` can hold reports, and `--junit` names a file that can be written. */
export async function prepareOutputs(out: string, junit?: string): Promise<void> {
  await prepareOutDir(out);
  if (junit === undefined) return;
  const existing = await stat(junit).catch(() => undefined);
  if (existing?.isDirectory()) throw new UsageError(`--junit ${junit}: is a directory (name the file, e.g. ${junit.replace(/\/$/, '')}/junit.xml)`);
  await prepareOutDir(dirname(junit), '--junit');
}

/**
 * Writes the reports; with `junit`, the JUnit of every target goes to that file (and no
 * per-target JUnit file is written under `out`, so a glob there finds no second copy).
 */
export async function writeRunReports(report: RunReport, reporters: readonly ReporterName[], out: string, junit: string | undefined, log: (line: string) => void): Promise<string[]> {
  if (junit === undefined) return writeReports(report, reporters, out, log);
  const paths = await writeReports(report, reporters.filter((r) => r !== 'junit'), out, log);
  const { renderJUnitRun } = await import('../reports/junit.ts');
  await writeFileAtomic(junit, renderJUnitRun(report));
  return [junit, ...paths];
}
