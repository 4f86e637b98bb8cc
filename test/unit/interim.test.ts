// Unsolicited `100 Continue` (RFC 9110 §15.2): the filter drops it and nothing else, whatever the
// framing and however the bytes are split; and the HTTP client completes exchanges with a raw
// server that sends one before every response.
import net from 'node:net';
import fc from 'fast-check';
import { afterEach, describe, expect, it } from 'vitest';
import { InterimResponseFilter } from '../../src/clients/http/interim.ts';
import { closeHttpPools, HttpClient } from '../../src/clients/http/client.ts';

const CONTINUE = 'HTTP/1.1 100 Continue\r\n\r\n';
const responses = {
  // Bodies that hold a 100 status line: only framing tells them from a response.
  length: `HTTP/1.1 200 OK\r\nContent-Length: ${CONTINUE.length + 4}\r\n\r\n${CONTINUE}abcd`,
  chunked: `HTTP/1.1 201 Created\r\nTransfer-Encoding: chunked\r\n\r\n${CONTINUE.length.toString(16)};ext=1\r\n${CONTINUE}\r\n0\r\nX-Trailer: 1\r\n\r\n`,
  empty: 'HTTP/1.1 204 No Content\r\n\r\n',
  notModified: 'HTTP/1.1 304 Not Modified\r\nContent-Length: 10\r\n\r\n',
  hints: 'HTTP/1.1 103 Early Hints\r\nLink: </a>\r\n\r\n',
  zero: 'HTTP/1.1 404 Not Found\r\ncontent-length: 0\r\n\r\n',
};

function run(filter: InterimResponseFilter, input: string, cuts: number[]): string {
  const bytes = Buffer.from(input, 'latin1');
  const points = [...new Set(cuts.map((c) => c % (bytes.length + 1)))].sort((a, b) => a - b);
  let out = '';
  let from = 0;
  for (const p of [...points, bytes.length]) {
    out += filter.push(bytes.subarray(from, p)).toString('latin1');
    from = p;
  }
  return out;
}

describe('InterimResponseFilter', () => {
  it('drops each 100 at a response start and keeps every other byte, however the input is split', () => {
    const finals = [responses.length, responses.chunked, responses.empty, responses.notModified, responses.zero];
    const input = finals.map((r) => CONTINUE + CONTINUE + r).join('') + responses.hints + CONTINUE + responses.length;
    const expected = finals.join('') + responses.hints + responses.length;
    fc.assert(
      fc.property(fc.array(fc.nat(), { maxLength: 40 }), (cuts) => {
        const filter = new InterimResponseFilter();
        expect(run(filter, input, cuts)).toBe(expected);
        expect(filter.dropped).toBe(11);
      }),
      { seed: 20261124, numRuns: 300 },
    );
  });

  it('passes what it cannot frame through untouched, and filters no more on that connection', () => {
    for (const input of ['SSH-2.0-OpenSSH_9.2\r\n', 'HTTP/1.1 200 OK\nContent-Length: 2\n\nhi', 'HTTP/1.1 200 OK\r\nContent-Length: x\r\n\r\nhi' + CONTINUE]) {
      const filter = new InterimResponseFilter();
      expect(run(filter, input, [3, 17])).toBe(input);
    }
    // A body read until close may hold anything, a status line included.
    const untilClose = `HTTP/1.1 200 OK\r\n\r\n${CONTINUE}tail`;
    expect(run(new InterimResponseFilter(), untilClose, [])).toBe(untilClose);
    // 101 switches protocols: what follows is not HTTP.
    const upgrade = `HTTP/1.1 101 Switching Protocols\r\nUpgrade: x\r\n\r\n${CONTINUE}`;
    expect(run(new InterimResponseFilter(), upgrade, [])).toBe(upgrade);
  });
});

describe('InterimResponseFilter on a HEAD-only connection', () => {
  it('reads no body after a final response, whatever its Content-Length says', () => {
    const head = 'HTTP/1.1 200 OK\r\nContent-Length: 1234\r\n\r\n';
    const chunkedHead = 'HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n';
    const input = CONTINUE + head + CONTINUE + chunkedHead + CONTINUE + head;
    fc.assert(
      fc.property(fc.array(fc.nat(), { maxLength: 20 }), (cuts) => {
        const filter = new InterimResponseFilter(true);
        expect(run(filter, input, cuts)).toBe(head + chunkedHead + head);
        expect(filter.dropped).toBe(3);
      }),
      { seed: 20261124, numRuns: 200 },
    );
  });
});

describe('HttpClient and an unsolicited 100 Continue', () => {
  const servers: net.Server[] = [];
  afterEach(async () => {
    for (const s of servers.splice(0)) {
      await closeHttpPools(`http://127.0.0.1:${(s.address() as net.AddressInfo).port}`);
      await new Promise((r) => s.close(r));
    }
  });

  it('completes exchanges whose responses each follow a 100 Continue, sent byte by byte', async () => {
    let n = 0;
    const server = net.createServer((socket) => {
      socket.on('error', () => {});
      socket.on('data', (chunk) => {
        if (!chunk.toString('latin1').includes('\r\n\r\n')) return;
        const body = JSON.stringify({ n: ++n });
        const wire = Buffer.from(`${CONTINUE}HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n${body.length.toString(16)}\r\n${body}\r\n0\r\n\r\n`);
        // One byte per write, so the filter meets every split.
        for (let i = 0; i < wire.length; i++) socket.write(wire.subarray(i, i + 1));
      });
    });
    servers.push(server);
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
    const client = new HttpClient({ baseUrl: `http://127.0.0.1:${(server.address() as net.AddressInfo).port}`, timeoutMs: 3000 });
    for (let i = 1; i <= 3; i++) {
      const res = await client.request({ method: 'GET', path: '/v4/account' });
      expect(res.status).toBe(200);
      expect(res.json).toEqual({ n: i });
    }
  });

  it('completes HEAD exchanges whose responses each follow a 100 Continue (a length, no body)', async () => {
    let heads = 0;
    const server = net.createServer((socket) => {
      socket.on('error', () => {});
      socket.on('data', (chunk) => {
        if (!chunk.toString('latin1').includes('\r\n\r\n')) return;
        heads++;
        socket.write(`${CONTINUE}HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 999\r\n\r\n`);
      });
    });
    servers.push(server);
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
    const client = new HttpClient({ baseUrl: `http://127.0.0.1:${(server.address() as net.AddressInfo).port}`, timeoutMs: 3000 });
    for (let i = 0; i < 3; i++) {
      const res = await client.request({ method: 'HEAD', path: '/v4/account' });
      expect(res.status).toBe(200);
      expect(res.headers['content-length']).toBe('999');
      expect(res.bytes.length).toBe(0);
    }
    expect(heads).toBe(3);
  });
});
