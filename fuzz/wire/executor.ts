// Runs WIRE cases against a target over real TCP connections.
//  - isolated: one fresh connection per case, then a liveness SERVER_INFO on that connection (when
//    framing is intact) or on a fresh one. Authoritative: findings are confirmed and shrunk this way.
//  - pipelined (WireLane): well-framed cases share a connection, several in flight at once (V0_4
//    runs queries in parallel; responses are matched by token). Anything odd there makes the case a
//    suspect, to be re-run isolated; a timeout or a closed connection makes every case then in
//    flight on it a suspect, since which one broke it is not known.
import { decodeQuery, encodeQuery, frame, type QueryMsg } from '../../src/clients/wire/codec.ts';
import { FrameReader } from '../../src/clients/wire/frame-reader.ts';
import { encodeHandshake } from '../../src/clients/wire/handshake.ts';
import { names, nameOf, QueryType, ResponseType } from '../../src/clients/wire/schema.ts';
import { TargetError } from '../../src/core/errors.ts';
import type { QuickOutcome } from '../core/kind.ts';
import type { WireCase } from './case.ts';
import { expectCase, expectFrames, type WireExpectation } from './expect.ts';
import { judgeExchange, type ReceivedFrame, type Violation, type WireExchange } from './oracles.ts';
import { RawWire, type Endpoint } from './transport.ts';

export interface WireTargetHandle {
  /** Current address (an embedded target restarted after a crash gets a new port). */
  endpoint(): Endpoint;
  authKey: string;
  maxFrameBytes?: number;
}

export interface WireRunResult {
  violations: Violation[];
  exchange: WireExchange;
  expectation: WireExpectation;
}

/** The standard handshake of every case marked 'default' and of liveness probes. */
export function defaultHandshake(authKey: string): Buffer {
  return encodeHandshake({ version: 'V0_4', authKey, protocol: 'PROTOBUF' });
}

/** The answers of an exchange for the campaign's coverage: response types by name, or how it ended without one. */
export function answerNames(ex: WireExchange): string[] {
  const out = ex.responses.map((f) => (f.res ? nameOf(names.responseType, f.res.type) : 'undecodable'));
  if (ex.handshakeReply !== undefined) out.unshift(ex.handshakeReply === 'SUCCESS' ? 'handshake SUCCESS' : 'handshake refused');
  return out.length ? out : [`no answer (${ex.end})`];
}

const SUCCESS_TYPES = new Set<number>([ResponseType.SUCCESS_ATOM, ResponseType.SUCCESS_SEQUENCE, ResponseType.SUCCESS_PARTIAL]);

/** Every TermType name in a term tree (arguments and optional arguments). */
function termsOf(t: QueryMsg['query'], into: Set<string>, depth = 0): void {
  if (!t || depth > 64) return;
  if (t.type !== undefined) into.add(nameOf(names.termType, t.type));
  for (const a of t.args ?? []) termsOf(a, into, depth + 1);
  for (const p of t.optargs ?? []) termsOf(p.val, into, depth + 1);
}

/**
 * What of the server's logic a case reached: the terms of each START whose token was answered
 * with a success type (SUCCESS_ATOM, SUCCESS_SEQUENCE, SUCCESS_PARTIAL), and SERVER_INFO and
 * NOREPLY_WAIT answered with their own type. An error answer, or none, reaches nothing: a server
 * that answers every query RUNTIME_ERROR evaluates no term.
 */
export function reachedOf(c: WireCase, exp: WireExpectation, ex: WireExchange): string[] {
  if (!exp.framesJudged || !ex.responses.length) return [];
  const types = new Map<bigint, Set<number>>();
  for (const f of ex.responses) if (f.res) (types.get(f.res.token ?? 0n) ?? types.set(f.res.token ?? 0n, new Set()).get(f.res.token ?? 0n)!).add(f.res.type ?? -1);
  let queries: readonly QueryMsg[] | undefined = c.queries;
  if (!queries) {
    queries = [];
    for (const p of new FrameReader(0xffffffff).push(exp.afterHandshake)) {
      try {
        (queries as QueryMsg[]).push(decodeQuery(p));
      } catch {
        // a malformed frame reaches nothing
      }
    }
  }
  const out = new Set<string>();
  for (const q of queries) {
    const got = types.get(q.token ?? 0n);
    if (!got) continue;
    if (q.type === QueryType.START && [...got].some((t) => SUCCESS_TYPES.has(t))) termsOf(q.query, out);
    else if (q.type === QueryType.SERVER_INFO && got.has(ResponseType.SERVER_INFO)) out.add('SERVER_INFO');
    else if (q.type === QueryType.NOREPLY_WAIT && got.has(ResponseType.WAIT_COMPLETE)) out.add('NOREPLY_WAIT');
  }
  return [...out];
}

/** Waits for a condition re-checked on every transport event, or a deadline. */
class Waiter {
  private wake: (() => void) | undefined;
  notify = (): void => this.wake?.();
  until(done: () => boolean, deadline: number): Promise<boolean> {
    return new Promise((resolve) => {
      const check = () => {
        if (done()) finish(true);
      };
      const timer = setTimeout(() => finish(false), Math.max(0, deadline - Date.now()));
      const finish = (ok: boolean) => {
        clearTimeout(timer);
        this.wake = undefined;
        resolve(ok);
      };
      this.wake = check;
      check();
    });
  }
}

/** Nothing more is owed: every query's minimum of responses and every malformed frame's CLIENT_ERROR arrived. */
function owedNothing(exp: WireExpectation, ex: WireExchange): boolean {
  return !judgeExchange(exp, ex).some((v) => v.signature.startsWith('unanswered:') || v.oracle === 'handshake-reply');
}

function serverInfoFrame(token: bigint): Buffer {
  return frame(encodeQuery({ type: QueryType.SERVER_INFO, token }));
}

/** A token none of the case's queries uses, for the liveness SERVER_INFO. */
function freshToken(exp: WireExpectation): bigint {
  let t = 0x4c495645n; // "LIVE"
  while (exp.queries.some((q) => q.token === t)) t++;
  return t;
}

/**
 * Response frames recorded for one case at most. A case owes a handful; a target that floods the
 * connection is judged on the first ones (its extra responses are the finding) and the fuzzer
 * hangs up, rather than judge and store an endless stream.
 */
export const MAX_FRAMES_PER_CASE = 256;

export async function runIsolated(c: WireCase, target: WireTargetHandle, timeoutMs: number): Promise<WireRunResult> {
  let exp = expectCase(c);
  const ex: WireExchange = { responses: [], end: 'complete' };
  const waiter = new Waiter();
  let ended: { how: 'closed' | 'reset'; detail: string } | undefined;
  let reply: string | undefined;
  const conn = await RawWire.connect(target.endpoint(), timeoutMs, target.maxFrameBytes);
  const onFrame = (f: ReceivedFrame) => {
    if (ended) return;
    ex.responses.push(f);
    if (ex.responses.length >= MAX_FRAMES_PER_CASE) {
      ended = { how: 'closed', detail: `closed by the fuzzer after ${MAX_FRAMES_PER_CASE} response frames (the target floods the connection)` };
      conn.close();
    }
  };
  conn.handlers = {
    onHandshakeReply: (r) => ((reply = r), waiter.notify()),
    onFrame: (f) => (onFrame(f), waiter.notify()),
    onEnd: (how, detail) => ((ended = { how, detail }), waiter.notify()),
  };
  const deadline = Date.now() + timeoutMs;
  try {
    if (c.handshake === 'default') {
      await conn.write(defaultHandshake(target.authKey));
      await waiter.until(() => reply !== undefined || ended !== undefined, deadline);
      if (reply !== 'SUCCESS') {
        throw new TargetError('E_PROTOCOL', `standard V0_4 handshake not accepted: ${reply === undefined ? ended?.detail ?? 'no reply' : JSON.stringify(reply)}`);
      }
    }
    for (const w of c.writes) await conn.write(w);
    let framesKnown = c.handshake === 'default';
    const done = () => {
      if (c.handshake === 'none' && !framesKnown && reply !== undefined) {
        ex.handshakeReply = reply;
        // Frames are owed only once the target accepted the handshake.
        if (reply === 'SUCCESS' && exp.framesAfterReply) exp = { ...exp, framesJudged: true, ...expectFrames(exp.afterHandshake) };
        framesKnown = true;
      }
      return ended !== undefined || (exp.handshake !== 'reply' || reply !== undefined) && owedNothing(exp, ex);
    };
    const finished = await waiter.until(done, deadline);
    if (c.handshake === 'none' && reply !== undefined) ex.handshakeReply = reply;
    if (ended) {
      ex.end = ended.how;
      ex.endDetail = ended.detail;
    } else if (!finished) {
      ex.end = 'timeout';
      ex.endDetail = `nothing more within ${timeoutMs} ms`;
    }
    ex.liveness = await liveness(conn, exp, ex, waiter, target, timeoutMs, exp.framesJudged);
  } finally {
    conn.close();
  }
  return { violations: judgeExchange(exp, ex), exchange: ex, expectation: exp };
}

async function liveness(
  conn: RawWire,
  exp: WireExpectation,
  ex: WireExchange,
  waiter: Waiter,
  target: WireTargetHandle,
  timeoutMs: number,
  accepted: boolean,
): Promise<NonNullable<WireExchange['liveness']>> {
  // The same connection only when both directions are between whole frames. After a timeout too:
  // a connection that answers a SERVER_INFO is not hung (its silence on a frame is the
  // document's rule), one that does not is (robustness).
  if (conn.isOpen && conn.framingIntact && !exp.trailing && accepted && (ex.end === 'complete' || ex.end === 'timeout')) {
    // Responses that arrive before the SERVER_INFO answer still belong to the case (extras).
    const token = freshToken(exp);
    let answered: ReceivedFrame | undefined;
    const onFrame = conn.handlers.onFrame!;
    conn.handlers.onFrame = (f) => (f.res?.token === token ? (answered = f) : onFrame(f), waiter.notify());
    await conn.write(serverInfoFrame(token));
    const ok = await waiter.until(() => answered !== undefined || !conn.isOpen, Date.now() + timeoutMs);
    if (ok && answered) return { ok: true, via: 'same' };
    return { ok: false, via: 'same', detail: answered ? 'no SERVER_INFO answer' : conn.isOpen ? `timeout: no answer within ${timeoutMs} ms` : 'closed: connection closed instead of answering' };
  }
  return probeServerInfo(target, timeoutMs);
}

/** A fresh connection, the standard handshake and one SERVER_INFO. */
export async function probeServerInfo(target: WireTargetHandle, timeoutMs: number): Promise<{ ok: boolean; via: 'fresh'; detail?: string }> {
  let conn: RawWire;
  try {
    conn = await RawWire.connect(target.endpoint(), timeoutMs, target.maxFrameBytes);
  } catch (err) {
    return { ok: false, via: 'fresh', detail: `unreachable: ${(err as Error).message}` };
  }
  const waiter = new Waiter();
  let reply: string | undefined;
  let res: ReceivedFrame | undefined;
  let ended: string | undefined;
  conn.handlers = {
    onHandshakeReply: (r) => ((reply = r), waiter.notify()),
    onFrame: (f) => ((res ??= f), waiter.notify()),
    onEnd: (_how, detail) => ((ended = detail), waiter.notify()),
  };
  try {
    const deadline = Date.now() + timeoutMs;
    await conn.write(Buffer.concat([defaultHandshake(target.authKey), serverInfoFrame(1n)]));
    await waiter.until(() => res !== undefined || ended !== undefined, deadline);
    // Alive is answering at all: whether the answer has the right type is the type oracle's to judge.
    if (res?.res) return { ok: true, via: 'fresh' };
    if (res) return { ok: false, via: 'fresh', detail: `answer: not a Response (${res.decodeError})` };
    if (reply !== undefined && reply !== 'SUCCESS') return { ok: false, via: 'fresh', detail: `handshake: refused with ${JSON.stringify(reply)}` };
    if (ended) return { ok: false, via: 'fresh', detail: `closed: ${ended}` };
    return { ok: false, via: 'fresh', detail: `timeout: no SERVER_INFO answer within ${timeoutMs} ms` };
  } finally {
    conn.close();
  }
}

// ---------------------------------------------------------------------------------------------
// Pipelined lanes

export type LaneOutcome = QuickOutcome;

interface InFlight {
  c: WireCase;
  exp: WireExpectation;
  /** Responses still owed per token (counted down as they arrive: no full judgement per frame). */
  owed: Map<bigint, number>;
  /** Tokens whose count is not yet down to zero. */
  openTokens: number;
  ex: WireExchange;
  settle: (o: LaneOutcome) => void;
  settled: boolean;
  /** Resolves when the case settles (a case waiting for one of its tokens waits on this). */
  done: Promise<LaneOutcome>;
  timer: NodeJS.Timeout | undefined;
  /** Its counts are down but a frame is still unanswered (see WireLane.check): what the judge says so far. */
  waiting?: Violation[];
}

/** Cases per connection before it is replaced: bounds the target's per-connection state (open cursors). */
const CASES_PER_CONNECTION = 512;

class LaneConnection {
  /** The case each token belongs to; a settled case stays here until its token is reused. */
  readonly byToken = new Map<bigint, InFlight>();
  /**
   * Tokens whose case settled with the token closed on the server (its last response was not
   * SUCCESS_PARTIAL, nothing more owed): a later case may use them on this connection. Without
   * this, the many small tokens the generator draws collide within a few cases and every
   * collision cost a new connection and handshake (2,000 connections per 10,000 cases).
   */
  readonly reusable = new Set<bigint>();
  readonly entries = new Set<InFlight>();
  inFlight = 0;
  cases = 0;
  retired = false;
  constructor(readonly conn: RawWire) {}
}

/**
 * True when the server holds nothing more for `token` after this exchange: the queries with it got
 * the most responses they may get (a STOP or a noreply START that was answered owes nothing more;
 * one that was not may still answer later), and the last response did not leave a cursor or feed
 * open (SUCCESS_PARTIAL). Counting answered STOPs as closed matters for speed: STOP is one query
 * type in seven, and a token it leaves held cost the lane a new connection and handshake at the
 * next case with that token (about 800 per 10,000 wire-protobuf cases before).
 */
function closesToken(exp: WireExpectation, ex: WireExchange, token: bigint): boolean {
  let most = 0;
  for (const q of exp.queries) if (q.token === token) most += q.max;
  let last: number | undefined;
  let answered = 0;
  for (const f of ex.responses) {
    if (f.res?.token !== token) continue;
    last = f.res.type;
    answered++;
  }
  return last !== undefined && last !== ResponseType.SUCCESS_PARTIAL && answered >= most;
}

export class WireLane {
  private lc: LaneConnection | undefined;
  private opening: Promise<LaneConnection> | undefined;

  constructor(
    private readonly target: WireTargetHandle,
    private readonly timeoutMs: number,
    /** A late anomaly on a case already settled as passed (an extra response after it completed). */
    private readonly onLateSuspect: (exp: WireExpectation, reason: string) => void = () => {},
  ) {}

  /** Runs the case on the shared connection; undefined when its bytes cannot share one (malformed or cut frames). */
  async submit(c: WireCase): Promise<LaneOutcome | undefined> {
    const exp = expectCase(c);
    if (exp.malformed || exp.trailing || !exp.queries.length) return undefined;
    // Tokens are unique per connection. A token of a case still in flight: wait for that case
    // (the generator draws from narrow ranges, so this is common). A token the server may still
    // hold (an open cursor, a STOP or noreply that may answer later): a new connection.
    // Checked again after every wait, since other cases register tokens (or retire the
    // connection: writes to a retired one would go nowhere) meanwhile.
    let lc = await this.connection();
    for (;;) {
      if (lc.retired || lc.cases >= CASES_PER_CONNECTION) {
        if (!lc.retired) this.retire(lc);
        lc = await this.connection();
        continue;
      }
      const owners = exp.queries.map((q) => lc.byToken.get(q.token));
      const busy = owners.find((e) => e && !e.settled);
      if (busy) {
        await busy.done;
        continue;
      }
      if (exp.queries.some((q, i) => owners[i] && !lc.reusable.has(q.token))) {
        this.retire(lc);
        continue;
      }
      break;
    }
    for (const q of exp.queries) lc.reusable.delete(q.token);
    lc.cases++;
    lc.inFlight++;
    const ex: WireExchange = { responses: [], end: 'complete' };
    let resolve!: (o: LaneOutcome) => void;
    const done = new Promise<LaneOutcome>((r) => (resolve = r));
    const owed = new Map<bigint, number>();
    for (const q of exp.queries) owed.set(q.token, (owed.get(q.token) ?? 0) + q.min);
    const entry: InFlight = {
      c,
      exp,
      owed,
      openTokens: [...owed.values()].filter((n) => n > 0).length,
      ex,
      settled: false,
      timer: undefined,
      done,
      settle: (o) => {
        if (entry.settled) return;
        entry.settled = true;
        clearTimeout(entry.timer);
        lc.entries.delete(entry);
        for (const [token, left] of owed) if (left <= 0 && closesToken(exp, ex, token)) lc.reusable.add(token);
        if (--lc.inFlight === 0 && lc.retired) lc.conn.close();
        resolve(o);
      },
    };
    for (const q of exp.queries) lc.byToken.set(q.token, entry);
    lc.entries.add(entry);
    entry.timer = setTimeout(() => {
      // Only this case's frames are late (the others of its connection came): it alone is a suspect.
      if (entry.waiting) return entry.settle(this.outcome(entry, entry.waiting));
      // Which case stopped the stream is unknown: every case in flight becomes a suspect.
      this.poison(lc, `no response within ${this.timeoutMs} ms on a shared connection`);
    }, this.timeoutMs);
    for (const w of c.writes) lc.conn.send(w);
    this.check(entry);
    return done;
  }

  close(): void {
    this.lc?.conn.close();
    this.lc = undefined;
  }

  private async connection(): Promise<LaneConnection> {
    if (this.lc && !this.lc.retired) return this.lc;
    this.opening ??= this.open().then(
      (lc) => ((this.lc = lc), (this.opening = undefined), lc),
      (err) => {
        this.opening = undefined;
        throw err;
      },
    );
    return this.opening;
  }

  private async open(): Promise<LaneConnection> {
    const conn = await RawWire.connect(this.target.endpoint(), this.timeoutMs, this.target.maxFrameBytes);
    const waiter = new Waiter();
    let reply: string | undefined;
    let ended: string | undefined;
    conn.handlers = { onHandshakeReply: (r) => ((reply = r), waiter.notify()), onEnd: (_h, d) => ((ended = d), waiter.notify()) };
    await conn.write(defaultHandshake(this.target.authKey));
    await waiter.until(() => reply !== undefined || ended !== undefined, Date.now() + this.timeoutMs);
    if (reply !== 'SUCCESS') {
      conn.close();
      throw new TargetError('E_PROTOCOL', `standard V0_4 handshake not accepted: ${reply === undefined ? ended ?? 'no reply' : JSON.stringify(reply)}`);
    }
    const lc = new LaneConnection(conn);
    conn.handlers = {
      onFrame: (f) => this.onFrame(lc, f),
      onEnd: (how, detail) => this.poison(lc, `connection ${how}: ${detail}`),
    };
    return lc;
  }

  private retire(lc: LaneConnection): void {
    lc.retired = true;
    if (lc.inFlight === 0) lc.conn.close();
    if (this.lc === lc) this.lc = undefined;
  }

  private onFrame(lc: LaneConnection, f: ReceivedFrame): void {
    const entry = f.res ? lc.byToken.get(f.res.token ?? 0n) : undefined;
    if (!entry) {
      this.poison(lc, f.res ? `response with token ${f.res.token} that no case in flight sent` : `undecodable response frame: ${f.decodeError}`);
      return;
    }
    entry.ex.responses.push(f);
    const token = f.res!.token ?? 0n;
    const left = entry.owed.get(token)!;
    entry.owed.set(token, left - 1);
    if (left === 1) entry.openTokens--;
    if (entry.settled) {
      const late = judgeExchange(entry.exp, entry.ex);
      if (late.length) this.onLateSuspect(entry.exp, late[0].message);
      // A STOP's answer comes after its case settled (it owed none): now the token is free.
      else if (lc.byToken.get(token) === entry && closesToken(entry.exp, entry.ex, token)) lc.reusable.add(token);
      return;
    }
    this.check(entry);
  }

  private check(entry: InFlight): void {
    if (entry.openTokens > 0) return;
    const violations = judgeExchange(entry.exp, entry.ex);
    // The counts are down, yet a frame is unanswered: a query that may go unanswered (a noreply
    // START) was answered and took the count of a later query of its token. That answer may
    // still come: wait for it, up to this case's own timeout. Settling now made such cases
    // suspects, each then run alone on a fresh connection to pass (about 1 % of cases).
    if (violations.length && violations.every((v) => v.signature.startsWith('unanswered:'))) {
      entry.waiting = violations;
      return;
    }
    entry.settle(this.outcome(entry, violations));
  }

  private outcome(entry: InFlight, violations: readonly Violation[]): LaneOutcome {
    const cover = { answers: answerNames(entry.ex), past: entry.ex.responses.length > 0, reached: reachedOf(entry.c, entry.exp, entry.ex) };
    return violations.length
      ? { status: 'suspect', reason: violations[0].message, cover }
      : { status: 'passed', shape: entry.ex.responses.map((f) => f.res?.type).join(','), cover };
  }

  private poison(lc: LaneConnection, reason: string): void {
    if (this.lc === lc) this.lc = undefined;
    lc.retired = true;
    const entries = [...lc.entries];
    lc.conn.close();
    for (const e of entries) e.settle({ status: 'suspect', reason });
  }
}
