// The five outcomes end to end: the runner tells set-up from assertion, a pass keeps its notes,
// every reporter shows an inconclusive check with its reason, and the gate policy (`--strict`)
// decides whether inconclusive checks fail the run.
import { XMLParser } from 'fast-xml-parser';
import { beforeAll, describe, expect, it } from 'vitest';
import { check, timeoutsFor } from '../../src/core/check.ts';
import { TargetReset } from '../../src/core/errors.ts';
import type { CheckResult } from '../../src/core/result.ts';
import { runChecks, type RunnableTarget } from '../../src/core/runner.ts';
import { RunDisplay } from '../../src/cli/console.ts';
import { applyBaseline, baselineFrom } from '../../src/reports/baseline.ts';
import { renderHtml } from '../../src/reports/html.ts';
import { renderJson } from '../../src/reports/json.ts';
import { renderJUnit } from '../../src/reports/junit.ts';
import { renderGithubAnnotations, renderMarkdown } from '../../src/reports/markdown.ts';
import { diffReports } from '../../src/reports/merge.ts';
import { exitCodeOf, runReport, targetReport, type RunReport } from '../../src/reports/model.ts';

const target: RunnableTarget = { name: 't', protocol: 'wire', address: 'nowhere', createSession: () => ({ extras: {}, dispose: () => {} }) };
const meta = { protocol: 'wire' as const, section: 'S', level: 'MUST' as const, spec: { file: 'f', line: 1, quote: 'q' }, faults: [] };
const FILE = 'test/unit/outcomes.test.ts';

const checks = [
  check({ ...meta, id: 'wire.passes-with-note', title: 'passes, saying what it saw' }, async (ctx) => {
    ctx.note('saw 3 batches');
  }),
  check({ ...meta, id: 'wire.setup-refused', title: 'its set-up is refused' }, async (ctx) => {
    await ctx.setup('create table t', () => ctx.expect(false, 'TABLE_CREATE answered RUNTIME_ERROR "no"'), { seeAlso: 'wire.admin.table-create' });
    ctx.expect(false, 'never reached');
  }),
  check({ ...meta, id: 'wire.unobservable', title: 'cannot observe' }, async (ctx) => {
    const got = await ctx.setup('read one row', () => 1);
    if (got < 2) ctx.inconclusive(`only ${got} row: paging cannot be observed`);
  }),
  check({ ...meta, id: 'wire.deviates', title: 'fails at its assertion' }, async (ctx) => {
    await ctx.setup('nothing to prepare', async () => {});
    ctx.expect(false, 'expected fewer than 1000 datums, got 1000');
  }),
  check({ ...meta, id: 'wire.reset-in-setup', title: 'the target resets during set-up' }, async (ctx) => {
    await ctx.setup('connect', () => {
      throw new TargetReset('connection reset by the target');
    });
  }),
];

let results: CheckResult[];
const reportOf = (strict?: boolean): RunReport =>
  runReport({
    tool: { name: 'conformance', version: 'test' },
    seed: 5,
    startedAt: '2026-01-01T00:00:00.000Z',
    finishedAt: '2026-01-01T00:00:01.000Z',
    durationMs: 1000,
    filters: {},
    ...(strict ? { strict } : {}),
    targets: [targetReport({ name: 't', protocol: 'wire', address: 'nowhere', embedded: false, faults: [], durationMs: 1000 }, results)],
  });
const byId = (id: string) => results.find((r) => r.check.id === id)!;

beforeAll(async () => {
  results = await runChecks(target, checks, { seed: 1, timeouts: timeoutsFor(1000), concurrency: 2 });
});

describe('runner: where a check ended', () => {
  it('a refused set-up step is inconclusive, names the step, what came back and the check owning that rule', () => {
    const r = byId('wire.setup-refused');
    expect(r).toMatchObject({ status: 'inconclusive', phase: 'setup', seeAlso: 'wire.admin.table-create' });
    expect(r.message).toBe('set-up "create table t" did not hold: TABLE_CREATE answered RUNTIME_ERROR "no" (the rule it relied on is tested by wire.admin.table-create)');
    expect(r.at).toMatch(new RegExp(`^${FILE}:\\d+$`));
  });

  it('an unobservable behaviour is inconclusive, never passed', () => {
    expect(byId('wire.unobservable')).toMatchObject({ status: 'inconclusive', message: 'only 1 row: paging cannot be observed' });
  });

  it('a deviation after set-up fails at the assertion, located in the check\'s file', () => {
    const r = byId('wire.deviates');
    expect(r).toMatchObject({ status: 'failed', phase: 'assertion' });
    expect(r.at).toMatch(new RegExp(`^${FILE}:\\d+$`));
    expect(checks[3].source).toBe(FILE);
  });

  it('a target that breaks during set-up is an error, not hidden as inconclusive', () => {
    expect(byId('wire.reset-in-setup')).toMatchObject({ status: 'error', code: 'E_TARGET_RESET' });
  });

  it('a pass keeps its notes', () => {
    expect(byId('wire.passes-with-note')).toMatchObject({ status: 'passed', notes: ['saw 3 batches'], evidence: [] });
  });
});

describe('gate policy', () => {
  it('inconclusive does not fail the run; --strict makes it', () => {
    const onlyInconclusive = (strict?: boolean) => {
      const r = reportOf(strict);
      r.targets[0].results = r.targets[0].results.filter((x) => x.status === 'passed' || x.status === 'inconclusive');
      return r;
    };
    expect(exitCodeOf(onlyInconclusive())).toBe(0);
    expect(exitCodeOf(onlyInconclusive(true))).toBe(1);
    expect(exitCodeOf(reportOf())).toBe(1);
  });

  it('a baseline records every outcome (failures with their message); an unlisted inconclusive check gates only under --strict', () => {
    expect(baselineFrom(reportOf())).toContain('t wire.unobservable inconclusive\n');
    expect(baselineFrom(reportOf())).toContain('t wire.deviates failed expected fewer than 1000 datums, got 1000\n');
    const outcome = applyBaseline(reportOf(true), { file: 'b', entries: [{ target: '*', id: 'wire.deviates' }, { target: '*', id: 'wire.reset-in-setup' }] });
    expect(outcome.newFailures.map((f) => f.id).sort()).toEqual(['wire.setup-refused', 'wire.unobservable']);
  });

  it('diff names a check that passed and is now inconclusive, without failing', () => {
    const older = reportOf();
    const newer = reportOf();
    older.targets[0].results = older.targets[0].results.map((r) => (r.check.id === 'wire.unobservable' ? { ...r, status: 'passed' as const } : r));
    const d = diffReports(older, newer);
    expect(d.unobserved.map((u) => u.id)).toEqual(['wire.unobservable']);
    expect(d.regressed).toEqual([]);
  });
});

describe('every reporter shows inconclusive results with their reasons', () => {
  const reason = 'only 1 row: paging cannot be observed';

  it('JSON keeps the outcome, the reason, where it ended and the notes of passes', () => {
    const json = JSON.parse(renderJson(reportOf()));
    expect(json.totals).toMatchObject({ passed: 1, failed: 1, inconclusive: 2, error: 1 });
    const results = json.targets[0].results as CheckResult[];
    expect(results.find((r) => r.check.id === 'wire.unobservable')).toMatchObject({ status: 'inconclusive', message: reason, phase: 'setup' });
    expect(results.find((r) => r.check.id === 'wire.passes-with-note')?.notes).toEqual(['saw 3 batches']);
  });

  it('JUnit: skipped with the outcome and the reason; a failure under --strict', () => {
    const parser = new XMLParser({ ignoreAttributes: false, isArray: (name) => ['testcase', 'property'].includes(name) });
    const cases = (strict?: boolean) => parser.parse(renderJUnit(reportOf(strict), reportOf(strict).targets[0])).testsuites.testsuite.testcase as Record<string, unknown>[];
    const find = (list: Record<string, unknown>[], id: string) => list.find((c) => String(c['@_name']).startsWith(id))!;
    const plain = find(cases(), 'wire.unobservable');
    expect(plain.skipped).toBeDefined();
    expect(String(plain['system-out'])).toContain(`inconclusive: ${reason}`);
    expect((plain.properties as { property: Record<string, string>[] }).property).toContainEqual({ '@_name': 'outcome', '@_value': 'inconclusive' });
    const strict = find(cases(true), 'wire.unobservable');
    expect((strict.failure as Record<string, string>)['@_message']).toBe(`inconclusive: ${reason}`);
    expect(String(find(cases(), 'wire.passes-with-note')['system-out'])).toContain('note: saw 3 batches');
  });

  it('markdown: a column and a section of inconclusive checks', () => {
    const md = renderMarkdown(reportOf());
    expect(md).toContain('| passed | failed | inconclusive | errors | skipped |');
    expect(md).toContain('| t | wire | 1 | 1 | 2 | 1 | 0 |');
    expect(md).toContain('Inconclusive (the rule was not tested):');
    expect(md).toContain(`**\`wire.unobservable\`** (MUST) ${reason}`);
  });

  it('GitHub: a notice per inconclusive check, a warning under --strict', () => {
    expect(renderGithubAnnotations(reportOf())).toContain(`::notice title=t: wire.unobservable [MUST]::inconclusive: ${reason}`);
    expect(renderGithubAnnotations(reportOf(true))).toContain(`::warning title=t: wire.unobservable [MUST]::inconclusive: ${reason}`);
  });

  it('HTML: the outcome, its count, its reason and the notes of a pass', () => {
    const html = renderHtml(reportOf());
    expect(html).toContain('<th class="inconclusive">inconclusive</th>');
    expect(html).toMatch(/<article id="t--wire\.unobservable" class="result inconclusive lvl-MUST">/);
    expect(html).toContain(reason);
    expect(html).toContain('note: saw 3 batches');
    expect(html).toContain('5 checks: 1 passed, 1 failed, 2 inconclusive, 1 errors, 0 skipped');
  });

  it('console: an INCON line with the reason and the totals; --verbose adds where it ended and the notes', () => {
    const lines: string[] = [];
    const display = new RunDisplay({ out: (l) => lines.push(l), err: () => {}, interactive: false }, true);
    const report = reportOf();
    display.targetEnd(report.targets[0], report);
    display.finish(report, []);
    expect(lines).toContain(`  INCON wire.unobservable: ${reason}`);
    expect(lines.some((l) => l.includes('note: saw 3 batches'))).toBe(true);
    expect(lines.some((l) => l.startsWith('  5 checks: 1 passed, 1 failed, 2 inconclusive, 1 errors, 0 skipped'))).toBe(true);
    expect(lines).toContain('2 inconclusive checks did not test their rule (they do not fail the run; --strict makes them)');
  });
});
