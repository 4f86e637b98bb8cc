// The CLOUD adapter: embedded cloud-ref (tokens and fixtures come from the server it starts) or
// an external base URL; reachability is one plain HTTP request; a CloudSession per check.
import { NodePool, CloudSession } from '../clients/cloud/session.ts';
import { closeHttpPools } from '../clients/http/client.ts';
import { ConfigError, TargetUnreachable } from '../core/errors.ts';
import type { CloudTargetConfig } from '../config/types.ts';
import { probeTcp } from './wire.ts';
import type { PreparedTarget } from './types.ts';

export async function prepareCloudTarget(name: string, config: CloudTargetConfig, extraFaults: readonly string[] = []): Promise<PreparedTarget> {
  const faults = [...(config.faults ?? []), ...extraFaults];
  let baseUrl = config.baseUrl ?? '';
  let tokens = config.tokens ?? {};
  let fixtures = config.fixtures ?? {};
  let allows: readonly string[] = config.allow ?? [];
  let stopServer = async () => {};
  if (config.embedded) {
    const { startCloudReference } = await import('../../targets/cloud/server.ts');
    const { isCloudFault, CLOUD_FAULTS } = await import('../../targets/cloud/faults.ts');
    const unknown = faults.filter((f) => !isCloudFault(f));
    if (unknown.length) throw new ConfigError(`target '${name}': unknown fault '${unknown[0]}' (known: ${Object.keys(CLOUD_FAULTS).join(', ')})`);
    const ref = await startCloudReference({ faults });
    baseUrl = ref.baseUrl;
    // What the reference seeded, unless the config names its own.
    tokens = { ...ref.tokens, ...tokens };
    fixtures = { ...ref.fixtures, ...fixtures };
    allows = config.allow ?? ['destructive', 'load'];
    stopServer = ref.close;
  } else if (faults.length) {
    throw new ConfigError(`target '${name}': faults can only be injected into embedded targets`);
  }
  const url = new URL(baseUrl);
  const nodePool = new NodePool(fixtures.transferableNodeIds ?? []);
  return {
    name,
    protocol: 'cloud',
    address: baseUrl,
    embedded: config.embedded === true,
    faults,
    allows,
    probe: async (timeoutMs) => {
      const port = Number(url.port) || (url.protocol === 'https:' ? 443 : 80);
      await probeTcp(url.hostname, port, timeoutMs).catch((err: unknown) => {
        throw err instanceof TargetUnreachable ? err : new TargetUnreachable(String(err));
      });
    },
    createSession: ({ evidence, timeouts, signal }) => {
      const session = new CloudSession({ baseUrl, tokens, fixtures, maxBodyBytes: config.maxBodyBytes, nodePool }, evidence, timeouts, signal);
      return { extras: { cloud: session }, dispose: () => {} };
    },
    stop: async () => {
      await closeHttpPools(baseUrl);
      await stopServer();
    },
  };
}
