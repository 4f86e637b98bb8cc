#!/usr/bin/env node
// `npm run build` (and so `npm pack`, through prepack): the published package's dist/, from a
// clean slate so that a source deleted since the last build is not shipped. tsc emits the
// JavaScript and declarations (tsconfig.build.json); every other file of the code folders (the
// WIRE schema ql2.proto, the worker threads' .mjs scripts, the OBS baseline) is read or started
// by path at run time, so it is copied beside the built modules, where those paths lead.
import { execFileSync } from 'node:child_process';
import { cpSync, readdirSync, rmSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const FOLDERS = ['src', 'suites', 'targets', 'fuzz'];

rmSync(join(root, 'dist'), { recursive: true, force: true });
const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');
try {
  execFileSync(process.execPath, [tsc, '-p', join(root, 'tsconfig.build.json')], { stdio: 'inherit' });
} catch (err) {
  // tsc printed the errors; a package that does not type-check is not packed.
  console.error('conformance: build failed: tsc reported errors');
  process.exit(typeof err.status === 'number' ? err.status : 1);
}

let copied = 0;
for (const folder of FOLDERS) {
  for (const name of readdirSync(join(root, folder), { recursive: true })) {
    const rel = join(folder, name);
    if (rel.endsWith('.ts') || !statSync(join(root, rel)).isFile()) continue;
    cpSync(join(root, rel), join(root, 'dist', rel));
    copied++;
  }
}
console.error(`conformance: built into dist/ (${copied} other files copied)`);
