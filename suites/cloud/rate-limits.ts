// Rate limits, section "Limits" of cloud-api.md. These checks send a burst and are tagged
// `load`: they run only against targets that opt in.
import type { HttpResponse } from '../../src/clients/http/client.ts';
import { check, type CloudCheckContext } from '../../src/core/check.ts';
import { brief, envelope, expectStatus, notAboutTheRule } from './support.ts';
import { exchangedPair, oauthClient, removeClient, type OAuthTestClient } from './oauth-support.ts';
import { TRANSFERS, cancelQuietly, createTransfer, type Created } from './service-transfers.ts';

const section = 'Limits';
const file = 'cloud-api.md';
/** "every endpoint 800 requests per minute unless stated" */
const ENDPOINT_LIMIT = 800;
const ENDPOINT = '/account/notifications';

/** The window of the per-endpoint limit ("per minute"). */
const WINDOW_MS = 60_000;
/**
 * Requests sent at most: a burst may straddle two windows, and twice the limit plus two within
 * one window's time puts more than the limit into one of them, wherever the windows start.
 */
const MAX_SENT = 2 * ENDPOINT_LIMIT + 2;

/** Requests one endpoint until the first 429, or MAX_SENT requests. */
async function burst(ctx: CloudCheckContext): Promise<{ limited?: HttpResponse; sent: number; ms: number }> {
  // The read-only token: a burst does not eat the window of the token other checks use.
  const api = ctx.cloud.as('readOnly');
  const batch = 50;
  const started = Date.now();
  let sent = 0;
  while (sent < MAX_SENT && !ctx.signal.aborted) {
    const n = Math.min(batch, MAX_SENT - sent);
    const responses = await Promise.all(Array.from({ length: n }, () => api.get(ENDPOINT)));
    sent += n;
    const limited = responses.find((r) => r.status === 429);
    if (limited) return { limited, sent, ms: Date.now() - started };
  }
  return { sent, ms: Date.now() - started };
}

export const excessRequests429 = check(
  {
    id: 'cloud.limits.excess-requests-429',
    title: 'More than 800 requests a minute to one endpoint get 429',
    protocol: 'cloud',
    section,
    level: 'MUST',
    spec: { file, line: 224, quote: 'Excess requests get 429 until the window resets' },
    touches: ['GET /account/notifications'],
    faults: ['no-rate-limit'],
    tags: ['load'],
  },
  async (ctx) => {
    // Positive control: the endpoint is served (a burst of 404s to a route the server lacks says
    // nothing of its limits).
    const first = await ctx.cloud.as('readOnly').get(ENDPOINT);
    // A 429 at once proves nothing about the limit (a server refusing everything with 429 would
    // pass): the window was spent already, by an earlier run or another client; run again later.
    if (first.status === 429) return ctx.inconclusive(`GET /v4${ENDPOINT} was answered 429 at once: the window was spent already (an earlier run?), so the limit could not be counted from its start; run again after ${first.headers['retry-after'] ?? 'the window'} s`);
    await ctx.setup(`GET /v4${ENDPOINT} (the endpoint the burst goes to is served)`, () => envelope(first, `GET /v4${ENDPOINT}`), { seeAlso: 'cloud.account.notifications-list' });
    const { limited, sent, ms } = await burst(ctx);
    // Its body is not judged: limits may also be applied outside the API (line 231).
    if (limited) return ctx.note(`the first 429 came after ${sent} requests (sent in batches of 50) to GET /v4${ENDPOINT} in ${ms} ms`);
    if (ms > WINDOW_MS) return ctx.inconclusive(`${sent} requests to GET /v4${ENDPOINT} took ${ms} ms, longer than the window of a minute: the limit was not reached within one`);
    ctx.fail(`${sent} requests to GET /v4${ENDPOINT} in ${ms} ms (more than ${ENDPOINT_LIMIT} within one minute, wherever its window starts), none answered 429 (the limit is ${ENDPOINT_LIMIT} per minute)`);
  },
);

export const rateLimitHeaders = check(
  {
    id: 'cloud.limits.rate-limit-headers',
    title: 'A 429 answer carries X-RateLimit-Limit, -Remaining, -Reset and Retry-After',
    protocol: 'cloud',
    section,
    level: 'SHOULD',
    spec: { file, line: 232, quote: 'Rate-limit response headers: `X-RateLimit-Limit` (maximum in window), `X-RateLimit-Remaining`' },
    touches: ['GET /account/notifications'],
    faults: ['rate-limit-no-headers'],
    tags: ['load'],
  },
  async (ctx) => {
    const { limited, sent } = await burst(ctx);
    if (!limited) return ctx.inconclusive(`no 429 after ${sent} requests to GET /v4${ENDPOINT}: no rate-limited answer to read the headers of`, { seeAlso: 'cloud.limits.excess-requests-429' });
    const h = limited!.headers;
    for (const name of ['x-ratelimit-limit', 'x-ratelimit-remaining', 'x-ratelimit-reset', 'retry-after']) {
      ctx.expect(h[name] !== undefined, `429 answer lacks the ${name} header: ${brief(limited!)}`);
      ctx.expect(/^\d+$/.test(h[name]), `429 answer: ${name} is ${JSON.stringify(h[name])}, expected a number of ${name === 'x-ratelimit-reset' ? 'epoch seconds' : name === 'retry-after' ? 'seconds' : 'requests'}`);
    }
  },
);

export const acceptTwoPerMinute = check(
  {
    id: 'cloud.limits.accept-transfer-2-per-minute',
    title: 'A third service transfer accept within a minute gets 429',
    protocol: 'cloud',
    section,
    level: 'MUST',
    spec: { file, line: 230, quote: 'Accepting a service transfer: 2 per minute.' },
    touches: ['DELETE /account/oauth-clients/{clientId}', 'DELETE /account/service-transfers/{token}', 'GET /account/service-transfers', 'GET /oauth/authorize', 'POST /account/oauth-clients', 'POST /account/service-transfers', 'POST /account/service-transfers/{token}/accept', 'POST /oauth/token'],
    faults: ['accept-limit-missing'],
    tags: ['destructive'],
  },
  async (ctx) => {
    // Limits are per user, "OAuth token for authenticated requests" (line 224): account B accepts
    // with an OAuth token of its own, so the accepts of the other checks of the run (made with
    // tokens.otherAccount) neither count here nor are refused for this check's.
    let c: OAuthTestClient | undefined;
    const transfers: Created[] = [];
    try {
      c = await oauthClient(ctx, 'accept-limit');
      const pair = await exchangedPair(ctx, c, { role: 'otherAccount', scope: 'account:read_write' });
      const b = ctx.cloud.withToken(pair.access_token, 'OAUTH_ACCESS');
      for (let i = 0; i < 3; i++) transfers.push(await createTransfer(ctx));
      const accept = (t: Created) => b.post(`${TRANSFERS}/${encodeURIComponent(t.token)}/accept`);
      const started = Date.now();
      for (const [i, t] of transfers.slice(0, 2).entries()) {
        const what = `POST /v4${TRANSFERS}/{token}/accept by account B (accept ${i + 1} of 3, a fresh OAuth token)`;
        await ctx.setup(what, async () => expectStatus(await accept(t), 200, what), { seeAlso: 'cloud.transfers.accepted-visible-to-both-accounts' });
      }
      const what = `POST /v4${TRANSFERS}/{token}/accept by account B (accept 3 of 3, ${Date.now() - started} ms after the first)`;
      const third = await accept(transfers[2]);
      if (third.status !== 429 && Date.now() - started > WINDOW_MS) return ctx.inconclusive(`${what}: answered ${third.status}, but more than a minute after the first: the window may have reset`);
      if (third.status === 406 || third.status === 415) notAboutTheRule(third, what);
      expectStatus(third, 429, `${what}: "2 per minute"`);
    } finally {
      for (const t of transfers) await cancelQuietly(ctx, t.token);
      await removeClient(ctx, c);
    }
  },
);

export const checks = [excessRequests429, rateLimitHeaders, acceptTwoPerMinute];
