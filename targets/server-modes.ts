// What the proof matrix (test/meta) makes of an HTTP reference, shared by cloud-ref and build-ref:
// a server that implements nothing or accepts everything, a half-built one that serves only some
// routes, a busy one that answers late, and a recorder of the routes each request reached.
import type { FastifyInstance, FastifyRequest } from 'fastify';

export interface ServerModeOptions {
  /**
   * `do-nothing`: every request answered as not found (404 with the protocol's error body);
   * `accept-all`: every request answered 200 with an empty body of the protocol's type.
   */
  mode?: 'do-nothing' | 'accept-all';
  /**
   * A half-built server: requests to any other route (`GET /account/events/{eventId}`, relative to
   * the protocol's base) are answered as not found, as a server without that route answers.
   */
  onlyRoutes?: readonly string[];
  /** Each answer waits up to this many milliseconds (random): a busy server. */
  latencyMs?: number;
  /** Told the route of each request (as `onlyRoutes` names it; `METHOD /path (no route)` where none matched). */
  onRoute?(route: string): void;
}

export interface CannedAnswer {
  status: number;
  type: string;
  body: string;
}

/** `GET /account/events/{}`: a route with its parameter names dropped, so `:id` and `{eventId}` meet. */
export function routeKey(route: string): string {
  return route.replace(/\{[^}/]*\}|:[A-Za-z_]\w*/g, '{}').replace(/(.)\/$/, '$1');
}

/**
 * The route a request reached, as a check declares it in `touches`: its method and the route's
 * template without `basePrefix` (CLOUD's `/v4` or `/v4beta`).
 */
export function routeOf(req: FastifyRequest, basePrefix?: RegExp): string {
  const template = req.routeOptions.url;
  if (!template) return `${req.method} ${req.url.split('?')[0]} (no route)`;
  return `${req.method} ${basePrefix ? template.replace(basePrefix, '') : template}`.replace(/(.)\/$/, '$1');
}

export function installServerModes(
  app: FastifyInstance,
  options: ServerModeOptions,
  answers: { notFound: CannedAnswer; ok: CannedAnswer; basePrefix?: RegExp },
): void {
  const only = options.onlyRoutes && new Set(options.onlyRoutes.map(routeKey));
  if (!options.mode && !only && !options.latencyMs && !options.onRoute) return;
  app.addHook('onRequest', async (req, reply) => {
    if (options.latencyMs) await new Promise((r) => setTimeout(r, Math.random() * options.latencyMs!));
    const route = routeOf(req, answers.basePrefix);
    options.onRoute?.(route);
    const canned = options.mode === 'accept-all' ? answers.ok : options.mode === 'do-nothing' || (only && !only.has(routeKey(route))) ? answers.notFound : undefined;
    if (canned) return reply.code(canned.status).type(canned.type).send(canned.body);
  });
}
