// HTTP fuzz throughput against cloud-ref and build-ref, next to a raw baseline measured in the
// same run:
//   npx jiti bench/http-fuzz.ts [--runs 4000] [--seed 42]
// The baseline sends the same requests (the cases of the same seed, generated before the clock
// starts) with raw undici (a Pool, the same requests in flight) to a bare node:http server that
// answers every request with a fixed small body of the protocol's type: transport and HTTP cost
// without a reference server's work, case generation or oracles. Goal: fuzz >= 0.5 x baseline.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { chunkSeed, CHUNK } from '../fuzz/core/campaign.ts';
import type { FuzzKind } from '../fuzz/core/kind.ts';
import type { HttpCase } from '../fuzz/http/case.ts';
import { httpJson, httpXml } from '../fuzz/http/kinds.ts';
import { runFuzzInThread } from '../fuzz/thread.ts';
import { cpuWindow, describeCpu, type CpuFigures, type CpuWindow } from './lib/cpu.ts';
import { reportRows } from './lib/rows.ts';
import { rawHttpRate } from './lib/raw-http.ts';

const args = process.argv.slice(2);
const opt = (name: string, fallback: number) => {
  const i = args.indexOf(`--${name}`);
  return i === -1 ? fallback : Number(args[i + 1]);
};
const seed = opt('seed', 42);
const runs = opt('runs', 4000);
const CONCURRENCY = 2;
const WINDOW = 8;

function sameCases(kind: FuzzKind<HttpCase>, user?: string): HttpCase[] {
  const arb = kind.arbitrary({ authKey: '', user });
  const out: HttpCase[] = [];
  for (let chunk = 0; out.length < runs; chunk++) out.push(...fc.sample(arb, { seed: chunkSeed(seed, chunk), numRuns: Math.min(CHUNK, runs - out.length) }));
  return out;
}

async function baselineRate(cases: HttpCase[], contentType: string, body: string): Promise<{ rate: number; cpu: CpuFigures }> {
  const server = http.createServer((req, res) => {
    req.resume();
    req.on('end', () => res.writeHead(200, { 'content-type': contentType }).end(body));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  try {
    return await rawHttpRate(`http://127.0.0.1:${(server.address() as AddressInfo).port}`, cases, CONCURRENCY * WINDOW);
  } finally {
    server.close();
  }
}

async function fuzzRate(protocol: 'cloud' | 'build'): Promise<{ rate: number; cpu: CpuFigures }> {
  const outDir = mkdtempSync(join(tmpdir(), 'conformance-bench-http-'));
  let window: CpuWindow | undefined;
  // As `conformance fuzz` runs it: the campaign in its own thread.
  const r = await runFuzzInThread({ targetName: `${protocol}-ref`, target: { protocol, embedded: true }, seed, runs, concurrency: CONCURRENCY, window: WINDOW, outDir }, { onStart: () => (window = cpuWindow()) });
  const cpu = window!.stop(r.cases);
  if (r.findingFiles.length) console.log(`  (${r.findingFiles.length} finding(s): ${r.findingFiles.map((f) => f.finding.bucket).join('; ')})`);
  return { rate: r.cases / (r.elapsedMs / 1000), cpu };
}

console.log(`HTTP fuzz throughput (${runs} cases per kind, seed ${seed}, ${CONCURRENCY} lanes x ${WINDOW} in flight)`);
for (const [protocol, kind, type, body, user] of [
  ['cloud', httpJson, 'application/json', '{"errors":[{"reason":"bench"}]}', undefined],
  ['build', httpXml, 'application/xml', '<status code="ok"><summary>Ok</summary></status>', 'tux'],
] as const) {
  const { rate: base, cpu: baseCpu } = await baselineRate(sameCases(kind, user), type, body);
  const { rate: fuzz, cpu: fuzzCpu } = await fuzzRate(protocol);
  console.log(`  ${kind.name} against ${protocol}-ref: ${fuzz.toFixed(0)} requests/s; raw undici to a bare node:http server: ${base.toFixed(0)} requests/s; ratio ${(fuzz / base).toFixed(2)} (goal >= 0.50) ${fuzz / base >= 0.5 ? 'met' : `NOT met, short by ${(0.5 - fuzz / base).toFixed(2)} (${(base * 0.5 - fuzz).toFixed(0)} requests/s)`}`);
  console.log(`    fuzz: ${describeCpu(fuzzCpu)}; baseline: ${describeCpu(baseCpu)}`);
  console.log(`    the fuzz's CPU per request allows at most ${(fuzzCpu.ceilingPerSecond / base).toFixed(2)} of the baseline on these cores`);
  reportRows([
    {
      metric: `HTTP fuzz ${kind.name} vs ${protocol}-ref`,
      value: fuzz,
      unit: 'req/s',
      baseline: { name: 'raw undici to a bare node:http', value: base },
      goal: { kind: 'ratio-min', limit: 0.5, text: 'ratio >= 0.5' },
      note: `CPU per request allows at most ${(fuzzCpu.ceilingPerSecond / base).toFixed(2)}`,
    },
  ]);
}
