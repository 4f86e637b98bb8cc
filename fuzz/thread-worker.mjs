// Worker thread of a `conformance fuzz` campaign (see thread.ts): the TypeScript is loaded as
// bin/conformance.js loads the CLI (import-source.mjs).
import { parentPort, workerData } from 'node:worker_threads';
import { importSource } from './import-source.mjs';

try {
  const { serveFuzzThread } = await importSource('./thread.ts', import.meta.url);
  await serveFuzzThread(parentPort, workerData);
} catch (err) {
  parentPort.postMessage({ type: 'error', error: { message: err instanceof Error ? err.message : String(err), stack: err?.stack } });
}
