// What the fuzzer holds a target to, and what it counts as tested (issue 34):
//  - a campaign in which no case reached the server's logic exits 4: the do-nothing servers of
//    each protocol (every route not found; every query a RUNTIME_ERROR), through the CLI;
//  - every oracle cites the line of the document it enforces (quote read back from the line), or
//    is robustness, never both;
//  - the WIRE handshake model of lines 104-111: after a magic outside the five nothing is owed and
//    nothing is judged as frames (a server reading a key and protocol after it gives no finding);
//  - answers that cannot be attributed with certainty are re-run one frame at a time first;
//  - CLOUD acceptance: an accept-all server is found accepting what the document's rules refuse,
//    the references and their variants are not.
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import net from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { rulesOf } from '../../fuzz/core/rules.ts';
import { runFuzz } from '../../fuzz/run.ts';
import { WireDriver } from '../../fuzz/wire/driver.ts';
import { decodeQuery, encodeQuery, encodeResponse, frame, toDatum } from '../../src/clients/wire/codec.ts';
import { FrameReader } from '../../src/clients/wire/frame-reader.ts';
import { QueryType, ResponseType, Version } from '../../src/clients/wire/schema.ts';
import type { TargetConfig } from '../../src/config/types.ts';
import { startBuildReference } from '../../targets/build/server.ts';
import { startCloudReference } from '../../targets/cloud/server.ts';
import { startWireReference } from '../../targets/wire/server.ts';
import { cli, root } from '../support/cli.ts';

const tmp = () => mkdtempSync(join(tmpdir(), 'conformance-fuzz-rules-'));


/** `target` may carry the test-only `mode` (WIRE) or `modes` (CLOUD, BUILD) of an embedded reference. */
function campaign(config: { protocol: string; [key: string]: unknown }, runs: number, seed: number, kinds?: string[]) {
  const target = config as unknown as TargetConfig;
  const name = `${target.protocol}-ref`;
  return runFuzz({ targetName: name, target, kinds, seed, runs, concurrency: 2, outDir: tmp(), caseTimeoutMs: 500, shrinkMs: 500 });
}

describe('a campaign against a do-nothing server exits 4', () => {
  const fuzzConfig = async (config: Record<string, unknown>) => {
    const dir = tmp();
    writeFileSync(join(dir, 'targets.config.ts'), `export default { targets: { nothing: ${JSON.stringify(config)} } };`);
    return cli(['fuzz', '--config', join(dir, 'targets.config.ts'), '--target', 'nothing', '--runs', '200', '--seed', '34', '--timeout', '500', '--shrink-time', '300', '--out', dir]);
  };

  it('CLOUD: every request answered 404 not found', async () => {
    const ref = await startCloudReference({ modes: { mode: 'do-nothing' } });
    try {
      const r = await fuzzConfig({ protocol: 'cloud', baseUrl: ref.baseUrl, tokens: ref.tokens });
      expect(r.code, r.stdout + r.stderr).toBe(4);
      expect(r.stdout).toMatch(/coverage: 0 of \d+ case\(s\) reached the server's logic/);
      expect(r.stderr).toContain("no case reached the server's logic");
    } finally {
      await ref.close();
    }
  }, 60_000);

  it('BUILD: every request answered 404 not found', async () => {
    const ref = await startBuildReference({ modes: { mode: 'do-nothing' } });
    try {
      const r = await fuzzConfig({ protocol: 'build', baseUrl: ref.baseUrl, users: { user: ref.users.user } });
      expect(r.code, r.stdout + r.stderr).toBe(4);
      expect(r.stdout).toMatch(/coverage: 0 of \d+ case\(s\) reached the server's logic/);
    } finally {
      await ref.close();
    }
  }, 60_000);

  it('WIRE: every query answered RUNTIME_ERROR (its findings are said to come from cases that reached nothing)', async () => {
    const ref = await startWireReference({ mode: 'do-nothing' });
    try {
      const r = await fuzzConfig({ protocol: 'wire', host: ref.host, port: ref.port, authKey: '' });
      expect(r.code, r.stdout + r.stderr).toBe(4);
      expect(r.stdout).toMatch(/coverage: 0 of \d+ case\(s\) reached the server's logic/);
      expect(r.stderr).toMatch(/no case reached the server's logic.*finding\(s\) above come from cases that never reached it/);
    } finally {
      await ref.close();
    }
  }, 60_000);

  it('the clean references reach their logic: routes answered other than not-found, terms answered with a success type', async () => {
    const wire = await campaign({ protocol: 'wire', embedded: true, authKey: '' }, 300, 3, ['wire-protobuf']);
    expect(wire.coverage.casesReached).toBeGreaterThan(100);
    expect(Object.keys(wire.coverage.reached)).toEqual(expect.arrayContaining(['DATUM', 'SERVER_INFO', 'NOREPLY_WAIT']));
    const cloud = await campaign({ protocol: 'cloud', embedded: true }, 200, 3);
    expect(cloud.coverage.casesReached).toBeGreaterThan(100);
    expect(Object.keys(cloud.coverage.reached).every((r) => !/mysql\/instances\/\{/.test(r))).toBe(true);
  }, 60_000);
});

describe('every oracle is a document rule with its line, or robustness', () => {
  const docs = Object.fromEntries(['wire-protocol.md', 'cloud-api.md', 'build-service-api.md'].map((f) => {
    const path = [join(root, '../shared/spec', f), join('/work/shared/spec', f)].find((p) => { try { return readFileSync(p), true; } catch { return false; } });
    return [f, path ? readFileSync(path, 'utf8').split('\n') : undefined];
  }));

  it.each(['wire', 'cloud', 'build'] as const)('%s: each quote stands on the line it cites; robustness cites none', (protocol) => {
    for (const [oracle, rule] of Object.entries(rulesOf(protocol))) {
      if (rule.class === 'robustness') {
        expect(rule.spec, oracle).toBeUndefined();
        continue;
      }
      expect(rule.level, oracle).toMatch(/^(MUST|SHOULD)$/);
      const lines = docs[rule.spec!.file];
      if (!lines) continue; // the documents are not on this machine
      expect(lines[rule.spec!.line - 1], `${oracle}: ${rule.spec!.file}:${rule.spec!.line}`).toContain(rule.spec!.quote);
    }
    // A hang, a dead server, a 5xx: robustness, whatever the protocol.
    for (const o of ['no-hang', 'liveness']) expect(rulesOf(protocol)[o].class).toBe('robustness');
  });
});

/**
 * A server that reads a key and a protocol magic after a version magic outside the five, as if it
 * were V0_4: wire-ref behind a proxy that rewrites such a magic to V0_4's. The document owes
 * nothing after an unknown magic, so whatever it does is no finding.
 */
async function lenientProxy(): Promise<{ port: number; close(): Promise<void> }> {
  const ref = await startWireReference();
  const known = new Set<number>(Object.values(Version));
  const server = net.createServer((client) => {
    const backend = net.connect(ref.port, ref.host);
    let first = true;
    let head = Buffer.alloc(0);
    client.on('data', (d: Buffer) => {
      if (!first) return void backend.write(d);
      head = Buffer.concat([head, d]);
      if (head.length < 4) return;
      first = false;
      if (!known.has(head.readUInt32LE(0))) head.writeUInt32LE(Version.V0_4, 0);
      backend.write(head);
    });
    backend.on('data', (d) => client.write(d));
    const end = () => (client.destroy(), backend.destroy());
    client.on('close', end).on('error', end);
    backend.on('close', end).on('error', end);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  return { port: (server.address() as net.AddressInfo).port, close: async () => (await new Promise((r) => server.close(r)), await ref.close()) };
}

describe('WIRE handshake: nothing is owed after an unknown magic', () => {
  it('a server that reads a key and protocol after an unknown magic: no finding over 300 wire-handshake cases', async () => {
    const proxy = await lenientProxy();
    try {
      const r = await campaign({ protocol: 'wire', host: '127.0.0.1', port: proxy.port, authKey: '' }, 300, 34, ['wire-handshake']);
      expect(r.cases).toBe(300);
      expect(r.findingFiles.map((f) => `${f.finding.bucket}: ${f.finding.message}`)).toEqual([]);
    } finally {
      await proxy.close();
    }
  }, 60_000);
});

describe('answers that cannot be attributed with certainty', () => {
  it('two SERVER_INFO of token 0, the second ignored (a token used twice, line 185): re-run one frame at a time, no finding', async () => {
    // Answers SERVER_INFO once per token on a connection; a token used again gets nothing.
    const server = net.createServer((socket) => {
      let buf = Buffer.alloc(0);
      let framed = false;
      const reader = new FrameReader(1 << 20);
      const seen = new Set<bigint>();
      socket.on('error', () => {});
      socket.on('data', (d: Buffer) => {
        if (!framed) {
          buf = Buffer.concat([buf, d]);
          if (buf.length < 8) return;
          const keyLength = buf.readUInt32LE(4);
          if (buf.length < 12 + keyLength) return;
          framed = true;
          socket.write('SUCCESS\0');
          d = buf.subarray(12 + keyLength);
        }
        for (const p of reader.push(d)) {
          const q = decodeQuery(p);
          const token = q.token ?? 0n;
          if (seen.has(token)) continue;
          seen.add(token);
          socket.write(frame(encodeResponse({ type: q.type === QueryType.SERVER_INFO ? ResponseType.SERVER_INFO : ResponseType.CLIENT_ERROR, token, response: [toDatum(q.type === QueryType.SERVER_INFO ? { id: 'x' } : 'no')] })));
        }
      });
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
    const port = (server.address() as net.AddressInfo).port;
    const driver = new WireDriver({ target: { endpoint: () => ({ host: '127.0.0.1', port }), authKey: '' }, timeoutMs: 300, lanes: 1 });
    try {
      const info = frame(encodeQuery({ type: QueryType.SERVER_INFO, token: 0n }));
      const r = await driver.isolated({ handshake: 'default', writes: [Buffer.concat([info, info])], pipelinable: false });
      expect(r.violations).toEqual([]);
      expect(JSON.stringify(r.record)).toContain('each frame was run alone');
      expect(JSON.stringify(r.record)).toContain('one-response-per-query|unanswered:SERVER_INFO');
    } finally {
      await driver.close();
      await new Promise((r) => server.close(r));
    }
  }, 30_000);
});

describe('CLOUD: acceptance of what the document says is invalid', () => {
  it('an accept-all server: http-json reports the acceptance rules it breaks, each cited', async () => {
    const r = await campaign({ protocol: 'cloud', embedded: true, modes: { mode: 'accept-all' } }, 1500, 42, ['http-json']);
    const buckets = r.findingFiles.map((f) => f.finding.bucket).sort();
    expect(buckets).toEqual(expect.arrayContaining(['refuse-missing-required|200', 'refuse-page-size|200', 'refuse-us-zip|200', 'refuse-enum|200']));
    for (const { finding } of r.findingFiles) {
      expect(finding.rule?.class, finding.bucket).toBe('document');
      expect(finding.rule?.spec?.file).toBe('cloud-api.md');
    }
    const zip = r.findingFiles.find((f) => f.finding.bucket === 'refuse-us-zip|200')!.finding;
    expect(zip.rule!.spec!.line).toBe(30);
  }, 90_000);

  it.each([
    ['cloud-ref', { protocol: 'cloud', embedded: true }],
    ['cloud-ref variant', { protocol: 'cloud', embedded: true, variant: true }],
    ['build-ref variant', { protocol: 'build', embedded: true, variant: true }],
    ['wire-ref variant', { protocol: 'wire', embedded: true, authKey: '', variant: true }],
  ] as const)('%s: no finding (seed 42)', async (_name, target) => {
    const r = await campaign(target, target.protocol === 'build' ? 400 : 1500, 42);
    expect(r.findingFiles.map((f) => `${f.finding.bucket}: ${f.finding.message}`)).toEqual([]);
    expect(r.coverage.casesReached).toBeGreaterThan(0);
  }, 90_000);
});
