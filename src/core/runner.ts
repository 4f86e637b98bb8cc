// Runs selected checks against one prepared target: a pool of `concurrency` workers, a timeout
// per check, fresh protocol sessions per check, and a result for every selected check even when
// the run is interrupted or runs out of time.
import { setMaxListeners } from 'node:events';
import { GATED_TAGS, metaOf, stackFiles, type Check, type CheckContext, type Timeouts } from './check.ts';
import { CheckFailure, CheckInconclusive, CheckSkipped, ConformanceError, TargetError, TargetTimeout } from './errors.ts';
import { EvidenceLog } from './evidence.ts';
import type { CheckResult } from './result.ts';

/** What a protocol adapter hands the runner for one check: the ctx fields it adds, and cleanup. */
export interface ProtocolSession {
  extras: Record<string, unknown>;
  dispose(): void;
}

export interface RunnableTarget {
  name: string;
  protocol: Check['protocol'];
  address: string;
  /** Gated tags (`destructive`, `load`) this target opted in to. */
  allows?: readonly string[];
  createSession(env: { evidence: EvidenceLog; timeouts: Timeouts; signal: AbortSignal }): ProtocolSession;
}

export interface RunOptions {
  seed: number;
  timeouts: Timeouts;
  concurrency: number;
  /** Aborting stops the run; checks not finished get a result saying why (the abort reason). */
  signal?: AbortSignal;
  /**
   * Applied to each result as it ends, before anything else sees it: the CLI passes the report
   * boundary (redaction, visible control characters, caps), so no target text is kept raw.
   */
  clean?(result: CheckResult): CheckResult;
  onStart?(check: Check): void;
  onResult?(result: CheckResult): void;
}

export async function runChecks(target: RunnableTarget, checks: readonly Check[], opts: RunOptions): Promise<CheckResult[]> {
  const results: CheckResult[] = new Array(checks.length);
  let next = 0;
  const worker = async () => {
    while (next < checks.length) {
      const i = next++;
      const c = checks[i];
      let result: CheckResult;
      if (opts.signal?.aborted) {
        result = notRun(c, opts.signal.reason);
      } else {
        opts.onStart?.(c);
        result = await runOne(target, c, opts);
      }
      results[i] = opts.clean ? opts.clean(result) : result;
      opts.onResult?.(results[i]);
    }
  };
  const workers = Array.from({ length: Math.max(1, Math.min(opts.concurrency, checks.length)) }, worker);
  await Promise.all(workers);
  return results;
}

function notRun(c: Check, reason: unknown): CheckResult {
  const why = reason instanceof Error ? reason.message : String(reason);
  const stopped = reason instanceof ConformanceError && (reason.code === 'E_INTERRUPTED' || reason.code === 'E_BAIL') ? reason.code : undefined;
  return {
    check: metaOf(c),
    status: stopped ? 'skipped' : 'error',
    message: `not run: ${why}`,
    code: stopped ?? 'E_RUN_TIMEOUT',
    evidence: [],
    durationMs: 0,
  };
}

export async function runOne(target: RunnableTarget, c: Check, opts: RunOptions): Promise<CheckResult> {
  const gated = GATED_TAGS.find((t) => c.tags?.includes(t) && !target.allows?.includes(t));
  if (gated) {
    const message = `tagged ${gated}: runs only where the target opts in (allow: ['${gated}'] in its config; ad hoc: --allow ${gated})`;
    return { check: metaOf(c), status: 'skipped', message, evidence: [], durationMs: 0 };
  }
  const evidence = new EvidenceLog();
  const controller = new AbortController();
  // A check may have many requests in flight (a rate-limit burst), each listening for the abort.
  setMaxListeners(0, controller.signal);
  const onRunAbort = () => controller.abort(opts.signal?.reason);
  opts.signal?.addEventListener('abort', onRunAbort, { once: true });
  // Timers never keep the process alive on their own: when the work is done, the CLI exits.
  const timer = setTimeout(
    () => controller.abort(new TargetTimeout(`check did not finish within ${opts.timeouts.checkMs} ms`, opts.timeouts.checkMs)),
    opts.timeouts.checkMs,
  ).unref();
  const started = performance.now();
  const notes: string[] = [];
  let session: ProtocolSession | undefined;
  let outcome: Outcome;
  try {
    session = target.createSession({ evidence, timeouts: opts.timeouts, signal: controller.signal });
    const ctx = makeContext(target, opts, evidence, controller.signal, session.extras, notes);
    const aborted = new Promise<never>((_, reject) => {
      const onAbort = () => reject(controller.signal.reason);
      if (controller.signal.aborted) onAbort();
      else controller.signal.addEventListener('abort', onAbort, { once: true });
    });
    const body = Promise.resolve().then(() => c.run(ctx as never));
    body.catch(() => {}); // a body still running after a timeout must not surface as unhandled
    await Promise.race([body, aborted]);
    outcome = { status: 'passed' };
  } catch (err) {
    outcome = classify(err, c.source);
  } finally {
    clearTimeout(timer);
    opts.signal?.removeEventListener('abort', onRunAbort);
    session?.dispose();
  }
  // Evidence is kept for what a reader must look into; a passed check's bytes would only bloat
  // reports. Its notes are kept: they say what a pass could or could not see.
  const kept = outcome.status === 'passed' ? [] : evidence.toJSON();
  return {
    check: metaOf(c),
    ...outcome,
    ...(notes.length ? { notes } : {}),
    evidence: kept,
    durationMs: Math.round(performance.now() - started),
  };
}

type Outcome = Pick<CheckResult, 'status' | 'message' | 'code' | 'phase' | 'at' | 'seeAlso'>;

/**
 * The source line an error was raised from: the first frame in the check's own file (its
 * assertion, or the call of the helper that asserted), else the first frame in a suite.
 */
export function locate(err: Error, source: string | undefined): string | undefined {
  const frames = stackFiles(err.stack);
  const own = frames.find((f) => f.file === source) ?? frames.find((f) => f.file.startsWith('suites/'));
  return own && `${own.file}:${own.line}`;
}

export function classify(err: unknown, source?: string): Outcome {
  if (err instanceof CheckFailure) return { status: 'failed', message: err.message, phase: 'assertion', at: locate(err, source) };
  if (err instanceof CheckInconclusive) {
    const message = err.seeAlso ? `${err.message} (the rule it relied on is tested by ${err.seeAlso})` : err.message;
    return { status: 'inconclusive', message, phase: 'setup', at: locate(err, source), ...(err.seeAlso ? { seeAlso: err.seeAlso } : {}) };
  }
  if (err instanceof CheckSkipped) return { status: 'skipped', message: err.message };
  if (err instanceof TargetError) return { status: 'error', message: err.message, code: err.code, at: locate(err, source) };
  if (err instanceof ConformanceError && err.code === 'E_INTERRUPTED') return { status: 'skipped', message: `interrupted: ${err.message}`, code: err.code };
  if (err instanceof ConformanceError && err.code === 'E_BAIL') return { status: 'skipped', message: `not finished: ${err.message}`, code: err.code };
  if (err instanceof ConformanceError && err.code === 'E_RUN_TIMEOUT') return { status: 'error', message: `stopped: ${err.message}`, code: err.code };
  // Anything else is a defect of the check itself; say so rather than blame the target.
  const e = err instanceof Error ? err : new Error(String(err));
  return { status: 'error', message: `internal error in the check: ${e.message}`, code: 'E_INTERNAL', at: locate(e, source) };
}

function makeContext(
  target: RunnableTarget,
  opts: RunOptions,
  evidence: EvidenceLog,
  signal: AbortSignal,
  extras: Record<string, unknown>,
  notes: string[],
): CheckContext {
  const ctx: CheckContext = {
    target: { name: target.name, protocol: target.protocol, address: target.address },
    seed: opts.seed,
    signal,
    timeouts: opts.timeouts,
    evidence,
    expect(condition: unknown, message: string): void {
      if (!condition) throw new CheckFailure(message);
    },
    fail(message: string): never {
      throw new CheckFailure(message);
    },
    skip(reason: string): never {
      throw new CheckSkipped(reason);
    },
    async setup<T>(step: string, fn: () => Promise<T> | T, o: { seeAlso?: string } = {}): Promise<T> {
      // Taken before the step runs: an inconclusive result names the line that began the step.
      const begun = new Error();
      try {
        return await fn();
      } catch (err) {
        if (!(err instanceof CheckFailure)) throw err;
        const inconclusive = new CheckInconclusive(`set-up "${step}" did not hold: ${err.message}`, { step, seeAlso: o.seeAlso, cause: err });
        inconclusive.stack = begun.stack;
        throw inconclusive;
      }
    },
    inconclusive(reason: string, o: { seeAlso?: string } = {}): never {
      throw new CheckInconclusive(reason, { seeAlso: o.seeAlso });
    },
    note(text: string) {
      notes.push(text);
      evidence.note(text);
    },
  };
  return Object.assign(ctx, extras);
}
