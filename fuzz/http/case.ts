// An HTTP fuzz case is one request: method, path under the target's base URL, query, headers and
// the exact body text. Credentials are not part of it (the driver adds the configured role's
// Authorization header), so finding files never hold a secret, and replay uses the config's.
export interface HttpCase {
  method: 'GET' | 'POST' | 'PUT' | 'DELETE';
  /**
   * May hold a scratch placeholder (kinds.ts SCRATCH_PLACEHOLDERS, e.g. `{scratch-oauth-client}`):
   * the driver sends the case to the campaign's own scratch object, whose id the target chose.
   */
  path: string;
  /** The route as the document writes it (`/v4/account/users/{username}`): findings bucket by it. */
  route: string;
  query?: Record<string, string>;
  headers?: Record<string, string>;
  body?: string;
  /** A readable view of what was generated (which mutation), for finding files. */
  note?: unknown;
  /** A stateful chain of requests (sequence.ts, build-sequence.ts): the driver runs it step by step instead of the one request. */
  chain?: import('./sequence.ts').ChainSpec | import('./build-sequence.ts').BuildChainSpec;
  /** A step of a chain sent as another role of the target's config than the campaign's (its credentials are the config's, never the case's). */
  role?: HttpRole;
}

/** Roles a chain may act as besides the campaign's: CLOUD tokens.otherAccount (account B) and tokens.restricted. */
export type HttpRole = 'otherAccount' | 'restricted';

/** Cases are plain JSON already; a copy keeps stored cases apart from live ones. */
export function serializeHttpCase(c: HttpCase): HttpCase {
  return JSON.parse(JSON.stringify(c)) as HttpCase;
}

export function deserializeHttpCase(data: unknown): HttpCase {
  const c = data as Partial<HttpCase>;
  if (!c || typeof c.method !== 'string' || typeof c.path !== 'string' || typeof c.route !== 'string') throw new Error('not an HTTP fuzz case (method, path and route needed)');
  return c as HttpCase;
}
