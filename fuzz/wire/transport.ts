// A raw WIRE socket for the fuzzer: writes exact bytes, reads the NUL-terminated handshake reply
// and then length-prefixed response frames, keeping each frame's raw bytes next to its decoded
// Response (findings hold both). WireConnection is the checks' client; this one never
// re-encodes, never retries, and hands every event to its owner as it happens.
import net from 'node:net';
import { decodeResponse } from '../../src/clients/wire/codec.ts';
import { FrameReader } from '../../src/clients/wire/frame-reader.ts';
import { HandshakeReplyReader } from '../../src/clients/wire/handshake.ts';
import { targetErrorFromSocket, TargetUnreachable, type TargetError } from '../../src/core/errors.ts';
import type { ExchangeEnd, ReceivedFrame } from './oracles.ts';

export interface Endpoint {
  host: string;
  port: number;
}

export interface TransportHandlers {
  onHandshakeReply?(reply: string): void;
  onFrame?(frame: ReceivedFrame): void;
  onEnd?(end: Exclude<ExchangeEnd, 'complete' | 'timeout'>, detail: string): void;
}

export class RawWire {
  private readonly handshakeReader = new HandshakeReplyReader();
  private readonly frames: FrameReader;
  private mode: 'handshake' | 'frames' = 'handshake';
  private ended = false;
  private corked = false;
  private readonly unsettledWrites = new Set<() => void>();
  handlers: TransportHandlers = {};

  private constructor(
    private readonly socket: net.Socket,
    maxFrameBytes: number,
  ) {
    this.frames = new FrameReader(maxFrameBytes);
    socket.on('data', (chunk: Buffer) => this.onData(chunk));
    socket.on('error', (err: NodeJS.ErrnoException) => this.end(err.code === 'ECONNRESET' || err.code === 'EPIPE' ? 'reset' : 'closed', targetErrorFromSocket(err, 'connection').message));
    socket.on('close', () => {
      for (const done of [...this.unsettledWrites]) done();
    });
    socket.on('close', () => this.end('closed', this.frames.midFrame ? 'closed in the middle of a response frame' : 'closed by the target'));
  }

  static connect(endpoint: Endpoint, timeoutMs: number, maxFrameBytes = 64 * 1024 * 1024): Promise<RawWire> {
    return new Promise((resolve, reject) => {
      const socket = net.connect(endpoint);
      socket.setNoDelay(true);
      const timer = setTimeout(() => {
        socket.destroy();
        reject(new TargetUnreachable(`no TCP connection to ${endpoint.host}:${endpoint.port} within ${timeoutMs} ms`));
      }, timeoutMs);
      socket.once('error', (err) => {
        clearTimeout(timer);
        const e: TargetError = targetErrorFromSocket(err, `connect to ${endpoint.host}:${endpoint.port}`);
        reject(e instanceof TargetUnreachable ? e : new TargetUnreachable(e.message, { cause: err }));
      });
      socket.once('connect', () => {
        clearTimeout(timer);
        socket.removeAllListeners('error');
        resolve(new RawWire(socket, maxFrameBytes));
      });
    });
  }

  get isOpen(): boolean {
    return !this.ended;
  }

  /** True once the handshake reply arrived and the stream is between whole frames. */
  get framingIntact(): boolean {
    return this.mode === 'frames' && !this.frames.midFrame;
  }

  /** Writes one chunk; resolves when the kernel took it, so the next write is a separate segment. */
  write(bytes: Buffer): Promise<void> {
    if (this.ended || this.socket.destroyed) return Promise.resolve();
    // The callback may never come for a socket the target destroys meanwhile: settle on close too.
    return new Promise((resolve) => {
      const done = () => {
        this.unsettledWrites.delete(done);
        resolve();
      };
      this.unsettledWrites.add(done);
      this.socket.write(bytes, done);
    });
  }

  /**
   * Queues bytes without waiting: whatever is sent within one tick leaves in one write (writev).
   * For pipelined cases, whose segment boundaries do not matter; `write` keeps them.
   */
  send(bytes: Buffer): void {
    if (this.ended || this.socket.destroyed) return;
    if (!this.corked) {
      this.corked = true;
      this.socket.cork();
      process.nextTick(() => {
        this.corked = false;
        this.socket.uncork();
      });
    }
    this.socket.write(bytes);
  }

  close(): void {
    this.ended = true;
    this.socket.destroy();
  }

  private onData(chunk: Buffer): void {
    if (this.mode === 'handshake') {
      let done: ReturnType<HandshakeReplyReader['push']>;
      try {
        done = this.handshakeReader.push(chunk);
      } catch (err) {
        this.end('closed', (err as Error).message);
        this.socket.destroy();
        return;
      }
      if (!done) return;
      this.mode = 'frames';
      this.handlers.onHandshakeReply?.(done.reply);
      chunk = done.rest;
      if (!chunk.length) return;
    }
    let payloads: Buffer[];
    try {
      payloads = this.frames.push(chunk);
    } catch (err) {
      this.end('closed', (err as Error).message);
      this.socket.destroy();
      return;
    }
    for (const p of payloads) {
      const frame: ReceivedFrame = { raw: p };
      try {
        frame.res = decodeResponse(p);
      } catch (err) {
        frame.decodeError = (err as Error).message;
      }
      this.handlers.onFrame?.(frame);
    }
  }

  private end(how: 'closed' | 'reset', detail: string): void {
    if (this.ended) return;
    this.ended = true;
    this.handlers.onEnd?.(how, detail);
  }
}
