// CLOUD (issue 29): one deviation of paging is reported once, by the check owning it; a one-time
// action a check cannot undo (managed-enable) never fails a second run. (The account race: races.test.ts.)
import { describe, expect, it } from 'vitest';
import type { Check } from '../../src/core/check.ts';
import { loadChecks } from '../../src/core/registry.ts';
import type { CheckResult } from '../../src/core/result.ts';
import { explain, runOnServer } from '../support/servers.ts';
import { prepareTarget } from '../../src/adapters/index.ts';
import { runChecks } from '../../src/core/runner.ts';
import { startCloudReference, type CloudReferenceOptions } from '../../targets/cloud/server.ts';
import { TEST_TIMEOUTS } from '../support/run-check.ts';

const all = await loadChecks(['cloud']);
const pick = (...ids: string[]): Check[] => ids.map((id) => all.find((c) => c.id === id)!);
const PAGING = 'cloud.pagination.pages-start-at-1';
const ENABLE = 'cloud.account.managed-enable';

describe(`cloud: pages counted from 0 (page-zero-based) are reported once, by ${PAGING}`, () => {
  const walkers = all.filter((c) => c.reliesOn?.includes(PAGING));
  it('the checks that walk pages or read page 1 as the first declare that they rely on it', () => {
    const ids = walkers.map((c) => c.id);
    for (const id of ['cloud.filtering.field-equality', 'cloud.filtering.or', 'cloud.filtering.and-nested', 'cloud.filtering.comparisons', 'cloud.filtering.contains-neq', 'cloud.filtering.order-by-desc', 'cloud.pagination.default-page-size-100']) expect(ids).toContain(id);
  });

  for (const variant of [false, true]) {
    it(`on the ${variant ? 'variant' : 'reference'}: only ${PAGING} fails; the checks relying on it are inconclusive and name it`, async () => {
      const checks = all.filter((c) => /^cloud\.(pagination|filtering|events|endpoints|service)\./.test(c.id));
      const [run] = await runOnServer('cloud', checks, { variant, faults: ['page-zero-based'] });
      const failed = run.filter((r) => r.status === 'failed' || r.status === 'error');
      expect(failed.map(explain)).toEqual([expect.stringContaining(PAGING)]);
      for (const r of run.filter((x) => walkers.some((w) => w.id === x.check.id))) {
        expect(r.status, explain(r)).toBe('inconclusive');
        expect(r.seeAlso ?? r.message, explain(r)).toContain(PAGING);
      }
    }, 60_000);

    it(`on the ${variant ? 'variant' : 'reference'}: a filtering check alone (its owner not run) is inconclusive, the walk's pages not holding results`, async () => {
      const [[r]] = await runOnServer('cloud', pick('cloud.filtering.field-equality'), { variant, faults: ['page-zero-based'] });
      expect(r.status, explain(r)).toBe('inconclusive');
      expect(r.seeAlso, explain(r)).toBe(PAGING);
      expect(r.message).toMatch(/pages are not consistent/);
    }, 30_000);
  }
});

describe(`cloud: ${ENABLE} on a second run (the managed service enabled by the first, which cannot be undone)`, () => {
  /** The check run `times` times on one cloud-ref started with `options`. */
  async function twice(options: CloudReferenceOptions): Promise<CheckResult[]> {
    const ref = await startCloudReference(options);
    try {
      const target = await prepareTarget('cloud-second-run', { protocol: 'cloud', baseUrl: ref.baseUrl, tokens: ref.tokens, fixtures: ref.fixtures, allow: ['destructive', 'irreversible'] });
      try {
        const out: CheckResult[] = [];
        for (let i = 0; i < 2; i++) out.push(...(await runChecks(target, pick(ENABLE), { seed: 1, timeouts: TEST_TIMEOUTS, concurrency: 1 })));
        return out;
      } finally {
        await target.stop();
      }
    } finally {
      await ref.close();
    }
  }

  for (const variant of [false, true]) {
    const on = variant ? 'the variant' : 'the reference';
    it(`on ${on} taking a second enable: passes twice`, async () => {
      expect((await twice({ variant, refuseSecondManagedEnable: false })).map((r) => r.status)).toEqual(['passed', 'passed']);
    }, 30_000);

    it(`on ${on} refusing a second enable (as a real service may): passes, then is inconclusive (never failed)`, async () => {
      const [first, second] = await twice({ variant, refuseSecondManagedEnable: true });
      expect(first.status, explain(first)).toBe('passed');
      expect(second.status, explain(second)).toBe('inconclusive');
      expect(second.message).toMatch(/managed: true before/);
    }, 30_000);
  }

  it('is tagged destructive and irreversible (run only where a target allows both): it leaves a paid service on', () => {
    expect(pick(ENABLE)[0].tags).toContain('irreversible');
    expect(pick(ENABLE)[0].tags).toContain('destructive');
  });
});
