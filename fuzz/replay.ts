// Replays a finding file: the exact bytes it holds are sent again to the target (the one named
// in the file, or another), judged by the same oracles, and the verdict compared with the file's.
import { UsageError } from '../src/core/errors.ts';
import type { TargetConfig } from '../src/config/types.ts';
import type { Finding } from './core/findings.ts';
import type { IsolatedOutcome } from './core/kind.ts';
import { openWireFuzzTarget } from './wire/target.ts';

export interface ReplayResult {
  outcome: IsolatedOutcome;
  /** The file's oracle is broken again. */
  sameOracle: boolean;
  target: Finding['target'];
}

export async function replayFinding(
  finding: Finding,
  targetName: string,
  target: TargetConfig,
  { faults, timeoutMs = 2000 }: { faults: readonly string[]; timeoutMs?: number },
): Promise<ReplayResult> {
  if (target.protocol !== 'wire') throw new UsageError(`target '${targetName}': replaying findings against ${target.protocol} targets is not available yet (WIRE only)`);
  const opened = await openWireFuzzTarget(targetName, target, faults, { timeoutMs, lanes: 1 });
  try {
    const outcome = await opened.driver.isolated(opened.driver.deserialize(finding.case));
    return { outcome, sameOracle: outcome.violations.some((v) => v.oracle === finding.oracle), target: opened.info };
  } finally {
    await opened.stop();
  }
}
