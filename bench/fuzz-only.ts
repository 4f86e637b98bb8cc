// The fuzzer's own cost, per kind: a campaign against a minimal server that answers every WIRE
// query or HTTP request with one fixed valid answer (bench/fixed-worker.mjs, in a worker thread),
// next to the raw client sending the same cases to the same server in the same run. The ratio
// then measures our cost (generation, the driver, oracles, bookkeeping), not a reference's.
//   npx jiti bench/fuzz-only.ts [--runs 20000] [--http-runs 4000] [--seed 42]
// Goal: >= 0.5 of raw for each kind. Also prints what generating a case costs alone, per kind
// (where http-xml's extra cost per case against build-ref comes from).
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import fc from 'fast-check';
import { chunkSeed, CHUNK } from '../fuzz/core/campaign.ts';
import type { FuzzKind, KindContext } from '../fuzz/core/kind.ts';
import { httpJson, httpXml } from '../fuzz/http/kinds.ts';
import { runFuzzInThread } from '../fuzz/thread.ts';
import { wireProtobuf } from '../fuzz/wire/kinds.ts';
import { rawWireRate } from './lib/raw-wire.ts';
import { rawHttpRate } from './lib/raw-http.ts';
import type { Endpoint } from '../fuzz/wire/transport.ts';
import type { TargetConfig } from '../src/config/types.ts';
import { cpuWindow, describeCpu, type CpuFigures, type CpuWindow } from './lib/cpu.ts';
import { reportRows } from './lib/rows.ts';

const args = process.argv.slice(2);
const opt = (name: string, fallback: number) => {
  const i = args.indexOf(`--${name}`);
  return i === -1 ? fallback : Number(args[i + 1]);
};
const seed = opt('seed', 42);
const wireRuns = opt('runs', 20_000);
const httpRuns = opt('http-runs', 4000);
const CONCURRENCY = 2;
const WINDOW = 8;

async function startFixed(protocol: 'wire' | 'cloud' | 'build'): Promise<{ endpoint: Endpoint; stop: () => Promise<number> }> {
  const worker = new Worker(new URL('./fixed-worker.mjs', import.meta.url), { workerData: { protocol } });
  const endpoint = await new Promise<Endpoint>((resolve) => worker.once('message', resolve));
  return { endpoint, stop: () => worker.terminate() };
}

/** The cases a campaign of one kind generates with this seed (chunk by chunk, same seeds, same context). */
function sameCases<C>(kind: FuzzKind<C>, ctx: KindContext, runs: number): C[] {
  const arb = kind.arbitrary(ctx);
  const out: C[] = [];
  for (let chunk = 0; out.length < runs; chunk++) out.push(...fc.sample(arb, { seed: chunkSeed(seed, chunk), numRuns: Math.min(CHUNK, runs - out.length) }));
  return out;
}

/** Generating cases alone: microseconds per case. */
function generationUs<C>(kind: FuzzKind<C>, ctx: KindContext, runs: number): number {
  const t0 = performance.now();
  sameCases(kind, ctx, runs);
  return ((performance.now() - t0) * 1000) / runs;
}

async function fuzzRate(targetName: string, target: TargetConfig, kind: string, runs: number): Promise<{ rate: number; cpu: CpuFigures; findings: number }> {
  const outDir = mkdtempSync(join(tmpdir(), 'conformance-bench-fixed-'));
  let window: CpuWindow | undefined;
  const r = await runFuzzInThread({ targetName, target, kinds: [kind], seed, runs, concurrency: CONCURRENCY, window: WINDOW, outDir }, { onStart: () => (window = cpuWindow()) });
  const cpu = window!.stop(r.cases);
  if (r.findingFiles.length) console.log(`  (${r.findingFiles.length} finding(s) against the fixed server: ${r.findingFiles.map((f) => f.finding.bucket).join('; ')})`);
  return { rate: r.cases / (r.elapsedMs / 1000), cpu, findings: r.findingFiles.length };
}



console.log(`Fuzzer-only throughput: each kind against a minimal server with one fixed valid answer, next to the raw client (seed ${seed}, ${CONCURRENCY} lanes x ${WINDOW} in flight)`);
const rows: { kind: string; fuzz: number; raw: number; genUs: number }[] = [];

{
  const server = await startFixed('wire');
  const target: TargetConfig = { protocol: 'wire', host: server.endpoint.host, port: server.endpoint.port, authKey: '' };
  const ctx = { authKey: '', seed };
  const raw = await rawWireRate(server.endpoint, sameCases(wireProtobuf, ctx, wireRuns), CONCURRENCY, WINDOW);
  const fuzz = await fuzzRate('fixed-wire', target, 'wire-protobuf', wireRuns);
  await server.stop();
  rows.push({ kind: 'wire-protobuf', fuzz: fuzz.rate, raw: raw.rate, genUs: generationUs(wireProtobuf, ctx, 2000) });
  console.log(`    fuzz: ${describeCpu(fuzz.cpu)}; raw: ${describeCpu(raw.cpu)}`);
}

for (const [protocol, kind, user] of [
  ['cloud', httpJson, undefined],
  ['build', httpXml, 'tux'],
] as const) {
  const server = await startFixed(protocol);
  const baseUrl = `http://${server.endpoint.host}:${server.endpoint.port}`;
  const target: TargetConfig =
    protocol === 'cloud' ? { protocol, baseUrl, tokens: { unrestricted: 'bench' } } : { protocol, baseUrl, users: { user: { username: 'tux', password: 'bench' } } };
  const ctx = { authKey: '', user, seed, destructive: false };
  const raw = await rawHttpRate(`http://${server.endpoint.host}:${server.endpoint.port}`, sameCases(kind, ctx, httpRuns), CONCURRENCY * WINDOW);
  const fuzz = await fuzzRate(`fixed-${protocol}`, target, kind.name, httpRuns);
  await server.stop();
  rows.push({ kind: kind.name, fuzz: fuzz.rate, raw: raw.rate, genUs: generationUs(kind, ctx, 1000) });
  console.log(`    fuzz: ${describeCpu(fuzz.cpu)}; raw: ${describeCpu(raw.cpu)}`);
}

for (const r of rows) {
  const ratio = r.fuzz / r.raw;
  console.log(`  ${r.kind.padEnd(13)} fuzz ${r.fuzz.toFixed(0).padStart(6)}/s, raw client ${r.raw.toFixed(0).padStart(6)}/s, ratio ${ratio.toFixed(2)} (goal >= 0.50) ${ratio >= 0.5 ? 'met' : 'NOT met'}; generating a case alone: ${r.genUs.toFixed(0)} µs`);
}
reportRows(
  rows.map((r) => ({
    metric: `fuzzer only: ${r.kind} vs a fixed-answer server`,
    value: r.fuzz,
    unit: 'cases/s',
    baseline: { name: 'raw client, same cases, same server', value: r.raw },
    goal: { kind: 'ratio-min' as const, limit: 0.5, text: 'ratio >= 0.5' },
    note: `generation ${r.genUs.toFixed(0)} µs/case`,
  })),
);
