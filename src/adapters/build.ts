// The BUILD adapter: embedded build-ref (users, token and fixtures come from the server it starts)
// or an external base URL; a BuildSession per check.
import { BuildSession } from '../clients/build/session.ts';
import { closeHttpPools } from '../clients/http/client.ts';
import { ConfigError } from '../core/errors.ts';
import type { BuildTargetConfig } from '../config/types.ts';
import { probeTcp } from './wire.ts';
import type { PreparedTarget } from './types.ts';

export async function prepareBuildTarget(name: string, config: BuildTargetConfig, extraFaults: readonly string[] = []): Promise<PreparedTarget> {
  const faults = [...(config.faults ?? []), ...extraFaults];
  let baseUrl = config.baseUrl ?? '';
  let users = config.users ?? {};
  let token = config.token;
  let fixtures = config.fixtures ?? {};
  let allows: readonly string[] = config.allow ?? [];
  let stopServer = async () => {};
  if (config.embedded) {
    const { startBuildReference } = await import('../../targets/build/server.ts');
    const { isBuildFault, BUILD_FAULTS } = await import('../../targets/build/faults.ts');
    const unknown = faults.filter((f) => !isBuildFault(f));
    if (unknown.length) throw new ConfigError(`target '${name}': unknown fault '${unknown[0]}' (known: ${Object.keys(BUILD_FAULTS).join(', ')})`);
    const ref = await startBuildReference({ faults });
    baseUrl = ref.baseUrl;
    users = { ...ref.users, ...users };
    token = token ?? ref.token;
    fixtures = { ...ref.fixtures, ...fixtures };
    allows = config.allow ?? ['destructive', 'load'];
    stopServer = ref.close;
  } else if (faults.length) {
    throw new ConfigError(`target '${name}': faults can only be injected into embedded targets`);
  }
  const url = new URL(baseUrl);
  return {
    name,
    protocol: 'build',
    address: baseUrl,
    embedded: config.embedded === true,
    faults,
    allows,
    probe: (timeoutMs) => probeTcp(url.hostname, Number(url.port) || (url.protocol === 'https:' ? 443 : 80), timeoutMs),
    createSession: ({ evidence, timeouts, signal }) => {
      const session = new BuildSession({ baseUrl, users, token, fixtures, maxBodyBytes: config.maxBodyBytes }, evidence, timeouts, signal);
      return { extras: { build: session }, dispose: () => {} };
    },
    stop: async () => {
      await closeHttpPools(baseUrl);
      await stopServer();
    },
  };
}
