// Worker thread that runs an embedded HTTP reference (cloud-ref or build-ref) for a fuzz campaign
// (see embedded.ts): the server gets the second core, and a request that hangs or crashes it is
// the worker's problem, not the fuzzer's event loop. TypeScript is loaded through jiti.
import { parentPort, workerData } from 'node:worker_threads';
import { createJiti } from 'jiti';

const jiti = createJiti(import.meta.url);
try {
  const { protocol, ...options } = workerData;
  const ref =
    protocol === 'cloud'
      ? await (await jiti.import('../../targets/cloud/server.ts')).startCloudReference(options)
      : await (await jiti.import('../../targets/build/server.ts')).startBuildReference(options);
  // What the reference seeded (credentials, fixtures) is plain data; close() stays here.
  const { close, ...seeded } = ref;
  parentPort.postMessage({ seeded });
} catch (err) {
  parentPort.postMessage({ error: err instanceof Error ? err.message : String(err) });
}
