// Opens a configured CLOUD or BUILD target for fuzzing: the embedded reference in a worker thread (with
// faults from either catalogue; cloud-ref without its rate limit, so a campaign measures the
// server rather than its 800-a-minute window), or an external base URL probed first.
import { probeTcp } from '../../src/adapters/wire.ts';
import { assertKnownFaults } from '../../src/adapters/faults.ts';
import type { BuildTargetConfig, CloudTargetConfig } from '../../src/config/types.ts';
import { readFile } from 'node:fs/promises';
import { trustCaFor } from '../../src/clients/http/client.ts';
import { ConfigError, UsageError } from '../../src/core/errors.ts';
import type { KindContext } from '../core/kind.ts';
import type { CaseSelector } from '../../src/core/registry.ts';
import { HttpDriver, type HttpEndpoint } from './driver.ts';
import { startEmbeddedHttp, type EmbeddedHttp } from './embedded.ts';

export interface OpenedHttpTarget {
  driver: HttpDriver;
  ctx: KindContext;
  info: { name: string; address: string; embedded: boolean; faults: readonly string[] };
  stop(): Promise<void>;
}

export async function openHttpFuzzTarget(
  name: string,
  config: CloudTargetConfig | BuildTargetConfig,
  extraFaults: readonly string[],
  { timeoutMs, select }: { timeoutMs: number; select?: CaseSelector },
): Promise<OpenedHttpTarget> {
  const faults = [...(config.faults ?? []), ...extraFaults];
  let embedded: EmbeddedHttp | undefined;
  if (config.embedded) {
    await assertKnownFaults(name, config.protocol, faults);
    // The variant (docs/open-choices.md) as for checks; `modes` (do-nothing, accept-all: the proof
    // matrix's trivial servers, targets/server-modes.ts) only from code, as the fuzz tests set it.
    const modes = (config as { modes?: unknown }).modes;
    const common = { faults, ...(config.variant ? { variant: true } : {}), ...(modes ? { modes } : {}) };
    const options = config.protocol === 'cloud' ? { ...common, rateLimit: { limit: Number.MAX_SAFE_INTEGER, windowMs: 60_000 } } : common;
    embedded = await startEmbeddedHttp(config.protocol, options);
  } else if (faults.length) {
    throw new ConfigError(`target '${name}': faults can only be injected into embedded targets`);
  }
  const ref = embedded?.seeded();
  // Worked out again only when a restarted reference seeded anew (new port, new credentials).
  let cached: { from: unknown; endpoint: HttpEndpoint } | undefined;
  const endpoint = () => {
    const seeded = embedded?.seeded();
    if (!cached || cached.from !== seeded) cached = { from: seeded, endpoint: endpointOf(name, config, seeded, select) };
    return cached.endpoint;
  };
  if (!embedded) {
    const url = new URL(endpoint().baseUrl);
    // As for checks: a private CA of the target's config, and an IPv6 literal without its brackets.
    if (config.ca) trustCaFor(url.toString(), await readFile(config.ca).catch((err: unknown) => {
      throw new ConfigError(`target '${name}': 'ca' ${config.ca}: cannot read the CA certificates (${(err as NodeJS.ErrnoException).code ?? (err as Error).message})`);
    }));
    await probeTcp(url.hostname.replace(/^\[(.*)\]$/, '$1'), Number(url.port) || (url.protocol === 'https:' ? 443 : 80), config.timeouts?.connectMs ?? 5000);
  }
  // As for checks (src/adapters/http.ts): the embedded references allow everything unless the config says otherwise.
  const destructive = (config.allow ?? (config.embedded ? ['destructive'] : [])).includes('destructive');
  const driver = new HttpDriver({ protocol: config.protocol, endpoint, timeoutMs, restart: embedded?.restart, destructive });
  const user = config.protocol === 'build' ? (config.users?.user?.username ?? (ref as { users?: { user: { username: string } } } | undefined)?.users?.user.username) : undefined;
  return {
    driver,
    ctx: { authKey: '', user, destructive },
    info: { name, address: endpoint().baseUrl, embedded: config.embedded === true, faults },
    stop: async () => {
      await driver.close();
      await embedded?.stop();
    },
  };
}

/** Base URL, the role's Authorization header and the liveness route, from the config over what the reference seeded. */
/**
 * Routes that answer a plain GET, to see whether the server is alive (before the first case, after
 * a case that may have killed it): the first the selection admits, so that a campaign on a partial
 * server sends nothing outside what it implements (none admitted: the first, which the server may
 * not serve; then only an answer of 5xx or none reads as dead).
 */
const LIVENESS: Record<'cloud' | 'build', readonly [string, string][]> = {
  cloud: [['/v4/account', '/account'], ['/v4/account/events', '/account/events'], ['/v4/account/invoices', '/account/invoices'], ['/v4/account/users', '/account/users'], ['/v4/account/settings', '/account/settings'], ['/v4/account/oauth-clients', '/account/oauth-clients'], ['/v4/account/payments', '/account/payments'], ['/v4/account/payment-methods', '/account/payment-methods'], ['/v4/account/notifications', '/account/notifications'], ['/v4/databases/instances', '/databases/instances'], ['/v4/databases/engines', '/databases/engines']],
  build: [['/about', '/about'], ['/configuration', '/configuration'], ['/architectures', '/architectures'], ['/distributions', '/distributions'], ['/issue_trackers', '/issue_trackers'], ['/source', '/source']],
};
function livenessPath(protocol: 'cloud' | 'build', select: CaseSelector | undefined): string {
  const candidates = LIVENESS[protocol];
  return (candidates.find(([, route]) => select?.route?.('GET', route) ?? true) ?? candidates[0])[0];
}

function endpointOf(name: string, config: CloudTargetConfig | BuildTargetConfig, ref: (Record<string, unknown> & { baseUrl: string }) | undefined, select?: CaseSelector): HttpEndpoint {
  const baseUrl = ref?.baseUrl ?? config.baseUrl ?? '';
  if (config.protocol === 'cloud') {
    const tokens = { ...(ref?.tokens as Record<string, string> | undefined), ...config.tokens };
    const token = tokens.unrestricted;
    if (!token) throw new UsageError(`target '${name}': fuzzing a cloud target needs tokens.unrestricted`);
    // The other roles a stateful chain may act as (sequence.ts), where the config names them.
    const roles = Object.fromEntries((['otherAccount', 'restricted'] as const).flatMap((r) => (tokens[r] ? [[r, `Bearer ${tokens[r]}`]] : [])));
    const fixtures = { ...(ref?.fixtures as CloudTargetConfig['fixtures']), ...config.fixtures };
    return { baseUrl, authorization: `Bearer ${token}`, livenessPath: livenessPath('cloud', select), secrets: Object.values(tokens).filter((t): t is string => typeof t === 'string'), roles, transferableNodeIds: fixtures.transferableNodeIds ?? [] };
  }
  const users = { ...(ref?.users as Record<string, { username: string; password: string }> | undefined), ...config.users };
  const user = users.user;
  if (!user) throw new UsageError(`target '${name}': fuzzing a build target needs users.user`);
  const secrets = Object.values(users).flatMap((u) => (u ? [u.password, Buffer.from(`${u.username}:${u.password}`).toString('base64')] : []));
  return { baseUrl, authorization: `Basic ${Buffer.from(`${user.username}:${user.password}`).toString('base64')}`, livenessPath: livenessPath('build', select), secrets };
}
