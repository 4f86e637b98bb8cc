// Helpers shared by the WIRE section files: short descriptions of responses for failure
// messages, and waits whose time-out is itself the deviation a check is looking for.
import { describeResponse, fromDatum, type DatumMsg, type JsValue, type ResponseMsg } from '../../src/clients/wire/codec.ts';
import type { WireConnection } from '../../src/clients/wire/connection.ts';
import { names, nameOf, ResponseType } from '../../src/clients/wire/schema.ts';
import { CheckFailure, TargetError } from '../../src/core/errors.ts';

export { ResponseType };

/** "SUCCESS_SEQUENCE with 2500 datums". */
export function summary(res: ResponseMsg): string {
  const n = res.response.length;
  return `${nameOf(names.responseType, res.type)} with ${n} datum${n === 1 ? '' : 's'}`;
}

export function typeOf(res: ResponseMsg): string {
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
    throw new CheckFailure(`${context}: expected ${expected}, got ${summary(res)} ${show(describeResponse(res).response)}`);
  }
}

/** Structural equality of decoded values (node's own). */
export { isDeepStrictEqual as deepEqual } from 'node:util';
