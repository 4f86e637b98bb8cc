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
import { BUILD_USER_ROLES, CLOUD_TOKEN_ROLES, credentialsFromEnv, envName } from '../config/env.ts';
import type { BasicCredentials, BuildUsers, CloudTokens } from '../config/types.ts';
import { byRole, parseBasicOption } from './adhoc.ts';

interface ServeOptions {
  host: string;
  port: number;
  variant?: boolean;
  fault?: string[];
  authKey: string;
  token?: string[];
  user?: string[];
}

/**
 * Fixed credentials of a reference, from the flags and then the environment (the scheme of
 * src/config/env.ts, the same names an ad hoc run reads: one set of variables serves both).
 * Roles not given get random ones. BUILD's usernames are the reference's own: only passwords
 * (and the runservice token) can be fixed.
 */
function fixedCredentials(protocol: Protocol, o: ServeOptions, env = process.env) {
  if (protocol !== 'cloud' && o.token) throw new UsageError(`--token is for serve cloud (build: ${envName('token')} sets the runservice token)`);
  if (protocol !== 'build' && o.user) throw new UsageError('--user is for serve build');
  const fromEnv = credentialsFromEnv(protocol, env);
  const tokens: Partial<CloudTokens> = { ...fromEnv.tokens, ...Object.fromEntries(byRole(o.token ?? [], CLOUD_TOKEN_ROLES, 'unrestricted', '--token')) };
  const seen = new Map<string, string>();
  for (const [role, t] of Object.entries(tokens)) {
    // One token names one user: two roles with the same token would be one of them.
    if (seen.has(t!)) throw new UsageError(`tokens ${seen.get(t!)} and ${role} are the same: each role needs its own`);
    seen.set(t!, role);
  }
  // A password alone is enough here: the username is build-ref's own.
  const users: { [role in keyof BuildUsers]?: Partial<BasicCredentials> } = { ...fromEnv.users, ...Object.fromEntries(byRole(o.user ?? [], BUILD_USER_ROLES, 'user', '--user').map(([r, v]) => [r, parseBasicOption(v)])) };
  return { tokens, users, token: fromEnv.token };
}

interface Served {
  /** What a target entry of targets.config.ts needs to reach this server. */
  target: TargetConfig;
  close(): Promise<void>;
}

async function start(protocol: Protocol, o: ServeOptions): Promise<Served> {
  const faults = o.fault ?? [];
  const variant = o.variant === true;
  const fixed = fixedCredentials(protocol, o);
  await assertKnownFaults(`${protocol}-ref`, protocol, faults);
  switch (protocol) {
    case 'wire': {
      const ref = await (await import('../../targets/wire/server.ts')).startWireReference({ host: o.host, port: o.port, authKey: o.authKey, faults, variant });
      return { target: { protocol, host: ref.host, port: ref.port, authKey: o.authKey }, close: ref.close };
    }
    case 'cloud': {
      const ref = await (await import('../../targets/cloud/server.ts')).startCloudReference({ host: o.host, port: o.port, faults, variant, tokens: fixed.tokens });
      return { target: { protocol, baseUrl: ref.baseUrl, tokens: ref.tokens, fixtures: ref.fixtures, allow: ['destructive', 'load', 'irreversible'] }, close: ref.close };
    }
    case 'build': {
      const passwords = Object.fromEntries(Object.entries(fixed.users).map(([r, u]) => [r, u!.password]));
      // A username alone fixes nothing, but it must still be build-ref's (checked below).
      const ref = await (await import('../../targets/build/server.ts')).startBuildReference({ host: o.host, port: o.port, faults, variant, passwords, token: fixed.token });
      const wrongName = Object.entries(fixed.users).find(([r, u]) => u!.username !== undefined && u!.username !== ref.users[r as keyof BuildUsers].username);
      if (wrongName) {
        await ref.close();
        const [role, u] = wrongName;
        throw new UsageError(`build-ref's ${role} is '${ref.users[role as keyof BuildUsers].username}', not '${u!.username}': only its password can be fixed (${ref.users[role as keyof BuildUsers].username}:<password>)`);
      }
      return { target: { protocol, baseUrl: ref.baseUrl, users: ref.users, token: ref.token, fixtures: ref.fixtures, allow: ['destructive', 'load', 'irreversible'] }, close: ref.close };
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
    .addOption(new Option('--auth-key <key>', 'WIRE: the key clients must send').default('').env(envName('authKey')))
    .option('--token <[role=]token...>', `CLOUD: a fixed bearer token of a role, unrestricted when none is named (env ${envName('tokens.unrestricted')}, ${envName('tokens.readOnly')}, ...); others random`)
    .option('--user <[role=]name:password...>', `BUILD: a fixed password of a role as name:password, user when none is named (env ${envName('users.user.password')}, ...; ${envName('token')}: the runservice token); usernames are build-ref's`)
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
      const address = t.protocol === 'wire' ? `--host ${t.host} --port ${t.port}` : `--protocol ${protocol} --url ${t.baseUrl}`;
      io.out(`Or with no config (credentials from ${envName('')}* variables or flags; without fixtures, the checks that need one skip): npx conformance ${address}`);
      io.out('Ctrl-C stops it.');
      const signal = await stopSignal();
      await served.close();
      io.out(`${name} stopped (${signal})`);
      setExit(EXIT.ok);
    });
}
