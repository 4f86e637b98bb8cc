// A protocol adapter turns one target of targets.config.ts into something the runner can use:
// it starts the embedded reference when asked, probes reachability, and makes per-check sessions.
import type { RunnableTarget } from '../core/runner.ts';

export interface PreparedTarget extends RunnableTarget {
  embedded: boolean;
  /** The embedded reference runs in its variant mode (docs/open-choices.md). */
  variant: boolean;
  faults: readonly string[];
  /**
   * Every secret the target's configuration holds (tokens, passwords, `user:password` pairs, the
   * auth key): the report boundary redacts each, in every derived form, from what the target sends.
   */
  secrets: readonly string[];
  /** Throws TargetUnreachable when nothing answers at the address. */
  probe(timeoutMs: number): Promise<void>;
  /** Stops what prepare started (the embedded server); a no-op for external targets. */
  stop(): Promise<void>;
}
