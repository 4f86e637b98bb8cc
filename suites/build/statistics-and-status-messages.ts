// Section "Statistics and status messages" of build-service-api.md, with its lines of "Limits"
// and "Authentication". The document does not show who holds the permissions it mentions; the
// checks use the `privileged` user of the config as the one who does, `user` as one who does not.
import { check, type BuildCheckContext } from '../../src/core/check.ts';
import type { BuildCaller, BuildResponse } from '../../src/clients/build/session.ts';
import { randomBytes } from 'node:crypto';
import { attr, rootOf, type XmlNode } from '../../src/clients/xml.ts';
import { backgroundLeft, brief, expectNot2xx, expectServed, rereadUntil, served } from './support.ts';

const section = 'Statistics and status messages';
const file = 'build-service-api.md';

/** The direct child elements of a result's root element (its entries, whatever they are called). */
function entries(res: BuildResponse): XmlNode[] {
  const root = rootOf(res.xml)?.node;
  if (!root || typeof root !== 'object') return [];
  return Object.entries(root)
    .filter(([k]) => !k.startsWith('@') && k !== '#text')
    .flatMap(([, v]) => (Array.isArray(v) ? v : [v]))
    .map((v) => (typeof v === 'object' && v !== null ? (v as XmlNode) : { '#text': v }));
}

const messageBody = (marker: string) => `<status_message><message>${marker}</message><severity>information</severity></status_message>`;

/** The id of the listed status message holding `marker`, if listed. */
async function findMessage(caller: BuildCaller, marker: string): Promise<string | undefined> {
  const res = expectServed(await caller.get('/status/messages/'), 'GET /status/messages/');
  const hit = entries(res).find((e) => JSON.stringify(e).includes(marker));
  // The document says only "id": the build service writes `msg_id`, others may write `id`.
  return hit ? attr(hit, 'id') ?? attr(hit, 'msg_id') ?? '' : undefined;
}

/** postMessage as a set-up step (of checks that test something else). */
const setupMessage = (ctx: BuildCheckContext, marker: string) => ctx.setup(`post a status message as the privileged user`, () => postMessage(ctx, marker), { seeAlso: 'build.status-messages.post-needs-permission' });

/** Posts a status message as the privileged user; returns its id. Deleted by the caller. */
async function postMessage(ctx: BuildCheckContext, marker: string): Promise<string> {
  const privileged = ctx.build.as('privileged');
  expectServed(await privileged.post('/status/messages/', { body: messageBody(marker) }), `POST /status/messages/ as the privileged user (${marker})`);
  const id = await findMessage(privileged, marker);
  ctx.expect(id, `GET /status/messages/: the message ${marker} just posted is not listed with an id`);
  return id!;
}

const marker = () => `conformance status message ${randomBytes(4).toString('hex')}`;

export const postMessageNeedsPermission = check(
  {
    id: 'build.status-messages.post-needs-permission',
    title: 'POST /status/messages/ is refused to an ordinary user and served to a privileged one',
    protocol: 'build',
    section,
    level: 'MUST',
    spec: { file, line: 145, quote: 'POST /status/messages/ (needs permission)' },
    touches: ['DELETE /status/messages/{id}', 'GET /status/messages', 'GET /status/messages/{id}', 'POST /status/messages'],
    faults: ['status-messages-open-to-all', 'status-messages-refused-but-posted'],
    tags: ['destructive'],
  },
  async (ctx) => {
    const privileged = ctx.build.as('privileged');
    const mine = marker();
    const byUser = await ctx.build.as('user').post('/status/messages/', { body: messageBody(mine) });
    // A refused POST must post nothing: the listing is watched for the message for the whole
    // background window (a refusal whose message shows up later is caught, rubric 6), unless the
    // POST was let through (that fails below anyway). A message left is taken away again.
    const accepted = byUser.status >= 200 && byUser.status <= 299;
    const leaked = await rereadUntil(ctx, () => findMessage(privileged, mine).catch(() => undefined), (v) => v !== undefined, accepted ? 0 : undefined);
    if (leaked) await privileged.delete(`/status/messages/${leaked}`).catch(() => undefined);
    // A route not served judges nothing; the privileged user's POST below is the positive control.
    served(byUser, 'POST /status/messages/ as an ordinary user');
    const theirs = marker();
    const id = await postMessage(ctx, theirs);
    try {
      expectNot2xx(byUser, 'POST /status/messages/ as an ordinary user (the privileged user\'s POST is served)');
      ctx.expect(leaked === undefined, `POST /status/messages/ as an ordinary user was refused (${brief(byUser)}), but the message was posted all the same: GET /status/messages/ lists it${leaked ? ` (id ${leaked})` : ''}`);
      expectServed(await ctx.build.as('user').get(`/status/messages/${id}`), `GET /status/messages/${id}`);
    } finally {
      await privileged.delete(`/status/messages/${id}`).catch(() => undefined);
    }
  },
);

export const deleteMessageNeedsPermission = check(
  {
    id: 'build.status-messages.delete-needs-permission',
    title: 'DELETE /status/messages/<id> is refused to an ordinary user and removes the message for a privileged one',
    protocol: 'build',
    section,
    level: 'MUST',
    spec: { file, line: 145, quote: 'DELETE /status/messages/<id> (needs permission)' },
    touches: ['DELETE /status/messages/{id}', 'GET /status/messages', 'GET /status/messages/{id}', 'POST /status/messages'],
    faults: ['status-message-delete-open-to-all', 'status-message-delete-refused-but-done'],
    // Its set-up posts a message as the privileged user (build.status-messages.post-needs-permission).
    reliesOn: ['build.status-messages.post-needs-permission'],
    tags: ['destructive'],
  },
  async (ctx) => {
    const privileged = ctx.build.as('privileged');
    // Two messages: the privileged user's DELETE of the first is the positive control (the route
    // serves a DELETE, and it removes the message), the ordinary user's of the second the rule.
    const ids = [await setupMessage(ctx, marker()), await setupMessage(ctx, marker())];
    const [theirs, mine] = ids;
    const read = (id: string) => privileged.get(`/status/messages/${id}`);
    const there = (r: BuildResponse) => r.status >= 200 && r.status <= 299;
    try {
      // Each is found by its id before: a "not found" after a DELETE is then its absence.
      for (const id of ids) await ctx.setup(`read the status message ${id}`, async () => expectServed(await read(id), `GET /status/messages/${id}`), { seeAlso: 'build.status-messages.post-needs-permission' });
      expectServed(await privileged.delete(`/status/messages/${theirs}`), `DELETE /status/messages/${theirs} as the privileged user`);
      // The removal may land in the background (what is left of ctx.timeouts.backgroundMs).
      const removed = await rereadUntil(ctx, () => read(theirs), (r) => !there(r));
      expectNot2xx(removed, `GET /status/messages/${theirs} after the privileged user's DELETE`);
      expectNot2xx(await ctx.build.as('user').delete(`/status/messages/${mine}`), `DELETE /status/messages/${mine} as an ordinary user`);
      // Refused, the DELETE must remove nothing: the message is watched for what is left of the
      // background window (inconclusive when under half of it is left, rubric 6).
      const window = backgroundLeft(ctx);
      const kept = await rereadUntil(ctx, () => read(mine), (r) => !there(r));
      ctx.expect(there(kept), `DELETE /status/messages/${mine} as an ordinary user was refused, but the message was removed all the same: GET answered ${brief(kept)}`);
      if (window < ctx.timeouts.backgroundMs / 2) ctx.inconclusive(`the ordinary user's refused DELETE was watched for ${window} ms only, under half of the ${ctx.timeouts.backgroundMs} ms background window (the privileged user's DELETE took the rest): that it removes nothing later could not be judged`);
    } finally {
      for (const id of ids) await privileged.delete(`/status/messages/${id}`).catch(() => undefined);
    }
  },
);

export const statusMessagesLimit = check(
  {
    id: 'build.status-messages.limit',
    title: 'GET /status/messages/?limit=1 lists at most one message',
    protocol: 'build',
    section: 'Limits',
    level: 'MUST',
    spec: { file, line: 184, quote: '`limit` parameters: requests, search results, statistics and status messages' },
    touches: ['DELETE /status/messages/{id}', 'GET /status/messages', 'POST /status/messages'],
    faults: ['status-messages-limit-ignored'],
    // Its set-up posts a message as the privileged user (build.status-messages.post-needs-permission).
    reliesOn: ['build.status-messages.post-needs-permission'],
    tags: ['destructive'],
  },
  async (ctx) => {
    const privileged = ctx.build.as('privileged');
    const ids = [await setupMessage(ctx, marker()), await setupMessage(ctx, marker())];
    try {
      const res = expectServed(await ctx.build.as('user').get('/status/messages/', { query: { limit: 1 } }), 'GET /status/messages/?limit=1');
      const n = entries(res).length;
      ctx.expect(n === 1, `GET /status/messages/?limit=1 (at least 2 messages exist): expected 1 message, got ${n}`);
    } finally {
      for (const id of ids) await privileged.delete(`/status/messages/${id}`).catch(() => undefined);
    }
  },
);

export const statisticsLimit = check(
  {
    id: 'build.statistics.limit',
    title: 'The /statistics listings return at most `limit` entries',
    protocol: 'build',
    section: 'Limits',
    level: 'MUST',
    spec: { file, line: 184, quote: '`limit` parameters: requests, search results, statistics and status messages' },
    touches: ['GET /statistics/latest_added', 'GET /statistics/latest_updated', 'GET /statistics/most_active_packages', 'GET /statistics/most_active_projects'],
    faults: ['statistics-limit-ignored'],
  },
  async (ctx) => {
    const caller = ctx.build.as('user');
    // Only a listing with more than one entry without the limit can show the limit at work.
    let observed = 0;
    for (const list of ['latest_added', 'latest_updated', 'most_active_projects', 'most_active_packages']) {
      const all = await ctx.setup(`read /statistics/${list} without a limit`, async () => entries(expectServed(await caller.get(`/statistics/${list}`), `GET /statistics/${list}`)).length);
      if (all < 2) continue;
      observed++;
      const res = expectServed(await caller.get(`/statistics/${list}`, { query: { limit: 1 } }), `GET /statistics/${list}?limit=1`);
      const n = entries(res).length;
      ctx.expect(n <= 1, `GET /statistics/${list}?limit=1: expected at most 1 entry, got ${n} (${all} without the limit)`);
    }
    if (!observed) ctx.inconclusive('every /statistics listing holds at most one entry without a limit: a limit of 1 cannot be told from no limit');
  },
);

export const redirectStatsNeedsPermission = check(
  {
    id: 'build.statistics.redirect-stats-needs-permission',
    title: 'PUT /statistics/redirect_stats is refused to an ordinary user',
    protocol: 'build',
    section: 'Authentication',
    level: 'MUST',
    spec: { file, line: 171, quote: 'Some operations require appropriate permissions (statistics redirect' },
    touches: ['PUT /statistics/redirect_stats'],
    faults: ['redirect-stats-open-to-all'],
  },
  async (ctx) => {
    // The same PUT from the privileged user is the positive control: a server that refuses it (or
    // serves no such route) shows nothing by refusing the ordinary user. The document does not
    // show the body (download statistics from the redirector): an empty one is sent by both.
    const put = (role: 'user' | 'privileged') => ctx.build.as(role).put('/statistics/redirect_stats', { body: '', contentType: 'text/plain' });
    const byUser = await put('user');
    const byPrivileged = await put('privileged');
    served(byPrivileged, 'PUT /statistics/redirect_stats as the privileged user');
    if (byPrivileged.status < 200 || byPrivileged.status > 299) ctx.inconclusive(`PUT /statistics/redirect_stats was refused to the privileged user too (${brief(byPrivileged)}): a refusal to the ordinary user shows nothing`);
    expectNot2xx(byUser, 'PUT /statistics/redirect_stats as an ordinary user (the privileged user\'s is accepted)');
  },
);

export const checks = [postMessageNeedsPermission, deleteMessageNeedsPermission, statusMessagesLimit, statisticsLimit, redirectStatsNeedsPermission];
