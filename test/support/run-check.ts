// Runs checks in-process against the embedded reference, through the same adapter and runner
// the CLI uses. Short timeouts: a deviation that shows as silence costs well under a second.
import { prepareTarget } from '../../src/adapters/index.ts';
import { timeoutsFor, type Check } from '../../src/core/check.ts';
import type { CheckResult } from '../../src/core/result.ts';
import { runChecks } from '../../src/core/runner.ts';

export const TEST_TIMEOUTS = timeoutsFor(4000, { replyMs: 800, connectMs: 1000, quietMs: 150 });

export async function runAgainstReference(checks: readonly Check[], faults: readonly string[] = [], authKey = ''): Promise<CheckResult[]> {
  const target = await prepareTarget('wire-ref', { protocol: 'wire', embedded: true, authKey }, faults);
  try {
    return await runChecks(target, checks, { seed: 1, timeouts: TEST_TIMEOUTS, concurrency: 8 });
  } finally {
    await target.stop();
  }
}
