// Helpers of the OAuth checks ("Authentication", lines 184-188 of cloud-api.md): the configured
// client or a client of the check's own, a code from the login server, the token URL in either
// form encoding.
import { randomBytes, randomUUID } from 'node:crypto';
import type { CloudCheckContext } from '../../src/core/check.ts';
import type { HttpResponse } from '../../src/clients/http/client.ts';
import { CheckSkipped } from '../../src/core/errors.ts';
import { envName, neededField } from '../../src/config/env.ts';
import { brief, expectStatus } from './support.ts';

export const CLIENTS = '/account/oauth-clients';
/** The redirect URI of the check's clients: never fetched, only parsed out of a Location. */
export const REDIRECT_URI = 'https://client.example.com/conformance/oauth-callback';
/** The scope asked for: enough for GET /account, which shows whether a token is accepted. */
export const SCOPE = 'account:read_only';

export interface OAuthTestClient {
  id: string;
  secret: string;
  /** The redirect URI it was registered with; unknown for a configured client that names none. */
  redirectUri?: string;
}

export interface TokenPair {
  access_token: string;
  refresh_token: string;
}

/** Creates an OAuth client (set-up) with its plaintext secret; `remove` deletes it afterwards. */
export async function oauthClient(ctx: CloudCheckContext, what: string, isPublic = false): Promise<OAuthTestClient> {
  ctx.cloud.authServer(); // skips before anything is created when no login server is named
  const api = ctx.cloud.as('unrestricted');
  const body = { label: `conformance-oauth-${what}-${randomUUID().slice(0, 8)}`, redirect_uri: REDIRECT_URI, public: isPublic };
  const desc = `POST /v4${CLIENTS} ${JSON.stringify(body)}`;
  return ctx.setup(`create an OAuth client (${desc})`, async () => {
    const res = await api.post(CLIENTS, body);
    expectStatus(res, 200, desc);
    const b = (res.json ?? {}) as { client_id?: unknown; id?: unknown; secret?: unknown };
    const id = typeof b.client_id === 'string' && b.client_id ? b.client_id : typeof b.id === 'string' && b.id ? b.id : undefined;
    if (!id) return ctx.fail(`${desc}: the new client names no client_id: ${brief(res)}`);
    if (typeof b.secret !== 'string' || !b.secret) return ctx.fail(`${desc}: the new client has no plaintext secret: ${brief(res)}`);
    return { id, secret: b.secret, redirectUri: REDIRECT_URI };
  }, { seeAlso: 'cloud.oauth-clients.secret-only-on-create' });
}

export async function removeClient(ctx: CloudCheckContext, c: OAuthTestClient | undefined): Promise<void> {
  if (c) await ctx.cloud.as('unrestricted').delete(`${CLIENTS}/${encodeURIComponent(c.id)}`).catch(() => undefined);
}

/** Runs `body` with an OAuth client of the check's own (created as set-up), deleted afterwards whatever happens. */
export async function withOAuthClient<T>(ctx: CloudCheckContext, what: string, body: (c: OAuthTestClient) => Promise<T>, isPublic = false): Promise<T> {
  const c = await oauthClient(ctx, what, isPublic);
  try {
    return await body(c);
  } finally {
    await removeClient(ctx, c);
  }
}

/**
 * Runs `body` with an OAuth client the check only exchanges codes and tokens with: the configured
 * one (fixtures.oauth.client), which nothing here changes; otherwise a client of the check's own,
 * created and deleted, which only a target that allows `destructive` lets the check create.
 */
export async function withExchangeClient<T>(ctx: CloudCheckContext, what: string, body: (c: OAuthTestClient) => Promise<T>): Promise<T> {
  ctx.cloud.authServer(); // skips first when no login server is named
  const configured = ctx.cloud.fixtures.oauth?.client;
  if (configured) return body({ id: configured.id, secret: configured.secret, redirectUri: configured.redirectUri });
  if (!ctx.cloud.target.allows?.includes('destructive')) throw new CheckSkipped(`needs ${neededField('fixtures.oauth.client')}, or allow: ['destructive'] (ad hoc: --allow destructive) to create an OAuth client of its own`);
  return withOAuthClient(ctx, what, body);
}

/** Logs a person in at the authorization URL (fixtures.oauth.login) and reads the redirect. */
export async function authorize(ctx: CloudCheckContext, c: OAuthTestClient, responseType: 'code' | 'token', as: { role?: 'unrestricted' | 'otherAccount'; scope?: string } = {}): Promise<URL> {
  const { role = 'unrestricted', scope = SCOPE } = as;
  const auth = ctx.cloud.authServer();
  const login = ctx.cloud.fixtures.oauth?.login;
  if (login !== 'bearer') throw new CheckSkipped(`needs ${neededField('fixtures.oauth.login')}: a way to log a person in at {auth_url}/oauth/authorize (none is stated by the document)`);
  const token = ctx.cloud.tokenOf(role);
  if (!token) throw new CheckSkipped(`needs ${neededField(`tokens.${role}`)}: the person logging in`);
  const state = randomBytes(6).toString('hex');
  const what = `GET {auth_url}/oauth/authorize?client_id=…&response_type=${responseType}&scope=${scope} as the logged-in user of tokens.${role}`;
  return ctx.setup(what, async () => {
    // A configured client that names no redirect URI is sent none: the login server uses its own.
    const query = { client_id: c.id, response_type: responseType, scope, state, ...(c.redirectUri ? { redirect_uri: c.redirectUri } : {}) };
    const res = await auth.request('GET', '/oauth/authorize', { query, headers: { authorization: `Bearer ${token}` }, credentialName: envName(`tokens.${role}`) });
    if (res.status < 300 || res.status > 399 || !res.headers.location) return ctx.fail(`${what}: expected a redirect to the redirect URI, got ${brief(res)}`);
    let url: URL;
    try {
      url = new URL(res.headers.location, c.redirectUri ?? REDIRECT_URI);
    } catch {
      return ctx.fail(`${what}: the redirect ${JSON.stringify(res.headers.location)} is not a URL`);
    }
    if (c.redirectUri && !url.href.startsWith(c.redirectUri)) return ctx.fail(`${what}: redirected to ${url.href}, not to the client's redirect URI ${c.redirectUri}`);
    return url;
  });
}

/** A temporary code for the client, from the private workflow's redirect (set-up). */
export async function authorizationCode(ctx: CloudCheckContext, c: OAuthTestClient, as: { role?: 'unrestricted' | 'otherAccount'; scope?: string } = {}): Promise<string> {
  const url = await authorize(ctx, c, 'code', as);
  const code = url.searchParams.get('code');
  if (!code) return ctx.inconclusive(`the login server redirected to ${url.origin}${url.pathname} without a code`);
  return code;
}

/** POSTs `fields` to {auth_url}/oauth/token, form-urlencoded or as multipart/form-data. */
export function tokenRequest(ctx: CloudCheckContext, fields: Record<string, string>, encoding: 'urlencoded' | 'multipart' = 'urlencoded'): Promise<HttpResponse> {
  const auth = ctx.cloud.authServer();
  if (encoding === 'urlencoded') {
    return auth.request('POST', '/oauth/token', { body: new URLSearchParams(fields).toString(), headers: { 'content-type': 'application/x-www-form-urlencoded' } });
  }
  const boundary = `----conformance${randomBytes(8).toString('hex')}`;
  const parts = Object.entries(fields).map(([k, v]) => `--${boundary}\r\nContent-Disposition: form-data; name="${k}"\r\n\r\n${v}\r\n`);
  return auth.request('POST', '/oauth/token', { body: Buffer.from(`${parts.join('')}--${boundary}--\r\n`), headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } });
}

/** A token answer's pair, or undefined when it lacks one. */
export function pairOf(res: HttpResponse): Partial<TokenPair> & Record<string, unknown> {
  const b = res.json;
  return b !== null && typeof b === 'object' && !Array.isArray(b) ? (b as Record<string, unknown>) : {};
}

/** Exchanges a code for tokens (set-up): a pair with both tokens. */
export async function exchangedPair(ctx: CloudCheckContext, c: OAuthTestClient, as: { role?: 'unrestricted' | 'otherAccount'; scope?: string } = {}): Promise<TokenPair> {
  const code = await authorizationCode(ctx, c, as);
  const what = 'POST {auth_url}/oauth/token client_id, client_secret, code (form-urlencoded)';
  return ctx.setup(what, async () => {
    const res = await tokenRequest(ctx, { client_id: c.id, client_secret: c.secret, code });
    expectStatus(res, 200, what);
    const p = pairOf(res);
    if (typeof p.access_token !== 'string' || typeof p.refresh_token !== 'string') return ctx.fail(`${what}: no access_token and refresh_token: ${brief(res)}`);
    return { access_token: p.access_token, refresh_token: p.refresh_token };
  }, { seeAlso: 'cloud.authentication.oauth-code-exchange' });
}

/** GET /v4/account with an OAuth access token (its scope is account:read_only). */
export function withAccessToken(ctx: CloudCheckContext, token: string): Promise<HttpResponse> {
  return ctx.cloud.withToken(token, 'OAUTH_ACCESS').get('/account');
}

/** Whether a token URL answer is a refusal: a 4xx, and no access_token. */
export function refused(res: HttpResponse): boolean {
  return res.status >= 400 && res.status <= 499 && pairOf(res).access_token === undefined;
}
