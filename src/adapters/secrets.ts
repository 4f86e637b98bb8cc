// Which values of a target's configuration are secrets, in one place for runs, fuzz campaigns
// and replays: the report boundary (src/reports/boundary.ts) redacts each in every derived form.
import type { BasicCredentials } from '../config/types.ts';

export interface SecretHolder {
  authKey?: string;
  restrictedAuthKey?: string;
  tokens?: { [role: string]: string | undefined } | object;
  token?: string;
  users?: { [role: string]: BasicCredentials | undefined } | object;
  /** CLOUD: the configured OAuth client's plaintext secret (fixtures.oauth.client.secret). */
  fixtures?: { oauth?: { client?: { secret?: string } } } | object;
}

export function secretsOf(c: SecretHolder): string[] {
  const oauthClient = (c.fixtures as { oauth?: { client?: { secret?: unknown } } } | undefined)?.oauth?.client;
  const out: unknown[] = [c.authKey, c.restrictedAuthKey, c.token, ...Object.values(c.tokens ?? {}), oauthClient?.secret];
  // A Basic credential is base64 of `user:password`: the pair is a secret of its own.
  for (const u of Object.values(c.users ?? {}) as (BasicCredentials | undefined)[]) if (u) out.push(u.password, `${u.username}:${u.password}`);
  return out.filter((s): s is string => typeof s === 'string' && s.length > 0);
}
