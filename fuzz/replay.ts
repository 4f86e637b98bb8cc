// Replays a finding file: the exact bytes or HTTP request it holds are sent again to the target (the one named
// in the file, or another), judged by the same oracles, and the verdict compared with the file's.
import { UsageError } from '../src/core/errors.ts';
import type { TargetConfig } from '../src/config/types.ts';
import type { Finding } from './core/findings.ts';
import type { IsolatedOutcome } from './core/kind.ts';
import { FUZZ_KINDS } from './core/registry.ts';
import { openFuzzTarget } from './targets.ts';

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
  const kind = FUZZ_KINDS.find((k) => k.name === finding.kind);
  if (kind && kind.protocol !== target.protocol) throw new UsageError(`the finding is of kind ${finding.kind} (${kind.protocol} targets); target '${targetName}' is a ${target.protocol} target`);
  const opened = await openFuzzTarget(targetName, target, faults, { timeoutMs, lanes: 1 });
  let prepared = false;
  try {
    const value = opened.driver.deserialize(finding.case);
    // The campaign's scratch resources, named from its seed, as the case expects them.
    const ctx = { ...opened.ctx, seed: finding.campaign?.seed };
    prepared = true;
    await opened.driver.prepare?.(ctx);
    if (opened.driver.admits && !opened.driver.admits(value)) {
      throw new UsageError(
        `the finding's case would change what the replay did not create on '${targetName}' (${opened.driver.changes?.() ?? ''}); replay it against an embedded target, or one whose config has allow: ['destructive']`,
      );
    }
    if (finding.sequence?.length) {
      // A target that died after a run of cases: every one of them, in order, then is it alive?
      const values = finding.sequence.map((e) => opened.driver.deserialize(e.case));
      if (opened.driver.admits && values.some((v) => !opened.driver.admits!(v))) {
        throw new UsageError(`a case of the finding's sequence would change what the replay did not create on '${targetName}' (${opened.driver.changes?.() ?? ''}); replay it against an embedded target, or one whose config has allow: ['destructive']`);
      }
      const records: unknown[] = [];
      let alive = true;
      for (const v of values) {
        records.push((await opened.driver.isolated(v)).record);
        // Stop at the first case after which it is dead (an embedded one would be restarted by the next).
        if (!(alive = await opened.driver.alive())) break;
      }
      const outcome = {
        violations: alive ? [] : [{ oracle: 'liveness', message: `the target stopped answering after case ${records.length} of the ${values.length} of the finding, sent in order`, signature: 'died-after-sequence' }],
        record: { cases: records.length, alive },
        shape: alive ? 'alive' : 'dead',
      };
      return { outcome, sameOracle: !alive, target: opened.info };
    }
    const outcome = await opened.driver.isolated(value);
    return { outcome, sameOracle: outcome.violations.some((v) => v.oracle === finding.oracle), target: opened.info };
  } finally {
    if (prepared) await opened.driver.cleanup?.();
    await opened.stop();
  }
}
