// Markdown for pull-request comments (and the GitHub job summary): totals per target, then
// one entry per check that did not pass, with its citation and reproduction command.
import { repeatText, type CheckResult } from '../core/result.ts';
import { markdownInline, visible } from './boundary.ts';
import { citation, gates, reproduceCommand, selectionLines, verdictLines, type RunReport } from './model.ts';

const ICON: Record<CheckResult['status'], string> = { passed: '✅', failed: '❌', inconclusive: '❔', error: '⚠️', skipped: '⏭️' };

/**
 * A line of the tool's own words, which may hold a file name or a glob the user gave, and a
 * target's words (why a target was unusable). `& < > [ ]` become entities, so neither HTML nor a
 * link can form; other markup characters are escaped; parentheses stay plain for a reader.
 */
const ENTITY: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '[': '&#91;', ']': '&#93;' };
function toolLine(s: string): string {
  return visible(s)
    .replace(/[&<>[\]]/g, (c) => ENTITY[c])
    .replace(/[\\`*_|#~!]/g, (c) => `\\${c}`);
}

export function renderMarkdown(report: RunReport): string {
  const out = [`## Conformance: ${report.totals.passed}/${report.totals.total} checks passed`, ''];
  // The gate's verdict in words, and what was selected: the same lines as the console's.
  const [head, ...rest] = verdictLines(report);
  out.push(`**${toolLine(head)}**`, '', ...rest.map((l) => `- ${toolLine(l)}`));
  for (const l of selectionLines(report)) out.push(`- selection: ${toolLine(l)}`);
  out.push('');
  out.push('| target | protocol | passed | failed | inconclusive | errors | skipped |', '|---|---|---|---|---|---|---|');
  for (const t of report.targets) out.push(`| ${t.name} | ${t.protocol} | ${t.totals.passed} | ${t.totals.failed} | ${t.totals.inconclusive ?? 0} | ${t.totals.error} | ${t.totals.skipped} |`);
  out.push('', `Tool ${report.tool.name} ${report.tool.version}, seed ${report.seed}, ${report.startedAt}, ${(report.durationMs / 1000).toFixed(2)} s.`);
  for (const t of report.targets) {
    const bad = t.results.filter((r) => r.status === 'failed' || r.status === 'error');
    const untested = t.results.filter((r) => r.status === 'inconclusive');
    if (!bad.length && !untested.length) continue;
    out.push('', `### ${t.name}`);
    if (bad.length) out.push('');
    for (const r of bad) entry(r, t);
    if (untested.length) out.push('', `Inconclusive (the rule was not tested):`, '');
    for (const r of untested) entry(r, t);
  }
  return `${out.join('\n')}\n`;

  function entry(r: RunReport['targets'][number]['results'][number], t: RunReport['targets'][number]): void {
    out.push(`- ${r.known ? '🔁 known:' : ICON[r.status]} **\`${r.check.id}\`** (${r.check.level})${r.repeats ? ` _${r.repeats.label}_` : ''} ${markdownInline(visible(r.message ?? ''))}`);
    if (r.repeats) out.push(`  - repeat: ${markdownInline(visible(repeatText(r.repeats)))}`);
    out.push(`  - ${r.check.section} — \`${r.check.spec.file}:${r.check.spec.line}\` “${r.check.spec.quote}”`);
    out.push(`  - reproduce: \`${reproduceCommand(report, t, r.check.id)}\``);
  }
}

/**
 * GitHub Actions workflow commands: an error or warning per check that failed or errored, and a
 * notice per inconclusive check (a warning under --strict, where it fails the run).
 */
export function renderGithubAnnotations(report: RunReport): string {
  // Workflow-command data: `%`, CR and LF encoded, control characters visible, so no part of a
  // message can end the command or start a line of its own (`::stop-commands::`, `::error::`).
  const escape = (s: string) => visible(s).replace(/%/g, '%25').replace(/\r/g, '%0D').replace(/\n/g, '%0A');
  const lines: string[] = [];
  for (const t of report.targets) {
    for (const r of t.results) {
      if (r.status !== 'failed' && r.status !== 'error' && r.status !== 'inconclusive') continue;
      const kind = r.known
        ? 'notice'
        : r.status === 'inconclusive'
          ? gates(r.status, report.strict) ? 'warning' : 'notice'
          : r.status === 'failed' && r.check.level === 'MUST' ? 'error' : 'warning';
      const what = r.known ? `known ${r.status} (baseline): ${r.message ?? ''}` : r.status === 'inconclusive' ? `inconclusive: ${r.message ?? ''}` : (r.message ?? r.status);
      const title = escape(`${t.name}: ${r.check.id} [${r.check.level}]`).replace(/,/g, '%2C').replace(/::/g, ': ');
      lines.push(`::${kind} title=${title}::${escape(`${what} (${citation(r.check)})`)}`);
    }
  }
  return lines.join('\n');
}
