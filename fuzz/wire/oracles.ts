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

  // Responses are matched to queries by token. A malformed frame's CLIENT_ERROR may carry any
  // token (servers read what they can of the frame), so CLIENT_ERRORs are counted, not assigned:
  // the exchange passes when some split of them between the queries and the malformed frames fits.
  const byToken = new Map<bigint, { min: number; max: number; types: number[]; clientErrorsOwed: number; other: number; clientErrors: number }>();
  for (const q of exp.queries) {
    const e = byToken.get(q.token) ?? { min: 0, max: 0, types: [], clientErrorsOwed: 0, other: 0, clientErrors: 0 };
    e.min += q.min;
    e.max += q.max;
    e.types.push(q.type);
    if (q.clientError && q.min > 0) e.clientErrorsOwed++;
    byToken.set(q.token, e);
  }
  let strayClientErrors = 0;
  for (const { res } of ex.responses) {
    if (!res) continue;
    const e = byToken.get(res.token ?? 0n);
    const isClientError = res.type === ResponseType.CLIENT_ERROR;
    if (e) {
      if (isClientError) e.clientErrors++;
      else e.other++;
    } else if (isClientError) {
      strayClientErrors++;
    } else {
      out.push({ oracle: 'one-response-per-query', message: `${typeName(res.type)} with token ${res.token ?? '(unset)'} answers no query of the case`, signature: `unclaimed:${typeName(res.type)}` });
    }
  }
  // CLIENT_ERRORs left for the malformed frames: at least / at most.
  let leftMin = strayClientErrors;
  let leftMax = strayClientErrors;
  for (const [token, e] of byToken) {
    const kinds = e.types.map((t) => names.queryType[t] ?? 'UNKNOWN_TYPE').join('+');
    if (e.other > e.max) {
      out.push({ oracle: 'one-response-per-query', message: `${kinds} with token ${token}: ${e.other} responses, at most ${e.max} owed`, signature: `extra:${kinds}` });
    }
    if (e.other + e.clientErrors < e.min) {
      out.push({ oracle: 'one-response-per-query', message: `${kinds} with token ${token}: ${e.other + e.clientErrors} of ${e.min} response(s) received${ended}`, signature: `missing:${kinds}:${ex.end}` });
    } else if (e.clientErrors < e.clientErrorsOwed) {
      out.push({ oracle: 'malformed-client-error', message: `a Query without a known QueryType (token ${token}) was not answered with CLIENT_ERROR`, signature: 'unknown-query-type' });
    }
    const most = Math.min(e.clientErrors, Math.max(0, e.max - e.other)); // CLIENT_ERRORs this token can absorb
    const least = Math.min(e.clientErrors, Math.max(e.clientErrorsOwed, e.min - e.other, 0));
    leftMin += e.clientErrors - most;
    leftMax += e.clientErrors - least;
  }
  const allowance = exp.malformed + (exp.trailing ? 1 : 0); // an oversized size prefix may be refused at once
  if (leftMin > allowance) {
    out.push({ oracle: 'one-response-per-query', message: `${leftMin - allowance} CLIENT_ERROR response(s) more than the case's queries and malformed frames account for`, signature: 'extra:CLIENT_ERROR' });
  }
  // After a malformed frame the server may close; the first malformed frame must still be answered.
  const owedClientErrors = ex.end === 'closed' || ex.end === 'reset' ? Math.min(1, exp.malformed) : exp.malformed;
  if (leftMax < owedClientErrors) {
    out.push({
      oracle: 'malformed-client-error',
      message: `${exp.malformed} malformed frame(s) got ${leftMax} CLIENT_ERROR response(s)${ended}`,
      signature: `missing:${ex.end}`,
    });
  }
  if (ex.liveness && !ex.liveness.ok) {
    out.push({ oracle: 'liveness', message: `SERVER_INFO on the ${ex.liveness.via} connection afterwards: ${ex.liveness.detail}`, signature: `${ex.liveness.via}:${(ex.liveness.detail ?? '').split(':')[0]}` });
  }
  return out;
}
