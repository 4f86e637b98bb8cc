// The CLOUD adapter: embedded cloud-ref (tokens and fixtures come from the server it starts) or
// an external base URL, and a CloudSession per check.
import { NodePool, CloudSession } from '../clients/cloud/session.ts';
import type { CloudTargetConfig } from '../config/types.ts';
import { prepareHttpTarget } from './http.ts';
import { secretsOf } from './secrets.ts';
import type { PreparedTarget } from './types.ts';

export async function prepareCloudTarget(name: string, config: CloudTargetConfig, extraFaults: readonly string[] = []): Promise<PreparedTarget> {
  const { target, ref } = await prepareHttpTarget(name, 'cloud', config, extraFaults, async (faults, variant) =>
    (await import('../../targets/cloud/server.ts')).startCloudReference({ faults, variant }),
  );
  // What the reference seeded, unless the config names its own.
  const tokens = { ...ref?.tokens, ...config.tokens };
  const fixtures = { ...ref?.fixtures, ...config.fixtures };
  const nodePool = new NodePool(fixtures.transferableNodeIds ?? []);
  return {
    ...target,
    secrets: secretsOf({ tokens, fixtures }),
    createSession: ({ evidence, timeouts, signal }) => {
      const session = new CloudSession({ baseUrl: target.address, tokens, fixtures, maxBodyBytes: config.maxBodyBytes, nodePool, allows: target.allows }, evidence, timeouts, signal);
      return { extras: { cloud: session }, dispose: () => {} };
    },
  };
}
