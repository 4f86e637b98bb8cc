// Writes reports atomically: a temporary file in the same directory, then a rename, so an
// interrupted run never leaves a truncated report where the previous one was.
import { mkdir, rename, rm, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { appendFile } from 'node:fs/promises';
import type { RunReport } from './model.ts';

type Files = readonly (readonly [name: string, content: string])[];

/**
 * Each reporter turns the report into files (name, content); `github` writes to the CI log
 * instead. Renderers are loaded when used: `--help` and `list` never pay for them.
 */
export const REPORTERS: Record<string, (report: RunReport) => Promise<Files>> = {
  junit: async (report) => {
    const { renderJUnit } = await import('./junit.ts');
    return report.targets.map((t) => [`${t.name}.junit.xml`, renderJUnit(report, t)] as const);
  },
  json: async (report) => [['conformance.json', (await import('./json.ts')).renderJson(report)]],
  html: async (report) => [['conformance.html', (await import('./html.ts')).renderHtml(report)]],
  markdown: async (report) => [['conformance.md', (await import('./markdown.ts')).renderMarkdown(report)]],
  github: async () => [],
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
    const { renderGithubAnnotations, renderMarkdown } = await import('./markdown.ts');
    const annotations = renderGithubAnnotations(report);
    if (annotations) log(annotations);
    if (process.env.GITHUB_STEP_SUMMARY) await appendFile(process.env.GITHUB_STEP_SUMMARY, renderMarkdown(report));
  }
  for (const name of reporters) {
    for (const [file, content] of await REPORTERS[name](report)) {
      const path = join(outDir, file);
      await writeFileAtomic(path, content);
      paths.push(path);
    }
  }
  return paths;
}
