// JUnit for a campaign: one testsuite per target and kind, one testcase per finding bucket,
// through junit-report-builder as the run reports do.
import junit from 'junit-report-builder';
import type { Finding } from './findings.ts';

export interface CampaignSummaryForJUnit {
  target: string;
  kinds: readonly string[];
  seed: number;
  cases: number;
  durationMs: number;
  startedAt: string;
}

export function renderFuzzJUnit(s: CampaignSummaryForJUnit, findings: readonly { finding: Finding; path: string }[]): string {
  const builder = junit.newBuilder().name('conformance fuzz');
  for (const kind of s.kinds) {
    const suite = builder
      .testSuite()
      .name(`${s.target} · fuzz ${kind}`)
      .timestamp(s.startedAt)
      .time(s.durationMs / 1000)
      .property('target', s.target)
      .property('seed', String(s.seed))
      .property('cases', String(s.cases));
    const mine = findings.filter((f) => f.finding.kind === kind);
    if (!mine.length) suite.testCase().className(`${s.target}.fuzz.${kind}`).name(`${kind}: no finding`).time(s.durationMs / 1000);
    for (const { finding: f, path } of mine) {
      suite
        .testCase()
        .className(`${s.target}.fuzz.${kind}`)
        .name(`${f.oracle} [${f.signature}]`)
        .failure(f.message, f.oracle)
        .stacktrace([`finding: ${path}`, `replay: npx conformance replay ${path}`, `hits: ${f.hits}`, `seed: ${f.seed ?? '-'} path: ${f.path ?? '-'}`].join('\n'));
    }
  }
  return builder.build();
}
