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

  it('never runs two checks that write the same state, or a writer beside a reader, at once; others overlap', async () => {
    const active = new Set<string>();
    const overlaps: string[] = [];
    const body = (id: string) => async () => {
      for (const other of active) overlaps.push([id, other].sort().join('+'));
      active.add(id);
      await new Promise((r) => setTimeout(r, 20));
      active.delete(id);
    };
    const checks = [
      check({ ...meta, id: 'wire.w1', title: 'writes s', writes: ['s'] }, body('w1')),
      check({ ...meta, id: 'wire.w2', title: 'writes s', writes: ['s'] }, body('w2')),
      check({ ...meta, id: 'wire.r', title: 'reads s', reads: ['s'] }, body('r')),
      check({ ...meta, id: 'wire.x', title: 'writes t', writes: ['t'] }, body('x')),
      check({ ...meta, id: 'wire.y', title: 'free' }, body('y')),
    ];
    const results = await runChecks(target, checks, { seed: 1, timeouts: timeoutsFor(1000), concurrency: 5 });
    expect(results.map((r) => r.status)).toEqual(['passed', 'passed', 'passed', 'passed', 'passed']);
    for (const pair of ['w1+w2', 'r+w1', 'r+w2']) expect(overlaps).not.toContain(pair);
    expect(overlaps).toContain('w1+x');
  });

  it('runs owners first and reports a dependent of a failed owner as inconclusive, naming it', async () => {
    const order: string[] = [];
    const checks = [
      check({ ...meta, id: 'wire.dependent', title: 'd', reliesOn: ['wire.owner'] }, async () => void order.push('dependent')),
      check({ ...meta, id: 'wire.owner', title: 'o' }, async (ctx) => {
        order.push('owner');
        ctx.fail('paging broken');
      }),
      check({ ...meta, id: 'wire.fine', title: 'f', reliesOn: ['wire.unselected'] }, async () => void order.push('fine')),
    ];
    const results = await runChecks(target, checks, { seed: 1, timeouts: timeoutsFor(1000), concurrency: 3 });
    expect(order).toEqual(['owner', 'fine']);
    expect(results.map((r) => r.status)).toEqual(['inconclusive', 'failed', 'passed']);
    expect(results[0]).toMatchObject({ seeAlso: 'wire.owner', message: expect.stringMatching(/^relies on wire.owner, which failed/) });
  });

  it('shuffles by seed, the same seed the same order, owners still first', async () => {
    const ids = Array.from({ length: 12 }, (_, i) => `wire.c${i}`);
    const checks = ids.map((id, i) => check({ ...meta, id, title: id, ...(i === 0 ? { reliesOn: ['wire.c11'] } : {}) }, async () => {}));
    const { runOrder } = await import('../../src/core/runner.ts');
    const a = runOrder(checks, 7);
    expect(runOrder(checks, 7)).toEqual(a);
    expect(a).not.toEqual(runOrder(checks));
    expect(a.indexOf(11)).toBeLessThan(a.indexOf(0));
    expect([...a].sort((x, y) => x - y)).toEqual(ids.map((_, i) => i));
  });
});
