// Worker thread that runs an embedded HTTP reference (cloud-ref or build-ref) for a fuzz campaign
// (see embedded.ts): the server gets the second core, and a request that hangs or crashes it is
// the worker's problem, not the fuzzer's event loop. TypeScript is loaded as bin/conformance.js
// loads the CLI (import-source.mjs).
import { parentPort, workerData } from 'node:worker_threads';
import { importSource } from '../import-source.mjs';

try {
  const { protocol, ...options } = workerData;
  const ref =
    protocol === 'cloud'
      ? await (await importSource('../../targets/cloud/server.ts', import.meta.url)).startCloudReference(options)
      : await (await importSource('../../targets/build/server.ts', import.meta.url)).startBuildReference(options);
  // What the reference seeded (credentials, fixtures) is plain data; close() stays here.
  const { close, ...seeded } = ref;
  parentPort.postMessage({ seeded });
} catch (err) {
  parentPort.postMessage({ error: err instanceof Error ? err.message : String(err) });
}
