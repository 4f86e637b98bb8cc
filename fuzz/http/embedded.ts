// The embedded cloud-ref or build-ref of an HTTP fuzz campaign runs in a worker thread, as the
// WIRE one does: the reference gets the second core, and restarting it (after a fuzz fault or a
// real bug killed it) is terminating the worker and starting another on a new port.
import { Worker } from 'node:worker_threads';
import { ConfigError } from '../../src/core/errors.ts';

export interface EmbeddedHttp {
  /** What the running reference seeded: baseUrl, tokens or users, fixtures. */
  seeded(): Record<string, unknown> & { baseUrl: string };
  restart(): Promise<void>;
  stop(): Promise<void>;
}

export async function startEmbeddedHttp(protocol: 'cloud' | 'build', options: Record<string, unknown>): Promise<EmbeddedHttp> {
  let worker: Worker;
  let seeded: Record<string, unknown> & { baseUrl: string };
  const start = async () => {
    worker = new Worker(new URL('./embedded-worker.mjs', import.meta.url), { workerData: { protocol, ...options }, resourceLimits: { maxOldGenerationSizeMb: 512 } });
    seeded = await new Promise((resolve, reject) => {
      worker.once('message', (m: { seeded?: typeof seeded; error?: string }) => (m.error ? reject(new ConfigError(`embedded ${protocol}-ref: ${m.error}`)) : resolve(m.seeded!)));
      worker.once('error', reject);
    });
    worker.on('error', () => {}); // a crash is seen by the fuzzer as a dead target
  };
  await start();
  return {
    seeded: () => seeded,
    restart: async () => {
      await worker.terminate();
      await start();
    },
    stop: async () => {
      await worker.terminate();
    },
  };
}
