// CLOUD: every check proven on the reference (see prove.ts); the variant in cloud-variant.test.ts.
import { describe, expect, it } from 'vitest';
import { prepareTarget } from '../../src/adapters/index.ts';
import type { Check } from '../../src/core/check.ts';
import { loadChecks } from '../../src/core/registry.ts';
import type { CheckResult } from '../../src/core/result.ts';
import { runChecks } from '../../src/core/runner.ts';
import { startCloudReference, type CloudReferenceOptions } from '../../targets/cloud/server.ts';
import { TEST_TIMEOUTS } from '../support/run-check.ts';
import { proveBothWays } from './prove.ts';

await proveBothWays('cloud', ['reference']);

// Preconditions a check must establish before it may pass: cloud-ref started with a control fault
// (CLOUD_CONTROL_FAULTS, under which no check can fail, only be inconclusive) or seeded with a
// state the document allows, and the checks run against it as an external target.

const explain = (r: CheckResult) => `${r.check.id}: ${r.status}${r.phase ? ` in ${r.phase}` : ''}${r.at ? ` at ${r.at}` : ''}: ${r.message}`;
const OLD = 'cloud.promo-codes.old-account-refused';
const ONCE = 'cloud.promo-codes.applies-once';
const SIX = 'cloud.payment-methods.at-most-6-active';
const all = await loadChecks(['cloud']);
const pick = (...ids: string[]): Check[] => ids.map((id) => all.find((c) => c.id === id)!);

/** `checks` in this order (`concurrency` 1 keeps it) against a cloud-ref started with `options`. */
async function runOn(options: CloudReferenceOptions, checks: Check[], opts: { concurrency?: number; before?: (ref: Awaited<ReturnType<typeof startCloudReference>>) => Promise<void> } = {}): Promise<CheckResult[]> {
  const ref = await startCloudReference(options);
  try {
    await opts.before?.(ref);
    const target = await prepareTarget('cloud-precondition', { protocol: 'cloud', baseUrl: ref.baseUrl, tokens: ref.tokens, fixtures: ref.fixtures, allow: ['destructive'] });
    try {
      return await runChecks(target, checks, { seed: 1, timeouts: TEST_TIMEOUTS, concurrency: opts.concurrency ?? 8 });
    } finally {
      await target.stop();
    }
  } finally {
    await ref.close();
  }
}

for (const variant of [false, true]) {
  const on = variant ? 'variant' : 'reference';
  describe(`cloud ${on}: ${OLD} establishes that the refusal is about account B's age`, () => {
    it('passes whichever of it and applies-once applies the code to account A first (its control made, or read from the run)', async () => {
      for (const order of [[OLD, ONCE], [ONCE, OLD]]) {
        const results = await runOn({ variant }, pick(...order), { concurrency: 1 });
        expect(results.filter((r) => r.status !== 'passed').map(explain)).toEqual([]);
        // The second of the two takes the first apply from the run's record, not from a request of its own.
        expect(results[1].notes?.join(' ') ?? '', explain(results[1])).toMatch(/earlier in this run/);
      }
    }, 30_000);

    it('is inconclusive, never passed, where every apply is refused (a used-up code whose error names no field) and age is not checked at all', async () => {
      const results = await runOn({ variant, faults: ['promo-refused-always', 'promo-age-unchecked'] }, pick(OLD, ONCE));
      for (const r of results) expect(r.status, explain(r)).toBe('inconclusive');
      expect(results[0].message).toMatch(/positive control/);
    }, 30_000);

    it('is inconclusive where account A already has promo credit from an earlier run (no control can be made), as applies-once is', async () => {
      const results = await runOn({ variant, promoCredit: ['unrestricted'] }, pick(OLD, ONCE));
      for (const r of results) expect(r.status, explain(r)).toBe('inconclusive');
    }, 30_000);
  });
}

describe(`cloud reference: ${OLD} reads account B's active_promotions (as Linode API v4 shows them)`, () => {
  it('is inconclusive where account B has promo credit and the server refuses it only for that (age unchecked)', async () => {
    const [r] = await runOn({ promoCredit: ['otherAccount'], faults: ['promo-age-unchecked'] }, pick(OLD));
    expect(r.status, explain(r)).toBe('inconclusive');
    expect(r.message).toMatch(/account B already has promo credit/);
  }, 30_000);
});

describe(`cloud: ${SIX} counts as active only what the document lets it call active`, () => {
  const card = () => ({ type: 'credit_card', is_default: false, data: { card_number: '4111111111111111', expiry_month: 12, expiry_year: new Date().getUTCFullYear() + 3, cvv: '123' } });
  /** Account B adds and deletes `n` methods, one at a time (deactivated: listed still where the server lists them). */
  const addAndDelete = (n: number) => async (ref: Awaited<ReturnType<typeof startCloudReference>>) => {
    const auth = { authorization: `Bearer ${ref.tokens.otherAccount}` };
    const deleted = new Set<number>();
    for (let i = 0; i < n; i++) {
      const add = await fetch(`${ref.baseUrl}/v4/account/payment-methods`, { method: 'POST', headers: { ...auth, 'content-type': 'application/json' }, body: JSON.stringify(card()) });
      expect(add.status).toBe(200);
      await add.arrayBuffer();
      const list = (await (await fetch(`${ref.baseUrl}/v4/account/payment-methods`, { headers: auth })).json()) as { data: { id: number; is_default: boolean }[] };
      for (const m of list.data.filter((x) => !x.is_default && !deleted.has(x.id))) {
        expect((await fetch(`${ref.baseUrl}/v4/account/payment-methods/${m.id}`, { method: 'DELETE', headers: auth })).status).toBe(200);
        deleted.add(m.id);
      }
    }
    const listed = (await (await fetch(`${ref.baseUrl}/v4/account/payment-methods?page_size=100`, { headers: auth })).json()) as { results: number };
    expect(listed.results, 'the default method and the deleted ones are listed: more than 6').toBe(n + 1);
  };

  for (const variant of [false, true]) {
    const on = variant ? 'the variant' : 'the reference';
    it(`on ${on}: passes where the list also shows 6 deleted (deactivated) methods`, async () => {
      const [r] = await runOn({ variant, listDeactivatedPaymentMethods: true }, pick(SIX), { before: addAndDelete(6) });
      expect(r.status, explain(r)).toBe('passed');
    }, 30_000);

    it(`on ${on}: still fails there under seventh-payment-method-accepted`, async () => {
      const [r] = await runOn({ variant, listDeactivatedPaymentMethods: true, faults: ['seventh-payment-method-accepted'] }, pick(SIX), { before: addAndDelete(6) });
      expect(r.status, explain(r)).toBe('failed');
      expect(r.message).toMatch(/at least 7 are active/);
    }, 30_000);
  }
});
