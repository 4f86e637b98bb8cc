// What a CLOUD check holds as `ctx.cloud`: callers by role (bearer tokens from the config), the
// `/v4` and `/v4beta` prefixes, and the fixtures a real server has to name. A role or fixture
// the config does not give skips the check with the reason.
import type { Timeouts } from '../../core/check.ts';
import { CheckInconclusive, CheckSkipped } from '../../core/errors.ts';
import type { EvidenceLog } from '../../core/evidence.ts';
import type { CloudFixtures, CloudTokens } from '../../config/types.ts';
import { envName, neededField } from '../../config/env.ts';
import { HttpClient, type HttpRequest, type HttpResponse } from '../http/client.ts';

/** Roles a check may ask for: the tokens of targets.config.ts (cloud-ref seeds every one). */
export type CloudRole = keyof CloudTokens;
/** The OAuth login server of the config (`fixtures.oauth`, the document's {auth_url}). */
export type CloudOAuthFixture = NonNullable<CloudFixtures['oauth']>;
export type Prefix = 'v4' | 'v4beta';

export interface CloudTargetInfo {
  baseUrl: string;
  tokens: CloudTokens;
  fixtures: CloudFixtures;
  maxBodyBytes?: number;
  /** Shared by the checks of one run: each transfer check takes nodes no other check uses. */
  nodePool: NodePool;
  /** Gated tags the target opted in to (`allow`), for a check that changes state only without a fixture. */
  allows?: readonly string[];
}

/**
 * Hands out transferable node ids once each across the concurrent checks of a run, and holds
 * what the checks of one run share (see CloudSession.once).
 */
export class NodePool {
  private next = 0;
  /** Set-up results shared by the checks of one run, by key. */
  readonly shared = new Map<string, Promise<unknown>>();
  constructor(private readonly ids: readonly number[]) {}
  /** The next id not handed out yet for which `usable` holds; ids it refuses are passed over for the run. */
  take(usable: (id: number) => boolean = () => true): number | undefined {
    while (this.next < this.ids.length) {
      const id = this.ids[this.next++];
      if (usable(id)) return id;
    }
    return undefined;
  }
}

export interface CallOptions {
  prefix?: Prefix;
  query?: HttpRequest['query'];
  headers?: Record<string, string>;
}

/** Requests made as one role (or anonymously). */
export class CloudCaller {
  constructor(
    private readonly http: HttpClient,
    private readonly token: string | undefined,
    private readonly role: string,
    private readonly signal: AbortSignal,
  ) {}

  request(method: HttpRequest['method'], path: string, opts: CallOptions & { json?: unknown; body?: string | Buffer } = {}): Promise<HttpResponse> {
    const headers = { ...(this.token ? { authorization: `Bearer ${this.token}` } : {}), ...opts.headers };
    return this.http.request(
      { method, path: `/${opts.prefix ?? 'v4'}${path}`, query: opts.query, headers, json: opts.json, body: opts.body, credentialName: envName(`tokens.${this.role}`) },
      this.signal,
    );
  }

  get(path: string, opts?: CallOptions) {
    return this.request('GET', path, opts);
  }
  /** A POST; without `json` it sends no body and no Content-Type (actions whose request the document does not show). */
  post(path: string, json?: unknown, opts?: CallOptions) {
    return this.request('POST', path, { ...opts, json });
  }
  put(path: string, json?: unknown, opts?: CallOptions) {
    return this.request('PUT', path, { ...opts, json: json ?? {} });
  }
  delete(path: string, opts?: CallOptions) {
    return this.request('DELETE', path, opts);
  }
}

/** Requests to the OAuth login server: no bearer token unless one is given (the login). */
export class AuthServerCaller {
  constructor(
    private readonly http: HttpClient,
    private readonly signal: AbortSignal,
  ) {}

  request(method: HttpRequest['method'], path: string, opts: { query?: HttpRequest['query']; headers?: Record<string, string>; body?: string | Buffer; credentialName?: string } = {}): Promise<HttpResponse> {
    return this.http.request({ method, path, query: opts.query, headers: opts.headers, body: opts.body, credentialName: opts.credentialName }, this.signal);
  }
}

export class CloudSession {
  private readonly http: HttpClient;
  private authHttp?: HttpClient;
  /** What the evidence redacts: every token, and the configured OAuth client's secret. */
  private readonly secrets: string[];

  constructor(
    readonly target: CloudTargetInfo,
    private readonly evidence: EvidenceLog,
    private readonly timeouts: Timeouts,
    private readonly signal: AbortSignal,
  ) {
    this.secrets = [...Object.values(target.tokens), target.fixtures.oauth?.client?.secret].filter((t): t is string => Boolean(t));
    this.http = new HttpClient({
      baseUrl: target.baseUrl,
      timeoutMs: timeouts.replyMs,
      maxBodyBytes: target.maxBodyBytes,
      evidence,
      secrets: this.secrets,
    });
  }

  /** A caller with the token of `role`; skips the check when the config has none. */
  as(role: CloudRole): CloudCaller {
    const token = this.target.tokens[role];
    if (!token) throw new CheckSkipped(`needs ${neededField(`tokens.${role}`)}`);
    return new CloudCaller(this.http, token, role, this.signal);
  }

  /** A caller sending no Authorization header (public endpoints, 401 checks). */
  anonymous(): CloudCaller {
    return new CloudCaller(this.http, undefined, 'anonymous', this.signal);
  }

  /** A caller with a bearer token no server issued. */
  withToken(token: string, name = 'BOGUS'): CloudCaller {
    return new CloudCaller(this.http, token, name, this.signal);
  }

  get fixtures(): CloudFixtures {
    return this.target.fixtures;
  }

  /** The OAuth login server of fixtures.oauth.authUrl; skips the check when none is named. */
  authServer(): AuthServerCaller {
    const oauth = this.target.fixtures.oauth;
    if (!oauth?.authUrl) throw new CheckSkipped(`needs ${neededField('fixtures.oauth.authUrl')}: the OAuth login server, {auth_url}`);
    this.authHttp ??= new HttpClient({
      baseUrl: oauth.authUrl,
      timeoutMs: this.timeouts.replyMs,
      maxBodyBytes: this.target.maxBodyBytes,
      evidence: this.evidence,
      secrets: this.secrets,
    });
    return new AuthServerCaller(this.authHttp, this.signal);
  }

  /** The token of `role` without a skip (undefined when the config gives none). */
  tokenOf(role: CloudRole): string | undefined {
    return this.target.tokens[role];
  }

  /** A fixture value, or a skip naming the missing fixture. */
  fixture<T>(value: T | undefined, name: string): T {
    if (value === undefined) throw new CheckSkipped(`needs ${neededField(`fixtures.${name}`)}`);
    return value;
  }

  /**
   * Runs `fn` once per run of checks against this target and hands every caller its result: for a
   * set-up several checks can share where the target limits how often it may be done (accepting a
   * service transfer: 2 per minute).
   */
  once<T>(key: string, fn: () => Promise<T>): Promise<T> {
    let p = this.target.nodePool.shared.get(key) as Promise<T> | undefined;
    if (!p) {
      p = fn();
      p.catch(() => undefined);
      this.target.nodePool.shared.set(key, p);
    }
    return p;
  }

  /**
   * A transferable node of account A no other check of this run uses, passing over the ids in
   * `busy` (already in a transfer, e.g. from an earlier run): when only those are left, the
   * fixture is used up and the check is inconclusive; when the list is simply too short, skipped.
   */
  takeNode(busy: ReadonlySet<number> = new Set()): number {
    const id = this.target.nodePool.take((n) => !busy.has(n));
    if (id !== undefined) return id;
    const used = (this.target.fixtures.transferableNodeIds ?? []).filter((n) => busy.has(n));
    if (used.length) throw new CheckInconclusive(`fixtures.transferableNodeIds is used up: every id not taken by another check of this run is already in a transfer of account A (${used.length} such, e.g. ${used.slice(0, 3).join(', ')}, from an earlier run): name nodes not in a transfer`);
    throw new CheckSkipped('needs more fixtures.transferableNodeIds (each transfer check uses its own node)');
  }
}
