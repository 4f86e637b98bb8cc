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
  /** A stream's items, read through the driver's cursor; an array as it came. */
  const items = async (q: { run(c: unknown, d: Callback<unknown>): void }) => {
    const v = await run<unknown>(q);
    if (Array.isArray(v)) return v as Record<string, unknown>[];
    return call<Record<string, unknown>[]>((d) => (v as { toArray(d: Callback<Record<string, unknown>[]>): void }).toArray(d));
  };

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
    // The 1.12 driver's `upsert` option predates the document's INSERT optargs (conflict,
    // durability, return_changes): the server refuses the unknown optional argument.
    // The compile pass refuses it before anything runs, so the table need not exist.
    const err = (await run(r.db('none').table('none').insert({ id: 0 }, { upsert: true })).catch((e: unknown) => e)) as { name: string; msg: string };
    expect(err.name).toBe('RqlCompileError');
    expect(err.msg).toMatch(/upsert/);
    // JAVASCRIPT is refused at run time (wire-ref runs no foreign code).
    const js = (await run(r.js('1 + 1')).catch((e: unknown) => e)) as { name: string; msg: string };
    expect(js.name).toBe('RqlRuntimeError');
  });

  describe('through a table', () => {
    const db = 'interop';
    const table = () => r.db(db).table('items');
    const rows = Array.from({ length: 2500 }, (_, i) => ({ id: i, n: i % 7, tag: i % 2 ? 'odd' : 'even' }));

    beforeAll(async () => {
      await run(r.dbCreate(db));
      await run(r.db(db).tableCreate('items'));
      expect(await run(table().insert(rows))).toMatchObject({ inserted: 2500, errors: 0 });
    });

    it('reads 2,500 rows through the driver cursor (its own CONTINUEs, batches under 1000)', async () => {
      const all = await items(table());
      expect(all).toHaveLength(2500);
      expect(new Set(all.map((x) => x.id)).size).toBe(2500);
    });

    it('inserts with the conflict modes: error (default), update, replace', async () => {
      const scratch = r.db(db).table('scratch');
      await run(r.db(db).tableCreate('scratch'));
      expect(await run(scratch.insert({ id: 1, n: 1 }))).toMatchObject({ inserted: 1 });
      expect(await run(scratch.insert({ id: 1, n: 99 }))).toMatchObject({ inserted: 0, errors: 1 });
      expect(await run(scratch.insert({ id: 1, extra: true }, { conflict: 'update' }))).toMatchObject({ replaced: 1 });
      expect(await run(scratch.get(1))).toEqual({ id: 1, n: 1, extra: true });
      expect(await run(scratch.insert({ id: 1, only: 'this' }, { conflict: 'replace' }))).toMatchObject({ replaced: 1 });
      expect(await run(scratch.get(1))).toEqual({ id: 1, only: 'this' });
    });

    it('get, filter, orderBy, limit, group and count', async () => {
      expect(await run(table().get(2))).toEqual({ id: 2, n: 2, tag: 'even' });
      expect(await run(table().filter({ n: 3 }).count())).toBe(rows.filter((x) => x.n === 3).length);
      const top = await items(table().orderBy(r.desc('id')).limit(3));
      expect(top.map((x) => x.id)).toEqual([2499, 2498, 2497]);
      const groups = (await items(table().group('tag').count())) as { group: string; reduction: number }[];
      expect(Object.fromEntries(groups.map((g) => [g.group, g.reduction]))).toEqual({ even: 1250, odd: 1250 });
    });

    it('secondary index: create, wait, getAll', async () => {
      await run(table().indexCreate('tag'));
      const status = await run<{ index: string; ready: boolean }[]>(table().indexWait('tag'));
      expect(status[0]).toMatchObject({ index: 'tag', ready: true });
      expect(await run(table().getAll('even', { index: 'tag' }).count())).toBe(1250);
    });
  });

  it('time terms: epochTime, during [b, c), inTimezone', async () => {
    expect(await run(r.epochTime(0).year())).toBe(1970);
    expect(await run(r.epochTime(10).during(r.epochTime(0), r.epochTime(10)))).toBe(false);
    expect(await run(r.epochTime(5).during(r.epochTime(0), r.epochTime(10)))).toBe(true);
    expect(await run(r.epochTime(0).inTimezone('+02:00').hours())).toBe(2);
  });
});
