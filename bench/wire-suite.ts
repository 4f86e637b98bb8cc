// Wall time of the full WIRE suite against an embedded wire-ref, in-process, through the same
// adapter and runner the CLI uses. Run: npx jiti bench/wire-suite.ts [--concurrency N] [--runs N]
// The goal: the whole suite in under 5 s on a developer machine (independent checks run concurrently).
import { prepareTarget } from '../src/adapters/index.ts';
import { timeoutsFor } from '../src/core/check.ts';
import { loadChecks } from '../src/core/registry.ts';
import { runChecks } from '../src/core/runner.ts';
import { reportRows } from './lib/rows.ts';

const GOAL_MS = 5000;

function option(name: string, fallback: number): number {
  const i = process.argv.indexOf(`--${name}`);
  const v = i === -1 ? NaN : Number(process.argv[i + 1]);
  return Number.isFinite(v) && v > 0 ? v : fallback;
}

const concurrency = option('concurrency', 4);
const runs = option('runs', 3);
const checks = await loadChecks(['wire']);
const times: number[] = [];
let failures = 0;

for (let run = 1; run <= runs; run++) {
  const target = await prepareTarget('wire-ref', { protocol: 'wire', embedded: true, authKey: '' });
  const started = performance.now();
  try {
    const results = await runChecks(target, checks, { seed: run, timeouts: timeoutsFor(10_000), concurrency });
    const elapsed = performance.now() - started;
    times.push(elapsed);
    const bad = results.filter((r) => r.status !== 'passed' && r.status !== 'skipped');
    failures += bad.length;
    for (const r of bad) console.log(`  ${r.status}: ${r.check.id}: ${r.message}`);
    console.log(`run ${run}: ${checks.length} checks in ${(elapsed / 1000).toFixed(3)} s (${(checks.length / (elapsed / 1000)).toFixed(0)} checks/s), ${bad.length} not passed`);
  } finally {
    await target.stop();
  }
}

const worst = Math.max(...times);
const median = [...times].sort((a, b) => a - b)[Math.floor(times.length / 2)];
console.log(`WIRE suite, concurrency ${concurrency}: median ${(median / 1000).toFixed(3)} s, worst ${(worst / 1000).toFixed(3)} s, ${(checks.length / (median / 1000)).toFixed(0)} checks/s`);
console.log(`goal < ${GOAL_MS / 1000} s: ${worst < GOAL_MS ? 'pass' : 'MISS'}${failures ? ` (but ${failures} check results were not passed)` : ''}`);
reportRows([{ metric: `WIRE suite (${checks.length} checks, worst of ${times.length} runs)`, value: worst / 1000, unit: 's', goal: { kind: 'max', limit: GOAL_MS / 1000, text: `< ${GOAL_MS / 1000} s` } }]);
process.exitCode = worst < GOAL_MS && failures === 0 ? 0 : 1;
