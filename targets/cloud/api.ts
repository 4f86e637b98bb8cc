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
  /** The field was required and not submitted (not written out). */
  missing?: boolean;
}

/** A refusal: status plus the document's error body. */
export class ApiError extends Refusal {
  constructor(
    readonly status: number,
    readonly errors: ApiErrorItem[],
    /** Headers the refusal carries (Retry-After of a 429 raised inside a handler). */
    readonly headers: Record<string, string> = {},
  ) {
    super(errors.map((e) => e.reason).join('; '));
  }
}

export const refuse = (status: number, reason: string, field?: string) => new ApiError(status, [field ? { reason, field } : { reason }]);
/**
 * A request refused for the state of what it acts on (a transfer no longer pending, a database not
 * active, the default payment method): the document names no status; 400 in the reference, 409 in the variant.
 */
export const conflict = (call: Pick<Call, 'variant'>, reason: string) => refuse(call.variant ? 409 : 400, reason);
export const notFound = (what = 'Not found') => refuse(404, what);

/** What the JSON body parser hands on for a body that does not parse (refused in Api.handle). */
export const MALFORMED_JSON: unique symbol = Symbol('malformed JSON body');

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
  /**
   * The request body the document shows: `none` for an action whose request it does not show (the
   * variant answers 415 to a body there), or a check of the body, which the variant runs before
   * refusing an unpermitted caller (a body both invalid and unpermitted is invalid first).
   */
  request?: 'none' | ((call: Call) => void);
  /** The media type of a non-JSON answer (the thumbnail's image/png). */
  produces?: string;
  /**
   * Whether the resource of the path exists for the caller: the variant answers 404 before 403
   * to a caller refused permission on a resource that does not exist (the reference 403).
   */
  exists?: (call: Call) => boolean;
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
  /** The server runs as the variant (docs/open-choices.md): handlers read their choices here. */
  variant: boolean;
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
  /** Every choice the document leaves open taken the other way (docs/open-choices.md). */
  variant?: boolean;
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

  get variant(): boolean {
    return this.options.variant === true;
  }

  /**
   * Counts one request of the caller against a named limit shared by several endpoints (429 with
   * Retry-After past it): the variant's count of accepted service transfers.
   */
  countAgainst(name: string, call: Call, limit: { limit: number; windowMs: number }): void {
    this.count(`${call.caller?.token.token ?? ''} ${name}`, limit);
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
        variant: this.variant,
      };
      // Variant: Accept is honoured; a JSON endpoint answers 406 to a client that does not accept JSON.
      if (this.variant && !spec.produces && !accepts(req.headers.accept, 'application/json')) throw refuse(406, 'The answer is application/json, which the Accept header does not allow');
      // Variant: an action whose request the document does not show takes no body (415).
      if (this.variant && spec.request === 'none' && (req.body !== undefined || Number(req.headers['content-length'] ?? 0) > 0)) {
        throw refuse(415, 'This action takes no request body');
      }
      // A body both invalid and unpermitted: the reference refuses the permission (403) first, the
      // variant the body (400): one that is not JSON, or whose fields are invalid.
      const malformed = req.body === MALFORMED_JSON;
      if (malformed) call.body = undefined;
      if (this.variant && malformed) throw refuse(400, 'Request body is not valid JSON');
      if (caller) {
        try {
          this.authorize(spec, req.method, caller);
        } catch (err) {
          if (this.variant && spec.exists && !spec.exists(call)) throw notFound();
          if (this.variant && typeof spec.request === 'function') spec.request(call);
          throw err;
        }
      }
      if (malformed) throw refuse(400, 'Request body is not valid JSON');
      const out = await handler(call);
      if (this.faults.has('empty-object-not-empty') && isPlainObject(out.body) && Object.keys(out.body).length === 0) out.body = { ok: true };
      for (const [k, v] of Object.entries(out.headers ?? {})) reply.header(k, v);
      const status = out.status ?? 200;
      if (status === 204) return reply.code(204).send();
      if (out.contentType) return reply.type(out.contentType).code(status).send(out.body);
      return this.sendJson(reply.code(status), out.body ?? {}, false);
    } catch (err) {
      return this.sendError(reply, err);
    }
  }

  /**
   * A JSON body. The reference writes it compact in its own key order; the variant pretty-prints
   * it with every object's keys in reverse order and a field the document does not name on every
   * non-empty object, at any depth (`{}` stays empty).
   */
  private sendJson(reply: FastifyReply, body: unknown, isError: boolean) {
    if (this.faults.has('times-not-utc')) body = offsetTimes(body, true);
    if (this.faults.has('times-local-no-offset')) body = offsetTimes(body, false);
    if (this.faults.has('times-local-west-no-offset')) body = offsetTimes(body, false, -5);
    if (!this.variant) return isError ? reply.type('application/json').send(body) : reply.send(body);
    return reply.type('application/json; charset=utf-8').send(JSON.stringify(variantLayout(body), null, 2));
  }

  sendError(reply: FastifyReply, err: unknown) {
    const e = err instanceof ApiError ? err : new ApiError(500, [{ reason: 'Internal server error' }]);
    for (const [k, v] of Object.entries(e.headers)) reply.header(k, v);
    let errors = e.errors;
    if (this.faults.has('error-field-always')) errors = errors.map((x) => ({ field: x.field ?? 'request', ...x }));
    if (this.faults.has('error-without-reason')) errors = errors.map(({ field }) => (field ? { field } : {})) as ApiErrorItem[];
    let status = e.status;
    if (this.faults.has('invalid-request-422') && status === 400) status = 422;
    if (this.faults.has('forbidden-as-401') && status === 403) status = 401;
    // Variant: other (still human-readable) wording, and no `field` on a field that was not submitted.
    if (this.variant) {
      errors = errors.map((x) => ({
        ...(x.field && !x.missing ? { field: x.field } : {}),
        reason: x.reason === undefined ? x.reason : x.missing ? 'Request refused: a required value was not sent.' : `Request refused: ${lowerFirst(x.reason)}.`,
      })) as ApiErrorItem[];
    }
    else errors = errors.map(({ missing: _m, ...x }) => x);
    return this.sendJson(reply.code(status), { errors }, true);
  }

  private authenticate(spec: EndpointSpec, req: FastifyRequest): Caller | undefined {
    const header = req.headers.authorization;
    if (spec.scope === 'none' && !header) {
      if (this.faults.has('public-endpoint-needs-token')) throw refuse(401, 'Not found: no Authorization header with a bearer token');
      return undefined;
    }
    const match = /^Bearer (\S+)$/i.exec(header ?? '');
    const found = match ? this.world.tokens.get(match[1]) : undefined;
    const token = found && (found.expiresAt === undefined || found.expiresAt > Date.now()) ? found : undefined;
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
      // A scope missing: the reference answers 403, the variant 401 as the real service does (line 191 does not say which).
      if (!ok) throw refuse(this.variant ? 401 : 403, `Your OAuth token is not authorized to use this endpoint (needs ${area}:${method === 'GET' ? 'read_only' : 'read_write'}).`);
    }
    if (!caller.user.restricted || spec.grant === 'none') return;
    const global = caller.user.grants?.global ?? {};
    const access = global.account_access;
    const allowed =
      spec.grant === 'read_only' ? access === 'read_only' || access === 'read_write'
      : spec.grant === 'read_write' ? access === 'read_write' && !this.faults.has('read-write-grant-refused')
      : spec.grant === 'add_databases' ? global.add_databases === true
      : this.faults.has('restricted-passes-unrestricted-only') || (this.faults.has('unrestricted-only-as-read-write') && access === 'read_write'); // unrestricted only
    if (!allowed) throw refuse(403, 'You do not have permission to access this resource.');
  }

  /** Requests per token (or client address for public calls) per endpoint per window. */
  private rateLimit(spec: EndpointSpec, req: FastifyRequest, caller: Caller | undefined, reply: FastifyReply): void {
    this.count(`${caller?.token.token ?? req.ip} ${spec.method} ${spec.path}`, spec.rateLimit ?? this.options.rateLimit, reply);
  }

  private count(key: string, { limit, windowMs }: { limit: number; windowMs: number }, reply?: FastifyReply): void {
    const now = Date.now();
    let c = this.counters.get(key);
    if (!c || c.resetAt <= now) {
      c = { count: 0, resetAt: now + windowMs };
      this.counters.set(key, c);
    }
    c.count++;
    const headers: Record<string, string> = {};
    if (!this.faults.has('rate-limit-no-headers')) {
      headers['X-RateLimit-Limit'] = String(limit);
      headers['X-RateLimit-Remaining'] = String(Math.max(0, limit - c.count));
      headers['X-RateLimit-Reset'] = String(Math.ceil(c.resetAt / 1000));
    }
    if (c.count > limit && !this.faults.has('no-rate-limit')) {
      if (!this.faults.has('rate-limit-no-headers')) headers['Retry-After'] = String(Math.max(1, Math.ceil((c.resetAt - now) / 1000)));
      throw new ApiError(429, [{ reason: 'Too many requests' }], headers);
    }
    // The variant sends the rate-limit headers only with a 429.
    if (!this.variant) for (const [k, v] of Object.entries(headers)) reply?.header(k, v);
  }
}

const EXTRA_FIELD = 'x_variant_note';
const EXTRA_VALUE = 'a field the document does not name';

function isPlainObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v) && !Buffer.isBuffer(v);
}

/** Whether an Accept header allows `type` (no header allows anything; q=0 excludes). */
export function accepts(header: string | undefined, type: string): boolean {
  if (!header) return true;
  const [major] = type.split('/');
  return header.split(',').some((part) => {
    const [range, ...params] = part.trim().toLowerCase().split(';').map((x) => x.trim());
    const q = params.find((p) => p.startsWith('q='));
    if (q && Number(q.slice(2)) === 0) return false;
    return range === type || range === `${major}/*` || range === '*/*';
  });
}

const LOCAL_TIME = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d$/;

/**
 * The variant's layout of a JSON body, in one pass: an unnamed field on every non-empty object at
 * any depth (`{}` stays empty), then every object's keys in reverse order (arrays kept in order);
 * times (UTC either way, line 20) written with milliseconds and a `Z`.
 */
function variantLayout(v: unknown): unknown {
  if (typeof v === 'string') return LOCAL_TIME.test(v) ? `${v}.000Z` : v;
  if (Array.isArray(v)) return v.map(variantLayout);
  if (!isPlainObject(v)) return v;
  const keys = Object.keys(v);
  if (keys.length === 0) return v;
  const out: Record<string, unknown> = { [EXTRA_FIELD]: EXTRA_VALUE };
  for (let i = keys.length - 1; i >= 0; i--) out[keys[i]] = variantLayout(v[keys[i]]);
  return out;
}

const ISO_TIME = /^(\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d)(\.\d+)?Z?$/;

/**
 * Faults times-not-utc, times-local-no-offset and times-local-west-no-offset: every time written in
 * the local time of a zone east of UTC, with its offset (+02:00), or without one (+05:00 local
 * time), or of a zone west of UTC without one (-05:00 local time: `hours` -5).
 */
function offsetTimes(v: unknown, withOffset: boolean, hours = withOffset ? 2 : 5): unknown {
  if (typeof v === 'string') {
    const m = ISO_TIME.exec(v);
    if (!m) return v;
    const t = new Date(`${m[1]}Z`).getTime() + hours * 3600_000;
    return `${new Date(t).toISOString().slice(0, 19)}${withOffset ? '+02:00' : ''}`;
  }
  if (Array.isArray(v)) return v.map((x) => offsetTimes(x, withOffset, hours));
  if (!isPlainObject(v)) return v;
  return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, offsetTimes(x, withOffset, hours)]));
}

const lowerFirst = (s: string) => (s ? s[0].toLowerCase() + s.slice(1) : s).replace(/[.]$/, '');

/** Validates a request body against a document schema; every problem is reported at once, per field. */
export function validateBody<T>(call: Pick<Call, 'faults'>, name: CloudSchemaName, body: unknown): T {
  const validate = cloudValidator(name);
  // No body (or JSON null) is an empty object: a handler then sees only what the schema allows.
  if (validate(body ?? {})) return (body ?? {}) as T;
  let items: ApiErrorItem[] = (validate.errors ?? []).map((e: ErrorObject) => {
    const field = fieldOf(e);
    const missing = e.keyword === 'required' ? { missing: true } : {};
    return field && !call.faults.has('field-error-without-field') ? { field, reason: `${field} ${e.message ?? 'is invalid'}`, ...missing } : { reason: `${field ?? 'Request body'} ${e.message ?? 'is invalid'}` };
  });
  if (call.faults.has('first-error-only')) items = items.slice(0, 1);
  throw new ApiError(400, items);
}

/** The paginated list envelope, after X-Filter; huge pages give the last page. */
export function paginate(call: Call, items: Record<string, unknown>[], filterable: readonly string[]): Reply {
  // The document states no order of a list: the variant lists newest (last added) first.
  let rows = call.variant ? [...items].reverse() : items;
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
  // An empty list has 1 page (reference) or 0 pages (variant): the document does not say.
  const pages = Math.max(call.variant ? 0 : 1, Math.ceil(rows.length / pageSize));
  const last = Math.max(1, pages);
  const requested = parseBigPage(call.query.page);
  let page: number;
  if (call.faults.has('huge-page-empty') && requested > BigInt(last)) page = Number(requested > 10n ** 6n ? 10n ** 6n : requested);
  else page = Number(requested > BigInt(last) ? BigInt(last) : requested);
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
