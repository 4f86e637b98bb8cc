// The HTTP client wrapper against real node:http servers on loopback.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { closeHttpPools, HttpClient } from '../../src/clients/http/client.ts';
import { BodyTooLarge, TargetTimeout } from '../../src/core/errors.ts';
import { EvidenceLog } from '../../src/core/evidence.ts';

const servers: http.Server[] = [];
async function serve(handler: http.RequestListener): Promise<string> {
  const server = http.createServer(handler);
  servers.push(server);
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

afterEach(async () => {
  for (const s of servers.splice(0)) {
    await closeHttpPools(`http://127.0.0.1:${(s.address() as AddressInfo).port}`);
    s.closeAllConnections();
    await new Promise((r) => s.close(r));
  }
});

describe('HttpClient', () => {
  it('records the exchange with Authorization and configured secrets redacted, and a curl line', async () => {
    const base = await serve((req, res) => {
      res.setHeader('content-type', 'application/json');
      res.end(JSON.stringify({ echoed: req.headers.authorization, note: 'token tok-SECRET-1 seen' }));
    });
    const evidence = new EvidenceLog();
    const client = new HttpClient({ baseUrl: base, timeoutMs: 2000, evidence, secrets: ['tok-SECRET-1'] });
    const res = await client.request({ method: 'POST', path: '/v4/things', headers: { Authorization: 'Bearer tok-SECRET-1' }, json: { a: 1 }, credentialName: 'CONFORMANCE_TOKENS_UNRESTRICTED' });
    expect(res.status).toBe(200);
    expect((res.json as { echoed: string }).echoed).toBe('Bearer tok-SECRET-1');
    const text = JSON.stringify(evidence.toJSON());
    expect(text).not.toContain('tok-SECRET-1');
    const x = evidence.items[0].http!;
    expect(x.request.headers.authorization).toBe('Bearer [redacted]');
    expect(x.response?.body).toContain('token [redacted] seen');
    expect(x.curl).toBe(`curl -i -X POST '${base}/v4/things' -H 'accept: application/json' -H "authorization: Bearer $CONFORMANCE_TOKENS_UNRESTRICTED" -H 'content-type: application/json' --data-binary '{"a":1}'`);
  });

  it('stops reading a body past the cap (an endless body cannot exhaust memory)', async () => {
    const base = await serve((_req, res) => {
      const chunk = Buffer.alloc(64 * 1024, 120);
      const pump = () => {
        while (res.write(chunk)) {
          /* keep writing until the socket pushes back */
        }
      };
      res.on('drain', pump);
      pump();
    });
    const client = new HttpClient({ baseUrl: base, timeoutMs: 2000, maxBodyBytes: 1024 * 1024 });
    const err = await client.request({ method: 'GET', path: '/' }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(BodyTooLarge);
    expect((err as BodyTooLarge).message).toBe('response body exceeds the 1 MiB limit');
  });

  it('times out a server that accepts and never answers', async () => {
    const base = await serve(() => {});
    const client = new HttpClient({ baseUrl: base, timeoutMs: 150 });
    const started = performance.now();
    const err = await client.request({ method: 'GET', path: '/v4/account' }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(TargetTimeout);
    expect((err as Error).message).toBe('GET /v4/account: no complete response within 150 ms');
    expect(performance.now() - started).toBeLessThan(500);
  });

  it('times out a body that starts and then stalls', async () => {
    const base = await serve((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.write('{"data": [');
    });
    const client = new HttpClient({ baseUrl: base, timeoutMs: 150 });
    const err = await client.request({ method: 'GET', path: '/v4/account/events' }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(TargetTimeout);
  });
});
