// Runs checks in-process against an embedded reference, through the same adapter and runner
// the CLI uses. Short timeouts: a deviation that shows as silence costs well under a second.
import { prepareTarget } from '../../src/adapters/index.ts';
import { timeoutsFor, type Check, type Protocol } from '../../src/core/check.ts';
import type { CheckResult } from '../../src/core/result.ts';
import { runChecks } from '../../src/core/runner.ts';
import type { TargetConfig } from '../../src/config/types.ts';

// backgroundMs leaves 2 s of the check's limit for what follows a wait (a build in the BUILD variant).
export const TEST_TIMEOUTS = timeoutsFor(5000, { replyMs: 800, connectMs: 1000, quietMs: 150, backgroundMs: 3000 });

const embedded: Record<Protocol, TargetConfig | undefined> = {
  wire: { protocol: 'wire', embedded: true, authKey: '' },
  cloud: { protocol: 'cloud', embedded: true },
  build: { protocol: 'build', embedded: true },
};

/**
 * Runs checks (all of one protocol) against that protocol's embedded reference with `faults`,
 * or against its variant mode (every open choice of the document taken the other way).
 */
export async function runAgainstReference(checks: readonly Check[], faults: readonly string[] = [], opts: { variant?: boolean } = {}): Promise<CheckResult[]> {
  if (!checks.length) return [];
  const protocol = checks[0].protocol;
  const config = embedded[protocol];
  if (!config) throw new Error(`no embedded reference for ${protocol}`);
  const name = `${protocol}-ref${opts.variant ? '-variant' : ''}`;
  const target = await prepareTarget(name, { ...config, variant: opts.variant === true } as TargetConfig, faults);
  try {
    return await runChecks(target, checks, { seed: 1, timeouts: TEST_TIMEOUTS, concurrency: 8 });
  } finally {
    await target.stop();
  }
}
