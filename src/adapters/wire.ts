// The WIRE adapter: embedded wire-ref or an external host:port, TCP reachability probe,
// and a WireSession per check.
import net from 'node:net';
import { WireSession } from '../clients/wire/session.ts';
import { targetErrorFromSocket, TargetUnreachable } from '../core/errors.ts';
import type { WireTargetConfig } from '../config/types.ts';
import { assertEmbeddedOnly, assertKnownFaults } from './faults.ts';
import { secretsOf } from './secrets.ts';
import type { PreparedTarget } from './types.ts';

export async function prepareWireTarget(name: string, config: WireTargetConfig, extraFaults: readonly string[] = []): Promise<PreparedTarget> {
  const faults = [...(config.faults ?? []), ...extraFaults];
  let host = config.host ?? '127.0.0.1';
  let port = config.port ?? 0;
  let stop = async () => {};
  // The embedded reference seeds its own read-only user unless the config names one.
  const restrictedAuthKey = config.restrictedAuthKey ?? (config.embedded ? 'wire-ref-read-only' : undefined);
  assertEmbeddedOnly(name, config, faults);
  if (config.embedded) {
    // Loaded only when an embedded target runs: suites never import targets/.
    await assertKnownFaults(name, 'wire', faults);
    const { startWireReference } = await import('../../targets/wire/server.ts');
    const ref = await startWireReference({ authKey: config.authKey ?? '', restrictedAuthKey, faults, maxFrameBytes: config.maxFrameBytes, variant: config.variant === true });
    host = ref.host;
    port = ref.port;
    stop = ref.close;
  }
  const address = `${host}:${port}`;
  return {
    name,
    protocol: 'wire',
    address,
    embedded: config.embedded === true,
    variant: config.variant === true,
    faults,
    secrets: secretsOf({ ...config, restrictedAuthKey }),
    probe: (timeoutMs) => probeTcp(host, port, timeoutMs),
    createSession: ({ evidence, timeouts }) => {
      const session = new WireSession({ host, port, authKey: config.authKey, restrictedAuthKey, maxFrameBytes: config.maxFrameBytes }, evidence, timeouts);
      return { extras: { wire: session }, dispose: () => session.dispose() };
    },
    stop,
  };
}

/** Resolves when a TCP connection to host:port opens; the connection is closed at once. */
export function probeTcp(host: string, port: number, timeoutMs: number): Promise<void> {
  return new Promise((resolve, reject) => {
    const socket = net.connect({ host, port });
    const timer = setTimeout(() => {
      socket.destroy();
      reject(new TargetUnreachable(`${host}:${port}: no TCP connection within ${timeoutMs} ms`));
    }, timeoutMs).unref();
    socket.once('connect', () => {
      clearTimeout(timer);
      socket.destroy();
      resolve();
    });
    socket.once('error', (err) => {
      clearTimeout(timer);
      const e = targetErrorFromSocket(err, `${host}:${port}`);
      reject(e instanceof TargetUnreachable ? e : new TargetUnreachable(e.message, { cause: err }));
    });
  });
}
