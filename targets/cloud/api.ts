// The request pipeline of cloud-ref, in the document's terms: bearer tokens (401), OAuth scopes
// and grants (403), rate limits (429 with X-RateLimit-* and Retry-After), the error body,
// pagination and X-Filter. Areas declare their endpoints with `endpoint()` and stay small.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ErrorObject } from 'ajv';
import { cloudValidator, fieldOf, type CloudSchemaName } from '../../src/schemas/cloud.ts';
import type { CloudFault } from './faults.ts';
import type { Account, Token, User, World } from './world.ts';
import { applyFilter, FilterError } from './filter.ts';
import { Refusal } from '../refusal.ts';

export interface ApiErrorItem {
  reason: string;
  field?: string;
}

/** A refusal: status plus the document's error body. */
export class ApiError extends Refusal {
  constructor(
    readonly status: number,
    readonly errors: ApiErrorItem[],
  ) {
    super(errors.map((e) => e.reason).join('; '));
  }
}

export const refuse = (status: number, reason: string, field?: string) => new ApiError(status, [field ? { reason, field } : { reason }]);
export const notFound = (what = 'Not found') => refuse(404, what);

export type Grant = 'read_only' | 'read_write' | 'unrestricted' | 'add_databases' | 'none';

export interface EndpointSpec {
  method: 'GET' | 'POST' | 'PUT' | 'DELETE';
  /** Path after the prefix, with `{param}` placeholders as the document writes them. */
  path: string;
  /** e.g. `account:read_only`; `none` for public endpoints. */
  scope: string;
  grant: Grant;
  /** Prefixes serving it (default both). */
  prefixes?: ('v4' | 'v4beta')[];
  /** Per-window request limit for this endpoint when it differs from the general one. */
  rateLimit?: { limit: number; windowMs: number };
}

export interface Caller {
  token: Token;
  user: User;
  account: Account;
}

export interface Call {
  world: World;
  faults: ReadonlySet<CloudFault>;
  /** Undefined only on public endpoints called without a token. */
  caller?: Caller;
  params: Record<string, string>;
  query: Record<string, string>;
  body: unknown;
  rawBody?: Buffer;
  headers: FastifyRequest['headers'];
  prefix: 'v4' | 'v4beta';
}

/** What a handler returns: a body (200 unless `status`), or 204 with none. */
export interface Reply {
  status?: number;
  body?: unknown;
  contentType?: string;
  headers?: Record<string, string>;
}

export interface ApiOptions {
  world: World;
  faults: ReadonlySet<CloudFault>;
  /** General per-endpoint limit (the document: 800 requests per minute). */
  rateLimit: { limit: number; windowMs: number };
}

export class Api {
  private readonly counters = new Map<string, { count: number; resetAt: number }>();

  constructor(
    readonly app: FastifyInstance,
    readonly options: ApiOptions,
  ) {}

  get world(): World {
    return this.options.world;
  }

  get faults(): ReadonlySet<CloudFault> {
    return this.options.faults;
  }

  endpoint(spec: EndpointSpec, handler: (call: Call) => Reply | Promise<Reply>): void {
    const route = spec.path.replace(/\{(\w+)\}/g, ':$1');
    for (const prefix of spec.prefixes ?? ['v4', 'v4beta']) {
      this.app.route({
        method: spec.method,
        url: `/${prefix}${route}`,
        handler: (req, reply) => this.handle(spec, prefix, handler, req, reply),
      });
    }
  }

  private async handle(spec: EndpointSpec, prefix: 'v4' | 'v4beta', handler: (call: Call) => Reply | Promise<Reply>, req: FastifyRequest, reply: FastifyReply) {
    try {
      const caller = this.authenticate(spec, req);
      this.rateLimit(spec, req, caller, reply);
      if (caller) this.authorize(spec, req.method, caller);
      const call: Call = {
        world: this.world,
        faults: this.faults,
        caller,
        params: req.params as Record<string, string>,
        query: req.query as Record<string, string>,
        body: Buffer.isBuffer(req.body) ? undefined : req.body,
        rawBody: Buffer.isBuffer(req.body) ? req.body : undefined,
        headers: req.headers,
        prefix,
      };
      const out = await handler(call);
      for (const [k, v] of Object.entries(out.headers ?? {})) reply.header(k, v);
      const status = out.status ?? 200;
      if (status === 204) return reply.code(204).send();
      if (out.contentType) reply.type(out.contentType);
      return reply.code(status).send(out.body ?? {});
    } catch (err) {
      return this.sendError(reply, err);
    }
  }

  sendError(reply: FastifyReply, err: unknown) {
    const e = err instanceof ApiError ? err : new ApiError(500, [{ reason: 'Internal server error' }]);
    let errors = e.errors;
    if (this.faults.has('error-field-always')) errors = errors.map((x) => ({ field: x.field ?? 'request', ...x }));
    if (this.faults.has('error-without-reason')) errors = errors.map(({ field }) => (field ? { field } : {})) as ApiErrorItem[];
    let status = e.status;
    if (this.faults.has('forbidden-as-401') && status === 403) status = 401;
    return reply.code(status).type('application/json').send({ errors });
  }

  private authenticate(spec: EndpointSpec, req: FastifyRequest): Caller | undefined {
    const header = req.headers.authorization;
    if (spec.scope === 'none' && !header) {
      if (this.faults.has('public-endpoint-needs-token')) throw refuse(401, 'Not found: no Authorization header with a bearer token');
      return undefined;
    }
    const match = /^Bearer (\S+)$/i.exec(header ?? '');
    const token = match ? this.world.tokens.get(match[1]) : undefined;
    if (!token) {
      if (spec.scope === 'none') return undefined;
      if (this.faults.has('unauthenticated-as-403')) throw refuse(403, 'Your OAuth token is not authorized to use this endpoint.');
      throw refuse(401, header ? 'Invalid Token' : 'Not found: no Authorization header with a bearer token');
    }
    const user = this.world.users.get(token.username)!;
    return { token, user, account: this.world.accounts.get(user.account)! };
  }

  /** Scopes: `:read_only` allows GET, `:read_write` every method of the area. Then grants of restricted users. */
  private authorize(spec: EndpointSpec, method: string, caller: Caller): void {
    if (spec.scope !== 'none') {
      const [area] = spec.scope.split(':');
      const scopes = caller.token.scopes;
      const ok =
        scopes.includes('*') ||
        scopes.includes(`${area}:read_write`) ||
        ((method === 'GET' || this.faults.has('read-only-scope-writes')) && scopes.includes(`${area}:read_only`) && !this.faults.has('read-only-scope-get-refused'));
      if (!ok) throw refuse(403, `Your OAuth token is not authorized to use this endpoint (needs ${area}:${method === 'GET' ? 'read_only' : 'read_write'}).`);
    }
    if (!caller.user.restricted || spec.grant === 'none') return;
    const global = caller.user.grants?.global ?? {};
    const access = global.account_access;
    const allowed =
      spec.grant === 'read_only' ? access === 'read_only' || access === 'read_write'
      : spec.grant === 'read_write' ? access === 'read_write'
      : spec.grant === 'add_databases' ? global.add_databases === true
      : this.faults.has('restricted-passes-unrestricted-only'); // unrestricted only
    if (!allowed) throw refuse(403, 'You do not have permission to access this resource.');
  }

  /** Requests per token (or client address for public calls) per endpoint per window. */
  private rateLimit(spec: EndpointSpec, req: FastifyRequest, caller: Caller | undefined, reply: FastifyReply): void {
    const { limit, windowMs } = spec.rateLimit ?? this.options.rateLimit;
    const key = `${caller?.token.token ?? req.ip} ${spec.method} ${spec.path}`;
    const now = Date.now();
    let c = this.counters.get(key);
    if (!c || c.resetAt <= now) {
      c = { count: 0, resetAt: now + windowMs };
      this.counters.set(key, c);
    }
    c.count++;
    const remaining = Math.max(0, limit - c.count);
    if (!this.faults.has('rate-limit-no-headers')) {
      reply.header('X-RateLimit-Limit', String(limit));
      reply.header('X-RateLimit-Remaining', String(remaining));
      reply.header('X-RateLimit-Reset', String(Math.ceil(c.resetAt / 1000)));
    }
    if (c.count > limit && !this.faults.has('no-rate-limit')) {
      if (!this.faults.has('rate-limit-no-headers')) reply.header('Retry-After', String(Math.max(1, Math.ceil((c.resetAt - now) / 1000))));
      throw refuse(429, 'Too many requests');
    }
  }
}

/** Validates a request body against a document schema; every problem is reported at once, per field. */
export function validateBody<T>(call: Pick<Call, 'faults'>, name: CloudSchemaName, body: unknown): T {
  const validate = cloudValidator(name);
  // No body (or JSON null) is an empty object: a handler then sees only what the schema allows.
  if (validate(body ?? {})) return (body ?? {}) as T;
  let items: ApiErrorItem[] = (validate.errors ?? []).map((e: ErrorObject) => {
    const field = fieldOf(e);
    return field && !call.faults.has('field-error-without-field') ? { field, reason: `${field} ${e.message ?? 'is invalid'}` } : { reason: `${field ?? 'Request body'} ${e.message ?? 'is invalid'}` };
  });
  if (call.faults.has('first-error-only')) items = items.slice(0, 1);
  throw new ApiError(400, items);
}

/** The paginated list envelope, after X-Filter; huge pages give the last page. */
export function paginate(call: Call, items: Record<string, unknown>[], filterable: readonly string[]): Reply {
  let rows = items;
  const rawFilter = call.headers['x-filter'];
  if (rawFilter !== undefined && !call.faults.has('filter-ignored')) {
    try {
      rows = applyFilter(rows, String(rawFilter), filterable, call.faults);
    } catch (err) {
      if (err instanceof FilterError) throw refuse(400, err.message);
      throw err;
    }
  }
  const pageSize = parseIntParam(call.query.page_size, 'page_size', call.faults.has('default-page-size-25') ? 25 : 100);
  const lowest = call.faults.has('page-size-unchecked') ? 1 : 25;
  if (pageSize < lowest || pageSize > 500) throw refuse(400, 'page_size must be between 25 and 500');
  const pages = Math.max(1, Math.ceil(rows.length / pageSize));
  const requested = parseBigPage(call.query.page);
  let page: number;
  if (call.faults.has('huge-page-empty') && requested > BigInt(pages)) page = Number(requested > 10n ** 6n ? 10n ** 6n : requested);
  else page = Number(requested > BigInt(pages) ? BigInt(pages) : requested);
  const start = (page - 1) * pageSize;
  const pageRows = call.faults.has('page-zero-based') ? rows.slice(page * pageSize, page * pageSize + pageSize) : rows.slice(start, start + pageSize);
  const body: Record<string, unknown> = { data: pageRows, page, pages, results: rows.length };
  if (call.faults.has('envelope-without-results')) delete body.results;
  return { body };
}

function parseIntParam(raw: string | undefined, name: string, dflt: number): number {
  if (raw === undefined || raw === '') return dflt;
  if (!/^\d+$/.test(raw)) throw refuse(400, `${name} must be an integer`);
  return Number(raw);
}

function parseBigPage(raw: string | undefined): bigint {
  if (raw === undefined || raw === '') return 1n;
  if (!/^\d+$/.test(raw)) throw refuse(400, 'page must be an integer');
  const n = BigInt(raw);
  if (n < 1n) throw refuse(400, 'page must be 1 or more');
  return n;
}

export function requireCaller(call: Call): Caller {
  if (!call.caller) throw refuse(401, 'Not found: no Authorization header with a bearer token');
  return call.caller;
}
