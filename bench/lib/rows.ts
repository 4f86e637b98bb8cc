// One row of the `npm run bench` table. The benches in bench/ print their own details and hand
// their headline rows to bench/index.ts (through the file named by BENCH_ROWS), so that one
// table holds every figure of the run next to its baseline and goal.
import { appendFileSync } from 'node:fs';

export interface Row {
  metric: string;
  value: number;
  unit: string;
  baseline?: { name: string; value: number };
  /**
   * How the figure is held: `max`/`min` bound the value, `above-baseline-max` bounds value minus
   * baseline, `ratio-min` bounds value / baseline from below.
   */
  goal?: { kind: 'max' | 'min' | 'above-baseline-max' | 'ratio-min'; limit: number; text: string };
  /** Why a missed goal is missed, in a few words (the README has the long form). */
  note?: string;
}

export function verdict(r: Row): string {
  if (!r.goal) return '';
  const base = r.baseline?.value ?? 0;
  const v = r.goal.kind === 'above-baseline-max' ? r.value - base : r.goal.kind === 'ratio-min' ? r.value / base : r.value;
  const met = r.goal.kind === 'min' || r.goal.kind === 'ratio-min' ? v >= r.goal.limit : v <= r.goal.limit;
  return met ? `met (${r.goal.text})` : `MISSED by ${Math.abs(v - r.goal.limit).toFixed(2)} (${r.goal.text})`;
}

/** Hands rows to bench/index.ts when it runs this bench; a bench run alone only prints. */
export function reportRows(rows: Row[]): void {
  const file = process.env.BENCH_ROWS;
  if (file) for (const r of rows) appendFileSync(file, `${JSON.stringify(r)}\n`);
}
