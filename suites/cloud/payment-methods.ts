// The payment-method rows of "### Payment methods and payments" in cloud-api.md (with "Limits",
// "Versioning" and "Events"): list on both prefixes, add only on /v4, at most 6 active, the
// default cannot be deleted, make-default, the payment_method_add event.
// The checks work on the second account (otherAccount), whose events list no other check pages
// through, and declare writes 'cloud:payment-methods' (the runner never runs two of them at once):
// the 6 active methods of an account are shared state. Each deletes the methods it added.
import { check, type CloudCheckContext } from '../../src/core/check.ts';
import type { HttpResponse } from '../../src/clients/http/client.ts';
import type { CloudCaller } from '../../src/clients/cloud/session.ts';
import { envelope, expectRefused, expectStatus, holdsValue, isJsonObject, brief, notAboutTheRule, show, waitFor } from './support.ts';
import { expectNotFound, expectRefusedOr404, walkPages } from './controls.ts';

const section = 'Payment methods and payments';
const file = 'cloud-api.md';
const METHODS = '/account/payment-methods';
/** "at most 60 payment methods added per day" (line 233). */
const MAX_ADDED_PER_DAY = 60;

type Row = Record<string, unknown>;

export function card(): Record<string, unknown> {
  return { card_number: '4111111111111111', expiry_month: 12, expiry_year: new Date().getUTCFullYear() + 3, cvv: '123' };
}

const idsOf = (rows: Row[]) => rows.map((r) => r.id).filter((v): v is number => Number.isInteger(v));
/** The ids listed now and not in `before`, by set (a server may list any number: a per-id scan of `before` is quadratic). */
const newIds = (now: Row[], before: Row[]): number[] => {
  const old = new Set(idsOf(before));
  return idsOf(now).filter((id) => !old.has(id));
};

async function activeMethods(ctx: CloudCheckContext, api: CloudCaller): Promise<Row[]> {
  return walkPages(ctx, api, METHODS, `GET /v4${METHODS} as account B`);
}

/** POST /v4/account/payment-methods of a non-default card; fails the check unless 200. */
async function addMethod(api: CloudCaller, what: string): Promise<void> {
  const res = await api.post(METHODS, { type: 'credit_card', is_default: false, data: card() });
  expectStatus(res, 200, `POST /v4${METHODS} {"type":"credit_card","is_default":false,...} ${what}`);
}

/** addMethod as a set-up step (inconclusive when refused). */
function addMethodForSetup(ctx: CloudCheckContext, api: CloudCaller, what: string): Promise<void> {
  return ctx.setup(`add a payment method ${what}`, () => addMethod(api, what), { seeAlso: 'cloud.payment-methods.add-event' });
}

/**
 * Deletes the active methods not in `keep` (those this check added). A read or delete that gets
 * no answer (a busy server) is tried again a few times: a method left behind would take the room
 * of the next check (at most 6 active).
 */
async function deleteAdded(ctx: CloudCheckContext, api: CloudCaller, keep: readonly number[]): Promise<void> {
  const done = new Set<number>();
  const kept = new Set(keep);
  for (let attempt = 0; attempt < 4; attempt++) {
    const rows = await activeMethods(ctx, api).catch(() => undefined);
    if (!rows) {
      await new Promise((r) => setTimeout(r, 250 * (attempt + 1)));
      continue;
    }
    // A deleted method may still be listed (deactivated, line 117): each is deleted once answered.
    const defaults = new Set(rows.filter((r) => r.is_default === true).map((r) => r.id));
    const left = idsOf(rows).filter((id) => !kept.has(id) && !done.has(id) && !defaults.has(id));
    if (!left.length) return;
    // More new methods than a day's adds are not this check's: a server that lists other methods
    // (or a different list on every read) must not get them deleted.
    if (left.length + done.size > MAX_ADDED_PER_DAY) {
      ctx.note(`cleanup: GET /v4${METHODS} lists ${left.length} method(s) not there before the check, more than the ${MAX_ADDED_PER_DAY} a day's adds allow (line 233); none deleted`);
      return;
    }
    for (const id of left) {
      const res = await api.delete(`${METHODS}/${id}`).catch(() => undefined);
      if (res) done.add(id);
    }
  }
}

/**
 * Runs `fn` with account B's caller and the ids of its listed methods; cleans up after. The checks
 * calling it declare writes 'cloud:payment-methods', so they never run beside each other.
 */
async function withMethods(ctx: CloudCheckContext, fn: (api: CloudCaller, before: Row[]) => Promise<void>): Promise<void> {
  const api = ctx.cloud.as('otherAccount');
  const before = await ctx.setup(`GET /v4${METHODS} as account B (its methods before the check)`, () => activeMethods(ctx, api), { seeAlso: 'cloud.payment-methods.list-both-prefixes' });
  try {
    await fn(api, before);
  } finally {
    await deleteAdded(ctx, api, idsOf(before));
  }
}

/**
 * The positive control of the checks refusing an add or a delete: a valid non-default method is
 * added on /v4 (the route serves a valid add) and, where `thenDelete`, deleted again (the DELETE
 * route serves a method that may be deleted), so the room of 6 active is as before.
 */
async function addControl(ctx: CloudCheckContext, api: CloudCaller, before: Row[], thenDelete: boolean): Promise<void> {
  await addMethodForSetup(ctx, api, 'as account B (the positive control: /v4 serves a valid add)');
  if (!thenDelete) return;
  await ctx.setup(`DELETE /v4${METHODS}/{paymentMethodId} of the method just added (the positive control)`, async () => {
    const added = newIds(await activeMethods(ctx, api), before);
    if (added.length !== 1) ctx.fail(`GET /v4${METHODS} after one add: expected one new method with an integer id, got ${show(added)}`);
    expectStatus(await api.delete(`${METHODS}/${added[0]}`), 200, `DELETE /v4${METHODS}/${added[0]} (a non-default method just added)`);
  }, { seeAlso: 'cloud.payment-methods.at-most-6-active' });
}

export const listBothPrefixes = check(
  {
    id: 'cloud.payment-methods.list-both-prefixes',
    title: 'The payment-method list is served under /v4 and /v4beta',
    protocol: 'cloud',
    section: 'Versioning',
    level: 'MUST',
    spec: { file, line: 242, quote: 'payment-method list and managed-database endpoints are served on both' },
    touches: ['GET /account/payment-methods'],
    faults: ['payment-methods-v4-only'],
  },
  async (ctx) => {
    const api = ctx.cloud.as('otherAccount');
    envelope(await api.get(METHODS), `GET /v4${METHODS}`);
    // /v4 serves the list (the positive control): a 404 under /v4beta is the list not served there.
    const beta = await api.get(METHODS, { prefix: 'v4beta' });
    const what = `GET /v4beta${METHODS} (GET /v4${METHODS} answered the list)`;
    notAboutTheRule(beta, what);
    ctx.expect(beta.status !== 404, `${what}: the list is served on both prefixes, got ${brief(beta)}`);
    envelope(beta, what);
  },
);

export const addOnlyOnV4 = check(
  {
    id: 'cloud.payment-methods.add-only-on-v4',
    title: 'Payment-method add is not served under /v4beta',
    protocol: 'cloud',
    section: 'Versioning',
    level: 'MUST',
    spec: { file, line: 242, quote: 'Payment-method add is served only on `/v4`' },
    touches: ['DELETE /account/payment-methods/{paymentMethodId}', 'GET /account/payment-methods', 'POST /account/payment-methods'],
    faults: ['payment-method-add-on-v4beta', 'payment-method-add-on-v4beta-day-spent'],
    reliesOn: ['cloud.payment-methods.list-both-prefixes', 'cloud.payment-methods.add-event'],
    tags: ['destructive'],
    writes: ['cloud:payment-methods'],
  },
  async (ctx) => {
    await withMethods(ctx, async (api, before) => {
      // /v4beta first, the positive control on /v4 right after: the day's adds (at most 60, line
      // 233) are not spent by the control before the /v4beta add is tried, and a /v4beta refusal
      // counts only where the same add is then taken on /v4 (so it was not for the day's limit, the
      // 6 active or the body, which both prefixes share).
      const what = `POST /v4beta${METHODS} {"type":"credit_card","is_default":false,...} (add is served only on /v4)`;
      const res = await api.post(METHODS, { type: 'credit_card', is_default: false, data: card() }, { prefix: 'v4beta' });
      notAboutTheRule(res, what);
      if (res.status >= 200 && res.status <= 299) return ctx.fail(`${what}: expected it not served (404) or refused, got ${brief(res)}`);
      // The positive control: /v4 serves the same add (then deleted, so there is room as before).
      await addControl(ctx, api, before, true);
      expectRefusedOr404(res, `${what}; the same add was taken on /v4 right after`);
    });
  },
);

export const addRequestFields = check(
  {
    id: 'cloud.payment-methods.add-request-fields',
    title: 'A payment-method add with a type other than credit_card, or without data, is refused',
    protocol: 'cloud',
    section: 'Resources and their fields',
    level: 'SHOULD',
    spec: { file, line: 36, quote: 'type (string, enum: credit_card; required), is_default (boolean; required), data (credit card object; required)' },
    touches: ['DELETE /account/payment-methods/{paymentMethodId}', 'GET /account/payment-methods', 'POST /account/payment-methods'],
    faults: ['payment-method-type-unchecked'],
    reliesOn: ['cloud.payment-methods.list-both-prefixes', 'cloud.payment-methods.add-event'],
    tags: ['destructive'],
    writes: ['cloud:payment-methods'],
  },
  async (ctx) => {
    await withMethods(ctx, async (api, before) => {
      // The positive control: the route takes a valid add (deleted again, so that a refusal below
      // is not for the 6 active).
      await addControl(ctx, api, before, true);
      const bodies: [string, Record<string, unknown>][] = [
        ['{"type":"bank_account","is_default":false,"data":{credit card}}', { type: 'bank_account', is_default: false, data: card() }],
        ['{"type":"credit_card","is_default":false} (no data)', { type: 'credit_card', is_default: false }],
      ];
      for (const [shown, body] of bodies) expectRefused(await api.post(METHODS, body), `POST /v4${METHODS} ${shown}`);
    });
  },
);

export const addEvent = check(
  {
    id: 'cloud.payment-methods.add-event',
    title: 'Adding a payment method answers {} and records a payment_method_add event',
    protocol: 'cloud',
    section: 'Events',
    level: 'MUST',
    spec: { file, line: 198, quote: '`payment_method_add` (generated when a payment method is successfully added)' },
    touches: ['DELETE /account/payment-methods/{paymentMethodId}', 'GET /account/events', 'GET /account/payment-methods', 'POST /account/payment-methods'],
    faults: ['no-payment-method-add-event'],
    reliesOn: ['cloud.payment-methods.list-both-prefixes'],
    tags: ['destructive'],
    writes: ['cloud:payment-methods'],
  },
  async (ctx) => {
    await withMethods(ctx, async (api, before) => {
      if (before.length >= 6) return ctx.inconclusive(`GET /v4${METHODS}: account B already has ${before.length} active payment methods (at most 6): no room to add one`);
      // Event fields are not shown (line 200): an event is known by its id where it has one, and
      // is about the action when the value payment_method_add appears in it, whatever the field.
      const key = (e: Record<string, unknown>) => JSON.stringify(e.id !== undefined ? e.id : e);
      const events = async () => (await walkPages(ctx, api, '/account/events', 'GET /v4/account/events as account B')).filter((e) => holdsValue(e, 'payment_method_add'));
      const seen = new Set((await ctx.setup('GET /v4/account/events as account B (the events before the add)', events)).map(key));
      const what = `POST /v4${METHODS} {"type":"credit_card","is_default":false,...} as account B`;
      const res = await api.post(METHODS, { type: 'credit_card', is_default: false, data: card() });
      // The event is about a successful add (line 198). A refused add is not observed before use
      // when it is the limit of 60 added per day (line 233), which earlier runs may have reached
      // and which the API shows no count of: then the rule is untested, not broken.
      await ctx.setup(`${what} (an add to look for the event of; at most 60 are added per day)`, async () => expectStatus(res, 200, what), { seeAlso: 'cloud.payment-methods.at-most-6-active' });
      ctx.expect(isJsonObject(res), `${what}: expected {}, got ${brief(res)}`);
      // The event may be listed a moment after the answer: read again for up to timeouts.backgroundMs.
      const fresh = await waitFor(ctx, async () => {
        const now = (await events()).filter((e) => !seen.has(key(e)));
        return now.length ? now : undefined;
      });
      ctx.expect(fresh, `GET /v4/account/events after ${what} answered 200: no new event with action payment_method_add within ${ctx.timeouts.backgroundMs} ms`);
    });
  },
);

export const atMostSixActive = check(
  {
    id: 'cloud.payment-methods.at-most-6-active',
    title: 'A 7th active payment method is refused; deleting one (deactivating it) makes room again',
    protocol: 'cloud',
    section: 'Limits',
    level: 'MUST',
    spec: { file, line: 233, quote: 'At most 6 active payment methods per account' },
    touches: ['DELETE /account/payment-methods/{paymentMethodId}', 'GET /account/payment-methods', 'POST /account/payment-methods'],
    faults: ['seventh-payment-method-accepted', 'deleted-payment-method-stays-active'],
    reliesOn: ['cloud.payment-methods.list-both-prefixes'],
    tags: ['destructive'],
    writes: ['cloud:payment-methods'],
  },
  async (ctx) => {
    await withMethods(ctx, async (api, before) => {
      // The document does not say that the list holds only active methods (a deleted one is
      // deactivated, line 117, and may still be listed), so the listed methods are not counted as
      // active. Known to be active: the default method (it cannot be deleted, line 117) and the
      // methods this check added and has not deleted. Adds are made one at a time until one is
      // refused or 7 are known to be active.
      const hasDefault = before.some((m) => m.is_default === true);
      const known = (added: number) => added + (hasDefault ? 1 : 0);
      const addWhat = (n: number) => `POST /v4${METHODS} {"type":"credit_card","is_default":false,...} as account B (active method ${n} at least: ${hasDefault ? 'the default method and ' : ''}this check's adds)`;
      let count = 0;
      let refused: { res: HttpResponse; what: string } | undefined;
      while (!refused && known(count) < 7) {
        const what = addWhat(known(count) + 1);
        const res = await api.post(METHODS, { type: 'credit_card', is_default: false, data: card() });
        if (res.status === 200) count++;
        else refused = { res, what };
      }
      if (!refused) return ctx.fail(`${addWhat(7)}: expected a refusal, got 200: ${count} methods added and none deleted${hasDefault ? ', besides the default method (which cannot be deleted)' : ''}, so at least 7 are active`);
      notAboutTheRule(refused.res, refused.what);
      if (known(count) < 6) {
        const others = before.filter((m) => m.is_default !== true).length;
        return ctx.inconclusive(
          `${refused.what}: refused (${brief(refused.res)}) with ${known(count)} methods known to be active; account B lists ${others} other method${others === 1 ? '' : 's'} from before the check, which may be active or deactivated (the document does not say the list holds only active ones) and are not this check's to delete, and the day's ${MAX_ADDED_PER_DAY} adds (line 233) may have been reached: 6 active methods cannot be shown, so the refusal cannot be put down to the limit of 6`,
          { seeAlso: 'cloud.payment-methods.add-event' },
        );
      }
      expectRefused(refused.res, refused.what);
      const full = await activeMethods(ctx, api);
      const added = newIds(full, before);
      if (added.length === 0) return ctx.inconclusive(`GET /v4${METHODS}: none of the ${count} methods this check added is listed with an integer id, so none can be deleted to make room again`);
      expectStatus(await api.delete(`${METHODS}/${added[0]}`), 200, `DELETE /v4${METHODS}/${added[0]} (a non-default method this check added)`);
      // The positive control: with one deleted (deactivated, line 117) an add is taken again, which
      // shows that the 7th was refused for the 6 active and not for something else.
      const what = `POST /v4${METHODS} {"type":"credit_card","is_default":false,...} after deleting one of 6 active methods`;
      const again = await api.post(METHODS, { type: 'credit_card', is_default: false, data: card() });
      if (again.status === 200) return;
      notAboutTheRule(again, what);
      // Refused with 5 active: either the deleted method still counts (this rule broken), or the
      // day's 60 adds (line 233) were reached, by this check's own adds or by earlier runs; the API
      // shows no count of those. Each successful add records a payment_method_add event (line 198)
      // listed for 90 days (line 197): fewer than 60 such events mean fewer than 60 adds today.
      const adds = await addEventsListed(ctx, api);
      if (adds === undefined || adds >= MAX_ADDED_PER_DAY) {
        return ctx.inconclusive(
          `${what}: refused (${brief(again)}), and so was the 7th add: account B's events ${adds === undefined ? 'could not be read' : `list ${adds} payment_method_add events that may be of the last day`}, so the day's limit of ${MAX_ADDED_PER_DAY} adds (line 233) may be what refused both, and the refusal of the 7th cannot be attributed to the 6-active rule: run again on another day`,
          { seeAlso: 'cloud.payment-methods.add-event' },
        );
      }
      ctx.fail(`${what}: expected 200, got ${brief(again)}: one of the 6 active methods was deleted (deactivated) and account B's events list only ${adds} payment_method_add events of the last day (fewer than the ${MAX_ADDED_PER_DAY} a day allowed), so a deleted method still counts against the 6 active`);
    });
  },
);

/** A date-time string (ISO 8601; without an offset it is UTC, line 20). */
const DATE_TIME = /^\d{4}-\d\d-\d\d[T ]\d\d:\d\d(?::\d\d(?:\.\d+)?)?(?:Z|[+-]\d\d:?\d\d)?$/i;

/** Every time a JSON value holds, in ms since the epoch. */
function timesIn(value: unknown, out: number[] = []): number[] {
  if (typeof value === 'string' && DATE_TIME.test(value)) {
    const t = Date.parse(/(?:Z|[+-]\d\d:?\d\d)$/i.test(value) ? value.replace(' ', 'T') : `${value.replace(' ', 'T')}Z`);
    if (!Number.isNaN(t)) out.push(t);
  } else if (Array.isArray(value)) for (const v of value) timesIn(v, out);
  else if (value !== null && typeof value === 'object') for (const v of Object.values(value)) timesIn(v, out);
  return out;
}

/**
 * Whether an event may be from the last day: event fields are not shown (line 200), so only an
 * event all of whose times are more than a day old (with 10 minutes for clocks apart) is not.
 */
function mayBeToday(event: Record<string, unknown>, now: number): boolean {
  const times = timesIn(event);
  return times.length === 0 || times.some((t) => t > now - 24 * 3600_000 - 10 * 60_000);
}

/**
 * How many payment_method_add events of the last day account B's events list holds (every page),
 * waiting up to timeouts.backgroundMs for those of the adds just made (an event may be listed a
 * moment after the answer) while fewer than 60 are listed; undefined when the list cannot be read.
 */
async function addEventsListed(ctx: CloudCheckContext, api: CloudCaller): Promise<number | undefined> {
  let last: number | undefined;
  await waitFor(ctx, async () => {
    const rows = await walkPages(ctx, api, '/account/events', 'GET /v4/account/events as account B').catch(() => undefined);
    if (rows) last = rows.filter((e) => holdsValue(e, 'payment_method_add') && mayBeToday(e, Date.now())).length;
    return last !== undefined && last >= MAX_ADDED_PER_DAY ? last : undefined;
  });
  return last;
}

export const defaultNotDeletable = check(
  {
    id: 'cloud.payment-methods.default-not-deletable',
    title: 'Deleting the default payment method is refused and it stays',
    protocol: 'cloud',
    section,
    level: 'MUST',
    spec: { file, line: 117, quote: 'deactivates; the default method cannot be deleted -> {}' },
    touches: ['DELETE /account/payment-methods/{paymentMethodId}', 'GET /account/payment-methods', 'GET /account/payment-methods/{paymentMethodId}', 'POST /account/payment-methods'],
    faults: ['default-payment-method-deletable', 'default-delete-refused-but-deactivated'],
    reliesOn: ['cloud.payment-methods.list-both-prefixes', 'cloud.payment-methods.add-event'],
    tags: ['destructive'],
    writes: ['cloud:payment-methods'],
  },
  async (ctx) => {
    await withMethods(ctx, async (api, before) => {
      const dflt = before.find((m) => m.is_default === true);
      if (!dflt || !Number.isInteger(dflt.id)) return ctx.inconclusive(`GET /v4${METHODS}: account B has no method with is_default true and an integer id`);
      // The positive control: the DELETE route deletes a non-default method.
      await addControl(ctx, api, before, true);
      const res = await api.delete(`${METHODS}/${dflt.id}`);
      expectRefused(res, `DELETE /v4${METHODS}/${dflt.id} (the default method)`);
      // "cannot be deleted": it stays, active and the default. The list (which holds the active
      // methods, maybe deactivated ones too) is read first: a view may still show a deactivated one.
      const listed = (await activeMethods(ctx, api)).find((m) => m.id === dflt.id);
      ctx.expect(listed?.is_default === true, `GET /v4${METHODS} after DELETE /v4${METHODS}/${dflt.id} of the default method was refused: expected it still listed with is_default true, got ${show(listed)}`);
      const still = await api.get(`${METHODS}/${dflt.id}`);
      expectStatus(still, 200, `GET /v4${METHODS}/${dflt.id} after its DELETE was refused`);
    });
  },
);

export const makeDefault = check(
  {
    id: 'cloud.payment-methods.make-default',
    title: 'make-default makes the method the only default one',
    protocol: 'cloud',
    section,
    level: 'MUST',
    spec: { file, line: 118, quote: '| POST | /account/payment-methods/{paymentMethodId}/make-default | account:read_write | read_write | -> {}; removes default from others |' },
    touches: ['DELETE /account/payment-methods/{paymentMethodId}', 'GET /account/payment-methods', 'POST /account/payment-methods', 'POST /account/payment-methods/{paymentMethodId}/make-default'],
    faults: ['make-default-keeps-others'],
    reliesOn: ['cloud.payment-methods.list-both-prefixes', 'cloud.payment-methods.add-event'],
    tags: ['destructive'],
    writes: ['cloud:payment-methods'],
  },
  async (ctx) => {
    await withMethods(ctx, async (api, before) => {
      const original = before.find((m) => m.is_default === true);
      if (!original) return ctx.inconclusive(`GET /v4${METHODS}: account B has no method with is_default true`);
      await addMethodForSetup(ctx, api, 'as account B');
      const added = await ctx.setup(`GET /v4${METHODS} (the method just added)`, async () => {
        const m = (await activeMethods(ctx, api)).find((x) => !idsOf(before).includes(x.id as number));
        if (!m || !Number.isInteger(m.id)) return ctx.fail(`GET /v4${METHODS} after adding a method: no new method with an integer id`);
        return m;
      });
      try {
        const what = `POST /v4${METHODS}/${added.id}/make-default`;
        const res = await api.post(`${METHODS}/${added.id}/make-default`);
        expectStatus(res, 200, what);
        const after = await activeMethods(ctx, api);
        const defaults = after.filter((m) => m.is_default === true).map((m) => m.id);
        ctx.expect(defaults.length === 1 && defaults[0] === added.id, `GET /v4${METHODS} after ${what}: expected only method ${added.id} with is_default true, got ${show(defaults)}`);
      } finally {
        await api.post(`${METHODS}/${original.id}/make-default`);
      }
    });
  },
);

export const neverExisted404 = check(
  {
    id: 'cloud.payment-methods.never-existed-404',
    title: 'GET and DELETE of a payment method that never existed answer 404',
    protocol: 'cloud',
    section: 'Errors',
    level: 'MUST',
    spec: { file, line: 214, quote: '| 404 | resource does not exist |' },
    touches: ['DELETE /account/payment-methods/{paymentMethodId}', 'GET /account/payment-methods', 'GET /account/payment-methods/{paymentMethodId}'],
    faults: ['delete-unknown-payment-method-200'],
    reliesOn: ['cloud.payment-methods.list-both-prefixes'],
    reads: ['cloud:payment-methods'],
  },
  async (ctx) => {
    const api = ctx.cloud.as('otherAccount');
    // The positive control: an existing method (the default one, which cannot be deleted, where
    // there is one) is found on the same route.
    const rows = await ctx.setup(`GET /v4${METHODS} as account B (an existing method)`, () => activeMethods(ctx, api), { seeAlso: 'cloud.payment-methods.list-both-prefixes' });
    const existing = rows.find((m) => m.is_default === true && Number.isInteger(m.id)) ?? rows.find((m) => Number.isInteger(m.id));
    if (!existing) return ctx.inconclusive(`GET /v4${METHODS} as account B lists no method with an integer id: that the view route finds an existing method cannot be shown`);
    await ctx.setup(`GET /v4${METHODS}/${existing.id as number} (the positive control: an existing method is found)`, async () => expectStatus(await api.get(`${METHODS}/${existing.id as number}`), 200, `GET /v4${METHODS}/${existing.id as number} (listed)`));
    // 0 is no id a method is given (ids are positive integers, as the listed ones are).
    const gone = 0;
    expectNotFound(await api.get(`${METHODS}/${gone}`), `GET /v4${METHODS}/${gone} (no method has id ${gone})`);
    expectNotFound(await api.delete(`${METHODS}/${gone}`), `DELETE /v4${METHODS}/${gone} (no method has id ${gone})`);
  },
);

export const checks = [neverExisted404, listBothPrefixes, addOnlyOnV4, addRequestFields, addEvent, atMostSixActive, defaultNotDeletable, makeDefault];
