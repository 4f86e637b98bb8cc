// Registry invariants the both-ways proof relies on: every check lists faults of its own
// protocol's reference, every fault is listed by some check, and every check knows its file.
import { describe, expect, it } from 'vitest';
import { loadChecks } from '../../src/core/registry.ts';
import { WIRE_FAULTS } from '../../targets/wire/faults.ts';
import { CLOUD_FAULTS } from '../../targets/cloud/faults.ts';
import { BUILD_FAULTS } from '../../targets/build/faults.ts';

const checks = await loadChecks();
const faultCatalogue: Record<string, Record<string, string>> = { wire: WIRE_FAULTS, cloud: CLOUD_FAULTS, build: BUILD_FAULTS };

describe('registry', () => {
  it("every check lists at least one fault of its protocol's reference target", () => {
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

  it('every check knows the suite file that declares it', () => {
    for (const c of checks) expect(c.source ?? '', c.id).toMatch(new RegExp(`^suites/${c.protocol}/[a-z0-9-]+\\.ts$`));
  });
});
