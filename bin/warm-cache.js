#!/usr/bin/env node
// Run after install (npm's postinstall): transforms the TypeScript sources once into jiti's cache,
// so that no run of the tool loads babel. Without it, the first run after an install transforms
// every module in every thread it starts (the CLI, a fuzz campaign, the embedded servers): it is
// slower, and a WIRE campaign peaked at 254 MB of RSS instead of 163 MB.
//
// The cache entries are the ones bin/conformance.js and the worker threads look up: jiti keys them
// by the file's path, its source hash and the module mode (`async` for jiti.import), and this
// script's jiti instance resolves to the same cache directory as theirs (none of them sits next
// to a node_modules folder). An install never fails because of this step.
//
// In the installed package there are no sources to transform (it runs the JavaScript built into
// dist/, see bin/conformance.js), so this step does nothing there, silently.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createJiti } from 'jiti';

const root = fileURLToPath(new URL('..', import.meta.url));
const FOLDERS = ['src', 'suites', 'fuzz', 'targets'];
const FILES = ['targets.config.ts'];

function* tsFiles(dir) {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) yield* tsFiles(path);
    else if (entry.name.endsWith('.ts') && !entry.name.endsWith('.d.ts')) yield path;
  }
}

if (!existsSync(join(root, 'src', 'cli', 'main.ts'))) process.exit(0);

try {
  const jiti = createJiti(import.meta.url);
  let count = 0;
  const started = performance.now();
  const files = [...FOLDERS.flatMap((folder) => [...tsFiles(join(root, folder))]), ...FILES.map((f) => join(root, f)).filter((f) => existsSync(f))];
  for (const filename of files) {
    jiti.transform({ filename, source: readFileSync(filename, 'utf8'), ts: true, async: true });
    count++;
  }
  console.log(`conformance: ${count} TypeScript modules transformed into jiti's cache in ${((performance.now() - started) / 1000).toFixed(1)} s`);
} catch (err) {
  console.log(`conformance: could not fill jiti's cache (${err instanceof Error ? err.message : String(err)}); the first run will transform the sources itself`);
}
