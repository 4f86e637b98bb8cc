// Worker thread of a `conformance fuzz` campaign (see thread.ts): the TypeScript is loaded through
// jiti, as bin/conformance.js loads the CLI.
import { parentPort, workerData } from 'node:worker_threads';
import { createJiti } from 'jiti';

const jiti = createJiti(import.meta.url);
try {
  const { serveFuzzThread } = await jiti.import('./thread.ts');
  await serveFuzzThread(parentPort, workerData);
} catch (err) {
  parentPort.postMessage({ type: 'error', error: { message: err instanceof Error ? err.message : String(err), stack: err?.stack } });
}
