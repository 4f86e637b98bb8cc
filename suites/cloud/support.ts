// Helpers shared by the CLOUD section files: status and body assertions whose failure
// messages name the request, what the document expects and what came back.
import type { HttpResponse } from '../../src/clients/http/client.ts';
import type { CheckContext, CloudCheckContext } from '../../src/core/check.ts';
import type { CallOptions, CloudCaller } from '../../src/clients/cloud/session.ts';
import { CheckFailure, CheckInconclusive } from '../../src/core/errors.ts';
import { isDeepStrictEqual } from 'node:util';
import { cloudValidator, type CloudSchemaName } from '../../src/schemas/cloud.ts';

export function brief(res: HttpResponse): string {
  const body = res.text.length > 200 ? `${res.text.slice(0, 200)}…` : res.text;
  return `${res.status}${body ? ` ${body}` : ''}`;
}

/**
 * Fails unless the status is (one of) `expected`. A 404 where no 404 is expected says the route
 * (or the resource it names) is not there: a rule about something else cannot be tested on it, so
 * the check is inconclusive, never failed (a half-built server lacks routes; line 214).
 */
export function expectStatus(res: HttpResponse, expected: number | number[], what: string): void {
  const list = Array.isArray(expected) ? expected : [expected];
  if (list.includes(res.status)) return;
  if (res.status === 404) notServed(res, what);
  throw new CheckFailure(`${what}: expected ${list.join(' or ')}, got ${brief(res)}`);
}

/**
 * Ends the check as inconclusive on a 404: the route is not served here, or the resource it names
 * does not exist. Never a verdict on a rule about another thing.
 */
export function notServed(res: HttpResponse, what: string): void {
  if (res.status !== 404) return;
  throw new CheckInconclusive(`${what}: answered 404 (the route is not served here, or what it names does not exist), so the rule could not be tested: ${brief(res)}`, { seeAlso: 'cloud.errors.not-found-404' });
}

/** Fails unless the body validates against the document's schema `name`. */
export function expectShape(res: HttpResponse, name: CloudSchemaName, what: string): void {
  const validate = cloudValidator(name);
  if (res.json === undefined) throw new CheckFailure(`${what}: expected a JSON ${name}, got ${brief(res)}`);
  if (!validate(res.json)) {
    const problems = (validate.errors ?? []).map((e) => `${e.instancePath || '(body)'} ${e.message}`).join('; ');
    throw new CheckFailure(`${what}: body is not a valid ${name} (${problems}): ${brief(res)}`);
  }
}

/**
 * Refusals that are never the one a permission, state or field rule is about: the rate limit (429),
 * the media type (406, 415). A check that got one has not tested its rule.
 */
export function notAboutTheRule(res: HttpResponse, what: string): void {
  if (res.status === 429) throw new CheckInconclusive(`${what}: answered 429 (a rate limit, e.g. accepting a service transfer: 2 per minute); the rule was not tested: run again after ${res.headers['retry-after'] ?? 'the window'} s`, { seeAlso: 'cloud.limits.excess-requests-429' });
  if (res.status === 406 || res.status === 415) throw new CheckInconclusive(`${what}: answered ${res.status} (the request's media type), which is not the refusal this rule is about: ${brief(res)}`);
}

/** "Refused" in the document's sense where it names no status: a 4xx with the error body. */
export function expectRefused(res: HttpResponse, what: string): void {
  notAboutTheRule(res, what);
  notServed(res, what);
  if (res.status < 400 || res.status > 499) throw new CheckFailure(`${what}: expected a refusal (4xx with the error body), got ${brief(res)}`);
  expectShape(res, 'errorBody', what);
}

/**
 * An operation only unrestricted users may call, refused to the restricted user (account_access
 * read_only) and, where the target names one, to the restricted user with account_access
 * read_write, whom an ordinary read_write grant would let through (line 74: `unrestricted only`
 * is a grant requirement of its own). `send` makes the request as the caller it is given.
 */
export async function expectRefusedToRestricted(ctx: CloudCheckContext, send: (api: CloudCaller) => Promise<HttpResponse>, what: string): Promise<void> {
  expectRefused(await send(ctx.cloud.as('restricted')), `${what} as a restricted user (account_access read_only)`);
  if (!ctx.cloud.target.tokens.restrictedReadWrite) return ctx.note('no tokens.restrictedReadWrite: tested with a read_only restricted user only');
  expectRefused(await send(ctx.cloud.as('restrictedReadWrite')), `${what} as a restricted user with account_access read_write`);
}

export interface ErrorItem {
  reason?: unknown;
  field?: unknown;
}

export function errorsOf(res: HttpResponse): ErrorItem[] {
  const errors = (res.json as { errors?: unknown } | undefined)?.errors;
  return Array.isArray(errors) ? (errors as ErrorItem[]) : [];
}

/** A 202 or 299 answer: that status and a `warnings` array, empty or not (Errors table, lines 208 and 210). */
export function expectWarnings(res: HttpResponse, status: number, what: string): void {
  expectStatus(res, status, what);
  expectShape(res, 'warningsBody', what);
}

/** The check owning the paging rules a walk over pages relies on (pages start at 1, `pages`, `results`). */
export const PAGING_OWNER = 'cloud.pagination.pages-start-at-1';

/**
 * Every item of a list, page by page at the default page size (a set-up read never uses a page
 * size the check is not about), following `pages`. The walk is judged by the envelope's own
 * consistency before anyone concludes from it: every page names the page asked for, and the pages
 * 1..`pages` together hold `results` items. A list that changed while being read (its `results`
 * or `pages` moved: items added by other checks) is read again, up to three times. A walk that
 * stays inconsistent, or that has more than `maxPages` pages, ends the check inconclusive (the
 * paging is another check's rule: PAGING_OWNER), never with a verdict drawn from a partial list.
 */
export async function listAll(caller: CloudCaller, path: string, what: string, opts: CallOptions = {}, maxPages = 50): Promise<Record<string, unknown>[]> {
  let problem = '';
  for (let attempt = 1; attempt <= 3; attempt++) {
    const rows: Record<string, unknown>[] = [];
    let first: ListEnvelope | undefined;
    let moved = false;
    problem = '';
    for (let page = 1; ; page++) {
      const list = envelope(await caller.get(path, { ...opts, query: { ...opts.query, page } }), `${what} (page ${page})`);
      first ??= list;
      if (list.results !== first.results || list.pages !== first.pages) {
        moved = true;
        break;
      }
      if (list.page !== page) {
        problem = `page ${page} was answered as page ${list.page}`;
        break;
      }
      // Not push(...): a page may hold far more items than a call takes arguments.
      for (const row of list.data) rows.push(row);
      if (page >= list.pages) break;
      if (page >= maxPages) {
        throw new CheckInconclusive(`${what}: the list has ${list.pages} pages; only the first ${maxPages} were read, so no conclusion is drawn from a part of it`);
      }
    }
    if (moved) {
      problem = `its results or pages changed while it was read (other activity adds items)`;
      continue;
    }
    if (problem) break;
    if (first && rows.length !== first.results) {
      problem = `pages 1 to ${first.pages} hold ${rows.length} items, but results says ${first.results}`;
      break;
    }
    return rows;
  }
  throw new CheckInconclusive(`${what}: the list's pages are not consistent (${problem}), so nothing is concluded from the items read`, { seeAlso: PAGING_OWNER });
}

/**
 * Re-reads until `seen` returns a value, for up to ctx.timeouts.backgroundMs: for what a server
 * may do in the background (an event listed a moment after the answer). Undefined when nothing
 * was seen in time.
 */
export async function waitFor<T>(ctx: CheckContext, read: () => Promise<T | undefined>): Promise<T | undefined> {
  const deadline = Date.now() + ctx.timeouts.backgroundMs;
  for (;;) {
    const value = await read();
    if (value !== undefined) return value;
    if (Date.now() >= deadline || ctx.signal.aborted) return undefined;
    await new Promise((r) => setTimeout(r, Math.min(200, Math.max(10, deadline - Date.now()))));
  }
}

/** Same JSON values (object key order and layout do not matter). */
export function sameValue(a: unknown, b: unknown): boolean {
  return isDeepStrictEqual(a, b);
}

/** Whether `secret` appears as a string value anywhere inside a parsed JSON body. */
export function holdsValue(body: unknown, value: string): boolean {
  if (typeof body === 'string') return body === value;
  if (Array.isArray(body)) return body.some((v) => holdsValue(v, value));
  if (body !== null && typeof body === 'object') return Object.values(body).some((v) => holdsValue(v, value));
  return false;
}

/** The `{}` of an action's answer: a JSON object (more fields are not judged here). */
export function isJsonObject(res: HttpResponse): boolean {
  return typeof res.json === 'object' && res.json !== null && !Array.isArray(res.json);
}

const queues = new Map<string, Promise<unknown>>();

/**
 * Runs `fn` while no other caller of `oneAtATime` with the same target and `name` runs: for
 * checks sharing state one account holds (e.g. its at most 6 active payment methods).
 */
export async function oneAtATime<T>(ctx: CheckContext, name: string, fn: () => Promise<T>): Promise<T> {
  const key = `${ctx.target.address} ${name}`;
  const before = queues.get(key) ?? Promise.resolve();
  const run = before.then(fn, fn);
  const settled = run.catch(() => undefined);
  queues.set(key, settled);
  try {
    return await run;
  } finally {
    if (queues.get(key) === settled) queues.delete(key);
  }
}

export interface ListEnvelope<T = Record<string, unknown>> {
  data: T[];
  page: number;
  pages: number;
  results: number;
}

/** The body as a list envelope, validated. */
export function envelope<T = Record<string, unknown>>(res: HttpResponse, what: string): ListEnvelope<T> {
  expectStatus(res, 200, what);
  expectShape(res, 'listEnvelope', what);
  return res.json as ListEnvelope<T>;
}

export function show(value: unknown): string {
  const s = JSON.stringify(value);
  return s === undefined ? 'undefined' : s.length > 200 ? `${s.slice(0, 200)}…` : s;
}

/**
 * A top-level field of a JSON object body, or undefined when the body is not a JSON object: a
 * target answering garbage makes a check fail on the value, never crash on the shape.
 */
export function bodyField(res: HttpResponse, name: string): unknown {
  const body = res.json;
  return body !== null && typeof body === 'object' && !Array.isArray(body) ? (body as Record<string, unknown>)[name] : undefined;
}

/** bodyField, kept only when it is a string. */
export function bodyString(res: HttpResponse, name: string): string | undefined {
  const v = bodyField(res, name);
  return typeof v === 'string' ? v : undefined;
}

/** bodyField, kept only when it is a JSON object. */
export function bodyObject(res: HttpResponse, name: string): Record<string, unknown> | undefined {
  const v = bodyField(res, name);
  return v !== null && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : undefined;
}
