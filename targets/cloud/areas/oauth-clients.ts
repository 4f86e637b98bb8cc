// OAuth clients area of cloud-ref: create (label and redirect_uri required, private by default),
// view, update, delete, secret reset, and the thumbnail (PUT with a token, GET public, image/png).
import { randomBytes } from 'node:crypto';
import type { Api, Call } from '../api.ts';
import { accepts, notFound, paginate, refuse, requireCaller, validateBody } from '../api.ts';
import { areaState, type World } from '../world.ts';

export interface OAuthClient {
  id: string;
  account: string;
  label: string;
  redirect_uri: string;
  public: boolean;
  /** The plaintext secret; shown only on create and on secret reset. */
  secret: string;
  /** Secrets a reset replaced (no longer accepted at the token URL, but under a fault). */
  oldSecrets?: string[];
  /** When the secret was last reset. */
  resetAt?: number;
  status: 'active';
  thumbnail?: Buffer;
}

const FILTERABLE = ['label', 'public'] as const;

export function clients(world: World): Map<string, OAuthClient> {
  return areaState(world, 'oauth-clients', () => new Map<string, OAuthClient>());
}

/** Deleted clients, kept only for the fault under which the token URL still takes their credentials. */
export function deletedClients(world: World): Map<string, OAuthClient> {
  return areaState(world, 'deleted-oauth-clients', () => new Map<string, OAuthClient>());
}

const newSecret = () => randomBytes(32).toString('hex');

/** The redirect URI of the seeded client (fixtures.oauth.client.redirectUri). */
export const SEEDED_REDIRECT_URI = 'https://app.example.com/oauth/callback';

/**
 * Seeds a private client of `account` as a user registers one for the OAuth checks that only
 * exchange codes and tokens (fixtures.oauth.client): the configured path is proven like the rest.
 */
export function seedClient(world: World, account: string): { id: string; secret: string; redirectUri: string } {
  const c: OAuthClient = { id: randomBytes(10).toString('hex'), account, label: 'conformance-configured', redirect_uri: SEEDED_REDIRECT_URI, public: false, secret: newSecret(), status: 'active' };
  clients(world).set(c.id, c);
  return { id: c.id, secret: c.secret, redirectUri: c.redirect_uri };
}

/** The client as GET and the list show it: the secret is never shown in plaintext there. */
function view(c: OAuthClient, call: Call, withSecret = false): Record<string, unknown> {
  const shown = withSecret || call.faults.has('oauth-secret-on-get');
  const body: Record<string, unknown> = { id: c.id, client_id: c.id, label: c.label, redirect_uri: c.redirect_uri, public: c.public, status: c.status, thumbnail_url: `/account/oauth-clients/${c.id}/thumbnail` };
  // Elsewhere the reference shows a placeholder; the variant leaves the secret out.
  if (shown) body.secret = c.secret;
  else if (!call.variant) body.secret = '<REDACTED>';
  return body;
}

function own(call: Call): OAuthClient {
  const { account } = requireCaller(call);
  const c = clients(call.world).get(call.params.clientId);
  if (!c || c.account !== account.id) throw notFound();
  return c;
}

export function registerOAuthClients(api: Api): void {
  const { world } = api;

  api.endpoint({ method: 'GET', path: '/account/oauth-clients', scope: 'account:read_only', grant: 'none' }, (call) => {
    const { account } = requireCaller(call);
    const rows = [...clients(world).values()].filter((c) => c.account === account.id).map((c) => view(c, call));
    return paginate(call, rows, FILTERABLE);
  });

  api.endpoint({ method: 'POST', path: '/account/oauth-clients', scope: 'account:read_write', grant: 'none', request: (call) => void validateBody(call, 'oauthClientCreate', call.body) }, (call) => {
    const { account } = requireCaller(call);
    let body = call.body as Record<string, unknown> | undefined;
    if (call.faults.has('oauth-create-without-redirect-uri') && body && typeof body === 'object' && body.redirect_uri === undefined) body = { ...body, redirect_uri: '' };
    const req = validateBody<{ label: string; redirect_uri: string; public?: boolean }>(call, 'oauthClientCreate', body);
    if (!req.label) throw refuse(400, 'label is required', 'label');
    const c: OAuthClient = {
      id: randomBytes(10).toString('hex'),
      account: account.id,
      label: req.label,
      redirect_uri: req.redirect_uri,
      public: req.public ?? call.faults.has('oauth-public-default-true'),
      secret: newSecret(),
      status: 'active',
    };
    clients(world).set(c.id, c);
    return { body: view(c, call, true) };
  });

  api.endpoint({ method: 'GET', path: '/account/oauth-clients/{clientId}', scope: 'account:read_only', grant: 'none' }, (call) => {
    if (call.faults.has('oauth-client-view-not-served')) throw notFound();
    return { body: view(own(call), call) };
  });

  api.endpoint({ method: 'PUT', path: '/account/oauth-clients/{clientId}', scope: 'account:read_write', grant: 'none', request: (call) => void validateBody(call, 'oauthClient', call.body) }, (call) => {
    if (call.faults.has('put-unknown-oauth-client-200') && !clients(world).has(call.params.clientId)) return { body: {} };
    const c = own(call);
    const changes = validateBody<{ label?: string; redirect_uri?: string; public?: boolean }>(call, 'oauthClient', call.body);
    if (!call.faults.has('oauth-put-ignored')) {
      if (changes.label !== undefined) c.label = changes.label;
      if (changes.redirect_uri !== undefined) c.redirect_uri = changes.redirect_uri;
      if (changes.public !== undefined) c.public = changes.public;
    }
    return { body: view(c, call) };
  });

  api.endpoint({ method: 'DELETE', path: '/account/oauth-clients/{clientId}', scope: 'account:read_write', grant: 'none' }, (call) => {
    const c = own(call);
    // Its id and secret stop being accepted and every token issued to it is invalidated.
    if (!call.faults.has('oauth-delete-noop')) clients(world).delete(c.id);
    if (call.faults.has('oauth-deleted-client-credentials-kept')) deletedClients(world).set(c.id, c);
    if (!call.faults.has('oauth-delete-noop') && !call.faults.has('oauth-delete-keeps-tokens')) for (const [t, token] of world.tokens) if (token.client === c.id) world.tokens.delete(t);
    if (call.faults.has('delete-answers-text')) return { body: 'OK', contentType: 'text/plain' };
    return { body: {} };
  });

  api.endpoint({ method: 'POST', path: '/account/oauth-clients/{clientId}/reset-secret', scope: 'account:read_write', grant: 'none', request: 'none' }, (call) => {
    const c = own(call);
    // The old secret expires immediately.
    if (!call.faults.has('oauth-reset-same-secret')) {
      (c.oldSecrets ??= []).push(c.secret);
      c.secret = newSecret();
      c.resetAt = Date.now();
    }
    if (call.faults.has('oauth-reset-redacted')) return { body: { ...view(c, call, true), secret: '<REDACTED>' } };
    return { body: view(c, call, true) };
  });

  api.endpoint({ method: 'GET', path: '/account/oauth-clients/{clientId}/thumbnail', scope: 'none', grant: 'none', produces: 'image/png' }, (call) => {
    if (!call.caller && call.faults.has('thumbnail-needs-token')) throw refuse(401, 'Not found: no Authorization header with a bearer token');
    const c = clients(world).get(call.params.clientId);
    if (!c?.thumbnail) throw notFound();
    // The variant honours Accept: a client that does not accept image/png gets 406.
    if (call.variant && !accepts(call.headers.accept, 'image/png')) throw refuse(406, 'The thumbnail is image/png, which the Accept header does not allow');
    return { body: c.thumbnail, contentType: call.faults.has('thumbnail-not-png') ? 'application/octet-stream' : 'image/png' };
  });

  api.endpoint({ method: 'PUT', path: '/account/oauth-clients/{clientId}/thumbnail', scope: 'account:read_write', grant: 'none' }, (call) => {
    const c = own(call);
    const type = String(call.headers['content-type'] ?? '');
    if (!call.rawBody || !type.startsWith('image/png')) throw refuse(400, 'The thumbnail must be sent as an image/png body');
    if (!call.rawBody.subarray(0, 8).equals(PNG_SIGNATURE)) throw refuse(400, 'The body is not a PNG image');
    c.thumbnail = Buffer.from(call.rawBody);
    return { body: {} };
  });
}

const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
