// Faults of cloud-ref and build-ref that only the HTTP fuzzer proves (kept apart from the faults
// the checks prove, as WIRE_FUZZ_FAULTS are): each is a fastify hook that breaks one oracle of
// fuzz/http/oracles.ts for inputs a fuzzer finds, not for the requests the checks send.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';

export const CLOUD_FUZZ_FAULTS = {
  'fuzz-500-on-huge-page-size': 'answers 500 to a page_size above one million',
  'fuzz-refusal-without-error-body': 'refuses an X-Filter that is not JSON with a plain-text 400 instead of the error body',
  'fuzz-hang-on-astral-char': 'never answers a JSON body holding a character outside the Basic Multilingual Plane',
  'fuzz-deleted-client-readable': 'answers a read of a deleted OAuth client with 200 and the client, instead of 404 (found by the http-json-sequence kind)',
  'fuzz-cancelled-transfer-visible': 'shows a cancelled service transfer to another account (200 instead of 404) (found by the http-json-sequence kind, other-account chains)',
  'fuzz-unknown-transfer-found': 'answers a read of a service transfer token it never handed out with 200 and a pending transfer, instead of 404 (found by the http-json-sequence kind, never-existed chains)',
  'fuzz-refused-user-kept': 'answers a read of a user whose create it refused with 200 and the user, instead of 404 (found by the http-json-sequence kind, refused-create chains)',
} as const;

export const BUILD_FUZZ_FAULTS = {
  'fuzz-500-on-deep-xml': 'answers 500 to an XML body nested more than 64 elements deep',
  'fuzz-dies-on-doctype': 'stops serving (closes every connection and the listener) on an XML body with a DOCTYPE',
  'fuzz-deleted-package-readable': 'answers GET _meta of a deleted package with 200 and a package meta (found by the http-xml-sequence kind, lifecycle chains)',
  'fuzz-unknown-project-readable': 'answers GET _meta of a project never created with 200 and a project meta (found by the http-xml-sequence kind, never-existed chains)',
  'fuzz-refused-package-listed': 'lists a package whose _meta PUT it refused in its project\'s package list (found by the http-xml-sequence kind, refused-create chains)',
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
  installSequenceFaults(app, on);
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

/** The answer's body as text (fastify hands onSend a string for the references' JSON and XML). */
const payloadText = (payload: unknown): string => (typeof payload === 'string' ? payload : Buffer.isBuffer(payload) ? payload.toString('utf8') : '');

/**
 * The faults the stateful kinds find (fuzz/http/sequence.ts, build-sequence.ts). Each watches the
 * answers the reference gives and rewrites a later one, so that no route handler changes: the
 * server keeps its state, and only what a chain reads back is wrong.
 */
function installSequenceFaults(app: FastifyInstance, on: ReadonlySet<string>): void {
  const pathOf = (req: FastifyRequest) => req.url.split('?')[0];
  const json = (reply: FastifyReply, body: unknown) => {
    reply.code(200).type('application/json');
    return JSON.stringify(body);
  };
  const xml = (reply: FastifyReply, body: string) => {
    reply.code(200).type('application/xml');
    return body;
  };
  if (on.has('fuzz-cancelled-transfer-visible') || on.has('fuzz-unknown-transfer-found')) {
    const handedOut = new Set<string>();
    /** token -> the Authorization of the account that cancelled it. */
    const cancelled = new Map<string, string>();
    app.addHook('onSend', async (req, reply, payload) => {
      const path = pathOf(req);
      if (/^\/v4(?:beta)?\/account\/service-transfers\/?$/.test(path) && req.method === 'POST' && reply.statusCode < 300) {
        const token = (JSON.parse(payloadText(payload) || '{}') as { token?: unknown }).token;
        if (typeof token === 'string') handedOut.add(token);
        return payload;
      }
      const m = /^\/v4(?:beta)?\/account\/service-transfers\/([^/]+)$/.exec(path);
      if (!m) return payload;
      const auth = String(req.headers.authorization ?? '');
      if (req.method === 'DELETE' && reply.statusCode < 300) cancelled.set(m[1], auth);
      if (req.method !== 'GET' || reply.statusCode !== 404) return payload;
      const transfer = (status: string) => ({ token: m[1], status, entities: { nodes: [] }, is_sender: false });
      if (on.has('fuzz-cancelled-transfer-visible') && cancelled.has(m[1]) && cancelled.get(m[1]) !== auth) return json(reply, transfer('cancelled'));
      if (on.has('fuzz-unknown-transfer-found') && !handedOut.has(m[1])) return json(reply, transfer('pending'));
      return payload;
    });
  }
  if (on.has('fuzz-refused-user-kept')) {
    const refusedNames = new Set<string>();
    app.addHook('onSend', async (req, reply, payload) => {
      const path = pathOf(req);
      if (req.method === 'POST' && /^\/v4(?:beta)?\/account\/users\/?$/.test(path) && reply.statusCode >= 400 && reply.statusCode < 500) {
        const username = (req.body as { username?: unknown } | undefined)?.username;
        if (typeof username === 'string') refusedNames.add(username);
        return payload;
      }
      const m = /^\/v4(?:beta)?\/account\/users\/([^/]+)$/.exec(path);
      if (m && req.method === 'GET' && reply.statusCode === 404 && refusedNames.has(decodeURIComponent(m[1]))) return json(reply, { username: decodeURIComponent(m[1]), email: '', restricted: false });
      return payload;
    });
  }
  if (on.has('fuzz-deleted-package-readable') || on.has('fuzz-unknown-project-readable') || on.has('fuzz-refused-package-listed')) {
    const deletedPackages = new Set<string>();
    const writtenProjects = new Set<string>();
    /** project -> packages whose _meta PUT was refused. */
    const refusedPackages = new Map<string, Set<string>>();
    const esc = (x: string) => x.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/"/g, '&quot;');
    app.addHook('onSend', async (req, reply, payload) => {
      const path = pathOf(req).split('/').map((x) => decodeURIComponent(x));
      if (path[1] !== 'source') return payload;
      const [, , project, second, third] = path;
      const okStatus = reply.statusCode < 300;
      if (req.method === 'PUT' && second === '_meta' && path.length === 4) {
        writtenProjects.add(project);
      } else if (req.method === 'PUT' && third === '_meta' && path.length === 5) {
        if (okStatus) deletedPackages.delete(`${project}/${second}`);
        else if (reply.statusCode >= 400 && reply.statusCode < 500) refusedPackages.set(project, (refusedPackages.get(project) ?? new Set()).add(second));
      } else if (req.method === 'DELETE' && path.length === 4 && okStatus) {
        deletedPackages.add(`${project}/${second}`);
      } else if (req.method === 'GET' && path.length === 4 && second === '_meta' && reply.statusCode === 404 && on.has('fuzz-unknown-project-readable') && !writtenProjects.has(project)) {
        return xml(reply, `<project name="${esc(project)}"><title/><description/></project>`);
      } else if (req.method === 'GET' && path.length === 5 && third === '_meta' && !okStatus && on.has('fuzz-deleted-package-readable') && deletedPackages.has(`${project}/${second}`)) {
        return xml(reply, `<package name="${esc(second)}" project="${esc(project)}"><title/><description/></package>`);
      } else if (req.method === 'GET' && path.length === 3 && okStatus && on.has('fuzz-refused-package-listed') && refusedPackages.has(project) && !req.url.includes('?')) {
        const entries = [...refusedPackages.get(project)!].map((k) => `<entry name="${esc(k)}"/>`).join('');
        const text = payloadText(payload);
        return text.includes('</directory>') ? text.replace('</directory>', `${entries}</directory>`) : text.replace(/<directory([^>]*)\/>/, `<directory$1>${entries}</directory>`);
      }
      return payload;
    });
  }
}
