// The WIRE oracles, each a rule of ../shared/spec/wire-protocol.md applied to one exchange:
//   one-response-per-query   every query is answered once, carrying its token (Query operations,
//                            per-token life cycle; STOP has no response rule); a timeout is a failure
//   response-type-in-enum    Response.type is a ResponseType value
//   error-one-r-str          CLIENT_ERROR/COMPILE_ERROR/RUNTIME_ERROR carry exactly one R_STR datum (Errors)
//   batch-under-1000         batches contain fewer than 1000 items (Limits)
//   malformed-client-error   a malformed protobuf gets CLIENT_ERROR (ResponseType table)
//   handshake-reply          a whole handshake gets a NUL-terminated reply (Handshake, step 4)
//   response-is-protobuf     a response frame is a serialized Response (Message framing)
//   liveness                 afterwards the connection, or a fresh one, still answers SERVER_INFO
import type { ResponseMsg } from '../../src/clients/wire/codec.ts';
import { DatumType, names, nameOf, ResponseType } from '../../src/clients/wire/schema.ts';
import type { Violation } from '../core/kind.ts';
import type { WireExpectation } from './expect.ts';

export const WIRE_ORACLES = [
  'one-response-per-query',
  'response-type-in-enum',
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
        signature: `${typeName(res.type)}:[${kinds.join(',')}]`,
      });
    }
  }
  if (res.response.length >= 1000) {
    out.push({ oracle: 'batch-under-1000', message: `${typeName(res.type)} holds ${res.response.length} datums (at most 999 allowed)`, signature: typeName(res.type) });
  }
  return out;
}

/** Checks of a whole exchange against what its bytes are owed. */
export function judgeExchange(exp: WireExpectation, ex: WireExchange): Violation[] {
  const out: Violation[] = ex.responses.flatMap(judgeResponse);
  const ended = ex.end === 'complete' ? '' : ` (connection ${ex.end}${ex.endDetail ? `: ${ex.endDetail}` : ''})`;
  if (exp.handshake === 'reply' && ex.handshakeReply === undefined) {
    out.push({ oracle: 'handshake-reply', message: `no NUL-terminated reply to a whole handshake${ended}`, signature: `no-reply:${ex.end}` });
  }

  // Responses are matched to queries by token; what no query claims must be a CLIENT_ERROR for a malformed frame.
  const byToken = new Map<bigint, { min: number; max: number; got: number; types: number[]; clientErrorsOwed: number; clientErrors: number }>();
  for (const q of exp.queries) {
    const e = byToken.get(q.token) ?? { min: 0, max: 0, got: 0, types: [], clientErrorsOwed: 0, clientErrors: 0 };
    e.min += q.min;
    e.max += q.max;
    e.types.push(q.type);
    if (q.clientError && q.min > 0) e.clientErrorsOwed++;
    byToken.set(q.token, e);
  }
  // A malformed frame's CLIENT_ERROR may carry the token of a query (servers read what they can of
  // it): other responses claim a token's slots first, so such a CLIENT_ERROR is left over, not "extra".
  const ordered = ex.responses.filter((f) => f.res).map((f) => f.res!);
  const claimed = new Set<ResponseMsg>();
  for (const pass of [false, true]) {
    for (const res of ordered) {
      if ((res.type === ResponseType.CLIENT_ERROR) !== pass) continue;
      const e = byToken.get(res.token ?? 0n);
      if (e && e.got < e.max) {
        e.got++;
        if (pass) e.clientErrors++;
        claimed.add(res);
      }
    }
  }
  let clientErrors = 0;
  for (const res of ordered) {
    if (claimed.has(res)) continue;
    const e = byToken.get(res.token ?? 0n);
    if (res.type === ResponseType.CLIENT_ERROR && exp.malformed + (exp.trailing ? 1 : 0) > clientErrors) {
      clientErrors++;
      continue;
    }
    out.push({
      oracle: 'one-response-per-query',
      message: `${typeName(res.type)} with token ${res.token ?? '(unset)'} answers no query of the case${e ? ' (one too many)' : ''}`,
      signature: `${e ? 'extra' : 'unclaimed'}:${typeName(res.type)}`,
    });
  }
  for (const [token, e] of byToken) {
    if (e.got >= e.min && e.clientErrors < e.clientErrorsOwed) {
      out.push({
        oracle: 'malformed-client-error',
        message: `a Query without a known QueryType (token ${token}) was not answered with CLIENT_ERROR`,
        signature: 'unknown-query-type',
      });
    }
    if (e.got >= e.min) continue;
    const kinds = e.types.map((t) => names.queryType[t] ?? 'UNKNOWN_TYPE').join('+');
    out.push({
      oracle: 'one-response-per-query',
      message: `${kinds} with token ${token}: ${e.got} of ${e.min} response(s) received${ended}`,
      signature: `missing:${kinds}:${ex.end}`,
    });
  }
  // After a malformed frame the server may close; the first malformed frame must still be answered.
  const owedClientErrors = ex.end === 'closed' || ex.end === 'reset' ? Math.min(1, exp.malformed) : exp.malformed;
  if (clientErrors < owedClientErrors) {
    out.push({
      oracle: 'malformed-client-error',
      message: `${exp.malformed} malformed frame(s) got ${clientErrors} CLIENT_ERROR response(s)${ended}`,
      signature: `missing:${ex.end}`,
    });
  }
  if (ex.liveness && !ex.liveness.ok) {
    out.push({ oracle: 'liveness', message: `SERVER_INFO on the ${ex.liveness.via} connection afterwards: ${ex.liveness.detail}`, signature: `${ex.liveness.via}:${(ex.liveness.detail ?? '').split(':')[0]}` });
  }
  return out;
}
