// The proof matrix: every check of a protocol against the servers users really have.
//  - a do-nothing server (CLOUD and BUILD: 404 with the error body to everything; WIRE: a good
//    handshake, then a RUNTIME_ERROR to every query) and an accept-all server (200 with an empty
//    body of the protocol's type; WIRE: an empty SUCCESS_SEQUENCE): no check passes there unless
//    it declares, in `keptBy`, why such a server really keeps its rule (and then it must pass);
//    no check crashes on what such a server sends.
// The reference and variant proofs (prove.ts) stay as they are.
import { beforeAll, describe, expect, it } from 'vitest';
import type { Check, Protocol } from '../../src/core/check.ts';
import { loadChecks } from '../../src/core/registry.ts';
import type { CheckResult } from '../../src/core/result.ts';
import { explain, runOnServer } from '../support/servers.ts';
import { MATRIX_PENDING } from './matrix-pending.ts';

const TRIVIAL = [
  { mode: 'do-nothing', key: 'doNothing' },
  { mode: 'accept-all', key: 'acceptAll' },
] as const;

export async function proveOnTrivialServers(protocol: Protocol): Promise<void> {
  const checks = await loadChecks([protocol]);
  for (const { mode, key } of TRIVIAL) {
    describe(`${protocol} ${mode} server: no check passes unless it declares the rule such a server keeps`, () => {
      let results: Map<string, CheckResult>;
      beforeAll(async () => {
        const [run] = await runOnServer(protocol, checks, { mode });
        results = new Map(run.map((r) => [r.check.id, r]));
      }, 120_000);
      it.each(checks.map((c) => [c.id, c] as [string, Check]))('%s', (id, c) => {
        const r = results.get(id)!;
        expect(r.code, explain(r)).not.toBe('E_INTERNAL');
        const pending = MATRIX_PENDING[`${protocol} ${mode}`]?.[id];
        if (c.keptBy?.[key]) expect(r.status, `${explain(r)} (declares: ${c.keptBy[key]})`).toBe('passed');
        else if (!pending) expect(r.status, `passed on a ${mode} server without declaring keptBy.${key}: ${explain(r)}`).not.toBe('passed');
        // The pending list only shrinks: a check mended is taken off it.
        else expect(r.status, `${id} no longer passes on a ${mode} server: take it off matrix-pending.ts`).toBe('passed');
      });
    });
  }
}

/** What a section-only server serves: the routes (or, for WIRE, the terms) the checks of one suite file touch. */
export function servedBy(checks: readonly Check[]): string[] {
  const touched = [...new Set(checks.flatMap((c) => c.touches ?? []))];
  if (checks[0]?.protocol !== 'wire') return touched;
  // Terms every query is built of, whatever its section: a literal, an array, an object, a function.
  return [...new Set([...touched.filter((t) => t.startsWith('term:')).map((t) => t.slice(5)), 'DATUM', 'MAKE_ARRAY', 'MAKE_OBJ', 'FUNC', 'VAR'])];
}

/**
 * Section-only servers: for each suite file of `protocol` (or the files `filesOf` picks, for one
 * vitest worker's share), the reference serving only what that file's checks touch; every check
 * of the other files runs against it, and none may fail or end in error.
 */
export async function proveOnSectionOnlyServers(protocol: Protocol, share?: { index: number; count: number }): Promise<void> {
  const checks = await loadChecks([protocol]);
  const files = [...new Set(checks.map((c) => c.source!))].filter((_, i) => !share || i % share.count === share.index);
  for (const file of files) {
    describe(`${protocol} server serving only what ${file} touches: no check of another file fails`, () => {
      const others = checks.filter((c) => c.source !== file);
      let results: Map<string, CheckResult>;
      beforeAll(async () => {
        const [run] = await runOnServer(protocol, others, { only: servedBy(checks.filter((c) => c.source === file)) });
        results = new Map(run.map((r) => [r.check.id, r]));
      }, 120_000);
      it('no check of another file fails or ends in error', () => {
        const bad = others.map((c) => results.get(c.id)!).filter((r) => r.status === 'failed' || r.status === 'error');
        expect(bad.map(explain)).toEqual([]);
      });
    });
  }
}

/**
 * Twice on one server: the whole suite run twice against one reference (and one variant, which
 * refuses a one-time action the second time) gives the same verdicts, as a user's two runs do:
 * with every gated tag allowed but `irreversible` (what cannot be undone is spent once, on
 * purpose). The only difference allowed: the second run inconclusive where a limit the first run
 * spent (429, named in the message) is still in force, which the check says.
 */
export async function proveTwiceOnOneServer(protocol: Protocol): Promise<void> {
  const checks = await loadChecks([protocol]);
  for (const variant of [false, true]) {
    describe(`${protocol} ${variant ? 'variant' : 'reference'}: the suite twice on one server gives the same verdicts`, () => {
      let runs: CheckResult[][];
      beforeAll(async () => {
        runs = await runOnServer(protocol, checks, { variant, allow: ['destructive', 'load'] }, { times: 2 });
      }, 180_000);
      it('same verdicts on the second run', () => {
        const differences = runs[0]
          .map((first, i) => [first, runs[1][i]] as const)
          .filter(([a, b]) => a.status !== b.status && !(b.status === 'inconclusive' && /\b429\b/.test(b.message ?? '')))
          .map(([a, b]) => `${a.check.id}: ${a.status} then ${explain(b)}`);
        expect(differences).toEqual([]);
      });
    });
  }
}

/**
 * Busy: the suite at concurrency 32, in an order drawn from each seed, against a reference that
 * answers up to `latencyMs` late, gives the verdicts of a serial run in registry order.
 */
export async function proveBusy(protocol: Protocol, seeds: readonly number[], latencyMs = 25): Promise<void> {
  const checks = await loadChecks([protocol]);
  describe(`${protocol} reference, busy: shuffled at concurrency 32 with up to ${latencyMs} ms latency, the verdicts of a serial run`, () => {
    let serial: CheckResult[];
    beforeAll(async () => {
      [serial] = await runOnServer(protocol, checks, {}, { concurrency: 1 });
    }, 240_000);
    it.each(seeds.map((s) => [s]))('seed %i', async (seed) => {
      const [busy] = await runOnServer(protocol, checks, { latencyMs }, { concurrency: 32, shuffle: seed, seed });
      const differences = serial.flatMap((r, i) => (r.status === busy[i].status ? [] : [`${r.check.id}: ${r.status} serially, busy ${explain(busy[i])}`]));
      expect(differences).toEqual([]);
    }, 180_000);
  });
}
