// What the document says a server owes for the bytes of a case, found by reading the bytes the
// way the server must: the handshake of "Handshake (protobuf protocol)", then the length-prefixed
// frames of "Message framing", each decoded with the one codec.
import { decodeQuery, encodeQuery, type QueryMsg } from '../../src/clients/wire/codec.ts';
import { FrameReader } from '../../src/clients/wire/frame-reader.ts';
import { QueryType, Version, WireProtocol } from '../../src/clients/wire/schema.ts';
import type { WireCase } from './case.ts';

/** Responses owed to one decoded query, by token. */
export interface QueryExpectation {
  token: bigint;
  type: number;
  /** Fewest and most responses carrying this token. */
  min: number;
  max: number;
  /**
   * A Query without a known QueryType (none, or a number outside line 25's list): the document
   * states nothing about it, so it is owed nothing and any single answer passes.
   */
  unknownType: boolean;
  /**
   * A CONTINUE sent after a START of its token in the same case: owed the next batch only if that
   * START answered SUCCESS_PARTIAL (lines 91, 124); after a START that failed or completed the
   * document states no answer. judgeExchange raises `min` to 1 when the token got a SUCCESS_PARTIAL.
   */
  afterStart?: boolean;
  /** Position of its frame among the case's frames (0-based), to name the frame left unanswered. */
  at?: number;
  /** A zero-length frame (a Query with every field unset). */
  empty?: boolean;
  /**
   * Sent after a malformed frame or a Query without a known type: owed nothing if the server
   * closed the connection (it may, after that frame), owed `min` if it kept it open.
   */
  droppable?: boolean;
}

export interface WireExpectation {
  /**
   * 'reply': the client sent a whole handshake of a documented version magic (V0_1 to V0_4, lines
   * 104-109) and is owed a NUL-terminated reply (line 107); 'maybe': nothing is owed (V1_0's
   * exchange is "not shown", line 165; an unknown magic; a handshake cut short); 'default': the
   * executor's own standard handshake, answered SUCCESS before the case starts.
   */
  handshake: 'default' | 'reply' | 'maybe';
  /**
   * Bytes after a whole handshake, to be read as frames once the reply is SUCCESS: only after a
   * V0_3 or V0_4 handshake that selected PROTOBUF (line 111; the JSON layout is "not shown", line
   * 118, and V0_1 and V0_2 select no protocol). Empty otherwise: nothing later is judged as frames.
   */
  afterHandshake: Buffer;
  /**
   * The bytes after the handshake are judged as protobuf frames: always after the standard
   * handshake; after the case's own only once the target answered it SUCCESS (set by the executor).
   */
  framesJudged: boolean;
  /** 'reply': the bytes after the handshake are to be judged as frames if the reply is SUCCESS (V0_3/V0_4 with PROTOBUF). */
  framesAfterReply?: boolean;
  /** Filled in by `expectFrames` (after the handshake outcome is known). */
  queries: QueryExpectation[];
  /** Whole frames that do not decode as a Query: each should get one CLIENT_ERROR (line 48; token unknown). */
  malformed: number;
  /** Positions of the malformed frames among the case's frames (same numbering as QueryExpectation.at). */
  malformedAt?: number[];
  /** Bytes left in the middle of a frame (truncated, or a size prefix larger than the body). */
  trailing: boolean;
}

/**
 * The layout of a handshake (lines 104-111): the version magic; from V0_2 on a 4-byte key length
 * and the key (line 105, 164); from V0_3 on the protocol magic (line 106, 109). V1_0's exchange
 * beyond the magic is "not shown" (line 165), and a magic outside the five is no handshake the
 * document describes: after either, nothing is owed and nothing later is read as frames.
 */
export type HandshakeParse =
  | { state: 'whole'; rest: Buffer; version: number; protocol?: number; frames: boolean }
  | { state: 'incomplete' | 'undocumented' | 'unknown-magic' };

export function parseHandshake(bytes: Buffer): HandshakeParse {
  if (bytes.length < 4) return { state: 'incomplete' };
  const version = bytes.readUInt32LE(0);
  if (version === Version.V1_0) return { state: 'undocumented' };
  if (version !== Version.V0_1 && version !== Version.V0_2 && version !== Version.V0_3 && version !== Version.V0_4) return { state: 'unknown-magic' };
  let offset = 4;
  if (version !== Version.V0_1) {
    if (bytes.length < offset + 4) return { state: 'incomplete' };
    const keyLength = bytes.readUInt32LE(offset);
    if (bytes.length < offset + 4 + keyLength) return { state: 'incomplete' };
    offset += 4 + keyLength;
  }
  if (version === Version.V0_3 || version === Version.V0_4) {
    if (bytes.length < offset + 4) return { state: 'incomplete' };
    const protocol = bytes.readUInt32LE(offset);
    offset += 4;
    return { state: 'whole', rest: bytes.subarray(offset), version, protocol, frames: protocol === WireProtocol.PROTOBUF };
  }
  return { state: 'whole', rest: bytes.subarray(offset), version, frames: false };
}

export function expectCase(c: WireCase): WireExpectation {
  const all = Buffer.concat(c.writes);
  if (c.handshake === 'default') return { handshake: 'default', afterHandshake: all, framesJudged: true, ...expectFrames(all, c.queries) };
  const hs = parseHandshake(all);
  const nothing = { queries: [], malformed: 0, trailing: false, framesJudged: false };
  if (hs.state !== 'whole') return { handshake: 'maybe', afterHandshake: Buffer.alloc(0), ...nothing };
  return { handshake: 'reply', afterHandshake: hs.frames ? hs.rest : Buffer.alloc(0), framesAfterReply: hs.frames, ...nothing };
}

/** Frame-level expectations for bytes sent after an accepted handshake. */
export function expectFrames(bytes: Buffer, decoded?: readonly QueryMsg[]): Pick<WireExpectation, 'queries' | 'malformed' | 'malformedAt' | 'trailing'> {
  const reader = new FrameReader(0xffffffff);
  const payloads: readonly (Buffer | QueryMsg)[] = decoded ?? reader.push(bytes);
  const queries: QueryExpectation[] = [];
  const malformedAt: number[] = [];
  let malformed = 0;
  for (const [at, p] of payloads.entries()) {
    const q = Buffer.isBuffer(p) ? tryDecode(p) : p;
    if (!q) {
      malformed++;
      malformedAt.push(at);
      continue;
    }
    const empty = Buffer.isBuffer(p) ? p.length === 0 : q.type === undefined && encodeQuery(q).length === 0;
    const token = q.token ?? 0n;
    // After a malformed frame or a query of no known type the server may close the connection
    // (the document only asks that a fresh connection still works), so later queries may go
    // unanswered then; on a connection it keeps open they are owed as any other.
    const mayBeDropped = malformed > 0 || queries.some((x) => x.unknownType);
    const known = isKnownType(q.type);
    const afterStart = known && q.type === QueryType.CONTINUE && queries.some((x) => x.token === token && x.type === QueryType.START);
    const [min, max] = !known || afterStart ? [0, 1] : owed(q);
    queries.push({ token, type: q.type ?? 0, min, max, unknownType: !known, at, ...(afterStart ? { afterStart } : {}), ...(empty ? { empty } : {}), ...(mayBeDropped ? { droppable: true } : {}) });
  }
  return { queries, malformed, malformedAt, trailing: reader.midFrame };
}

/**
 * The whole frames of bytes sent after the standard handshake, each with its size prefix, and
 * the bytes left mid-frame as a last piece: to send one frame at a time.
 */
export function splitFrames(bytes: Buffer): Buffer[] {
  const reader = new FrameReader(0xffffffff);
  const payloads = reader.push(bytes);
  const out: Buffer[] = [];
  let offset = 0;
  for (const p of payloads) {
    out.push(bytes.subarray(offset, offset + 4 + p.length));
    offset += 4 + p.length;
  }
  if (offset < bytes.length) out.push(bytes.subarray(offset));
  return out;
}

/**
 * Can an answer be given to the frame that owes it with certainty? Not when a token is used by
 * several frames of the case (token 0 for several frames, say) or when a malformed frame sits
 * beside other frames (the server reads what token it can of such a frame, so its CLIENT_ERROR
 * may carry any token).
 */
export function attributionAmbiguous(exp: Pick<WireExpectation, 'queries' | 'malformed'>): boolean {
  if (exp.malformed > 1 || (exp.malformed > 0 && exp.queries.length > 0)) return true;
  const seen = new Set<bigint>();
  for (const q of exp.queries) {
    if (seen.has(q.token)) return true;
    seen.add(q.token);
  }
  return false;
}

function tryDecode(payload: Buffer): QueryMsg | undefined {
  try {
    return decodeQuery(payload);
  } catch {
    return undefined;
  }
}

function isKnownType(type: number | undefined): boolean {
  return type !== undefined && Object.values(QueryType).includes(type);
}

/**
 * Responses a query of a known type is owed ("Query operations", lines 121-127, and the per-token
 * life cycle, 88-95): START, NOREPLY_WAIT, SERVER_INFO and a CONTINUE of an unknown token get one;
 * STOP has "no response rule" (97); a START with a `noreply` global optarg (27) may get none.
 */
function owed(q: QueryMsg): [number, number] {
  switch (q.type) {
    case QueryType.STOP:
      return [0, 1];
    case QueryType.START:
      return q.global_optargs?.some((p) => p.key === 'noreply') ? [0, 1] : [1, 1];
    default:
      return [1, 1];
  }
}
