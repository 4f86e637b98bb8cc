// Hostile targets: real servers on loopback, each broken in one way a real server can be.
import http from 'node:http';
import net from 'node:net';
import { encodeResponse, decodeQuery, frame, toDatum } from '../../src/clients/wire/codec.ts';
import { FrameReader } from '../../src/clients/wire/frame-reader.ts';
import { ResponseType } from '../../src/clients/wire/schema.ts';

export interface Hostile {
  port: number;
  close(): Promise<void>;
}

async function listen(server: net.Server): Promise<Hostile> {
  const sockets = new Set<net.Socket>();
  server.on('connection', (s) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
    s.on('error', () => {});
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  return {
    port: (server.address() as net.AddressInfo).port,
    close: () =>
      new Promise<void>((r) => {
        for (const s of sockets) s.destroy();
        server.close(() => r());
      }),
  };
}

const pumping = new WeakSet<object>();

/** Keeps writing `chunk` while the peer reads, until the socket closes (once per socket). */
function pump(socket: net.Socket | http.ServerResponse, chunk: Buffer): void {
  if (pumping.has(socket)) return;
  pumping.add(socket);
  const go = () => {
    while (!(socket as net.Socket).destroyed && socket.write(chunk)) {
      /* until the socket pushes back */
    }
  };
  socket.on('drain', go);
  go();
}

/** Answers the handshake with SUCCESS, then hands each query frame to `onQuery`. */
function afterHandshake(onQuery: (socket: net.Socket, token: bigint) => void) {
  return (socket: net.Socket) => {
    let handshaken = false;
    const frames = new FrameReader();
    socket.on('data', (chunk: Buffer) => {
      if (!handshaken) {
        handshaken = true;
        socket.write('SUCCESS\0');
        return;
      }
      let payloads: Buffer[];
      try {
        payloads = frames.push(chunk);
      } catch {
        // A fuzzed frame announcing more than the reader takes: hang up, as a server would.
        socket.destroy();
        return;
      }
      for (const payload of payloads) {
        let token = 0n;
        try {
          token = decodeQuery(payload).token ?? 0n;
        } catch {
          /* garbage query: token 0 */
        }
        onQuery(socket, token);
      }
    });
  };
}

/**
 * Text a hostile target puts into what it sends: two CDATA breakouts that would forge JUnit test
 * cases, terminal escapes (clear screen, an OSC 8 link, a window title), NUL, BEL and a C1 CSI,
 * GitHub workflow commands on lines of their own, and markdown/HTML that would run or link.
 */
export const INJECTION = [
  ']]><testcase name="FORGED"/><![CDATA[',
  ']]><testcase name="FORGED"/><![CDATA[',
  '\x1b[2J\x1b]8;;http://evil.test\x07link\x1b]8;;\x07\x1b]0;pwned\x07',
  '\x00\x07\u009b31m',
  '\n::stop-commands::forged\n::error::forged annotation\n',
  '<script>alert(1)</script>[x](javascript:alert(1))![i](http://evil.test/i.png)\n# Forged heading\n| forged | row |\n',
].join('');

/** A secret echoed back in the forms a server (or a proxy, a log line) may carry it. */
function echoForms(secret: string): string {
  const b = Buffer.from(secret);
  return [secret, b.toString('base64'), b.toString('base64url'), b.toString('hex'), encodeURIComponent(secret), JSON.stringify(secret)].join(' ');
}

const atom = (token: bigint) => frame(encodeResponse({ type: ResponseType.SUCCESS_ATOM, token, response: [toDatum(1)] }));

/**
 * A SUCCESS_ATOM of an array of 20,000 distinct numbers for `token`. The array's encoding is built
 * once: protobuf fields may be concatenated, so each answer is the type and token encoded alone
 * followed by the array's `response` field (the test process also runs the tool).
 */
const bigArrayAnswer = (() => {
  let field: Buffer | undefined;
  return (token: bigint): Buffer => {
    if (!field) {
      const whole = encodeResponse({ type: ResponseType.SUCCESS_ATOM, token: 0n, response: [toDatum(Array.from({ length: 20_000 }, (_, i) => i))] });
      const head = encodeResponse({ type: ResponseType.SUCCESS_ATOM, token: 0n, response: [] });
      field = Buffer.from(whole.subarray(head.length));
    }
    return frame(Buffer.concat([encodeResponse({ type: ResponseType.SUCCESS_ATOM, token, response: [] }), field]));
  };
})();

export const WIRE_HOSTILES: Record<string, (socket: net.Socket) => void> = {
  'closes on connect': (s) => s.destroy(),
  'sends garbage instead of the NUL-terminated reply': (s) => s.once('data', () => s.write('HTTP/1.1 400 Bad Request\r\n\r\n')),
  'sends a reply with no NUL that never ends': (s) => s.once('data', () => pump(s, Buffer.alloc(16 * 1024, 0x41))),
  'answers the handshake, then never a query': afterHandshake(() => {}),
  'drips one byte a second': (s) =>
    s.once('data', () => {
      const reply = Buffer.from('SUCCESS\0');
      let i = 0;
      const timer = setInterval(() => (i < reply.length && !s.destroyed ? s.write(reply.subarray(i, ++i)) : clearInterval(timer)), 1000);
      s.on('close', () => clearInterval(timer));
    }),
  'announces a frame of 0xFFFFFFFF bytes': afterHandshake((s) => s.write(Buffer.from([0xff, 0xff, 0xff, 0xff, 1, 2, 3]))),
  'closes mid-frame': afterHandshake((s) => s.end(Buffer.concat([Buffer.from([100, 0, 0, 0]), Buffer.alloc(10, 8)]))),
  'answers with the wrong token': afterHandshake((s, token) => s.write(atom(token + 1000n))),
  'floods unsolicited frames': afterHandshake((s) => pump(s, Buffer.concat(Array.from({ length: 64 }, () => atom(424242n))))),
  'resets the connection': (s) => s.once('data', () => s.resetAndDestroy()),
  'refuses the handshake naming the key, with injected text': (s) =>
    s.once('data', (hello: Buffer) => {
      // V0_4: magic, key length (LE), key, protocol magic.
      const key = hello.length >= 8 ? hello.subarray(8, 8 + hello.readUInt32LE(4)).toString('utf8') : '';
      s.end(`ERROR: incorrect authorization key ${echoForms(key)} ${INJECTION.replace(/\x00/g, '')}\0`);
    }),
  // Every reader of an answer gets 20,000 elements (the CLOUD and BUILD hostiles' large listings, for WIRE).
  'answers every query with an array of 20,000 numbers': afterHandshake((s, token) => s.write(bigArrayAnswer(token))),
  'answers every query with a 2 MB error string': afterHandshake((s, token) =>
    s.write(frame(encodeResponse({ type: ResponseType.RUNTIME_ERROR, token, response: [toDatum(`${'E'.repeat(2 * 1024 * 1024)}${INJECTION}`)] }))),
  ),
};

export function startWireHostile(behaviour: (socket: net.Socket) => void): Promise<Hostile> {
  return listen(net.createServer(behaviour));
}

/** HTTP hostiles; `kind` picks the broken body flavour that matters to the protocol (JSON or XML). */
/**
 * The multi-megabyte answers, built once per body and sent as one Buffer: built per request they
 * cost this test process (which also runs the tool, in-process) ~100 ms of CPU each, hundreds of
 * times, and starved the timing of every hostile run beside them.
 */
const heavyBodies = new Map<string, Buffer>();
function heavyBody(key: string, build: () => string): Buffer {
  let body = heavyBodies.get(key);
  if (!body) heavyBodies.set(key, (body = Buffer.from(build())));
  return body;
}

export function httpHostiles(kind: 'json' | 'xml'): Record<string, () => net.Server> {
  const type = kind === 'json' ? 'application/json' : 'application/xml';
  const web = (handler: http.RequestListener) => () => http.createServer(handler);
  return {
    'accepts and never sends headers': web(() => {}),
    'sends headers, then hangs the body': web((_req, res) => {
      res.writeHead(200, { 'content-type': type, 'content-length': '1000' });
      res.write(kind === 'json' ? '{"data": [' : '<directory>');
    }),
    'sends a 10 MB body': web((_req, res) => {
      res.writeHead(200, { 'content-type': type });
      res.end(Buffer.alloc(10 * 1024 * 1024, 0x20));
    }),
    'sends an endless body': web((_req, res) => {
      res.writeHead(200, { 'content-type': type });
      pump(res, Buffer.alloc(64 * 1024, 0x20));
    }),
    [`answers 200 with invalid ${kind.toUpperCase()}`]: web((_req, res) => {
      res.writeHead(200, { 'content-type': type });
      res.end(kind === 'json' ? '{"data": [1, 2,' : '<status code="ok"><summary>');
    }),
    'answers with the wrong Content-Type': web((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/html' });
      res.end('<html><body>It works!</body></html>');
    }),
    'resets mid-body': web((req, res) => {
      res.writeHead(200, { 'content-type': type, 'content-length': '5000' });
      res.write('x'.repeat(100), () => req.socket.resetAndDestroy());
    }),
    'redirects in a loop': web((req, res) => {
      res.writeHead(302, { location: req.url ?? '/' });
      res.end();
    }),
    'sends a non-HTTP banner': () => net.createServer((s) => s.end('SSH-2.0-OpenSSH_9.2\r\n')),
    [`answers 200 with ${kind.toUpperCase()} nested 200,000 deep`]: web((_req, res) => {
      res.writeHead(200, { 'content-type': type });
      res.end(heavyBody(`nested-${kind}`, () => (kind === 'json' ? `${'['.repeat(200_000)}${']'.repeat(200_000)}` : `${'<a>'.repeat(200_000)}${'</a>'.repeat(200_000)}`)));
    }),
    // More items than a call takes arguments: a `push(...items)` of a page would overflow the stack.
    ...(kind === 'json'
      ? {
          'answers 200 with a list envelope of 200,000 items': web((_req, res) => {
            res.writeHead(200, { 'content-type': type });
            res.end(heavyBody('list-json', () => `{"data":[${Array.from({ length: 200_000 }, (_, i) => `{"id":${i + 1}}`).join(',')}],"page":1,"pages":1,"results":200000}`));
          }),
        }
      : {
          // Every reader of a listing or collection (entries, revisions, results) gets 200,000 items.
          'answers 200 with a collection of 200,000 items': web((_req, res) => {
            res.writeHead(200, { 'content-type': type });
            res.end(heavyBody('collection-xml', () => `<directory count="200000" rev="1">${Array.from({ length: 200_000 }, (_, i) => `<entry name="e${i}" rev="${i + 1}"/>`).join('')}</directory>`));
          }),
        }),
    'echoes the credentials with injected text': web((req, res) => {
      const auth = req.headers.authorization ?? '';
      const [scheme, credential = ''] = auth.split(' ');
      const basic = scheme === 'Basic' ? Buffer.from(credential, 'base64').toString('utf8') : '';
      const echoed = `${INJECTION} you sent ${echoForms(auth)} ${echoForms(credential)} ${basic ? echoForms(basic) : ''} ${basic ? echoForms(basic.split(':').slice(1).join(':')) : ''} ${INJECTION}`;
      res.writeHead(400, { 'content-type': type, 'x-echo': encodeURIComponent(auth) });
      res.end(kind === 'json' ? JSON.stringify({ errors: [{ reason: echoed }] }) : `<status code="bad_request"><summary>${echoed}</summary></status>`);
    }),
  };
}

export function startHttpHostile(make: () => net.Server): Promise<Hostile> {
  return listen(make());
}
