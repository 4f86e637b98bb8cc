// `npm run bench`: every figure measured in this run next to its baseline, as a ratio, with the
// goal it is held to. Results also go to reports/bench/ as JSON so runs can be compared.
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { cpus, totalmem, tmpdir } from 'node:os';
import { join } from 'node:path';

const root = new URL('..', import.meta.url).pathname;
const bin = join(root, 'bin/conformance.js');
const RUNS = 5;

interface Row {
  metric: string;
  value: number;
  unit: string;
  baseline?: { name: string; value: number };
  /** How the figure is held: ratio >= / value <= . */
  goal?: { kind: 'max' | 'min' | 'above-baseline-max'; limit: number; text: string };
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

/** Wall seconds and peak RSS (MB) of one command, through GNU time when the machine has it. */
function measure(args: string[], cwd = root): { seconds: number; rssMb?: number; stdout: string } {
  const gnuTime = existsSync('/usr/bin/time');
  const started = performance.now();
  const r = gnuTime
    ? spawnSync('/usr/bin/time', ['-f', '%M', process.execPath, ...args], { cwd, encoding: 'utf8', env: { ...process.env, CI: 'true' } })
    : spawnSync(process.execPath, args, { cwd, encoding: 'utf8', env: { ...process.env, CI: 'true' } });
  const seconds = (performance.now() - started) / 1000;
  const rssKb = gnuTime ? Number(r.stderr.trim().split('\n').at(-1)) : NaN;
  return { seconds, rssMb: Number.isFinite(rssKb) ? rssKb / 1024 : undefined, stdout: r.stdout };
}

function repeat(args: string[]): number {
  return median(Array.from({ length: RUNS }, () => measure(args).seconds));
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
const full = measure([bin, '--out', out, '--seed', '1']);
const report = JSON.parse(readFileSync(join(out, 'conformance.json'), 'utf8'));
rows.push({ metric: 'full run of all embedded targets', value: full.seconds, unit: 's', goal: { kind: 'max', limit: 10, text: '< 10 s wall' } });
rows.push({ metric: 'full run: checks per second', value: report.totals.total / full.seconds, unit: 'checks/s' });
if (full.rssMb !== undefined) rows.push({ metric: 'full run: peak RSS', value: full.rssMb, unit: 'MB', goal: { kind: 'max', limit: 200, text: '< 200 MB' } });

function verdict(r: Row): string {
  if (!r.goal) return '';
  const v = r.goal.kind === 'above-baseline-max' ? r.value - (r.baseline?.value ?? 0) : r.value;
  const met = r.goal.kind === 'min' ? v >= r.goal.limit : v <= r.goal.limit;
  return met ? `met (${r.goal.text})` : `MISSED by ${Math.abs(v - r.goal.limit).toFixed(2)} (${r.goal.text})`;
}

const fmt = (n: number) => (n >= 100 ? n.toFixed(0) : n.toFixed(3));
const table = [['metric', 'value', 'baseline', 'ratio', 'goal'], ...rows.map((r) => [
  r.metric,
  `${fmt(r.value)} ${r.unit}`,
  r.baseline ? `${fmt(r.baseline.value)} ${r.unit} (${r.baseline.name})` : '',
  r.baseline ? `${(r.value / r.baseline.value).toFixed(2)}x` : '',
  verdict(r),
])];
const widths = table[0].map((_, i) => Math.max(...table.map((row) => row[i].length)));
const machine = `${cpus().length} cores (${cpus()[0]?.model.trim()}), ${(totalmem() / 2 ** 30).toFixed(0)} GiB, node ${process.version}`;
console.log(`conformance bench — ${new Date().toISOString()} — ${machine}`);
console.log(`full run: ${report.totals.total} checks over ${report.targets.length} targets\n`);
for (const row of table) console.log(row.map((c, i) => c.padEnd(widths[i])).join('  '));

// Other benchmarks in bench/ (each prints its own table), run in the same invocation.
for (const file of readdirSync(join(root, 'bench')).filter((f) => f.endsWith('.ts') && f !== 'index.ts').sort()) {
  console.log(`\n## bench/${file}`);
  try {
    console.log(execFileSync(process.execPath, [join(root, 'node_modules/jiti/lib/jiti-cli.mjs'), join(root, 'bench', file)], { cwd: root, encoding: 'utf8', env: { ...process.env, CI: 'true' } }).trimEnd());
  } catch (err) {
    console.log(`failed: ${(err as Error).message.split('\n')[0]}`);
  }
}

const dir = join(root, 'reports', 'bench');
mkdirSync(dir, { recursive: true });
const json = JSON.stringify({ at: new Date().toISOString(), machine, rows: rows.map((r) => ({ ...r, verdict: verdict(r) })) }, null, 2);
writeFileSync(join(dir, `bench-${Date.now()}.json`), json);
writeFileSync(join(dir, 'latest.json'), json);
console.log(`\nresults: reports/bench/latest.json`);
