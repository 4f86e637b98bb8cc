// JUnit XML through junit-report-builder: one file per target, one testsuite per document
// section, one testcase per check; failures carry the message, the citation, the reproduction and the evidence.
import junit from 'junit-report-builder';
import { evidenceText } from './evidence-text.ts';
import { outcomeDetails, reproduceCommand, type RunReport, type TargetReport } from './model.ts';

/** One JUnit document for one target (a CI gate can pick up each target's file on its own). */
export function renderJUnit(report: RunReport, target: TargetReport): string {
  const builder = junit.newBuilder().name(`conformance ${target.name}`);
  {
    const bySection = new Map<string, typeof target.results>();
    for (const r of target.results) {
      const list = bySection.get(r.check.section) ?? [];
      list.push(r);
      bySection.set(r.check.section, list);
    }
    for (const [section, results] of bySection) {
      const suite = builder
        .testSuite()
        .name(`${target.name} · ${section}`)
        .timestamp(report.startedAt)
        .time(results.reduce((s, r) => s + r.durationMs, 0) / 1000)
        .property('target', target.name)
        .property('protocol', target.protocol)
        .property('address', target.address)
        .property('seed', String(report.seed))
        .property('tool.version', `${report.tool.name} ${report.tool.version}`);
      if (target.faults.length) suite.property('faults', target.faults.join(','));
      for (const r of results) {
        const c = r.check;
        const tc = suite
          .testCase()
          .className(`${target.name}.${c.protocol}.${section}`)
          .name(`${c.id} [${c.level}] ${c.title}`)
          .time(r.durationMs / 1000);
        const details = [
          `check: ${c.id} (${c.level})`,
          `spec: ${c.spec.file}:${c.spec.line} "${c.spec.quote}"`,
          ...outcomeDetails(r),
          `reproduce: ${reproduceCommand(report, target, c.id)}`,
          r.code ? `code: ${r.code}` : '',
          r.evidence.length ? `evidence:\n${evidenceText(r.evidence)}` : '',
        ]
          .filter(Boolean)
          .join('\n');
        // JUnit knows no "inconclusive": such a case is <skipped> (it did not test its rule) with the
        // outcome as a property and its reason and details in system-out; under --strict, which
        // gates on it, it is a <failure> of type "inconclusive" so that a CI reading JUnit gates alike.
        tc.property('outcome', r.status);
        if (r.status === 'failed') tc.failure(r.message, c.level).stacktrace(details);
        else if (r.status === 'error') tc.error(r.message, r.code ?? 'error', details);
        else if (r.status === 'inconclusive' && report.strict) tc.failure(`inconclusive: ${r.message ?? ''}`, 'inconclusive').stacktrace(details);
        else if (r.status === 'inconclusive') tc.skipped().standardOutput(`inconclusive: ${r.message ?? ''}\n${details}`);
        else if (r.status === 'skipped') tc.skipped().standardOutput(`skipped: ${r.message ?? ''}`);
        else if (r.notes?.length) tc.standardOutput(outcomeDetails(r).join('\n'));
      }
    }
  }
  return builder.build();
}
