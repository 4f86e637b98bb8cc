// The WIRE oracles on hand-made exchanges: what the bytes are owed, and what breaks which rule.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { decodeQuery, encodeQuery, encodeResponse, frame, toDatum } from '../../src/clients/wire/codec.ts';
import { FrameReader } from '../../src/clients/wire/frame-reader.ts';
import { QueryType, ResponseType, TermType } from '../../src/clients/wire/schema.ts';
import { queryArbitrary, TERM_TYPES } from '../../fuzz/wire/arbitraries.ts';
import { expectCase, expectFrames } from '../../fuzz/wire/expect.ts';
import { mutateFrames, splitWrites } from '../../fuzz/wire/mutators.ts';
import { judgeExchange, type WireExchange } from '../../fuzz/wire/oracles.ts';

const start = (token: bigint) => frame(encodeQuery({ type: QueryType.START, token, query: { type: TermType.DATUM, datum: toDatum(1) } }));
const reply = (type: number, token: bigint, response = [toDatum('x')]) => ({ raw: encodeResponse({ type, token, response }), res: { type, token, response, notes: [] } });

describe('WIRE oracles', () => {
  it('generated queries are valid protobuf that decodes back, tokens above 2^32 included', () => {
    fc.assert(
      fc.property(queryArbitrary(), (q) => {
        const back = decodeQuery(encodeQuery(q));
        expect(back.token).toBe(q.token);
      }),
      { seed: 1, numRuns: 300 },
    );
    expect(TERM_TYPES).toContain(TermType.POLYGON_SUB);
  });

  it('a START is owed one response with its token; a missing one is a finding', () => {
    const exp = expectCase({ handshake: 'default', writes: [Buffer.concat([start(5n), start(2n ** 40n)])], pipelinable: true });
    expect(exp.queries.map((q) => [q.token, q.min, q.max])).toEqual([[5n, 1, 1], [2n ** 40n, 1, 1]]);
    // Nothing more within the timeout and no answer to a SERVER_INFO sent after the case either
    // (or none could be asked): a hang, robustness. The connection answered that SERVER_INFO: the
    // START's silence is the document's rule.
    const ex: WireExchange = { responses: [reply(ResponseType.SUCCESS_ATOM, 5n)], end: 'timeout' };
    expect(judgeExchange(exp, ex).map((v) => `${v.oracle}|${v.signature}`)).toEqual(['no-hang|connection']);
    expect(judgeExchange(exp, { ...ex, liveness: { ok: false, via: 'same', detail: 'timeout: no answer within 300 ms' } }).map((v) => `${v.oracle}|${v.signature}`)).toEqual(['no-hang|connection']);
    expect(judgeExchange(exp, { ...ex, liveness: { ok: true, via: 'same' } }).map((v) => `${v.oracle}|${v.signature}`)).toEqual(['one-response-per-query|unanswered:START']);
    expect(judgeExchange(exp, { ...ex, end: 'closed' }).map((v) => `${v.oracle}|${v.signature}`)).toEqual(['one-response-per-query|unanswered:closed']);
  });

  it('errors carry exactly one R_STR; batches hold fewer than 1000 datums; types come from the enum', () => {
    const exp = expectCase({ handshake: 'default', writes: [Buffer.concat([start(1n), start(2n), start(3n)])], pipelinable: true });
    const ex: WireExchange = {
      responses: [
        reply(ResponseType.RUNTIME_ERROR, 1n, [toDatum('a'), toDatum('b')]),
        reply(ResponseType.SUCCESS_PARTIAL, 2n, Array.from({ length: 1000 }, () => toDatum(null))),
        reply(42, 3n),
      ],
      end: 'complete',
    };
    expect(judgeExchange(exp, ex).map((v) => v.oracle).sort()).toEqual(['batch-under-1000', 'error-one-r-str', 'response-type-in-enum']);
  });

  it('a malformed frame is owed a CLIENT_ERROR, even one carrying a token of another query', () => {
    const bad = frame(Buffer.from([0x1a, 0x05, 0x01])); // field 3 as bytes, cut short
    const exp = expectCase({ handshake: 'default', writes: [Buffer.concat([bad, start(7n)])], pipelinable: false });
    expect(exp.malformed).toBe(1);
    const ok: WireExchange = { responses: [reply(ResponseType.CLIENT_ERROR, 7n), reply(ResponseType.SUCCESS_ATOM, 7n)], end: 'complete' };
    expect(judgeExchange(exp, ok)).toEqual([]);
    const silent: WireExchange = { responses: [reply(ResponseType.SUCCESS_ATOM, 7n)], end: 'complete' };
    expect(judgeExchange(exp, silent).map((v) => v.oracle)).toEqual(['malformed-client-error']);
  });

  it('mutators: a size prefix larger than the body leaves a trailing frame; split writes keep every byte', () => {
    const q = { type: QueryType.START, token: 1n, query: { type: TermType.DATUM, datum: toDatum(1) } };
    const bytes = mutateFrames([q], [{ op: 'length-delta', frame: 0, delta: 3 }]);
    expect(expectFrames(bytes).trailing).toBe(true);
    expect(Buffer.concat(splitWrites(bytes, [1, 5, 900])).equals(bytes)).toBe(true);
    expect(new FrameReader().push(mutateFrames([q], [{ op: 'zero-length', at: 0 }]))[0].length).toBe(0);
  });
});

describe('WIRE oracles, cases the campaigns taught', () => {
  it('a malformed frame answered with the token of a noreply START is that frame\'s CLIENT_ERROR', () => {
    // Found by the 1,000,000-case campaign: START token 0 with noreply (0 or 1 responses owed),
    // then a frame cut one byte short, answered CLIENT_ERROR with token 0.
    const noreply = frame(encodeQuery({ type: QueryType.START, token: 0n, query: { type: TermType.DATUM, datum: toDatum(1) }, global_optargs: [{ key: 'noreply', val: { type: TermType.DATUM, datum: toDatum(true) } }] }));
    const cut = frame(Buffer.from([0x1a, 0x05, 0x01]));
    const exp = expectCase({ handshake: 'default', writes: [Buffer.concat([noreply, cut])], pipelinable: false });
    expect(judgeExchange(exp, { responses: [reply(ResponseType.CLIENT_ERROR, 0n)], end: 'complete' })).toEqual([]);
  });

  it('a missing answer is blamed on the frame left unanswered, not on the malformed frame answered with the same token', () => {
    // A frame cut short (answered CLIENT_ERROR with token 0), then a START of token 0 the target
    // never answers, though the connection answers a SERVER_INFO sent after the case.
    const cut = frame(Buffer.from([0x1a, 0x05, 0x01]));
    const exp = expectCase({ handshake: 'default', writes: [Buffer.concat([cut, start(0n)])], pipelinable: false });
    const v = judgeExchange(exp, { responses: [reply(ResponseType.CLIENT_ERROR, 0n)], end: 'timeout', liveness: { ok: true, via: 'same' } });
    expect(v.map((x) => `${x.oracle}|${x.signature}`)).toEqual(['one-response-per-query|unanswered:START']);
    expect(v[0].message).toMatch(/^frame 2 \(START/);
  });

  it('a zero-length frame or a Query of no known QueryType is owed nothing (the document states no answer), and any answer passes', () => {
    const exp = expectCase({ handshake: 'default', writes: [Buffer.concat([frame(Buffer.alloc(0)), frame(encodeQuery({ type: 9, token: 3n }))])], pipelinable: false });
    expect(exp.queries.map((q) => [q.min, q.max, q.unknownType])).toEqual([[0, 1, true], [0, 1, true]]);
    expect(judgeExchange(exp, { responses: [], end: 'complete' })).toEqual([]);
    expect(judgeExchange(exp, { responses: [reply(ResponseType.RUNTIME_ERROR, 0n), reply(ResponseType.SUCCESS_ATOM, 3n)], end: 'complete' })).toEqual([]);
  });

  it('a CONTINUE after a START of its token is owed an answer only after SUCCESS_PARTIAL (lines 91, 124)', () => {
    const cont = frame(encodeQuery({ type: QueryType.CONTINUE, token: 4n }));
    const exp = expectCase({ handshake: 'default', writes: [Buffer.concat([start(4n), cont])], pipelinable: false });
    // The START failed: no rule owes the CONTINUE anything.
    expect(judgeExchange(exp, { responses: [reply(ResponseType.RUNTIME_ERROR, 4n)], end: 'complete' })).toEqual([]);
    // The START answered SUCCESS_PARTIAL: the CONTINUE is owed the next batch.
    const partial = judgeExchange(exp, { responses: [reply(ResponseType.SUCCESS_PARTIAL, 4n, [])], end: 'timeout', liveness: { ok: true, via: 'same' } });
    expect(partial.map((x) => `${x.oracle}|${x.signature}`)).toEqual(['one-response-per-query|unanswered:CONTINUE']);
  });

  it('every violation of a case is returned, each in its own bucket', () => {
    const exp = expectCase({ handshake: 'default', writes: [Buffer.concat([start(1n), start(2n)])], pipelinable: true });
    const v = judgeExchange(exp, { responses: [reply(ResponseType.RUNTIME_ERROR, 1n, [toDatum('a'), toDatum('b')]), reply(42, 2n)], end: 'complete' });
    expect(v.map((x) => `${x.oracle}|${x.signature}`).sort()).toEqual(['error-one-r-str|[R_STR,R_STR]', 'response-type-in-enum|type:42']);
  });

  it('the answer must fit the query: NOREPLY_WAIT -> WAIT_COMPLETE, SERVER_INFO -> SERVER_INFO, CONTINUE of an unknown token -> CLIENT_ERROR', () => {
    const q = (type: number, token: bigint) => frame(encodeQuery({ type, token }));
    const exp = expectCase({ handshake: 'default', writes: [Buffer.concat([q(QueryType.NOREPLY_WAIT, 1n), q(QueryType.SERVER_INFO, 2n), q(QueryType.CONTINUE, 3n), q(QueryType.STOP, 4n)])], pipelinable: true });
    const good: WireExchange = { responses: [reply(ResponseType.WAIT_COMPLETE, 1n, []), reply(ResponseType.SERVER_INFO, 2n), reply(ResponseType.CLIENT_ERROR, 3n), reply(ResponseType.SUCCESS_SEQUENCE, 4n, [])], end: 'complete' };
    expect(judgeExchange(exp, good)).toEqual([]);
    const bad: WireExchange = { responses: [reply(ResponseType.SUCCESS_ATOM, 1n), reply(ResponseType.SUCCESS_ATOM, 2n), reply(ResponseType.RUNTIME_ERROR, 3n)], end: 'complete' };
    expect(judgeExchange(exp, bad).map((x) => x.signature)).toEqual(['NOREPLY_WAIT->SUCCESS_ATOM', 'SERVER_INFO->SUCCESS_ATOM', 'CONTINUE of an unknown token->RUNTIME_ERROR']);
  });

  // Several frames of one token: each answer to the frame it belongs to (found by drawn wire-bytes
  // cases against the clean wire-ref, which these exchanges are).
  describe('answers shared by one token go to the frame that owns them', () => {
    const q = (type: number, token: bigint, extra: object = {}) => frame(encodeQuery({ type, token, query: { type: TermType.DATUM, datum: toDatum(1) }, ...extra }));
    const malformed = frame(Buffer.from([0x12, 0x0c, 0x77]));
    const judge = (frames: Buffer[], responses: ReturnType<typeof reply>[]) =>
      judgeExchange(expectCase({ handshake: 'default', writes: [Buffer.concat(frames)], pipelinable: false }), { responses, end: 'complete' }).map((v) => v.message);
    const T = 2n ** 32n - 3n;

    it('CONTINUE of an unknown token, a malformed frame, an unknown type: three CLIENT_ERRORs', () => {
      expect(judge([q(QueryType.CONTINUE, T), malformed, q(6, T)], [reply(ResponseType.CLIENT_ERROR, T), reply(ResponseType.CLIENT_ERROR, 0n), reply(ResponseType.CLIENT_ERROR, T)])).toEqual([]);
    });

    it("a NOREPLY_WAIT's WAIT_COMPLETE is its own, not an earlier CONTINUE's of the token", () => {
      expect(judge([q(QueryType.START, T), q(QueryType.CONTINUE, T), malformed, q(QueryType.NOREPLY_WAIT, T)], [
        reply(ResponseType.SUCCESS_ATOM, T), reply(ResponseType.CLIENT_ERROR, T), reply(ResponseType.CLIENT_ERROR, 0n), reply(ResponseType.WAIT_COMPLETE, T, []),
      ])).toEqual([]);
    });

    // Seed 1, 300,000 cases against the clean wire-ref: the STOP's answer came last, after both
    // CLIENT_ERRORs, and was first given to the CONTINUE, leaving the malformed frame's one over.
    it("a STOP's answer after the CLIENT_ERRORs is the STOP's, the CONTINUE's CLIENT_ERROR the CONTINUE's", () => {
      const noreply = { OBSOLETE_noreply: true };
      expect(judge([frame(encodeQuery({ type: QueryType.START, token: T, accepts_r_json: true, ...noreply })), frame(encodeQuery({ type: QueryType.CONTINUE, token: T })), frame(Buffer.from([0])), frame(encodeQuery({ type: QueryType.STOP, token: T, ...noreply }))], [
        reply(ResponseType.SUCCESS_ATOM, T, [toDatum(null)]), reply(ResponseType.CLIENT_ERROR, T), reply(ResponseType.CLIENT_ERROR, 0n), reply(ResponseType.SUCCESS_SEQUENCE, T, []),
      ])).toEqual([]);
    });

    // The same campaign: a START's COMPILE_ERROR, answered last, was first given to the CONTINUE
    // of its token read before the malformed frame.
    it("a START's error after the CLIENT_ERRORs is the START's, not the earlier CONTINUE's", () => {
      expect(judge([frame(encodeQuery({ type: QueryType.CONTINUE, token: T })), frame(Buffer.from([0x18, 0x02, 0x18, 0x0e, 0x4f, 0x5a, 0x27, 0x79, 0xe3, 0xe8])), frame(Buffer.alloc(0)), q(QueryType.START, T)], [
        reply(ResponseType.CLIENT_ERROR, T), reply(ResponseType.CLIENT_ERROR, 2n), reply(ResponseType.CLIENT_ERROR, 0n), reply(ResponseType.COMPILE_ERROR, T),
      ])).toEqual([]);
    });

    it('a noreply START answers nothing; the later START of its token gets the one answer', () => {
      const noreply = { global_optargs: [{ key: 'noreply', val: { type: TermType.DATUM, datum: toDatum(true) } }] };
      expect(judge([q(QueryType.START, T, noreply), q(QueryType.START, T)], [reply(ResponseType.SUCCESS_ATOM, T)])).toEqual([]);
    });
  });
});
