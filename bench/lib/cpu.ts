// CPU next to wall time, for the throughput benches: how many cores the process kept busy (the
// fuzzer's thread and the reference's worker together) and the CPU each case cost. A ratio goal
// a bench misses while the cores are busy is a CPU budget, not a latency, problem: with C cores
// and `cpuUsPerCase`, no schedule runs more than C / cpuUsPerCase cases per second.
import { availableParallelism } from 'node:os';

export interface CpuWindow {
  /** Ends the window: figures for `cases` cases run since it opened. */
  stop(cases: number): CpuFigures;
}

export interface CpuFigures {
  wallMs: number;
  /** Cores busy on average over the window (user + system CPU / wall). */
  cores: number;
  cpuUsPerCase: number;
  /** The most cases per second this CPU cost allows on this machine's cores. */
  ceilingPerSecond: number;
}

export function cpuWindow(): CpuWindow {
  const cpu0 = process.cpuUsage();
  const t0 = performance.now();
  return {
    stop(cases) {
      const cpu = process.cpuUsage(cpu0);
      const wallMs = performance.now() - t0;
      const cpuUs = cpu.user + cpu.system;
      const cpuUsPerCase = cpuUs / Math.max(1, cases);
      return { wallMs, cores: cpuUs / 1000 / wallMs, cpuUsPerCase, ceilingPerSecond: (availableParallelism() * 1e6) / cpuUsPerCase };
    },
  };
}

export const describeCpu = (f: CpuFigures) =>
  `${f.cpuUsPerCase.toFixed(0)} µs CPU per case, ${f.cores.toFixed(2)} of ${availableParallelism()} cores busy (CPU ceiling ${f.ceilingPerSecond.toFixed(0)}/s)`;
