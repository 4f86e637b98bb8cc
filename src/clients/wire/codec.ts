// The one WIRE codec: plain-object views of the protobuf messages, length-prefixed frames,
// and the conversion between datums and JavaScript values.
import { ProtocolViolation } from '../../core/errors.ts';
import { DatumType, DatumType_, QueryType_, ResponseType_, names, nameOf } from './schema.ts';
import { Unusual, writeQuery } from './query-writer.ts';

// ---- message shapes (decoded with protobufjs' toObject: longs as strings, enums as numbers) ----

export interface DatumMsg {
  type?: number;
  r_bool?: boolean;
  r_num?: number;
  r_str?: string;
  r_array?: DatumMsg[];
  r_object?: { key?: string; val?: DatumMsg }[];
}

export interface TermMsg {
  type?: number;
  datum?: DatumMsg;
  args?: TermMsg[];
  optargs?: { key?: string; val?: TermMsg }[];
}

export interface QueryMsg {
  type?: number;
  query?: TermMsg;
  /** int64; a bigint so that tokens above 2^53 survive. */
  token?: bigint;
  OBSOLETE_noreply?: boolean;
  accepts_r_json?: boolean;
  global_optargs?: { key?: string; val?: TermMsg }[];
}

export interface FrameMsg {
  type?: number;
  pos?: bigint;
  opt?: string;
}

export interface ResponseMsg {
  type?: number;
  token?: bigint;
  response: DatumMsg[];
  backtrace?: { frames: FrameMsg[] };
  profile?: DatumMsg;
  notes: number[];
  error_type?: number;
}

const toObjectOptions = { longs: String, enums: Number, defaults: false, arrays: true } as const;

// protobufjs takes int64 values as number, string or Long; strings keep all 64 bits.
function longsToStrings<T>(msg: T, fields: readonly string[]): T {
  const copy: Record<string, unknown> = { ...(msg as Record<string, unknown>) };
  for (const f of fields) if (typeof copy[f] === 'bigint') copy[f] = (copy[f] as bigint).toString();
  return copy as T;
}

export function encodeQuery(query: QueryMsg): Buffer {
  try {
    return writeQuery(query); // the same bytes, without protobufjs' writer (see query-writer.ts)
  } catch (err) {
    if (!(err instanceof Unusual)) throw err;
    return Buffer.from(QueryType_.encode(longsToStrings(query, ['token']) as object).finish());
  }
}

export function encodeResponse(response: Partial<ResponseMsg>): Buffer {
  const plain = longsToStrings(response, ['token']) as Record<string, unknown>;
  if (response.backtrace) {
    plain.backtrace = { frames: response.backtrace.frames.map((f) => longsToStrings(f, ['pos'])) };
  }
  return Buffer.from(ResponseType_.encode(plain).finish());
}

export function decodeQuery(payload: Uint8Array): QueryMsg {
  const obj = QueryType_.toObject(QueryType_.decode(payload), toObjectOptions) as Record<string, unknown>;
  if (obj.token !== undefined) obj.token = BigInt(obj.token as string);
  return obj as QueryMsg;
}

/** Decodes a Response; a payload that is not a Response raises ProtocolViolation. */
export function decodeResponse(payload: Uint8Array): ResponseMsg {
  let obj: Record<string, unknown>;
  try {
    obj = ResponseType_.toObject(ResponseType_.decode(payload), toObjectOptions) as Record<string, unknown>;
  } catch (err) {
    throw new ProtocolViolation(`response frame of ${payload.length} bytes is not a protobuf Response: ${(err as Error).message}`, { cause: err });
  }
  if (obj.token !== undefined) obj.token = BigInt(obj.token as string);
  const bt = obj.backtrace as { frames?: { pos?: string }[] } | undefined;
  if (bt) {
    bt.frames = (bt.frames ?? []).map((f) => (f.pos === undefined ? f : { ...f, pos: BigInt(f.pos) })) as never;
  }
  return obj as unknown as ResponseMsg;
}

// ---- frames ----

/** 4-byte little-endian size, then the payload (the document's "Message framing"). */
export function frame(payload: Uint8Array): Buffer {
  const out = Buffer.allocUnsafe(4 + payload.length);
  out.writeUInt32LE(payload.length, 0);
  out.set(payload, 4);
  return out;
}

// ---- datums <-> JavaScript values ----

export type JsValue = null | boolean | number | string | JsValue[] | { [key: string]: JsValue };

export function toDatum(value: JsValue): DatumMsg {
  if (value === null) return { type: DatumType.R_NULL };
  switch (typeof value) {
    case 'boolean':
      return { type: DatumType.R_BOOL, r_bool: value };
    case 'number':
      return { type: DatumType.R_NUM, r_num: value };
    case 'string':
      return { type: DatumType.R_STR, r_str: value };
  }
  if (Array.isArray(value)) return { type: DatumType.R_ARRAY, r_array: value.map(toDatum) };
  if (typeof value === 'object') {
    return { type: DatumType.R_OBJECT, r_object: Object.entries(value).map(([key, v]) => ({ key, val: toDatum(v) })) };
  }
  throw new TypeError(`cannot encode ${typeof value} as a datum`);
}

/** Datum -> value. R_JSON is parsed; a datum that breaks the schema raises ProtocolViolation. */
export function fromDatum(datum: DatumMsg | undefined): JsValue {
  if (!datum) throw new ProtocolViolation('missing datum');
  switch (datum.type) {
    case DatumType.R_NULL:
      return null;
    case DatumType.R_BOOL:
      return datum.r_bool ?? false;
    case DatumType.R_NUM:
      return datum.r_num ?? 0;
    case DatumType.R_STR:
      return datum.r_str ?? '';
    case DatumType.R_ARRAY:
      return (datum.r_array ?? []).map(fromDatum);
    case DatumType.R_OBJECT: {
      const out: Record<string, JsValue> = {};
      for (const pair of datum.r_object ?? []) out[pair.key ?? ''] = fromDatum(pair.val);
      return out;
    }
    case DatumType.R_JSON:
      try {
        return JSON.parse(datum.r_str ?? '') as JsValue;
      } catch (err) {
        throw new ProtocolViolation(`R_JSON datum holds no valid JSON: ${JSON.stringify(truncate(datum.r_str ?? '', 80))}`, { cause: err });
      }
    default:
      throw new ProtocolViolation(`datum of ${nameOf(names.datumType, datum.type)} type`);
  }
}

export function truncate(s: string, max: number): string {
  return s.length <= max ? s : `${s.slice(0, max)}…`;
}

/** A compact, readable rendering of a Response for messages and evidence. */
export function describeResponse(res: ResponseMsg): Record<string, unknown> {
  const out: Record<string, unknown> = {
    type: nameOf(names.responseType, res.type),
    token: res.token?.toString(),
  };
  out.response = res.response.length > 20 ? `${res.response.length} datums` : res.response.map(safeDatum);
  if (res.backtrace) out.backtrace = res.backtrace.frames.map((f) => (f.type === 2 ? `OPT ${f.opt}` : `POS ${f.pos}`));
  if (res.profile) out.profile = safeDatum(res.profile);
  if (res.notes.length) out.notes = res.notes.map((n) => nameOf(names.responseNote, n));
  if (res.error_type !== undefined) out.error_type = nameOf(names.errorType, res.error_type);
  return out;
}

function safeDatum(d: DatumMsg): unknown {
  try {
    return fromDatum(d);
  } catch {
    return d;
  }
}
