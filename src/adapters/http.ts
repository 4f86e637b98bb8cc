// What the CLOUD and BUILD adapters share: an embedded reference started with its faults, or an
// external base URL; gated tags; a TCP probe of the URL's host; pools and server stopped together.
import { readFile } from 'node:fs/promises';
import { closeHttpPools, trustCaFor } from '../clients/http/client.ts';
import { ConfigError } from '../core/errors.ts';
import { assertEmbeddedOnly, assertKnownFaults } from './faults.ts';
import type { PreparedTarget } from './types.ts';
import { probeTcp } from './wire.ts';

interface HttpTargetConfig {
  embedded?: boolean;
  variant?: boolean;
  ca?: string;
  baseUrl?: string;
  allow?: string[];
  faults?: string[];
}

/**
 * Starts the embedded reference (when `config.embedded`) or takes the configured base URL. `ref` is
 * what the reference returned (its seeded credentials and fixtures), for the adapter to merge
 * under the config's own values.
 */
export async function prepareHttpTarget<R extends { baseUrl: string; close(): Promise<void> }>(
  name: string,
  protocol: 'cloud' | 'build',
  config: HttpTargetConfig,
  extraFaults: readonly string[],
  start: (faults: string[], variant: boolean) => Promise<R>,
): Promise<{ target: Omit<PreparedTarget, 'createSession' | 'secrets'>; ref?: R }> {
  const faults = [...(config.faults ?? []), ...extraFaults];
  let ref: R | undefined;
  assertEmbeddedOnly(name, config, faults);
  if (config.embedded) {
    await assertKnownFaults(name, protocol, faults);
    ref = await start(faults, config.variant === true);
  }
  const baseUrl = ref?.baseUrl ?? config.baseUrl ?? '';
  const url = new URL(baseUrl);
  if (config.ca) {
    let pem: Buffer;
    try {
      pem = await readFile(config.ca);
    } catch (err) {
      throw new ConfigError(`target '${name}': 'ca' ${config.ca}: cannot read the CA certificates (${(err as NodeJS.ErrnoException).code ?? (err as Error).message})`);
    }
    trustCaFor(baseUrl, pem);
  }
  // Credentials in the URL would be printed with the address everywhere and never sent.
  if (url.username || url.password) throw new ConfigError(`target '${name}': 'baseUrl' holds credentials; give them as ${protocol === 'cloud' ? 'tokens' : 'users'} instead`);
  return {
    ref,
    target: {
      name,
      protocol,
      address: baseUrl,
      embedded: config.embedded === true,
      variant: config.variant === true,
      faults,
      // The embedded references opt in to every gated tag unless the config says otherwise.
      allows: config.allow ?? (ref ? ['destructive', 'load', 'irreversible'] : []),
      // An IPv6 literal is bracketed in a URL (`http://[::1]:8080`), never in a socket address.
      probe: (timeoutMs) => probeTcp(url.hostname.replace(/^\[(.*)\]$/, '$1'), Number(url.port) || (url.protocol === 'https:' ? 443 : 80), timeoutMs),
      stop: async () => {
        await closeHttpPools(baseUrl);
        await ref?.close();
      },
    },
  };
}
