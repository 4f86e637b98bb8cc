// `conformance fuzz` runs its campaign in a worker thread, for memory: a campaign allocates fast
// (generated cases, responses), and a main thread's young generation grows to 32 MB of garbage,
// a size node fixes at start-up (--max-semi-space-size cannot be set at run time). A worker's
// young generation can be capped (resourceLimits): with the limits below, 60,000- and
// 100,000-case WIRE campaigns peaked at 155-170 MB of RSS instead of 180-255 MB, at about the
// same cases/s (with jiti's cache filled, see bin/warm-cache.js). The CLI's own thread only shows
// progress and passes Ctrl-C on.
//
// Both sides live here: `runFuzzInThread` (the caller's side) and `serveFuzzThread` (the
// worker's side, started by thread-worker.mjs). Tests and benches may still call runFuzz directly.
import { Worker, type MessagePort } from 'node:worker_threads';
import { ConfigError, ConformanceError, Interrupted, TargetUnreachable, UsageError } from '../src/core/errors.ts';
import type { CampaignProgress } from './core/campaign.ts';
import type { Finding } from './core/findings.ts';
import type { FuzzRunOptions, FuzzRunResult } from './run.ts';

/** What runFuzz takes, less what cannot cross a thread boundary (callbacks, the signal). */
export type ThreadFuzzOptions = Omit<FuzzRunOptions, 'onStart' | 'onFinding' | 'signal'>;

export interface ThreadFuzzHooks {
  /** The target is open and the campaign starts; `progress` reads its latest figures. */
  /** `changes`: one line saying what the campaign may change on the target. */
  onStart?(info: Finding['target'], kinds: string[], progress: () => CampaignProgress, changes: string): void;
  onFinding?(f: Finding, path: string): void;
}

/** Young generation of the campaign's thread: see the top of this file. */
export const CAMPAIGN_YOUNG_GENERATION_MB = 16;
/**
 * Old generation of the campaign's thread. A campaign keeps ~15 MB alive (its findings, the
 * corpus shapes, the loaded code); the rest of the old generation is garbage promoted from the
 * young one. A cap makes V8 collect it sooner (old generation 40 MB instead of up to 70 MB), and
 * at 256 MB it is far above what a campaign keeps.
 */
export const CAMPAIGN_OLD_GENERATION_MB = 256;
const PROGRESS_EVERY_MS = 200;

type ToCaller =
  | { type: 'start'; info: Finding['target']; kinds: string[]; progress: CampaignProgress; changes: string }
  | { type: 'progress'; progress: CampaignProgress }
  | { type: 'finding'; finding: Finding; path: string }
  | { type: 'done'; result: FuzzRunResult }
  | { type: 'error'; error: { code?: string; message: string; stack?: string } };

type ToWorker = { type: 'abort'; reason: string };

export async function runFuzzInThread(o: ThreadFuzzOptions, hooks: ThreadFuzzHooks = {}, signal?: AbortSignal): Promise<FuzzRunResult> {
  const worker = new Worker(new URL('./thread-worker.mjs', import.meta.url), {
    workerData: o,
    resourceLimits: { maxYoungGenerationSizeMb: CAMPAIGN_YOUNG_GENERATION_MB, maxOldGenerationSizeMb: CAMPAIGN_OLD_GENERATION_MB },
  });
  let progress: CampaignProgress = { cases: 0, findings: 0, elapsedMs: 0 };
  const abort = () => worker.postMessage({ type: 'abort', reason: reasonOf(signal) } satisfies ToWorker);
  if (signal?.aborted) abort();
  signal?.addEventListener('abort', abort, { once: true });
  try {
    return await new Promise<FuzzRunResult>((resolve, reject) => {
      worker.on('message', (m: ToCaller) => {
        switch (m.type) {
          case 'start':
            progress = m.progress;
            hooks.onStart?.(m.info, m.kinds, () => progress, m.changes);
            break;
          case 'progress':
            progress = m.progress;
            break;
          case 'finding':
            hooks.onFinding?.(m.finding, m.path);
            break;
          case 'done':
            resolve(m.result);
            break;
          case 'error':
            reject(reviveError(m.error));
            break;
        }
      });
      worker.once('error', (err) =>
        reject(new Error(`the fuzz campaign's thread stopped: ${err.message} (finding files written so far are under ${o.outDir}/findings)`, { cause: err })),
      );
      worker.once('exit', (code) => reject(new Error(`the fuzz campaign's thread exited (code ${code}) before its result`)));
    });
  } finally {
    signal?.removeEventListener('abort', abort);
    await worker.terminate();
  }
}

/** The worker's side: runs the campaign and reports back to the caller's side. */
export async function serveFuzzThread(port: MessagePort, o: ThreadFuzzOptions): Promise<void> {
  const post = (m: ToCaller) => port.postMessage(m);
  const controller = new AbortController();
  port.on('message', (m: ToWorker) => {
    if (m.type === 'abort') controller.abort(new Interrupted(m.reason));
  });
  let ticker: NodeJS.Timeout | undefined;
  try {
    const { runFuzz } = await import('./run.ts');
    const result = await runFuzz({
      ...o,
      signal: controller.signal,
      onStart: (campaign, info, kinds, changes) => {
        post({ type: 'start', info, kinds, progress: campaign.progress, changes });
        ticker = setInterval(() => post({ type: 'progress', progress: campaign.progress }), PROGRESS_EVERY_MS);
      },
      onFinding: (finding, path) => post({ type: 'finding', finding, path }),
    });
    post({ type: 'done', result });
  } catch (err) {
    const e = err instanceof Error ? err : new Error(String(err));
    post({ type: 'error', error: { code: (e as Partial<ConformanceError>).code, message: e.message, stack: e.stack } });
  } finally {
    // The caller terminates this thread once it has the result.
    clearInterval(ticker);
  }
}

function reasonOf(signal: AbortSignal | undefined): string {
  const r: unknown = signal?.reason;
  return r instanceof Error ? r.message : 'interrupted';
}

/** The typed errors the CLI branches on come back as themselves; anything else keeps its stack. */
function reviveError(e: { code?: string; message: string; stack?: string }): Error {
  switch (e.code) {
    case 'E_TARGET_UNREACHABLE':
      return new TargetUnreachable(e.message);
    case 'E_USAGE':
      return new UsageError(e.message);
    case 'E_CONFIG':
      return new ConfigError(e.message);
    default: {
      const err = new Error(e.message);
      if (e.stack) err.stack = e.stack;
      return err;
    }
  }
}
