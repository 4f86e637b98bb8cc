// JUnit for a campaign: one testsuite per target and kind, one testcase per finding bucket,
// written with the run reports' XML writer (all text escaped, no CDATA).
import { renderXml, type XmlElement } from '../../src/reports/xml-writer.ts';
import type { Finding } from './findings.ts';
import { ruleLabel } from './rules.ts';

export interface CampaignSummaryForJUnit {
  target: string;
  kinds: readonly string[];
  seed: number;
  cases: number;
  durationMs: number;
  startedAt: string;
  /** Why the campaign tested nothing (no case got past authentication and rate limits): a failing testcase of its own. */
  noCoverage?: string;
}

export function renderFuzzJUnit(s: CampaignSummaryForJUnit, findings: readonly { finding: Finding; path: string }[]): string {
  const time = (s.durationMs / 1000).toFixed(3);
  const suites: XmlElement[] = s.kinds.map((kind) => {
    const mine = findings.filter((f) => f.finding.kind === kind);
    const classname = `${s.target}.fuzz.${kind}`;
    const cases: XmlElement[] = mine.length
      ? mine.map(({ finding: f, path }) => ({
          name: 'testcase',
          attrs: { classname, name: `${f.rule?.class === 'robustness' ? 'robustness: ' : ''}${f.oracle} [${f.signature}]`, time: '0' },
          children: [
            {
              name: 'failure',
              attrs: { message: f.message, type: f.oracle },
              children: [[`rule: ${ruleLabel(f.rule)}`, `finding: ${path}`, `replay: npx conformance replay ${path}`, `hits: ${f.hits}`, `seed: ${f.seed ?? '-'} path: ${f.path ?? '-'}`].join('\n')],
            },
          ],
        }))
      : [{ name: 'testcase', attrs: { classname, name: `${kind}: no finding`, time } }];
    return {
      name: 'testsuite',
      attrs: { name: `${s.target} · fuzz ${kind}`, tests: cases.length, failures: mine.length, errors: 0, skipped: 0, timestamp: s.startedAt, time },
      children: [
        { name: 'properties', children: [['target', s.target], ['seed', String(s.seed)], ['cases', String(s.cases)]].map(([name, value]) => ({ name: 'property', attrs: { name, value } })) },
        ...cases,
      ],
    };
  });
  if (s.noCoverage) {
    suites.push({
      name: 'testsuite',
      attrs: { name: `${s.target} · fuzz coverage`, tests: 1, failures: 1, errors: 0, skipped: 0, timestamp: s.startedAt, time },
      children: [
        {
          name: 'testcase',
          attrs: { classname: `${s.target}.fuzz.coverage`, name: 'cases reached the server logic', time },
          children: [{ name: 'failure', attrs: { message: s.noCoverage, type: 'no-coverage' }, children: [s.noCoverage] }],
        },
      ],
    });
  }
  const failures = findings.length + (s.noCoverage ? 1 : 0);
  return renderXml({ name: 'testsuites', attrs: { name: 'conformance fuzz', tests: suites.reduce((n, x) => n + x.children!.filter((c) => typeof c === 'object' && c !== null && (c as { name?: string }).name === 'testcase').length, 0), failures, errors: 0, skipped: 0, time }, children: suites });
}
