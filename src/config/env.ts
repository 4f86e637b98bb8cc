// The one naming scheme of credential environment variables: CONFORMANCE_ followed by the
// credential's field path in the config, in upper snake case (tokens.readOnly ->
// CONFORMANCE_TOKENS_READ_ONLY, users.admin.password -> CONFORMANCE_USERS_ADMIN_PASSWORD,
// authKey -> CONFORMANCE_AUTH_KEY), with no exception to learn. An ad hoc target and `serve` read them; a config names them with
// process.env; the curl lines of reports use them as shell variables, so a copied curl line
// runs with the same environment. One place, so the three cannot drift apart again.
import type { Protocol } from '../core/check.ts';
import { ConfigError } from '../core/errors.ts';
import type { BasicCredentials, BuildUsers, CloudTokens } from './types.ts';

export const CLOUD_TOKEN_ROLES = ['unrestricted', 'restricted', 'restrictedReadWrite', 'readOnly', 'otherAccount', 'cancellable'] as const satisfies readonly (keyof CloudTokens)[];
export const BUILD_USER_ROLES = ['user', 'admin', 'privileged'] as const satisfies readonly (keyof BuildUsers)[];

/** The environment variable of a config field path: `tokens.readOnly` -> `CONFORMANCE_TOKENS_READ_ONLY`. */
export function envName(path: string): string {
  return `CONFORMANCE_${path.replace(/([a-z0-9])([A-Z])/g, '$1_$2').replace(/\./g, '_').toUpperCase()}`;
}

/** Every credential field of a protocol's target, as config paths (what `envName` takes). */
export function credentialPaths(protocol: Protocol): string[] {
  switch (protocol) {
    case 'wire':
      return ['authKey', 'restrictedAuthKey'];
    case 'cloud':
      return CLOUD_TOKEN_ROLES.map((r) => `tokens.${r}`);
    case 'build':
      return [...BUILD_USER_ROLES.flatMap((r) => [`users.${r}.username`, `users.${r}.password`]), 'token'];
  }
}

/** A Basic credential as one value, `username:password` (the password may hold ':'), as curl -u takes it. */
export function parseBasic(value: string, where: string): BasicCredentials {
  const at = value.indexOf(':');
  if (at < 1) throw new ConfigError(`${where}: expected username:password`);
  return { username: value.slice(0, at), password: value.slice(at + 1) };
}

export interface Credentials {
  authKey?: string;
  restrictedAuthKey?: string;
  tokens?: CloudTokens;
  /** Either half may be missing: a caller decides what a lone password means (see `completeUsers`). */
  users?: { [role in keyof BuildUsers]?: Partial<BasicCredentials> };
  token?: string;
}

/** The credentials of a protocol's target found in `env` under the scheme's names; empty values count as unset. */
export function credentialsFromEnv(protocol: Protocol, env: NodeJS.ProcessEnv = process.env): Credentials {
  const out: Credentials = {};
  for (const path of credentialPaths(protocol)) {
    const value = env[envName(path)];
    if (value === undefined || value === '') continue;
    const [field, role, half] = path.split('.') as [keyof Credentials, string | undefined, keyof BasicCredentials | undefined];
    if (field === 'tokens') out.tokens = { ...out.tokens, [role!]: value };
    else if (field === 'users') out.users = { ...out.users, [role!]: { ...out.users?.[role as keyof BuildUsers], [half!]: value } };
    else out[field] = value;
  }
  return out;
}

/** Users whose username and password are both given; half a user is a mistake naming the missing variable. */
export function completeUsers(users: Credentials['users'] = {}): BuildUsers {
  const out: BuildUsers = {};
  for (const [role, u] of Object.entries(users) as [keyof BuildUsers, Partial<BasicCredentials>][]) {
    const missing = u.username === undefined ? 'username' : u.password === undefined ? 'password' : undefined;
    if (missing) throw new ConfigError(`${envName(`users.${role}.${missing === 'username' ? 'password' : 'username'}`)} is set, ${envName(`users.${role}.${missing}`)} is not`);
    out[role] = { username: u.username!, password: u.password! };
  }
  return out;
}

/**
 * A target field a check needs, as its skip reason names it: the config field, and how an ad hoc
 * target (src/cli/adhoc.ts) is given it instead, since a target may come from either and the
 * config file may have any name. An ad hoc target takes credentials by flag or variable, and has
 * no fixtures at all. One line, e.g. `tokens.readOnly (config field; ad hoc: --token
 * readOnly=<token> or CONFORMANCE_TOKENS_READ_ONLY)`.
 */
export function neededField(path: string): string {
  const [field, role] = path.split('.');
  const adhoc =
    field === 'fixtures'
      ? 'an ad hoc target has none'
      : field === 'authKey'
        ? `ad hoc: --auth-key or ${envName(path)}`
        : field === 'tokens'
          ? `ad hoc: --token ${role}=<token> or ${envName(path)}`
          : field === 'users'
            ? `ad hoc: --user ${role}=<name>:<password> or ${envName(`${path}.username`)} and _PASSWORD`
            : `ad hoc: ${envName(path)}`;
  return `${path} (config field; ${adhoc})`;
}
