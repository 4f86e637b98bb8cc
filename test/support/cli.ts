// The CLI as a user runs it: a child process of bin/conformance.js from the project's root, in
// CI mode (plain lines), with its exit code and output; never throws on a non-zero exit.
import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';

export const root = new URL('../..', import.meta.url).pathname;

export async function cli(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const { stdout, stderr } = await promisify(execFile)(process.execPath, [join(root, 'bin/conformance.js'), ...args], { cwd: root, env: { ...process.env, CI: 'true' } });
    return { code: 0, stdout, stderr };
  } catch (err) {
    const e = err as { code: number; stdout: string; stderr: string };
    return { code: e.code, stdout: e.stdout, stderr: e.stderr };
  }
}
