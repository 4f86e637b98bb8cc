// Replay sends exactly the bytes of a finding file and judges them again: still failing with the
// fault, passing without it, byte for byte what the file holds, and through the CLI's exit codes.
import { mkdtempSync, writeFileSync } from 'node:fs';
import net from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { readFinding, type Finding } from '../../fuzz/core/findings.ts';
import { replayFinding } from '../../fuzz/replay.ts';
import { runFuzz } from '../../fuzz/run.ts';
import { defaultHandshake } from '../../fuzz/wire/executor.ts';
import { deserializeCase, serializeCase, type WireCase } from '../../fuzz/wire/case.ts';
import { mutateHandshake } from '../../fuzz/wire/mutators.ts';
import { UsageError } from '../../src/core/errors.ts';
import { decodeQuery } from '../../src/clients/wire/codec.ts';
import { FrameReader } from '../../src/clients/wire/frame-reader.ts';
import { QueryType } from '../../src/clients/wire/schema.ts';
import { cli } from '../support/cli.ts';

const embedded = { protocol: 'wire', embedded: true, authKey: '' } as const;
let file: string;
let finding: Finding;

beforeAll(async () => {
  const outDir = mkdtempSync(join(tmpdir(), 'conformance-replay-'));
  const r = await runFuzz({ targetName: 'wire-ref', target: embedded, faults: ['two-strings-for-rare-term'], kinds: ['wire-protobuf'], seed: 7, runs: 500, concurrency: 2, outDir, caseTimeoutMs: 300, shrinkMs: 2000 });
  file = r.findingFiles[0].path;
  finding = await readFinding(file);
});


describe('conformance replay', () => {
  it('still fails against the faulty target, passes against the clean one', async () => {
    const again = await replayFinding(finding, 'wire-ref', embedded, { faults: finding.target.faults, timeoutMs: 500 });
    expect(again.sameOracle).toBe(true);
    const clean = await replayFinding(finding, 'wire-ref', embedded, { faults: [], timeoutMs: 500 });
    expect(clean.outcome.violations).toEqual([]);
  });

  it('sends exactly the bytes of the file', async () => {
    const received: Buffer[][] = [];
    const server = net.createServer((socket) => {
      const chunks: Buffer[] = [];
      received.push(chunks);
      let answered = false;
      socket.on('data', (c: Buffer) => {
        chunks.push(c);
        if (!answered && Buffer.concat(chunks).length >= 12) {
          answered = true;
          socket.write('SUCCESS\0'); // and then nothing: every query times out
        }
      });
      socket.on('error', () => {});
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
    const { port } = server.address() as net.AddressInfo;
    try {
      const r = await replayFinding(finding, 'recorder', { protocol: 'wire', host: '127.0.0.1', port, authKey: '' }, { faults: [], timeoutMs: 200 });
      // It answers the handshake and then nothing: a hang (robustness), not a deviation from the document.
      expect(r.outcome.violations.map((v) => `${v.oracle}|${v.signature}`)).toContain('no-hang|connection');
      const writes = (finding.case as { writes: string[] }).writes.map((h) => Buffer.from(h, 'hex'));
      // The first connection is the reachability probe (no bytes); then the one creating the scratch
      // database, the case's, the liveness probe's, and the one dropping the scratch databases.
      const withBytes = received.map((c) => Buffer.concat(c)).filter((b) => b.length);
      // The case's connection holds its bytes exactly, then (nothing having come back in time) the
      // SERVER_INFO that asks whether the connection is hung.
      const whole = Buffer.concat([defaultHandshake(''), ...writes]);
      const mine = withBytes.filter((b) => b.subarray(0, whole.length).equals(whole));
      expect(mine.length).toBe(1);
      const after = new FrameReader(1 << 20).push(mine[0].subarray(whole.length)).map((p) => decodeQuery(p).type);
      expect(after).toEqual([QueryType.SERVER_INFO]);
    } finally {
      await new Promise((r) => server.close(r));
      server.unref();
    }
  });

  it('CLI: exit 1 while it still fails, 2 for a file that is not a finding', async () => {
    const still = await cli(['replay', file]);
    expect(still.code).toBe(1);
    expect(still.stdout).toContain(`still fails: ${finding.oracle}`);
    // --repeat: the embedded target with the fault fails every time: deterministic.
    const repeated = await cli(['replay', file, '--repeat', '2']);
    expect(repeated.code).toBe(1);
    expect(repeated.stdout).toContain(`repeat: deterministic: failed 3 of 3 replays (3 with the recorded oracle ${finding.oracle})`);
    const bogus = join(mkdtempSync(join(tmpdir(), 'conformance-replay-')), 'x.json');
    writeFileSync(bogus, '{}');
    expect((await cli(['replay', bogus])).code).toBe(2);
  });
});

describe('the auth key in stored cases', () => {
  const key = 'secret-key-42';
  const c: WireCase = { handshake: 'none', writes: [mutateHandshake({}, key), Buffer.from('after')], pipelinable: false };

  it('is zeroed in the stored bytes and put back from the target config on replay', () => {
    const stored = serializeCase(c, key);
    const text = JSON.stringify(stored);
    expect(text).not.toContain(key);
    expect(text).not.toContain(Buffer.from(key).toString('hex'));
    expect(stored.masked).toEqual([{ write: 0, offset: 8, length: key.length, secret: 'authKey' }]);
    expect(deserializeCase(stored, key).writes).toEqual(c.writes);
  });

  it('cannot be put back from a key of another length: a usage error, not other bytes', () => {
    expect(() => deserializeCase(serializeCase(c, key), 'short')).toThrow(UsageError);
  });

  it('a key under 4 bytes is not masked (it would garble the bytes and protects nothing)', () => {
    expect(serializeCase(c, 'k').masked).toBeUndefined();
  });
});
