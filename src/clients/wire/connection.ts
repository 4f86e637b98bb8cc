// One WIRE client connection over a real TCP socket: handshake, framed queries, responses
// matched by token, timeouts on every wait, and every byte recorded as evidence.
import net from 'node:net';
import {
  ProtocolViolation,
  TargetClosed,
  TargetError,
  TargetTimeout,
  TargetUnreachable,
  targetErrorFromSocket,
} from '../../core/errors.ts';
import type { EvidenceLog } from '../../core/evidence.ts';
import { decodeResponse, describeResponse, encodeQuery, frame, fromDatum, type QueryMsg, type ResponseMsg, type TermMsg } from './codec.ts';
import { FrameReader, DEFAULT_MAX_FRAME_BYTES } from './frame-reader.ts';
import { encodeHandshake, HandshakeReplyReader, type HandshakeOptions } from './handshake.ts';
import { QueryType, names, nameOf } from './schema.ts';
import { expr, type Term, type TermLike } from './terms.ts';

export interface WireEndpoint {
  host: string;
  port: number;
}

export interface WireConnectionOptions extends WireEndpoint {
  connectTimeoutMs?: number;
  /** Default wait for a handshake reply or a response. */
  replyTimeoutMs?: number;
  maxFrameBytes?: number;
  evidence?: EvidenceLog;
  /** Number of this connection within a check, shown in evidence. */
  id?: number;
}

export interface QueryInput {
  type: keyof typeof QueryType;
  term?: TermLike;
  /** Defaults to the connection's next unused token. */
  token?: bigint | number;
  globalOptargs?: Record<string, TermLike>;
  acceptsRJson?: boolean;
  obsoleteNoreply?: boolean;
}

/** Responses kept that no one waits for; a target flooding unsolicited frames hits this bound. */
export const MAX_UNCLAIMED_RESPONSES = 10_000;
/** Responses kept in `received` for checks and evidence; later ones are counted only. */
const MAX_RECORDED_RESPONSES = 10_000;

interface Waiter {
  match: (res: ResponseMsg) => boolean;
  resolve: (res: ResponseMsg) => void;
  reject: (err: Error) => void;
  timer: NodeJS.Timeout;
}

export class WireConnection {
  private readonly frames: FrameReader;
  private handshakeReader: HandshakeReplyReader | undefined;
  private handshakeWaiter: { resolve: (s: string) => void; reject: (e: Error) => void; timer: NodeJS.Timeout } | undefined;
  /** Bytes that arrived before the handshake was sent or answered. */
  private early: Buffer[] = [];
  private mode: 'tcp' | 'handshake' | 'frames' = 'tcp';
  private readonly inbox: ResponseMsg[] = [];
  /** What each token's query was, in a few words: a missing answer names the query it was owed to. */
  private readonly sentQueries = new Map<bigint, string>();
  private readonly waiters: Waiter[] = [];
  private failure: TargetError | undefined;
  private tokenCounter = 0n;
  readonly replyTimeoutMs: number;
  /** Decoded responses in arrival order, consumed or not (the first MAX_RECORDED_RESPONSES). */
  readonly received: ResponseMsg[] = [];
  receivedCount = 0;

  private constructor(
    private readonly socket: net.Socket,
    private readonly opts: WireConnectionOptions,
  ) {
    this.frames = new FrameReader(opts.maxFrameBytes ?? DEFAULT_MAX_FRAME_BYTES);
    this.replyTimeoutMs = opts.replyTimeoutMs ?? 5000;
    socket.on('data', (chunk: Buffer) => this.onData(chunk));
    socket.on('error', (err) => this.fail(targetErrorFromSocket(err, 'connection')));
    socket.on('close', () => this.fail(this.closedError()));
  }

  /** Opens the TCP connection only (no handshake). */
  static connect(opts: WireConnectionOptions): Promise<WireConnection> {
    const timeoutMs = opts.connectTimeoutMs ?? 5000;
    return new Promise((resolve, reject) => {
      const socket = net.connect({ host: opts.host, port: opts.port });
      socket.setNoDelay(true);
      const timer = setTimeout(() => {
        socket.destroy();
        reject(new TargetUnreachable(`no TCP connection to ${opts.host}:${opts.port} within ${timeoutMs} ms`));
      }, timeoutMs).unref();
      socket.once('error', (err) => {
        clearTimeout(timer);
        reject(targetErrorFromSocket(err, `connect to ${opts.host}:${opts.port}`));
      });
      socket.once('connect', () => {
        clearTimeout(timer);
        socket.removeAllListeners('error');
        resolve(new WireConnection(socket, opts));
      });
    });
  }

  /** Sends the handshake bytes for `options` and resolves with the NUL-terminated reply (without the NUL). */
  handshake(options: HandshakeOptions = {}, timeoutMs = this.replyTimeoutMs): Promise<string> {
    const keyBytes = Buffer.byteLength(options.authKey ?? '');
    // The key is a secret: evidence gets the same bytes with the key masked, its length kept.
    const redacted = encodeHandshake({ ...options, authKey: '*'.repeat(keyBytes) });
    const described = { handshake: { version: options.version ?? 'V0_4', authKey: keyBytes ? `(${keyBytes} bytes, redacted)` : '', protocol: options.protocol ?? 'PROTOBUF' } };
    return this.handshakeRaw(encodeHandshake(options), timeoutMs, { decoded: described, evidenceBytes: redacted });
  }

  /** Sends arbitrary handshake bytes (for mutated handshakes) and waits for the NUL-terminated reply. */
  handshakeRaw(bytes: Buffer, timeoutMs = this.replyTimeoutMs, shown: { decoded?: unknown; evidenceBytes?: Buffer } = {}): Promise<string> {
    if (this.mode !== 'tcp') throw new Error('handshake already sent on this connection');
    this.mode = 'handshake';
    this.handshakeReader = new HandshakeReplyReader();
    const result = new Promise<string>((resolve, reject) => {
      const timer = setTimeout(() => {
        const pending = this.handshakeReader?.pending ?? Buffer.alloc(0);
        const seen = pending.length ? `; received ${JSON.stringify(pending.toString('latin1'))} without NUL` : '';
        this.handshakeWaiter = undefined;
        reject(new TargetTimeout(`no NUL-terminated handshake reply within ${timeoutMs} ms${seen}`, timeoutMs));
      }, timeoutMs).unref();
      this.handshakeWaiter = { resolve, reject, timer };
    });
    this.write(bytes, shown.decoded ?? { handshake: 'raw bytes' }, shown.evidenceBytes);
    if (this.failure) this.rejectHandshake(this.failure);
    for (const chunk of this.early.splice(0)) this.onData(chunk);
    return result;
  }

  /** Writes raw bytes (already framed or deliberately broken). */
  write(bytes: Uint8Array, decoded?: unknown, evidenceBytes: Uint8Array = bytes): void {
    this.opts.evidence?.bytes('sent', evidenceBytes, { connection: this.opts.id, decoded });
    if (!this.socket.destroyed) this.socket.write(bytes);
  }

  nextToken(): bigint {
    return ++this.tokenCounter;
  }

  /** Encodes and sends one framed Query; returns its token. */
  send(input: QueryInput): bigint {
    const token = input.token === undefined ? this.nextToken() : BigInt(input.token);
    const msg: QueryMsg = { type: QueryType[input.type], token };
    if (input.term !== undefined) msg.query = expr(input.term).msg;
    if (input.globalOptargs) {
      msg.global_optargs = Object.entries(input.globalOptargs).map(([key, v]) => ({ key, val: expr(v).msg }));
    }
    if (input.acceptsRJson !== undefined) msg.accepts_r_json = input.acceptsRJson;
    if (input.obsoleteNoreply !== undefined) msg.OBSOLETE_noreply = input.obsoleteNoreply;
    this.write(frame(encodeQuery(msg)), { query: describeQuery(msg) });
    const root = msg.query?.type;
    this.sentQueries.set(token, `${nameOf(names.queryType, msg.type)}${root === undefined ? '' : ` ${nameOf(names.termType, root)}(…)`}`);
    return token;
  }

  /** START and wait for the answer to its token. */
  async start(term: TermLike, extra: Omit<QueryInput, 'type' | 'term'> = {}): Promise<ResponseMsg> {
    return this.next(this.send({ type: 'START', term, ...extra }));
  }

  continue(token: bigint): Promise<ResponseMsg> {
    return this.next(this.send({ type: 'CONTINUE', token }));
  }

  /** STOP; the document states no response rule for STOP, so nothing is awaited. */
  stop(token: bigint): void {
    this.send({ type: 'STOP', token });
  }

  noreplyWait(): Promise<ResponseMsg> {
    return this.next(this.send({ type: 'NOREPLY_WAIT' }));
  }

  serverInfo(extra: Omit<QueryInput, 'type' | 'term'> = {}): Promise<ResponseMsg> {
    return this.next(this.send({ type: 'SERVER_INFO', ...extra }));
  }

  /** The next response carrying `token`. */
  next(token: bigint, timeoutMs = this.replyTimeoutMs): Promise<ResponseMsg> {
    const query = this.sentQueries.get(token);
    return this.waitFor((r) => r.token === token, `response to token ${token}${query ? ` (${query})` : ''}`, timeoutMs);
  }

  /** The next response in arrival order, whatever its token. */
  nextAny(timeoutMs = this.replyTimeoutMs): Promise<ResponseMsg> {
    return this.waitFor(() => true, 'response', timeoutMs);
  }

  /** Waits `ms` and returns the responses that arrived unclaimed meanwhile (for "no reply" rules). */
  async quiet(ms: number): Promise<ResponseMsg[]> {
    await new Promise((r) => setTimeout(r, ms));
    if (this.failure && !(this.failure instanceof TargetClosed)) throw this.failure;
    return this.inbox.splice(0);
  }

  get isClosed(): boolean {
    return this.socket.destroyed;
  }

  close(): void {
    this.socket.destroy();
  }

  private waitFor(match: (r: ResponseMsg) => boolean, what: string, timeoutMs: number): Promise<ResponseMsg> {
    const i = this.inbox.findIndex(match);
    if (i !== -1) return Promise.resolve(this.inbox.splice(i, 1)[0]);
    if (this.failure) return Promise.reject(this.failure);
    return new Promise((resolve, reject) => {
      const waiter: Waiter = {
        match,
        resolve,
        reject,
        timer: setTimeout(() => {
          this.waiters.splice(this.waiters.indexOf(waiter), 1);
          reject(new TargetTimeout(`no ${what} within ${timeoutMs} ms${this.unclaimedSummary()}`, timeoutMs));
        }, timeoutMs).unref(),
      };
      this.waiters.push(waiter);
    });
  }

  private onData(chunk: Buffer): void {
    if (this.mode === 'tcp') {
      this.early.push(chunk);
      return;
    }
    this.opts.evidence?.bytes('received', chunk, { connection: this.opts.id });
    try {
      if (this.mode === 'handshake') {
        const done = this.handshakeReader!.push(chunk);
        if (!done) return;
        this.mode = 'frames';
        this.opts.evidence?.decoded('received', this.opts.id, { handshakeReply: done.reply });
        const waiter = this.handshakeWaiter;
        this.handshakeWaiter = undefined;
        if (waiter) {
          clearTimeout(waiter.timer);
          waiter.resolve(done.reply);
        }
        chunk = done.rest;
        if (!chunk.length) return;
      }
      for (const payload of this.frames.push(chunk)) this.deliver(decodeResponse(payload));
    } catch (err) {
      this.fail(err instanceof TargetError ? err : new ProtocolViolation(String(err)));
      this.socket.destroy();
    }
  }

  /** What arrived instead, for a timeout message: "(2 responses arrived for other tokens: 8, 8)". */
  private unclaimedSummary(): string {
    if (!this.inbox.length) return '';
    const tokens = this.inbox.slice(0, 5).map((r) => String(r.token ?? 'none'));
    return ` (${this.inbox.length} response${this.inbox.length === 1 ? '' : 's'} arrived for other tokens: ${tokens.join(', ')}${this.inbox.length > 5 ? ', …' : ''})`;
  }

  private deliver(res: ResponseMsg): void {
    this.receivedCount++;
    if (this.received.length < MAX_RECORDED_RESPONSES) this.received.push(res);
    this.opts.evidence?.decoded('received', this.opts.id, describeResponse(res));
    const i = this.waiters.findIndex((w) => w.match(res));
    if (i === -1) {
      this.inbox.push(res);
      if (this.inbox.length > MAX_UNCLAIMED_RESPONSES) {
        this.fail(new ProtocolViolation(`target sent more than ${MAX_UNCLAIMED_RESPONSES} responses no query asked for`));
        this.socket.destroy();
      }
      return;
    }
    const [w] = this.waiters.splice(i, 1);
    clearTimeout(w.timer);
    w.resolve(res);
  }

  private closedError(): TargetClosed {
    if (this.mode === 'handshake') return new TargetClosed('target closed the connection before a NUL-terminated handshake reply');
    if (this.frames.midFrame) {
      return new TargetClosed(`target closed the connection in the middle of a frame (${this.frames.buffered} bytes of it received)`);
    }
    return new TargetClosed('target closed the connection');
  }

  private fail(err: TargetError): void {
    if (this.failure) return;
    this.failure = err;
    this.rejectHandshake(err);
    for (const w of this.waiters.splice(0)) {
      clearTimeout(w.timer);
      w.reject(err);
    }
  }

  private rejectHandshake(err: Error): void {
    const waiter = this.handshakeWaiter;
    this.handshakeWaiter = undefined;
    if (waiter) {
      clearTimeout(waiter.timer);
      waiter.reject(err);
    }
  }
}

export function describeQuery(q: QueryMsg): Record<string, unknown> {
  const out: Record<string, unknown> = { type: nameOf(names.queryType, q.type), token: q.token?.toString() };
  if (q.query) out.query = describeTerm(q.query);
  if (q.global_optargs?.length) out.global_optargs = Object.fromEntries(q.global_optargs.map((p) => [p.key, describeTerm(p.val ?? {})]));
  if (q.accepts_r_json) out.accepts_r_json = true;
  if (q.OBSOLETE_noreply) out.OBSOLETE_noreply = true;
  return out;
}

/** A term as nested arrays, `[NAME, args, optargs]`, the shape drivers print. */
export function describeTerm(t: TermMsg): unknown {
  const name = nameOf(names.termType, t.type);
  if (name === 'DATUM') {
    let value: unknown;
    try {
      value = fromDatum(t.datum);
    } catch {
      return { datum: t.datum };
    }
    // Scalars print bare; arrays and objects are marked so they do not read as terms.
    return value !== null && typeof value === 'object' ? { datum: value } : value;
  }
  const out: unknown[] = [name, (t.args ?? []).map(describeTerm)];
  if (t.optargs?.length) out.push(Object.fromEntries(t.optargs.map((p) => [p.key, describeTerm(p.val ?? {})])));
  return out;
}

export type { Term };
