// Every term of the catalogue is exercised by at least one WIRE check (its `terms` say which),
// and every name a check lists is a real TermType name.
import { describe, expect, it } from 'vitest';
import { TermType } from '../../src/clients/wire/schema.ts';
import { loadChecks } from '../../src/core/registry.ts';

const checks = await loadChecks(['wire']);
const listed = new Set(checks.flatMap((c) => c.terms ?? []));

describe('term catalogue coverage', () => {
  it('every TermType name appears in the terms of some check', () => {
    expect(Object.keys(TermType).filter((name) => !listed.has(name))).toEqual([]);
  });

  it('every name in a check\'s terms is a TermType name', () => {
    const unknown = checks.flatMap((c) => (c.terms ?? []).filter((name) => !(name in TermType)).map((name) => `${c.id}: ${name}`));
    expect(unknown).toEqual([]);
  });
});
