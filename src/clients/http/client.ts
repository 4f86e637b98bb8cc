// The one HTTP client wrapper (undici, with unsolicited 100 Continue dropped: interim.ts), used by every HTTP check and the HTTP fuzzer: each
// exchange is recorded as evidence with secrets redacted, every wait has a timeout, and response
// bodies are read only up to a cap so that an endless body cannot exhaust memory.
import tls from 'node:tls';
import { Pool, buildConnector, errors as undiciErrors } from 'undici';
import type { IncomingHttpHeaders } from 'undici/types/header.ts';
import {
  BodyTooLarge,
  TargetError,
  TargetReset,
  TargetTimeout,
  TargetUnreachable,
  type HttpExchangeEvidence,
} from '../../core/errors.ts';
import type { EvidenceLog } from '../../core/evidence.ts';
import { dropUnsolicitedContinue } from './interim.ts';

export const DEFAULT_MAX_BODY_BYTES = 8 * 1024 * 1024;
/** Evidence keeps at most this much of each body. */
const EVIDENCE_BODY_CHARS = 8192;

export interface HttpRequest {
  method: 'GET' | 'POST' | 'PUT' | 'DELETE' | 'PATCH' | 'HEAD';
  /** Path with any prefix, e.g. /v4/account; query parameters go in `query`. */
  path: string;
  /** An array value repeats the parameter (`view=summary&view=status`), as the BUILD routes take it. */
  query?: Record<string, string | number | boolean | undefined | readonly (string | number)[]>;
  headers?: Record<string, string>;
  /** A value is sent as JSON; a string or Buffer is sent as is. */
  json?: unknown;
  body?: string | Buffer;
  /** Names the credential used, for the curl command ("$CONFORMANCE_TOKENS_UNRESTRICTED"; BUILD: "CONFORMANCE_USERS_ADMIN", curl -u from its _USERNAME and _PASSWORD). */
  credentialName?: string;
}

export interface HttpResponse {
  status: number;
  headers: Record<string, string>;
  /** The body as text (UTF-8). */
  text: string;
  bytes: Buffer;
  /** The body parsed as JSON, or undefined when it is not JSON. */
  json: unknown;
  durationMs: number;
}

export interface HttpClientOptions {
  baseUrl: string;
  timeoutMs: number;
  maxBodyBytes?: number;
  evidence?: EvidenceLog;
  /** Strings never to be written to evidence (tokens, passwords from the config). */
  secrets?: readonly string[];
}

/** Per-origin connection pools, shared by the checks of a target (keep-alive across checks). */
const pools = new Map<string, Pool>();
/** Certificate authorities to trust per origin (`ca` of a target in targets.config.ts). */
const trusted = new Map<string, Buffer>();

/**
 * Trusts the CA certificates `pem` (besides the system's) for HTTPS to the origin of `baseUrl`:
 * a server whose certificate a private CA issued. Takes effect for pools opened afterwards.
 */
export function trustCaFor(baseUrl: string, pem: Buffer): void {
  trusted.set(new URL(baseUrl).origin, pem);
}

/**
 * The pool of an origin. Its sockets drop unsolicited `100 Continue` responses, which undici
 * would take for a broken connection (interim.ts). HEAD requests get a pool of their own: their
 * responses carry a Content-Length but no body, which the filter, seeing only responses, learns
 * from the pool it serves.
 */
function poolFor(origin: string, method: HttpRequest['method']): Pool {
  const key = method === 'HEAD' ? `${origin} HEAD` : origin;
  let pool = pools.get(key);
  if (!pool) {
    const ca = trusted.get(origin);
    const connectOptions = ca ? { ca: [...tls.rootCertificates, ca.toString('utf8')] } : {};
    const base = buildConnector(connectOptions);
    const connect: buildConnector.connector = (options, callback) =>
      base(options, (...args) => {
        if (args[1]) dropUnsolicitedContinue(args[1], method === 'HEAD');
        callback(...args);
      });
    pool = new Pool(origin, { connections: 16, pipelining: 1, keepAliveTimeout: 4_000, connect });
    pools.set(key, pool);
  }
  return pool;
}

/** Closes the pools of an origin (when a target is stopped). */
export async function closeHttpPools(baseUrl: string): Promise<void> {
  const origin = new URL(baseUrl).origin;
  await Promise.all(
    [origin, `${origin} HEAD`].map(async (key) => {
      const pool = pools.get(key);
      pools.delete(key);
      await pool?.close().catch(() => pool.destroy());
    }),
  );
}

export class HttpClient {
  private readonly origin: string;
  private readonly basePath: string;

  constructor(readonly options: HttpClientOptions) {
    const url = new URL(options.baseUrl);
    this.origin = url.origin;
    this.basePath = url.pathname.replace(/\/$/, '');
  }

  urlOf(req: Pick<HttpRequest, 'path' | 'query'>): string {
    return this.buildUrl(req).toString();
  }

  private buildUrl(req: Pick<HttpRequest, 'path' | 'query'>): URL {
    const url = new URL(this.basePath + req.path, this.origin);
    for (const [k, v] of Object.entries(req.query ?? {})) {
      if (Array.isArray(v)) for (const item of v) url.searchParams.append(k, String(item));
      else if (v !== undefined) url.searchParams.set(k, String(v));
    }
    return url;
  }

  async request(req: HttpRequest, signal?: AbortSignal): Promise<HttpResponse> {
    const url = this.buildUrl(req);
    const headers: Record<string, string> = { accept: 'application/json', ...lowerKeys(req.headers ?? {}) };
    let body: string | Buffer | undefined = req.body;
    if (req.json !== undefined) {
      body = JSON.stringify(req.json);
      headers['content-type'] ??= 'application/json';
    }
    const started = performance.now();
    // The evidence record (redacted copies, a curl line) is built only when someone keeps it: a
    // fuzz campaign's quick path sends thousands of requests a second and reads none of it.
    const evidence = this.options.evidence;
    const record: HttpExchangeEvidence | undefined = evidence && {
      request: {
        method: req.method,
        url: url.toString(),
        headers: this.redactHeaders(headers),
        body: body === undefined ? undefined : this.redact(bodyText(body)),
        bodyBytes: body === undefined ? 0 : Buffer.byteLength(body),
      },
      durationMs: 0,
      curl: this.curl(req.method, url.toString(), headers, body, req.credentialName),
    };
    const timeoutMs = this.options.timeoutMs;
    const limit = this.options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES;
    // One deadline for the whole exchange (headers and body); undici's own timers are coarse.
    const deadline = AbortSignal.timeout(timeoutMs);
    try {
      const res = await poolFor(this.origin, req.method).request({
        method: req.method,
        path: url.pathname + url.search,
        headers,
        body,
        headersTimeout: timeoutMs,
        bodyTimeout: timeoutMs,
        signal: signal ? AbortSignal.any([signal, deadline]) : deadline,
      });
      const bytes = await readCapped(res.body, limit);
      const text = bytes.toString('utf8');
      const response: HttpResponse = {
        status: res.statusCode,
        headers: flattenHeaders(res.headers),
        text,
        bytes,
        json: parseJson(text),
        durationMs: Math.round(performance.now() - started),
      };
      if (record) record.response = {
        status: response.status,
        headers: this.redactHeaders(response.headers),
        body: this.redact(text.length > EVIDENCE_BODY_CHARS ? text.slice(0, EVIDENCE_BODY_CHARS) : text),
        bodyBytes: bytes.length,
        ...(text.length > EVIDENCE_BODY_CHARS ? { truncated: true } : {}),
      };
      return response;
    } catch (err) {
      const e = deadline.aborted && !signal?.aborted
        ? new TargetTimeout(`${req.method} ${url.pathname}: no complete response within ${timeoutMs} ms`, timeoutMs)
        : toTargetError(err, `${req.method} ${url.pathname}`, timeoutMs);
      if (record) record.error = e.message;
      throw e;
    } finally {
      if (record) {
        record.durationMs = Math.round(performance.now() - started);
        evidence!.http(record);
      }
    }
  }

  /** Secrets replaced by a marker; applied to every text that reaches evidence. */
  redact(text: string): string {
    let out = text;
    for (const s of this.options.secrets ?? []) if (s) out = out.split(s).join('[redacted]');
    return out;
  }

  private redactHeaders(headers: Record<string, string>): Record<string, string> {
    const out: Record<string, string> = {};
    for (const [k, v] of Object.entries(headers)) out[k] = /^(authorization|cookie|set-cookie|proxy-authorization)$/i.test(k) ? redactAuth(v) : this.redact(v);
    return out;
  }

  private curl(method: string, url: string, headers: Record<string, string>, body: string | Buffer | undefined, credentialName?: string): string {
    const q = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;
    const parts = ['curl', '-i', '-X', method, q(url)];
    for (const [k, v] of Object.entries(headers)) {
      if (k === 'authorization' && v.startsWith('Basic ') && credentialName) {
        // src/config/env.ts: CONFORMANCE_USERS_<ROLE>_USERNAME and _PASSWORD; curl builds the header.
        parts.push('-u', `"$${credentialName}_USERNAME:$${credentialName}_PASSWORD"`);
        continue;
      }
      const value = k === 'authorization' ? `${v.split(' ')[0]} $${credentialName ?? 'TOKEN'}` : this.redact(v);
      parts.push('-H', k === 'authorization' ? `"${k}: ${value}"` : q(`${k}: ${value}`));
    }
    if (body !== undefined) parts.push('--data-binary', q(this.redact(bodyText(body))));
    return parts.join(' ');
  }
}

function redactAuth(value: string): string {
  const [scheme] = value.split(' ');
  return `${scheme} [redacted]`;
}

function bodyText(body: string | Buffer): string {
  return typeof body === 'string' ? body : body.toString('utf8');
}

function lowerKeys(h: Record<string, string>): Record<string, string> {
  return Object.fromEntries(Object.entries(h).map(([k, v]) => [k.toLowerCase(), v]));
}

function flattenHeaders(h: IncomingHttpHeaders): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(h)) if (v !== undefined) out[k.toLowerCase()] = Array.isArray(v) ? v.join(', ') : v;
  return out;
}

/** First characters a JSON text can start with (after white space). */
const JSON_START = /^\s*[[{"\-0-9tfn]/;

/**
 * Deeper JSON than any document shows is not parsed: JSON.parse would take it, but every
 * recursive step after it (comparing, printing, validating) would overflow the stack and blame
 * the tool. Such a body is "not JSON" to the checks, whose message then shows what came.
 */
export const MAX_JSON_DEPTH = 512;

function nestedDeeperThan(text: string, limit: number): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c) i++; // backslash: skip the escaped character
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) inString = true;
    else if (c === 0x5b || c === 0x7b) {
      if (++depth > limit) return true;
    } else if (c === 0x5d || c === 0x7d) depth--;
  }
  return false;
}

function parseJson(text: string): unknown {
  // Not even trying on an XML or HTML body spares a thrown SyntaxError per response.
  if (!JSON_START.test(text)) return undefined;
  if (nestedDeeperThan(text, MAX_JSON_DEPTH)) return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

async function readCapped(body: AsyncIterable<Buffer> & { destroy(err?: Error): void }, limit: number): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of body) {
    size += chunk.length;
    if (size > limit) {
      body.destroy();
      throw new BodyTooLarge(limit);
    }
    chunks.push(chunk);
  }
  return Buffer.concat(chunks);
}

function toTargetError(err: unknown, what: string, timeoutMs: number): TargetError {
  if (err instanceof TargetError) return err;
  const e = err as { code?: string; message?: string; cause?: { code?: string } };
  const code = e.code ?? e.cause?.code;
  if (err instanceof undiciErrors.HeadersTimeoutError) return new TargetTimeout(`${what}: no response headers within ${timeoutMs} ms`, timeoutMs);
  if (err instanceof undiciErrors.BodyTimeoutError) return new TargetTimeout(`${what}: response body stalled for ${timeoutMs} ms`, timeoutMs);
  if (code === 'ECONNREFUSED') return new TargetUnreachable(`${what}: connection refused`, { cause: err });
  if (code === 'UND_ERR_CONNECT_TIMEOUT') return new TargetUnreachable(`${what}: no TCP connection within the connect timeout`, { cause: err });
  if (code === 'UND_ERR_SOCKET' || code === 'ECONNRESET') return new TargetReset(`${what}: connection closed or reset by the target (${e.message})`, { cause: err });
  if (code === 'HPE_INVALID_CONSTANT' || code?.startsWith('HPE_')) return new TargetError('E_PROTOCOL', `${what}: not a valid HTTP response (${e.message})`, { cause: err });
  return new TargetReset(`${what}: ${e.message ?? String(err)}`, { cause: err });
}
