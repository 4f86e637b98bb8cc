// The OAuth login server of cloud-ref ("Authentication", lines 184-188 of cloud-api.md), served at
// its auth_url, which is the server's own origin: {auth_url}/oauth/authorize and /oauth/token.
// How a person logs in is not shown; cloud-ref's login is a personal access token sent as a
// bearer token to the authorization URL (fixtures.oauth.login = 'bearer').
import { randomBytes } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Api } from '../api.ts';
import { refuse } from '../api.ts';
import { clients, deletedClients, type OAuthClient } from './oauth-clients.ts';

/** Access token lifetime: 7200 seconds (line 186, "Limits" line 235). */
export const TOKEN_LIFETIME_S = 7200;
/** How long an authorization code may be exchanged. */
const CODE_LIFETIME_MS = 10 * 60_000;

interface Grant {
  client: string;
  username: string;
  scope: string;
  expiresAt: number;
  /** When a refresh token was issued (a fault revokes those issued before a secret reset). */
  issuedAt?: number;
}

const random = () => randomBytes(24).toString('hex');

/** Form fields of an application/x-www-form-urlencoded or multipart/form-data body. */
export function formFields(contentType: string, body: Buffer | undefined, multipart: boolean): Record<string, string> | undefined {
  if (!body) return {};
  const type = contentType.toLowerCase();
  if (type.startsWith('application/x-www-form-urlencoded')) return Object.fromEntries(new URLSearchParams(body.toString('utf8')));
  if (!multipart || !type.startsWith('multipart/form-data')) return undefined;
  const boundary = /boundary="?([^";]+)"?/i.exec(contentType)?.[1];
  if (!boundary) return undefined;
  const out: Record<string, string> = {};
  for (const part of body.toString('utf8').split(`--${boundary}`)) {
    const split = part.indexOf('\r\n\r\n');
    if (split < 0) continue;
    const name = /name="([^"]*)"/i.exec(part.slice(0, split))?.[1];
    if (name !== undefined) out[name] = part.slice(split + 4).replace(/\r\n$/, '');
  }
  return out;
}

export function registerOAuth(api: Api): void {
  const { world } = api;
  const codes = new Map<string, Grant>();
  const refreshTokens = new Map<string, Grant>();
  /** The access token issued with each refresh token (the variant ends it on refresh). */
  const accessOf = new Map<string, string>();
  const faults = api.faults;
  /** Code exchanges per client_id (fault oauth-code-rate-limited-after-first). */
  const exchanges = new Map<string, number>();

  const issue = (g: Omit<Grant, 'expiresAt'>, withRefresh: boolean) => {
    const access = random();
    const scopes = g.scope.split(/[ ,]+/).filter(Boolean);
    world.tokens.set(access, { token: access, username: g.username, scopes: scopes.length ? scopes : ['*'], client: g.client, expiresAt: Date.now() + TOKEN_LIFETIME_S * 1000 });
    const body: Record<string, unknown> = { scope: g.scope, access_token: access, token_type: faults.has('oauth-token-type-mac') ? 'mac' : api.variant ? 'Bearer' : 'bearer', expires_in: faults.has('oauth-expires-in-3600') ? 3600 : TOKEN_LIFETIME_S };
    if (withRefresh) {
      const refresh = random();
      refreshTokens.set(refresh, { ...g, expiresAt: Number.POSITIVE_INFINITY, issuedAt: Date.now() });
      accessOf.set(refresh, access);
      body.refresh_token = refresh;
    }
    return body;
  };

  const send = (reply: FastifyReply, status: number, body: unknown) => reply.code(status).type('application/json').send(JSON.stringify(body));

  /** The client of client_id and client_secret, or a 401 (bad client or secret). */
  const authenticateClient = (fields: Record<string, string>): OAuthClient => {
    const c = clients(world).get(fields.client_id ?? '') ?? (faults.has('oauth-deleted-client-credentials-kept') ? deletedClients(world).get(fields.client_id ?? '') : undefined);
    const secretOk = c && (fields.client_secret === c.secret || faults.has('oauth-secret-unchecked') || ((faults.has('oauth-old-secret-kept') || faults.has('oauth-reset-revokes-keeps-old-secret')) && c.oldSecrets?.includes(fields.client_secret ?? '')));
    if (!c || !secretOk) throw refuse(api.variant ? 400 : 401, 'invalid_client: unknown client_id or wrong client_secret');
    return c;
  };

  // The authorization URL: the logged-in user (a bearer personal access token) authorizes the client.
  api.app.get('/oauth/authorize', async (req: FastifyRequest, reply: FastifyReply) => {
    try {
      const q = req.query as Record<string, string | undefined>;
      const bearer = /^Bearer (\S+)$/i.exec(req.headers.authorization ?? '')?.[1];
      const login = bearer ? world.tokens.get(bearer) : undefined;
      if (!login || login.client !== undefined) throw refuse(401, 'Log in first: no logged-in user');
      const c = clients(world).get(q.client_id ?? '');
      if (!c) throw refuse(400, 'invalid_request: unknown client_id');
      if (q.redirect_uri !== undefined && q.redirect_uri !== c.redirect_uri) throw refuse(400, 'invalid_request: redirect_uri is not that of the client');
      const scope = q.scope ?? '*';
      const target = new URL(c.redirect_uri);
      const type = q.response_type ?? 'code';
      if (type === 'token') {
        // The public (implicit) workflow: the access token in the URL fragment, no refresh token.
        if (!c.public) throw refuse(400, 'unauthorized_client: the implicit workflow is for public clients');
        const body = issue({ client: c.id, username: login.username, scope }, faults.has('oauth-implicit-refresh-token'));
        const fragment = new URLSearchParams(Object.entries({ ...body, ...(q.state ? { state: q.state } : {}) }).map(([k, v]) => [k, String(v)]));
        target.hash = fragment.toString();
      } else if (type === 'code') {
        const code = random();
        codes.set(code, { client: c.id, username: login.username, scope, expiresAt: Date.now() + CODE_LIFETIME_MS });
        target.searchParams.set('code', code);
        if (q.state) target.searchParams.set('state', q.state);
      } else throw refuse(400, 'unsupported_response_type');
      return reply.code(api.variant ? 303 : 302).header('location', target.toString()).send();
    } catch (err) {
      return api.sendError(reply, err);
    }
  });

  // The token URL: the authorization code exchange and the refresh.
  api.app.post('/oauth/token', async (req: FastifyRequest, reply: FastifyReply) => {
    try {
      if (faults.has('oauth-token-not-served')) throw refuse(404, 'Not found');
      const raw = Buffer.isBuffer(req.body) ? req.body : undefined;
      const fields = formFields(String(req.headers['content-type'] ?? ''), raw, !faults.has('oauth-token-urlencoded-only'));
      if (!fields) throw refuse(415, 'The token URL takes application/x-www-form-urlencoded or multipart/form-data');
      const grantType = fields.grant_type ?? 'authorization_code';
      // The rate limit is counted before anything else is looked at.
      if ((grantType === 'refresh_token' && faults.has('oauth-refresh-rate-limited')) || faults.has('oauth-token-rate-limited')) {
        reply.header('retry-after', '60');
        throw refuse(429, 'Too many requests');
      }
      if (grantType === 'authorization_code' && faults.has('oauth-code-rate-limited-after-first')) {
        const n = exchanges.get(fields.client_id ?? '') ?? 0;
        exchanges.set(fields.client_id ?? '', n + 1);
        if (n >= 1) {
          reply.header('retry-after', '60');
          throw refuse(429, 'Too many requests');
        }
      }
      const c = authenticateClient(fields);
      if (grantType === 'authorization_code') {
        const g = codes.get(fields.code ?? '');
        codes.delete(fields.code ?? '');
        if (!g || g.client !== c.id || g.expiresAt <= Date.now()) {
          if (!faults.has('oauth-any-code-accepted')) throw refuse(400, 'invalid_grant: unknown, used or expired code');
          return send(reply, 200, issue({ client: c.id, username: 'alice', scope: '*' }, true));
        }
        return send(reply, 200, issue(g, true));
      }
      if (grantType === 'refresh_token') {
        const old = fields.refresh_token ?? '';
        const g = refreshTokens.get(old);
        const revoked = faults.has('oauth-reset-revokes-keeps-old-secret') && g !== undefined && c.resetAt !== undefined && (g.issuedAt ?? 0) <= c.resetAt;
        if (!g || g.client !== c.id || revoked) {
          if (!faults.has('oauth-any-refresh-accepted')) throw refuse(400, 'invalid_grant: unknown refresh_token');
          return send(reply, 200, issue({ client: c.id, username: 'alice', scope: '*' }, true));
        }
        if (faults.has('oauth-refresh-same-pair')) return send(reply, 200, { scope: g.scope, access_token: accessOf.get(old), refresh_token: old, token_type: 'bearer', expires_in: TOKEN_LIFETIME_S });
        // A refresh token is used once; the variant also ends the access token issued with it.
        refreshTokens.delete(old);
        if (api.variant) world.tokens.delete(accessOf.get(old) ?? '');
        accessOf.delete(old);
        return send(reply, 200, issue(g, true));
      }
      throw refuse(400, 'unsupported_grant_type');
    } catch (err) {
      return api.sendError(reply, err);
    }
  });
}
