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
  const tokens = [c.token, ...Object.values(c.tokens ?? {})].filter((t): t is string => typeof t === 'string' && t.length > 0);
  const out: unknown[] = [c.authKey, c.restrictedAuthKey, ...tokens, oauthClient?.secret];
  // The exact header values the tool puts on the wire are secrets of their own, so that each
  // encoding the boundary covers (base64, hex, URL...) is covered for them too: a target may echo
  // `Authorization` in any of them. CLOUD sends `Bearer <token>`, BUILD `Token <token>`.
  for (const t of tokens) out.push(`Bearer ${t}`, `Token ${t}`);
  // A Basic credential is base64 of `user:password`: the pair, its base64 (the value after
  // `Basic `) and the whole header value are secrets of their own.
  for (const u of Object.values(c.users ?? {}) as (BasicCredentials | undefined)[]) {
    if (!u) continue;
    const pair = `${u.username}:${u.password}`;
    const encoded = Buffer.from(pair, 'utf8').toString('base64');
    out.push(u.password, pair, encoded, `Basic ${encoded}`);
  }
  return out.filter((s): s is string => typeof s === 'string' && s.length > 0);
}
