// A newcomer's half-built CLOUD server, as the issue met it: account, events, the invoice list,
// users and settings, nothing else, with planted bugs. On it, at the default concurrency for a
// user's server (4): no check passes on a route the server lacks, no check fails for a missing
// probe route, each planted bug is reported once (by the check owning its rule), and three runs
// give the same verdicts.
import { describe, expect, it } from 'vitest';
import { routeKey } from '../../targets/server-modes.ts';
import { DEFAULT_CONCURRENCY } from '../../src/cli/execute.ts';
import { loadChecks } from '../../src/core/registry.ts';
import type { CheckResult } from '../../src/core/result.ts';
import { explain, runOnServer } from '../support/servers.ts';

const SERVED = [
  'GET /account', 'PUT /account',
  'GET /account/events', 'GET /account/events/{eventId}', 'POST /account/events/{eventId}/read', 'POST /account/events/{eventId}/seen',
  'GET /account/invoices',
  'GET /account/settings', 'PUT /account/settings',
  'GET /account/users', 'POST /account/users', 'GET /account/users/{username}', 'PUT /account/users/{username}', 'DELETE /account/users/{username}',
  'GET /account/users/{username}/grants', 'PUT /account/users/{username}/grants',
];
const served = new Set(SERVED.map(routeKey));
const checks = await loadChecks(['cloud']);

async function runHalfBuilt(faults: string[]): Promise<CheckResult[]> {
  const [results] = await runOnServer('cloud', checks, { only: SERVED, faults }, { concurrency: DEFAULT_CONCURRENCY.external });
  return results;
}

/**
 * A pass must have seen its rule on a route the server has; a check whose rule spans several
 * routes (all times in UTC) may pass on the ones served, and then says in a note which it could
 * not test (rubric 16).
 */
function expectNoPassOnMissingRoutes(results: CheckResult[]): void {
  const missing = (r: CheckResult) => (r.check.touches ?? []).filter((t) => !served.has(routeKey(t)));
  const vacuous = results.filter((r) => r.status === 'passed' && missing(r).length && (missing(r).length === (r.check.touches ?? []).length || !r.notes?.length));
  expect(vacuous.map((r) => `${r.check.id} passed touching ${missing(r).join(', ')}${r.notes?.length ? '' : ' without a note'}`)).toEqual([]);
}

const failed = (results: CheckResult[]) => results.filter((r) => r.status === 'failed' || r.status === 'error').map((r) => r.check.id).sort();

describe('cloud: a half-built server (account, events, invoices, users, settings) with planted bugs', () => {
  it('each planted bug fails its own check and nothing else; no pass on a route it lacks; the same verdicts three times', async () => {
    const runs = [];
    for (let i = 0; i < 3; i++) runs.push(await runHalfBuilt(['us-zip-unchecked', 'delete-unknown-user-200']));
    expect(failed(runs[0]), runs[0].filter((r) => r.status === 'failed').map(explain).join('\n')).toEqual(['cloud.account.us-zip-rule', 'cloud.users.never-existed-404']);
    expectNoPassOnMissingRoutes(runs[0]);
    for (const run of runs.slice(1)) expect(run.map((r) => `${r.check.id} ${r.status}`)).toEqual(runs[0].map((r) => `${r.check.id} ${r.status}`));
  }, 120_000);

  it('paging counted from 0 is reported once, by the paging check; what walks pages names it instead of failing', async () => {
    const results = await runHalfBuilt(['page-zero-based', 'us-zip-unchecked']);
    expect(failed(results), results.filter((r) => r.status === 'failed').map(explain).join('\n')).toEqual(['cloud.account.us-zip-rule', 'cloud.pagination.pages-start-at-1']);
    const users = results.find((r) => r.check.id === 'cloud.users.never-existed-404')!;
    expect(users.status, explain(users)).toBe('inconclusive');
    expect(users.message).toMatch(/cloud\.pagination\.pages-start-at-1/);
    expectNoPassOnMissingRoutes(results);
  }, 60_000);
});

// The newcomer WIRE server: COUNT, LIMIT, SKIP, SUB, GET_FIELD, INSERT, DB_CREATE and
// TABLE_CREATE, but not IS_EMPTY, SLICE, FLOOR, KEYS, SYNC, DB_LIST or TABLE_DROP. A missing term
// fails no check (it leaves the checks that need it inconclusive, or untested in a note), and a
// regression of COUNT is not hidden inside a check already failing for IS_EMPTY.
const { names } = await import('../../src/clients/wire/schema.ts');
const MISSING = ['IS_EMPTY', 'SLICE', 'FLOOR', 'KEYS', 'SYNC', 'DB_LIST', 'TABLE_DROP'];
const WIRE_SERVED = Object.values(names.termType).filter((n) => !MISSING.includes(n));
const wireChecks = await loadChecks(['wire']);
const COUNT = 'wire.term-catalogue.sequences.count-with-value-or-function';

describe('wire: a server missing seven terms', () => {
  it('fails no check', async () => {
    const [results] = await runOnServer('wire', wireChecks, { only: WIRE_SERVED }, { concurrency: DEFAULT_CONCURRENCY.external });
    expect(results.filter((r) => r.status === 'failed' || r.status === 'error').map(explain)).toEqual([]);
    expect(results.find((r) => r.check.id === COUNT)!.status).toBe('passed');
  }, 60_000);

  it('still fails the COUNT check when COUNT breaks, naming COUNT', async () => {
    const [[count]] = await runOnServer('wire', wireChecks.filter((c) => c.id === COUNT), { only: WIRE_SERVED, faults: ['count-ignores-predicate'] });
    expect(count.status, explain(count)).toBe('failed');
    expect(count.message).toMatch(/COUNT/);
  }, 30_000);
});
