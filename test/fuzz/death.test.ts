// A target that dies, one that was never there, one that lets no case through, and replaying
// without the recorded faults:
//  - an external target that dies on a marker: one finding "died after these N cases" holding
//    them in order (the marker among them), no restart claimed, nothing confirmed or shrunk
//    against the dead target; its replay sends them in order and kills a fresh copy again;
//  - a gateway answering 502 before the first case: unreachable (TargetUnreachable, exit 3);
//  - a target answering every request 429 or 401: exit 4 and a failing JUnit testcase saying why;
//  - `replay --no-faults` against an embedded target.
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readFinding } from '../../fuzz/core/findings.ts';
import { replayFinding } from '../../fuzz/replay.ts';
import { runFuzz } from '../../fuzz/run.ts';
import type { HttpCase } from '../../fuzz/http/case.ts';
import { TargetUnreachable } from '../../src/core/errors.ts';
import { cli } from '../support/cli.ts';

const tmp = () => mkdtempSync(join(tmpdir(), 'conformance-death-'));


/** A CLOUD-shaped server: JSON for everything; `die(req)` true makes it stop serving for good. */
async function serve(answer: (req: http.IncomingMessage, res: http.ServerResponse) => void, die: (url: URL) => boolean = () => false) {
  const server = http.createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://x');
    if (die(url)) {
      server.close();
      server.closeAllConnections();
      req.socket.destroy();
      return;
    }
    req.resume();
    req.on('end', () => answer(req, res));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  const { port } = server.address() as AddressInfo;
  return {
    target: { protocol: 'cloud' as const, baseUrl: `http://127.0.0.1:${port}`, tokens: { unrestricted: 'death-test-token' } },
    close: () => new Promise<void>((r) => (server.closeAllConnections(), server.close(() => r()))),
  };
}

const json = (status: number, body: unknown, headers: Record<string, string> = {}) => (_req: http.IncomingMessage, res: http.ServerResponse) => {
  res.writeHead(status, { 'content-type': 'application/json', ...headers });
  res.end(JSON.stringify(body));
};
const ok = json(200, { data: [], page: 1, pages: 1, results: 0 });
const hugePage = (url: URL) => Number(url.searchParams.get('page_size')) > 1_000_000;

describe('a target killed by one case', () => {
  it('external: one finding holding the cases since the last live check, in order; its replay kills a fresh copy', async () => {
    const marker = await serve(ok, hugePage);
    const outDir = tmp();
    let r;
    try {
      r = await runFuzz({ targetName: 'marker', target: marker.target, seed: 7, runs: 2000, concurrency: 2, outDir, caseTimeoutMs: 400, shrinkMs: 1000 });
    } finally {
      await marker.close();
    }
    expect(r.stopReason).toBe('target-dead');
    expect(r.restarts).toBe(0);
    expect(r.recoveryAttempts).toBe(1);
    const buckets = r.findingFiles.map((f) => f.finding.bucket);
    expect(buckets).toContain('liveness|died-after-sequence');
    // It answers 200 to everything: besides its death, only what it accepted that the document's
    // rules refuse (refuse-*, page_size out of range among them) may be found.
    expect(buckets.filter((b) => b !== 'liveness|died-after-sequence').every((b) => b.startsWith('refuse-')), buckets.join('; ')).toBe(true);
    const f = await readFinding(r.findingFiles.find((x) => x.finding.bucket === 'liveness|died-after-sequence')!.path);
    expect(f.sequence!.length).toBeGreaterThan(0);
    expect(f.sequence!.length).toBeLessThanOrEqual(64);
    expect(f.shrunk).toBe(false);
    const cases = f.sequence!.map((e) => e.case as HttpCase);
    expect(cases.some((c) => Number(c.query?.page_size) > 1_000_000), 'the marker is among the cases').toBe(true);
    expect(f.message).toMatch(/stopped answering after these \d+ case\(s\), sent in this order/);

    // Replay: a fresh copy of the target dies again; one without the marker does not.
    const again = await serve(ok, hugePage);
    try {
      const replay = await replayFinding(f, 'marker', again.target, { faults: [] });
      expect(replay.sameOracle).toBe(true);
      expect(replay.outcome.violations[0].signature).toBe('died-after-sequence');
    } finally {
      await again.close();
    }
    const healthy = await serve(ok);
    try {
      expect((await replayFinding(f, 'marker', healthy.target, { faults: [] })).outcome.violations).toEqual([]);
    } finally {
      await healthy.close();
    }
  }, 60_000);

  it('a gateway answering 502 before the first case is unreachable, not a finding', async () => {
    const gateway = await serve(json(502, { errors: [{ reason: 'bad gateway' }] }));
    try {
      await expect(runFuzz({ targetName: 'gw', target: gateway.target, seed: 1, runs: 50, concurrency: 2, outDir: tmp(), caseTimeoutMs: 300 })).rejects.toBeInstanceOf(TargetUnreachable);
    } finally {
      await gateway.close();
    }
  });
});

describe('a campaign that reached no server logic', () => {
  it.each([
    ['429 with Retry-After', 429, { 'retry-after': '1' }],
    ['401', 401, {}],
  ] as const)('every answer %s: exit 4, coverage in fuzz.json, a failing JUnit testcase', async (_name, status, headers) => {
    const gate = await serve(json(status, { errors: [{ reason: 'no' }] }, headers));
    const dir = tmp();
    writeFileSync(join(dir, 'targets.config.ts'), `export default { targets: { gate: ${JSON.stringify(gate.target)} } };`);
    try {
      const r = await cli(['fuzz', '--config', join(dir, 'targets.config.ts'), '--target', 'gate', '--runs', '16', '--seed', '3', '--out', dir]);
      expect(r.code, r.stdout + r.stderr).toBe(4);
      expect(r.stderr).toContain("no case reached the server's logic");
      // Cases bound to the scratch OAuth client the target never created are not sent, nor counted.
      expect(r.stdout).toMatch(/coverage: 0 of \d+ case\(s\) reached the server's logic, 0 of \d+ past authentication and rate limits/);
      const report = JSON.parse(readFileSync(join(dir, 'fuzz.json'), 'utf8'));
      expect(report.coverage.casesPastGates).toBe(0);
      expect(report.coverage.casesCounted).toBeGreaterThan(8);
      expect(report.coverage.answers).toEqual({ [String(status)]: report.coverage.casesCounted });
      const junit = readFileSync(join(dir, 'fuzz.junit.xml'), 'utf8');
      expect(junit).toContain('type="no-coverage"');
      expect(junit).toMatch(/failures="1"/);
    } finally {
      await gate.close();
    }
  }, 30_000);
});

describe('replay --no-faults', () => {
  it('replays a finding of a faulty embedded target against the clean one', async () => {
    const outDir = tmp();
    const r = await runFuzz({ targetName: 'wire-ref', target: { protocol: 'wire', embedded: true, authKey: '' }, faults: ['two-strings-for-rare-term'], kinds: ['wire-protobuf'], seed: 7, runs: 500, concurrency: 2, outDir, caseTimeoutMs: 300, shrinkMs: 1000 });
    const file = r.findingFiles[0].path;
    const still = await cli(['replay', file]);
    expect(still.code, still.stdout + still.stderr).toBe(1);
    const clean = await cli(['replay', file, '--no-faults']);
    expect(clean.code, clean.stdout + clean.stderr).toBe(0);
    expect(clean.stdout).toContain('passes now');
    expect(clean.stdout).not.toContain('with faults');
    expect((await cli(['replay', file, '--no-faults', '--fault', 'two-strings-for-rare-term'])).code).toBe(2);
  }, 60_000);
});
