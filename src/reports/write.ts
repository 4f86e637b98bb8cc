// Writes reports atomically: a temporary file in the same directory, then a rename, so an
// interrupted run never leaves a truncated report where the previous one was.
import { mkdir, rename, rm, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { appendFile } from 'node:fs/promises';
import { renderHtml } from './html.ts';
import { renderJson } from './json.ts';
import { renderJUnit } from './junit.ts';
import { renderGithubAnnotations, renderMarkdown } from './markdown.ts';
import type { RunReport } from './model.ts';

type Files = readonly (readonly [name: string, content: string])[];

/** Each reporter turns the report into files (name, content); `github` writes to the CI log instead. */
export const REPORTERS: Record<string, (report: RunReport) => Files> = {
  junit: (report) => report.targets.map((t) => [`${t.name}.junit.xml`, renderJUnit(report, t)] as const),
  json: (report) => [['conformance.json', renderJson(report)]],
  html: (report) => [['conformance.html', renderHtml(report)]],
  markdown: (report) => [['conformance.md', renderMarkdown(report)]],
  github: () => [],
};

export const REPORTER_NAMES = Object.keys(REPORTERS);

export type ReporterName = string;

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
export async function writeReports(report: RunReport, reporters: readonly ReporterName[], outDir: string, log: (line: string) => void = () => {}): Promise<string[]> {
  const paths: string[] = [];
  if (reporters.includes('github')) {
    // Annotations go to the job log; the markdown summary to the job page, when GitHub gives one.
    const annotations = renderGithubAnnotations(report);
    if (annotations) log(annotations);
    if (process.env.GITHUB_STEP_SUMMARY) await appendFile(process.env.GITHUB_STEP_SUMMARY, renderMarkdown(report));
  }
  for (const name of reporters) {
    for (const [file, content] of REPORTERS[name](report)) {
      const path = join(outDir, file);
      await writeFileAtomic(path, content);
      paths.push(path);
    }
  }
  return paths;
}
