// One fuzz campaign against one configured target, as the CLI, the tests and the bench run it:
// open the target, create its scratch resources, run the campaign, remove the scratch resources,
// write the JUnit file of its buckets, stop the target.
import { TOOL } from '../src/cli/tool.ts';
import type { TargetConfig } from '../src/config/types.ts';
import { Campaign, type CampaignResult } from './core/campaign.ts';
import type { Finding } from './core/findings.ts';
import type { ScratchCleanup } from './core/kind.ts';
import { selectKinds } from './core/registry.ts';
import { FUZZ_REPORT_FORMAT, writeFuzzOutputs } from './core/report.ts';
import { openFuzzTarget } from './targets.ts';
import { secretsOf } from '../src/adapters/secrets.ts';
import { messageText, Redactor } from '../src/reports/boundary.ts';
import { TargetUnreachable } from '../src/core/errors.ts';
import { caseSelector, type Implements, type ImplementsFilters } from '../src/core/registry.ts';

export interface FuzzRunOptions {
  targetName: string;
  target: TargetConfig;
  faults?: readonly string[];
  kinds?: readonly string[];
  seed: number;
  /** The run's selection filters (the target's `implements` is added here): only cases inside them are sent. */
  select?: ImplementsFilters;
  runs?: number;
  timeMs?: number;
  /** `--shard i/n`: this machine's share of the campaign's chunks and case budget. */
  shard?: { index: number; count: number };
  concurrency: number;
  window?: number;
  /** Per case: how long to wait for what the target owes. */
  caseTimeoutMs?: number;
  shrinkMs?: number;
  outDir: string;
  corpusDir?: string;
  signal?: AbortSignal;
  /** `changes`: one line saying what the campaign may change on the target. */
  onStart?(campaign: Campaign<unknown>, target: Finding['target'], kinds: string[], changes: string): void;
  onFinding?(f: Finding, path: string): void;
}

export interface FuzzRunResult extends CampaignResult {
  target: Finding['target'];
  kinds: string[];
  junitPath: string;
  jsonPath: string;
  /** What the campaign was allowed to change (the line printed at its start). */
  changes: string;
  /** The scratch resources removed at the end, and any that could not be. */
  scratch: ScratchCleanup;
}

export async function runFuzz(o: FuzzRunOptions): Promise<FuzzRunResult> {
  const target = o.target;
  const kinds = selectKinds(target.protocol, o.kinds);
  // What the server implements (the run's filters and the target's `implements`): only cases inside it.
  const select = caseSelector(o.select ?? {}, target.implements as Implements | undefined, target.protocol);
  const opened = await openFuzzTarget(o.targetName, target, o.faults ?? [], { timeoutMs: o.caseTimeoutMs ?? 2000, lanes: o.concurrency, select });
  // The seed names the scratch resources the cases write to, so it is part of what generates them.
  const ctx = { ...opened.ctx, seed: o.seed, select };
  let scratch: ScratchCleanup = { removed: [], left: [] };
  let prepared = false;
  try {
    // A target that is not there (a gateway answering 502-504) is unreachable, not a finding.
    const why = await opened.driver.unreachable?.();
    if (why) throw new TargetUnreachable(`${o.targetName}: ${why}`);
    prepared = true;
    await opened.driver.prepare?.(ctx);
    const campaign = new Campaign<unknown>({
      kinds,
      driver: opened.driver,
      ctx,
      seed: o.seed,
      runs: o.runs,
      timeMs: o.timeMs,
      shard: o.shard,
      concurrency: o.concurrency,
      window: o.window,
      outDir: o.outDir,
      corpusDir: o.corpusDir,
      shrinkMs: o.shrinkMs,
      signal: o.signal,
      target: opened.info,
      tool: TOOL,
      secrets: secretsOf(target),
      onFinding: o.onFinding,
    });
    const names = kinds.map((k) => k.name);
    const changes = opened.driver.changes?.() ?? 'may change: anything its requests change';
    o.onStart?.(campaign, opened.info, names, changes);
    const result = await campaign.run();
    scratch = cleanScratch(await opened.driver.cleanup?.() ?? scratch, new Redactor(secretsOf(target)));
    prepared = false;
    // Rewrites the finding files too: hit counts grew after they were first written.
    const written = await writeFuzzOutputs(o.outDir, {
      format: FUZZ_REPORT_FORMAT,
      tool: TOOL,
      target: opened.info,
      kinds: names,
      seed: o.seed,
      runs: o.runs,
      shards: [o.shard ?? { index: 1, count: 1 }],
      cases: result.cases,
      durationMs: result.elapsedMs,
      startedAt: result.startedAt,
      stopReason: result.stopReason,
      restarts: result.restarts,
      recoveryAttempts: result.recoveryAttempts,
      coverage: result.coverage,
      findings: result.findingFiles.map((f) => f.finding),
    });
    return { ...result, ...written, target: opened.info, kinds: names, changes, scratch };
  } finally {
    // A campaign that ended by an error still removes what it created.
    if (prepared) await opened.driver.cleanup?.();
    await opened.stop();
  }
}

/** The clean-up's reasons come from the target (its error messages): through the report boundary. */
function cleanScratch(s: ScratchCleanup, redactor: Redactor): ScratchCleanup {
  return { removed: s.removed.map((n) => messageText(n, redactor)), left: s.left.map((l) => ({ name: messageText(l.name, redactor), reason: messageText(l.reason, redactor) })) };
}
