// The report model as JSON (bigints, should any reach it, as strings).
import type { RunReport } from './model.ts';

export function renderJson(report: RunReport): string {
  return `${JSON.stringify(report, (_k, v) => (typeof v === 'bigint' ? v.toString() : v), 2)}\n`;
}
