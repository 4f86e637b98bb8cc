// Opens any configured target for fuzzing or replay: WIRE through its byte-level driver, CLOUD
// and BUILD through the HTTP driver. One place, so that `fuzz` and `replay` treat targets alike.
import type { TargetConfig } from '../src/config/types.ts';
import type { CaseSelector } from '../src/core/registry.ts';
import type { FuzzDriver, KindContext } from './core/kind.ts';
import type { Finding } from './core/findings.ts';

export interface OpenedFuzzTarget {
  driver: FuzzDriver<unknown>;
  ctx: KindContext;
  info: Finding['target'];
  stop(): Promise<void>;
}

export async function openFuzzTarget(name: string, target: TargetConfig, faults: readonly string[], opts: { timeoutMs: number; lanes: number; select?: CaseSelector }): Promise<OpenedFuzzTarget> {
  if (target.protocol === 'wire') {
    const { openWireFuzzTarget } = await import('./wire/target.ts');
    const opened = await openWireFuzzTarget(name, target, faults, opts);
    return { driver: opened.driver as FuzzDriver<unknown>, ctx: { authKey: opened.authKey }, info: opened.info, stop: opened.stop };
  }
  const { openHttpFuzzTarget } = await import('./http/target.ts');
  const opened = await openHttpFuzzTarget(name, target, faults, opts);
  return { driver: opened.driver as FuzzDriver<unknown>, ctx: opened.ctx, info: opened.info, stop: opened.stop };
}
