// A legal unsolicited `100 Continue` before every response (RFC 9110 §15.2: a client "MUST be able
// to parse one or more 1xx responses received prior to a final response, even if the client does
// not expect one"). A proxy puts one in front of each answer of cloud-ref and build-ref: the
// suites give the same verdicts as without it, and a fuzz campaign does not call the target dead.
// Before the fix, undici took each 100 for a broken connection and 86 of 95 CLOUD checks errored.
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import net from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { main } from '../../src/cli/main.ts';
import type { Io } from '../../src/cli/console.ts';
import { startCloudReference, type CloudReference } from '../../targets/cloud/server.ts';
import { startBuildReference, type BuildReference } from '../../targets/build/server.ts';

const CONTINUE = 'HTTP/1.1 100 Continue\r\n\r\n';

interface Proxy {
  port: number;
  /** How many 100 responses it sent. */
  injected(): number;
  close(): Promise<void>;
}

/** Forwards to `upstreamPort`, writing a 100 Continue to the client as each request arrives. */
async function continueProxy(upstreamPort: number): Promise<Proxy> {
  let injected = 0;
  const sockets = new Set<net.Socket>();
  const server = net.createServer((client) => {
    const upstream = net.connect(upstreamPort, '127.0.0.1');
    for (const s of [client, upstream]) {
      sockets.add(s);
      s.on('error', () => {});
      s.on('close', () => {
        sockets.delete(s);
        client.destroy();
        upstream.destroy();
      });
    }
    // A request's later chunks (its body) get no second 100: only the first chunk after the
    // previous response began.
    let answered = true;
    client.on('data', (chunk) => {
      if (answered) {
        client.write(CONTINUE);
        injected++;
        answered = false;
      }
      upstream.write(chunk);
    });
    upstream.on('data', (chunk) => {
      answered = true;
      client.write(chunk);
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  return {
    port: (server.address() as net.AddressInfo).port,
    injected: () => injected,
    close: () =>
      new Promise<void>((r) => {
        for (const s of sockets) s.destroy();
        server.close(() => r());
      }),
  };
}

const through = (baseUrl: string, port: number) => {
  const url = new URL(baseUrl);
  url.port = String(port);
  return url.toString().replace(/\/$/, '');
};

async function cli(target: Record<string, unknown>, command: string[], args: string[]) {
  const dir = mkdtempSync(join(tmpdir(), 'conformance-interim-'));
  const config = join(dir, 'targets.config.ts');
  writeFileSync(config, `export default ${JSON.stringify({ targets: { proxied: target } })};`);
  const lines: string[] = [];
  const io: Io = { out: (l) => lines.push(l), err: (l) => lines.push(l), interactive: false };
  const out = join(dir, 'out');
  const code = await main(['node', 'conformance', ...command, '--config', config, '--target', 'proxied', '--out', out, ...args], io);
  return { code, out, console: lines.join('\n') };
}

describe('an unsolicited 100 Continue before every response', () => {
  let cloud: CloudReference;
  let build: BuildReference;
  let cloudProxy: Proxy;
  let buildProxy: Proxy;
  beforeAll(async () => {
    [cloud, build] = await Promise.all([startCloudReference(), startBuildReference()]);
    [cloudProxy, buildProxy] = await Promise.all([continueProxy(Number(new URL(cloud.baseUrl).port)), continueProxy(Number(new URL(build.baseUrl).port))]);
  });
  afterAll(async () => {
    await Promise.all([cloudProxy?.close(), buildProxy?.close()]);
    await Promise.all([cloud?.close(), build?.close()]);
  });

  const cloudTarget = () => ({ protocol: 'cloud', baseUrl: through(cloud.baseUrl, cloudProxy.port), tokens: cloud.tokens, fixtures: cloud.fixtures, allow: ['destructive', 'load', 'irreversible'] });
  const buildTarget = () => ({ protocol: 'build', baseUrl: through(build.baseUrl, buildProxy.port), users: build.users, token: build.token, fixtures: build.fixtures, allow: ['destructive', 'load', 'irreversible'] });

  it.each([
    ['CLOUD', cloudTarget, () => cloudProxy],
    ['BUILD', buildTarget, () => buildProxy],
  ] as const)('%s: every check passes through the proxy', async (_name, target, proxy) => {
    const r = await cli(target(), [], ['--concurrency', '16', '--reporter', 'json']);
    const report = JSON.parse(readFileSync(join(r.out, 'conformance.json'), 'utf8'));
    const notPassed = (report.targets[0].results as { check: { id: string }; status: string; message?: string }[])
      .filter((x) => x.status !== 'passed')
      .map((x) => `${x.check.id}: ${x.status}: ${x.message}`);
    expect(notPassed).toEqual([]);
    expect(r.code, r.console).toBe(0);
    expect(proxy().injected(), 'the proxy sent its 100s').toBeGreaterThan(100);
  });

  it('CLOUD: a fuzz campaign through the proxy finds the target alive', async () => {
    const r = await cli(cloudTarget(), ['fuzz'], ['--runs', '150', '--seed', '7', '--timeout', '2000']);
    const report = JSON.parse(readFileSync(join(r.out, 'fuzz.json'), 'utf8'));
    const buckets = (report.findings as { bucket: string }[]).map((f) => f.bucket);
    expect(buckets.filter((b) => /liveness|dead|reset|closed/i.test(b))).toEqual([]);
    expect(r.code, r.console).toBe(0);
  });
});
