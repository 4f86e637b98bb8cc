// Helpers of the CLOUD checks of part 2 (OAuth clients, payment methods, payments, promo codes,
// service transfers, users, managed databases, authentication): positive controls, page walks
// that check the envelope before anything is concluded from them, and the 404 of line 214 for a
// resource that never existed.
import type { HttpResponse } from '../../src/clients/http/client.ts';
import type { CallOptions, CloudCaller } from '../../src/clients/cloud/session.ts';
import type { CheckContext } from '../../src/core/check.ts';
import { CheckFailure } from '../../src/core/errors.ts';
import { brief, expectRefused, listAll, notAboutTheRule } from './support.ts';

/**
 * Every item of a list: support.ts listAll (every page at the default page size, the envelope's
 * own consistency checked, re-read when other activity moves it, inconclusive when a budget stops
 * the walk or the pages do not agree), with a 429 on any page ending the check inconclusive (a
 * rate limit is no verdict on the list or on the rule it was read for).
 */
export async function walkPages(_ctx: CheckContext, caller: CloudCaller, path: string, what: string, opts: CallOptions = {}, maxPages = 50): Promise<Record<string, unknown>[]> {
  const limited = {
    get: async (p: string, o?: CallOptions) => {
      const res = await caller.get(p, o);
      notAboutTheRule(res, `${what} (${p})`);
      return res;
    },
  } as unknown as CloudCaller;
  return listAll(limited, path, what, opts, maxPages);
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
