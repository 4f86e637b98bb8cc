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
      });
    });
  }
}
