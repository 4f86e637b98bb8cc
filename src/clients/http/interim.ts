// Unsolicited `100 Continue` responses, dropped before undici sees them.
//
// RFC 9110 §15.2: "A client MUST be able to parse one or more 1xx responses received prior to a
// final response, even if the client does not expect one." undici 7 handles every 1xx but 100:
// on a 100 it did not ask for (it never sends `Expect: 100-continue`) it destroys the socket as a
// "bad response" (lib/dispatcher/client-h1.js, onHeadersComplete), so one legal interim response
// from a proxy or a server made every exchange on that connection an error blamed on the target.
//
// undici takes a connection's bytes only through `socket.read()`. The filter wraps that method on
// each socket the pool opens and drops each 100 response (a status line and headers, never a body:
// RFC 9112 §6.3); every other byte passes through unchanged. To know where a response starts it
// follows HTTP/1.1 message framing: Content-Length, chunked, no body on 1xx/204/304, and
// read-until-close. What it cannot frame (not HTTP, bare-LF lines, a bad length) switches it off
// for the rest of the connection, so undici sees and reports the malformed bytes itself.
//
// A response to HEAD has no body whatever its Content-Length says, and the filter does not see
// requests: HEAD requests go through a pool of their own (client.ts), whose filter knows that.
import type { Socket } from 'node:net';

/** A header block longer than this is left to undici, whose own limit (16 KiB) refuses it. */
const MAX_HEADER_BLOCK = 64 * 1024;
/** A chunk-size line or trailer line longer than this is not HTTP we frame. */
const MAX_LINE = 4096;

type Mode = 'start' | 'body' | 'chunk-size' | 'chunk-data' | 'chunk-end' | 'trailer' | 'raw';

const HTTP_PREFIX = Buffer.from('HTTP/');
const HEADER_END = Buffer.from('\r\n\r\n');

export class InterimResponseFilter {
  private mode: Mode = 'start';
  /** Bytes of a header block not yet complete (mode 'start'). */
  private held: Buffer = Buffer.alloc(0);
  /** Body bytes or chunk-data bytes still to pass (modes 'body', 'chunk-data'). */
  private remaining = 0;
  /** Length of the chunk-size or trailer line read so far, and its text (chunk-size only). */
  private line = '';
  private lineLength = 0;
  /** How many `100 Continue` responses were dropped (for tests and evidence). */
  dropped = 0;

  /**
   * `headOnly`: every request on this connection is HEAD, so no final response has a body,
   * whatever its Content-Length or Transfer-Encoding say (RFC 9110 §9.3.2).
   */
  constructor(private readonly headOnly = false) {}

  /** Bytes read from the socket in; the bytes undici should see out (possibly empty). */
  push(chunk: Buffer): Buffer {
    if (this.mode === 'raw') return chunk;
    const out: Buffer[] = [];
    let data = chunk;
    while (data.length > 0) {
      switch (this.mode as Mode) {
        case 'raw':
          out.push(data);
          data = Buffer.alloc(0);
          break;
        case 'start':
          data = this.start(data, out);
          break;
        case 'body':
        case 'chunk-data': {
          // Counted bytes pass as they are; what comes after them is a response start or a CRLF.
          const n = Math.min(this.remaining, data.length);
          out.push(data.subarray(0, n));
          this.remaining -= n;
          data = data.subarray(n);
          if (this.remaining === 0) {
            if (this.mode === 'body') this.mode = 'start';
            else this.beginLine('chunk-end');
          }
          break;
        }
        case 'chunk-size':
        case 'chunk-end':
        case 'trailer':
          data = this.lines(data, out);
          break;
      }
    }
    return out.length === 1 ? out[0]! : Buffer.concat(out);
  }

  private beginLine(mode: Mode): void {
    this.mode = mode;
    this.line = '';
    this.lineLength = 0;
  }

  private toRaw(rest: Buffer, out: Buffer[]): Buffer {
    this.mode = 'raw';
    if (this.held.length > 0) out.push(this.held);
    this.held = Buffer.alloc(0);
    out.push(rest);
    return Buffer.alloc(0);
  }

  /** At a response's first byte: hold the header block until it is complete, then decide. */
  private start(data: Buffer, out: Buffer[]): Buffer {
    const block = this.held.length > 0 ? Buffer.concat([this.held, data]) : data;
    // Not the start of a status line: not ours to judge.
    const prefix = Math.min(block.length, HTTP_PREFIX.length);
    if (block.compare(HTTP_PREFIX, 0, prefix, 0, prefix) !== 0) {
      this.held = Buffer.alloc(0);
      return this.toRaw(block, out);
    }
    const end = block.indexOf(HEADER_END);
    if (end < 0) {
      if (block.length > MAX_HEADER_BLOCK || block.includes(0x0a) && bareLf(block)) {
        this.held = Buffer.alloc(0);
        return this.toRaw(block, out);
      }
      this.held = Buffer.from(block); // copy: the socket's buffer may be reused
      return Buffer.alloc(0);
    }
    this.held = Buffer.alloc(0);
    const headEnd = end + HEADER_END.length;
    const head = block.subarray(0, headEnd);
    const rest = block.subarray(headEnd);
    const text = head.toString('latin1');
    if (bareLf(head)) return this.toRaw(block, out);
    const status = /^HTTP\/1\.[01] (\d{3})[ \r]/.exec(text);
    if (!status) return this.toRaw(block, out);
    const code = Number(status[1]);
    if (code === 100) {
      this.dropped++;
      return rest; // still at the start of a response
    }
    out.push(head);
    if (code === 101) return this.toRaw(rest, out);
    if (code < 200 || code === 204 || code === 304 || this.headOnly) return rest;
    const lower = text.toLowerCase();
    const te = field(text, lower, 'transfer-encoding');
    if (te !== undefined) {
      // Chunked only when it is the final coding; anything else is read until close.
      if (/(^|,)\s*chunked\s*$/i.test(te)) {
        this.beginLine('chunk-size');
        return rest;
      }
      return this.toRaw(rest, out);
    }
    const cl = field(text, lower, 'content-length');
    if (cl === undefined) return this.toRaw(rest, out); // read until close
    const values = new Set(cl.split(',').map((v) => v.trim()));
    const [only] = values;
    if (values.size !== 1 || !/^\d{1,15}$/.test(only!)) return this.toRaw(rest, out);
    this.remaining = Number(only);
    if (this.remaining > 0) this.mode = 'body';
    return rest;
  }

  /** chunk-size, the CRLF after chunk data, and trailer lines: pass through, parse the line. */
  private lines(data: Buffer, out: Buffer[]): Buffer {
    const lf = data.indexOf(0x0a);
    const part = lf < 0 ? data : data.subarray(0, lf + 1);
    out.push(part);
    this.lineLength += part.length;
    if (this.mode === 'chunk-size') this.line += part.toString('latin1');
    if (this.lineLength > MAX_LINE) return this.toRaw(data.subarray(part.length), out);
    if (lf < 0) return Buffer.alloc(0);
    const rest = data.subarray(lf + 1);
    const mode = this.mode;
    const line = this.line;
    const length = this.lineLength;
    if (mode === 'chunk-size') {
      const size = /^([0-9a-fA-F]{1,12})[ \t]*(;[^\r\n]*)?\r\n$/.exec(line);
      if (!size) return this.toRaw(rest, out);
      const n = parseInt(size[1]!, 16);
      if (n === 0) this.beginLine('trailer');
      else {
        this.mode = 'chunk-data';
        this.remaining = n;
      }
    } else if (mode === 'chunk-end') {
      if (length !== 2) return this.toRaw(rest, out);
      this.beginLine('chunk-size');
    } else {
      // trailer: an empty line ends the message
      if (length === 2) this.mode = 'start';
      else this.beginLine('trailer');
    }
    return rest;
  }
}

/** True when some LF in `buf` is not preceded by CR (a framing we leave to undici). */
function bareLf(buf: Buffer): boolean {
  for (let i = buf.indexOf(0x0a); i >= 0; i = buf.indexOf(0x0a, i + 1)) if (i === 0 || buf[i - 1] !== 0x0d) return true;
  return false;
}

/**
 * The value of one header field (repeated fields joined with ", "), found in the lower-cased copy
 * of the head: two searches per response instead of splitting every line (the fuzzer's hot path).
 * Field names are tokens, so no space may stand before the colon (RFC 9112 §5.1).
 */
function field(head: string, lower: string, name: string): string | undefined {
  const key = `\r\n${name}:`;
  let at = lower.indexOf(key);
  if (at < 0) return undefined;
  const values: string[] = [];
  while (at >= 0) {
    const from = at + key.length;
    const end = head.indexOf('\r\n', from);
    values.push(head.slice(from, end < 0 ? head.length : end).trim());
    at = lower.indexOf(key, from);
  }
  return values.join(', ');
}

/**
 * Installs the filter on a socket undici reads with `read()`. A read whose bytes were all held or
 * dropped reads again, so undici gets null only when the socket has nothing more for now (and its
 * 'readable' listener runs again when more comes).
 */
export function dropUnsolicitedContinue(socket: Socket, headOnly = false): InterimResponseFilter {
  const filter = new InterimResponseFilter(headOnly);
  const read = socket.read.bind(socket);
  socket.read = function filteredRead(size?: number) {
    for (;;) {
      const chunk: unknown = read(size);
      if (chunk === null || !Buffer.isBuffer(chunk)) return chunk;
      const out = filter.push(chunk);
      if (out.length > 0) return out;
    }
  } as Socket['read'];
  return filter;
}
