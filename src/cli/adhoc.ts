// An ad hoc target on the command line, as `h2spec -h -p` and `st run <url>` allow: no config
// file. `--url` (CLOUD, BUILD) or `--host`/`--port` (WIRE) with `--protocol`, credentials by flag
// or by the environment (src/config/env.ts names the variables). The target is built as a config
// entry and validated like one, so its mistakes read like a config's.
import { Option, type Command } from 'commander';
import { PROTOCOLS, type Protocol } from '../core/check.ts';
import { UsageError } from '../core/errors.ts';
import { BUILD_USER_ROLES, CLOUD_TOKEN_ROLES, completeUsers, credentialsFromEnv, envName, parseBasic } from '../config/env.ts';
import { normalizeConfig, validateTargets, type LoadedConfig } from '../config/load.ts';
import type { BuildTargetConfig, CloudTargetConfig, ConformanceConfig, TargetConfig } from '../config/types.ts';
import { integer } from './option-parsers.ts';

export interface AdhocOptions {
  url?: string;
  host?: string;
  port?: number;
  protocol?: Protocol;
  authKey?: string;
  token?: string[];
  user?: string[];
  allow?: ('destructive' | 'load' | 'irreversible')[];
}

/** Where messages about the ad hoc target say it came from (in place of a config file's name). */
export const ADHOC_SOURCE = 'the command line';

const GROUP = 'Ad hoc target (instead of a config; credentials also from the environment, see below):';

/** The ad hoc target's options, for `run` (and the default command), `fuzz` and `replay`. */
export function addAdhocOptions(cmd: Command): Command {
  const options = [
    new Option('--url <baseUrl>', 'a CLOUD or BUILD server at this base URL (with --protocol)'),
    new Option('--host <host>', 'a WIRE server: its host (default 127.0.0.1; with --port)'),
    new Option('--port <n>', 'a WIRE server: its port').argParser(integer(1, 65535)),
    new Option('--protocol <name>', 'its protocol (wire is inferred from --host/--port)').choices(PROTOCOLS),
    new Option('--auth-key <key>', `WIRE: the key the server expects (env ${envName('authKey')}; ${envName('restrictedAuthKey')} for the restricted user's)`),
    new Option('--token <[role=]token...>', `CLOUD: bearer token of a role, unrestricted when none is named (env ${envName('tokens.unrestricted')}, ${envName('tokens.readOnly')}, ...)`),
    new Option('--user <[role=]name:password...>', `BUILD: Basic credentials of a role, user when none is named (env ${envName('users.user.username')} and ${envName('users.user.password')}, ...; ${envName('token')}: the runservice token)`),
    new Option('--allow <tag...>', 'CLOUD, BUILD: allow checks that change state (destructive), send bursts (load) or spend what cannot be undone (irreversible)').choices(['destructive', 'load', 'irreversible']),
  ];
  for (const option of options) cmd.addOption(option.helpGroup(GROUP));
  return cmd;
}

/** Whether the options describe an ad hoc target (any of its address options is given). */
export function isAdhoc(o: AdhocOptions): boolean {
  return o.url !== undefined || o.host !== undefined || o.port !== undefined || o.protocol !== undefined;
}

/**
 * The ad hoc target the options describe, or undefined when they describe none (the command then
 * reads its config). `run`, `fuzz` and `replay` take the same options and call this. Credential
 * flags without an address are refused: a config target takes its credentials in the config.
 */
export async function loadAdhoc(opts: AdhocOptions & { target?: string | string[]; config?: string }): Promise<AdhocTarget | undefined> {
  if (!isAdhoc(opts)) {
    const stray = (['authKey', 'token', 'user', 'allow'] as const).find((k) => opts[k] !== undefined);
    if (stray) throw new UsageError(`--${stray === 'authKey' ? 'auth-key' : stray} is for an ad hoc target (--url, or --host/--port); a config target takes it in the config`);
    return undefined;
  }
  if (opts.target?.length || opts.config) throw new UsageError('an ad hoc target (--url, --host/--port, --protocol) stands for a config: leave out --target and --config');
  return adhocTarget(opts);
}

/**
 * `role=value`, or a bare value for the default role. A value may hold '=' (base64 padding), so
 * only a known role before the first '=' names one; a lower-case word before it that is no role
 * (a typo such as `readonly=`) is refused rather than sent as a token.
 */
export function byRole(values: string[], roles: readonly string[], fallback: string, option: string): [string, string][] {
  return values.map((v) => {
    const m = /^([a-z][A-Za-z]*)=(.+)$/s.exec(v);
    if (!m) return [fallback, v];
    if (roles.includes(m[1])) return [m[1], m[2]];
    if (!m[2].includes('=')) throw new UsageError(`${option} ${m[1]}=...: unknown role '${m[1]}' (known: ${roles.join(', ')})`);
    return [fallback, v];
  });
}

function protocolOf(o: AdhocOptions): Protocol {
  const wireAddress = o.host !== undefined || o.port !== undefined;
  if (o.url !== undefined && wireAddress) throw new UsageError('--url (CLOUD, BUILD) and --host/--port (WIRE) describe different targets: give one');
  if (o.url !== undefined) {
    if (!o.protocol) throw new UsageError('--url needs --protocol cloud or --protocol build (both are HTTP)');
    if (o.protocol === 'wire') throw new UsageError('a WIRE target takes --host and --port, not --url');
    return o.protocol;
  }
  if (wireAddress) {
    if (o.protocol && o.protocol !== 'wire') throw new UsageError(`a ${o.protocol.toUpperCase()} target takes --url, not --host/--port`);
    if (o.port === undefined) throw new UsageError('--host needs --port');
    return 'wire';
  }
  throw new UsageError(`--protocol ${o.protocol} needs an address: ${o.protocol === 'wire' ? '--port (and --host)' : '--url'}`);
}

/** A target name from the address: a report file is `<name>.junit.xml`, so only safe characters. */
function nameOf(address: string): string {
  return address.replace(/[^A-Za-z0-9._-]+/g, '-').replace(/^[^A-Za-z0-9]+|-+$/g, '') || 'target';
}

export interface AdhocTarget extends LoadedConfig {
  name: string;
  /** The options that describe the target again, credentials left out (for reproduction lines). */
  words: string[];
}

/**
 * The ad hoc target as a config of one target, validated as a config target is. Credentials
 * given by flag win over the environment's; both are registered as the target's secrets by
 * the adapters (secretsOf), like a config's.
 */
export async function adhocTarget(o: AdhocOptions, env: NodeJS.ProcessEnv = process.env): Promise<AdhocTarget> {
  const protocol = protocolOf(o);
  const fromEnv = credentialsFromEnv(protocol, env);
  const misplaced = (
    [
      ['--auth-key', o.authKey !== undefined, 'wire'],
      ['--token', o.token !== undefined, 'cloud'],
      ['--user', o.user !== undefined, 'build'],
      ['--allow', o.allow !== undefined, protocol === 'wire' ? 'cloud' : protocol],
    ] as const
  ).find(([, given, p]) => given && p !== protocol);
  if (misplaced) throw new UsageError(`${misplaced[0]} does not apply to a ${protocol.toUpperCase()} target`);

  let target: TargetConfig;
  const words = ['--protocol', protocol];
  if (protocol === 'wire') {
    const host = o.host ?? '127.0.0.1';
    // No key given anywhere is the empty key (a server without authentication), as `authKey: ''`
    // in a config: the handshake checks run with it.
    target = { protocol, host, port: o.port!, authKey: o.authKey ?? fromEnv.authKey ?? '', ...(fromEnv.restrictedAuthKey ? { restrictedAuthKey: fromEnv.restrictedAuthKey } : {}) };
    words.push('--host', host, '--port', String(o.port));
  } else {
    const http: CloudTargetConfig | BuildTargetConfig =
      protocol === 'cloud'
        ? { protocol, baseUrl: o.url!, tokens: { ...fromEnv.tokens, ...Object.fromEntries(byRole(o.token ?? [], CLOUD_TOKEN_ROLES, 'unrestricted', '--token')) } }
        : {
            protocol,
            baseUrl: o.url!,
            users: { ...completeUsers(fromEnv.users), ...Object.fromEntries(byRole(o.user ?? [], BUILD_USER_ROLES, 'user', '--user').map(([r, v]) => [r, parseBasicOption(v)])) },
            ...(fromEnv.token ? { token: fromEnv.token } : {}),
          };
    if (o.allow?.length) http.allow = [...new Set(o.allow)];
    target = http;
    words.push('--url', o.url!, ...(o.allow?.length ? ['--allow', ...new Set(o.allow)] : []));
  }
  const address = target.protocol === 'wire' ? `${target.host}-${target.port}` : safeHost(o.url!);
  const name = nameOf(address);
  const config: ConformanceConfig = { targets: { [name]: target } };
  await validateTargets(config, ADHOC_SOURCE);
  return { config: normalizeConfig(config), file: ADHOC_SOURCE, name, words };
}

export function parseBasicOption(value: string) {
  try {
    return parseBasic(value, '--user');
  } catch (err) {
    throw new UsageError((err as Error).message);
  }
}

/** host[-port] of a base URL, or the text itself when it is no URL (validation then names it). */
function safeHost(url: string): string {
  try {
    const u = new URL(url);
    return `${u.hostname}${u.port ? `-${u.port}` : ''}`;
  } catch {
    return url;
  }
}
