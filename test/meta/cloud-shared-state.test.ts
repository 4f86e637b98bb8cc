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

// Review of issue 30 (cloud-a), rubric 9: a walk stopped by its page budget says so and ends
// inconclusive, never a verdict drawn from the pages it read.
describe('cloud: cloud.events.list-depends-on-grants on an account with more events than a walk reads (over 50 pages of 100: 5,700 events, 5,130 of account A)', () => {
  for (const variant of [false, true]) {
    it(`on the ${variant ? 'variant' : 'reference'}: is inconclusive and says that only the first 50 pages were read`, async () => {
      const ref = await startCloudReference({ variant, eventCount: 5_700 });
      try {
        const target = await prepareTarget('cloud-many-events', { protocol: 'cloud', baseUrl: ref.baseUrl, tokens: ref.tokens, fixtures: ref.fixtures });
        try {
          const [r] = await runChecks(target, pick('cloud.events.list-depends-on-grants'), { seed: 1, timeouts: { ...TEST_TIMEOUTS, checkMs: Math.max(TEST_TIMEOUTS.checkMs, 20_000) }, concurrency: 1 });
          expect(r.status, explain(r)).toBe('inconclusive');
          expect(r.message).toMatch(/only the first 50 were read/);
        } finally {
          await target.stop();
        }
      } finally {
        await ref.close();
      }
    }, 60_000);
  }
});

// Review of issue 30 (cloud-a), rubric 3: one error for a body missing username and email is a
// deviation only where each missing field alone is refused.
describe('cloud: cloud.errors.all-problems-at-once where a missing email is no problem (user-create-without-email)', () => {
  for (const variant of [false, true]) {
    it(`on the ${variant ? 'variant' : 'reference'}: is inconclusive (one problem was all there was) and names the owner of the rule`, async () => {
      const [[r]] = await runOnServer('cloud', pick('cloud.errors.all-problems-at-once'), { variant, faults: ['user-create-without-email'] });
      expect(r.status, explain(r)).toBe('inconclusive');
      expect(r.seeAlso, explain(r)).toBe('cloud.users.create-requires-username-and-email');
      expect(r.message).toMatch(/was accepted/);
    }, 30_000);
  }
});

// Review of issue 30 (cloud-a), rubrics 3, 10 and 11: Linode API v4's credit-card add makes the card
// the default payment method (server option creditCardAddsPaymentMethod); run after run, the check
// removes it again, and a refusal for the at-most-6-active limit is no verdict.
describe('cloud: cloud.account.credit-card-add-299 where the card becomes the default payment method (as on Linode API v4)', () => {
  const CARD = 'cloud.account.credit-card-add-299';
  async function onServer(variant: boolean, times: number, before?: (ref: Awaited<ReturnType<typeof startCloudReference>>) => Promise<void>) {
    const ref = await startCloudReference({ variant, creditCardAddsPaymentMethod: true });
    try {
      await before?.(ref);
      const target = await prepareTarget('cloud-credit-card', { protocol: 'cloud', baseUrl: ref.baseUrl, tokens: ref.tokens, fixtures: ref.fixtures, allow: ['destructive'] });
      try {
        const out: CheckResult[] = [];
        for (let i = 0; i < times; i++) out.push(...(await runChecks(target, pick(CARD), { seed: 1, timeouts: TEST_TIMEOUTS, concurrency: 1 })));
        const list = await fetch(`${ref.baseUrl}/v4/account/payment-methods`, { headers: { authorization: `Bearer ${ref.tokens.otherAccount}` } });
        return { out, methods: ((await list.json()) as { data: { id: number; is_default: boolean }[] }).data };
      } finally {
        await target.stop();
      }
    } finally {
      await ref.close();
    }
  }

  for (const variant of [false, true]) {
    it(`on the ${variant ? 'variant' : 'reference'}: passes eight runs in a row (more than the 6 active a leftover card would fill) and leaves account B's default as it was`, async () => {
      const { out, methods } = await onServer(variant, 8);
      expect(out.map((r) => `${r.status} ${r.message ?? ''}`)).toEqual(Array(8).fill('passed '));
      expect(methods.filter((m) => m.is_default).length).toBe(1);
      expect(methods.length).toBe(1);
    }, 60_000);

    it(`on the ${variant ? 'variant' : 'reference'}: is inconclusive (never failed) where account B has 6 active payment methods already`, async () => {
      const { out } = await onServer(variant, 1, async (ref) => {
        for (let i = 0; i < 5; i++) {
          const res = await fetch(`${ref.baseUrl}/v4/account/payment-methods`, { method: 'POST', headers: { authorization: `Bearer ${ref.tokens.otherAccount}`, 'content-type': 'application/json' }, body: JSON.stringify({ type: 'credit_card', is_default: false, data: { card_number: '4111111111111111', expiry_month: 12, expiry_year: 2040, cvv: '123' } }) });
          expect(res.status).toBe(200);
        }
      });
      expect(out[0].status, explain(out[0])).toBe('inconclusive');
      expect(out[0].seeAlso).toBe('cloud.payment-methods.at-most-6-active');
    }, 30_000);
  }
});

// Review b (docs/review/cloud-b.md): the control faults of CLOUD_CONTROL_FAULTS named by the payment
// and promo checks, proven here rather than by ad hoc scripts: under each, the named checks are
// inconclusive, never failed, on the reference and on the variant.
describe('cloud: control faults leave the checks they name inconclusive, never failed', () => {
  const LENGTH = 'cloud.promo-codes.code-1-to-32-characters';
  const APPLIES = 'cloud.promo-codes.applies-once';
  const PAYMENT = 'cloud.payments.200-payment-or-202-warnings';
  const SUBMITTED = 'cloud.payments.submitted-event';
  for (const variant of [false, true]) {
    const on = variant ? 'the variant' : 'the reference';
    it(`promo-account-checked-first on ${on}: once account A has promo credit (applies-once ran first), ${LENGTH} is inconclusive`, async () => {
      const [run] = await runOnServer('cloud', pick(APPLIES, LENGTH), { variant, faults: ['promo-account-checked-first'] }, { concurrency: 1 });
      for (const r of run) expect(['failed', 'error'], explain(r)).not.toContain(r.status);
      const length = run.find((r) => r.check.id === LENGTH)!;
      expect(length.status, explain(length)).toBe('inconclusive');
    }, 30_000);

    it(`payment-minimum-5 on ${on}: the 1.00 USD payment is set-up, so ${PAYMENT} and ${SUBMITTED} are inconclusive`, async () => {
      const [run] = await runOnServer('cloud', pick(PAYMENT, SUBMITTED), { variant, faults: ['payment-minimum-5'] }, { concurrency: 1 });
      for (const r of run) expect(r.status, explain(r)).toBe('inconclusive');
    }, 30_000);
  }
});

// Review b, second pass (docs/review/cloud-b.md): a refusal at the token URL, or a 404 after a
// delete, counts only where the route was first seen served. Under these control faults the
// named checks are inconclusive (they passed before), and no OAuth check fails.
describe('cloud: OAuth checks on a half-built server are inconclusive, never passed or failed', () => {
  const OAUTH = all.filter((c) => /^cloud\.(oauth-clients|authentication\.oauth)/.test(c.id));
  const cases: [string, string[]][] = [
    ['oauth-token-not-served', ['cloud.authentication.oauth-bad-secret-refused', 'cloud.authentication.oauth-bad-code-refused', 'cloud.authentication.oauth-bad-refresh-refused']],
    ['oauth-client-view-not-served', ['cloud.oauth-clients.delete', 'cloud.oauth-clients.update']],
    ['oauth-refresh-rate-limited', ['cloud.authentication.oauth-bad-refresh-refused', 'cloud.authentication.oauth-refresh-new-pair', 'cloud.oauth-clients.delete-ends-tokens']],
    ['oauth-token-rate-limited', ['cloud.authentication.oauth-code-exchange', 'cloud.authentication.oauth-code-exchange-multipart']],
    ['oauth-code-rate-limited-after-first', ['cloud.authentication.oauth-bad-code-refused', 'cloud.authentication.oauth-bad-secret-refused']],
  ];
  for (const variant of [false, true]) {
    const on = variant ? 'the variant' : 'the reference';
    for (const [fault, named] of cases) {
      it(`${fault} on ${on}: ${named.join(', ')} inconclusive; no OAuth check failed`, async () => {
        const [run] = await runOnServer('cloud', OAUTH, { variant, faults: [fault] }, { concurrency: 1 });
        for (const r of run) expect(['failed', 'error'], explain(r)).not.toContain(r.status);
        for (const id of named) {
          const r = run.find((x) => x.check.id === id)!;
          expect(r.status, explain(r)).toBe('inconclusive');
          // Alone too: the first exchange of the run is then the check's own.
          const [[alone]] = await runOnServer('cloud', pick(id), { variant, faults: [fault] }, { concurrency: 1 });
          expect(alone.status, explain(alone)).toBe('inconclusive');
        }
      }, 60_000);
    }
  }
});

// Review b, transfers (docs/review/cloud-b.md): an accept refused for a condition on the accepting
// account that no check can see (a registered payment method, line 60) is set-up: under the control
// fault transfer-accept-refused-for-acceptor the checks needing an accepted transfer, or the accept
// route seen to take a valid accept, are inconclusive, never failed nor passed.
describe('cloud: transfer-accept-refused-for-acceptor leaves the accept checks inconclusive', () => {
  const IDS = ['cloud.transfers.accepted-visible-to-both-accounts', 'cloud.transfers.cancelled-cannot-be-accepted', 'cloud.transfers.list-created-and-accepted', 'cloud.transfers.accepted-cannot-be-cancelled'];
  for (const variant of [false, true]) {
    it(`on the ${variant ? 'variant' : 'reference'}: ${IDS.join(', ')} are inconclusive`, async () => {
      const [run] = await runOnServer('cloud', pick(...IDS), { variant, faults: ['transfer-accept-refused-for-acceptor'] }, { concurrency: 1 });
      for (const r of run) expect(r.status, explain(r)).toBe('inconclusive');
    }, 30_000);
  }
});

// Review b, payments (docs/review/cloud-b.md): the 404 of a payment that does not exist is a verdict
// only once the view route was seen to find a listed payment. Under the control fault
// payment-view-not-served (the view answers 404 to every id) cloud.payments.list-and-unknown-404 is
// inconclusive, whether account B lists a payment (the default) or has never paid (noPastPayments).
describe('cloud: payment-view-not-served leaves cloud.payments.list-and-unknown-404 inconclusive', () => {
  const LIST = 'cloud.payments.list-and-unknown-404';
  for (const variant of [false, true]) {
    for (const noPastPayments of [false, true]) {
      it(`on the ${variant ? 'variant' : 'reference'}${noPastPayments ? ', account B never paid' : ''}: inconclusive, never passed`, async () => {
        const ref = await startCloudReference({ variant, noPastPayments, faults: ['payment-view-not-served'] });
        try {
          const target = await prepareTarget('cloud-payment-view', { protocol: 'cloud', baseUrl: ref.baseUrl, tokens: ref.tokens, fixtures: ref.fixtures, allow: ['destructive'] });
          try {
            const [r] = await runChecks(target, pick(LIST), { seed: 1, timeouts: TEST_TIMEOUTS, concurrency: 1 });
            expect(r.status, explain(r)).toBe('inconclusive');
          } finally {
            await target.stop();
          }
        } finally {
          await ref.close();
        }
      }, 30_000);
    }
  }
});

// Review b, transfers (docs/review/cloud-b.md): the variant writes a cancelled transfer's status as
// Linode API v4 does (`canceled`, an expired one `stale`; line 41 names only `pending`). The nodes of
// the cancelled transfers a run leaves are free again for the next run: run three times on one
// server, no transfer check runs out of nodes (40 of account A, about 14 used per run: holding the
// nodes of `canceled` transfers, the fourth run ran out).
describe('cloud: transfers cancelled as `canceled` free their nodes for the next run', () => {
  it('on the variant: the transfer checks run four times on one server never run out of nodes', async () => {
    const ref = await startCloudReference({ variant: true });
    try {
      const checks = all.filter((c) => c.id.startsWith('cloud.transfers.'));
      for (let i = 0; i < 4; i++) {
        const target = await prepareTarget('cloud-transfers-rerun', { protocol: 'cloud', baseUrl: ref.baseUrl, tokens: ref.tokens, fixtures: ref.fixtures, allow: ['destructive'] });
        try {
          const run = await runChecks(target, checks, { seed: 1, timeouts: TEST_TIMEOUTS, concurrency: 1 });
          for (const r of run) expect(r.message ?? '', explain(r)).not.toMatch(/used up|needs more fixtures\.transferableNodeIds/);
        } finally {
          await target.stop();
        }
      }
    } finally {
      await ref.close();
    }
  }, 120_000);
});
