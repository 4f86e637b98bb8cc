// Helpers shared by the WIRE section files: short descriptions of responses for failure
// messages, and waits whose time-out is itself the deviation a check is looking for.
import { describeResponse, fromDatum, type DatumMsg, type JsValue, type ResponseMsg } from '../../src/clients/wire/codec.ts';
import type { WireConnection } from '../../src/clients/wire/connection.ts';
import { names, nameOf, ResponseType } from '../../src/clients/wire/schema.ts';
import { datum, expr, term, type Term, type TermLike } from '../../src/clients/wire/terms.ts';
import type { TermMsg } from '../../src/clients/wire/codec.ts';
import type { WireCheckContext } from '../../src/core/check.ts';
import { CheckFailure, CheckInconclusive, TargetError } from '../../src/core/errors.ts';
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

/**
 * The term an error response says the server does not have ("Term X is not implemented.",
 * "X is not supported by this server.", "Unrecognized TermType: 195.", an unknown term), or
 * undefined when the response is not such a refusal. `query` lets the backtrace name the term
 * where the message does not. A server without a term neither keeps nor breaks a rule about it,
 * nor about any other term of the query (wire-protocol.md lines 119-153 list terms; which of
 * them a server has is not a rule the other checks test).
 */
export function unavailableTerm(res: ResponseMsg, query?: TermLike): string | undefined {
  const errors = [ResponseType.CLIENT_ERROR, ResponseType.COMPILE_ERROR, ResponseType.RUNTIME_ERROR];
  if (!errors.includes(res.type!)) return undefined;
  const message = res.response.length === 1 ? fromDatum(res.response[0]) : undefined;
  const text = typeof message === 'string' ? message : '';
  if (/implements no query/i.test(text)) return 'any term (the server implements no query)';
  const named = /\bTerm (\w+) is not implemented/i.exec(text) ?? /^(\w+) is not (?:supported|implemented)\b/i.exec(text);
  // Only a catalogue name counts ("read_mode is not supported." is about an optional argument).
  if (named && Object.values(names.termType).includes(named[1].toUpperCase())) return named[1].toUpperCase();
  const numbered = /Unrecognized TermType:? (\d+)/i.exec(text) ?? /unknown term(?: ?type)?:? (\d+)/i.exec(text);
  if (numbered) return nameOf(names.termType, Number(numbered[1]));
  if (!/\b(not implemented|unimplemented|unknown term|unrecognized term)/i.test(text)) return undefined;
  const located = query === undefined ? undefined : locatedTerm(expr(query).msg, res);
  return located ?? 'a term of the query';
}

/** The term a response's backtrace points at inside `root` (frames run outermost first). */
export function locatedTerm(root: TermMsg, res: ResponseMsg): string | undefined {
  let at: TermMsg | undefined = root;
  for (const f of res.backtrace?.frames ?? []) {
    if (!at) return undefined;
    at = f.type === 2 ? at.optargs?.find((p) => p.key === f.opt)?.val : at.args?.[Number(f.pos ?? -1)];
  }
  return at?.type === undefined ? undefined : nameOf(names.termType, at.type);
}

/** Ends the check inconclusive when `res` says a term of `query` is not there (see unavailableTerm). */
export function unavailableEnds(res: ResponseMsg, query: TermLike | undefined, what: string): void {
  const missing = unavailableTerm(res, query);
  if (missing === undefined) return;
  throw new CheckInconclusive(`${what}: the server does not have ${/ /.test(missing) ? missing : `the term ${missing}`} (${show(describeResponse(res).response)}); a rule about a term is not tested where a term is missing`);
}

/**
 * Runs the cases of each term on its own, so that one term the server does not have (or a
 * set-up that did not hold for it) leaves only that term's cases untested: the others are
 * still tested, and a deviation of any of them fails the check (the first one at its own
 * assertion, the rest named in the same message). No term tested: inconclusive. Some terms
 * not tested: the check says which in a note.
 */
export async function perTerm(ctx: Pick<WireCheckContext, 'note' | 'inconclusive'>, cases: Record<string, () => Promise<unknown>>): Promise<void> {
  const failures: CheckFailure[] = [];
  const untested: string[] = [];
  for (const [name, run] of Object.entries(cases)) {
    try {
      await run();
    } catch (err) {
      if (err instanceof CheckInconclusive) untested.push(`${name} (${err.message})`);
      else if (err instanceof CheckFailure) failures.push(Object.assign(err, { message: `${name}: ${err.message}` }));
      else throw err;
    }
  }
  if (failures.length) {
    const [first, ...rest] = failures;
    if (rest.length) first.message += `; also ${rest.map((f) => f.message).join('; ')}`;
    if (untested.length) first.message += `; not tested: ${untested.join('; ')}`;
    throw first;
  }
  if (untested.length === Object.keys(cases).length) ctx.inconclusive(`no term could be tested: ${untested.join('; ')}`);
  if (untested.length) ctx.note(`not tested: ${untested.join('; ')}`);
}

/** Each term's valid call (its positive control) and the argument counts its signature excludes. */
export type ArityCases = Record<string, { valid: TermLike | undefined; wrong: number[]; why?: string; raises?: string }>;

/**
 * The arity rule of each term, term by term: a term is tested only once a call with the right
 * arguments has been answered with a value (it is there, and takes that count); then every
 * excluded count must be refused with COMPILE_ERROR. A term whose valid call is not evaluated is
 * left untested (noted), never failed; no term evaluated at all: inconclusive.
 */
export async function expectArityRefused(ctx: Pick<WireCheckContext, 'note' | 'inconclusive'>, conn: WireConnection, cases: ArityCases): Promise<void> {
  // The excluded counts as argument lists of the numbers 1, 2, ... (the typed form says why a
  // check may need arguments of another type).
  const typed = Object.fromEntries(
    Object.entries(cases).map(([name, c]) => [name, { ...c, wrong: c.wrong.map((argc) => Array.from({ length: argc }, (_, i): TermLike => i + 1)) }]),
  );
  await expectArityRefusedTyped(ctx, conn, typed);
}

/** The whole value a query answers: an atom's datum, or every item of a sequence (following CONTINUE). */
export async function valueOf(conn: WireConnection, query: TermLike, what: string): Promise<JsValue> {
  let res = await conn.start(query);
  unavailableEnds(res, query, what);
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
  // A refusal because a term is not there at all is not the refusal the rule is about.
  unavailableEnds(res, query, what);
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
 * Like withDatabase, but a database that cannot be created does not end the check: `body` gets
 * `db` undefined and the reason, so that the terms needing no database are still tested.
 */
export async function withOptionalDatabase<T>(ctx: SetupContext, id: string, body: (conn: WireConnection, db: Term | undefined, why: string) => Promise<T>): Promise<T> {
  const conn = await ctx.wire.connect();
  const name = databaseName(id, ctx.seed);
  const created = await conn.start(term('DB_CREATE', [name]));
  if (created.type !== ResponseType.SUCCESS_ATOM) return body(conn, undefined, `DB_CREATE("${name}") answered ${summary(created)} ${show(describeResponse(created).response)}`);
  try {
    return await body(conn, term('DB', [name]), '');
  } finally {
    await conn.start(term('DB_DROP', [name])).catch(() => undefined);
  }
}

/** tableWith, or the reason it could not be set up (instead of ending the check). */
export async function tableOrWhy(ctx: SetupContext, conn: WireConnection, db: Term | undefined, why: string, name: string, rows: JsValue[], optargs: Record<string, TermLike> = {}): Promise<Term | string> {
  if (!db) return why;
  try {
    return await tableWith(ctx, conn, db, name, rows, optargs);
  } catch (err) {
    if (err instanceof CheckInconclusive || err instanceof CheckFailure) return err.message;
    throw err;
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

/**
 * expectArityRefused with the wrong counts given as argument lists: each extra (or missing)
 * argument is of the type the signature wants, so that a COMPILE_ERROR for a literal of the
 * wrong type (the variant's choice, docs/open-choices.md, line 49) is never taken for the
 * refusal of the count. `wrong` lists the arguments of each excluded call of the term; `wrap`
 * places the call where the term is meaningful (IMPLICIT_VAR inside a one-argument function), so
 * that it is not refused for standing elsewhere.
 */
export async function expectArityRefusedTyped(ctx: Pick<WireCheckContext, 'note' | 'inconclusive'>, conn: WireConnection, cases: Record<string, { valid: TermLike | undefined; wrong: TermLike[][]; why?: string; raises?: string; wrap?: (call: Term) => TermLike }>): Promise<void> {
  const wrong: string[] = [];
  const untested: string[] = [];
  for (const [name, { valid, wrong: calls, why, raises, wrap }] of Object.entries(cases)) {
    if (valid === undefined) {
      untested.push(`${name} (${why ?? 'no valid call could be built'})`);
      continue;
    }
    const control = await conn.start(valid);
    const raised = raises !== undefined && control.type === ResponseType.RUNTIME_ERROR && values(control).some((v) => typeof v === 'string' && v.includes(raises));
    if (!raised && ![ResponseType.SUCCESS_ATOM, ResponseType.SUCCESS_SEQUENCE, ResponseType.SUCCESS_PARTIAL].includes(control.type!)) {
      untested.push(`${name} (a valid call was answered ${summary(control)} ${show(describeResponse(control).response)})`);
      continue;
    }
    if (control.type === ResponseType.SUCCESS_PARTIAL) conn.stop(control.token!);
    for (const args of calls) {
      const res = await conn.start(wrap ? wrap(term(name, args)) : term(name, args));
      if (res.type === ResponseType.SUCCESS_PARTIAL) conn.stop(res.token!);
      if (res.type !== ResponseType.COMPILE_ERROR) wrong.push(`${name} with ${args.length} argument(s): ${summary(res)} ${show(describeResponse(res).response)}`);
    }
  }
  const skipped = untested.length ? `; not tested (no valid call evaluated): ${untested.join('; ')}` : '';
  if (wrong.length) throw new CheckFailure(`wrong argument counts should be COMPILE_ERRORs: ${wrong.join('; ')}${skipped}`);
  if (untested.length === Object.keys(cases).length) ctx.inconclusive(`no term evaluated a valid call, so none could be tested${skipped}`);
  if (untested.length) ctx.note(`arity tested for ${Object.keys(cases).length - untested.length} term(s)${skipped}`);
}
