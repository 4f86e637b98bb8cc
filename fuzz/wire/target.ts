// Opens a configured WIRE target for fuzzing: the embedded wire-ref in a worker thread (with
// faults from either catalogue), or an external host:port probed for reachability first.
import { probeTcp } from '../../src/adapters/wire.ts';
import type { WireTargetConfig } from '../../src/config/types.ts';
import { ConfigError } from '../../src/core/errors.ts';
import { isAnyWireFault, WIRE_FAULTS, WIRE_FUZZ_FAULTS } from '../../targets/wire/faults.ts';
import { WireDriver } from './driver.ts';
import { startEmbeddedWire } from './embedded.ts';
import type { Endpoint } from './transport.ts';

export interface OpenedWireTarget {
  driver: WireDriver;
  authKey: string;
  info: { name: string; address: string; embedded: boolean; faults: readonly string[] };
  stop(): Promise<void>;
}

export async function openWireFuzzTarget(
  name: string,
  config: WireTargetConfig,
  extraFaults: readonly string[],
  { timeoutMs, lanes }: { timeoutMs: number; lanes: number },
): Promise<OpenedWireTarget> {
  const faults = [...(config.faults ?? []), ...extraFaults];
  const authKey = config.authKey ?? '';
  let endpoint: () => Endpoint;
  let stop = async () => {};
  let restart: (() => Promise<void>) | undefined;
  if (config.embedded) {
    const unknown = faults.find((f) => !isAnyWireFault(f));
    if (unknown) throw new ConfigError(`target '${name}': unknown fault '${unknown}' (known: ${[...Object.keys(WIRE_FAULTS), ...Object.keys(WIRE_FUZZ_FAULTS)].join(', ')})`);
    // The variant as for checks; `mode` (do-nothing, accept-all: the proof matrix's trivial servers)
    // only from code, as the fuzz tests set it.
    const mode = (config as { mode?: 'do-nothing' | 'accept-all' }).mode;
    const ref = await startEmbeddedWire({ authKey, faults, maxFrameBytes: config.maxFrameBytes, ...(config.variant ? { variant: true } : {}), ...(mode ? { mode } : {}) });
    endpoint = ref.endpoint;
    stop = ref.stop;
    restart = ref.restart;
  } else {
    if (faults.length) throw new ConfigError(`target '${name}': faults can only be injected into embedded targets`);
    const fixed = { host: config.host ?? '127.0.0.1', port: config.port ?? 0 };
    endpoint = () => fixed;
    await probeTcp(fixed.host, fixed.port, config.timeouts?.connectMs ?? 5000);
  }
  const driver = new WireDriver({ target: { endpoint, authKey, maxFrameBytes: config.maxFrameBytes }, timeoutMs, lanes, restart, embedded: config.embedded === true });
  const { host, port } = endpoint();
  return {
    driver,
    authKey,
    info: { name, address: `${host}:${port}`, embedded: config.embedded === true, faults },
    stop: async () => {
      await driver.close();
      await stop();
    },
  };
}
