// wire-ref: the embedded reference server of the WIRE protocol, a real TCP server (node:net)
// speaking the WIRE document (wire-protocol.md): handshake, length-prefixed protobuf frames,
// token-matched responses, batches of fewer than 1000 datums, errors with backtraces.
// Named faults (faults.ts) each break one documented behaviour, for the both-ways meta-test.
import net from 'node:net';
import { randomUUID } from 'node:crypto';
import protobuf from 'protobufjs';
import {
  decodeQuery,
  encodeResponse,
  fromDatum,
  toDatum,
  type DatumMsg,
  type JsValue,
  type QueryMsg,
  type ResponseMsg,
} from '../../src/clients/wire/codec.ts';
import { FrameReader, DEFAULT_MAX_FRAME_BYTES } from '../../src/clients/wire/frame-reader.ts';
import { DatumType, ErrorType, names, QueryType, ResponseNote, ResponseType, TermType, Version, WireProtocol } from '../../src/clients/wire/schema.ts';
import { FrameTooLarge } from '../../src/core/errors.ts';
import { compile, evaluate, orderingFault, isFeed, isStream, NotYet, ReqlError, resolve, Store, Stream, toDatumValue, type Env, type Feed, type Value } from './engine/index.ts';
import { reverseKeys } from './engine/terms/control.ts';
import { STRAY_LITERAL } from './engine/terms/objects.ts';
import { isAnyWireFault, isWireFault, isWireFuzzFault, type WireFault, type WireFuzzFault, WIRE_FAULTS, WIRE_FUZZ_FAULTS } from './faults.ts';
import { firstTerm, holdsTerm, isLimitZero, isPolygonSub, termDepth } from './fuzz-faults.ts';

export interface WireReferenceOptions {
  host?: string;
  /** 0 (default) picks an ephemeral port. */
  port?: number;
  /** The key clients must send; '' accepts the empty key only. */
  authKey?: string;
  /**
   * A second key, of a user without permission to write (line 167): its queries that would change
   * data or create and drop databases, tables or indexes are refused with PERMISSION_ERROR.
   */
  restrictedAuthKey?: string;
  faults?: readonly string[];
  /** Datums per batch; the document requires fewer than 1000. */
  batchSize?: number;
  maxFrameBytes?: number;
  /** Run as the variant: every choice the document leaves open taken the other way (docs/open-choices.md). */
  variant?: boolean;
  /**
   * The proof matrix's trivial servers (test/meta): after a good handshake, `do-nothing` answers
   * every query with a RUNTIME_ERROR, `accept-all` with an empty SUCCESS_SEQUENCE.
   */
  mode?: 'do-nothing' | 'accept-all';
  /**
   * A half-built server: a START whose term tree holds a term outside this list (TermType names)
   * is answered with a RUNTIME_ERROR saying the term is not implemented.
   */
  onlyTerms?: readonly string[];
  /** Each response waits up to this many milliseconds (random, order kept): a busy server. */
  latencyMs?: number;
  /** Told the TermType name of every term of each START's tree (what a check touches). */
  onTerm?(name: string): void;
}

export interface WireReference {
  host: string;
  port: number;
  faults: readonly WireFault[];
  close(): Promise<void>;
}

const MAX_KEY_BYTES = 64 * 1024;

/** Terms that change data, or create and drop databases, tables and indexes: what a read-only user may not run. */
const WRITE_TERMS = new Set<number>(
  ['INSERT', 'UPDATE', 'REPLACE', 'DELETE', 'DB_CREATE', 'DB_DROP', 'TABLE_CREATE', 'TABLE_DROP', 'INDEX_CREATE', 'INDEX_DROP', 'INDEX_RENAME', 'SET_WRITE_HOOK', 'GRANT', 'SYNC']
    .map((n) => TermType[n])
    .filter((n) => n !== undefined),
);

export async function startWireReference(options: WireReferenceOptions = {}): Promise<WireReference> {
  const unknown = (options.faults ?? []).filter((f) => !isAnyWireFault(f));
  if (unknown.length) {
    throw new Error(`unknown wire-ref fault(s): ${unknown.join(', ')}; known: ${[...Object.keys(WIRE_FAULTS), ...Object.keys(WIRE_FUZZ_FAULTS)].join(', ')}`);
  }
  const faults = new Set((options.faults ?? []).filter(isWireFault));
  const variant = options.variant === true;
  const settings: Settings = {
    authKey: options.authKey ?? '',
    restrictedAuthKey: options.restrictedAuthKey,
    faults,
    variant,
    // Any count under 1000 is conformant (line 184): 500 in the reference, 250 in the variant.
    batchSize: faults.has('batch-1000') ? 1000 : (options.batchSize ?? (variant ? 250 : 500)),
    maxFrameBytes: options.maxFrameBytes ?? DEFAULT_MAX_FRAME_BYTES,
    serverId: randomUUID(),
    store: new Store(variant ? 'default' : 'test'),
    fuzzFaults: new Set((options.faults ?? []).filter(isWireFuzzFault)),
    mode: options.mode,
    onlyTerms: options.onlyTerms && new Set(options.onlyTerms.map((n) => TermType[n as keyof typeof TermType]).filter((n) => n !== undefined)),
    latencyMs: options.latencyMs ?? 0,
    onTerm: options.onTerm,
  };
  const sockets = new Set<net.Socket>();
  const server = net.createServer((socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    new ServerConnection(socket, settings);
  });
  const host = options.host ?? '127.0.0.1';
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, host, () => resolve());
  });
  const port = (server.address() as net.AddressInfo).port;
  return {
    host,
    port,
    faults: [...faults],
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}

interface Settings {
  authKey: string;
  restrictedAuthKey?: string;
  faults: ReadonlySet<WireFault>;
  /** The variant mode: every open choice of the document taken the other way (docs/open-choices.md). */
  variant: boolean;
  batchSize: number;
  maxFrameBytes: number;
  serverId: string;
  /** The databases, shared by every connection of this server. */
  store: Store;
  /** Faults of WIRE_FUZZ_FAULTS (found by the fuzzer, not by checks). */
  fuzzFaults: ReadonlySet<WireFuzzFault>;
  mode?: 'do-nothing' | 'accept-all';
  /** TermType numbers served (undefined: all). */
  onlyTerms?: ReadonlySet<number>;
  latencyMs: number;
  onTerm?(name: string): void;
}

/** Per-query options that shape how its responses are encoded. */
interface Encoding {
  rJson: boolean;
  profile: boolean;
  started: number;
}

interface Cursor {
  stream: Stream;
  encoding: Encoding;
  /** Re-creates the stream from its first item (only the continue-restarts fault uses it). */
  restart: () => Stream;
}

/** An open changefeed: its changes are sent on CONTINUE, as soon as there are any. */
interface FeedCursor {
  feed: Feed;
  encoding: Encoding;
}

class ServerConnection {
  private handshakeBuf = Buffer.alloc(0);
  private state: 'handshake' | 'frames' | 'closed' = 'handshake';
  private readonly frames: FrameReader;
  private readonly cursors = new Map<bigint, Cursor>();
  private readonly feeds = new Map<bigint, FeedCursor>();
  /** Feeds STOP ended under the feed-stop-delivers-final fault: one more change, then closed. */
  private readonly stopping = new Set<bigint>();
  /** Feeds STOP left running under the feed-stop-ignored-late fault (next CONTINUE answered empty). */
  private readonly stoppedLate = new Set<bigint>();
  /** For the single-cursor fault: the one stream such a server remembers. */
  private lastCursor: Cursor | undefined;
  private readonly f: ReadonlySet<WireFault>;
  /** A query of this connection waits for something (a change, an index build) before it is answered. */
  private waiting = 0;
  /** The serial-queries fault: frames that arrived while a query waited, answered only after it. */
  private readonly held: Buffer[] = [];
  /** Handshaken with the restricted user's key: writes are refused for lack of permission. */
  private restricted = false;
  private draining = false;

  constructor(
    private readonly socket: net.Socket,
    private readonly settings: Settings,
  ) {
    this.f = settings.faults;
    this.frames = new FrameReader(settings.maxFrameBytes);
    socket.setNoDelay(true);
    socket.on('data', (chunk: Buffer) => this.onData(chunk));
    socket.on('error', () => socket.destroy());
    socket.on('close', () => {
      for (const { feed } of this.feeds.values()) feed.close();
      this.feeds.clear();
    });
  }

  private onData(chunk: Buffer): void {
    // The answers to every frame of a chunk leave in one write (writev) rather than one each.
    this.socket.cork();
    try {
      this.onChunk(chunk);
    } finally {
      this.socket.uncork();
    }
  }

  private onChunk(chunk: Buffer): void {
    if (this.state === 'handshake') {
      this.handshakeBuf = Buffer.concat([this.handshakeBuf, chunk]);
      const rest = this.tryHandshake();
      if (rest === undefined || (this.state as string) !== 'frames') return;
      chunk = rest;
      if (!chunk.length) return;
    }
    if (this.state !== 'frames') return;
    if (this.f.has('second-handshake-accepted') && chunk.length >= 4 && !this.frames.midFrame && (Object.values(Version) as number[]).includes(chunk.readUInt32LE(0))) {
      // The fault's bug: a version magic on an open connection starts a new handshake.
      this.state = 'handshake';
      this.handshakeBuf = Buffer.alloc(0);
      return this.onChunk(chunk);
    }
    if (this.f.has('assume-whole-frames')) {
      // The fault's bug: one TCP chunk is taken to be one whole frame.
      const size = chunk.length >= 4 ? chunk.readUInt32LE(0) : 0;
      this.onFrame(chunk.subarray(4, 4 + size));
      return;
    }
    let payloads: Buffer[];
    try {
      payloads = this.frames.push(chunk);
    } catch (err) {
      // Frames before the oversized one arrived whole and are answered first (the fuzzer found them dropped).
      if (err instanceof FrameTooLarge) for (const p of err.before) this.onFrame(p);
      if (err instanceof FrameTooLarge) this.fatal(0n, `Query frame of ${err.announced} bytes exceeds the ${err.limit} byte limit.`);
      return;
    }
    for (const p of payloads) {
      if (p.length === 0 && this.settings.fuzzFaults.has('hang-on-empty-frame')) return void (this.state = 'closed');
      this.onFrame(p);
    }
  }

  /** Parses as much of the handshake as has arrived; returns leftover bytes once it is done. */
  private tryHandshake(): Buffer | undefined {
    const buf = this.handshakeBuf;
    if (buf.length < 4) return undefined;
    const version = buf.readUInt32LE(0);
    let offset = 4;
    const refuse = (message: string) => {
      // Any string but SUCCESS is an error description (line 107); its wording is not stated.
      const text = this.settings.variant ? `handshake refused - ${message.replace(/\.$/, '')}` : `ERROR: ${message}`;
      this.socket.end(Buffer.from(`${text}\0`, 'utf8'));
      this.state = 'closed';
      return Buffer.alloc(0);
    };
    if (version === Version.V1_0) return refuse('the V1_0 handshake is not supported by this server.');
    if (version === Version.V0_3 && this.f.has('reject-v0_3')) return refuse('unsupported protocol version V0_3.');
    if (version === Version.V0_2 && this.f.has('reject-v0_2')) return refuse('unsupported protocol version V0_2.');
    const known = [Version.V0_1, Version.V0_2, Version.V0_3, Version.V0_4];
    // The fault's bug: any magic it does not know is read as V0_4.
    if (!known.includes(version) && this.f.has('accept-unknown-version')) known.push(version);
    if (!known.includes(version) && this.settings.fuzzFaults.has('silent-on-unknown-magic')) return (this.state = 'closed'), Buffer.alloc(0);
    if (!known.includes(version)) return refuse(`received an unsupported protocol version magic 0x${version.toString(16)}.`);
    let key = '';
    if (version !== Version.V0_1) {
      if (buf.length < offset + 4) return undefined;
      const keyLength = buf.readUInt32LE(offset);
      if (keyLength > MAX_KEY_BYTES) return refuse(`authorization key of ${keyLength} bytes is too long.`);
      if (buf.length < offset + 4 + keyLength) return undefined;
      key = buf.subarray(offset + 4, offset + 4 + keyLength).toString('utf8');
      offset += 4 + keyLength;
    }
    // V0_3 and V0_4 (and, under accept-unknown-version, any magic read as V0_4) select a protocol.
    if (version !== Version.V0_1 && version !== Version.V0_2) {
      if (buf.length < offset + 4) return undefined;
      const protocol = buf.readUInt32LE(offset);
      offset += 4;
      if (protocol === WireProtocol.JSON) return refuse('the JSON protocol is not supported by this server; use PROTOBUF.');
      if (protocol !== WireProtocol.PROTOBUF && !this.f.has('accept-unknown-protocol')) return refuse(`received an unsupported protocol magic 0x${protocol.toString(16)}.`);
    }
    const restricted = this.settings.restrictedAuthKey !== undefined && key === this.settings.restrictedAuthKey;
    if (key !== this.settings.authKey && !restricted && !this.f.has('accept-any-key')) return refuse('incorrect authorization key.');
    this.restricted = restricted;
    let reply = this.f.has('handshake-lowercase-success') ? 'success' : 'SUCCESS';
    if (!this.f.has('no-nul-after-success')) reply += '\0';
    this.socket.write(reply);
    this.state = 'frames';
    this.handshakeBuf = Buffer.alloc(0);
    return buf.subarray(offset);
  }

  private onFrame(payload: Buffer): void {
    if (this.settings.mode) return this.trivialAnswer(payload);
    // V0_4 runs queries in parallel (line 191): a waiting query holds back nothing, except under this fault.
    if (this.f.has('serial-queries') && (this.waiting > 0 || (this.held.length && !this.draining))) {
      this.held.push(payload);
      return;
    }
    let query: QueryMsg;
    try {
      query = decodeQuery(payload);
    } catch (err) {
      if (this.f.has('malformed-closes')) {
        this.socket.destroy();
        return;
      }
      this.respondError(peekToken(payload), new ReqlError('CLIENT_ERROR', `Malformed protobuf Query: ${(err as Error).message}`), noEncoding());
      return;
    }
    const token = query.token ?? 0n;
    try {
      this.handleQuery(query, token);
    } catch (err) {
      const e = err instanceof ReqlError ? err : new ReqlError('RUNTIME_ERROR', `Internal error: ${(err as Error).message}`, ErrorType.INTERNAL);
      const twoStrings = this.settings.fuzzFaults.has('two-strings-for-rare-term') && holdsTerm(query.query, isPolygonSub);
      this.respondError(token, e, encodingOf(query, this.settings), twoStrings);
    }
  }

  /** The proof matrix's trivial servers: one answer to every query, whatever it is. */
  private trivialAnswer(payload: Buffer): void {
    const token = peekToken(payload);
    if (this.settings.mode === 'accept-all') return this.respond({ type: ResponseType.SUCCESS_SEQUENCE, token, response: [] }, noEncoding());
    this.respondError(token, new ReqlError('RUNTIME_ERROR', 'This server implements no query.'), noEncoding());
  }

  private handleQuery(query: QueryMsg, token: bigint): void {
    const enc = encodingOf(query, this.settings);
    switch (query.type) {
      case QueryType.START:
        return this.start(query, token, enc);
      case QueryType.CONTINUE: {
        const feed = this.feeds.get(token);
        // When CONTINUE on a changefeed is answered is not stated: the reference waits for a
        // change, the variant answers at once (an empty SUCCESS_PARTIAL when nothing changed).
        if (feed) return this.sendChanges(token, feed, this.settings.variant);
        const cursor = this.f.has('single-cursor') ? this.lastCursor : this.cursors.get(token);
        if (!cursor || (this.f.has('single-cursor') && !this.cursors.has(token))) {
          // Two faults answer it RUNTIME_ERROR and break a rule of every error response besides.
          if (this.f.has('unknown-token-error-object-message') || this.f.has('unknown-token-error-no-backtrace')) {
            const text = `Token ${token} not in stream cache.`;
            const res: Partial<ResponseMsg> = { type: ResponseType.RUNTIME_ERROR, token, error_type: ErrorType.QUERY_LOGIC };
            res.response = [this.f.has('unknown-token-error-object-message') ? toDatum({ message: text }) : toDatum(text)];
            if (!this.f.has('unknown-token-error-no-backtrace')) res.backtrace = { frames: [] };
            return this.respond(res, enc);
          }
          throw this.f.has('unknown-token-runtime-error')
            ? new ReqlError('RUNTIME_ERROR', `Token ${token} not in stream cache.`, ErrorType.QUERY_LOGIC)
            : new ReqlError('CLIENT_ERROR', `Token ${token} not in stream cache.`);
        }
        if (this.f.has('continue-restarts')) cursor.stream = cursor.restart();
        return this.sendBatch(token, cursor, this.f.has('last-batch-unbounded') ? Infinity : this.settings.batchSize);
      }
      case QueryType.STOP:
        // The document states no response rule for STOP; answer as the reference database does.
        this.cursors.delete(token);
        // The final fault's bug: the feed delivers one more change (in a SUCCESS_SEQUENCE) before it ends.
        if (this.f.has('feed-stop-delivers-final') && this.feeds.has(token)) this.stopping.add(token);
        // The late fault's bug: the feed keeps running, and answers the next CONTINUE empty first.
        else if (this.f.has('feed-stop-ignored-late') && this.feeds.has(token)) this.stoppedLate.add(token);
        else if (!this.f.has('feed-stop-ignored')) this.closeFeed(token);
        // The variant takes the other reading: STOP is not answered at all.
        if (this.settings.variant) return;
        return this.respond({ type: ResponseType.SUCCESS_SEQUENCE, token, response: [] }, enc);
      case QueryType.NOREPLY_WAIT:
        // Every query runs to completion before the next frame is read, so noreply work is done.
        return this.respond({ type: this.f.has('noreply-wait-wrong-type') ? ResponseType.SUCCESS_ATOM : ResponseType.WAIT_COMPLETE, token, response: this.f.has('noreply-wait-wrong-type') ? [toDatum(null)] : [] }, enc);
      case QueryType.SERVER_INFO: {
        // The fields of the server information are not stated: the variant names itself otherwise and adds a version.
        const info: JsValue = this.settings.variant
          ? { version: 'wire-ref variant 1.0', proxy: false, name: 'wire-ref-variant', id: this.settings.serverId }
          : { id: this.settings.serverId, name: 'wire-ref', proxy: false };
        const type = this.f.has('server-info-as-atom') ? ResponseType.SUCCESS_ATOM : ResponseType.SERVER_INFO;
        // SERVER_INFO never carries profiling data; only the server-info-profile fault adds it.
        return this.respond({ type, token, response: [this.datum(info, enc)] }, { ...enc, profile: enc.profile && this.f.has('server-info-profile') });
      }
      default:
        throw new ReqlError('CLIENT_ERROR', `Unrecognized QueryType: ${query.type}.`);
    }
  }

  /** One query of this connection stopped (or started) waiting; held frames go on when none waits. */
  private wait(delta: 1 | -1): void {
    this.waiting += delta;
    if (this.draining) return;
    this.draining = true;
    try {
      while (this.waiting === 0 && this.held.length && this.state === 'frames') this.onFrame(this.held.shift()!);
    } finally {
      this.draining = false;
    }
  }

  private start(query: QueryMsg, token: bigint, enc: Encoding): void {
    try {
      this.startNow(query, token, enc);
    } catch (err) {
      if (!(err instanceof NotYet)) throw err;
      // The query waits (the variant's INDEX_WAIT on an index being built): it is evaluated again
      // when it can be answered, and the connection's other queries are answered meanwhile.
      this.wait(1);
      setTimeout(() => {
        if (this.state !== 'closed' && !this.socket.destroyed) {
          try {
            this.start(query, token, enc);
          } catch (e) {
            const re = e instanceof ReqlError ? e : new ReqlError('RUNTIME_ERROR', `Internal error: ${(e as Error).message}`, ErrorType.INTERNAL);
            this.respondError(token, re, enc);
          }
        }
        this.wait(-1);
      }, Math.max(0, err.readyAt - Date.now()) + 1).unref();
    }
  }

  private startNow(query: QueryMsg, token: bigint, enc: Encoding): void {
    if (!query.query) throw new ReqlError('CLIENT_ERROR', 'START query without a term.');
    if (this.restricted && holdsTerm(query.query, (t) => WRITE_TERMS.has(t.type!))) {
      // Line 167: a query refused for lack of permission is reported with PERMISSION_ERROR.
      const type = this.f.has('permission-error-untyped') ? ErrorType.OP_FAILED : ErrorType.PERMISSION_ERROR;
      throw new ReqlError('RUNTIME_ERROR', this.settings.variant ? 'permission denied: read-only user' : 'User lacks the write permission.', type);
    }
    if (this.settings.onTerm) firstTerm(query.query, (t) => (this.settings.onTerm!(names.termType[t.type!] ?? String(t.type)), false));
    const only = this.settings.onlyTerms;
    if (only) {
      const missing = firstTerm(query.query, (t) => t.type !== undefined && t.type !== TermType.DATUM && !only.has(t.type));
      if (missing) throw new ReqlError('RUNTIME_ERROR', `Term ${names.termType[missing.type!] ?? missing.type} is not implemented.`);
    }
    const fuzz = this.settings.fuzzFaults;
    if (fuzz.has('crash-on-deep-nesting') && termDepth(query.query) > 3) return void this.socket.destroy();
    if (fuzz.has('oversized-batch-on-limit-0') && holdsTerm(query.query, isLimitZero)) {
      return this.respond({ type: ResponseType.SUCCESS_SEQUENCE, token, response: Array.from({ length: 1000 }, () => toDatum(null)) }, enc);
    }
    const env: Env = { vars: new Map(), faults: this.f, store: this.settings.store, now: Date.now(), variant: this.settings.variant };
    env.arrayLimit = arrayLimitOf(query, env);
    const noreply = globalOptarg(query, 'noreply', env);
    const silent = (noreply === true || (noreply === false && this.f.has('noreply-any-value'))) && !this.f.has('noreply-ignored');
    if (query.OBSOLETE_noreply && this.f.has('honour-obsolete-noreply')) {
      this.evaluateQuietly(query, env);
      return;
    }
    if (silent) {
      this.evaluateQuietly(query, env);
      return;
    }
    compile(query.query, this.f, this.settings.variant);
    const value: Value = resolve(evaluate(query.query, env), env);
    if (isFeed(value)) {
      const cursor: FeedCursor = { feed: value, encoding: enc };
      this.feeds.set(token, cursor);
      // The first response comes at once, even empty, so that the client learns the feed's notes.
      this.sendChanges(token, cursor, true);
      return;
    }
    if (isStream(value)) {
      const restart = () => resolve(evaluate(query.query!, env), env) as Stream;
      const cursor: Cursor = { stream: value, encoding: enc, restart };
      if (this.f.has('stream-as-atom') && !value.infinite) {
        // The fault's bug: a finite stream is read out whole and answered as one array datum.
        return this.respond({ type: ResponseType.SUCCESS_ATOM, token, response: [this.datum(toDatumValue(value), enc)] }, enc);
      }
      // Whether a first batch may be empty is not stated: the variant answers the START of a lazy
      // stream with an empty SUCCESS_PARTIAL and sends the items on CONTINUE.
      if (this.settings.variant && !this.f.has('no-batching')) return this.sendBatch(token, cursor, 0);
      this.sendBatch(token, cursor, this.f.has('no-batching') ? Infinity : this.settings.batchSize);
      return;
    }
    const datum = toDatumValue(orderingFault(value, env));
    checkAnswer(datum, this.f.has('literal-ignored'));
    if (this.settings.variant && Array.isArray(datum) && !this.f.has('atom-as-sequence')) {
      // An ARRAY is both a DATUM and a Sequence (line 82): the variant answers it as a sequence.
      const cursor: Cursor = { stream: Stream.of(datum), encoding: enc, restart: () => Stream.of(datum) };
      this.sendBatch(token, cursor, this.settings.batchSize);
      return;
    }
    if (this.f.has('atom-as-sequence')) {
      this.respond({ type: ResponseType.SUCCESS_SEQUENCE, token, response: [this.datum(datum, enc)] }, enc);
      return;
    }
    this.respond({ type: ResponseType.SUCCESS_ATOM, token, response: [this.datum(datum, enc)] }, enc);
  }

  private evaluateQuietly(query: QueryMsg, env: Env): void {
    try {
      compile(query.query!, this.f, this.settings.variant);
      const v = resolve(evaluate(query.query!, env), env);
      if (isFeed(v)) v.close();
      else if (isStream(v) && !v.infinite) toDatumValue(v);
    } catch {
      // noreply: errors are not reported
    }
  }

  private sendBatch(token: bigint, cursor: Cursor, size: number): void {
    if (cursor.stream.infinite && size === Infinity) size = this.settings.batchSize;
    // The end of a stream: the reference finds it by the next take (a full last batch is then
    // followed by an empty SUCCESS_SEQUENCE), the variant reads one item ahead.
    const { batch, done } = cursor.stream.take(size, this.settings.variant);
    if (done) {
      this.cursors.delete(token);
      if (this.lastCursor === cursor) this.lastCursor = undefined;
    } else {
      this.cursors.set(token, cursor);
      this.lastCursor = cursor;
    }
    const res: Partial<ResponseMsg> = {
      type: done ? ResponseType.SUCCESS_SEQUENCE : ResponseType.SUCCESS_PARTIAL,
      token,
      response: batch.map((d) => this.datum(d, cursor.encoding)),
    };
    if (this.f.has('spurious-feed-note')) res.notes = [ResponseNote.SEQUENCE_FEED];
    this.respond(res, cursor.encoding);
  }

  /** Sends the changes waiting, or (with none waiting) sends the next ones as soon as they come. */
  private sendChanges(token: bigint, cursor: FeedCursor, immediately = false): void {
    const { feed } = cursor;
    if (this.stoppedLate.delete(token)) {
      this.respond({ type: ResponseType.SUCCESS_PARTIAL, token, response: [], notes: feed.notes }, cursor.encoding);
      return;
    }
    if (!feed.pending.length && !immediately) {
      this.wait(1);
      feed.onPush(() => {
        feed.onPush(undefined);
        if (this.feeds.get(token) === cursor) this.sendChanges(token, cursor);
        this.wait(-1);
      });
      return;
    }
    const batch = feed.pending.splice(0, this.settings.batchSize - 1);
    const final = this.stopping.delete(token);
    this.respond(
      { type: final ? ResponseType.SUCCESS_SEQUENCE : ResponseType.SUCCESS_PARTIAL, token, response: batch.map((d) => this.datum(d, cursor.encoding)), notes: feed.notes },
      cursor.encoding,
    );
    if (final) this.closeFeed(token);
  }

  private closeFeed(token: bigint): void {
    this.feeds.get(token)?.feed.close();
    this.feeds.delete(token);
  }

  private datum(value: JsValue, enc: Encoding): DatumMsg {
    if (this.f.has('num-as-int')) value = mapNumbers(value, Math.trunc);
    // accepts_r_json allows R_JSON (line 22) without requiring it: the reference sends every datum
    // as R_JSON, the variant only objects and arrays (plain R_NULL/R_BOOL/R_NUM/R_STR otherwise).
    const asJson = enc.rJson && (!this.settings.variant || (typeof value === 'object' && value !== null));
    if (asJson || this.f.has('r-json-always')) {
      // The JSON text's key order and spacing are not stated: the variant reverses keys and indents.
      const json = this.settings.variant ? JSON.stringify(reverseKeys(value), null, 1) : JSON.stringify(value);
      return { type: DatumType.R_JSON, r_str: this.f.has('r-json-invalid') ? json.replace(/"/g, "'") : json };
    }
    // R_OBJECT gives no key order (line 68): the variant sends every object's keys in reverse.
    const d = this.settings.variant ? reversedObjects(toDatum(value)) : toDatum(value);
    return this.f.has('bool-as-num') ? boolsAsNumbers(d) : d;
  }

  private respondError(token: bigint, err: ReqlError, enc: Encoding, twoStrings = false): void {
    // The wording of error messages is not stated: the variant says the kind of error first.
    const text = this.settings.variant ? `${VARIANT_KIND[err.responseType]}: ${err.message}` : err.message;
    const message: DatumMsg = this.f.has('error-message-as-object') ? toDatum({ message: text }) : toDatum(text);
    const res: Partial<ResponseMsg> = { type: ResponseType[err.responseType], token, response: twoStrings ? [message, message] : [message] };
    if (!this.f.has('no-backtrace')) {
      let frames = this.f.has('backtrace-reversed') ? [...err.frames].reverse() : err.frames;
      if (this.f.has('pos-one-based')) frames = frames.map((fr) => (fr.pos === undefined ? fr : { ...fr, pos: fr.pos + 1n }));
      res.backtrace = { frames };
    }
    // error_type "may be filled in" (line 38) and which conditions get which value is not shown
    // (line 180): the variant leaves it out for errors the query raised itself (ERROR).
    const omitted = this.settings.variant && err.errorType === ErrorType.USER;
    if (err.responseType === 'RUNTIME_ERROR' && err.errorType !== undefined && !omitted) {
      res.error_type = this.f.has('error-type-bogus') ? 42 : err.errorType;
    }
    // The fault's bug: CLIENT_ERROR and COMPILE_ERROR get an error_type too.
    if (err.responseType !== 'RUNTIME_ERROR' && this.f.has('error-type-on-every-error')) res.error_type = ErrorType.QUERY_LOGIC;
    this.respond(res, enc);
  }

  private respond(res: Partial<ResponseMsg>, enc: Encoding): void {
    if (this.state === 'closed' || this.socket.destroyed) return;
    if (res.token !== undefined) {
      if (this.f.has('token-echo-wrong')) res.token = res.token + 1n;
      if (this.f.has('token-truncate-32')) res.token = res.token & 0xffffffffn;
    }
    if ((enc.profile && !this.f.has('profile-missing')) || this.f.has('profile-always')) {
      const ms = (performance.now() - enc.started);
      // What profiling data holds is not stated: the variant sends one OBJECT, keys reversed.
      res.profile = this.settings.variant
        ? reversedObjects(toDatum({ total_ms: ms, steps: [{ step: 'evaluate', ms }] }))
        : toDatum([{ description: 'Evaluate query.', 'duration(ms)': ms, sub_tasks: [] }]);
    }
    const payload = encodeResponse(res);
    const header = Buffer.allocUnsafe(4);
    if (this.f.has('length-big-endian')) header.writeUInt32BE(payload.length, 0);
    else header.writeUInt32LE(payload.length, 0);
    this.send(Buffer.concat([header, payload]));
  }

  private outbox: Promise<void> = Promise.resolve();

  /** Writes at once, or (a busy server: `latencyMs`) after a random delay, in order. */
  private send(bytes: Buffer): void {
    const max = this.settings.latencyMs;
    if (!max) return void this.socket.write(bytes);
    this.outbox = this.outbox
      .then(() => new Promise<void>((r) => setTimeout(r, Math.random() * max)))
      .then(() => {
        if (!this.socket.destroyed) this.socket.write(bytes);
      });
  }

  /** A CLIENT_ERROR, then the connection is closed (the stream can no longer be framed). */
  private fatal(token: bigint, message: string): void {
    this.respondError(token, new ReqlError('CLIENT_ERROR', message), noEncoding());
    this.state = 'closed';
    void this.outbox.then(() => this.socket.end());
  }
}

function noEncoding(): Encoding {
  return { rJson: false, profile: false, started: performance.now() };
}

function encodingOf(query: QueryMsg, settings: Settings): Encoding {
  let profile = false;
  try {
    profile = globalOptarg(query, 'profile', { vars: new Map(), faults: settings.faults, store: settings.store, now: Date.now() }) === true;
  } catch {
    profile = false;
  }
  return { rJson: query.accepts_r_json === true, profile, started: performance.now() };
}

/** The value of a global optarg; the document says `profile` takes effect when mapped to a static true. */
/**
 * What RethinkDB refuses to answer (the document does not say): MINVAL and MAXVAL, which have no
 * JSON form (mutation/insert.yaml `r.minval`).
 */
function checkAnswer(datum: JsValue, literalIgnored: boolean): void {
  const walk = (v: JsValue): void => {
    if (Array.isArray(v)) v.forEach(walk);
    else if (v && typeof v === 'object') {
      const t = (v as Record<string, JsValue>).$reql_type$;
      if (t === 'MINVAL' || t === 'MAXVAL') throw new ReqlError('RUNTIME_ERROR', `Cannot convert \`r.${t.toLowerCase()}\` to JSON.`, ErrorType.QUERY_LOGIC);
      // A LITERAL left outside MERGE (RethinkDB, transform/object.yaml `r.literal('foo')`).
      if (t === 'LITERAL' && !literalIgnored) throw new ReqlError('RUNTIME_ERROR', STRAY_LITERAL, ErrorType.QUERY_LOGIC);
      Object.values(v).forEach(walk);
    }
  };
  walk(datum);
}

/**
 * The run option `array_limit` (a global optarg RethinkDB reads; the document lists only noreply
 * and profile): the longest array the query may build (limits.yaml).
 */
function arrayLimitOf(query: QueryMsg, env: Env): number | undefined {
  const v = globalOptarg(query, 'array_limit', env);
  if (v === undefined) return undefined;
  if (typeof v !== 'number' || v < 1) throw new ReqlError('RUNTIME_ERROR', `Illegal array size limit \`${JSON.stringify(v)}\`. (Must be >= 1.)`, ErrorType.QUERY_LOGIC);
  return v;
}

function globalOptarg(query: QueryMsg, key: string, env: Env): Value | undefined {
  const pair = query.global_optargs?.find((p) => p.key === key);
  if (!pair?.val) return undefined;
  return pair.val.datum ? fromDatum(pair.val.datum) : evaluate(pair.val, env);
}

/** Best effort: the token field of a Query that does not decode as a whole. */
function peekToken(payload: Buffer): bigint {
  try {
    const reader = protobuf.Reader.create(payload);
    while (reader.pos < reader.len) {
      const tag = reader.uint32();
      if (tag >>> 3 === 3 && (tag & 7) === 0) return BigInt(reader.int64().toString());
      reader.skipType(tag & 7);
    }
  } catch {
    // no readable token
  }
  return 0n;
}

function mapNumbers(v: JsValue, f: (n: number) => number): JsValue {
  if (typeof v === 'number') return f(v);
  if (Array.isArray(v)) return v.map((x) => mapNumbers(x, f));
  if (v && typeof v === 'object') return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, mapNumbers(x, f)]));
  return v;
}

function boolsAsNumbers(d: DatumMsg): DatumMsg {
  if (d.type === DatumType.R_BOOL) return { type: DatumType.R_NUM, r_num: d.r_bool ? 1 : 0 };
  if (d.r_array) return { ...d, r_array: d.r_array.map(boolsAsNumbers) };
  if (d.r_object) return { ...d, r_object: d.r_object.map((p) => ({ key: p.key, val: p.val && boolsAsNumbers(p.val) })) };
  return d;
}

const VARIANT_KIND = { CLIENT_ERROR: 'client error', COMPILE_ERROR: 'compile error', RUNTIME_ERROR: 'runtime error' } as const;

/** The same datum with the pairs of every R_OBJECT in reverse order. */
function reversedObjects(d: DatumMsg): DatumMsg {
  if (d.r_array) return { ...d, r_array: d.r_array.map(reversedObjects) };
  if (d.r_object) return { ...d, r_object: [...d.r_object].reverse().map((p) => ({ key: p.key, val: p.val && reversedObjects(p.val) })) };
  return d;
}
