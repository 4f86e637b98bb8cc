// Runs selected checks against one prepared target: a pool of `concurrency` workers, a timeout
// per check, fresh protocol sessions per check, and a result for every selected check even when
// the run is interrupted or runs out of time.
import { setMaxListeners } from 'node:events';
import { GATED_TAGS, metaOf, stackFiles, type Check, type CheckContext, type CheckMeta, type Timeouts } from './check.ts';
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
  /**
   * Runs the checks in an order drawn from this seed instead of registry order (owners of
   * relied-on rules still come first): a run that passes only in one order has checks in each
   * other's way.
   */
  shuffle?: number;
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

/**
 * Runs `checks` with at most `concurrency` at once. Results come back in the order given,
 * whatever order they ran in. Two checks that write the same state, or one writing what the
 * other reads (`writes`, `reads`), never run at the same time; a check runs after the selected
 * checks it relies on (`reliesOn`) and is inconclusive when one of them failed.
 */
export async function runChecks(target: RunnableTarget, checks: readonly Check[], opts: RunOptions): Promise<CheckResult[]> {
  const results: CheckResult[] = new Array(checks.length);
  const index = new Map(checks.map((c, i) => [c.id, i]));
  const pending = runOrder(checks, opts.shuffle);
  const running = new Set<number>();
  const done = new Set<number>();
  const limit = Math.max(1, Math.min(opts.concurrency, checks.length));
  let wake: () => void = () => {};

  const ownersOf = (i: number) => (checks[i].reliesOn ?? []).map((id) => index.get(id)).filter((j): j is number => j !== undefined && j !== i);
  const clashes = (i: number) => {
    const mine = checks[i];
    for (const j of running) if (stateClash(mine, checks[j])) return true;
    return false;
  };
  const start = async (i: number) => {
    const c = checks[i];
    let result: CheckResult;
    const brokenOwner = ownersOf(i).find((j) => results[j]?.status === 'failed');
    if (opts.signal?.aborted) {
      result = notRun(c, opts.signal.reason);
    } else if (brokenOwner !== undefined) {
      result = reliedOnFailed(c, checks[brokenOwner].id);
    } else {
      opts.onStart?.(c);
      result = await runOne(target, c, opts);
    }
    results[i] = opts.clean ? opts.clean(result) : result;
    running.delete(i);
    done.add(i);
    opts.onResult?.(results[i]);
    wake();
  };

  while (pending.length || running.size) {
    // The first check in order whose owners are done and whose state no running check touches.
    let picked = -1;
    if (running.size < limit) {
      picked = pending.findIndex((i) => ownersOf(i).every((j) => done.has(j)) && !clashes(i));
      // Nothing running and nothing ready can only come from a cycle of reliesOn, which the
      // registry refuses; never wait forever on it.
      if (picked < 0 && running.size === 0) picked = 0;
    }
    if (picked >= 0) {
      const [i] = pending.splice(picked, 1);
      running.add(i);
      void start(i);
      continue;
    }
    await new Promise<void>((resolve) => (wake = resolve));
  }
  return results;
}

/** Whether two checks may not run at the same time: one writes a state the other writes or reads. */
export function stateClash(a: Pick<Check, 'writes' | 'reads'>, b: Pick<Check, 'writes' | 'reads'>): boolean {
  const aw = a.writes ?? [];
  const bw = b.writes ?? [];
  if (!aw.length && !bw.length) return false;
  const touchesOf = (c: Pick<Check, 'writes' | 'reads'>) => [...(c.writes ?? []), ...(c.reads ?? [])];
  return aw.some((s) => touchesOf(b).includes(s)) || bw.some((s) => touchesOf(a).includes(s));
}

/**
 * The order checks are started in: registry order, or one drawn from `shuffle`; then each check
 * moved after the checks it relies on (a stable topological order: owners first).
 */
export function runOrder(checks: readonly Pick<Check, 'id' | 'reliesOn'>[], shuffle?: number): number[] {
  let order = checks.map((_, i) => i);
  if (shuffle !== undefined) order = shuffled(order, shuffle);
  const index = new Map(checks.map((c, i) => [c.id, i]));
  const placed = new Set<number>();
  const out: number[] = [];
  const visiting = new Set<number>();
  const place = (i: number) => {
    if (placed.has(i) || visiting.has(i)) return; // a cycle is refused by the registry; never loop here
    visiting.add(i);
    for (const id of checks[i].reliesOn ?? []) {
      const j = index.get(id);
      if (j !== undefined) place(j);
    }
    visiting.delete(i);
    placed.add(i);
    out.push(i);
  };
  for (const i of order) place(i);
  return out;
}

/** Fisher-Yates with a small seeded generator (mulberry32): the same seed, the same order. */
function shuffled<T>(items: T[], seed: number): T[] {
  let a = seed >>> 0;
  const random = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const out = [...items];
  for (let i = out.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [out[i], out[j]] = [out[j], out[i]];
  }
  return out;
}

function reliedOnFailed(c: Check, owner: string): CheckResult {
  return {
    check: metaOf(c),
    status: 'inconclusive',
    message: `relies on ${owner}, which failed in this run: its rule is reported there, not again here`,
    phase: 'setup',
    seeAlso: owner,
    evidence: [],
    durationMs: 0,
  };
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
    const ctx = makeContext(target, metaOf(c), opts, evidence, controller.signal, session.extras, notes);
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
  meta: CheckMeta,
  opts: RunOptions,
  evidence: EvidenceLog,
  signal: AbortSignal,
  extras: Record<string, unknown>,
  notes: string[],
): CheckContext {
  const ctx: CheckContext = {
    target: { name: target.name, protocol: target.protocol, address: target.address },
    meta,
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
