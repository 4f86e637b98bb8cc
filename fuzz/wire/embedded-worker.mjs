// Worker thread that runs the embedded wire-ref for a fuzz campaign (see embedded.ts): the
// TypeScript server is loaded through jiti, as bin/conformance.js loads the CLI.
import { parentPort, workerData } from 'node:worker_threads';
import { createJiti } from 'jiti';

const jiti = createJiti(import.meta.url);
try {
  const { startWireReference } = await jiti.import('../../targets/wire/server.ts');
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
