// Positive controls of the BUILD checks of build results, workers and control, search, the
// published tree, statistics and status messages, status checks and staging. The document states
// no error format and almost no status codes (line 180), so a refusal is "not a 2xx"
// (support.ts expectNot2xx); an answer that says the route does not exist never passes or fails a
// rule about that route: a 404 (what a server answers for a route it does not serve, or for a
// thing that does not exist), or the build service's own "unknown request" (Open Build Service
// 2.9 answers an unknown route with 400 `<status code="400"><summary>unknown request</summary>`).
import type { BuildResponse } from '../../src/clients/build/session.ts';
import { CheckInconclusive } from '../../src/core/errors.ts';
import { attr, rootOf } from '../../src/clients/xml.ts';
import { isBuildResultCode } from '../../src/clients/build/result-codes.ts';
import { brief, expect2xx as expectSuccess } from './support.ts';

/** The answer says the route is not served here, or that what it names does not exist. */
export function notServed(res: BuildResponse): boolean {
  if (res.status === 404) return true;
  return res.status === 400 && /unknown request/i.test(res.text);
}

/**
 * Ends the check as inconclusive when the answer says the route is not served (notServed): the
 * rule could not be tested here. Returns the answer otherwise.
 */
export function served(res: BuildResponse, what: string, seeAlso?: string): BuildResponse {
  if (notServed(res)) {
    throw new CheckInconclusive(`${what}: answered ${brief(res)}: the route is not served here (or what it names does not exist), so the rule could not be tested`, { seeAlso });
  }
  return res;
}

/** support.ts expect2xx, but inconclusive where the route is not served (served). */
export function expect2xx(res: BuildResponse, what: string): BuildResponse {
  return expectSuccess(served(res, what), what);
}

/** The root element's name of an XML body ('' for none). */
export const rootName = (res: BuildResponse): string => rootOf(res.xml)?.name ?? '';

/**
 * A collection, as the search routes return them (section heading of lines 133-137: "return
 * collections"): the build service writes `<collection>`.
 */
export const isCollection = (res: BuildResponse): boolean => res.status >= 200 && res.status <= 299 && rootName(res) === 'collection';

/**
 * A bare status answer: the build service's `<status code="…">` with which it acknowledges a
 * command or reports an error, not a document about a package (a package's `_status` is a
 * `<status>` too, but its code is a build result code of line 47).
 */
export function isAck(res: BuildResponse): boolean {
  const root = rootOf(res.xml);
  if (!root || root.name !== 'status') return false;
  const code = attr(root.node, 'code');
  return !code || !isBuildResultCode(code);
}
