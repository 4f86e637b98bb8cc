// Writes reports so that a report directory never mixes two runs: every file of a run is written
// into a staging directory beside them, then renamed into place together; the files a previous
// run wrote and this one did not are removed (a manifest names them), and temporary files a
// killed run left are cleaned. A directory that cannot hold reports is refused before any check
// runs, and a GitHub step summary that cannot be written costs a warning, never the reports.
import { appendFile, mkdir, readdir, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { UsageError } from '../core/errors.ts';
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

/** The files of the last run written to a directory, so that the next run removes what it does not rewrite. */
const MANIFEST = '.conformance-files.json';
/** What a killed run may leave: `<file>.tmp-<pid>-<random>` and `.staging-<pid>-<random>/`. */
const LEFTOVER = /(\.tmp-\d+-[a-z0-9]+$)|(^\.staging-\d+-[a-z0-9]+$)/;

const why = (err: unknown) => (err as NodeJS.ErrnoException).code ?? (err as Error).message;

/**
 * Makes sure `dir` is a directory the tool can write (creating it), before anything runs, and
 * removes what killed runs left in it. A usage error (exit 2) names the problem otherwise.
 */
export async function prepareOutDir(dir: string, option = '--out'): Promise<void> {
  try {
    await mkdir(dir, { recursive: true });
  } catch (err) {
    throw new UsageError(`${option} ${dir}: cannot create the report directory (${why(err)})`);
  }
  if (!(await stat(dir)).isDirectory()) throw new UsageError(`${option} ${dir}: not a directory`);
  const probe = join(dir, `.write-probe-${process.pid}-${Math.random().toString(36).slice(2)}`);
  try {
    await writeFile(probe, '');
  } catch (err) {
    throw new UsageError(`${option} ${dir}: the report directory is not writable (${why(err)})`);
  } finally {
    await rm(probe, { force: true });
  }
  for (const name of await readdir(dir)) if (LEFTOVER.test(name)) await rm(join(dir, name), { recursive: true, force: true });
}

/** A warning when $GITHUB_STEP_SUMMARY is set but cannot be appended to; checked before a run. */
export async function stepSummaryProblem(): Promise<string | undefined> {
  const file = process.env.GITHUB_STEP_SUMMARY;
  if (!file) return undefined;
  try {
    await appendFile(file, '');
    return undefined;
  } catch (err) {
    return `cannot write GITHUB_STEP_SUMMARY ${file} (${why(err)}): the job summary is left out, the reports are written`;
  }
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
  // Rendered first, all of them: a renderer that throws leaves the directory as it was.
  const files: [string, string][] = [];
  for (const name of reporters) for (const [file, content] of await REPORTERS[name](report)) files.push([file, content]);
  await mkdir(outDir, { recursive: true });
  const staging = join(outDir, `.staging-${process.pid}-${Math.random().toString(36).slice(2)}`);
  await mkdir(staging);
  const paths: string[] = [];
  try {
    for (const [file, content] of files) await writeFile(join(staging, file), content);
    for (const [file] of files) {
      await rename(join(staging, file), join(outDir, file));
      paths.push(join(outDir, file));
    }
  } finally {
    await rm(staging, { recursive: true, force: true });
  }
  await replaceManifest(outDir, files.map(([f]) => f));
  if (reporters.includes('github')) {
    // Annotations go to the job log; the markdown summary to the job page, when GitHub gives one.
    const { renderGithubAnnotations, renderMarkdown } = await import('./markdown.ts');
    const annotations = renderGithubAnnotations(report);
    if (annotations) log(annotations);
    if (process.env.GITHUB_STEP_SUMMARY) {
      try {
        await appendFile(process.env.GITHUB_STEP_SUMMARY, renderMarkdown(report));
      } catch (err) {
        log(`conformance: warning: cannot write GITHUB_STEP_SUMMARY (${why(err)}); the reports are written`);
      }
    }
  }
  return paths;
}

/** Removes the files the previous run listed and this one did not write, then lists this run's. */
async function replaceManifest(outDir: string, written: string[]): Promise<void> {
  const path = join(outDir, MANIFEST);
  let previous: unknown = [];
  try {
    previous = JSON.parse(await readFile(path, 'utf8'));
  } catch {
    /* no manifest yet, or a damaged one: nothing is removed */
  }
  const keep = new Set(written);
  // Only plain names of report files this tool writes: a manifest never removes anything else.
  const ours = /^[A-Za-z0-9][A-Za-z0-9._-]*\.(junit\.xml|json|html|md)$/;
  for (const name of Array.isArray(previous) ? previous : []) {
    if (typeof name === 'string' && ours.test(name) && !keep.has(name)) await rm(join(outDir, name), { force: true });
  }
  await writeFileAtomic(path, `${JSON.stringify(written)}\n`);
}
