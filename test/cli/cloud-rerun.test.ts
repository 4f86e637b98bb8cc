// Re-runs against the same server (issue #20): the whole CLOUD suite run twice against one
// cloud-ref, as a user re-runs it against their own account. The first run uses fixtures up (the
// promo code applied, nodes moved to account B by accepted transfers); between the runs an
// interrupted run is played (pending transfers of the first node ids left behind) and account B
// is filled to its 6 active payment methods. The second run must find each of these out before
// use and say inconclusive, never failed or error.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { prepareTarget } from '../../src/adapters/index.ts';
import type { CloudTargetConfig } from '../../src/config/types.ts';
import type { Check } from '../../src/core/check.ts';
import { loadChecks } from '../../src/core/registry.ts';
import type { CheckResult } from '../../src/core/result.ts';
import { runChecks } from '../../src/core/runner.ts';
import { startCloudReference, type CloudReference } from '../../targets/cloud/server.ts';
import { TEST_TIMEOUTS } from '../support/run-check.ts';

const explain = (r: CheckResult) => `${r.check.id}: ${r.status}${r.phase ? ` in ${r.phase}` : ''}${r.at ? ` at ${r.at}` : ''}: ${r.message}`;

/** One request to cloud-ref's API as a seeded role (set-up of this test, not a check). */
async function call(ref: CloudReference, token: string, method: string, path: string, body?: unknown): Promise<number> {
  const res = await fetch(`${ref.baseUrl}/v4${path}`, {
    method,
    headers: { authorization: `Bearer ${token}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  await res.arrayBuffer();
  return res.status;
}

/** The node ids that transfers of account A hold (any status but cancelled and expired). */
async function nodesInTransfers(ref: CloudReference): Promise<number[]> {
  const held: number[] = [];
  for (let page = 1; ; page++) {
    const res = await fetch(`${ref.baseUrl}/v4/account/service-transfers?page=${page}`, { headers: { authorization: `Bearer ${ref.tokens.unrestricted}` } });
    const body = (await res.json()) as { data: { status: string; entities: { nodes: number[] } }[]; pages: number };
    for (const t of body.data) if (t.status !== 'cancelled' && t.status !== 'expired') held.push(...t.entities.nodes);
    if (page >= body.pages) return held;
  }
}

/** Runs `checks` as a freshly prepared target (each run its own, as two CLI invocations are). */
async function run(config: CloudTargetConfig, checks: readonly Check[]): Promise<CheckResult[]> {
  const target = await prepareTarget('cloud-rerun', config);
  try {
    return await runChecks(target, checks, { seed: 1, timeouts: TEST_TIMEOUTS, concurrency: 8 });
  } finally {
    await target.stop();
  }
}

describe('CLOUD: a second run against the same server', () => {
  let ref: CloudReference;
  const runs: CheckResult[][] = [];
  const leftPending: number[] = [];
  let heldAfterFirst: number[] = [];

  beforeAll(async () => {
    // One server for both runs, named as an external target (what `conformance serve` prints),
    // allowing what the embedded target allows by default.
    ref = await startCloudReference();
    // The node ids the README names: 18 for a full run; a re-run 4 more for each complete run
    // before it (those accepted transfers moved to account B), and one per transfer left pending.
    const ids = ref.fixtures.transferableNodeIds!;
    const config = (nodes: number): CloudTargetConfig => ({ protocol: 'cloud', baseUrl: ref.baseUrl, tokens: ref.tokens, fixtures: { ...ref.fixtures, transferableNodeIds: ids.slice(0, nodes) }, allow: ['destructive', 'load'] });
    const checks = await loadChecks(['cloud']);
    runs.push(await run(config(18), checks));
    heldAfterFirst = await nodesInTransfers(ref);
    // An interrupted run: pending transfers of the first node ids that are still account A's.
    for (const node of ids.slice(0, 8)) {
      if ((await call(ref, ref.tokens.unrestricted, 'POST', '/account/service-transfers', { entities: { nodes: [node] } })) === 200) leftPending.push(node);
    }
    // Account B at its limit of 6 active payment methods (line 233).
    for (let i = 0; i < 6; i++) {
      const card = { card_number: '4111111111111111', expiry_month: 12, expiry_year: new Date().getUTCFullYear() + 3, cvv: '123' };
      if ((await call(ref, ref.tokens.otherAccount, 'POST', '/account/payment-methods', { type: 'credit_card', is_default: false, data: card })) !== 200) break;
    }
    runs.push(await run(config(18 + 4 + leftPending.length), checks));
  }, 240_000);

  afterAll(async () => {
    await ref?.close();
  });

  const result = (i: number, id: string) => runs[i].find((r) => r.check.id === id)!;

  it('the first run passes every check (but what spends a one-time action, not allowed here as on a user\'s account)', () => {
    expect(runs[0].filter((r) => r.status !== 'passed' && !/tagged irreversible/.test(r.message ?? '')).map(explain)).toEqual([]);
  });

  it('the second run has no failed and no error result (inconclusive allowed)', () => {
    expect(runs[1].filter((r) => r.status === 'failed' || r.status === 'error').map(explain)).toEqual([]);
    // Not a run of skips: most checks still test their rule.
    expect(runs[1].filter((r) => r.status === 'passed').length).toBeGreaterThan(runs[1].length / 2);
  });

  it('a full run leaves 4 nodes in (accepted) transfers, as the README says', () => {
    expect(heldAfterFirst).toHaveLength(4);
  });

  it('nodes already in a transfer are passed over before use: the create check takes a free one', () => {
    expect(leftPending.length).toBeGreaterThan(0);
    expect(result(1, 'cloud.transfers.create-pending').status, explain(result(1, 'cloud.transfers.create-pending'))).toBe('passed');
    expect(result(1, 'cloud.versioning.entity-transfers-299').status, explain(result(1, 'cloud.versioning.entity-transfers-299'))).toBe('passed');
    // With the ids the README asks for, none is short of a node and none finds its node used up.
    expect(runs[1].filter((r) => /transferableNodeIds/.test(r.message ?? '')).map(explain)).toEqual([]);
  });

  it('the promo code already applied and the payment-method limit reached make their checks inconclusive', () => {
    for (const id of ['cloud.promo-codes.applies-once', 'cloud.payment-methods.add-event']) expect(result(1, id).status, explain(result(1, id))).toBe('inconclusive');
  });
});

describe('CLOUD: the OAuth checks that only exchange codes and tokens', () => {
  let ref: CloudReference;
  let checks: Check[];
  const EXCHANGE = ['cloud.authentication.oauth-code-exchange', 'cloud.authentication.oauth-code-exchange-multipart', 'cloud.authentication.oauth-refresh-new-pair', 'cloud.authentication.oauth-bad-code-refused', 'cloud.authentication.oauth-bad-refresh-refused', 'cloud.authentication.oauth-bad-secret-refused'];

  beforeAll(async () => {
    ref = await startCloudReference();
    checks = (await loadChecks(['cloud'])).filter((c) => EXCHANGE.includes(c.id));
  });

  afterAll(async () => {
    await ref?.close();
  });

  const without = (allow: CloudTargetConfig['allow']): CloudTargetConfig => {
    const { client: _client, ...oauth } = ref.fixtures.oauth!;
    return { protocol: 'cloud', baseUrl: ref.baseUrl, tokens: ref.tokens, fixtures: { ...ref.fixtures, oauth }, allow };
  };

  it('use the configured client without allow: destructive', async () => {
    expect(checks).toHaveLength(EXCHANGE.length);
    const results = await run({ protocol: 'cloud', baseUrl: ref.baseUrl, tokens: ref.tokens, fixtures: ref.fixtures, allow: [] }, checks);
    expect(results.filter((r) => r.status !== 'passed').map(explain)).toEqual([]);
  }, 30_000);

  it("keep the configured client's secret out of results and register it with the report boundary", async () => {
    const secret = ref.fixtures.oauth!.client!.secret;
    const target = await prepareTarget('cloud-secret', { protocol: 'cloud', baseUrl: ref.baseUrl, tokens: ref.tokens, fixtures: ref.fixtures });
    try {
      expect(target.secrets).toContain(secret);
    } finally {
      await target.stop();
    }
    // The evidence of a failure whose exchange sent it (client_secret in a form body) shows it redacted.
    const faulty = await startCloudReference({ faults: ['oauth-token-type-mac'] });
    try {
      const [r] = await run({ protocol: 'cloud', baseUrl: faulty.baseUrl, tokens: faulty.tokens, fixtures: faulty.fixtures }, checks.filter((c) => c.id === 'cloud.authentication.oauth-code-exchange'));
      expect(r.status, explain(r)).toBe('failed');
      const evidence = JSON.stringify(r.evidence);
      expect(evidence).toContain('client_secret=');
      expect(evidence).not.toContain(faulty.fixtures.oauth!.client!.secret);
    } finally {
      await faulty.close();
    }
  }, 30_000);

  it('without a configured client, create their own where destructive is allowed, and are skipped with the reason where not', async () => {
    const created = await run(without(['destructive']), checks);
    expect(created.filter((r) => r.status !== 'passed').map(explain)).toEqual([]);
    const skipped = await run(without([]), checks);
    for (const r of skipped) {
      expect(r.status, explain(r)).toBe('skipped');
      expect(r.message).toContain('fixtures.oauth.client');
    }
  }, 30_000);
});

describe("CLOUD: the day's 60 payment-method adds reached by earlier runs (line 233)", () => {
  const SIX = 'cloud.payment-methods.at-most-6-active';
  const card = () => ({ type: 'credit_card', is_default: false, data: { card_number: '4111111111111111', expiry_month: 12, expiry_year: new Date().getUTCFullYear() + 3, cvv: '123' } });

  /** `n` adds to account B, each deleted again (earlier runs that cleaned up after themselves). */
  async function addAndDelete(ref: CloudReference, n: number): Promise<void> {
    const auth = { authorization: `Bearer ${ref.tokens.otherAccount}` };
    for (let i = 0; i < n; i++) {
      expect(await call(ref, ref.tokens.otherAccount, 'POST', '/account/payment-methods', card())).toBe(200);
      const list = (await (await fetch(`${ref.baseUrl}/v4/account/payment-methods`, { headers: auth })).json()) as { data: { id: number; is_default: boolean }[] };
      for (const m of list.data) if (!m.is_default) expect(await call(ref, ref.tokens.otherAccount, 'DELETE', `/account/payment-methods/${m.id}`)).toBe(200);
    }
  }

  /** The 6-active check alone against a cloud-ref whose account B had `earlier` adds today. */
  async function sixActiveAfter(earlier: number, opts: { variant?: boolean; faults?: string[] } = {}): Promise<CheckResult> {
    const ref = await startCloudReference({ variant: opts.variant, faults: opts.faults });
    try {
      await addAndDelete(ref, earlier);
      const checks = (await loadChecks(['cloud'])).filter((c) => c.id === SIX);
      const [r] = await run({ protocol: 'cloud', baseUrl: ref.baseUrl, tokens: ref.tokens, fixtures: ref.fixtures, allow: ['destructive'] }, checks);
      return r;
    } finally {
      await ref.close();
    }
  }

  for (const variant of [false, true]) {
    const on = variant ? 'the variant' : 'the reference';
    it(`on ${on}: with 54 earlier adds the positive control is the 60th add, and the check still passes`, async () => {
      const r = await sixActiveAfter(54, { variant });
      expect(r.status, explain(r)).toBe('passed');
    }, 30_000);

    it(`on ${on}: with 55 the check's own 5 adds reach 60, the positive control is refused, and the check is inconclusive, not failed`, async () => {
      const r = await sixActiveAfter(55, { variant });
      expect(r.status, explain(r)).toBe('inconclusive');
      expect(r.message).toMatch(/60 adds \(line 233\)/);
      expect(r.message).toMatch(/60 payment_method_add events/);
    }, 30_000);
  }

  it('a server that counts a deleted method as active still fails it: its events show fewer than 60 adds, so the limit of the day is ruled out', async () => {
    // (Earlier adds cannot be played here: under the fault their deleted methods would fill the 6.)
    const r = await sixActiveAfter(0, { faults: ['deleted-payment-method-stays-active'] });
    expect(r.status, explain(r)).toBe('failed');
    expect(r.message).toMatch(/deleted method still counts/);
  }, 30_000);
});
