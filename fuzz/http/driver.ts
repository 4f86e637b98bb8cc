// The HTTP driver: one request per case through the project's HTTP client (undici pool,
// keep-alive, one deadline per exchange, body cap, redaction), judged by oracles.ts. A 429 is
// the target's rate limit, not a finding: the case waits for Retry-After (at most 5 s, twice)
// and is sent again. Embedded references run in-process and are restarted when they die.
import { setTimeout as sleep } from 'node:timers/promises';
import { closeHttpPools, HttpClient, type HttpResponse } from '../../src/clients/http/client.ts';
import { TargetError } from '../../src/core/errors.ts';
import type { FuzzDriver, IsolatedOutcome, QuickOutcome } from '../core/kind.ts';
import { deserializeHttpCase, serializeHttpCase, type HttpCase } from './case.ts';
import { judgeHttp, type HttpOutcome } from './oracles.ts';

export interface HttpEndpoint {
  baseUrl: string;
  /** The Authorization header of the role cases run as (never stored in a case). */
  authorization: string;
  /** A documented read route that answers when the server is alive. */
  livenessPath: string;
  secrets: readonly string[];
}

export interface HttpDriverOptions {
  protocol: 'cloud' | 'build';
  endpoint(): HttpEndpoint;
  timeoutMs: number;
  /** Restarts an embedded reference that died; absent for external targets. */
  restart?: () => Promise<void>;
}

const MAX_RETRY_AFTER_MS = 5000;
const RESPONSE_RECORD_CHARS = 4096;

export class HttpDriver implements FuzzDriver<HttpCase> {
  private client: HttpClient;
  private base: string;
  private restarting: Promise<boolean> | undefined;

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

  /** Sends the case; a 429 waits for Retry-After and is sent again (twice at most). */
  async send(c: HttpCase): Promise<HttpOutcome> {
    for (let attempt = 0; ; attempt++) {
      let res: HttpResponse;
      try {
        res = await this.current().request({
          method: c.method,
          path: c.path,
          query: c.query,
          headers: { ...c.headers, authorization: this.o.endpoint().authorization },
          body: c.body,
          credentialName: 'CREDENTIALS',
        });
      } catch (err) {
        const code = err instanceof TargetError ? err.code : 'E_ERROR';
        return { error: { code, message: (err as Error).message } };
      }
      if (res.status !== 429 || attempt >= 2) return { res };
      const wait = Math.min(MAX_RETRY_AFTER_MS, Math.max(100, Number(res.headers['retry-after']) * 1000 || 1000));
      await sleep(wait);
    }
  }

  async quick(c: HttpCase): Promise<QuickOutcome> {
    const o = await this.send(c);
    const v = judgeHttp(this.o.protocol, c, o);
    return v.length ? { status: 'suspect', reason: v[0].message } : { status: 'passed', shape: `${c.method} ${c.route} ${o.res?.status}` };
  }

  async isolated(c: HttpCase): Promise<IsolatedOutcome> {
    let o = await this.send(c);
    // Refused before a byte was sent: an embedded reference another case killed. That is not this
    // case's doing: bring the reference back and run the case on it.
    if (o.error?.code === 'E_TARGET_UNREACHABLE' && this.o.restart && (await this.recover())) o = await this.send(c);
    const violations = judgeHttp(this.o.protocol, c, o);
    if (violations.length && !(await this.alive())) {
      // A dead server is the finding, first: how the request itself ended (reset, closed, refused)
      // is timing, and a bucket taken from it would differ between the case and its re-runs.
      violations.unshift({ oracle: 'liveness', message: `the server stopped answering GET ${this.o.endpoint().livenessPath} after ${c.method} ${c.route}`, signature: `dead after ${c.method} ${c.route}` });
    }
    return { violations, record: this.record(c, o), shape: `${c.method} ${c.route} ${o.res?.status ?? o.error?.code}` };
  }

  /** The exchange as a finding file keeps it: the request as sent (no credentials) and what came back. */
  private record(c: HttpCase, o: HttpOutcome): unknown {
    const url = this.client.urlOf({ path: c.path, query: c.query });
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
      if (!(await this.alive())) await this.o.restart!();
      return this.alive();
    })().finally(() => (this.restarting = undefined));
    return this.restarting;
  }

  serialize(c: HttpCase): unknown {
    return serializeHttpCase(c);
  }

  deserialize(data: unknown): HttpCase {
    return deserializeHttpCase(data);
  }

  describe(c: HttpCase): unknown {
    return { request: `${c.method} ${c.path}`, bodyBytes: c.body === undefined ? 0 : Buffer.byteLength(c.body), note: c.note };
  }

  async close(): Promise<void> {
    await closeHttpPools(this.base);
  }
}
