// A whole run: targets prepared (embedded ones started), checks run per target, one report.
// Used by the CLI and by the project's own tests, so both exercise the same path.
import { prepareTarget, type PreparedTarget } from '../adapters/index.ts';
import { timeoutsFor, type Check, type Timeouts } from '../core/check.ts';
import { ConformanceError, Interrupted, type TargetError } from '../core/errors.ts';
import { repeatOutcome, type CheckResult } from '../core/result.ts';
import { runChecks, type RunOptions } from '../core/runner.ts';
import type { ConformanceConfig } from '../config/types.ts';
import { runReport, targetReport, type RunReport, type TargetReport, type TargetSelection } from '../reports/model.ts';
import { cleanResult, messageText, Redactor } from '../reports/boundary.ts';
import { TOOL } from './tool.ts';
import { unusableReason } from './usable.ts';

export interface ExecuteOptions {
  targets: string[];
  checks: readonly Check[];
  seed: number;
  timeouts: Timeouts;
  /** Checks at once per target; default DEFAULT_CONCURRENCY (by whether the target is embedded). */
  concurrency?: number;
  /** Start the checks in an order drawn from the seed (`--shuffle`). */
  shuffle?: boolean;
  /** Faults to inject, by target name (embedded targets only). */
  faults?: ReadonlyMap<string, readonly string[]>;
  filters: RunReport['filters'];
  /** Each target's own checks (its `implements` applied) and how they were selected; default: `checks` of its protocol. */
  perTarget?: ReadonlyMap<string, { checks: readonly Check[]; selection: TargetSelection }>;
  signal?: AbortSignal;
  /**
   * `--repeat n`: each failing check (failed or error), and each check `repeatAlso` names (a known
   * failure that passed), run again n times alone, labelled flaky or deterministic.
   */
  repeat?: number;
  repeatAlso?(target: string, result: CheckResult): boolean;
  hooks?: {
    onTargetStart?(target: PreparedTarget, checks: readonly Check[]): void;
    onResult?(target: PreparedTarget, result: CheckResult): void;
    onTargetEnd?(report: TargetReport): void;
  };
}

/**
 * Checks at once per target: a server of the user's gets a polite 4; an embedded reference, a
 * server of the tool's own on loopback, gets 16, so that the checks that wait (a variant's build,
 * a window in which nothing may happen) overlap.
 */
export const DEFAULT_CONCURRENCY = { external: 4, embedded: 16 } as const;

export async function executeRun(config: ConformanceConfig, opts: ExecuteOptions): Promise<RunReport> {
  const startedAt = new Date();
  const started = performance.now();
  const reports: TargetReport[] = [];
  for (const name of opts.targets) {
    const targetConfig = config.targets[name];
    const own = opts.perTarget?.get(name);
    const checks = own?.checks ?? opts.checks.filter((c) => c.protocol === targetConfig.protocol);
    const timeouts = targetConfig.timeouts ? timeoutsFor(targetConfig.timeouts.checkMs ?? opts.timeouts.checkMs, targetConfig.timeouts) : opts.timeouts;
    const prepared = await prepareTarget(name, targetConfig, opts.faults?.get(name) ?? []);
    const t0 = performance.now();
    const base = {
      name,
      protocol: prepared.protocol,
      address: prepared.address,
      embedded: prepared.embedded,
      faults: prepared.faults,
      ...(own ? { selection: own.selection } : {}),
    };
    // The boundary for target text: every result, and the reason a target was unreachable.
    const redactor = new Redactor(prepared.secrets);
    try {
      opts.hooks?.onTargetStart?.(prepared, checks);
      try {
        await prepared.probe(timeouts.connectMs);
      } catch (err) {
        const message = messageText(err instanceof ConformanceError ? err.message : String(err), redactor);
        const results = checks.map((c) => notRunResult(c, `target unreachable: ${message}`, (err as TargetError).code ?? 'E_TARGET_UNREACHABLE'));
        const report = targetReport({ ...base, status: 'unreachable', error: message, durationMs: Math.round(performance.now() - t0) }, results);
        reports.push(report);
        opts.hooks?.onTargetEnd?.(report);
        continue;
      }
      // Reachable, but refusing the configured credentials (or the handshake): one message, exit 3.
      const unusable = checks.length ? await unusableReason(prepared, timeouts, opts.signal) : undefined;
      if (unusable) {
        const message = messageText(unusable, redactor);
        const results = checks.map((c) => notRunResult(c, `target unusable: ${message}`, 'E_TARGET_UNUSABLE'));
        const report = targetReport({ ...base, status: 'unusable', error: message, durationMs: Math.round(performance.now() - t0) }, results);
        reports.push(report);
        opts.hooks?.onTargetEnd?.(report);
        continue;
      }
      const results = await runChecks(prepared, checks, {
        seed: opts.seed,
        timeouts,
        concurrency: opts.concurrency ?? (prepared.embedded ? DEFAULT_CONCURRENCY.embedded : DEFAULT_CONCURRENCY.external),
        shuffle: opts.shuffle ? opts.seed : undefined,
        signal: opts.signal,
        clean: (r) => cleanResult(r, redactor),
        onResult: (r) => opts.hooks?.onResult?.(prepared, r),
      });
      if (opts.repeat) await repeatChecks(prepared, checks, results, opts.repeat, (r) => r.status === 'failed' || r.status === 'error' || opts.repeatAlso?.(name, r) === true, {
        seed: opts.seed,
        timeouts,
        signal: opts.signal,
        clean: (r) => cleanResult(r, redactor),
      });
      const status = interruption(opts.signal) ? 'interrupted' : 'completed';
      const report = targetReport({ ...base, status, durationMs: Math.round(performance.now() - t0) }, results);
      reports.push(report);
      opts.hooks?.onTargetEnd?.(report);
    } finally {
      await prepared.stop();
    }
  }
  const reason = interruption(opts.signal);
  return runReport({
    tool: TOOL,
    seed: opts.seed,
    startedAt: startedAt.toISOString(),
    finishedAt: new Date().toISOString(),
    durationMs: Math.round(performance.now() - started),
    filters: opts.filters,
    interrupted: reason?.message,
    targets: reports,
  });
}

/** The Ctrl-C that stopped the run, if that is what stopped it (a run time limit is not one). */
function interruption(signal: AbortSignal | undefined): Interrupted | undefined {
  return signal?.aborted && signal.reason instanceof Interrupted ? signal.reason : undefined;
}

function notRunResult(c: Check, message: string, code: string): CheckResult {
  const { run: _run, ...check } = c;
  return { check, status: 'error', message, code, evidence: [], durationMs: 0 };
}

/**
 * Runs each chosen result's check again `times` times, one at a time and alone (each run opens its
 * own connection, as every check does), and labels the result. The repeats' own results are not
 * reported: only how they ended. A check whose run was not finished (interrupted) is not repeated.
 */
async function repeatChecks(
  target: PreparedTarget,
  checks: readonly Check[],
  results: CheckResult[],
  times: number,
  chosen: (r: CheckResult) => boolean,
  run: Pick<RunOptions, 'seed' | 'timeouts' | 'signal' | 'clean'>,
): Promise<void> {
  for (const r of results) {
    if (!chosen(r) || run.signal?.aborted) continue;
    const check = checks.find((c) => c.id === r.check.id);
    if (!check) continue;
    const again: CheckResult[] = [];
    for (let i = 0; i < times && !run.signal?.aborted; i++) again.push(...(await runChecks(target, [check], { ...run, concurrency: 1 })));
    if (again.length) r.repeats = repeatOutcome(r.status, again);
  }
}
