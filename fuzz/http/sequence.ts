// The stateful CLOUD kind `http-json-sequence` (opt-in: `--kind http-json-sequence`; only with
// `allow: ['destructive']`, and only on OAuth clients the sequence itself creates). Each case is a
// chain of requests where cloud-api.md states a rule about the chain (OAuth clients table; Errors:
// "404 | resource does not exist"; DELETE: "client id and secret stop being accepted"):
//   lifecycle       create -> read (the label sent) -> update -> read (the new label) -> delete
//                   -> read (404: a deleted resource is gone) -> delete again (404)
//   never-existed   a read of a client id that was never created gets 404
//   refused-create  a create refused with a 4xx leaves no new client in the list
// A chain stops at its first failing step: the finding holds that shortest failing prefix, and
// `replay` runs the whole chain again. Not done (yet): another account's view (transfers, users,
// OAuth clients) and the BUILD counterpart.
import { randomBytes } from 'node:crypto';
import fc from 'fast-check';
import { UsageError } from '../../src/core/errors.ts';
import type { FuzzKind, Violation } from '../core/kind.ts';
import type { HttpCase } from './case.ts';
import type { HttpOutcome } from './oracles.ts';

export type Checker = 'lifecycle' | 'never-existed' | 'refused-create';

export interface ChainSpec {
  checker: Checker;
  label: string;
  newLabel: string;
  /** An id no client has (a prefix the server never hands out, and random text). */
  missingId: string;
}

export interface ChainStep {
  method: HttpCase['method'];
  path: string;
  status?: number;
  error?: string;
}

export interface ChainResult {
  violations: Violation[];
  steps: ChainStep[];
  /** The whole chain got past the gates (not 401, 403, 429) at every step it ran. */
  past: boolean;
}

const BASE = '/v4/account/oauth-clients';
const REDIRECT = 'https://conformance-fuzz.invalid/callback';

/** The chain as a case: the driver runs it step by step (`chain`), the rest names its first request. */
export const httpJsonSequence: FuzzKind<HttpCase> = {
  name: 'http-json-sequence',
  protocol: 'cloud',
  optIn: true,
  description: 'CLOUD request chains on OAuth clients the campaign creates: create-read-update-delete-read, ids never created, refused creates (needs allow: [\'destructive\'])',
  arbitrary: (ctx) => {
    if (!ctx.destructive) throw new UsageError("fuzz kind 'http-json-sequence' changes state through chains of requests: it runs only on a target whose config has allow: ['destructive']");
    const label = fc.string({ minLength: 1, maxLength: 24 }).map((s) => `conformance-fuzz-${ctx.seed ?? 0}-${s}`);
    return fc
      .record({ checker: fc.constantFrom<Checker>('lifecycle', 'lifecycle', 'never-existed', 'refused-create'), label, newLabel: label, missingId: fc.stringMatching(/^[a-z0-9]{1,16}$/).map((s) => `conformance-never-${s}`) })
      .map((chain): HttpCase => ({ method: chain.checker === 'never-existed' ? 'GET' : 'POST', path: BASE, route: `${BASE} (${chain.checker} sequence)`, chain }));
  },
};

type Send = (c: HttpCase) => Promise<HttpOutcome>;

const idOf = (json: unknown): string | undefined => {
  const id = (json as { id?: unknown } | undefined)?.id;
  const text = typeof id === 'number' && Number.isSafeInteger(id) ? String(id) : id;
  return typeof text === 'string' && /^[A-Za-z0-9_-]{1,128}$/.test(text) ? text : undefined;
};

/** Runs a chain; stops at the first failing step (the shortest failing prefix) or where it cannot go on. */
export async function runChain(spec: ChainSpec, send: Send): Promise<ChainResult> {
  const steps: ChainStep[] = [];
  let past = true;
  const step = async (method: HttpCase['method'], path: string, json?: unknown): Promise<HttpOutcome> => {
    const o = await send({ method, path, route: path, ...(json === undefined ? {} : { headers: { 'content-type': 'application/json' }, body: JSON.stringify(json) }) });
    steps.push({ method, path, status: o.res?.status, error: o.error?.code });
    if (!o.res || [401, 403, 429].includes(o.res.status)) past = false;
    return o;
  };
  const fail = (oracle: string, signature: string, message: string): ChainResult => ({ violations: [{ oracle, signature, message: `${message} (step ${steps.length} of the chain: ${steps.map((s) => `${s.method} ${s.path} -> ${s.status ?? s.error}`).join(', ')})`, detail: spec.checker }], steps, past });
  const done = (): ChainResult => ({ violations: [], steps, past });
  const ok = (o: HttpOutcome) => o.res !== undefined && o.res.status >= 200 && o.res.status < 300;

  if (spec.checker === 'never-existed') {
    const o = await step('GET', `${BASE}/${spec.missingId}`);
    if (o.res && o.res.status !== 404 && o.res.status < 500 && ![401, 403, 429].includes(o.res.status)) return fail('sequence-unknown-id-404', `GET of an id never created -> ${o.res.status}`, `GET of the OAuth client id ${spec.missingId}, which was never created, answered ${o.res.status}; the document owes 404 ("resource does not exist")`);
    return done();
  }

  if (spec.checker === 'refused-create') {
    // Other cases create clients meanwhile: the refused one is told apart by a label of its own.
    const label = `${spec.label}-${randomBytes(6).toString('hex')}`;
    const mine = async () => {
      const o = await step('GET', BASE);
      const data = (o.res?.json as { data?: unknown } | undefined)?.data;
      return Array.isArray(data) ? data.filter((c) => (c as { label?: unknown })?.label === label).map((c) => idOf(c) ?? '?') : undefined;
    };
    if (!(await mine())) return done();
    // redirect_uri is required on create: a client without it is refused.
    const o = await step('POST', BASE, { label });
    if (!o.res || o.res.status < 400 || o.res.status >= 500) return done();
    const added = (await mine()) ?? [];
    if (added.length) return fail('sequence-refused-create', `create refused with ${o.res.status} -> a new client listed`, `a create refused with ${o.res.status} left OAuth client(s) ${added.join(', ')} behind`);
    return done();
  }

  // lifecycle
  const created = await step('POST', BASE, { label: spec.label, redirect_uri: REDIRECT });
  const id = ok(created) ? idOf(created.res!.json) : undefined;
  if (id === undefined) return done(); // not created: nothing to follow (a refusal is the single-request kinds' to judge)
  const path = `${BASE}/${id}`;
  const read1 = await step('GET', path);
  if (read1.res?.status === 404) return fail('sequence-read-after-write', 'GET after create -> 404', `the OAuth client ${id} just created was not found`);
  if (!ok(read1)) return done();
  if ((read1.res!.json as { label?: unknown })?.label !== spec.label) return fail('sequence-read-after-write', 'GET after create -> other label', `the OAuth client ${id} read back without the label it was created with`);
  const updated = await step('PUT', path, { label: spec.newLabel });
  if (ok(updated)) {
    const read2 = await step('GET', path);
    if (ok(read2) && (read2.res!.json as { label?: unknown })?.label !== spec.newLabel) return fail('sequence-read-after-write', 'GET after update -> old label', `the OAuth client ${id} read back without the label it was updated to`);
  }
  const deleted = await step('DELETE', path);
  if (!ok(deleted)) return done();
  const gone = await step('GET', path);
  if (gone.res && gone.res.status !== 404 && gone.res.status < 500) return fail('sequence-deleted-gone', `GET after DELETE -> ${gone.res.status}`, `the OAuth client ${id} was deleted, and a read of it answered ${gone.res.status}; the document owes 404 ("resource does not exist")`);
  const again = await step('DELETE', path);
  if (again.res && again.res.status !== 404 && again.res.status < 500) return fail('sequence-deleted-gone', `DELETE after DELETE -> ${again.res.status}`, `the OAuth client ${id} was deleted, and deleting it again answered ${again.res.status}; the document owes 404`);
  return done();
}
