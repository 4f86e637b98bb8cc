#!/usr/bin/env node
// Two layouts, told apart by whether the TypeScript sources are here:
// - a clone has them: jiti (also the loader of targets.config.ts) runs them directly, with an
//   on-disk transform cache, so `npm ci && npx conformance` needs no build step, and a dist/ left
//   by an earlier `npm pack` is never used, so it cannot shadow an edited source;
// - the installed package has none ("files" in package.json ships dist/ only, built by prepack):
//   node runs the built JavaScript natively.
// Asking for the sources themselves, rather than guessing from the path (a clone may sit in a
// node_modules, `npm link` puts one there), keeps the choice true to what would actually run.
// fuzz/import-source.mjs applies the same rule in worker threads.
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const source = fileURLToPath(new URL('../src/cli/main.ts', import.meta.url));
const { main } = existsSync(source)
  ? await (await import('jiti')).createJiti(import.meta.url).import(source)
  : await import('../dist/src/cli/main.js');
process.exitCode = await main(process.argv);
// A Ctrl-C after the reports are written still ends with the documented code.
process.once('SIGINT', () => process.exit(130));
