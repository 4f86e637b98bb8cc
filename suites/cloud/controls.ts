// Helpers of the CLOUD checks of part 2 (OAuth clients, payment methods, payments, promo codes,
// service transfers, users, managed databases, authentication): positive controls, page walks
// that check the envelope before anything is concluded from them, and the 404 of line 214 for a
// resource that never existed.
import type { HttpResponse } from '../../src/clients/http/client.ts';
import type { CallOptions, CloudCaller } from '../../src/clients/cloud/session.ts';
import type { CheckContext, CloudCheckContext } from '../../src/core/check.ts';
import { CheckFailure } from '../../src/core/errors.ts';
import { brief, expectRefused, expectShape, expectStatus, notAboutTheRule, show, type ListEnvelope } from './support.ts';

/**
 * Every item of a list, page by page at the default page size, up to `maxPages` pages. Each page
 * must be the envelope of the page asked for (line 28): page equal to the page sent, the same
 * `pages` and `results` on every page, no more items than `results`; a page that is not is a
 * CheckFailure (the caller wraps the walk in ctx.setup where the list is not its rule). A 429 or
 * a list longer than `maxPages` pages ends the check inconclusive: the walk was not complete.
 */
export async function walkPages(ctx: CheckContext, caller: CloudCaller, path: string, what: string, opts: CallOptions = {}, maxPages = 50): Promise<Record<string, unknown>[]> {
  const rows: Record<string, unknown>[] = [];
  let first: ListEnvelope | undefined;
  for (let page = 1; ; page++) {
    const pageWhat = `${what} (page ${page})`;
    const res = await caller.get(path, { ...opts, query: { ...opts.query, page } });
    notAboutTheRule(res, pageWhat);
    expectStatus(res, 200, pageWhat);
    expectShape(res, 'listEnvelope', pageWhat);
    const list = res.json as ListEnvelope;
    if (list.page !== page) throw new CheckFailure(`${pageWhat}: the envelope says page ${show(list.page)}, not the page asked for`);
    if (first && (list.pages !== first.pages || list.results !== first.results)) throw new CheckFailure(`${pageWhat}: pages ${list.pages} and results ${list.results}, but page 1 said pages ${first.pages} and results ${first.results}`);
    first ??= list;
    for (const row of list.data) rows.push(row);
    if (rows.length > list.results) throw new CheckFailure(`${pageWhat}: ${rows.length} items on pages 1 to ${page}, more than results ${list.results}`);
    if (page >= list.pages) return rows;
    if (page >= maxPages) return ctx.inconclusive(`${what}: the list has ${list.pages} pages; only ${maxPages} were read (the budget of this check), so the walk is not complete`);
  }
}

/**
 * The 404 of line 214 for a resource that does not exist. The caller has already seen an
 * existing resource found on the same route (the positive control), so a 404 here is a verdict on
 * existence, never "route not served".
 */
export function expectNotFound(res: HttpResponse, what: string): void {
  notAboutTheRule(res, what);
  if (res.status !== 404) throw new CheckFailure(`${what}: "| 404 | resource does not exist |", got ${brief(res)}`);
}

/**
 * A refusal of a request about a resource seen to exist (or on a route seen served): a 404 counts
 * as the refusal here (the rule is about visibility or a route not served), any other 4xx must come
 * with the error body.
 */
export function expectRefusedOr404(res: HttpResponse, what: string): void {
  notAboutTheRule(res, what);
  if (res.status === 404) return;
  expectRefused(res, what);
}

/**
 * The positive control of a refusal: the same route serves a valid request (status in `ok`).
 * Anything else ends the check inconclusive, naming `owner` (the check owning that answer).
 */
export async function routeServes(ctx: CloudCheckContext, what: string, send: () => Promise<HttpResponse>, ok: number | number[] = 200, owner?: string): Promise<HttpResponse> {
  return ctx.setup(`${what} (the positive control: the route serves a valid request)`, async () => {
    const res = await send();
    expectStatus(res, ok, what);
    return res;
  }, owner ? { seeAlso: owner } : undefined);
}
