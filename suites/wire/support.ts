// Helpers shared by the WIRE section files: short descriptions of responses for failure
// messages, and waits whose time-out is itself the deviation a check is looking for.
import { describeResponse, fromDatum, type DatumMsg, type JsValue, type ResponseMsg } from '../../src/clients/wire/codec.ts';
import type { WireConnection } from '../../src/clients/wire/connection.ts';
import { names, nameOf, ResponseType } from '../../src/clients/wire/schema.ts';
import { datum, term, type Term, type TermLike } from '../../src/clients/wire/terms.ts';
import type { WireCheckContext } from '../../src/core/check.ts';
import { CheckFailure, TargetError } from '../../src/core/errors.ts';
import { isDeepStrictEqual } from 'node:util';

export { ResponseType };

/** "SUCCESS_SEQUENCE with 2500 datums"; "a response without a ResponseType, with 1 datum". */
export function summary(res: ResponseMsg): string {
  const n = res.response.length;
  return `${typeOf(res)} with ${n} datum${n === 1 ? '' : 's'}`;
}

/**
 * What came back, in protocol terms first: "SUCCESS_ATOM holding an array of 2500 items",
 * "SUCCESS_PARTIAL with 500 datums", "a response without a ResponseType, with 1 datum".
 */
export function received(res: ResponseMsg): string {
  if (res.type === ResponseType.SUCCESS_ATOM && res.response.length === 1) {
    const [value] = values(res);
    if (Array.isArray(value)) return `SUCCESS_ATOM holding an array of ${value.length} item${value.length === 1 ? '' : 's'}`;
  }
  return summary(res);
}

/** The response's type by name; a response whose type field is missing is named as such. */
export function typeOf(res: ResponseMsg): string {
  if (res.type === undefined) return 'a response without a ResponseType';
  return nameOf(names.responseType, res.type);
}

/** The response's datums as values. */
export function values(res: ResponseMsg): JsValue[] {
  return res.response.map((d: DatumMsg) => fromDatum(d));
}

export function show(value: unknown): string {
  if (value === undefined) return 'undefined';
  const s = JSON.stringify(value, (_k, v) => (typeof v === 'bigint' ? v.toString() : v));
  return s.length > 200 ? `${s.slice(0, 200)}…` : s;
}

/**
 * Waits for the response to `token` where its absence is the deviation under test: a time-out
 * or a closed connection fails the check (instead of counting as a broken target).
 */
export async function expectReply(conn: WireConnection, token: bigint, what: string): Promise<ResponseMsg> {
  try {
    return await conn.next(token);
  } catch (err) {
    if (err instanceof TargetError) {
      const others = conn.received.filter((r) => r.token !== token).map((r) => show(describeResponse(r)));
      const seen = others.length ? `; other responses: ${others.slice(0, 3).join(', ')}` : '';
      throw new CheckFailure(`${what}: ${err.message}${seen}`);
    }
    throw err;
  }
}

/** Fails unless the response has the expected type. */
export function expectType(res: ResponseMsg, expected: keyof typeof ResponseType, context: string): void {
  if (res.type !== ResponseType[expected]) {
    throw new CheckFailure(`${context}: expected ${expected}, got ${received(res)} ${show(describeResponse(res).response)}`);
  }
}

/** Structural equality of decoded values (node's own). */
export { isDeepStrictEqual as deepEqual } from 'node:util';

// ---- term-catalogue helpers: run a query and read its value, or its error ----

/** The whole value a query answers: an atom's datum, or every item of a sequence (following CONTINUE). */
export async function valueOf(conn: WireConnection, query: TermLike, what: string): Promise<JsValue> {
  let res = await conn.start(query);
  if (res.type === ResponseType.SUCCESS_ATOM) return values(res)[0];
  const items: JsValue[] = [];
  for (let batch = 0; batch < 100; batch++) {
    if (res.type !== ResponseType.SUCCESS_SEQUENCE && res.type !== ResponseType.SUCCESS_PARTIAL) {
      throw new CheckFailure(`${what} should succeed, got ${summary(res)} ${show(describeResponse(res).response)}`);
    }
    // Not push(...): a target may send far more datums in one batch than a call takes arguments.
    for (const v of values(res)) items.push(v);
    if (res.type === ResponseType.SUCCESS_SEQUENCE) return items;
    res = await conn.continue(res.token!);
  }
  throw new CheckFailure(`${what} should end within 100 batches`);
}

/** Fails unless the query's value equals `expected` (structurally). */
export async function expectValue(conn: WireConnection, query: TermLike, expected: JsValue, what: string): Promise<JsValue> {
  const got = await valueOf(conn, query, what);
  if (!isDeepStrictEqual(got, expected)) throw new CheckFailure(`${what} should be ${show(expected)}, got ${show(got)}`);
  return got;
}

/** The error response a query must give; fails when it succeeds (or errs with another type than `type`). */
export async function expectError(conn: WireConnection, query: TermLike, what: string, type?: 'COMPILE_ERROR' | 'RUNTIME_ERROR'): Promise<ResponseMsg> {
  const res = await conn.start(query);
  const errors = [ResponseType.CLIENT_ERROR, ResponseType.COMPILE_ERROR, ResponseType.RUNTIME_ERROR];
  if (type ? res.type !== ResponseType[type] : !errors.includes(res.type!)) {
    throw new CheckFailure(`${what} should be refused with ${type ?? 'an error'}, got ${summary(res)} ${show(describeResponse(res).response)}`);
  }
  return res;
}

/** Sends each term with the given argument counts; returns a line per count not refused with COMPILE_ERROR. */
export async function arityNotRefused(conn: WireConnection, counts: Record<string, number[]>): Promise<string[]> {
  const wrong: string[] = [];
  for (const [name, argcs] of Object.entries(counts)) {
    for (const argc of argcs) {
      const res = await conn.start(term(name, Array.from({ length: argc }, (_, i) => i + 1)));
      if (res.type !== ResponseType.COMPILE_ERROR) wrong.push(`${name} with ${argc} argument(s): ${summary(res)}`);
    }
  }
  return wrong;
}

/** A database name of the check's own: from its id and the run's seed, plus a random suffix against leftovers. */
export function databaseName(id: string, seed: number): string {
  const tail = id.split('.').pop()!.replace(/[^A-Za-z0-9]/g, '_').slice(0, 30);
  return `conformance_${tail}_${seed}_${Math.random().toString(16).slice(2, 8)}`;
}

/** What the set-up helpers need of a check's context. */
export type SetupContext = Pick<WireCheckContext, 'seed' | 'wire' | 'setup'>;

/**
 * Runs `body` with a database created for it (named after `id` and the seed) and drops the
 * database afterwards, whatever happens, so that a real server is left as it was found. The
 * creation is a set-up step: a refusal makes the check inconclusive, not failed.
 */
export async function withDatabase<T>(ctx: SetupContext, id: string, body: (conn: WireConnection, db: Term) => Promise<T>): Promise<T> {
  const conn = await ctx.wire.connect();
  const name = databaseName(id, ctx.seed);
  await ctx.setup(`create the database "${name}"`, async () => {
    const created = await conn.start(term('DB_CREATE', [name]));
    expectType(created, 'SUCCESS_ATOM', `DB_CREATE("${name}")`);
  }, { seeAlso: 'wire.term-catalogue.administration.db-create-list-drop' });
  try {
    return await body(conn, term('DB', [name]));
  } finally {
    await conn.start(term('DB_DROP', [name])).catch(() => undefined);
  }
}

/**
 * TABLE_CREATE then INSERT of `rows`, as a set-up step; returns the TABLE term. Line 150 names
 * only "counts such as inserted": an `errors` count other than 0, or an `inserted` count other
 * than the number of rows, is a refusal; a result without them is taken as it is.
 */
export async function tableWith(ctx: SetupContext, conn: WireConnection, db: Term, name: string, rows: JsValue[], optargs: Record<string, TermLike> = {}): Promise<Term> {
  return ctx.setup(`create the table "${name}" holding ${rows.length} row${rows.length === 1 ? '' : 's'}`, async () => {
    expectType(await conn.start(term('TABLE_CREATE', [db, name], optargs)), 'SUCCESS_ATOM', `TABLE_CREATE(${name})`);
    const table = term('TABLE', [db, name]);
    if (rows.length) {
      const res = await valueOf(conn, term('INSERT', [table, datum(rows)]), `INSERT into ${name}`);
      const counts = typeof res === 'object' && res !== null && !Array.isArray(res) ? (res as Record<string, JsValue>) : undefined;
      if (!counts) throw new CheckFailure(`INSERT into ${name} should answer an OBJECT, got ${show(res)}`);
      if (counts.errors !== undefined && counts.errors !== 0) throw new CheckFailure(`INSERT into ${name} reported errors: ${show(res)}`);
      if (counts.inserted !== undefined && counts.inserted !== rows.length) throw new CheckFailure(`INSERT of ${rows.length} rows into ${name} reported ${show(counts.inserted)} inserted: ${show(res)}`);
    }
    return table;
  }, { seeAlso: 'wire.term-catalogue.writes.insert-counts' });
}

/** A set-up query whose value the check needs (an index created, a table filled): a refusal is inconclusive. */
export function setupValue(ctx: SetupContext, conn: WireConnection, query: TermLike, what: string, seeAlso?: string): Promise<JsValue> {
  return ctx.setup(what, () => valueOf(conn, query, what), seeAlso ? { seeAlso } : {});
}

/** FUNC([1], body(VAR(1))): a one-argument function. */
export function fn1(body: (x: Term) => TermLike): Term {
  return term('FUNC', [term('MAKE_ARRAY', [1]), body(term('VAR', [1]))]);
}

/** FUNC([1, 2], body(VAR(1), VAR(2))): a two-argument function. */
export function fn2(body: (x: Term, y: Term) => TermLike): Term {
  return term('FUNC', [term('MAKE_ARRAY', [1, 2]), body(term('VAR', [1]), term('VAR', [2]))]);
}
