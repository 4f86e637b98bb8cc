// The embedded wire-ref of a fuzz campaign runs in a worker thread: a query that makes it spin
// forever then shows up as a timeout finding, and the worker is terminated and started again,
// instead of freezing the fuzzer that shares its event loop. It also puts the server on the
// second core.
import { Worker } from 'node:worker_threads';
import { ConfigError } from '../../src/core/errors.ts';
import type { WireReferenceOptions } from '../../targets/wire/server.ts';
import type { Endpoint } from './transport.ts';

export interface EmbeddedWire {
  endpoint(): Endpoint;
  /** Terminates the worker (whatever it is doing) and starts a fresh server on a new port. */
  restart(): Promise<void>;
  stop(): Promise<void>;
}

export async function startEmbeddedWire(options: WireReferenceOptions): Promise<EmbeddedWire> {
  let worker: Worker;
  let endpoint: Endpoint;
  const start = async () => {
    worker = new Worker(new URL('./embedded-worker.mjs', import.meta.url), {
      workerData: { ...options, faults: [...(options.faults ?? [])] },
      // A runaway query must not take the fuzzer's memory with it.
      resourceLimits: { maxOldGenerationSizeMb: 512, maxYoungGenerationSizeMb: 8 },
    });
    endpoint = await new Promise<Endpoint>((resolve, reject) => {
      worker.once('message', (m: { host?: string; port?: number; error?: string }) =>
        m.error ? reject(new ConfigError(`embedded wire-ref: ${m.error}`)) : resolve({ host: m.host!, port: m.port! }),
      );
      worker.once('error', reject);
    });
    worker.on('error', () => {}); // a crash (out of memory) is seen by the fuzzer as a dead target
  };
  await start();
  return {
    endpoint: () => endpoint,
    restart: async () => {
      await worker.terminate();
      await start();
    },
    stop: async () => {
      await worker.terminate();
    },
  };
}
