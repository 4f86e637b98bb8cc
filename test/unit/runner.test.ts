import { describe, expect, it } from 'vitest';
import { check, timeoutsFor } from '../../src/core/check.ts';
import { Interrupted, RunTimeout, TargetReset } from '../../src/core/errors.ts';
import { runChecks, type RunnableTarget } from '../../src/core/runner.ts';

const target: RunnableTarget = {
  name: 't',
  protocol: 'wire',
  address: 'nowhere',
  createSession: () => ({ extras: {}, dispose: () => {} }),
};
const meta = { protocol: 'wire' as const, section: 'S', level: 'MUST' as const, spec: { file: 'f', line: 1, quote: 'q' }, faults: [] };

describe('runner', () => {
  it('maps outcomes to passed / failed / error / skipped and keeps registry order', async () => {
    const checks = [
      check({ ...meta, id: 'wire.a', title: 'passes' }, async () => {}),
      check({ ...meta, id: 'wire.b', title: 'fails' }, async (ctx) => ctx.expect(false, 'expected x, got y')),
      check({ ...meta, id: 'wire.c', title: 'target broke' }, async () => {
        throw new TargetReset('connection reset by the target');
      }),
      check({ ...meta, id: 'wire.d', title: 'skips' }, async (ctx) => ctx.skip('needs authKey')),
      check({ ...meta, id: 'wire.e', title: 'bug in the check' }, async () => {
        throw new TypeError('oops');
      }),
    ];
    const results = await runChecks(target, checks, { seed: 1, timeouts: timeoutsFor(1000), concurrency: 3 });
    expect(results.map((r) => [r.check.id, r.status, r.message])).toEqual([
      ['wire.a', 'passed', undefined],
      ['wire.b', 'failed', 'expected x, got y'],
      ['wire.c', 'error', 'connection reset by the target'],
      ['wire.d', 'skipped', 'needs authKey'],
      ['wire.e', 'error', 'internal error in the check: oops'],
    ]);
  });

  it('ends a hanging check at its timeout as an error, and goes on', async () => {
    const hang = check({ ...meta, id: 'wire.hang', title: 'hangs' }, () => new Promise(() => {}));
    const ok = check({ ...meta, id: 'wire.ok', title: 'ok' }, async () => {});
    const results = await runChecks(target, [hang, ok], { seed: 1, timeouts: timeoutsFor(50), concurrency: 1 });
    expect(results[0]).toMatchObject({ status: 'error', code: 'E_TARGET_TIMEOUT', message: 'check did not finish within 50 ms' });
    expect(results[1].status).toBe('passed');
  });

  it('lists every selected check when the run is interrupted', async () => {
    const controller = new AbortController();
    const slow = check({ ...meta, id: 'wire.slow', title: 'slow' }, () => new Promise((r) => setTimeout(r, 30)));
    const later = check({ ...meta, id: 'wire.later', title: 'later' }, async () => {});
    setTimeout(() => controller.abort(new Interrupted('interrupted by SIGINT')), 5);
    const results = await runChecks(target, [slow, later], { seed: 1, timeouts: timeoutsFor(1000), concurrency: 1, signal: controller.signal });
    expect(results.map((r) => r.status)).toEqual(['skipped', 'skipped']);
    expect(results[1].message).toBe('not run: interrupted by SIGINT');
  });

  it('a run time limit turns the running and the waiting checks into errors', async () => {
    const controller = new AbortController();
    const slow = check({ ...meta, id: 'wire.slow', title: 'slow' }, () => new Promise((r) => setTimeout(r, 1000)));
    const later = check({ ...meta, id: 'wire.later', title: 'later' }, async () => {});
    setTimeout(() => controller.abort(new RunTimeout(5)), 5);
    const results = await runChecks(target, [slow, later], { seed: 1, timeouts: timeoutsFor(5000), concurrency: 1, signal: controller.signal });
    expect(results.map((r) => [r.status, r.code, r.message])).toEqual([
      ['error', 'E_RUN_TIMEOUT', 'stopped: run time limit of 5 ms reached'],
      ['error', 'E_RUN_TIMEOUT', 'not run: run time limit of 5 ms reached'],
    ]);
  });
});
