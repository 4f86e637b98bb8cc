import { ConfigError } from '../core/errors.ts';
import type { TargetConfig } from '../config/types.ts';
import type { PreparedTarget } from './types.ts';

export type { PreparedTarget } from './types.ts';

/** Prepares a configured target with its protocol's adapter (loaded on demand). */
export async function prepareTarget(name: string, config: TargetConfig, extraFaults: readonly string[] = []): Promise<PreparedTarget> {
  switch (config.protocol) {
    case 'wire':
      return (await import('./wire.ts')).prepareWireTarget(name, config, extraFaults);
    case 'cloud':
      return (await import('./cloud.ts')).prepareCloudTarget(name, config, extraFaults);
    case 'build':
      return (await import('./build.ts')).prepareBuildTarget(name, config, extraFaults);
    default:
      throw new ConfigError(`target '${name}': unknown protocol '${(config as { protocol: string }).protocol}'`);
  }
}

export { faultCatalogue } from './faults.ts';
