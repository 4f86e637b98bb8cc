// The raw WIRE client the fuzz benches compare against: the same cases' bytes written on
// `lanes` connections, `window` cases in flight each, each case done when every frame it holds
// has been answered. No generation, no decoding, no oracle: what sending costs by itself.
import { FrameReader } from '../../src/clients/wire/frame-reader.ts';
import type { WireCase } from '../../fuzz/wire/case.ts';
import { defaultHandshake } from '../../fuzz/wire/executor.ts';
import { RawWire, type Endpoint } from '../../fuzz/wire/transport.ts';
import { cpuWindow, type CpuFigures } from './cpu.ts';

export async function rawWireRate(endpoint: Endpoint, cases: WireCase[], lanes: number, window: number): Promise<{ rate: number; cpu: CpuFigures }> {
  const jobs = cases.map((c) => ({ bytes: Buffer.concat(c.writes), frames: new FrameReader(0xffffffff).push(Buffer.concat(c.writes)).length }));
  let next = 0;
  const t0 = performance.now();
  const cpu = cpuWindow();
  await Promise.all(
    Array.from({ length: lanes }, async () => {
      const conn = await RawWire.connect(endpoint, 5000);
      const waiting: { left: number; done: () => void }[] = [];
      let ready!: () => void;
      const handshake = new Promise<void>((r) => (ready = r));
      conn.handlers = {
        onHandshakeReply: () => ready(),
        onFrame: () => {
          const w = waiting[0];
          if (--w.left === 0) {
            waiting.shift();
            w.done();
          }
        },
      };
      await conn.write(defaultHandshake(''));
      await handshake;
      await Promise.all(
        Array.from({ length: window }, async () => {
          while (next < jobs.length) {
            const job = jobs[next++];
            await new Promise<void>((done) => {
              waiting.push({ left: job.frames, done });
              void conn.write(job.bytes);
            });
          }
        }),
      );
      conn.close();
    }),
  );
  const rate = jobs.length / ((performance.now() - t0) / 1000);
  return { rate, cpu: cpu.stop(jobs.length) };
}
