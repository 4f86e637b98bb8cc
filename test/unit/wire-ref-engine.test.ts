// wire-ref behaviour the document does not state but the project requires of its reference:
// no foreign code and no outbound requests (JAVASCRIPT, HTTP refused with RUNTIME_ERROR),
// BINARY refused as client-only, and a store shared by the server's connections.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fromDatum } from '../../src/clients/wire/codec.ts';
import { WireConnection } from '../../src/clients/wire/connection.ts';
import { ResponseType } from '../../src/clients/wire/schema.ts';
import { term as t } from '../../src/clients/wire/terms.ts';
import { startWireReference, type WireReference } from '../../targets/wire/server.ts';

let ref: WireReference;
async function open(): Promise<WireConnection> {
  const conn = await WireConnection.connect({ host: ref.host, port: ref.port, connectTimeoutMs: 1000, replyTimeoutMs: 1000 });
  expect(await conn.handshake({ authKey: '' })).toBe('SUCCESS');
  return conn;
}

beforeAll(async () => {
  ref = await startWireReference();
});
afterAll(async () => {
  await ref.close();
});

describe('wire-ref term engine', () => {
  it('refuses JAVASCRIPT and HTTP with RUNTIME_ERROR, without reaching out', async () => {
    const conn = await open();
    try {
      for (const q of [t('JAVASCRIPT', ['1 + 1']), t('HTTP', ['http://example.invalid/'], { timeout: 1 })]) {
        const res = await conn.start(q);
        expect(res.type).toBe(ResponseType.RUNTIME_ERROR);
      }
    } finally {
      conn.close();
    }
  });

  it('refuses BINARY as a client-only term', async () => {
    const conn = await open();
    try {
      expect((await conn.start(t('BINARY', ['abc']))).type).toBe(ResponseType.COMPILE_ERROR);
    } finally {
      conn.close();
    }
  });

  it('shares databases between connections of one server', async () => {
    const [a, b] = [await open(), await open()];
    try {
      expect((await a.start(t('DB_CREATE', ['shared_unit']))).type).toBe(ResponseType.SUCCESS_ATOM);
      const list = await b.start(t('DB_LIST', []));
      expect(fromDatum(list.response[0])).toContain('shared_unit');
      expect((await b.start(t('DB_DROP', ['shared_unit']))).type).toBe(ResponseType.SUCCESS_ATOM);
    } finally {
      a.close();
      b.close();
    }
  });
});
