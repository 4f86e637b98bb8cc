// Writes reports atomically: a temporary file in the same directory, then a rename, so an
// interrupted run never leaves a truncated report where the previous one was.
import { mkdir, rename, rm, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { renderJson } from './json.ts';
import { renderJUnit } from './junit.ts';
import type { RunReport } from './model.ts';

export const REPORTERS = {
  junit: { file: 'conformance.junit.xml', render: renderJUnit },
  json: { file: 'conformance.json', render: renderJson },
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
    const { file, render } = REPORTERS[name];
    const path = join(outDir, file);
    await writeFileAtomic(path, render(report));
    paths.push(path);
  }
  return paths;
}
