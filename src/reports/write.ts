// Writes reports atomically: a temporary file in the same directory, then a rename, so an
// interrupted run never leaves a truncated report where the previous one was.
import { mkdir, rename, rm, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { renderJson } from './json.ts';
import { renderJUnit } from './junit.ts';
import type { RunReport } from './model.ts';

/** Each reporter turns the report into files: name -> content. */
export const REPORTERS = {
  junit: (report: RunReport) => report.targets.map((t) => [`${t.name}.junit.xml`, renderJUnit(report, t)] as const),
  json: (report: RunReport) => [['conformance.json', renderJson(report)] as const],
} as const;

export type ReporterName = keyof typeof REPORTERS;

export function isReporter(name: string): name is ReporterName {
  return Object.hasOwn(REPORTERS, name);
}

export async function writeFileAtomic(path: string, data: string): Promise<void> {
  await mkdir(dirname(path), { recursive: true });
  const tmp = `${path}.tmp-${process.pid}-${Math.random().toString(36).slice(2)}`;
  try {
    await writeFile(tmp, data);
    await rename(tmp, path);
  } catch (err) {
    await rm(tmp, { force: true });
    throw err;
  }
}

/** Renders and writes each reporter's file under `outDir`; returns the paths written. */
export async function writeReports(report: RunReport, reporters: readonly ReporterName[], outDir: string): Promise<string[]> {
  const paths: string[] = [];
  for (const name of reporters) {
    for (const [file, content] of REPORTERS[name](report)) {
      const path = join(outDir, file);
      await writeFileAtomic(path, content);
      paths.push(path);
    }
  }
  return paths;
}
