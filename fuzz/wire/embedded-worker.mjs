// Worker thread that runs the embedded wire-ref for a fuzz campaign (see embedded.ts): the
// TypeScript server is loaded as bin/conformance.js loads the CLI (import-source.mjs).
import { parentPort, workerData } from 'node:worker_threads';
import { importSource } from '../import-source.mjs';

try {
  const { startWireReference } = await importSource('../../targets/wire/server.ts', import.meta.url);
  const ref = await startWireReference(workerData);
  parentPort.postMessage({ host: ref.host, port: ref.port });
  parentPort.on('message', async (msg) => {
    if (msg === 'close') {
      await ref.close();
      parentPort.postMessage('closed');
    }
  });
} catch (err) {
  parentPort.postMessage({ error: err instanceof Error ? err.message : String(err) });
}
