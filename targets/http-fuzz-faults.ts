// Faults of cloud-ref and build-ref that only the HTTP fuzzer proves (kept apart from the faults
// the checks prove, as WIRE_FUZZ_FAULTS are): each is a fastify hook that breaks one oracle of
// fuzz/http/oracles.ts for inputs a fuzzer finds, not for the requests the checks send.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';

export const CLOUD_FUZZ_FAULTS = {
  'fuzz-500-on-huge-page-size': 'answers 500 to a page_size above one million',
  'fuzz-refusal-without-error-body': 'refuses an X-Filter that is not JSON with a plain-text 400 instead of the error body',
  'fuzz-hang-on-astral-char': 'never answers a JSON body holding a character outside the Basic Multilingual Plane',
  'fuzz-deleted-client-readable': 'answers a read of a deleted OAuth client with 200 and the client, instead of 404 (found by the http-json-sequence kind)',
} as const;

export const BUILD_FUZZ_FAULTS = {
  'fuzz-500-on-deep-xml': 'answers 500 to an XML body nested more than 64 elements deep',
  'fuzz-dies-on-doctype': 'stops serving (closes every connection and the listener) on an XML body with a DOCTYPE',
} as const;

export type HttpFuzzFault = keyof typeof CLOUD_FUZZ_FAULTS | keyof typeof BUILD_FUZZ_FAULTS;

export function isHttpFuzzFault(name: string): name is HttpFuzzFault {
  return Object.hasOwn(CLOUD_FUZZ_FAULTS, name) || Object.hasOwn(BUILD_FUZZ_FAULTS, name);
}

/** Deepest element nesting of an XML text, by a plain scan of its tags. */
export function xmlDepth(text: string): number {
  let depth = 0;
  let deepest = 0;
  for (const m of text.matchAll(/<(\/?)[A-Za-z_][^>]*?(\/?)>/g)) {
    if (m[1]) depth--;
    else if (!m[2]) deepest = Math.max(deepest, ++depth);
  }
  return deepest;
}

/** The body as text; '' for one that cannot be written back (too deep for JSON.stringify's stack). */
function bodyText(req: FastifyRequest): string {
  if (typeof req.body === 'string') return req.body;
  if (Buffer.isBuffer(req.body)) return req.body.toString('utf8');
  try {
    return req.body === undefined ? '' : JSON.stringify(req.body);
  } catch {
    return '';
  }
}

/** Installs the named fuzz faults on a reference server (before its routes run). */
export function installHttpFuzzFaults(app: FastifyInstance, faults: readonly string[]): void {
  const on = new Set(faults);
  if (!on.size) return;
  const hung = new Set<FastifyReply>();
  if (on.has('fuzz-deleted-client-readable')) {
    const deleted = new Set<string>();
    app.addHook('onSend', async (req, reply, payload) => {
      const m = /^\/v4(?:beta)?\/account\/oauth-clients\/([^/?]+)$/.exec(req.url.split('?')[0]);
      if (!m) return payload;
      if (req.method === 'DELETE' && reply.statusCode < 300) deleted.add(m[1]);
      else if (req.method === 'GET' && reply.statusCode === 404 && deleted.has(m[1])) {
        reply.code(200).type('application/json');
        return JSON.stringify({ id: m[1], label: 'deleted', redirect_uri: 'https://deleted.invalid/', public: false });
      }
      return payload;
    });
  }
  app.addHook('onClose', async () => {
    for (const r of hung) r.raw.destroy();
  });
  app.addHook('preHandler', async (req, reply) => {
    const query = req.query as Record<string, unknown>;
    if (on.has('fuzz-500-on-huge-page-size') && Number(query.page_size) > 1_000_000) {
      return reply.code(500).type('application/json').send({ errors: [{ reason: 'Internal server error' }] });
    }
    const filter = req.headers['x-filter'];
    if (on.has('fuzz-refusal-without-error-body') && typeof filter === 'string') {
      try {
        JSON.parse(filter);
      } catch {
        return reply.code(400).type('text/plain').send('bad filter');
      }
    }
    const text = on.has('fuzz-hang-on-astral-char') || on.has('fuzz-500-on-deep-xml') || on.has('fuzz-dies-on-doctype') ? bodyText(req) : '';
    if (on.has('fuzz-hang-on-astral-char') && /[\u{10000}-\u{10FFFF}]/u.test(text)) {
      hung.add(reply);
      return new Promise<never>(() => {});
    }
    if (on.has('fuzz-500-on-deep-xml') && xmlDepth(text) > 64) {
      return reply.code(500).type('application/xml').send('<status code="internal_error"><summary>stack overflow</summary></status>');
    }
    if (on.has('fuzz-dies-on-doctype') && /<!DOCTYPE/i.test(text)) {
      // The server "crashes": no more connections, and every open one is cut.
      app.server.close();
      app.server.closeAllConnections();
      reply.raw.destroy();
      return reply;
    }
    return undefined;
  });
}
