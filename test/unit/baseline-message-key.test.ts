// A known failure is known while its message says the same thing: what a check or server makes up
// anew on every run (ids, uuids, times, random name suffixes) is masked before the comparison.
import { describe, expect, it } from 'vitest';
import { messageKey } from '../../src/reports/baseline.ts';

describe('messageKey', () => {
  it('masks what differs from run to run', () => {
    const a = 'GET /v4/account/users/{username} after DELETE: expected 404, got 200 {"username":"conf-delete-33246475"}';
    const b = 'GET /v4/account/users/{username} after DELETE: expected 404, got 200 {"username":"conf-delete-cbe645ab"}';
    expect(messageKey(a)).toBe(messageKey(b));
    expect(messageKey('token 6f1c2a9e-1b2c-4d5e-8f90-0a1b2c3d4e5f at 2026-11-26T16:00:00Z')).toBe('token <uuid> at <time>');
  });

  it('keeps words, status codes and counts', () => {
    expect(messageKey('expected 404, got 200: deadbeef facade added')).toBe('expected 404, got 200: deadbeef facade added');
    expect(messageKey('COUNT([1, 2, 2, 3, 4], 2) should be 2, got 3')).not.toBe(messageKey('COUNT([1, 2, 2, 3, 4], 2) should be 2, got 4'));
  });
});
