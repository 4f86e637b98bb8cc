// Section "Handshake (protobuf protocol)" of wire-protocol.md.
import { check } from '../../src/core/check.ts';
import { neededField } from '../../src/config/env.ts';
import { TargetClosed, TargetTimeout } from '../../src/core/errors.ts';
import { r } from '../../src/clients/wire/terms.ts';
import { control, OWNER } from './controls.ts';
import { expectType, show, values } from './support.ts';

const section = 'Handshake (protobuf protocol)';
const file = 'wire-protocol.md';

export const acceptedWithSuccess = check(
  {
    id: 'wire.handshake.success',
    title: 'An accepted V0_4 protobuf handshake is answered "SUCCESS"',
    protocol: 'wire',
    section,
    level: 'MUST',
    spec: { file, line: 107, quote: '`SUCCESS` means accepted' },
    touches: [],
    faults: ['handshake-lowercase-success'],
    keptBy: {
      doNothing: 'the handshake comes before any query: a server that then implements no query still accepts a good V0_4 handshake with "SUCCESS", which is the whole rule',
      acceptAll: 'the handshake comes before any query: a server that then answers every query alike still accepts a good V0_4 handshake with "SUCCESS", which is the whole rule',
    },
  },
  async (ctx) => {
    const conn = await ctx.wire.socket();
    const reply = await conn.handshake({ version: 'V0_4', authKey: ctx.wire.authKey ?? '', protocol: 'PROTOBUF' });
    ctx.expect(reply === 'SUCCESS', `expected the handshake reply "SUCCESS", got ${show(reply)}`);
  },
);

export const replyNulTerminated = check(
  {
    id: 'wire.handshake.nul-terminated',
    title: 'The handshake reply is a NUL-terminated string',
    protocol: 'wire',
    section,
    level: 'MUST',
    spec: { file, line: 107, quote: 'Server answers with a NUL-terminated string' },
    touches: [],
    faults: ['no-nul-after-success'],
    keptBy: {
      doNothing: 'the handshake comes before any query: a server that then implements no query still ends its handshake reply with NUL, which is the whole rule',
      acceptAll: 'the handshake comes before any query: a server that then answers every query alike still ends its handshake reply with NUL, which is the whole rule',
    },
  },
  async (ctx) => {
    const conn = await ctx.wire.socket();
    try {
      await conn.handshake({ authKey: ctx.wire.authKey ?? '' });
    } catch (err) {
      if (err instanceof TargetTimeout || err instanceof TargetClosed) ctx.fail(`handshake reply is not NUL-terminated: ${err.message}`);
      throw err;
    }
  },
);

export const v03Accepted = check(
  {
    id: 'wire.handshake.v0_3-accepted',
    title: 'A V0_3 handshake (key and protocol) is accepted and queries work after it',
    protocol: 'wire',
    section,
    level: 'SHOULD',
    spec: { file, line: 109, quote: 'V0_3=0x5f75e83e (key and protocol during handshake)' },
    touches: ['term:ADD', 'term:DATUM'],
    faults: ['reject-v0_3'],
  },
  async (ctx) => {
    // Queries work after a V0_4 handshake: the same query then shows what a V0_3 one changes.
    await control(ctx, await ctx.wire.connect(), r.add(1, 2), 3, 'START ADD(1, 2) after a V0_4 handshake', OWNER.ADD);
    const conn = await ctx.wire.socket();
    const reply = await conn.handshake({ version: 'V0_3', authKey: ctx.wire.authKey ?? '', protocol: 'PROTOBUF' });
    ctx.expect(reply === 'SUCCESS', `expected "SUCCESS" for the V0_3 magic, got ${show(reply)}`);
    const res = await conn.start(r.add(1, 2));
    expectType(res, 'SUCCESS_ATOM', 'START ADD(1, 2) after a V0_3 handshake');
    ctx.expect(values(res)[0] === 3, `expected 3 after a V0_3 handshake, got ${show(values(res))}`);
  },
);

export const wrongKeyRefused = check(
  {
    id: 'wire.handshake.wrong-key-refused',
    title: 'A handshake with a wrong authorization key gets an error description, not SUCCESS',
    protocol: 'wire',
    section,
    level: 'SHOULD',
    spec: { file, line: 105, quote: 'Client sends the authorization key' },
    touches: [],
    faults: ['accept-any-key'],
    tags: ['needs:authKey'],
    keptBy: {
      doNothing: 'the handshake comes before any query: a server that then implements no query still refuses a wrong key there with a description, which is the whole rule',
      acceptAll: 'the handshake comes before any query: a server that then answers every query alike still refuses a wrong key there with a description, which is the whole rule',
    },
  },
  async (ctx) => {
    const key = ctx.wire.authKey;
    if (key === undefined) ctx.skip(`needs ${neededField('authKey')} to know which key is wrong`);
    const wrong = `${key}-not-the-key`;
    const conn = await ctx.wire.socket();
    let reply: string;
    try {
      reply = await conn.handshake({ authKey: wrong });
    } catch (err) {
      if (err instanceof TargetClosed) ctx.fail('target closed the connection without a NUL-terminated error description');
      throw err;
    }
    // The message must not repeat the key: reports leave the machine.
    ctx.expect(reply !== 'SUCCESS', 'a wrong key (the configured key with a suffix) was accepted with "SUCCESS"; expected an error description');
    ctx.expect(reply.length > 0, 'the refusal is an empty string; expected an error description');
  },
);

export const unknownProtocolRefused = check(
  {
    id: 'wire.handshake.unknown-protocol-refused',
    title: 'A handshake with a protocol magic other than PROTOBUF and JSON is not answered "SUCCESS"',
    protocol: 'wire',
    section,
    level: 'SHOULD',
    spec: { file, line: 111, quote: 'Protocol magic numbers (enum Protocol): PROTOBUF=0x271ffc41, JSON=0x7e6970c7' },
    touches: [],
    faults: ['accept-unknown-protocol'],
    keptBy: {
      doNothing: 'the handshake comes before any query: a server that then implements no query still refuses an unknown protocol magic there, which is the whole rule',
      acceptAll: 'the handshake comes before any query: a server that then answers every query alike still refuses an unknown protocol magic there, which is the whole rule',
    },
  },
  async (ctx) => {
    const conn = await ctx.wire.socket();
    const magic = 0x0badf00d;
    const key = Buffer.from(ctx.wire.authKey ?? '', 'utf8');
    const u32 = (n: number) => {
      const b = Buffer.alloc(4);
      b.writeUInt32LE(n >>> 0, 0);
      return b;
    };
    const bytes = (k: Buffer) => Buffer.concat([u32(0x400c2d20), u32(k.length), k, u32(magic)]);
    let reply: string;
    try {
      reply = await conn.handshakeRaw(bytes(key), ctx.timeouts.replyMs, {
        decoded: { handshake: { version: 'V0_4', authKey: key.length ? `(${key.length} bytes, redacted)` : '', protocol: `0x${magic.toString(16)} (neither PROTOBUF nor JSON)` } },
        evidenceBytes: bytes(Buffer.alloc(key.length, 0x2a)),
      });
    } catch (err) {
      // Closing the connection or staying silent is no acceptance either.
      if (err instanceof TargetClosed || err instanceof TargetTimeout) return ctx.note(`the unknown protocol magic got no handshake reply: ${err.message}`);
      throw err;
    }
    ctx.expect(reply !== 'SUCCESS', `a V0_4 handshake with protocol magic 0x${magic.toString(16)}, neither PROTOBUF nor JSON, was answered "SUCCESS"; expected an error description`);
    ctx.note(`refused with ${show(reply)}`);
  },
);

export const checks = [acceptedWithSuccess, replyNulTerminated, v03Accepted, wrongKeyRefused, unknownProtocolRefused];
