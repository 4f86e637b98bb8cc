// Markdown for pull-request comments (and the GitHub job summary): totals per target, then
// one entry per check that did not pass, with its citation and reproduction command.
import type { CheckResult } from '../core/result.ts';
import { reproduceCommand, type RunReport } from './model.ts';

const ICON: Record<CheckResult['status'], string> = { passed: '✅', failed: '❌', inconclusive: '❔', error: '⚠️', skipped: '⏭️' };

export function renderMarkdown(report: RunReport): string {
  const out = [`## Conformance: ${report.totals.passed}/${report.totals.total} checks passed`, ''];
  out.push('| target | protocol | passed | failed | errors | skipped |', '|---|---|---|---|---|---|');
  for (const t of report.targets) out.push(`| ${t.name} | ${t.protocol} | ${t.totals.passed} | ${t.totals.failed} | ${t.totals.error} | ${t.totals.skipped} |`);
  out.push('', `Tool ${report.tool.name} ${report.tool.version}, seed ${report.seed}, ${report.startedAt}, ${(report.durationMs / 1000).toFixed(2)} s.`);
  for (const t of report.targets) {
    const bad = t.results.filter((r) => r.status === 'failed' || r.status === 'error');
    if (!bad.length) continue;
    out.push('', `### ${t.name}`, '');
    for (const r of bad) {
      out.push(`- ${ICON[r.status]} **\`${r.check.id}\`** (${r.check.level}) ${r.message ?? ''}`);
      out.push(`  - ${r.check.section} — \`${r.check.spec.file}:${r.check.spec.line}\` “${r.check.spec.quote}”`);
      out.push(`  - reproduce: \`${reproduceCommand(report, t, r.check.id)}\``);
    }
  }
  return `${out.join('\n')}\n`;
}

/** GitHub Actions workflow commands: one annotation per check that failed or errored. */
export function renderGithubAnnotations(report: RunReport): string {
  const escape = (s: string) => s.replace(/%/g, '%25').replace(/\r/g, '%0D').replace(/\n/g, '%0A');
  const lines: string[] = [];
  for (const t of report.targets) {
    for (const r of t.results) {
      if (r.status !== 'failed' && r.status !== 'error') continue;
      const kind = r.status === 'failed' && r.check.level === 'MUST' ? 'error' : 'warning';
      const title = escape(`${t.name}: ${r.check.id} [${r.check.level}]`).replace(/,/g, '%2C').replace(/::/g, ': ');
      lines.push(`::${kind} title=${title}::${escape(`${r.message ?? r.status} (${r.check.spec.file}:${r.check.spec.line})`)}`);
    }
  }
  return lines.join('\n');
}
