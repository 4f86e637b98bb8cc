// The proof that no check is a check that cannot fail: every registered check passes against
// the clean reference target and fails, with a message, against each fault it lists.
import { beforeAll, describe, expect, it } from 'vitest';
import type { Check } from '../../src/core/check.ts';
import type { CheckResult } from '../../src/core/result.ts';
import { loadChecks } from '../../src/core/registry.ts';
import { WIRE_FAULTS } from '../../targets/wire/faults.ts';
import { CLOUD_FAULTS } from '../../targets/cloud/faults.ts';
import { BUILD_FAULTS } from '../../targets/build/faults.ts';
import { runAgainstReference } from '../support/run-check.ts';

const checks = await loadChecks();
const faultCatalogue: Record<string, Record<string, string>> = { wire: WIRE_FAULTS, cloud: CLOUD_FAULTS, build: BUILD_FAULTS };

describe('registry', () => {
  it('every check lists at least one fault of its protocol\'s reference target', () => {
    for (const c of checks) {
      expect(c.faults.length, `${c.id} lists no fault`).toBeGreaterThan(0);
      for (const f of c.faults) expect(Object.keys(faultCatalogue[c.protocol]), `${c.id}: unknown fault ${f}`).toContain(f);
    }
  });

  it('every fault of a reference target is listed by some check', () => {
    for (const [protocol, faults] of Object.entries(faultCatalogue)) {
      const used = new Set(checks.filter((c) => c.protocol === protocol).flatMap((c) => c.faults));
      expect(Object.keys(faults).filter((f) => !used.has(f))).toEqual([]);
    }
  });
});

describe('clean reference: every check passes', () => {
  let results: Map<string, CheckResult>;
  beforeAll(async () => {
    const protocols = [...new Set(checks.map((c) => c.protocol))];
    const all = await Promise.all(protocols.map((p) => runAgainstReference(checks.filter((c) => c.protocol === p))));
    results = new Map(all.flat().map((r) => [r.check.id, r]));
  });
  it.each(checks.map((c) => [c.id]))('%s passes', (id) => {
    const r = results.get(id)!;
    expect(r.status, r.message).toBe('passed');
  });
});

describe('each listed fault makes its check fail', () => {
  const cases: [string, string, Check][] = checks.flatMap((c) => c.faults.map((f) => [c.id, f, c] as [string, string, Check]));
  it.each(cases)('%s fails under %s', async (_id, fault, c) => {
    const [r] = await runAgainstReference([c], [fault]);
    expect(r.status, `status ${r.status}: ${r.message}`).toBe('failed');
    expect(r.message ?? '').not.toMatch(/^internal error/);
    expect((r.message ?? '').length).toBeGreaterThan(15);
    expect(r.evidence.length, 'a failure carries the exchange as evidence').toBeGreaterThan(0);
  });
});
