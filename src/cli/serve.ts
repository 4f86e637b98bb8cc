// `conformance serve <wire|cloud|build>`: one embedded reference server, standalone, for a
// developer to point their own client or a config at (as `prism mock` does). It prints where it
// listens, every credential and fixture it seeded, and a target entry ready to paste into
// targets.config.ts, then runs until Ctrl-C or SIGTERM.
import { Command, Option } from 'commander';
import { PROTOCOLS, type Protocol } from '../core/check.ts';
import { UsageError } from '../core/errors.ts';
import { assertKnownFaults } from '../adapters/faults.ts';
import type { TargetConfig } from '../config/types.ts';
import { EXIT } from '../reports/model.ts';
import type { Io } from './console.ts';
import { integer } from './option-parsers.ts';

interface ServeOptions {
  host: string;
  port: number;
  variant?: boolean;
  fault?: string[];
  authKey: string;
}

interface Served {
  /** What a target entry of targets.config.ts needs to reach this server. */
  target: TargetConfig;
  close(): Promise<void>;
}

async function start(protocol: Protocol, o: ServeOptions): Promise<Served> {
  const faults = o.fault ?? [];
  const variant = o.variant === true;
  await assertKnownFaults(`${protocol}-ref`, protocol, faults);
  switch (protocol) {
    case 'wire': {
      const ref = await (await import('../../targets/wire/server.ts')).startWireReference({ host: o.host, port: o.port, authKey: o.authKey, faults, variant });
      return { target: { protocol, host: ref.host, port: ref.port, authKey: o.authKey }, close: ref.close };
    }
    case 'cloud': {
      const ref = await (await import('../../targets/cloud/server.ts')).startCloudReference({ host: o.host, port: o.port, faults, variant });
      return { target: { protocol, baseUrl: ref.baseUrl, tokens: ref.tokens, fixtures: ref.fixtures, allow: ['destructive', 'load'] }, close: ref.close };
    }
    case 'build': {
      const ref = await (await import('../../targets/build/server.ts')).startBuildReference({ host: o.host, port: o.port, faults, variant });
      return { target: { protocol, baseUrl: ref.baseUrl, users: ref.users, token: ref.token, fixtures: ref.fixtures, allow: ['destructive', 'load'] }, close: ref.close };
    }
  }
}

/** Resolves on the first SIGINT or SIGTERM (listeners removed afterwards). */
function stopSignal(): Promise<NodeJS.Signals> {
  return new Promise((resolve) => {
    const on = (signal: NodeJS.Signals) => {
      process.off('SIGINT', on);
      process.off('SIGTERM', on);
      resolve(signal);
    };
    process.on('SIGINT', on);
    process.on('SIGTERM', on);
  });
}

export function addServeCommand(program: Command, io: Io, setExit: (code: number) => void): void {
  program
    .command('serve')
    .description('run one embedded reference server standalone (until Ctrl-C), printing its address, credentials and a target entry')
    .argument('<protocol>', `which reference: ${PROTOCOLS.join(', ')}`)
    .option('--host <host>', 'address to bind', '127.0.0.1')
    .option('--port <n>', 'port to bind (0: an ephemeral port)', integer(0, 65535), 0)
    .option('--variant', 'the variant mode: every choice the document leaves open taken the other way (docs/open-choices.md)')
    .option('--fault <name...>', 'inject named faults (see: conformance list --faults)')
    .addOption(new Option('--auth-key <key>', 'WIRE: the key clients must send').default('').env('CONFORMANCE_AUTH_KEY'))
    .exitOverride()
    .action(async (protocol: string, o: ServeOptions) => {
      if (!PROTOCOLS.includes(protocol as Protocol)) throw new UsageError(`unknown protocol '${protocol}' (known: ${PROTOCOLS.join(', ')})`);
      const served = await start(protocol as Protocol, o);
      const name = `${protocol}-ref${o.variant ? '-variant' : ''}`;
      const t = served.target;
      const where = t.protocol === 'wire' ? `${t.host}:${t.port}` : t.baseUrl;
      io.out(`${name} listening on ${where}${o.fault?.length ? ` with faults ${o.fault.join(', ')}` : ''}`);
      io.out('Credentials and fixtures are in the target entry. For targets.config.ts (JSON is valid TypeScript):');
      io.out(`  'served-${protocol}': ${JSON.stringify(served.target)},`);
      io.out('Ctrl-C stops it.');
      const signal = await stopSignal();
      await served.close();
      io.out(`${name} stopped (${signal})`);
      setExit(EXIT.ok);
    });
}
