import { describe, expect, it } from 'vitest';
import { loadChecks, selectChecks } from '../../src/core/registry.ts';

const checks = await loadChecks(['wire']);

describe('selectChecks', () => {
  it('keeps checks whose id matches a glob', () => {
    const ids = selectChecks(checks, { only: ['wire.handshake.*'] }).map((c) => c.id);
    expect(ids.length).toBeGreaterThan(1);
    expect(ids.every((id) => id.startsWith('wire.handshake.'))).toBe(true);
  });
  it('keeps checks of a named section, case-insensitively', () => {
    const picked = selectChecks(checks, { only: ['limits'] });
    expect(picked.map((c) => c.id)).toContain('wire.limits.batches-under-1000');
    expect(picked.every((c) => c.section === 'Limits')).toBe(true);
  });
  it('a prefix of a section names it: Handshake is "Handshake (protobuf protocol)"', () => {
    const picked = selectChecks(checks, { only: ['Handshake'] });
    expect(picked.length).toBeGreaterThan(1);
    expect(new Set(picked.map((c) => c.section))).toEqual(new Set(['Handshake (protobuf protocol)']));
  });
  it('drops skipped ids and SHOULD checks with --level must', () => {
    const picked = selectChecks(checks, { skip: ['wire.limits.*'], level: 'must' });
    expect(picked.some((c) => c.id.startsWith('wire.limits.'))).toBe(false);
    expect(picked.every((c) => c.level === 'MUST')).toBe(true);
  });
});
