// Wall time and peak resident memory of one command, as a user's shell would run it. The peak is
// the kernel's own figure (GNU time's %M, the process's VmHWM), not a sample: a spike between two
// samples is counted. Without GNU time (not a Debian machine), the peak is left out.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const GNU_TIME = '/usr/bin/time';

export interface Measured {
  seconds: number;
  /** Peak resident set size in MB, all threads of the process. */
  rssMb?: number;
  status: number | null;
  /** Standard output, unless it was shown as it came (`echo`). */
  stdout: string;
  stderr: string;
}

/** Runs `node <args>`; with `echo`, its standard output goes straight to ours (long runs show progress). */
export function measureNode(args: string[], opts: { cwd: string; echo?: boolean }): Measured {
  const dir = mkdtempSync(join(tmpdir(), 'conformance-measure-'));
  const timeFile = join(dir, 'time');
  const gnuTime = existsSync(GNU_TIME);
  // GNU time writes its figure to a file (-o), so the command's own stderr stays its own.
  const [cmd, argv] = gnuTime ? [GNU_TIME, ['-f', '%M', '-o', timeFile, process.execPath, ...args]] : [process.execPath, args];
  const started = performance.now();
  const r = spawnSync(cmd, argv, {
    cwd: opts.cwd,
    encoding: 'utf8',
    env: { ...process.env, CI: 'true' },
    stdio: ['ignore', opts.echo ? 'inherit' : 'pipe', 'pipe'],
    maxBuffer: 64 * 1024 * 1024,
  });
  const seconds = (performance.now() - started) / 1000;
  const rssKb = gnuTime && existsSync(timeFile) ? Number(readFileSync(timeFile, 'utf8').trim().split('\n').at(-1)) : NaN;
  rmSync(dir, { recursive: true, force: true });
  return { seconds, rssMb: Number.isFinite(rssKb) ? rssKb / 1024 : undefined, status: r.status, stdout: r.stdout ?? '', stderr: r.stderr ?? '' };
}
