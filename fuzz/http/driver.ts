// The HTTP driver: one request per case through the project's HTTP client (undici pool,
// keep-alive, one deadline per exchange, body cap, redaction), judged by oracles.ts. A 429 is
// the target's rate limit, not a finding: the case waits for Retry-After (at most 5 s, twice)
// and is sent again. Embedded references run in-process and are restarted when they die.
//
// The driver owns the campaign's scratch resources (kinds.ts says which routes write to them):
// prepare() creates them (BUILD: the project home:<user>:conformance-fuzz-<seed> and a package in
// it; CLOUD: an OAuth client the scratch-bound routes are sent to), every OAuth client a case
// creates is recorded from the answer, and cleanup() deletes all of them.
import { setTimeout as sleep } from 'node:timers/promises';
import { closeHttpPools, HttpClient, type HttpResponse } from '../../src/clients/http/client.ts';
import { TargetError } from '../../src/core/errors.ts';
import type { Cover, FuzzDriver, IsolatedOutcome, KindContext, QuickOutcome, ScratchCleanup } from '../core/kind.ts';
import { deserializeHttpCase, serializeHttpCase, type HttpCase, type HttpRole } from './case.ts';
import { runBuildChain, type BuildChainSpec } from './build-sequence.ts';
import type { ChainEnv } from './chain.ts';
import { buildScratchProject, effectOf, SCRATCH_PLACEHOLDERS } from './kinds.ts';
import { judgeHttp, type HttpOutcome } from './oracles.ts';
import { envName } from '../../src/config/env.ts';
import { runChain, type ChainSpec } from './sequence.ts';

export interface HttpEndpoint {
  baseUrl: string;
  /** The Authorization header of the role cases run as (never stored in a case). */
  authorization: string;
  /** A documented read route that answers when the server is alive. */
  livenessPath: string;
  secrets: readonly string[];
  /** Authorization headers of the other roles the config names, for the steps of a chain that act as them. */
  roles?: Partial<Record<HttpRole, string>>;
  /** CLOUD fixtures.transferableNodeIds: nodes a chain's service transfer may name. */
  transferableNodeIds?: readonly number[];
}

export interface HttpDriverOptions {
  protocol: 'cloud' | 'build';
  endpoint(): HttpEndpoint;
  timeoutMs: number;
  /** Restarts an embedded reference that died; absent for external targets. */
  restart?: () => Promise<void>;
  /** The target's config allows `destructive`: every route may be sent. */
  destructive: boolean;
}

const MAX_RETRY_AFTER_MS = 5000;
const RESPONSE_RECORD_CHARS = 4096;

export class HttpDriver implements FuzzDriver<HttpCase> {
  private client: HttpClient;
  private base: string;
  private restarting: Promise<boolean> | undefined;
  /** The campaign's context, once prepare() ran (names the scratch resources). */
  private ctx: KindContext | undefined;
  /** CLOUD: the scratch OAuth client the scratch-bound routes go to. */
  private scratchClient: string | undefined;
  /** CLOUD: ids of every OAuth client the campaign created (deleted at the end). */
  private readonly createdClients = new Set<string>();
  /** Resources a chain created and did not delete itself, by the path that deletes them (deleted at the end). */
  private readonly chainCreated = new Set<string>();
  /**
   * The target gave at least one complete HTTP answer. A target that never did (it hangs, or cuts
   * every answer) cannot have created anything to clean up through answers the driver saw, and
   * trying would cost a timeout more.
   */
  private answered = false;

  constructor(private readonly o: HttpDriverOptions) {
    const e = o.endpoint();
    this.base = e.baseUrl;
    this.client = new HttpClient({ baseUrl: e.baseUrl, timeoutMs: o.timeoutMs, secrets: e.secrets });
  }

  /** The client for the reference as it runs now (a restarted one listens on a new port). */
  private current(): HttpClient {
    const e = this.o.endpoint();
    if (e.baseUrl !== this.base) {
      this.base = e.baseUrl;
      this.client = new HttpClient({ baseUrl: e.baseUrl, timeoutMs: this.o.timeoutMs, secrets: e.secrets });
    }
    return this.client;
  }

  /** The path the case is sent to: its scratch placeholders replaced (undefined when the scratch object is missing). */
  private pathOf(c: HttpCase): string | undefined {
    if (!c.path.includes(SCRATCH_PLACEHOLDERS.oauthClient)) return c.path;
    return this.scratchClient === undefined ? undefined : c.path.replaceAll(SCRATCH_PLACEHOLDERS.oauthClient, encodeURIComponent(this.scratchClient));
  }

  /** Sends the case; a 429 waits for Retry-After and is sent again (twice at most). */
  async send(c: HttpCase): Promise<HttpOutcome> {
    const path = this.pathOf(c)!;
    const authorization = c.role ? this.o.endpoint().roles?.[c.role] : this.o.endpoint().authorization;
    if (authorization === undefined) return { error: { code: 'E_NO_ROLE', message: `the target's config gives no credentials for the role ${c.role}` } };
    for (let attempt = 0; ; attempt++) {
      let res: HttpResponse;
      try {
        res = await this.current().request({
          method: c.method,
          path,
          query: c.query,
          headers: { ...c.headers, authorization },
          body: c.body,
          // The role cases run as (see HttpEndpoint.authorization), by the env scheme's name.
          credentialName: envName(this.o.protocol === 'cloud' ? 'tokens.unrestricted' : 'users.user'),
        });
      } catch (err) {
        const code = err instanceof TargetError ? err.code : 'E_ERROR';
        return { error: { code, message: (err as Error).message } };
      }
      this.answered = true;
      if (res.status !== 429 || attempt >= 2) {
        this.noteCreated(c, res);
        return { res };
      }
      const wait = Math.min(MAX_RETRY_AFTER_MS, Math.max(100, Number(res.headers['retry-after']) * 1000 || 1000));
      await sleep(wait);
    }
  }

  /** CLOUD: an OAuth client a case created is the campaign's, to delete at the end. */
  private noteCreated(c: HttpCase, res: HttpResponse): void {
    if (this.o.protocol !== 'cloud' || c.method !== 'POST' || !/^\/v4(beta)?\/account\/oauth-clients\/?$/.test(c.path) || res.status >= 300) return;
    const id = clientId(res.json);
    if (id !== undefined) this.createdClients.add(id);
  }

  get restartable(): boolean {
    return this.o.restart !== undefined;
  }

  /** A gateway answering 502, 503 or 504 on the liveness route has no server behind it to fuzz. */
  async unreachable(): Promise<string | undefined> {
    const path = this.o.endpoint().livenessPath;
    try {
      const res = await this.current().request({ method: 'GET', path, headers: { authorization: this.o.endpoint().authorization } });
      if (res.status === 502 || res.status === 503 || res.status === 504) return `GET ${path} answered ${res.status} before any case was sent (a gateway with no server behind it)`;
    } catch (err) {
      if (err instanceof TargetError && err.code === 'E_TARGET_UNREACHABLE') return `GET ${path}: ${err.message}`;
    }
    return undefined;
  }

  /**
   * The kinds generate only cases inside the selection; a case from a corpus saved by a campaign
   * with another selection may not be, and is not sent.
   */
  private inSelection(c: HttpCase): boolean {
    return this.ctx?.select?.route?.(c.method, c.route) ?? true;
  }

  /** A stateful chain (sequence.ts): its steps through send(), judged by the chain's rules. */
  private async chain(c: HttpCase): Promise<IsolatedOutcome> {
    if (!this.o.destructive) return { violations: [], record: { skipped: "a chain of requests runs only with allow: ['destructive']" }, shape: 'skipped' };
    // A chain from a corpus saved under another selection: judged by the resource route it names.
    if (!this.inSelection({ ...c, route: c.route.replace(/ \(.*\)$/, '') })) return { violations: [], record: { skipped: `${c.route} is outside the selection` }, shape: 'skipped' };
    const e = this.o.endpoint();
    const env: ChainEnv = {
      send: (step) => this.send(step),
      roles: new Set(Object.keys(e.roles ?? {}) as HttpRole[]),
      transferableNodeIds: e.transferableNodeIds ?? [],
      created: (path) => this.chainCreated.add(path),
      removed: (path) => this.chainCreated.delete(path),
    };
    const r = this.o.protocol === 'build' ? await runBuildChain(c.chain as BuildChainSpec, env) : await runChain(c.chain as ChainSpec, env);
    const violations = r.violations;
    if (!(await this.alive())) violations.unshift({ oracle: 'liveness', message: `the server stopped answering GET ${this.o.endpoint().livenessPath} after a ${c.chain!.checker} chain`, signature: 'dead', detail: c.route });
    const statuses = r.steps.map((s) => String(s.status ?? s.error));
    return { violations, record: { chain: c.chain, steps: r.steps, shortestFailingPrefix: violations.length ? r.steps.length : undefined }, shape: `${c.route} ${statuses.join(',')}`, cover: { answers: statuses, past: r.past, reached: r.steps.some((st) => st.status !== undefined && reachedLogic(this.o.protocol, { status: st.status, text: '' })) ? [c.route] : [] } };
  }

  async quick(c: HttpCase): Promise<QuickOutcome> {
    if (c.chain) {
      const r = await this.chain(c);
      return r.violations.length ? { status: 'suspect', reason: r.violations[0].message, cover: r.cover } : { status: 'passed', shape: r.shape, cover: r.cover };
    }
    if (this.pathOf(c) === undefined || !this.inSelection(c)) return { status: 'passed' };
    const o = await this.send(c);
    const v = judgeHttp(this.o.protocol, c, o);
    const cover = coverOf(this.o.protocol, c, o);
    return v.length ? { status: 'suspect', reason: v[0].message, cover } : { status: 'passed', shape: `${c.method} ${c.route} ${o.res?.status}`, cover };
  }

  async isolated(c: HttpCase): Promise<IsolatedOutcome> {
    if (c.chain) return this.chain(c);
    if (this.pathOf(c) === undefined) return { violations: [], record: { skipped: 'the campaign has no scratch OAuth client to send this case to' }, shape: 'skipped' };
    if (!this.inSelection(c)) return { violations: [], record: { skipped: `${c.method} ${c.route} is outside the selection (--include-path, implements…)` }, shape: 'skipped' };
    let o = await this.send(c);
    // Refused before a byte was sent: an embedded reference another case killed. That is not this
    // case's doing: bring the reference back and run the case on it.
    if (o.error?.code === 'E_TARGET_UNREACHABLE' && this.o.restart && (await this.recover())) o = await this.send(c);
    let violations = judgeHttp(this.o.protocol, c, o);
    // Alive afterwards, whatever the answer: a case answered well that kills the server is found
    // (and shrunk) alone too.
    if (!(await this.alive())) {
      // A dead server is the finding, first: how the request itself ended (reset, closed, refused,
      // timed out) is timing, and a bucket taken from it would differ between the case and its
      // re-runs, so it is not a bucket of its own.
      violations = violations.filter((v) => v.oracle !== 'answers' && v.oracle !== 'no-hang');
      violations.unshift({ oracle: 'liveness', message: `the server stopped answering GET ${this.o.endpoint().livenessPath} after ${c.method} ${c.route}`, signature: 'dead', detail: `${c.method} ${c.route}` });
    }
    return { violations, record: this.record(c, o), shape: `${c.method} ${c.route} ${o.res?.status ?? o.error?.code}`, cover: coverOf(this.o.protocol, c, o) };
  }

  /** The exchange as a finding file keeps it: the request as sent (no credentials) and what came back. */
  private record(c: HttpCase, o: HttpOutcome): unknown {
    const url = this.client.urlOf({ path: this.pathOf(c) ?? c.path, query: c.query });
    const response = o.res && {
      status: o.res.status,
      headers: o.res.headers,
      body: this.client.redact(o.res.text.slice(0, RESPONSE_RECORD_CHARS)),
      bodyBytes: o.res.bytes.length,
      durationMs: o.res.durationMs,
    };
    return { request: { method: c.method, url, headers: { ...c.headers, authorization: '[configured role]' }, body: c.body, bodyBytes: c.body === undefined ? 0 : Buffer.byteLength(c.body) }, response, error: o.error };
  }

  async alive(): Promise<boolean> {
    try {
      const res = await this.current().request({ method: 'GET', path: this.o.endpoint().livenessPath, headers: { authorization: this.o.endpoint().authorization } });
      return res.status < 500;
    } catch {
      return false;
    }
  }

  /** Restarts a dead embedded reference; concurrent callers share one restart. */
  async recover(): Promise<boolean> {
    if (!this.o.restart) return false;
    this.restarting ??= (async () => {
      if (!(await this.alive())) {
        await this.o.restart!();
        // A restarted reference starts from its seed: the scratch objects are gone, make them again.
        this.createdClients.clear();
        this.chainCreated.clear();
        this.scratchClient = undefined;
        if (this.ctx && (await this.alive())) await this.prepare(this.ctx);
      }
      return this.alive();
    })().finally(() => (this.restarting = undefined));
    return this.restarting;
  }

  /** A request made by the driver itself (scratch set-up and clean-up): the answer, or why there is none. */
  private async own(method: 'PUT' | 'POST' | 'DELETE', path: string, body?: { json?: unknown; xml?: string }): Promise<{ status: number; json: unknown } | { error: string }> {
    try {
      const res = await this.current().request({
        method,
        path,
        headers: { authorization: this.o.endpoint().authorization, ...(body?.xml !== undefined ? { 'content-type': 'application/xml' } : {}) },
        ...(body?.json !== undefined ? { json: body.json } : {}),
        ...(body?.xml !== undefined ? { body: body.xml } : {}),
      });
      this.answered = true;
      return { status: res.status, json: res.json };
    } catch (err) {
      return { error: (err as Error).message.slice(0, 200) };
    }
  }

  /** Creates the scratch resources; a refusal is no error (the cases that need them are then refused, or not sent). */
  async prepare(ctx: KindContext): Promise<void> {
    this.ctx = ctx;
    // The scratch resources only where the server implements their routes: a campaign sends nothing outside the selection.
    const may = (method: string, route: string) => ctx.select?.route?.(method, route) ?? true;
    if (this.o.protocol === 'cloud') {
      if (!may('POST', '/account/oauth-clients')) return;
      const r = await this.own('POST', '/v4/account/oauth-clients', { json: { label: `conformance-fuzz-${ctx.seed ?? 0}`, redirect_uri: 'https://conformance-fuzz.invalid/callback' } });
      const id = 'json' in r && r.status < 300 ? clientId(r.json) : undefined;
      if (id !== undefined) {
        this.scratchClient = id;
        this.createdClients.add(id);
      }
      return;
    }
    if (!may('PUT', '/source/{project}/_meta')) return;
    const home = buildScratchProject(ctx);
    const esc = (x: string) => x.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/"/g, '&quot;');
    const project = await this.own('PUT', `/source/${home}/_meta`, { xml: `<project name="${esc(home)}"><title>conformance fuzz scratch project</title><description>Created by a conformance fuzz campaign and deleted at its end.</description></project>` });
    if ('error' in project) return;
    await this.own('PUT', `/source/${home}/pkg/_meta`, { xml: `<package name="pkg" project="${esc(home)}"><title>conformance fuzz scratch package</title><description/></package>` });
  }

  /** Deletes the scratch resources: the BUILD project (with its packages), every OAuth client the campaign created. */
  async cleanup(): Promise<ScratchCleanup> {
    const out: ScratchCleanup = { removed: [], left: [] };
    if (!this.ctx || !this.answered) return out;
    const gone = (r: { status: number } | { error: string }, name: string) => {
      if ('error' in r) out.left.push({ name, reason: r.error });
      else if (r.status < 300) out.removed.push(name);
      else if (r.status !== 404) out.left.push({ name, reason: `DELETE answered ${r.status}` });
    };
    // A chain's resources first: a BUILD chain's subprojects are below the scratch project.
    for (const path of this.chainCreated) gone(await this.own('DELETE', path), path);
    this.chainCreated.clear();
    if (this.o.protocol === 'cloud') {
      for (const id of this.createdClients) gone(await this.own('DELETE', `/v4/account/oauth-clients/${encodeURIComponent(id)}`), `OAuth client ${id}`);
      this.createdClients.clear();
      this.scratchClient = undefined;
    } else {
      // Nothing outside the selection created it (prepare() or a case): nothing to delete.
      if (this.ctx.select?.route?.('PUT', '/source/{project}/_meta') === false) return out;
      const home = buildScratchProject(this.ctx);
      gone(await this.own('DELETE', `/source/${home}`, undefined), `project ${home}`);
    }
    return out;
  }

  changes(): string {
    if (this.o.destructive) {
      return this.o.protocol === 'cloud'
        ? "may change: ANYTHING the token may (allow: ['destructive']): payments, promo codes, payment methods, users and grants, account settings, any OAuth client, service transfers, database instances and backups"
        : "may change: ANYTHING the user may (allow: ['destructive']): its own person record, requests to any project, status messages, status reports, and its scratch project";
    }
    return this.o.protocol === 'cloud'
      ? 'may change: only OAuth clients it creates (deleted at the end); everything else is read only'
      : `may change: only its scratch project ${buildScratchProject(this.ctx ?? {})} (created here, deleted at the end); everything else is read only`;
  }

  /** Without `destructive`: reads, and writes to the campaign's own scratch resources only (kinds.ts, effectOf). */
  admits(c: HttpCase): boolean {
    if (this.o.destructive) return true;
    if (c.chain) return false;
    const effect = effectOf(this.o.protocol, c, this.ctx ?? { authKey: '' });
    return effect === 'read' || effect === 'scratch';
  }

  serialize(c: HttpCase): unknown {
    return serializeHttpCase(c);
  }

  deserialize(data: unknown): HttpCase {
    return deserializeHttpCase(data);
  }

  describe(c: HttpCase): unknown {
    if (c.chain) return { chain: c.chain };
    return { request: `${c.method} ${c.path}`, bodyBytes: c.body === undefined ? 0 : Buffer.byteLength(c.body), note: c.note };
  }

  async close(): Promise<void> {
    await closeHttpPools(this.base);
  }
}

/** Statuses that stop a request before the server's logic: authentication, permission, rate limit. */
const GATES = new Set([401, 403, 429]);
/**
 * Statuses that say the request never reached the logic of a route: not found / unknown route
 * (404), method not allowed (405), a gateway without a server behind it (502, 503, 504), and the
 * gates above. BUILD servers answer an unknown route 400 "unknown request" (below).
 */
const NOT_LOGIC = new Set([404, 405, 502, 503, 504, ...GATES]);

/** Did this answer come from the route's logic? (Not a not-found, unknown route, 405, gateway or refusal at the door.) */
export function reachedLogic(protocol: 'cloud' | 'build', res: Pick<HttpResponse, 'status' | 'text'>): boolean {
  if (NOT_LOGIC.has(res.status)) return false;
  if (protocol === 'build' && res.status === 400 && /unknown[_ ]request/i.test(res.text.slice(0, 2000))) return false;
  return true;
}

/** What one request reached: its status (or how it ended without one) and, when it reached the route's logic, its route. */
function coverOf(protocol: 'cloud' | 'build', c: HttpCase, o: HttpOutcome): Cover {
  if (!o.res) return { answers: [o.error.code], past: false };
  const past = !GATES.has(o.res.status);
  return { answers: [String(o.res.status)], past, reached: reachedLogic(protocol, o.res) ? [`${c.method} ${c.route}`] : [] };
}

/**
 * The id of an OAuth client the target says it created, if it can go into a path as one segment
 * (the target chooses it: an id such as '..' or a megabyte of text is not sent anywhere).
 */
function clientId(json: unknown): string | undefined {
  const id = (json as { id?: unknown } | undefined)?.id;
  const text = typeof id === 'number' && Number.isSafeInteger(id) ? String(id) : id;
  return typeof text === 'string' && /^[A-Za-z0-9_-]{1,128}$/.test(text) ? text : undefined;
}
