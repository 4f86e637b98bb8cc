// The proof that no check is a check that cannot fail, and that none over-asserts: for one
// protocol, every registered check
//  (a) passes against the clean reference and against its variant (the same server taking every
//      choice the document leaves open the other way), in the whole suite and alone on a fresh
//      server, where it reaches no route (or term) its `touches` does not declare;
//  (b) fails under each fault it lists, at an assertion of its own (not in set-up: that would be
//      inconclusive), on the reference and on the variant alike.
import { beforeAll, describe, expect, it } from 'vitest';
import type { Check, Protocol } from '../../src/core/check.ts';
import type { CheckResult } from '../../src/core/result.ts';
import { loadChecks } from '../../src/core/registry.ts';
import { runAgainstReference } from '../support/run-check.ts';
import { runOnServer, undeclaredTouches } from '../support/servers.ts';

const MODES = [
  { name: 'reference', variant: false },
  { name: 'variant', variant: true },
] as const;

const explain = (r: CheckResult) => `${r.status}${r.phase ? ` in ${r.phase}` : ''}${r.at ? ` at ${r.at}` : ''}: ${r.message}`;

/**
 * `modes` picks the reference, the variant or both: each protocol's proof is split in two files
 * (`<protocol>.test.ts`, `<protocol>-variant.test.ts`) so that vitest's workers share it.
 */
export async function proveBothWays(protocol: Protocol, modes: readonly ('reference' | 'variant')[] = ['reference', 'variant']): Promise<void> {
  const checks = await loadChecks([protocol]);
  for (const mode of MODES.filter((m) => modes.includes(m.name))) {
    describe(`${protocol} ${mode.name}: the whole suite passes`, () => {
      let results: Map<string, CheckResult>;
      beforeAll(async () => {
        results = new Map((await runAgainstReference(checks, [], { variant: mode.variant })).map((r) => [r.check.id, r]));
      }, 120_000);
      it.each(checks.map((c) => [c.id]))('%s passes', (id) => {
        const r = results.get(id)!;
        expect(r.status, explain(r)).toBe('passed');
      });
    });

    describe(`${protocol} ${mode.name}: each check alone on a fresh server, reaching only what it declares`, () => {
      it.each(checks.map((c) => [c.id, c] as [string, Check]))('%s passes alone', async (_id, c) => {
        const reached = new Set<string>();
        const [[r]] = await runOnServer(protocol, [c], { variant: mode.variant, onRoute: (route) => reached.add(route) });
        expect(r.status, explain(r)).toBe('passed');
        // Selection, reports and the section-only servers read `touches`: it must hold every route (or term) the check reached.
        expect(undeclaredTouches(c, reached), `${c.id} reaches routes or terms its touches does not declare`).toEqual([]);
      });
    });

    describe(`${protocol} ${mode.name}: each listed fault makes its check fail at its own assertion`, () => {
      const cases = checks.flatMap((c) => c.faults.map((f) => [c.id, f, c] as [string, string, Check]));
      it.each(cases)('%s fails under %s', async (_id, fault, c) => {
        const [r] = await runAgainstReference([c], [fault], { variant: mode.variant });
        expect(r.status, explain(r)).toBe('failed');
        expect(r.phase, explain(r)).toBe('assertion');
        expect(r.at ?? '', `the failure is located in the check's own file ${c.source}: ${explain(r)}`).toMatch(new RegExp(`^${c.source}:\\d+$`));
        expect(r.message ?? '').not.toMatch(/^internal error/);
        expect((r.message ?? '').length).toBeGreaterThan(15);
        expect(r.evidence.length, 'a failure carries the exchange as evidence').toBeGreaterThan(0);
      });
    });
  }
}
