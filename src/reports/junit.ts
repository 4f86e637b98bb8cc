// JUnit XML: one file per target, one testsuite per document section, one testcase per check;
// failures carry the message, the citation, the reproduction and the evidence. Written with
// xml-writer.ts, which escapes all text (junit-report-builder's CDATA let a target forge cases).
import { repeatText, type CheckResult } from '../core/result.ts';
import { evidenceText } from './evidence-text.ts';
import { citation, gateSummary, outcomeDetails, reproduceCommand, selectionText, verdictLines, type RunReport, type TargetReport } from './model.ts';
import { renderXml, type XmlElement } from './xml-writer.ts';

const seconds = (ms: number) => (ms / 1000).toFixed(3);
const properties = (entries: [string, string | undefined][]): XmlElement => ({
  name: 'properties',
  children: entries.filter(([, v]) => v !== undefined).map(([name, value]) => ({ name: 'property', attrs: { name, value } })),
});

/** Counts as JUnit readers take them: an inconclusive check is skipped (a failure under --strict); a known failure is skipped. */
function counts(results: readonly CheckResult[], strict: boolean | undefined) {
  const n = (pred: (r: CheckResult) => boolean) => results.filter(pred).length;
  return {
    tests: results.length,
    failures: n((r) => !r.known && (r.status === 'failed' || (r.status === 'inconclusive' && strict === true))),
    errors: n((r) => !r.known && r.status === 'error'),
    skipped: n((r) => r.known === true || r.status === 'skipped' || (r.status === 'inconclusive' && strict !== true)),
  };
}

function testCase(report: RunReport, target: TargetReport, r: CheckResult): XmlElement {
  const c = r.check;
  const details = [
    `check: ${c.id} (${c.level})`,
    `spec: ${citation(c)} "${c.spec.quote}"`,
    ...outcomeDetails(r),
    `reproduce: ${reproduceCommand(report, target, c.id)}`,
    r.code ? `code: ${r.code}` : '',
    r.evidence.length ? `evidence:\n${evidenceText(r.evidence)}` : '',
  ]
    .filter(Boolean)
    .join('\n');
  // JUnit knows no "inconclusive": such a case is <skipped> (it did not test its rule) with the
  // outcome as a property and its reason and details in system-out; under --strict, which gates
  // on it, it is a <failure> of type "inconclusive", so that a CI reading JUnit gates alike.
  let body: XmlElement[] = [];
  // A failure the baseline lists is known: skipped, so that a JUnit consumer does not count it.
  if (r.known) body = [{ name: 'skipped', attrs: { message: `known ${r.status} (baseline ${report.baseline?.file ?? ''}): ${r.message ?? ''}` } }, { name: 'system-out', children: [details] }];
  else if (r.status === 'failed') body = [{ name: 'failure', attrs: { message: r.message, type: c.level }, children: [details] }];
  else if (r.status === 'error') body = [{ name: 'error', attrs: { message: r.message, type: r.code ?? 'error' }, children: [details] }];
  else if (r.status === 'inconclusive' && report.strict) body = [{ name: 'failure', attrs: { message: `inconclusive: ${r.message ?? ''}`, type: 'inconclusive' }, children: [details] }];
  else if (r.status === 'inconclusive') body = [{ name: 'skipped', attrs: { message: `inconclusive: ${r.message ?? ''}` } }, { name: 'system-out', children: [`inconclusive: ${r.message ?? ''}\n${details}`] }];
  else if (r.status === 'skipped') body = [{ name: 'skipped', attrs: { message: r.message } }, { name: 'system-out', children: [`skipped: ${r.message ?? ''}`] }];
  else if (r.notes?.length) body = [{ name: 'system-out', children: [outcomeDetails(r).join('\n')] }];
  return {
    name: 'testcase',
    attrs: { classname: `${target.name}.${c.protocol}.${c.section}`, name: `${c.id} [${c.level}] ${c.title}`, time: seconds(r.durationMs) },
    children: [properties([['outcome', r.status], ['known', r.known ? 'true' : undefined], ['repeat', r.repeats ? repeatText(r.repeats) : undefined]]), ...body],
  };
}

/** One JUnit document for one target (a CI gate can pick up each target's file on its own). */
export function renderJUnit(report: RunReport, target: TargetReport): string {
  return renderXml({
    name: 'testsuites',
    attrs: { name: `conformance ${target.name}`, ...counts(target.results, report.strict), time: seconds(target.durationMs) },
    children: suitesOf(report, target),
  });
}

/** One JUnit document for every target of the run (`--junit <file>`: one path for a CI to read). */
export function renderJUnitRun(report: RunReport): string {
  return renderXml({
    name: 'testsuites',
    attrs: { name: 'conformance', ...counts(report.targets.flatMap((t) => t.results), report.strict), time: seconds(report.durationMs) },
    children: report.targets.flatMap((t) => suitesOf(report, t)),
  });
}

/** A target's testsuites, one per document section. */
function suitesOf(report: RunReport, target: TargetReport): XmlElement[] {
  const bySection = new Map<string, CheckResult[]>();
  for (const r of target.results) bySection.set(r.check.section, [...(bySection.get(r.check.section) ?? []), r]);
  // The run's gate and this target's selection, on every testsuite (a CI reading one suite sees them).
  const g = gateSummary(report);
  const header: [string, string | undefined][] = [
    ['gate.verdict', verdictLines(report)[0]],
    ['gate.exitCode', String(g.exitCode)],
    ['gate.newFailures', String(g.newFailures)],
    ['gate.knownFailures', g.baselineFile ? String(g.known) : undefined],
    ['gate.baseline', g.baselineFile],
    ['gate.baselineFailuresOnly', g.baselineFile ? String(g.failuresOnly) : undefined],
    ['gate.newlyInconclusive', g.baselineFile ? String(g.newlyInconclusive) : undefined],
    ['gate.changedFailures', g.baselineFile ? String(g.changed) : undefined],
    ['gate.inconclusive', String(g.inconclusive)],
    ['gate.strict', String(g.strict)],
    ['gate.summary', verdictLines(report).join('\n')],
    ['selection', target.selection ? selectionText(target.selection) : undefined],
    ['selection.registered', target.selection ? String(target.selection.registered) : undefined],
    ['selection.selected', target.selection ? String(target.selection.selected) : undefined],
    ...Object.entries(target.selection?.notSelected ?? {}).map(([k, n]) => [`selection.notSelected ${k}`, String(n)] as [string, string]),
  ];
  if (!bySection.size) bySection.set('(no check run)', []);
  const suites: XmlElement[] = [...bySection].map(([section, results]) => ({
    name: 'testsuite',
    attrs: { name: `${target.name} · ${section}`, ...counts(results, report.strict), timestamp: report.startedAt, time: seconds(results.reduce((s, r) => s + r.durationMs, 0)) },
    children: [
      properties([
        ['target', target.name],
        ['protocol', target.protocol],
        ['address', target.address],
        ['seed', String(report.seed)],
        ['tool.version', `${report.tool.name} ${report.tool.version}`],
        ['faults', target.faults.length ? target.faults.join(',') : undefined],
        ...header,
      ]),
      ...results.map((r) => testCase(report, target, r)),
    ],
  }));
  return suites;
}
