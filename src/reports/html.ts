// The HTML compliance report: one self-contained file (inline CSS and script, no network) from
// the report model. At a glance a matrix per target and document section coloured by result and
// totals by level; per failure the message, the cited line, the evidence and the reproduction.
// Filters by result and level are plain checkboxes handled in the page itself.
import { STATUSES, totalsLine, type CheckResult } from '../core/result.ts';
import { evidenceText } from './evidence-text.ts';
import { gateSummary, outcomeDetails, reproduceCommand, selectionLines, verdictLines, type RunReport, type TargetReport } from './model.ts';

const LEVELS = ['MUST', 'SHOULD'] as const;

function esc(s: unknown): string {
  return String(s ?? '').replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);
}

function totalsTable(results: readonly CheckResult[]): string {
  const head = `<tr><th></th>${STATUSES.map((s) => `<th class="${s}">${s}</th>`).join('')}<th>total</th></tr>`;
  const rows = LEVELS.map((level) => {
    const mine = results.filter((r) => r.check.level === level);
    return `<tr><th>${level}</th>${STATUSES.map((s) => `<td>${mine.filter((r) => r.status === s).length}</td>`).join('')}<td>${mine.length}</td></tr>`;
  });
  return `<table class="totals">${head}${rows.join('')}</table>`;
}

function matrix(target: TargetReport): string {
  const sections = new Map<string, CheckResult[]>();
  for (const r of target.results) sections.set(r.check.section, [...(sections.get(r.check.section) ?? []), r]);
  const rows = [...sections].map(([section, results]) => {
    const cells = results
      .map((r) => `<a class="cell ${r.status} lvl-${r.check.level}" href="#${esc(anchor(target, r))}" title="${esc(`${r.check.id} [${r.check.level}] ${r.status}${r.message ? `: ${r.message}` : ''}`)}"></a>`)
      .join('');
    return `<tr><th>${esc(section)}</th><td>${cells}</td></tr>`;
  });
  return `<table class="matrix">${rows.join('')}</table>`;
}

function anchor(target: TargetReport, r: CheckResult): string {
  return `${target.name}--${r.check.id}`;
}

function details(report: RunReport, target: TargetReport, r: CheckResult): string {
  const c = r.check;
  const parts = [
    `<h4><span class="badge ${r.status}">${r.status}${r.known ? ' (known)' : ''}${r.repeats ? ` (${r.repeats.label})` : ''}</span> <code>${esc(c.id)}</code> <span class="lvl">${c.level}</span> ${esc(c.title)}</h4>`,
    r.message ? `<p class="message">${esc(r.message)}</p>` : '',
    `<p class="spec">${esc(c.section)} — <code>${esc(c.spec.file)}:${c.spec.line}</code> “${esc(c.spec.quote)}”</p>`,
  ];
  // Where it ended, what it refers to, and the notes: a pass says here what it could not see.
  const more = outcomeDetails(r);
  if (more.length) parts.push(`<ul class="details">${more.map((d) => `<li>${esc(d)}</li>`).join('')}</ul>`);
  if (r.status === 'failed' || r.status === 'error' || r.status === 'inconclusive') {
    parts.push(`<p>Reproduce: <code class="copy">${esc(reproduceCommand(report, target, c.id))}</code></p>`);
    if (r.evidence.length) parts.push(`<details><summary>Evidence (${r.evidence.length} items)</summary><pre>${esc(evidenceText(r.evidence))}</pre></details>`);
  }
  return `<article id="${esc(anchor(target, r))}" class="result ${r.status} lvl-${c.level}">${parts.join('')}</article>`;
}

/** The gate's verdict in words and the selection, as the console and the markdown say them. */
function verdictHtml(report: RunReport): string {
  const [head, ...rest] = verdictLines(report);
  const items = [...rest, ...selectionLines(report).map((l) => `selection: ${l}`)];
  const ok = gateSummary(report).exitCode === 0;
  return `<div class="verdict ${ok ? 'ok' : 'bad'}"><strong>${esc(head)}</strong><ul>${items.map((l) => `<li>${esc(l)}</li>`).join('')}</ul></div>`;
}

export function renderHtml(report: RunReport): string {
  const targets = report.targets
    .map((t) => {
      const where = t.embedded ? `embedded at ${t.address}` : t.address;
      const faults = t.faults.length ? ` — faults: ${t.faults.map(esc).join(', ')}` : '';
      const list = t.results.filter((r) => r.status !== 'passed').concat(t.results.filter((r) => r.status === 'passed'));
      return `<section class="target">
<h2>${esc(t.name)} <small>${esc(t.protocol)} · ${esc(where)}${faults} · ${t.status} · ${(t.durationMs / 1000).toFixed(2)} s</small></h2>
${t.error ? `<p class="message">${esc(t.error)}</p>` : ''}
${totalsTable(t.results)}
${matrix(t)}
<div class="results">${list.map((r) => details(report, t, r)).join('\n')}</div>
</section>`;
    })
    .join('\n');
  const t = report.totals;
  const filters = [
    ...STATUSES.map((s) => `<label><input type="checkbox" data-filter="status" value="${s}" checked> ${s}</label>`),
    ...LEVELS.map((l) => `<label><input type="checkbox" data-filter="level" value="${l}" checked> ${l}</label>`),
  ].join(' ');
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Conformance report</title>
<meta name="viewport" content="width=device-width, initial-scale=1">
<style>
body{font:14px/1.45 system-ui,sans-serif;margin:0;padding:1.5rem;color:#1f2328;background:#fff}
h1{margin:0 0 .25rem}h2{margin:2rem 0 .5rem;border-bottom:1px solid #d0d7de}h2 small{font-weight:normal;color:#57606a;font-size:.7em}
.meta{color:#57606a}.filters{position:sticky;top:0;background:#f6f8fa;padding:.5rem;border:1px solid #d0d7de;border-radius:6px;margin:1rem 0}
table{border-collapse:collapse;margin:.5rem 0}th,td{padding:.2rem .6rem;text-align:left;vertical-align:top}
.totals td,.totals th{border:1px solid #d0d7de;text-align:center}
.matrix th{font-weight:normal;color:#57606a;white-space:nowrap}
.cell{display:inline-block;width:14px;height:14px;margin:1px;border-radius:2px;border:1px solid rgba(0,0,0,.15)}
.cell.lvl-SHOULD{border-radius:50%}
.passed.cell,.badge.passed{background:#2da44e}.failed.cell,.badge.failed{background:#cf222e}.inconclusive.cell,.badge.inconclusive{background:#8250df}.error.cell,.badge.error{background:#bf8700}.skipped.cell,.badge.skipped{background:#8c959f}
th.passed{color:#1a7f37}th.failed{color:#cf222e}th.inconclusive{color:#8250df}th.error{color:#9a6700}th.skipped{color:#57606a}
.details{color:#57606a;margin:.2rem 0;padding-left:1.2rem}
.badge{color:#fff;border-radius:3px;padding:0 .4rem;font-size:.8em}.lvl{font-size:.75em;border:1px solid #8c959f;border-radius:3px;padding:0 .3rem}
.result{border:1px solid #d0d7de;border-radius:6px;padding:.25rem .75rem;margin:.5rem 0}.result h4{margin:.4rem 0}
.message{font-family:ui-monospace,monospace;background:#fff8c5;padding:.3rem .5rem;border-radius:4px}
.spec{color:#57606a}pre{background:#f6f8fa;padding:.5rem;overflow:auto;max-height:30rem;font-size:12px}
code.copy{user-select:all;background:#f6f8fa;padding:.1rem .3rem}
.hidden{display:none!important}
.verdict{border:1px solid #d0d7de;border-left-width:6px;border-radius:6px;padding:.5rem .75rem;margin:.75rem 0}.verdict.ok{border-left-color:#2da44e}.verdict.bad{border-left-color:#cf222e}.verdict ul{margin:.3rem 0 0;padding-left:1.2rem}
</style></head><body>
<h1>Conformance report</h1>
<p class="meta">${esc(report.tool.name)} ${esc(report.tool.version)} · ${esc(report.startedAt)} · ${(report.durationMs / 1000).toFixed(2)} s · seed ${report.seed}${report.interrupted ? ` · interrupted: ${esc(report.interrupted)}` : ''}</p>
${verdictHtml(report)}
<p class="meta totals-line">${esc(totalsLine(t))}. Squares are MUST checks, circles SHOULD checks. Inconclusive: the rule was not tested (a set-up step or precondition did not hold, or the behaviour could not be observed)${report.strict ? '; this run was --strict, so they fail it' : '; they do not fail the run unless --strict'}.</p>
<div class="filters" role="group" aria-label="filters">Show: ${filters}</div>
${targets}
<script>
// Filters work from the file itself: checked results and levels are shown, the rest hidden.
const boxes = [...document.querySelectorAll('input[data-filter]')];
function apply() {
  const on = (kind) => new Set(boxes.filter((b) => b.dataset.filter === kind && b.checked).map((b) => b.value));
  const statuses = on('status'), levels = on('level');
  for (const el of document.querySelectorAll('.result, .cell')) {
    const status = ${JSON.stringify(STATUSES)}.find((s) => el.classList.contains(s));
    const level = el.classList.contains('lvl-MUST') ? 'MUST' : 'SHOULD';
    el.classList.toggle('hidden', !(statuses.has(status) && levels.has(level)));
  }
}
boxes.forEach((b) => b.addEventListener('change', apply));
</script>
</body></html>
`;
}
