// Section "Response (message)" of wire-protocol.md: token, response datums, profile, notes,
// and which response type answers which outcome.
import { describeResponse, frame } from '../../src/clients/wire/codec.ts';
import { names, nameOf } from '../../src/clients/wire/schema.ts';
import { r } from '../../src/clients/wire/terms.ts';
import { check } from '../../src/core/check.ts';
import { TargetClosed } from '../../src/core/errors.ts';
import { expectType, received, ResponseType, show, summary, typeOf, values } from './support.ts';

const section = 'Response (message)';
const file = 'wire-protocol.md';

export const tokenEchoed = check(
  {
    id: 'wire.response-message.token-echoed',
    title: 'A response carries the token of the query it answers',
    protocol: 'wire',
    section,
    level: 'MUST',
    spec: { file, line: 33, quote: 'token of the corresponding query' },
    faults: ['token-echo-wrong'],
  },
  async (ctx) => {
    const conn = await ctx.wire.connect();
    conn.send({ type: 'START', term: 1, token: 7 });
    const res = await conn.nextAny();
    ctx.expect(res.token === 7n, `expected the response to carry token 7, got ${res.token}`);
  },
);

export const tokenInt64 = check(
  {
    id: 'wire.response-message.token-int64',
    title: 'Tokens beyond 32 bits come back whole (int64)',
    protocol: 'wire',
    section,
    level: 'MUST',
    spec: { file, line: 33, quote: '| token | 2 | int64 | token of the corresponding query |' },
    faults: ['token-truncate-32'],
  },
  async (ctx) => {
    const conn = await ctx.wire.connect();
    const sent = [2n ** 32n + 5n, 2n ** 62n + 3n];
    for (const token of sent) conn.send({ type: 'START', term: 1, token });
    const got = [(await conn.nextAny()).token, (await conn.nextAny()).token];
    for (const token of sent) {
      ctx.expect(got.includes(token), `sent token ${token}, responses carried ${got.join(' and ')}`);
    }
  },
);

export const singleValueIsAtom = check(
  {
    id: 'wire.response-message.single-value-atom',
    title: 'A query whose result is one value is answered SUCCESS_ATOM with that single datum',
    protocol: 'wire',
    section,
    level: 'SHOULD',
    spec: { file, line: 43, quote: '| SUCCESS_ATOM | 1 | single datum |' },
    faults: ['atom-as-sequence'],
  },
  async (ctx) => {
    const conn = await ctx.wire.connect();
    const res = await conn.start(r.add(40, 2));
    expectType(res, 'SUCCESS_ATOM', 'START ADD(40, 2)');
    ctx.expect(res.response.length === 1, `expected exactly 1 datum with SUCCESS_ATOM, got ${summary(res)}`);
    ctx.expect(values(res)[0] === 42, `expected 42, got ${show(values(res))}`);
  },
);

export const profileWhenRequested = check(
  {
    id: 'wire.response-message.profile-when-requested',
    title: 'With global optarg profile = true the response carries profile data',
    protocol: 'wire',
    section,
    level: 'MUST',
    spec: { file, line: 36, quote: "present when the query's global_optargs had `profile` = true" },
    faults: ['profile-missing'],
  },
  async (ctx) => {
    const conn = await ctx.wire.connect();
    const res = await conn.start(r.add(1, 2), { globalOptargs: { profile: true } });
    expectType(res, 'SUCCESS_ATOM', 'START ADD(1, 2) with profile = true');
    ctx.expect(res.profile !== undefined, 'response to a query with profile = true has no profile field');
    ctx.expect(values(res)[0] === 3, `the result beside the profile should be 3, got ${show(values(res))}`);
  },
);

export const noProfileUnlessRequested = check(
  {
    id: 'wire.response-message.no-profile-unless-requested',
    title: 'Without profile = true the response carries no profile data',
    protocol: 'wire',
    section,
    level: 'SHOULD',
    spec: { file, line: 36, quote: "present when the query's global_optargs had `profile` = true" },
    faults: ['profile-always'],
  },
  async (ctx) => {
    const conn = await ctx.wire.connect();
    const res = await conn.start(r.add(1, 2));
    ctx.expect(res.profile === undefined, `response to a query without profile carries profile ${show(describeResponse(res).profile)}`);
  },
);

export const serverInfoNoProfile = check(
  {
    id: 'wire.response-message.server-info-no-profile',
    title: 'SERVER_INFO never carries profiling data, even when profile = true is sent',
    protocol: 'wire',
    section,
    level: 'MUST',
    spec: { file, line: 47, quote: 'same as SUCCESS_ATOM but never has profiling data' },
    faults: ['server-info-profile'],
  },
  async (ctx) => {
    const conn = await ctx.wire.connect();
    const res = await conn.serverInfo({ globalOptargs: { profile: true } });
    expectType(res, 'SERVER_INFO', 'SERVER_INFO with profile = true');
    ctx.expect(res.profile === undefined, `SERVER_INFO response carries profile ${show(describeResponse(res).profile)}`);
  },
);

export const malformedProtobufClientError = check(
  {
    id: 'wire.response-message.malformed-protobuf-client-error',
    title: 'A frame that is not a valid protobuf Query is answered CLIENT_ERROR',
    protocol: 'wire',
    section,
    level: 'MUST',
    spec: { file, line: 48, quote: 'client bug, e.g. malformed protobuf or CONTINUE for an unknown token' },
    faults: ['malformed-closes'],
  },
  async (ctx) => {
    const conn = await ctx.wire.connect();
    // token = 9, then field 2 (query) announcing 32 bytes of which only one follows.
    const payload = Buffer.from([0x18, 0x09, 0x12, 0x20, 0x08]);
    conn.write(frame(payload), { malformed: 'Query with a truncated length-delimited field' });
    let res;
    try {
      res = await conn.nextAny();
    } catch (err) {
      if (err instanceof TargetClosed) ctx.fail(`malformed protobuf was not answered CLIENT_ERROR: ${err.message}`);
      throw err;
    }
    expectType(res, 'CLIENT_ERROR', 'malformed protobuf Query');
  },
);

export const wrongArityCompileError = check(
  {
    id: 'wire.response-message.too-many-arguments-compile-error',
    title: 'Too many arguments to a term is answered COMPILE_ERROR',
    protocol: 'wire',
    section,
    level: 'MUST',
    spec: { file, line: 49, quote: 'failure in parsing or type checking, e.g. too many arguments to a function' },
    faults: ['arity-runtime-error'],
  },
  async (ctx) => {
    const conn = await ctx.wire.connect();
    const res = await conn.start(r.not(true, false));
    expectType(res, 'COMPILE_ERROR', 'NOT with 2 arguments (signature BOOL -> BOOL)');
  },
);

export const addBooleansRuntimeError = check(
  {
    id: 'wire.response-message.add-booleans-runtime-error',
    title: 'Adding two values that turn out to be booleans is answered RUNTIME_ERROR',
    protocol: 'wire',
    section,
    level: 'MUST',
    spec: { file, line: 50, quote: 'failure at run time, e.g. adding two values that turn out to be booleans' },
    faults: ['lenient-add'],
  },
  async (ctx) => {
    const conn = await ctx.wire.connect();
    // The booleans are computed, so only running the query reveals them.
    const res = await conn.start(r.add(r.eq(1, 1), r.eq(1, 2)));
    expectType(res, 'RUNTIME_ERROR', 'ADD(EQ(1, 1), EQ(1, 2))');
  },
);

export const noFeedNoteOnPlainStream = check(
  {
    id: 'wire.response-message.no-feed-note-on-plain-stream',
    title: 'A stream that is not a changefeed carries no changefeed notes',
    protocol: 'wire',
    section,
    level: 'SHOULD',
    spec: { file, line: 54, quote: 'SEQUENCE_FEED=1 (stream is a changefeed)' },
    faults: ['spurious-feed-note'],
  },
  async (ctx) => {
    const conn = await ctx.wire.connect();
    const responses = [await conn.start(r.range(1500))];
    const streams: number[] = [ResponseType.SUCCESS_PARTIAL, ResponseType.SUCCESS_SEQUENCE];
    if (!streams.includes(responses[0].type!)) ctx.inconclusive(`RANGE(1500) was answered ${received(responses[0])}, not as a stream: no stream notes to examine`, { seeAlso: 'wire.states.continue-until-sequence' });
    if (responses[0].type === ResponseType.SUCCESS_PARTIAL) responses.push(await conn.continue(responses[0].token!));
    for (const res of responses) {
      const notes = res.notes.map((n) => nameOf(names.responseNote, n));
      ctx.expect(notes.length === 0, `RANGE(1500) is no changefeed but its ${summary(res)} response carries notes ${notes.join(', ')}`);
    }
  },
);

export const errorTypeOnlyOnRuntimeError = check(
  {
    id: 'wire.response-message.error-type-only-on-runtime-error',
    title: 'Success, CLIENT_ERROR and COMPILE_ERROR responses carry no error_type',
    protocol: 'wire',
    section,
    level: 'SHOULD',
    spec: { file, line: 38, quote: '| error_type | 7 | ErrorType | may be filled in when type is RUNTIME_ERROR |' },
    faults: ['error-type-on-every-error'],
  },
  async (ctx) => {
    const conn = await ctx.wire.connect();
    const seen: string[] = [];
    for (const [what, send, expected] of [
      ['START ADD(1, 2)', () => conn.start(r.add(1, 2)), 'SUCCESS_ATOM'],
      ['CONTINUE for unknown token 987654', () => conn.continue(987_654n), 'CLIENT_ERROR'],
      ['NOT with 2 arguments', () => conn.start(r.not(true, false)), 'COMPILE_ERROR'],
    ] as const) {
      const res = await send();
      // A response of another type is judged by the check of its own rule; here only error_type is looked at.
      if (res.type === ResponseType.RUNTIME_ERROR) continue;
      seen.push(`${what}: ${typeOf(res)}`);
      ctx.expect(
        res.error_type === undefined,
        `${what} was answered ${typeOf(res)} with error_type ${nameOf(names.errorType, res.error_type)} (${res.error_type}); error_type belongs to RUNTIME_ERROR only (expected ${expected} without it)`,
      );
    }
    if (!seen.length) ctx.inconclusive('every query was answered RUNTIME_ERROR: no other response type to look at');
    ctx.note(`no error_type on ${seen.join('; ')}`);
  },
);

export const checks = [
  tokenEchoed,
  tokenInt64,
  singleValueIsAtom,
  profileWhenRequested,
  noProfileUnlessRequested,
  serverInfoNoProfile,
  malformedProtobufClientError,
  wrongArityCompileError,
  addBooleansRuntimeError,
  noFeedNoteOnPlainStream,
  errorTypeOnlyOnRuntimeError,
];
