// Runs RethinkDB's polyglot ReQL tests (test/data/reql, copied from rethinkdb/rethinkdb
// test/rql_test/src) against a WIRE server and judges each answer as RethinkDB's JS test driver
// (test/rql_test/drivers/driver.js) does: eq_test, bag, partial, err, err_regex, arrlen, uuid.
// `npx jiti test/interop/reql/runner.ts [file-substring...]` prints every disagreement.
import { readFileSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { encodeQuery, frame, fromDatum, type JsValue, type QueryMsg, type ResponseMsg } from '../../../src/clients/wire/codec.ts';
import { WireConnection } from '../../../src/clients/wire/connection.ts';
import { ErrorType, ResponseType } from '../../../src/clients/wire/schema.ts';
import { startWireReference } from '../../../targets/wire/server.ts';
import { DriverError, Kw, r, termOf, Untranslatable } from './builder.ts';
import { parsePolyglot, type PolyValue } from './polyglot.ts';
import { SKIPPED_FILES, triageOf, type Triage } from './triage.ts';

export const DATA_DIR = path.resolve(import.meta.dirname, '../../data/reql');

export interface CaseResult {
  file: string;
  /** Index of the test in the file's `tests` list, and of the query within a list form. */
  index: string;
  query: string;
  expected: string;
  outcome: 'agree' | 'disagree' | 'document' | 'untranslatable' | 'driver-only';
  /** The error class agreed but the message differs (reported, not counted: wording is open, line 176). */
  messageDiffers?: boolean;
  got?: string;
  reason?: string;
  triage?: Triage;
}

export interface FileResult {
  file: string;
  cases: CaseResult[];
}

// ---------------------------------------------------------------------------------------------
// Python/common-denominator forms, rewritten to JavaScript where the rewrite is mechanical.

/** `name=value` keyword arguments inside a call become `__kw("name", value)`. */
function rewriteKwargs(src: string): string {
  let out = '';
  let i = 0;
  const stack: { close: string; kwOpen: boolean }[] = [];
  let prevSig = '';
  while (i < src.length) {
    const c = src[i];
    if (c === '"' || c === "'") {
      let j = i + 1;
      while (j < src.length && src[j] !== c) j += src[j] === '\\' ? 2 : 1;
      out += src.slice(i, j + 1);
      i = j + 1;
      prevSig = c;
      continue;
    }
    const m = /^([A-Za-z_]\w*)\s*=(?!=)/.exec(src.slice(i));
    if (m && (prevSig === '(' || prevSig === ',') && stack.length && stack[stack.length - 1].close === ')') {
      out += `__kw(${JSON.stringify(m[1])}, `;
      stack[stack.length - 1].kwOpen = true;
      i += m[0].length;
      prevSig = '(';
      continue;
    }
    if (c === '(' || c === '[' || c === '{') stack.push({ close: c === '(' ? ')' : c === '[' ? ']' : '}', kwOpen: false });
    if ((c === ')' || c === ']' || c === '}') && stack.length) {
      const top = stack.pop()!;
      if (top.kwOpen) out += ')';
    }
    if (c === ',' && stack.length && stack[stack.length - 1].kwOpen) {
      out += ')';
      stack[stack.length - 1].kwOpen = false;
    }
    out += c;
    if (!/\s/.test(c)) prevSig = /\w/.test(c) ? 'w' : c;
    i++;
  }
  return out;
}

/**
 * RethinkDB's test generator (test/rql_test/test-runner, JsLang.nametranslate) turns every `__`
 * of a JS query or definition into `_` (`{'return__changes':true}`, `'first__error'`); the
 * expected values are not rewritten.
 */
export function jsNames(src: string): string {
  return src.replace(/__/g, '_');
}

export function pythonToJs(src: string): string {
  let s = src.replace(/\blambda\s*([\w\s,]*):/g, (_m, p: string) => `(${p.trim()}) =>`);
  s = rewriteKwargs(s);
  return s;
}

// ---------------------------------------------------------------------------------------------
// The expected-value helpers of driver.js.

const ERROR_PARENT: Record<string, string | undefined> = {
  ReqlError: undefined,
  ReqlCompileError: 'ReqlError',
  ReqlServerCompileError: 'ReqlCompileError',
  ReqlDriverCompileError: 'ReqlCompileError',
  ReqlRuntimeError: 'ReqlError',
  ReqlQueryLogicError: 'ReqlRuntimeError',
  ReqlNonExistenceError: 'ReqlQueryLogicError',
  ReqlResourceLimitError: 'ReqlRuntimeError',
  ReqlUserError: 'ReqlRuntimeError',
  ReqlInternalError: 'ReqlRuntimeError',
  ReqlAvailabilityError: 'ReqlRuntimeError',
  ReqlOpFailedError: 'ReqlAvailabilityError',
  ReqlOpIndeterminateError: 'ReqlAvailabilityError',
  ReqlPermissionError: 'ReqlRuntimeError',
  ReqlClientError: 'ReqlError',
  ReqlDriverError: 'ReqlError',
};

function normaliseErrorName(name: string): string {
  return name.replace(/^Rql/, 'Reql').replace(/^RqlTzinfo/, 'Reql');
}

function isA(actual: string, expected: string): boolean {
  for (let c: string | undefined = actual; c; c = ERROR_PARENT[c]) if (c === expected) return true;
  return false;
}

interface Got {
  error?: { cls: string; message: string };
  value?: unknown;
}

type Matcher = ((got: Got) => boolean) & { describe: string; isErr?: boolean; messageMatch?: (got: Got) => boolean; driverOnly?: boolean };

function matcher(describe: string, f: (got: Got) => boolean, extra: Partial<Matcher> = {}): Matcher {
  return Object.assign(f, { describe }, extra);
}

function stripMessage(m: string): string {
  return m.replace(/^([^\n]*?)(?: in)?:\n[\s\S]*$/, '$1:').replace(/\nFailed assertion: .*/, '').replace(/\nStack:\n[\s\S]*$/, '');
}

function err(name: string, msg?: string | RegExp): Matcher {
  const cls = normaliseErrorName(name);
  // Errors the JS driver raises itself: its compile errors, and a JavaScript TypeError (driver.js
  // expects `r.wait()` to throw one: the driver has no such function).
  const driverOnly = cls === 'ReqlDriverCompileError' || cls === 'ReqlDriverError' || cls === 'TypeError';
  const sameMessage = (got: Got) => {
    if (!got.error || msg === undefined || msg === null) return true;
    const m = stripMessage(got.error.message);
    return msg instanceof RegExp ? msg.test(m) : msg === m;
  };
  return matcher(`${cls}(${String(msg)})`, (got) => !!got.error && isA(got.error.cls, cls), { isErr: true, messageMatch: sameMessage, driverOnly });
}

function eqTest(expected: unknown, result: unknown, partial = false, precision?: number): boolean {
  if (typeof expected === 'function') return (expected as Matcher)({ value: result });
  if (expected instanceof Date) {
    const t = result as { $reql_type$?: string; epoch_time?: number };
    return !!t && t.$reql_type$ === 'TIME' && Math.abs((t.epoch_time ?? NaN) * 1000 - expected.getTime()) < 1;
  }
  if (Buffer.isBuffer(expected)) {
    const b = result as { $reql_type$?: string; data?: string };
    return !!b && b.$reql_type$ === 'BINARY' && b.data === expected.toString('base64');
  }
  if (typeof expected !== typeof result) return false;
  if (typeof expected === 'number') {
    if (precision !== undefined) return Math.abs(expected - (result as number)) <= precision;
    return expected === result || (Number.isNaN(expected) && Number.isNaN(result));
  }
  if (typeof expected === 'string') return expected === result;
  if (Array.isArray(expected)) {
    if (!Array.isArray(result)) return false;
    if (partial ? expected.length > result.length : expected.length !== result.length) return false;
    let e = 0;
    let g = 0;
    for (; e < expected.length && g < result.length; e++, g++) {
      if (!eqTest(expected[e], result[g], false, precision)) {
        if (partial) e--;
        else return false;
      }
    }
    if (e !== expected.length) return false;
    return partial || g === result.length;
  }
  if (expected && typeof expected === 'object') {
    if (!result || typeof result !== 'object' || Array.isArray(result)) return false;
    const ek = Object.keys(expected).sort();
    const gk = Object.keys(result).sort();
    if (!eqTest(ek, gk, partial)) return false;
    return ek.every((k) => eqTest((expected as Record<string, unknown>)[k], (result as Record<string, unknown>)[k], false, precision));
  }
  return expected === result;
}

function sortKey(x: unknown): string {
  return JSON.stringify(x, (_k, v) => (v && typeof v === 'object' && !Array.isArray(v) ? Object.fromEntries(Object.entries(v).sort(([a], [b]) => (a < b ? -1 : 1))) : v));
}

function bag(expected: unknown[], partial = false): Matcher {
  return matcher(`bag(${JSON.stringify(expected)})`, (got) => {
    if (!Array.isArray(got.value)) return false;
    const left = [...got.value];
    if (!partial && left.length !== expected.length) return false;
    for (const e of expected) {
      const i = left.findIndex((g) => eqTest(e, g));
      if (i === -1) return false;
      left.splice(i, 1);
    }
    return true;
  });
}

function partial(expected: unknown): Matcher {
  if (Array.isArray(expected)) return bag(expected, true);
  return matcher(`partial(${JSON.stringify(expected)})`, (got) => eqTest(expected, got.value, true));
}

const HELPERS: Record<string, unknown> = {
  err,
  err_regex: (name: string, pat: string) => err(name, new RegExp(pat)),
  builtin_err: (name: string) => matcher(`builtin ${name}`, () => false, { driverOnly: true }),
  bag: (e: unknown[]) => bag(e),
  partial,
  float_cmp: (n: number) => matcher(`float_cmp(${n})`, (got) => typeof got.value === 'number' && Math.abs(got.value - n) <= Math.abs(n) * 1e-9 + 1e-12),
  int_cmp: (n: number) => matcher(`int_cmp(${n})`, (got) => got.value === n),
  uuid: () => matcher('uuid()', (got) => typeof got.value === 'string' && /[a-z0-9]{8}-[a-z0-9]{4}-[a-z0-9]{4}-[a-z0-9]{4}-[a-z0-9]{12}/.test(got.value)),
  arrlen: (n: number, each?: unknown) =>
    matcher(`arrlen(${n})`, (got) => Array.isArray(got.value) && got.value.length === n && (!each || got.value.every((v) => eqTest(each, v)))),
  regex: (p: string) => matcher(`regex(${p})`, (got) => typeof got.value === 'string' && new RegExp(p).test(got.value)),
  anything: () => matcher('anything()', () => true),
  True: true,
  False: false,
  None: null,
  null: null,
  __kw: (key: string, value: unknown) => new Kw(key, value),
  range: (a: number, b?: number, step = 1) => {
    const [lo, hi] = b === undefined ? [0, a] : [a, b];
    const out: number[] = [];
    for (let i = lo; step > 0 ? i < hi : i > hi; i += step) out.push(i);
    return out;
  },
  list: (x: unknown[]) => [...x],
  str: (x: unknown) => String(x),
  float: (x: string) => Number(x === 'inf' ? Infinity : x === '-inf' ? -Infinity : x),
  Buffer,
  Date,
  r,
};

function evalIn(scope: Record<string, unknown>, src: string): unknown {
  // eslint-disable-next-line no-new-func
  const f = new Function('__scope', `with (__scope) { return (${src}\n); }`);
  return f(scope);
}

// ---------------------------------------------------------------------------------------------

function pickQuery(t: Record<string, PolyValue>): { forms: string[]; python: boolean } | undefined {
  const form = t.js ?? t.cd;
  if (form === undefined) return undefined;
  const python = t.js === undefined;
  const list = Array.isArray(form) ? form : [form];
  return { forms: list.map((x) => String(x)), python };
}

function pickExpected(ot: PolyValue | undefined): { src: string; python: boolean } | undefined {
  if (ot === undefined) return { src: 'anything()', python: false };
  if (typeof ot === 'string') return { src: ot, python: true };
  if (Array.isArray(ot)) return undefined;
  const v = ot.js ?? ot.cd ?? ot.py;
  if (v === undefined || typeof v !== 'string') return undefined;
  return { src: v, python: ot.js === undefined };
}

const ERROR_CLASS: Record<number, string> = {
  [ErrorType.QUERY_LOGIC]: 'ReqlQueryLogicError',
  [ErrorType.NON_EXISTENCE]: 'ReqlNonExistenceError',
  [ErrorType.RESOURCE_LIMIT]: 'ReqlResourceLimitError',
  [ErrorType.USER]: 'ReqlUserError',
  [ErrorType.INTERNAL]: 'ReqlInternalError',
  [ErrorType.OP_FAILED]: 'ReqlOpFailedError',
  [ErrorType.OP_INDETERMINATE]: 'ReqlOpIndeterminateError',
  [ErrorType.PERMISSION_ERROR]: 'ReqlPermissionError',
};

/**
 * Pseudotypes the drivers convert by default: GROUPED_DATA becomes [{group, reduction}], unless
 * the run option `group_format: 'raw'` asks for the raw pseudotype (driver-side options, as in
 * RethinkDB's drivers; the server ignores them).
 */
function native(v: JsValue, raw: { group?: boolean } = {}): unknown {
  if (Array.isArray(v)) return v.map((x) => native(x, raw));
  if (v && typeof v === 'object') {
    if (!raw.group && v.$reql_type$ === 'GROUPED_DATA' && Array.isArray(v.data)) return (v.data as JsValue[][]).map(([group, reduction]) => ({ group: native(group, raw), reduction: native(reduction, raw) }));
    return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, native(x, raw)]));
  }
  return v;
}

/** START of `term` with the run options as global optargs; returns its token. */
function startQuery(conn: WireConnection, term: unknown, globalOptargs: Record<string, unknown>): bigint {
  const token = conn.nextToken();
  const msg: QueryMsg = { type: 1, token, query: termOf(term) };
  const keys = Object.keys(globalOptargs);
  if (keys.length) msg.global_optargs = keys.map((key) => ({ key, val: termOf(globalOptargs[key]) }));
  conn.write(frame(encodeQuery(msg)));
  return token;
}

/** A response that is not a success, as driver.js names its error class. */
function errorOf(res: ResponseMsg): Got {
  const message = String(fromDatum(res.response[0]));
  const cls =
    res.type === ResponseType.COMPILE_ERROR ? 'ReqlServerCompileError' : res.type === ResponseType.CLIENT_ERROR ? 'ReqlClientError' : (ERROR_CLASS[res.error_type ?? 0] ?? 'ReqlRuntimeError');
  return { error: { cls, message } };
}

async function runQuery(conn: WireConnection, term: unknown, globalOptargs: Record<string, unknown>, replyMs = 10_000): Promise<Got> {
  const raw = { group: globalOptargs.group_format === 'raw' };
  const token = startQuery(conn, term, globalOptargs);
  let res: ResponseMsg = await conn.next(token, replyMs);
  const items: JsValue[] = [];
  for (;;) {
    switch (res.type) {
      case ResponseType.SUCCESS_ATOM:
        return { value: native(fromDatum(res.response[0]), raw) };
      case ResponseType.SUCCESS_SEQUENCE:
        items.push(...res.response.map(fromDatum));
        return { value: native(items, raw) };
      case ResponseType.SUCCESS_PARTIAL:
        items.push(...res.response.map(fromDatum));
        if (items.length > 100_000) return { value: native(items, raw) };
        conn.write(frame(encodeQuery({ type: 2, token })));
        res = await conn.next(token, replyMs);
        continue;
      default:
        return errorOf(res);
    }
  }
}

// ---------------------------------------------------------------------------------------------
// Changefeeds (changefeeds/*.yaml): as driver.js does, `name = query` runs the query and keeps
// its cursor; `fetch(name, n)` reads n items from it (CONTINUE as needed), `name` alone reads it
// to its end, `name.close()` sends STOP, and `wait(s)` sleeps.

/** How long a read of a feed waits for items that do not come (a disagreement, not a hang). */
const FEED_WAIT_MS = 3000;

/** An open stream or changefeed held in a variable. */
class Feed {
  items: unknown[] = [];
  done = false;
  error?: Got['error'];
  /** A START or CONTINUE whose answer has not been read yet. */
  outstanding = true;
  /** The query answered a value (SUCCESS_ATOM), not a stream. */
  atom = false;
  constructor(
    readonly conn: WireConnection,
    readonly token: bigint,
  ) {}
  close(): FeedClose {
    return new FeedClose(this);
  }
  /** Takes in one answer of the feed. */
  absorb(res: ResponseMsg): void {
    this.outstanding = false;
    if (res.type === ResponseType.SUCCESS_PARTIAL || res.type === ResponseType.SUCCESS_SEQUENCE) {
      for (const d of res.response) this.items.push(native(fromDatum(d)));
      if (res.type === ResponseType.SUCCESS_SEQUENCE) this.done = true;
    } else if (res.type === ResponseType.SUCCESS_ATOM) {
      this.items.push(native(fromDatum(res.response[0])));
      this.done = true;
      this.atom = true;
    } else {
      this.error = errorOf(res).error;
      this.done = true;
    }
  }
}
class FeedRead {
  constructor(
    readonly feed: Feed,
    readonly n?: number,
  ) {}
}
class FeedClose {
  constructor(readonly feed: Feed) {}
}
class Wait {
  constructor(readonly seconds: number) {}
}

const FEED_HELPERS: Record<string, unknown> = {
  fetch: (feed: unknown, n?: number) => {
    if (!(feed instanceof Feed)) throw new Untranslatable('fetch of something that is not an open cursor');
    return new FeedRead(feed, n);
  },
  wait: (seconds: number) => new Wait(seconds),
  len: (x: { length: number }) => x.length,
  nil: null,
};

/** Reads `n` items of the feed (every item to its end when undefined), waiting at most FEED_WAIT_MS for more. */
async function readFeed(feed: Feed, n?: number): Promise<Got> {
  const deadline = performance.now() + FEED_WAIT_MS;
  for (;;) {
    if (n !== undefined && feed.items.length >= n) return { value: feed.items.splice(0, n) };
    if (feed.done) return feed.error && (n === undefined || !feed.items.length) ? { error: feed.error } : { value: feed.items.splice(0) };
    if (!feed.outstanding) {
      feed.conn.write(frame(encodeQuery({ type: 2, token: feed.token })));
      feed.outstanding = true;
    }
    const left = deadline - performance.now();
    if (left <= 0) return { value: feed.items.splice(0) };
    try {
      feed.absorb(await feed.conn.next(feed.token, left));
    } catch {
      return { value: feed.items.splice(0) };
    }
  }
}

/** `name = query`: START, and the first answer: a cursor kept open, or the value. */
async function startAssigned(conn: WireConnection, term: unknown, runopts: Record<string, unknown>): Promise<{ held: unknown; got: Got }> {
  const feed = new Feed(conn, startQuery(conn, term, runopts));
  try {
    feed.absorb(await conn.next(feed.token, FEED_WAIT_MS));
  } catch {
    return { held: feed, got: { value: null } };
  }
  if (feed.error) return { held: feed, got: { error: feed.error } };
  if (!feed.done) return { held: feed, got: { value: null } };
  const value = feed.atom ? feed.items[0] : feed.items;
  return { held: value, got: { value } };
}

async function runFeedTerm(term: Feed | FeedRead | FeedClose | Wait): Promise<Got> {
  if (term instanceof Wait) {
    await new Promise((r) => setTimeout(r, Math.min(term.seconds, 5) * 1000));
    return { value: null };
  }
  if (term instanceof FeedClose) {
    if (term.feed.done) return { value: null };
    term.feed.conn.write(frame(encodeQuery({ type: 3, token: term.feed.token })));
    try {
      term.feed.absorb(await term.feed.conn.next(term.feed.token, FEED_WAIT_MS));
    } catch {
      // no answer to STOP: judged by nothing here (the close has no expected value)
    }
    return { value: null };
  }
  return term instanceof FeedRead ? readFeed(term.feed, term.n) : readFeed(term);
}
const isFeedTerm = (x: unknown): x is Feed | FeedRead | FeedClose | Wait => x instanceof Feed || x instanceof FeedRead || x instanceof FeedClose || x instanceof Wait;

function describeGot(g: Got): string {
  const s = g.error ? `${g.error.cls}: ${g.error.message}` : JSON.stringify(g.value);
  return s.length > 300 ? `${s.slice(0, 300)}…` : s;
}

export function listFiles(filter: string[] = []): string[] {
  const out: string[] = [];
  const walk = (dir: string) => {
    for (const name of readdirSync(dir).sort()) {
      const p = path.join(dir, name);
      if (statSync(p).isDirectory()) walk(p);
      else if (name.endsWith('.yaml')) out.push(path.relative(DATA_DIR, p));
    }
  };
  walk(DATA_DIR);
  return out.filter((f) => !SKIPPED_FILES[f] && (!filter.length || filter.some((x) => f.includes(x))));
}

export async function runFile(file: string): Promise<FileResult> {
  const doc = parsePolyglot(readFileSync(path.join(DATA_DIR, file), 'utf8')) as Record<string, PolyValue>;
  const ref = await startWireReference({ host: '127.0.0.1', port: 0 });
  const conn = await WireConnection.connect({ host: ref.host, port: ref.port, replyTimeoutMs: 10_000 });
  const cases: CaseResult[] = [];
  try {
    await conn.handshake({ authKey: '' });
    // RethinkDB's test runner (test/rql_test/test-runner, clean()) gives every test file a user
    // `test_user` holding every global permission.
    await runQuery(conn, r.grant('test_user', { read: true, write: true, config: true, connect: true }), {});
    const scope: Record<string, unknown> = Object.create(null);
    Object.assign(scope, HELPERS);
    const feeds = file.startsWith('changefeeds/');
    if (feeds) Object.assign(scope, FEED_HELPERS);
    const tableNames = String(doc.table_variable_name ?? '')
      .split(/[\s,]+/)
      .filter(Boolean);
    for (const t of tableNames) {
      await runQuery(conn, r.db('test').tableCreate(t), {});
      scope[t] = r.db('test').table(t);
    }
    const tests = (doc.tests ?? []) as Record<string, PolyValue>[];
    for (const [ti, t] of tests.entries()) {
      if (typeof t !== 'object' || Array.isArray(t)) continue;
      // def: a variable for later tests (built, not run, as driver.js's define does)
      const def = typeof t.def === 'string' ? { src: t.def, python: true } : t.def && !Array.isArray(t.def) ? { src: (t.def.js ?? t.def.cd) as string | undefined, python: t.def.js === undefined } : undefined;
      if (def?.src) {
        const m = /^(?:var\s+)?(\w+)\s*=(?!=)\s*([\s\S]*)$/.exec(def.src.trim());
        try {
          if (m) scope[m[1]] = evalIn(scope, def.python ? pythonToJs(m[2]) : jsNames(m[2]));
          else evalIn(scope, def.python ? pythonToJs(def.src) : jsNames(def.src));
        } catch {
          // a later case that needs it is untranslatable
        }
      }
      const q = pickQuery(t);
      if (!q) {
        if (t.py !== undefined || t.rb !== undefined) {
          cases.push({ file, index: String(ti), query: String(t.py ?? t.rb), expected: String(typeof t.ot === 'string' ? t.ot : JSON.stringify(t.ot)), outcome: 'untranslatable', reason: 'Python or Ruby form only' });
        }
        continue;
      }
      const exp = pickExpected(t.ot);
      for (const [fi, form] of q.forms.entries()) {
        const index = q.forms.length > 1 ? `${ti}.${fi}` : String(ti);
        const base = { file, index, query: form, expected: exp?.src ?? JSON.stringify(t.ot) };
        let expected: unknown;
        try {
          if (!exp) throw new Untranslatable('expected value in a Python or Ruby form only');
          expected = evalIn(scope, exp.python ? pythonToJs(exp.src) : exp.src);
        } catch (e) {
          cases.push({ ...base, outcome: 'untranslatable', reason: `expected value: ${(e as Error).message}` });
          continue;
        }
        let term: unknown;
        // changefeeds: `name = query` runs the query and keeps its cursor (driver.js); without an
        // expected value it is a set-up step, not a case.
        const assigned = feeds ? /^(?:var\s+)?([A-Za-z_]\w*)\s*=(?!=)\s*([\s\S]+)$/.exec(form.trim()) : null;
        const setupOnly = feeds && t.ot === undefined;
        try {
          const src = assigned ? assigned[2] : form;
          term = evalIn(scope, q.python ? pythonToJs(src) : jsNames(src));
          if (!isFeedTerm(term)) termOf(term);
        } catch (e) {
          const driverOnly = e instanceof DriverError || (typeof expected === 'function' && (expected as Matcher).driverOnly);
          cases.push({ ...base, outcome: driverOnly ? 'driver-only' : 'untranslatable', reason: `${(e as Error).constructor.name}: ${(e as Error).message}` });
          continue;
        }
        if (typeof expected === 'function' && (expected as Matcher).driverOnly) {
          cases.push({ ...base, outcome: 'driver-only', reason: 'the driver refuses it before sending' });
          continue;
        }
        if (t.runopts && typeof t.runopts === 'object' && !Array.isArray(t.runopts) && t.runopts.user !== undefined) {
          // driver.js opens a connection as that user: the harness has one connection, with no user.
          cases.push({ ...base, outcome: 'untranslatable', reason: `runs as user ${String(t.runopts.user)} (a connection of its own)` });
          continue;
        }
        const runopts: Record<string, unknown> = {};
        if (t.runopts && typeof t.runopts === 'object' && !Array.isArray(t.runopts)) {
          for (const [k, v] of Object.entries(t.runopts)) {
            if (k === 'max_batch_rows' || k === 'user') continue;
            try {
              runopts[k] = evalIn(scope, pythonToJs(String(v)));
            } catch {
              runopts[k] = String(v);
            }
          }
        }
        let got: Got;
        try {
          if (isFeedTerm(term)) got = await runFeedTerm(term);
          else if (assigned) {
            const started = await startAssigned(conn, term, runopts);
            scope[assigned[1]] = started.held;
            got = started.got;
          } else got = await runQuery(conn, term, runopts, feeds ? FEED_WAIT_MS : 10_000);
        } catch (e) {
          got = { error: { cls: 'transport', message: (e as Error).message } };
        }
        if (setupOnly) continue;
        const testopts = t.testopts && typeof t.testopts === 'object' && !Array.isArray(t.testopts) ? t.testopts : {};
        if (testopts.variable && !got.error) scope[String(testopts.variable)] = got.value;
        const precision = testopts.precision !== undefined ? Number(testopts.precision) : undefined;
        const m = typeof expected === 'function' ? (expected as Matcher) : undefined;
        const ok = m ? m(got) : !got.error && eqTest(expected, got.value, false, precision);
        const gotText = describeGot(got);
        cases.push({
          ...base,
          outcome: ok ? 'agree' : triageOf(form, gotText) ? 'document' : 'disagree',
          messageDiffers: ok && m?.messageMatch ? !m.messageMatch(got) : undefined,
          got: gotText,
          triage: ok ? undefined : triageOf(form, gotText),
        });
      }
    }
  } finally {
    conn.close();
    await ref.close();
  }
  return { file, cases };
}

export interface FileFigures {
  file: string;
  agree: number;
  /** Translated cases that are not a listed document difference. */
  judged: number;
  document: number;
  untranslatable: number;
  driverOnly: number;
  wordingDiffers: number;
}

export function figures({ file, cases }: FileResult): FileFigures {
  const n = (o: CaseResult['outcome']) => cases.filter((c) => c.outcome === o).length;
  return { file, agree: n('agree'), judged: n('agree') + n('disagree'), document: n('document'), untranslatable: n('untranslatable'), driverOnly: n('driver-only'), wordingDiffers: cases.filter((c) => c.messageDiffers).length };
}

export function summarise(results: FileResult[]): { rows: string[]; agree: number; translatable: number; untranslatable: number; driverOnly: number } {
  const rows: string[] = [];
  let agree = 0;
  let translatable = 0;
  let untranslatable = 0;
  let driverOnly = 0;
  for (const { file, cases } of results) {
    const a = cases.filter((c) => c.outcome === 'agree').length;
    const d = cases.filter((c) => c.outcome === 'disagree').length;
    const doc = cases.filter((c) => c.outcome === 'document').length;
    const u = cases.filter((c) => c.outcome === 'untranslatable').length;
    const o = cases.filter((c) => c.outcome === 'driver-only').length;
    const msg = cases.filter((c) => c.messageDiffers).length;
    agree += a;
    translatable += a + d;
    untranslatable += u;
    driverOnly += o;
    const pct = a + d ? ((100 * a) / (a + d)).toFixed(1) : '-';
    rows.push(`${file.padEnd(40)} agree ${String(a).padStart(4)} / ${String(a + d).padStart(4)} (${pct.padStart(5)}%)  document ${doc}  untranslatable ${u}  driver-only ${o}  error wording differs ${msg}`);
  }
  return { rows, agree, translatable, untranslatable, driverOnly };
}

async function main(): Promise<void> {
  const args = process.argv.slice(2);
  const verbose = args.includes('-v');
  const files = listFiles(args.filter((a) => !a.startsWith('-')));
  const results: FileResult[] = [];
  for (const f of files) results.push(await runFile(f));
  for (const { cases } of results) {
    for (const c of cases) {
      if (c.outcome === 'disagree' || (verbose && c.outcome !== 'agree')) {
        console.log(`${c.outcome.toUpperCase()} ${c.file}#${c.index}${c.triage ? ` [${c.triage.kind}]` : ''}\n  query:    ${c.query}\n  expected: ${c.expected}\n  got:      ${c.got ?? c.reason}`);
      }
    }
  }
  const s = summarise(results);
  for (const row of s.rows) console.log(row);
  console.log(`TOTAL agree ${s.agree} / ${s.translatable} (${((100 * s.agree) / s.translatable).toFixed(1)}%), untranslatable ${s.untranslatable}, driver-only ${s.driverOnly}`);
}

if (process.argv[1] && import.meta.filename === path.resolve(process.argv[1])) void main();
