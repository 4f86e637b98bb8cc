#!/usr/bin/env node
// The package ships TypeScript source; jiti (also the loader of targets.config.ts) runs it
// directly, with an on-disk transform cache, so `npm ci && npx conformance` needs no build step.
import { createJiti } from 'jiti';

const jiti = createJiti(import.meta.url);
const { main } = await jiti.import('../src/cli/main.ts');
process.exitCode = await main(process.argv);
// A Ctrl-C after the reports are written still ends with the documented code.
process.once('SIGINT', () => process.exit(130));
