// How a worker thread's script (plain JavaScript, so that node can start it) loads the tool's
// modules, in both layouts: in a clone the TypeScript source sits beside it and runs through jiti
// (no build step); the installed package ships only the JavaScript built into dist/, where this
// file is copied beside the workers, and node imports that natively. The rule is bin/conformance.js's:
// sources present means sources used, so a stale build can never shadow them.
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/** Imports the module `specifier` (written `./x.ts`) relative to `base` (the caller's import.meta.url). */
export async function importSource(specifier, base) {
  const source = fileURLToPath(new URL(specifier, base));
  if (!existsSync(source)) return import(new URL(specifier.replace(/\.ts$/, '.js'), base).href);
  const { createJiti } = await import('jiti');
  return createJiti(base).import(source);
}
