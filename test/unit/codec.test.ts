import { describe, expect, it } from 'vitest';
import { decodeQuery, decodeResponse, encodeQuery, encodeResponse, fromDatum, toDatum } from '../../src/clients/wire/codec.ts';
import { DatumType, QueryType, ResponseType } from '../../src/clients/wire/schema.ts';
import { r } from '../../src/clients/wire/terms.ts';
import { ProtocolViolation } from '../../src/core/errors.ts';

describe('WIRE codec', () => {
  it('round-trips datums of every type', () => {
    const value = { n: null, b: false, x: -1.5, s: 'ü', a: [1, [2]], o: { k: 'v' } };
    expect(fromDatum(toDatum(value))).toEqual(value);
  });

  it('keeps int64 tokens above 2^53 exact in both directions', () => {
    const token = 2n ** 62n + 7n;
    expect(decodeQuery(encodeQuery({ type: QueryType.START, token, query: r.add(1, 2).msg })).token).toBe(token);
    const res = decodeResponse(encodeResponse({ type: ResponseType.SUCCESS_ATOM, token, response: [toDatum(1)] }));
    expect(res.token).toBe(token);
  });

  it('keeps a present but empty backtrace apart from an absent one', () => {
    const withEmpty = decodeResponse(encodeResponse({ type: ResponseType.CLIENT_ERROR, token: 1n, response: [toDatum('x')], backtrace: { frames: [] } }));
    const without = decodeResponse(encodeResponse({ type: ResponseType.CLIENT_ERROR, token: 1n, response: [toDatum('x')] }));
    expect(withEmpty.backtrace).toEqual({ frames: [] });
    expect(without.backtrace).toBeUndefined();
  });

  it('parses R_JSON and refuses R_JSON that is not JSON', () => {
    expect(fromDatum({ type: DatumType.R_JSON, r_str: '{"a":[1]}' })).toEqual({ a: [1] });
    expect(() => fromDatum({ type: DatumType.R_JSON, r_str: "{'a':1}" })).toThrow(ProtocolViolation);
  });

  it('reports a payload that is no Response as a protocol violation', () => {
    expect(() => decodeResponse(Buffer.from([0x12, 0x20, 0x08]))).toThrow(ProtocolViolation);
  });

  it('builds nested terms: data around terms becomes MAKE_ARRAY / MAKE_OBJ, plain data one DATUM', () => {
    expect(r.expr([1, 2]).msg.type).toBe(1);
    expect(r.expr([1, r.add(1, 1)]).msg.type).toBe(2);
    expect(r.expr({ a: r.add(1, 1) }).msg.optargs?.[0].key).toBe('a');
  });
});
