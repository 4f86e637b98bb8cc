// `npm run bench`: every figure measured in this run next to its baseline, as a ratio, with the
// goal it is held to. Results also go to reports/bench/ as JSON so runs can be compared.
import { spawnSync } from 'node:child_process';
import { appendFileSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, totalmem, tmpdir } from 'node:os';
import { join } from 'node:path';
import { measureNode } from './lib/measure.ts';
import { verdict, type Row } from './lib/rows.ts';

const root = new URL('..', import.meta.url).pathname;
const bin = join(root, 'bin/conformance.js');
const RUNS = 5;
/** `npm run bench -- --quick` leaves out the 1,000,000-case campaign (about 5 minutes). */
const quick = process.argv.includes('--quick');
const MILLION = 1_000_000;

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

function repeat(args: string[]): number {
  return median(Array.from({ length: RUNS }, () => measureNode(args, { cwd: root }).seconds));
}

const rows: Row[] = [];

// CLI start-up against bare node (the goal: under 0.3 s above it).
const bare = repeat(['-e', '0']);
for (const [name, args] of [['conformance --help', [bin, '--help']], ['conformance list', [bin, 'list']]] as const) {
  const t = repeat([...args]);
  rows.push({ metric: `start-up: ${name}`, value: t, unit: 's', baseline: { name: 'node -e 0', value: bare }, goal: { kind: 'above-baseline-max', limit: 0.3, text: '< 0.3 s above bare node' } });
}

// The full run of every embedded target.
const out = mkdtempSync(join(tmpdir(), 'conformance-bench-'));
const full = measureNode([bin, '--out', out, '--seed', '1'], { cwd: root });
const report = JSON.parse(readFileSync(join(out, 'conformance.json'), 'utf8'));
rows.push({ metric: 'full run of all embedded targets', value: full.seconds, unit: 's', goal: { kind: 'max', limit: 10, text: '< 10 s wall' } });
rows.push({ metric: 'full run: checks per second', value: report.totals.total / full.seconds, unit: 'checks/s' });
if (full.rssMb !== undefined) rows.push({ metric: 'full run: peak RSS', value: full.rssMb, unit: 'MB', goal: { kind: 'max', limit: 200, text: '< 200 MB' } });

// The 1,000,000-case WIRE campaign, as a user runs it; its peak RSS covers every thread
// (the CLI, the campaign, the embedded wire-ref).
if (!quick) {
  console.log(`1,000,000-case WIRE campaign against wire-ref (progress every 5 s; --quick leaves it out):`);
  const fuzzOut = mkdtempSync(join(tmpdir(), 'conformance-bench-million-'));
  // A short campaign first: the first run after an install transforms the TypeScript (babel, in
  // every thread) and fills jiti's cache; every later run reads the cache.
  measureNode([bin, 'fuzz', '--target', 'wire-ref', '--runs', '100', '--seed', '1', '--out', fuzzOut], { cwd: root });
  const million = measureNode([bin, 'fuzz', '--target', 'wire-ref', '--runs', String(MILLION), '--seed', '42', '--out', fuzzOut], { cwd: root, echo: true });
  const campaign = JSON.parse(readFileSync(join(fuzzOut, 'fuzz.json'), 'utf8'));
  const ok = million.status === 0 && campaign.cases === MILLION;
  rows.push({ metric: `WIRE fuzz, ${campaign.cases} cases (every kind): wall`, value: million.seconds, unit: 's', note: ok ? `${(campaign.cases / (campaign.durationMs / 1000)).toFixed(0)} cases/s, 0 findings` : `exit ${million.status}, ${campaign.findings.length} finding(s)` });
  if (million.rssMb !== undefined) rows.push({ metric: `WIRE fuzz, ${campaign.cases} cases: peak RSS`, value: million.rssMb, unit: 'MB', goal: { kind: 'max', limit: 200, text: '< 200 MB' } });
  rmSync(fuzzOut, { recursive: true, force: true });
}

// The other benches in bench/ print their details here and hand their headline rows back.
const handed = join(mkdtempSync(join(tmpdir(), 'conformance-bench-rows-')), 'rows.jsonl');
appendFileSync(handed, '');
for (const file of readdirSync(join(root, 'bench')).filter((f) => f.endsWith('.ts') && f !== 'index.ts').sort()) {
  console.log(`\n## bench/${file}`);
  const r = spawnSync(process.execPath, [join(root, 'node_modules/jiti/lib/jiti-cli.mjs'), join(root, 'bench', file)], {
    cwd: root,
    encoding: 'utf8',
    env: { ...process.env, CI: 'true', BENCH_ROWS: handed },
  });
  console.log(`${r.stdout}${r.stderr}`.trimEnd());
  if (r.status !== 0) console.log(`(bench/${file} exited ${r.status})`);
}
rows.push(...readFileSync(handed, 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l) as Row));

const fmt = (n: number) => (n >= 100 ? n.toFixed(0) : n.toFixed(3));
const table = [['metric', 'value', 'baseline', 'ratio', 'goal', 'note'], ...rows.map((r) => [
  r.metric,
  `${fmt(r.value)} ${r.unit}`,
  r.baseline ? `${fmt(r.baseline.value)} ${r.unit} (${r.baseline.name})` : '',
  r.baseline ? `${(r.value / r.baseline.value).toFixed(2)}x` : '',
  verdict(r),
  r.note ?? '',
])];
const widths = table[0].map((_, i) => Math.max(...table.map((row) => row[i].length)));
const machine = `${cpus().length} cores (${cpus()[0]?.model.trim()}), ${(totalmem() / 2 ** 30).toFixed(0)} GiB, node ${process.version}`;
console.log(`\nconformance bench — ${new Date().toISOString()} — ${machine}`);
console.log(`full run: ${report.totals.total} checks over ${report.targets.length} targets\n`);
for (const row of table) console.log(row.map((c, i) => c.padEnd(widths[i])).join('  ').trimEnd());

const dir = join(root, 'reports', 'bench');
mkdirSync(dir, { recursive: true });
const json = JSON.stringify({ at: new Date().toISOString(), machine, rows: rows.map((r) => ({ ...r, verdict: verdict(r) })) }, null, 2);
writeFileSync(join(dir, `bench-${Date.now()}.json`), json);
writeFileSync(join(dir, 'latest.json'), json);
console.log(`\nresults: reports/bench/latest.json`);
