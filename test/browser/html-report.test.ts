// The HTML report in a real browser (Debian's chromium through playwright-core): a run with
// passes, failures, an inconclusive check and skips; the matrix shows, a filter click hides what
// it should, the inconclusive result shows its reason, and a screenshot is saved under reports/
// for a person to look at.
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { chromium } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { executeRun } from '../../src/cli/execute.ts';
import { check, timeoutsFor } from '../../src/core/check.ts';
import { term } from '../../src/clients/wire/terms.ts';
import { loadChecks } from '../../src/core/registry.ts';
import { renderHtml } from '../../src/reports/html.ts';

const CHROMIUM = '/usr/bin/chromium';
const root = new URL('../..', import.meta.url).pathname;
// CI installs chromium (.ci/run); a developer machine without it skips this file.
const haveBrowser = existsSync(CHROMIUM) || process.env.CI === 'true';

describe.skipIf(!haveBrowser)('HTML report in headless Chromium', () => {
  it('shows the matrix and filters by result without a server', async () => {
    // A check whose set-up the target refuses (a table in a database that does not exist): inconclusive.
    const refusedSetup = check(
      { id: 'wire.report.refused-setup', title: 'needs a table first', protocol: 'wire', section: 'Report test', level: 'MUST', spec: { file: 'wire-protocol.md', line: 1, quote: 'x' }, faults: [] },
      async (ctx) => {
        const conn = await ctx.wire.connect();
        await ctx.setup('read table nowhere.t', async () => {
          const res = await conn.start(term('TABLE', [term('DB', ['no_such_db_for_the_report_test']), 't']));
          ctx.expect(res.type === 1 || res.type === 2, `TABLE(DB("no_such_db_for_the_report_test"), "t") answered response type ${res.type}`);
        });
      },
    );
    const checks = [...(await loadChecks(['wire'])), refusedSetup];
    // No authKey: the check that needs it is skipped; the fault fails the batching check.
    const report = await executeRun(
      { targets: { 'wire-ref': { protocol: 'wire', embedded: true } } },
      { targets: ['wire-ref'], checks, seed: 9, timeouts: timeoutsFor(4000, { replyMs: 800 }), concurrency: 8, faults: new Map([['wire-ref', ['batch-1000']]]), filters: {} },
    );
    expect(report.totals.failed).toBeGreaterThan(0);
    expect(report.totals.skipped).toBeGreaterThan(0);
    expect(report.totals.inconclusive).toBe(1);
    const dir = join(root, 'reports');
    mkdirSync(dir, { recursive: true });
    const file = join(dir, 'html-report.test.html');
    writeFileSync(file, renderHtml(report));

    const browser = await chromium.launch({
      executablePath: CHROMIUM,
      args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
    });
    try {
      const page = await browser.newPage({ viewport: { width: 1200, height: 900 } });
      const requests: string[] = [];
      page.on('request', (r) => requests.push(r.url()));
      await page.goto(`file://${file}`);
      expect(requests.filter((u) => !u.startsWith('file://')), 'the report loads nothing from the network').toEqual([]);
      expect(await page.locator('.matrix .cell').count()).toBe(checks.length);
      const visible = (selector: string) => page.locator(`${selector}:visible`).count();
      expect(await visible('.result.passed')).toBe(report.totals.passed);
      // Show failures only: untick passed and skipped.
      await page.getByLabel('passed', { exact: true }).uncheck();
      await page.getByLabel('skipped', { exact: true }).uncheck();
      expect(await visible('.result.passed')).toBe(0);
      expect(await visible('.result.skipped')).toBe(0);
      expect(await visible('.result.failed')).toBe(report.totals.failed);
      expect(await page.locator('.result.failed').first().textContent()).toContain('wire.limits.batches-under-1000');
      const inconclusive = page.locator('.result.inconclusive');
      expect(await inconclusive.count()).toBe(1);
      expect(await inconclusive.first().textContent()).toContain('set-up "read table nowhere.t" did not hold');
      await page.getByLabel('inconclusive', { exact: true }).uncheck();
      expect(await visible('.result.inconclusive')).toBe(0);
      expect(await visible('.cell.inconclusive')).toBe(0);
      await page.getByLabel('inconclusive', { exact: true }).check();
      await page.getByLabel('passed', { exact: true }).check();
      await page.screenshot({ path: join(dir, 'html-report.png'), fullPage: false });
    } finally {
      await browser.close();
    }
  }, 60_000);
});
