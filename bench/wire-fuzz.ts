// WIRE fuzz throughput next to a raw loopback baseline measured in the same run:
//   npx jiti bench/wire-fuzz.ts [--runs 20000] [--seed 42] [--concurrency 2]
// The baseline sends the same frames (the wire-protobuf cases of the same seed, generated before
// the clock starts) to an echo server in a worker thread, with the same lanes and cases in flight,
// and waits for every frame to come back: transport cost without protobuf work or oracles.
// Goal: fuzz cases/s >= 0.5 x baseline.
// (The 1,000,000-case memory campaign is a row of `npm run bench`, bench/index.ts.)
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import fc from 'fast-check';
import { chunkSeed, CHUNK } from '../fuzz/core/campaign.ts';
import { runFuzzInThread } from '../fuzz/thread.ts';
import type { WireCase } from '../fuzz/wire/case.ts';
import { wireProtobuf } from '../fuzz/wire/kinds.ts';
import type { Endpoint } from '../fuzz/wire/transport.ts';
import { cpuWindow, describeCpu, type CpuFigures, type CpuWindow } from './lib/cpu.ts';
import { rawWireRate } from './lib/raw-wire.ts';
import { reportRows } from './lib/rows.ts';

const args = process.argv.slice(2);
const opt = (name: string, fallback: number) => {
  const i = args.indexOf(`--${name}`);
  return i === -1 ? fallback : Number(args[i + 1]);
};
const seed = opt('seed', 42);
const concurrency = opt('concurrency', 2);
const WINDOW = 8; // cases in flight per lane, as the campaign's default
const target = { protocol: 'wire', embedded: true, authKey: '' } as const;


async function fuzzRate(runs: number, kinds?: string[]): Promise<{ rate: number; cpu: CpuFigures }> {
  const outDir = mkdtempSync(join(tmpdir(), 'conformance-bench-'));
  let window: CpuWindow | undefined;
  // As `conformance fuzz` runs it: the campaign in its own thread.
  const r = await runFuzzInThread({ targetName: 'wire-ref', target, kinds, seed, runs, concurrency, window: WINDOW, outDir }, { onStart: () => (window = cpuWindow()) });
  const cpu = window!.stop(r.cases);
  if (r.findingFiles.length) console.log(`  (${r.findingFiles.length} finding(s): ${r.findingFiles.map((f) => f.finding.bucket).join('; ')})`);
  return { rate: r.cases / (r.elapsedMs / 1000), cpu };
}

/** The cases the campaign generates for wire-protobuf with this seed (chunk by chunk, same seeds). */
function sameCases(runs: number): WireCase[] {
  const arb = wireProtobuf.arbitrary({ authKey: '' });
  const out: WireCase[] = [];
  for (let chunk = 0; out.length < runs; chunk++) out.push(...fc.sample(arb, { seed: chunkSeed(seed, chunk), numRuns: Math.min(CHUNK, runs - out.length) }));
  return out;
}

async function baselineRate(cases: WireCase[]): Promise<{ rate: number; cpu: CpuFigures }> {
  const worker = new Worker(new URL('./echo-worker.mjs', import.meta.url));
  const endpoint = await new Promise<Endpoint>((resolve) => worker.once('message', resolve));
  try {
    return await rawWireRate(endpoint, cases, concurrency, WINDOW);
  } finally {
    await worker.terminate();
  }
}

const runs = opt('runs', 20_000);
const cases = sameCases(runs);
const { rate: base, cpu: baseCpu } = await baselineRate(cases);
const { rate: fuzz, cpu: fuzzCpu } = await fuzzRate(runs, ['wire-protobuf']);
const { rate: all } = await fuzzRate(Math.round(runs / 4));
console.log(`WIRE fuzz throughput (${runs} wire-protobuf cases, seed ${seed}, ${concurrency} lanes x ${WINDOW} in flight)`);
console.log(`  loopback echo baseline (same frames): ${base.toFixed(0)} cases/s; ${describeCpu(baseCpu)}`);
console.log(`  fuzz wire-protobuf:                   ${fuzz.toFixed(0)} cases/s; ${describeCpu(fuzzCpu)}`);
console.log(`  ratio ${(fuzz / base).toFixed(2)} (goal >= 0.50) ${fuzz / base >= 0.5 ? 'met' : `NOT met, short by ${(0.5 - fuzz / base).toFixed(2)} (${(base * 0.5 - fuzz).toFixed(0)} cases/s)`}`);
console.log(`  the fuzz's CPU per case allows at most ${(fuzzCpu.ceilingPerSecond / base).toFixed(2)} of the baseline on these cores`);
console.log(`  (all WIRE kinds, incl. one connection per wire-bytes/wire-handshake case: ${all.toFixed(0)} cases/s)`);
reportRows([
  {
    metric: 'WIRE fuzz wire-protobuf vs wire-ref',
    value: fuzz,
    unit: 'cases/s',
    baseline: { name: 'loopback echo of the same frames', value: base },
    goal: { kind: 'ratio-min', limit: 0.5, text: 'ratio >= 0.5' },
    note: `CPU per case allows at most ${(fuzzCpu.ceilingPerSecond / base).toFixed(2)}`,
  },
]);
