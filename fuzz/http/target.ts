// Opens a configured CLOUD or BUILD target for fuzzing: the embedded reference in-process (with
// faults from either catalogue; cloud-ref without its rate limit, so a campaign measures the
// server rather than its 800-a-minute window), or an external base URL probed first.
import { probeTcp } from '../../src/adapters/wire.ts';
import { assertKnownFaults } from '../../src/adapters/faults.ts';
import type { BuildTargetConfig, CloudTargetConfig } from '../../src/config/types.ts';
import { ConfigError, UsageError } from '../../src/core/errors.ts';
import type { KindContext } from '../core/kind.ts';
import { HttpDriver, type HttpEndpoint } from './driver.ts';

export interface OpenedHttpTarget {
  driver: HttpDriver;
  ctx: KindContext;
  info: { name: string; address: string; embedded: boolean; faults: readonly string[] };
  stop(): Promise<void>;
}

interface Reference {
  baseUrl: string;
  close(): Promise<void>;
}

export async function openHttpFuzzTarget(
  name: string,
  config: CloudTargetConfig | BuildTargetConfig,
  extraFaults: readonly string[],
  { timeoutMs }: { timeoutMs: number },
): Promise<OpenedHttpTarget> {
  const faults = [...(config.faults ?? []), ...extraFaults];
  let ref: Reference | undefined;
  let start: (() => Promise<Reference & Record<string, unknown>>) | undefined;
  if (config.embedded) {
    await assertKnownFaults(name, config.protocol, faults);
    start =
      config.protocol === 'cloud'
        ? async () => (await import('../../targets/cloud/server.ts')).startCloudReference({ faults, rateLimit: { limit: Number.MAX_SAFE_INTEGER, windowMs: 60_000 } }) as never
        : async () => (await import('../../targets/build/server.ts')).startBuildReference({ faults }) as never;
  } else if (faults.length) {
    throw new ConfigError(`target '${name}': faults can only be injected into embedded targets`);
  }
  let endpoint: HttpEndpoint;
  const open = async () => {
    const r = start ? await start() : undefined;
    ref = r;
    endpoint = endpointOf(name, config, r);
  };
  await open();
  if (!ref) {
    const url = new URL(endpoint!.baseUrl);
    await probeTcp(url.hostname, Number(url.port) || (url.protocol === 'https:' ? 443 : 80), config.timeouts?.connectMs ?? 5000);
  }
  const driver = new HttpDriver({
    protocol: config.protocol,
    endpoint: () => endpoint,
    timeoutMs,
    restart: start
      ? async () => {
          await ref?.close().catch(() => undefined);
          await open();
        }
      : undefined,
  });
  const user = config.protocol === 'build' ? (config.users?.user?.username ?? (ref as { users?: { user: { username: string } } } | undefined)?.users?.user.username) : undefined;
  return {
    driver,
    ctx: { authKey: '', user },
    info: { name, address: endpoint!.baseUrl, embedded: config.embedded === true, faults },
    stop: async () => {
      await driver.close();
      await ref?.close().catch(() => undefined);
    },
  };
}

/** Base URL, the role's Authorization header and the liveness route, from the config over what the reference seeded. */
function endpointOf(name: string, config: CloudTargetConfig | BuildTargetConfig, ref: (Reference & Record<string, unknown>) | undefined): HttpEndpoint {
  const baseUrl = ref?.baseUrl ?? config.baseUrl ?? '';
  if (config.protocol === 'cloud') {
    const tokens = { ...(ref?.tokens as Record<string, string> | undefined), ...config.tokens };
    const token = tokens.unrestricted;
    if (!token) throw new UsageError(`target '${name}': fuzzing a cloud target needs tokens.unrestricted`);
    return { baseUrl, authorization: `Bearer ${token}`, livenessPath: '/v4/account', secrets: Object.values(tokens).filter((t): t is string => typeof t === 'string') };
  }
  const users = { ...(ref?.users as Record<string, { username: string; password: string }> | undefined), ...config.users };
  const user = users.user;
  if (!user) throw new UsageError(`target '${name}': fuzzing a build target needs users.user`);
  const secrets = Object.values(users).flatMap((u) => (u ? [u.password, Buffer.from(`${u.username}:${u.password}`).toString('base64')] : []));
  return { baseUrl, authorization: `Basic ${Buffer.from(`${user.username}:${user.password}`).toString('base64')}`, livenessPath: '/about', secrets };
}
