// Rate limits, section "Limits" of cloud-api.md. These checks send a burst and are tagged
// `load`: they run only against targets that opt in.
import type { HttpResponse } from '../../src/clients/http/client.ts';
import { check, type CloudCheckContext } from '../../src/core/check.ts';
import { brief } from './support.ts';

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
    faults: ['no-rate-limit'],
    tags: ['load'],
  },
  async (ctx) => {
    const { limited, sent, ms } = await burst(ctx);
    if (limited) return; // (its body is not judged: limits may also be applied outside the API, line 231)
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

export const checks = [excessRequests429, rateLimitHeaders];
