// The raw HTTP client the fuzz benches compare against: the same cases sent with undici,
// `inFlight` at once over 16 connections, bodies read and dropped. No generation, no oracle.
import { Pool } from 'undici';
import type { HttpCase } from '../../fuzz/http/case.ts';
import { cpuWindow, type CpuFigures } from './cpu.ts';

export async function rawHttpRate(origin: string, cases: HttpCase[], inFlight: number): Promise<{ rate: number; cpu: CpuFigures }> {
  const pool = new Pool(origin, { connections: 16 });
  let next = 0;
  const t0 = performance.now();
  const window = cpuWindow();
  await Promise.all(
    Array.from({ length: inFlight }, async () => {
      while (next < cases.length) {
        const c = cases[next++];
        const search = new URLSearchParams(c.query ?? {}).toString();
        const res = await pool.request({ method: c.method, path: `${c.path}${search ? `?${search}` : ''}`, headers: { ...c.headers, authorization: 'Bearer bench' }, body: c.body });
        await res.body.arrayBuffer();
      }
    }),
  );
  const rate = cases.length / ((performance.now() - t0) / 1000);
  const cpu = window.stop(cases.length);
  await pool.close();
  return { rate, cpu };
}
