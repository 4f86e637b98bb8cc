// The race the issue reported, reproduced and shown gone: cloud.account.us-zip-rule puts a bad zip
// on the account (a server under us-zip-unchecked takes it) and puts the old one back, while
// cloud.account.put-leaves-omitted-unchanged compares the account's fields before and after a PUT
// of its own. Run side by side, the second saw "zip 'NOT-A-ZIP' -> '19106'" and blamed the server.
// Both declare that they write the account, so the runner never runs them at once.
import { describe, expect, it } from 'vitest';
import type { Check } from '../../src/core/check.ts';
import { loadChecks } from '../../src/core/registry.ts';
import { explain, runOnServer } from '../support/servers.ts';

const ZIP = 'cloud.account.us-zip-rule';
const OMITTED = 'cloud.account.put-leaves-omitted-unchanged';
const all = await loadChecks(['cloud']);
const pair = [ZIP, OMITTED].map((id) => all.find((c) => c.id === id)!);
/** The same checks with no shared state declared: what the runner saw before. */
const undeclared: Check[] = pair.map((c) => ({ ...c, writes: undefined, reads: undefined }));
const busy = { faults: ['us-zip-unchecked'], latencyMs: 30 };

describe('cloud: two checks writing the account never run at once', () => {
  it('the pair declares the account it writes', () => {
    for (const c of pair) expect(c.writes ?? [], c.id).toContain('cloud:account');
  });

  it('without the declaration the race shows: the omitted-fields check blames the server for the zip check\'s write', async () => {
    let seen = '';
    for (let attempt = 0; attempt < 25 && !seen; attempt++) {
      const [[, omitted]] = await runOnServer('cloud', undeclared, busy, { concurrency: 2 });
      if (omitted.status === 'failed' && /zip/.test(omitted.message ?? '')) seen = explain(omitted);
    }
    expect(seen, 'the race was reproduced').toMatch(/omitted fields changed: zip/);
  }, 60_000);

  it('with it, never: under the fault only the zip check fails, in every one of 15 busy runs', async () => {
    for (let attempt = 0; attempt < 15; attempt++) {
      const [[zip, omitted]] = await runOnServer('cloud', pair, busy, { concurrency: 2 });
      expect(zip.status, explain(zip)).toBe('failed');
      expect(omitted.status, explain(omitted)).toBe('passed');
    }
  }, 60_000);
});
