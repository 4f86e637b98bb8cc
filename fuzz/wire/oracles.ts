// The WIRE oracles. Each is a rule of wire-protocol.md (line, quote and level in
// fuzz/core/rules.ts) or robustness (no-hang, liveness: the document states no time limit).
//   one-response-per-query   a query owed an answer gets one, with its token (line 7, 90-95,
//                            121-127): START, CONTINUE of an unknown token or after SUCCESS_PARTIAL,
//                            NOREPLY_WAIT, SERVER_INFO; STOP, a noreply START, a CONTINUE after a
//                            START that did not answer SUCCESS_PARTIAL and a Query of no known
//                            QueryType are owed nothing (no rule states an answer). A target that
//                            closes with an owed query unanswered, or answers later queries of the
//                            connection but never this one, breaks it
//   response-type-in-enum    Response.type is a ResponseType value (line 32, 43-50)
//   response-type-fits-query NOREPLY_WAIT -> WAIT_COMPLETE, SERVER_INFO -> SERVER_INFO, START -> a
//                            result or an error, CONTINUE of an unknown token -> CLIENT_ERROR (90-95)
//   error-one-r-str          CLIENT_ERROR/COMPILE_ERROR/RUNTIME_ERROR carry exactly one R_STR (176)
//   batch-under-1000         batches contain fewer than 1000 items (184)
//   malformed-client-error   SHOULD: a frame that is not a protobuf Query gets CLIENT_ERROR (48)
//   handshake-reply          a whole handshake of V0_1..V0_4 gets a NUL-terminated reply (107)
//   response-is-protobuf     a response frame is a serialized Response (117)
//   no-hang (robustness)     what is owed comes within the case timeout: a connection that answers
//                            nothing more (not even a SERVER_INFO sent after the case) is hung
//   liveness (robustness)    afterwards the connection, or a fresh one, still answers SERVER_INFO
import type { ResponseMsg } from '../../src/clients/wire/codec.ts';
import { DatumType, names, nameOf, QueryType, ResponseType } from '../../src/clients/wire/schema.ts';
import type { Violation } from '../core/kind.ts';
import type { QueryExpectation, WireExpectation } from './expect.ts';

export const WIRE_ORACLES = [
  'one-response-per-query',
  'no-hang',
  'response-type-in-enum',
  'response-type-fits-query',
  'error-one-r-str',
  'batch-under-1000',
  'malformed-client-error',
  'handshake-reply',
  'response-is-protobuf',
  'liveness',
] as const;
export type WireOracle = (typeof WIRE_ORACLES)[number];

export type { Violation };

export interface ReceivedFrame {
  /** The frame's payload as received (hex only when a finding is written: most cases never need it). */
  raw: Buffer;
  res?: ResponseMsg;
  decodeError?: string;
}

export type ExchangeEnd = 'complete' | 'timeout' | 'closed' | 'reset';

export interface WireExchange {
  /** The handshake reply of a case that sends its own handshake ('none': the target sent none). */
  handshakeReply?: string;
  responses: ReceivedFrame[];
  end: ExchangeEnd;
  endDetail?: string;
  liveness?: { ok: boolean; via: 'same' | 'fresh'; detail?: string };
}

const ERROR_TYPES = new Set<number>([ResponseType.CLIENT_ERROR, ResponseType.COMPILE_ERROR, ResponseType.RUNTIME_ERROR]);
const RESPONSE_TYPES = new Set<number>(Object.values(ResponseType));
const typeName = (t: number | undefined) => nameOf(names.responseType, t);

/** Checks of one response on its own: usable as soon as it arrives, pipelined or not. */
export function judgeResponse(frame: ReceivedFrame): Violation[] {
  if (!frame.res) {
    return [{ oracle: 'response-is-protobuf', message: `response frame is not a Response: ${frame.decodeError}`, signature: 'undecodable' }];
  }
  const res = frame.res;
  const out: Violation[] = [];
  if (!RESPONSE_TYPES.has(res.type ?? -1)) {
    out.push({ oracle: 'response-type-in-enum', message: `response type ${res.type ?? '(unset)'} is not a ResponseType`, signature: `type:${res.type ?? 'unset'}` });
  }
  if (ERROR_TYPES.has(res.type ?? -1)) {
    const kinds = res.response.map((d) => nameOf(names.datumType, d.type));
    if (res.response.length !== 1 || res.response[0].type !== DatumType.R_STR) {
      out.push({
        oracle: 'error-one-r-str',
        message: `${typeName(res.type)} carries ${res.response.length} datum(s) [${kinds.join(', ')}] instead of exactly one R_STR`,
        signature: `[${kinds.join(',')}]`,
        detail: typeName(res.type),
      });
    }
  }
  if (res.response.length >= 1000) {
    out.push({ oracle: 'batch-under-1000', message: `${typeName(res.type)} holds ${res.response.length} datums (at most 999 allowed)`, signature: '1000+', detail: typeName(res.type) });
  }
  return out;
}

/**
 * Response types each query type may be answered with ("Query operations" table, per-token life
 * cycle, ResponseType table): NOREPLY_WAIT -> WAIT_COMPLETE, SERVER_INFO -> SERVER_INFO, START ->
 * a result or an error, CONTINUE of a token the connection does not know -> CLIENT_ERROR. STOP
 * has "no response rule", so any answer to it passes.
 */
const RESULT_OR_ERROR = new Set<number>([ResponseType.SUCCESS_ATOM, ResponseType.SUCCESS_SEQUENCE, ResponseType.SUCCESS_PARTIAL, ...ERROR_TYPES]);
/** Query types whose answer has a type of its own (the ResponseType table). */
const OWN_ANSWER: Record<number, number> = { [QueryType.NOREPLY_WAIT]: ResponseType.WAIT_COMPLETE, [QueryType.SERVER_INFO]: ResponseType.SERVER_INFO };

function answerFits(queryType: number, unknownToken: boolean, responseType: number): boolean {
  switch (queryType) {
    case QueryType.START:
      return RESULT_OR_ERROR.has(responseType);
    case QueryType.CONTINUE:
      return unknownToken ? responseType === ResponseType.CLIENT_ERROR : true;
    case QueryType.NOREPLY_WAIT:
      return responseType === ResponseType.WAIT_COMPLETE;
    case QueryType.SERVER_INFO:
      return responseType === ResponseType.SERVER_INFO;
    default:
      return true;
  }
}

/** What a frame is, in the document's terms, for naming the one left unanswered. */
function frameClass(q: QueryExpectation | undefined): string {
  if (!q) return 'malformed-frame';
  if (q.empty) return 'empty-frame';
  if (!q.unknownType) return names.queryType[q.type] ?? 'UNKNOWN_TYPE';
  return q.type === 0 ? 'no-type' : 'unknown-type';
}

interface Slot {
  q: QueryExpectation;
  got: number[];
}

/**
 * Answers other than CLIENT_ERROR are given out first, greedily; a CLIENT_ERROR of a token whose
 * queries are all answered may be owed to one whose place such an answer took: a CONTINUE (which
 * fits any answer) given the answer of a later STOP of its token that came after the CLIENT_ERRORs.
 * One augmenting step: move that answer to another open query of the token it fits, and give the
 * CLIENT_ERROR to the query it leaves, if that query was read before `before` (the first malformed
 * frame not yet answered: the earlier frame is answered first). True when it did.
 */
function rehome(mine: Slot[], before: number | undefined): boolean {
  const startOf = mine.some((s) => s.q.type === QueryType.START);
  for (const from of mine) {
    if (from.q.unknownType || (before !== undefined && (from.q.at ?? 0) >= before)) continue;
    const i = from.got.findIndex((t) => t !== ResponseType.CLIENT_ERROR);
    if (i < 0) continue;
    const answer = from.got[i]!;
    const to = mine.find((s) => s !== from && !s.q.unknownType && s.got.length < s.q.max && answerFits(s.q.type, !startOf, answer));
    if (!to) continue;
    from.got.splice(i, 1, ResponseType.CLIENT_ERROR);
    to.got.push(answer);
    return true;
  }
  return false;
}

/**
 * Checks of a whole exchange against what its bytes are owed. Responses are assigned to the frames
 * that owe them (by token; a CLIENT_ERROR that no query of its token is owed goes to a malformed
 * frame, whatever token it carries, since a server reads what it can of such a frame), so that a
 * missing answer is blamed on the frame that went unanswered. Every violation is returned, each
 * with a signature (the bucket) saying what the server did wrong in protocol terms only: never
 * the neighbouring queries, tokens or values. Where a token is shared by several frames the
 * assignment may be wrong: the driver then runs the frames one at a time before it reports
 * anything (attributionAmbiguous in expect.ts).
 */
export function judgeExchange(exp: WireExpectation, ex: WireExchange): Violation[] {
  const out: Violation[] = [];
  // A reset and a close are one behaviour seen at two moments: which one the client sees is timing.
  const end = ex.end === 'reset' ? 'closed' : ex.end;
  const ended = ex.end === 'complete' ? '' : ` (connection ${ex.end}${ex.endDetail ? `: ${ex.endDetail}` : ''})`;
  // The connection answered a SERVER_INFO sent after the case (it is not hung), or did not.
  const sameAlive = ex.liveness?.via === 'same' ? ex.liveness.ok : undefined;
  const hung = sameAlive === false && /^timeout/.test(ex.liveness?.detail ?? '');
  if (exp.handshake === 'reply' && ex.handshakeReply === undefined) {
    if (end === 'timeout') out.push({ oracle: 'no-hang', message: `no reply to a whole handshake within the case timeout${ended}`, signature: 'handshake' });
    else out.push({ oracle: 'handshake-reply', message: `no NUL-terminated reply to a whole handshake${ended}`, signature: `no-reply:${end}` });
  }
  // After an unknown magic, V1_0, a handshake refused, or a protocol other than PROTOBUF, nothing
  // the target sends is judged as frames.
  if (!exp.framesJudged) {
    const live = livenessOf(ex, false);
    return live[0]?.signature === 'dead' ? live : [...out, ...live];
  }
  out.push(...ex.responses.flatMap(judgeResponse));

  const closed = end === 'closed';
  // A CONTINUE after a START of its token is owed the next batch only if the START answered SUCCESS_PARTIAL.
  const partial = new Set(ex.responses.filter((f) => f.res?.type === ResponseType.SUCCESS_PARTIAL).map((f) => f.res!.token ?? 0n));
  const slots: Slot[] = exp.queries.map((q) => {
    let owed = q.afterStart && partial.has(q.token) ? { ...q, min: 1 } : q;
    if (closed && owed.droppable) owed = { ...owed, min: 0 };
    return { q: owed, got: [] };
  });
  const byToken = new Map<bigint, Slot[]>();
  for (const s of slots) byToken.set(s.q.token, [...(byToken.get(s.q.token) ?? []), s]);
  const malformedAt = exp.malformedAt ?? Array.from({ length: exp.malformed }, (_, i) => -1 - i);
  const malformed = malformedAt.map((at, i) => ({ at, answered: false, first: i === 0 }));
  const clientErrors: NonNullable<ReceivedFrame['res']>[] = [];
  for (const { res } of ex.responses) {
    if (!res) continue;
    const type = res.type ?? -1;
    if (type === ResponseType.CLIENT_ERROR) {
      clientErrors.push(res);
      continue;
    }
    const mine = byToken.get(res.token ?? 0n);
    if (!mine) {
      out.push({ oracle: 'one-response-per-query', message: `${typeName(res.type)} with token ${res.token ?? '(unset)'} answers no query of the case`, signature: `unclaimed:${typeName(res.type)}`, detail: `token ${res.token ?? 'unset'}` });
      continue;
    }
    // Several queries of one token: the answer goes to the earliest that may still be answered
    // (a server answers them in order) and whose type it fits, if any. First a query that owns
    // the answer's type (WAIT_COMPLETE, SERVER_INFO), then one that still owes an answer, then one
    // that may get one (a noreply START): else a CONTINUE of the token, which fits any answer,
    // took a NOREPLY_WAIT's WAIT_COMPLETE, or a noreply START the answer of a later START.
    const startOf = mine.some((s) => s.q.type === QueryType.START);
    const fits = (s: Slot) => answerFits(s.q.type, !startOf, type);
    const open = (s: Slot) => !s.q.unknownType && s.got.length < s.q.max;
    const slot =
      mine.find((s) => open(s) && OWN_ANSWER[s.q.type] === type) ??
      mine.find((s) => open(s) && s.got.length < s.q.min && fits(s)) ??
      mine.find((s) => open(s) && fits(s)) ??
      mine.find(open) ??
      mine.find((s) => s.q.unknownType && !s.got.length);
    if (!slot) {
      out.push({ oracle: 'one-response-per-query', message: `${typeName(res.type)} with token ${res.token}: more responses than the case's queries with that token may get`, signature: `extra:${typeName(res.type)}`, detail: mine.map((s) => frameClass(s.q)).join('+') });
      continue;
    }
    slot.got.push(type);
  }
  // A CLIENT_ERROR goes to the earliest frame that may own it (answers come in the order frames
  // were read): a query of its token not yet answered, or a malformed frame (any token).
  let extraClientErrors = 0;
  for (const res of clientErrors) {
    const mine = byToken.get(res.token ?? 0n) ?? [];
    const slot = mine.find((s) => (s.q.unknownType ? !s.got.length : s.got.length < s.q.min));
    const m = malformed.find((x) => !x.answered);
    if (slot && (!m || (slot.q.at ?? 0) < m.at)) {
      slot.got.push(ResponseType.CLIENT_ERROR);
      continue;
    }
    // An earlier query of the token whose answer went to a later one may be this CLIENT_ERROR's.
    if (rehome(mine, m?.at ?? slot?.q.at)) continue;
    if (m) {
      m.answered = true;
      continue;
    }
    const spare = mine.find((s) => s.got.length < s.q.max);
    if (spare) spare.got.push(ResponseType.CLIENT_ERROR);
    else extraClientErrors++;
  }
  const allowance = exp.trailing ? 1 : 0; // an oversized size prefix may be refused at once
  if (extraClientErrors > allowance) {
    out.push({ oracle: 'one-response-per-query', message: `${extraClientErrors - allowance} CLIENT_ERROR response(s) more than the case's queries and malformed frames account for`, signature: 'extra:CLIENT_ERROR' });
  }

  // The answer's type must fit the query's type. Judged where the assignment is certain: a token
  // only one query of the case uses (a CLIENT_ERROR only when no malformed frame could own it).
  // A query of no known QueryType may get any answer: the document states none.
  for (const s of slots) {
    if (byToken.get(s.q.token)!.length !== 1 || s.q.unknownType) continue;
    for (const type of s.got) {
      if (!RESPONSE_TYPES.has(type) || (type === ResponseType.CLIENT_ERROR && exp.malformed > 0)) continue;
      // On a fresh connection, and on a shared one (whose tokens are reused only once closed),
      // a CONTINUE whose token no START of the case uses names a token the server does not know.
      const unknownToken = s.q.type === QueryType.CONTINUE;
      if (!answerFits(s.q.type, unknownToken, type)) {
        const q = `${frameClass(s.q)}${unknownToken ? ' of an unknown token' : ''}`;
        out.push({ oracle: 'response-type-fits-query', message: `${q} (token ${s.q.token}) was answered ${typeName(type)}; the document owes ${expectedAnswer(s.q.type, unknownToken)}`, signature: `${q}->${typeName(type)}` });
      }
    }
  }

  // Frames left unanswered, in the order they were sent. After a malformed frame the server may
  // close (only that first malformed frame should still be answered; expect.ts lets the queries
  // after it go unanswered).
  const unanswered = [
    ...slots.filter((s) => s.got.length < s.q.min).map((s) => ({ at: s.q.at ?? 0, q: s.q as QueryExpectation | undefined })),
    ...malformed.filter((m) => !m.answered && (!closed || m.first)).map((m) => ({ at: m.at, q: undefined })),
  ].sort((a, b) => a.at - b.at);
  if (unanswered.length) {
    const all = `${unanswered.length} frame(s) unanswered: ${unanswered.map((u) => frameClass(u.q)).join(', ')}`;
    const detail = unanswered.map((u) => frameClass(u.q)).join('+');
    const position = (at: number) => (at >= 0 ? `frame ${at + 1}` : 'a frame');
    const describe = (u: (typeof unanswered)[number]) => `${position(u.at)} (${frameClass(u.q)}${u.q ? `, token ${u.q.token}` : ''})`;
    const byClass = new Map<string, (typeof unanswered)[number]>();
    for (const u of unanswered) if (!byClass.has(frameClass(u.q))) byClass.set(frameClass(u.q), u);
    if (closed) {
      // The target hung up with a query unanswered that could have been (also one that owes
      // nothing, such as a noreply START: the hang-up may have come with it). Which frames it had
      // answered before is timing (answers written just before a close may never leave), so the
      // bucket names none of them.
      const swallowed = slots.filter((s) => !s.q.unknownType && s.q.max > 0 && !s.got.length).sort((a, b) => (a.q.at ?? 0) - (b.q.at ?? 0));
      if (unanswered.some((u) => u.q) && swallowed.length) {
        const k = swallowed[0].q;
        out.push({ oracle: 'one-response-per-query', message: `the target closed the connection with frame ${(k.at ?? 0) + 1} (${frameClass(k)}, token ${k.token}) unanswered${ended}; ${all}`, signature: 'unanswered:closed', detail });
      }
      const m = unanswered.find((u) => !u.q);
      if (m) out.push({ oracle: 'malformed-client-error', message: `${describe(m)} was not answered with CLIENT_ERROR before the target closed the connection${ended}; ${all}`, signature: 'unanswered:malformed-frame:closed', detail });
    } else if (end === 'timeout' && !sameAlive) {
      // Nothing more came, and the connection did not answer a SERVER_INFO sent after the case
      // either (or, with bytes left mid-frame, could not be asked): a query left waiting is a
      // hang, robustness. One bucket, whatever frames were pending (which ones were is the case's
      // neighbourhood, not what the server did). A malformed frame the connection was not seen
      // to hang on (it could not be asked) is judged by its own rule.
      const queries = unanswered.filter((u) => u.q);
      const m = unanswered.find((u) => !u.q);
      if (queries.length || (m && hung)) out.push({ oracle: 'no-hang', message: `the connection stopped answering: ${describe(queries[0] ?? m!)} got no answer within the case timeout${hung ? ', nor did a SERVER_INFO sent after the case' : ''}${ended}; ${all}`, signature: 'connection', detail });
      else if (m) out.push({ oracle: 'malformed-client-error', message: `${describe(m)} was not answered with CLIENT_ERROR${ended}; ${all}`, signature: 'unanswered:malformed-frame', detail });
    } else {
      // The connection answers (a SERVER_INFO after the case), yet these frames got nothing:
      // silence, the document's rule (or, mid-exchange, what is still owed).
      for (const [cls, u] of byClass) {
        const malformedFrame = !u.q;
        out.push({
          oracle: malformedFrame ? 'malformed-client-error' : 'one-response-per-query',
          message: `${describe(u)} was not answered${malformedFrame ? ' with CLIENT_ERROR' : ''}${sameAlive ? ', though the connection answered a SERVER_INFO sent after the case' : ''}${ended}; ${all}`,
          signature: `unanswered:${cls}`,
          detail,
        });
      }
    }
  }
  const hangReported = out.some((v) => v.oracle === 'no-hang' && v.signature === 'connection');
  const live = livenessOf(ex, hangReported).filter((v) => !out.some((x) => x.oracle === v.oracle && x.signature === v.signature));
  // A dead server is the finding, first: how the case's own frames ended when it died (closed,
  // timed out, which were answered) is timing; what the responses that came hold is not.
  if (live[0]?.signature === 'dead') return [...live, ...out.filter((v) => v.oracle !== 'no-hang' && v.oracle !== 'handshake-reply' && !v.signature.startsWith('unanswered:'))];
  return [...out, ...live];
}

/**
 * The liveness probe after the case. On the same connection it is a SERVER_INFO query, owed an
 * answer (line 127) like any: no answer in time is the connection hung (robustness, as above),
 * the connection closed instead is an owed query left unanswered at a close (the document's
 * rule, the bucket of every other such close). On a fresh connection: a dead server.
 */
function livenessOf(ex: WireExchange, hangReported: boolean): Violation[] {
  if (!ex.liveness || ex.liveness.ok) return [];
  // Whether the probe timed out or was refused is timing: the bucket says only where it failed.
  if (ex.liveness.via === 'same') {
    if (/^timeout/.test(ex.liveness.detail ?? '')) {
      return hangReported ? [] : [{ oracle: 'no-hang', message: `the connection stopped answering: SERVER_INFO on the same connection after the case: ${ex.liveness.detail}`, signature: 'connection', detail: 'SERVER_INFO after the case' }];
    }
    return [{ oracle: 'one-response-per-query', message: `the target closed the connection with a SERVER_INFO sent after the case unanswered: ${ex.liveness.detail}`, signature: 'unanswered:closed', detail: 'SERVER_INFO after the case' }];
  }
  return [{ oracle: 'liveness', message: `the target stopped serving: SERVER_INFO on a fresh connection afterwards: ${ex.liveness.detail}`, signature: 'dead', detail: (ex.liveness.detail ?? '').split(':')[0] }];
}

/** Oracles whose verdict depends on which frame an answer was given to (re-run frame by frame when that is uncertain). */
export function dependsOnAttribution(v: Violation): boolean {
  return (v.oracle === 'one-response-per-query' && v.detail !== 'SERVER_INFO after the case') || v.oracle === 'response-type-fits-query' || v.oracle === 'malformed-client-error';
}

function expectedAnswer(queryType: number, unknownToken: boolean): string {
  switch (queryType) {
    case QueryType.START:
      return 'SUCCESS_ATOM, SUCCESS_SEQUENCE, SUCCESS_PARTIAL or an error';
    case QueryType.CONTINUE:
      return unknownToken ? 'CLIENT_ERROR' : 'the next batch';
    case QueryType.NOREPLY_WAIT:
      return 'WAIT_COMPLETE';
    case QueryType.SERVER_INFO:
      return 'SERVER_INFO';
    default:
      return 'an answer';
  }
}
