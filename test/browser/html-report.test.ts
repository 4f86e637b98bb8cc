// The HTML report in a real browser (Debian's chromium through playwright-core): a run with
// passes, failures and skips; the matrix shows, a filter click hides what it should, and a
// screenshot is saved under reports/ for a person to look at.
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { chromium } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { executeRun } from '../../src/cli/execute.ts';
import { timeoutsFor } from '../../src/core/check.ts';
import { loadChecks } from '../../src/core/registry.ts';
import { renderHtml } from '../../src/reports/html.ts';

const CHROMIUM = '/usr/bin/chromium';
const root = new URL('../..', import.meta.url).pathname;
// CI installs chromium (.ci/run); a developer machine without it skips this file.
const haveBrowser = existsSync(CHROMIUM) || process.env.CI === 'true';

describe.skipIf(!haveBrowser)('HTML report in headless Chromium', () => {
  it('shows the matrix and filters by result without a server', async () => {
    const checks = await loadChecks(['wire']);
    // No authKey: the check that needs it is skipped; the fault fails the batching check.
    const report = await executeRun(
      { targets: { 'wire-ref': { protocol: 'wire', embedded: true } } },
      { targets: ['wire-ref'], checks, seed: 9, timeouts: timeoutsFor(4000, { replyMs: 800 }), concurrency: 8, faults: new Map([['wire-ref', ['batch-1000']]]), filters: {} },
    );
    expect(report.totals.failed).toBeGreaterThan(0);
    expect(report.totals.skipped).toBeGreaterThan(0);
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
      await page.getByLabel('passed', { exact: true }).check();
      await page.screenshot({ path: join(dir, 'html-report.png'), fullPage: false });
    } finally {
      await browser.close();
    }
  }, 60_000);
});
