// The shape of targets.config.ts. `defineConfig` only gives editors the types; validation of
// what a user wrote is done at load time against the JSON Schema in schema.ts.
import type { Timeouts } from '../core/check.ts';

export interface WireTargetConfig {
  protocol: 'wire';
  /** Start the embedded reference server (wire-ref) on 127.0.0.1 with an ephemeral port. */
  embedded?: boolean;
  host?: string;
  port?: number;
  /** The authorization key the server expects ('' for none). Checks marked needs:authKey skip without it. */
  authKey?: string;
  /** Embedded targets only: named faults to inject (see `conformance list --faults`). */
  faults?: string[];
  /** Largest response frame accepted from the target (default 64 MiB). */
  maxFrameBytes?: number;
  timeouts?: Partial<Timeouts>;
}

export type TargetConfig = WireTargetConfig;

export interface ConformanceConfig {
  targets: Record<string, TargetConfig>;
}

export function defineConfig(config: ConformanceConfig): ConformanceConfig {
  return config;
}
