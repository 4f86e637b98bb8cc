// The published RethinkDB JavaScript driver of the protobuf era (rethinkdb@1.12.0-1, installed as
// `rethinkdb-pb` with its protobufjs pinned to 3.x) against wire-ref: a client nobody here wrote
// speaks the V0_2 handshake and protobuf framing, and reads our answers through its public API.
import { createRequire } from 'node:module';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startWireReference, type WireReference } from '../../targets/wire/server.ts';

// The driver is CommonJS and callback-only (it predates promises in the driver API).
const r = createRequire(import.meta.url)('rethinkdb-pb');

type Callback<T> = (err: unknown, value: T) => void;
const call = <T>(f: (done: Callback<T>) => void) => new Promise<T>((resolve, reject) => f((err, v) => (err ? reject(err) : resolve(v))));

describe('rethinkdb@1.12.0-1 driver against wire-ref', () => {
  let ref: WireReference;
  let conn: { close(): void; on(e: string, f: () => void): void };
  const run = <T = unknown>(q: { run(c: unknown, d: Callback<T>): void }) => call<T>((d) => q.run(conn, d));

  beforeAll(async () => {
    ref = await startWireReference({ authKey: 'interop-key' });
    conn = await call((d) => r.connect({ host: ref.host, port: ref.port, authKey: 'interop-key' }, d));
    conn.on('error', () => {}); // the reference closing at the end is not a test failure
  });
  afterAll(async () => {
    conn.close();
    await ref.close();
  });

  it('connects with the V0_2 handshake and a length-prefixed key; a wrong key is refused', async () => {
    const err = await call((d) => r.connect({ host: ref.host, port: ref.port, authKey: 'not-the-key' }, d)).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(Error);
    expect(String((err as Error).message)).toContain('incorrect authorization key');
  });

  it('evaluates arithmetic and comparison', async () => {
    expect(await run(r.expr(1).add(2).mul(10))).toBe(30);
    expect(await run(r.expr(7).mod(3))).toBe(1);
    expect(await run(r.expr(3).gt(2))).toBe(true);
    expect(await run(r.expr(2).eq(3))).toBe(false);
    expect(await run(r.expr('a').lt('b'))).toBe(true);
  });

  it('round-trips arrays, objects, null and booleans as datums', async () => {
    expect(await run(r.expr([1, 'two', null, true, { k: [false] }]))).toEqual([1, 'two', null, true, { k: [false] }]);
    expect(await run(r.expr({ x: 1.5, y: { z: 'w' } }))).toEqual({ x: 1.5, y: { z: 'w' } });
    expect(await run(r.expr([1, 2, 3]).limit(2))).toEqual([1, 2]);
    expect(await run(r.expr([1]).typeOf())).toBe('ARRAY');
  });

  it('runs functions and DEFAULT', async () => {
    expect(await run(r.expr(null).default(5))).toBe(5);
    expect(await run(r.do(20, (x: { add(n: number): unknown }) => x.add(22)))).toBe(42);
    expect(await run(r.branch(r.expr(1).gt(0), 'yes', 'no'))).toBe('yes');
  });

  it('surfaces RUNTIME_ERROR as RqlRuntimeError with the server message', async () => {
    const err = (await run(r.error('boom')).catch((e: unknown) => e)) as { name: string; msg: string };
    expect(err.name).toBe('RqlRuntimeError');
    expect(err.msg).toBe('boom');
    const typeErr = (await run(r.expr(true).add(false)).catch((e: unknown) => e)) as { name: string; msg: string };
    expect(typeErr.name).toBe('RqlRuntimeError');
    expect(typeErr.msg).toBe('Expected type NUMBER but found BOOL.');
  });

  it('surfaces COMPILE_ERROR as RqlCompileError with the server message', async () => {
    // JAVASCRIPT is refused by wire-ref (no code execution); the 1.12 driver builds it freely.
    const err = (await run(r.js('1 + 1')).catch((e: unknown) => e)) as { name: string; msg: string };
    expect(['RqlCompileError', 'RqlRuntimeError']).toContain(err.name);
    expect(err.msg).toMatch(/JAVASCRIPT/);
  });
});
