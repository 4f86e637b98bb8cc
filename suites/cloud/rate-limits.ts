// Rate limits, section "Limits" of cloud-api.md. These checks send a burst and are tagged
// `load`: they run only against targets that opt in.
import type { HttpResponse } from '../../src/clients/http/client.ts';
import { check, type CloudCheckContext } from '../../src/core/check.ts';
import { brief, expectRefused } from './support.ts';

const section = 'Limits';
const file = 'cloud-api.md';
/** "every endpoint 800 requests per minute unless stated" */
const ENDPOINT_LIMIT = 800;
const ENDPOINT = '/account/notifications';

/** Requests one endpoint until a 429 or one past the documented per-endpoint limit. */
async function burst(ctx: CloudCheckContext): Promise<{ limited?: HttpResponse; sent: number }> {
  // The read-only token: a burst does not eat the window of the token other checks use.
  const api = ctx.cloud.as('readOnly');
  const batch = 50;
  for (let sent = 0; sent <= ENDPOINT_LIMIT; sent += batch) {
    const n = Math.min(batch, ENDPOINT_LIMIT + 1 - sent);
    const responses = await Promise.all(Array.from({ length: n }, () => api.get(ENDPOINT)));
    const limited = responses.find((r) => r.status === 429);
    if (limited) return { limited, sent: sent + n };
    if (ctx.signal.aborted) break;
  }
  return { sent: ENDPOINT_LIMIT + 1 };
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
    const { limited, sent } = await burst(ctx);
    ctx.expect(limited, `${sent} requests to GET /v4${ENDPOINT} within a minute, none answered 429 (the limit is ${ENDPOINT_LIMIT} per minute)`);
    expectRefused(limited!, `the 429 answer to GET /v4${ENDPOINT}`);
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
    if (!limited) ctx.skip(`no 429 after ${sent} requests (the check cloud.limits.excess-requests-429 reports that)`);
    const h = limited!.headers;
    for (const name of ['x-ratelimit-limit', 'x-ratelimit-remaining', 'x-ratelimit-reset', 'retry-after']) {
      ctx.expect(h[name] !== undefined, `429 answer lacks the ${name} header: ${brief(limited!)}`);
      ctx.expect(/^\d+$/.test(h[name]), `429 answer: ${name} is ${JSON.stringify(h[name])}, expected a number of ${name === 'x-ratelimit-reset' ? 'epoch seconds' : name === 'retry-after' ? 'seconds' : 'requests'}`);
    }
  },
);

export const checks = [excessRequests429, rateLimitHeaders];
