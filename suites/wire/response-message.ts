// Section "Response (message)" of wire-protocol.md: token, response datums, profile, notes,
// and which response type answers which outcome.
import { describeResponse, frame } from '../../src/clients/wire/codec.ts';
import { names, nameOf } from '../../src/clients/wire/schema.ts';
import { datum, r } from '../../src/clients/wire/terms.ts';
import { check } from '../../src/core/check.ts';
import { TargetClosed } from '../../src/core/errors.ts';
import { control, isError, OWNER, ranOrInconclusive } from './controls.ts';
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
    touches: ['term:DATUM'],
    faults: ['token-echo-wrong'],
    keptBy: {
      doNothing: 'a server answering every query RUNTIME_ERROR still answers each with its token, as the rule asks of every response',
      acceptAll: 'a server answering every query with an empty SUCCESS_SEQUENCE still answers each with its token, as the rule asks of every response',
    },
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
    touches: ['term:DATUM'],
    faults: ['token-truncate-32'],
    keptBy: {
      doNothing: 'a server answering every query RUNTIME_ERROR still answers each with its whole int64 token, as the rule asks of every response',
      acceptAll: 'a server answering every query with an empty SUCCESS_SEQUENCE still answers each with its whole int64 token, as the rule asks of every response',
    },
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
    touches: ['term:ADD', 'term:DATUM'],
    faults: ['atom-as-sequence'],
  },
  async (ctx) => {
    const conn = await ctx.wire.connect();
    const res = await conn.start(r.add(40, 2));
    // An error is no value at all: ADD is not served here (its own check judges that).
    ranOrInconclusive(ctx, res, 'START ADD(40, 2)', OWNER.ADD);
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
    touches: ['term:ADD', 'term:DATUM'],
    faults: ['profile-missing'],
  },
  async (ctx) => {
    const conn = await ctx.wire.connect();
    await control(ctx, conn, r.add(1, 2), 3, 'START ADD(1, 2) without profile', OWNER.ADD);
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
    touches: ['term:ADD', 'term:DATUM'],
    faults: ['profile-always'],
  },
  async (ctx) => {
    const conn = await ctx.wire.connect();
    const res = await conn.start(r.add(1, 2));
    // Any response, an error included, breaks the rule when it carries a profile.
    ctx.expect(res.profile === undefined, `${summary(res)} answering START ADD(1, 2) without profile carries profile ${show(describeResponse(res).profile)}`);
    // Without one, only a response carrying the result shows the server left out what it could have added.
    if (res.type !== ResponseType.SUCCESS_ATOM || values(res)[0] !== 3) {
      ctx.inconclusive(`START ADD(1, 2) was answered ${received(res)} ${show(describeResponse(res).response)}, not with its result 3: no successful answer whose profile could be judged`, { seeAlso: OWNER.ADD });
    }
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
    touches: [],
    faults: ['server-info-profile'],
    reliesOn: ['wire.query-operations.server-info'],
  },
  async (ctx) => {
    const conn = await ctx.wire.connect();
    const res = await conn.serverInfo({ globalOptargs: { profile: true } });
    await ctx.setup('SERVER_INFO with profile = true, answered SERVER_INFO', () => expectType(res, 'SERVER_INFO', 'SERVER_INFO with profile = true'), { seeAlso: 'wire.query-operations.server-info' });
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
    touches: [],
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
    if (res.type !== ResponseType.CLIENT_ERROR) {
      // Only a server that answers a well-formed Query tells a malformed one apart: otherwise its answer says nothing of the frame.
      await control(ctx, await ctx.wire.connect(), datum(1), 1, 'a well-formed START of the datum 1', 'wire.datum-message.types-round-trip');
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
    touches: ['term:DATUM', 'term:NOT'],
    faults: ['arity-runtime-error'],
  },
  async (ctx) => {
    const conn = await ctx.wire.connect();
    // NOT is served here: its refusal below is for the count of arguments, not for the term.
    await control(ctx, conn, r.not(true), false, 'NOT(true)', OWNER.NOT);
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
    touches: ['term:ADD', 'term:DATUM', 'term:EQ'],
    faults: ['lenient-add'],
  },
  async (ctx) => {
    const conn = await ctx.wire.connect();
    // ADD and EQ are served here: the refusal below is for the booleans, not for either term.
    await control(ctx, conn, r.add(1, 2), 3, 'ADD(1, 2)', OWNER.ADD);
    await control(ctx, conn, r.eq(1, 1), true, 'EQ(1, 1)', OWNER.EQ);
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
    touches: ['term:DATUM', 'term:RANGE'],
    faults: ['spurious-feed-note'],
  },
  async (ctx) => {
    const total = 1500;
    const conn = await ctx.wire.connect();
    let res = await conn.start(r.range(total));
    const streams: number[] = [ResponseType.SUCCESS_PARTIAL, ResponseType.SUCCESS_SEQUENCE];
    if (!streams.includes(res.type!)) ctx.inconclusive(`RANGE(${total}) was answered ${received(res)}, not as a stream: no stream notes to examine`, { seeAlso: 'wire.states.continue-until-sequence' });
    // Every batch up to the last one: the notes of each are judged, and the items show it is RANGE's stream.
    let items = 0;
    for (let batch = 1; ; batch++) {
      // Notes on a response of a stream that is no changefeed break the rule, whatever else the batch holds.
      const notes = res.notes.map((n) => nameOf(names.responseNote, n));
      ctx.expect(notes.length === 0, `RANGE(${total}) is no changefeed but batch ${batch} of its stream, ${summary(res)}, carries notes ${notes.join(', ')}`);
      items += res.response.length;
      if (res.type !== ResponseType.SUCCESS_PARTIAL) break;
      if (batch > total) ctx.inconclusive(`RANGE(${total}) did not end within ${total} batches: its stream was not seen whole`, { seeAlso: 'wire.states.continue-until-sequence' });
      res = await conn.continue(res.token!);
      if (!streams.includes(res.type!)) ctx.inconclusive(`CONTINUE ${batch} of RANGE(${total}) was answered ${received(res)}: the stream was not seen whole`, { seeAlso: 'wire.states.continue-until-sequence' });
    }
    // A stream without RANGE's items (an empty SUCCESS_SEQUENCE) is not the stream the rule is about.
    if (items !== total) ctx.inconclusive(`RANGE(${total}) was answered with ${items} items in all, not ${total}: not seen to be that stream, so its notes say nothing`, { seeAlso: OWNER.RANGE });
    ctx.note(`${total} items without notes`);
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
    touches: ['term:ADD', 'term:DATUM', 'term:NOT'],
    faults: ['error-type-on-every-error'],
  },
  async (ctx) => {
    const conn = await ctx.wire.connect();
    const seen: string[] = [];
    const unseen: string[] = [];
    for (const [what, send, expected, owner] of [
      ['START ADD(1, 2)', () => conn.start(r.add(1, 2)), 'SUCCESS_ATOM', OWNER.ADD],
      ['CONTINUE for unknown token 987654', () => conn.continue(987_654n), 'CLIENT_ERROR', 'wire.states.continue-unknown-token'],
      ['NOT with 2 arguments', () => conn.start(r.not(true, false)), 'COMPILE_ERROR', 'wire.response-message.too-many-arguments-compile-error'],
    ] as const) {
      const res = await send();
      // Any response but a RUNTIME_ERROR breaks the rule when it carries error_type.
      if (res.type !== ResponseType.RUNTIME_ERROR) {
        ctx.expect(
          res.error_type === undefined,
          `${what} was answered ${typeOf(res)} with error_type ${nameOf(names.errorType, res.error_type)} (${res.error_type}); error_type belongs to RUNTIME_ERROR only (expected ${expected} without it)`,
        );
      }
      // Only the response type the query provokes counts as seen (ADD(1, 2) with its result 3); another is judged by the check of its own rule.
      const provoked = res.type === ResponseType[expected] && (expected !== 'SUCCESS_ATOM' || values(res)[0] === 3);
      (provoked ? seen : unseen).push(`${what}: ${received(res)}${isError(res) ? ` ${show(describeResponse(res).response)}` : ''} (${expected} expected; see ${owner})`);
    }
    if (unseen.length) {
      ctx.inconclusive(`${unseen.join('; ')}: not every response type the title names was seen${seen.length ? ` (no error_type on ${seen.map((x) => x.split(':')[0]).join(', ')})` : ''}`);
    }
    ctx.note(`no error_type on ${seen.map((x) => x.split(':')[0]).join('; ')}`);
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
