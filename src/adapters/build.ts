// The BUILD adapter: embedded build-ref (users, token and fixtures come from the server it starts)
// or an external base URL, and a BuildSession per check.
import { BuildSession } from '../clients/build/session.ts';
import type { BuildTargetConfig } from '../config/types.ts';
import { prepareHttpTarget } from './http.ts';
import { secretsOf } from './secrets.ts';
import type { PreparedTarget } from './types.ts';

export async function prepareBuildTarget(name: string, config: BuildTargetConfig, extraFaults: readonly string[] = []): Promise<PreparedTarget> {
  const { target, ref } = await prepareHttpTarget(name, 'build', config, extraFaults, async (faults, variant) =>
    (await import('../../targets/build/server.ts')).startBuildReference({ faults, variant }),
  );
  // What the reference seeded, unless the config names its own.
  const users = { ...ref?.users, ...config.users };
  const token = config.token ?? ref?.token;
  const fixtures = { ...ref?.fixtures, ...config.fixtures };
  return {
    ...target,
    secrets: secretsOf({ token, users }),
    createSession: ({ evidence, timeouts, signal }) => {
      const session = new BuildSession({ baseUrl: target.address, users, token, fixtures, maxBodyBytes: config.maxBodyBytes }, evidence, timeouts, signal);
      return { extras: { build: session }, dispose: () => {} };
    },
  };
}
