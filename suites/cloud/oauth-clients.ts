// The "### OAuth clients" table of cloud-api.md (with the OAuth client row of "Resources and
// their fields"): create, private by default, the secret in plaintext only on create and reset,
// update, delete, the thumbnail. Each check creates its own client and deletes it.
import { randomBytes, randomUUID } from 'node:crypto';
import { check, type CloudCheckContext } from '../../src/core/check.ts';
import type { CloudCaller } from '../../src/clients/cloud/session.ts';
import { brief, expectRefused, expectShape, expectStatus, holdsValue, isJsonObject, notAboutTheRule, show } from './support.ts';
import { expectNotFound, walkPages } from './controls.ts';
import { authorizationCode, exchangedPair, oauthClient, pairOf, refused, tokenRequest, withAccessToken, removeClient, withOAuthClient } from './oauth-support.ts';

const section = 'OAuth clients';
const file = 'cloud-api.md';
const CLIENTS = '/account/oauth-clients';

interface Client {
  id: string;
  secret: unknown;
  body: Record<string, unknown>;
}

const uniqueLabel = (what: string) => `conformance-${what}-${randomUUID().slice(0, 8)}`;

/** The client id an OAuth client body names (client_id, or id). */
function idOf(body: unknown): string | undefined {
  const b = (body ?? {}) as { client_id?: unknown; id?: unknown };
  const id = b.client_id ?? b.id;
  return typeof id === 'string' && id ? id : undefined;
}

/** Creates an OAuth client for the check (a set-up step). */
async function createClient(ctx: CloudCheckContext, api: CloudCaller, what: string, extra: Record<string, unknown> = {}): Promise<Client> {
  const body = { label: uniqueLabel(what), redirect_uri: 'https://example.com/callback', ...extra };
  const desc = `POST /v4${CLIENTS} ${JSON.stringify(body)}`;
  return ctx.setup(`create an OAuth client (${desc})`, async () => {
    const res = await api.post(CLIENTS, body);
    expectStatus(res, 200, desc);
    expectShape(res, 'oauthClient', desc);
    const id = idOf(res.json);
    if (!id) return ctx.fail(`${desc}: the new client names no client_id: ${brief(res)}`);
    return { id, secret: (res.json as { secret?: unknown }).secret, body: res.json as Record<string, unknown> };
  });
}

async function deleteQuietly(api: CloudCaller, id: string | undefined): Promise<void> {
  if (id) await api.delete(`${CLIENTS}/${encodeURIComponent(id)}`).catch(() => undefined);
}

export const createRequiresLabelAndRedirect = check(
  {
    id: 'cloud.oauth-clients.create-requires-label-and-redirect-uri',
    title: 'Creating an OAuth client without label, or without redirect_uri, is refused',
    protocol: 'cloud',
    section,
    level: 'SHOULD',
    spec: { file, line: 103, quote: 'client (label and redirect_uri required) -> OAuth client' },
    touches: ['DELETE /account/oauth-clients/{clientId}', 'POST /account/oauth-clients'],
    faults: ['oauth-create-without-redirect-uri'],
    tags: ['destructive'],
  },
  async (ctx) => {
    const api = ctx.cloud.as('unrestricted');
    // The positive control: the route creates a client from a body with both (deleted again).
    const made = await createClient(ctx, api, 'control');
    await deleteQuietly(api, made.id);
    for (const body of [{ label: uniqueLabel('no-redirect') }, { redirect_uri: 'https://example.com/callback' }]) {
      const res = await api.post(CLIENTS, body);
      try {
        expectRefused(res, `POST /v4${CLIENTS} ${JSON.stringify(body)}`);
      } finally {
        if (res.status < 300) await deleteQuietly(api, idOf(res.json));
      }
    }
  },
);

export const privateByDefault = check(
  {
    id: 'cloud.oauth-clients.private-by-default',
    title: 'A client created without public is private (public false)',
    protocol: 'cloud',
    section: 'Resources and their fields',
    level: 'MUST',
    spec: { file, line: 34, quote: 'public (boolean, default false i.e. private)' },
    touches: ['DELETE /account/oauth-clients/{clientId}', 'GET /account/oauth-clients/{clientId}', 'POST /account/oauth-clients'],
    faults: ['oauth-public-default-true'],
    tags: ['destructive'],
  },
  async (ctx) => {
    const api = ctx.cloud.as('unrestricted');
    const c = await createClient(ctx, api, 'default');
    try {
      ctx.expect(c.body.public === false, `POST /v4${CLIENTS} without public: expected public false, got ${show(c.body.public)}`);
      const view = await api.get(`${CLIENTS}/${encodeURIComponent(c.id)}`);
      expectStatus(view, 200, `GET /v4${CLIENTS}/{clientId}`);
      const pub = (view.json as { public?: unknown } | undefined)?.public;
      ctx.expect(pub === false, `GET /v4${CLIENTS}/{clientId} of a client created without public: expected public false, got ${show(pub)}`);
    } finally {
      await deleteQuietly(api, c.id);
    }
  },
);

export const secretOnlyOnCreate = check(
  {
    id: 'cloud.oauth-clients.secret-only-on-create',
    title: 'The plaintext secret comes with the create answer, never with GET or the list',
    protocol: 'cloud',
    section: 'Resources and their fields',
    level: 'MUST',
    spec: { file, line: 34, quote: 'secret (plaintext only returned on create and secret reset)' },
    touches: ['DELETE /account/oauth-clients/{clientId}', 'GET /account/oauth-clients', 'GET /account/oauth-clients/{clientId}', 'POST /account/oauth-clients'],
    faults: ['oauth-secret-on-get'],
    tags: ['destructive'],
  },
  async (ctx) => {
    const api = ctx.cloud.as('unrestricted');
    const c = await createClient(ctx, api, 'secret');
    try {
      ctx.expect(typeof c.secret === 'string' && c.secret.length > 0, `POST /v4${CLIENTS}: expected the plaintext secret, got ${show(c.secret)}`);
      const secret = c.secret as string;
      const view = await api.get(`${CLIENTS}/${encodeURIComponent(c.id)}`);
      expectStatus(view, 200, `GET /v4${CLIENTS}/{clientId}`);
      const rows = await walkPages(ctx, api, CLIENTS, `GET /v4${CLIENTS}`);
      const inView = holdsValue(view.json, secret);
      const inList = holdsValue(rows, secret);
      if (!inView && !inList) return;
      // The same value on create and on GET: the plaintext shown again, or a placeholder that create
      // returned instead of a secret. A second client tells them apart: a secret is not shared.
      const where = inView ? `GET /v4${CLIENTS}/{clientId}` : `GET /v4${CLIENTS} (the list)`;
      const shown = show(secret.length > 12 ? `${secret.slice(0, 4)}…` : secret);
      const other = await createClient(ctx, api, 'secret-2');
      try {
        if (other.secret === secret) ctx.fail(`POST /v4${CLIENTS} returned no usable secret: two new clients were both given ${shown}, which ${where} shows too (a placeholder, not a plaintext secret)`);
        ctx.fail(`${where} shows the plaintext secret that create returned (${shown})`);
      } finally {
        await deleteQuietly(api, other.id);
      }
    } finally {
      await deleteQuietly(api, c.id);
    }
  },
);

export const resetSecret = check(
  {
    id: 'cloud.oauth-clients.reset-secret-new',
    title: 'reset-secret answers a new plaintext secret, not the old one',
    protocol: 'cloud',
    section,
    level: 'MUST',
    spec: { file, line: 107, quote: '-> OAuth client with new plaintext secret; old secret expires immediately' },
    touches: ['DELETE /account/oauth-clients/{clientId}', 'POST /account/oauth-clients', 'POST /account/oauth-clients/{clientId}/reset-secret'],
    faults: ['oauth-reset-same-secret', 'oauth-reset-redacted'],
    tags: ['destructive'],
  },
  async (ctx) => {
    const api = ctx.cloud.as('unrestricted');
    const c = await createClient(ctx, api, 'reset');
    try {
      const what = `POST /v4${CLIENTS}/{clientId}/reset-secret`;
      const res = await api.post(`${CLIENTS}/${encodeURIComponent(c.id)}/reset-secret`);
      expectStatus(res, 200, what);
      expectShape(res, 'oauthClient', what);
      const secret = (res.json as { secret?: unknown }).secret;
      ctx.expect(typeof secret === 'string' && secret.length > 0, `${what}: expected the new plaintext secret, got ${show(secret)}`);
      ctx.expect(secret !== c.secret, `${what}: answered the secret returned on create again; the old secret expires immediately`);
      // A placeholder ("<REDACTED>") differs from the create's secret too: a second reset must
      // answer a secret that differs again, as each new secret does.
      const again = await api.post(`${CLIENTS}/${encodeURIComponent(c.id)}/reset-secret`);
      expectStatus(again, 200, `${what} (a second time)`);
      const second = (again.json as { secret?: unknown } | undefined)?.secret;
      ctx.expect(typeof second === 'string' && second.length > 0 && second !== secret && second !== c.secret, `${what} (a second time): expected another new plaintext secret, got ${show(second)} (the first reset answered ${show(secret)}): the same value twice is no new secret but a placeholder`);
    } finally {
      await deleteQuietly(api, c.id);
    }
  },
);

export const updateFields = check(
  {
    id: 'cloud.oauth-clients.update',
    title: 'PUT of an OAuth client changes the fields it sends',
    protocol: 'cloud',
    section,
    level: 'MUST',
    spec: { file, line: 105, quote: '| PUT | /account/oauth-clients/{clientId} | account:read_write | fields to change -> OAuth client |' },
    touches: ['DELETE /account/oauth-clients/{clientId}', 'GET /account/oauth-clients/{clientId}', 'POST /account/oauth-clients', 'PUT /account/oauth-clients/{clientId}'],
    faults: ['oauth-put-ignored'],
    tags: ['destructive'],
  },
  async (ctx) => {
    const api = ctx.cloud.as('unrestricted');
    const c = await createClient(ctx, api, 'update');
    try {
      const label = uniqueLabel('renamed');
      const what = `PUT /v4${CLIENTS}/{clientId} {"label":"${label}"}`;
      const res = await api.put(`${CLIENTS}/${encodeURIComponent(c.id)}`, { label });
      expectStatus(res, 200, what);
      expectShape(res, 'oauthClient', what);
      const view = await api.get(`${CLIENTS}/${encodeURIComponent(c.id)}`);
      // A view not served (404) is inconclusive: the change cannot be read back.
      expectStatus(view, 200, `GET /v4${CLIENTS}/{clientId} after ${what}`);
      const now = (view.json as { label?: unknown } | undefined)?.label;
      ctx.expect(now === label, `GET /v4${CLIENTS}/{clientId} after ${what}: label is ${show(now)}`);
    } finally {
      await deleteQuietly(api, c.id);
    }
  },
);

export const deleteClient = check(
  {
    id: 'cloud.oauth-clients.delete',
    title: 'DELETE of an OAuth client answers {}, and the client is gone (404)',
    protocol: 'cloud',
    section,
    level: 'MUST',
    spec: { file, line: 106, quote: '-> {}; client id and secret stop being accepted, all tokens issued to it are invalidated' },
    touches: ['DELETE /account/oauth-clients/{clientId}', 'GET /account/oauth-clients/{clientId}', 'POST /account/oauth-clients'],
    faults: ['oauth-delete-noop', 'delete-answers-text'],
    tags: ['destructive'],
  },
  async (ctx) => {
    const api = ctx.cloud.as('unrestricted');
    const c = await createClient(ctx, api, 'delete');
    const path = `${CLIENTS}/${encodeURIComponent(c.id)}`;
    // The positive control: the view finds the client before the delete, so a 404 after it is the
    // client gone, not the view not served.
    try {
      await ctx.setup(`GET /v4${CLIENTS}/{clientId} of the client just created (the positive control)`, async () => expectStatus(await api.get(path), 200, `GET /v4${CLIENTS}/{clientId} of the client just created`));
    } catch (err) {
      await deleteQuietly(api, c.id);
      throw err;
    }
    const del = await api.delete(path);
    expectStatus(del, 200, `DELETE /v4${CLIENTS}/{clientId}`);
    // "-> {}": a JSON object (fields beyond it are not judged).
    ctx.expect(isJsonObject(del), `DELETE /v4${CLIENTS}/{clientId}: expected {}, got ${brief(del)}`);
    expectStatus(await api.get(path), 404, `GET /v4${CLIENTS}/{clientId} after DELETE answered`);
  },
);

/** A 1x1 PNG. */
const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==', 'base64');

export const thumbnailPublic = check(
  {
    id: 'cloud.oauth-clients.thumbnail-public-png',
    title: 'A thumbnail PUT as image/png is served without a token as image/png',
    protocol: 'cloud',
    section,
    level: 'MUST',
    spec: { file, line: 109, quote: 'body image/png binary (publicly viewable afterwards) -> {}' },
    touches: ['DELETE /account/oauth-clients/{clientId}', 'GET /account/oauth-clients/{clientId}/thumbnail', 'POST /account/oauth-clients', 'PUT /account/oauth-clients/{clientId}/thumbnail'],
    faults: ['thumbnail-needs-token', 'thumbnail-not-png'],
    tags: ['destructive'],
  },
  async (ctx) => {
    const api = ctx.cloud.as('unrestricted');
    const c = await createClient(ctx, api, 'thumb');
    try {
      const path = `${CLIENTS}/${encodeURIComponent(c.id)}/thumbnail`;
      const put = await api.request('PUT', path, { body: PNG, headers: { 'content-type': 'image/png' } });
      expectStatus(put, 200, `PUT /v4${CLIENTS}/{clientId}/thumbnail (image/png, ${PNG.length} bytes)`);
      const what = `GET /v4${CLIENTS}/{clientId}/thumbnail without Authorization`;
      // The thumbnail is image/png (line 108): the request accepts that type.
      const res = await ctx.cloud.anonymous().get(path, { headers: { accept: 'image/png' } });
      expectStatus(res, 200, what);
      const type = res.headers['content-type'] ?? '';
      ctx.expect(type.split(';')[0].trim().toLowerCase() === 'image/png', `${what}: expected Content-Type image/png, got ${show(type)}`);
      // "publicly viewable afterwards": a PNG is served; the same bytes are not stated (a server may re-encode it).
      ctx.expect(res.bytes.subarray(0, 8).equals(PNG.subarray(0, 8)), `${what}: the body (${res.bytes.length} bytes) is not a PNG image (no PNG signature)`);
    } finally {
      await deleteQuietly(api, c.id);
    }
  },
);

export const resetSecretEndsOld = check(
  {
    id: 'cloud.oauth-clients.reset-secret-ends-old-secret',
    title: 'After reset-secret the token URL refuses the old secret at once',
    protocol: 'cloud',
    section,
    level: 'MUST',
    spec: { file, line: 107, quote: '-> OAuth client with new plaintext secret; old secret expires immediately' },
    touches: ['DELETE /account/oauth-clients/{clientId}', 'GET /oauth/authorize', 'POST /account/oauth-clients', 'POST /account/oauth-clients/{clientId}/reset-secret', 'POST /oauth/token'],
    faults: ['oauth-old-secret-kept', 'oauth-reset-revokes-keeps-old-secret'],
    tags: ['destructive'],
  },
  async (ctx) => {
    await withOAuthClient(ctx, 'reset', async (c) => {
      // The positive control before the reset: a code is exchanged with the secret (the token URL works).
      await exchangedPair(ctx, c);
      const client = c;
      const resetWhat = `POST /v4${CLIENTS}/{clientId}/reset-secret`;
      const fresh = await ctx.setup(resetWhat, async () => {
        const res = await ctx.cloud.as('unrestricted').post(`${CLIENTS}/${encodeURIComponent(client.id)}/reset-secret`);
        expectStatus(res, 200, resetWhat);
        const secret = (res.json as { secret?: unknown } | undefined)?.secret;
        if (typeof secret !== 'string' || !secret || secret === client.secret) return ctx.fail(`${resetWhat}: no new plaintext secret: ${brief(res)}`);
        return secret;
      }, { seeAlso: 'cloud.oauth-clients.reset-secret-new' });
      // The old secret is probed with a code issued after the reset: a refresh token issued before
      // it may be revoked by the reset, and would be refused for that whatever the secret.
      const code = await authorizationCode(ctx, c);
      const what = `POST {auth_url}/oauth/token client_id, client_secret, code (a code issued after the reset) with the secret ${resetWhat} replaced`;
      const res = await tokenRequest(ctx, { client_id: c.id, client_secret: c.secret, code });
      ctx.expect(refused(res), `${what}: expected a refusal (4xx, no tokens), got ${brief(res)}`);
      // The positive control: another code issued after the reset is exchanged with the new secret,
      // so the refusal above was for the old secret, not for the codes or the client.
      const control = `POST {auth_url}/oauth/token client_id, client_secret, code with the new secret (another code issued after the reset)`;
      await ctx.setup(`${control} (the positive control)`, async () => {
        const next = await authorizationCode(ctx, c);
        const now = await tokenRequest(ctx, { client_id: c.id, client_secret: fresh, code: next });
        expectStatus(now, 200, control);
        if (typeof pairOf(now).access_token !== 'string') ctx.fail(`${control}: no access_token: ${brief(now)}`);
      }, { seeAlso: 'cloud.authentication.oauth-code-exchange' });
    });
  },
);

export const deleteEndsTokens = check(
  {
    id: 'cloud.oauth-clients.delete-ends-tokens',
    title: 'Deleting an OAuth client invalidates the access tokens issued to it (401) and its id and secret',
    protocol: 'cloud',
    section,
    level: 'MUST',
    spec: { file, line: 106, quote: 'client id and secret stop being accepted, all tokens issued to it are invalidated' },
    touches: ['DELETE /account/oauth-clients/{clientId}', 'GET /account', 'GET /oauth/authorize', 'POST /account/oauth-clients', 'POST /oauth/token'],
    faults: ['oauth-delete-keeps-tokens', 'oauth-deleted-client-credentials-kept'],
    tags: ['destructive'],
  },
  async (ctx) => {
    const c = await oauthClient(ctx, 'delete-tokens');
    let deleted = false;
    try {
      const pair = await exchangedPair(ctx, c);
      await ctx.setup('GET /v4/account with the access token issued to the client (before the delete)', async () => expectStatus(await withAccessToken(ctx, pair.access_token), 200, 'GET /v4/account with the access token issued to the client'), { seeAlso: 'cloud.authentication.oauth-code-exchange' });
      const delWhat = `DELETE /v4${CLIENTS}/{clientId}`;
      await ctx.setup(delWhat, async () => expectStatus(await ctx.cloud.as('unrestricted').delete(`${CLIENTS}/${encodeURIComponent(c.id)}`), 200, delWhat), { seeAlso: 'cloud.oauth-clients.delete' });
      deleted = true;
      expectStatus(await withAccessToken(ctx, pair.access_token), 401, `GET /v4/account with an access token issued to the client, after ${delWhat}`);
      const what = `POST {auth_url}/oauth/token grant_type=refresh_token with the client's id and secret, after ${delWhat}`;
      const res = await tokenRequest(ctx, { grant_type: 'refresh_token', client_id: c.id, client_secret: c.secret, refresh_token: pair.refresh_token });
      // A rate limit (429) or a media-type refusal is no refusal of the deleted client's credentials.
      notAboutTheRule(res, what);
      ctx.expect(refused(res), `${what}: expected a refusal (4xx, no tokens), got ${brief(res)}`);
    } finally {
      if (!deleted) await removeClient(ctx, c);
    }
  },
);

export const neverExisted404 = check(
  {
    id: 'cloud.oauth-clients.never-existed-404',
    title: 'GET, PUT and DELETE of an OAuth client that never existed answer 404',
    protocol: 'cloud',
    section: 'Errors',
    level: 'MUST',
    spec: { file, line: 214, quote: '| 404 | resource does not exist |' },
    touches: ['DELETE /account/oauth-clients/{clientId}', 'GET /account/oauth-clients/{clientId}', 'POST /account/oauth-clients', 'PUT /account/oauth-clients/{clientId}'],
    faults: ['put-unknown-oauth-client-200'],
    tags: ['destructive'],
  },
  async (ctx) => {
    const api = ctx.cloud.as('unrestricted');
    // The positive control: a client of the check's own is found on the same route.
    const c = await createClient(ctx, api, 'exists');
    try {
      await ctx.setup(`GET /v4${CLIENTS}/{clientId} of the client just created (the positive control)`, async () => expectStatus(await api.get(`${CLIENTS}/${encodeURIComponent(c.id)}`), 200, `GET /v4${CLIENTS}/{clientId} of the client just created`));
      const gone = randomBytes(10).toString('hex');
      expectNotFound(await api.get(`${CLIENTS}/${gone}`), `GET /v4${CLIENTS}/${gone} (no client has this id)`);
      expectNotFound(await api.put(`${CLIENTS}/${gone}`, { label: uniqueLabel('never') }), `PUT /v4${CLIENTS}/${gone} {"label":…} (no client has this id)`);
      expectNotFound(await api.delete(`${CLIENTS}/${gone}`), `DELETE /v4${CLIENTS}/${gone} (no client has this id)`);
    } finally {
      await deleteQuietly(api, c.id);
    }
  },
);

export const checks = [neverExisted404, createRequiresLabelAndRedirect, privateByDefault, secretOnlyOnCreate, resetSecret, updateFields, deleteClient, thumbnailPublic, resetSecretEndsOld, deleteEndsTokens];
