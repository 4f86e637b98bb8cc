// The "### Account" table of cloud-api.md (with the Account row of "Resources and their fields"
// and "Versioning"): account update and the US zip rule, cancel, the deprecated credit-card add,
// settings, managed-enable, invoices, logins, maintenance (beta), notifications, transfer usage.
// Events read and seen are in events.ts.
import { check, type CloudCheckContext } from '../../src/core/check.ts';
import type { CloudCaller } from '../../src/clients/cloud/session.ts';
import { walkPages } from './controls.ts';
import { bodyField, brief, envelope, expectRefused, expectShape, expectStatus, expectWarnings, expectRefusedToRestricted, notAboutTheRule, oneAtATime, sameValue, show } from './support.ts';

const section = 'Account';
const file = 'cloud-api.md';

/** The Account fields the document names. */
const ACCOUNT_FIELDS = ['address_1', 'address_2', 'city', 'company', 'country', 'email', 'first_name', 'last_name', 'phone', 'state', 'tax_id', 'zip'];

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** A US zip code: five digits, optionally a dash and four more. */
const US_ZIP = /^\d{5}(-\d{4})?$/;

/** The account's own fields (account A): the checks that PUT them never run beside each other. */
const ACCOUNT = 'cloud:account';
/** Account A's settings. */
const SETTINGS = 'cloud:account-settings';

export const usZipRule = check(
  {
    id: 'cloud.account.us-zip-rule',
    title: 'PUT /account with country US and a zip that is no US zip code is refused',
    protocol: 'cloud',
    section: 'Resources and their fields',
    level: 'MUST',
    spec: { file, line: 30, quote: 'When country is set to US, zip must be a valid US zip code or an error is returned' },
    touches: ['GET /account', 'PUT /account'],
    faults: ['us-zip-unchecked'],
    tags: ['destructive'],
    writes: [ACCOUNT],
  },
  async (ctx) => {
    const api = ctx.cloud.as('unrestricted');
    const before = await ctx.setup('GET /v4/account (to put its fields back)', async () => {
      const res = await api.get('/account');
      expectStatus(res, 200, 'GET /v4/account');
      if (!isObject(res.json)) return ctx.fail(`GET /v4/account: expected an Account object, got ${brief(res)}`);
      return res.json;
    });
    // Positive control: the same route takes country US with a valid zip (the account's own, when
    // it is one), so a refusal of the bad zip is about the zip.
    const good = { country: 'US', zip: before.country === 'US' && typeof before.zip === 'string' && US_ZIP.test(before.zip) ? before.zip : '19106' };
    const body = { country: 'US', zip: 'NOT-A-ZIP' };
    const what = `PUT /v4/account ${JSON.stringify(body)}`;
    let changed = false;
    try {
      await ctx.setup(`PUT /v4/account ${JSON.stringify(good)} (a valid US zip code is taken)`, async () => {
        const res = await api.put('/account', good);
        changed = res.status < 300;
        expectStatus(res, 200, `PUT /v4/account ${JSON.stringify(good)}`);
      }, { seeAlso: 'cloud.account.put-leaves-omitted-unchanged' });
      const res = await api.put('/account', body);
      changed ||= res.status < 300;
      expectRefused(res, what);
    } finally {
      // The fields the account had, back.
      if (changed) await api.put('/account', { country: before.country, zip: before.zip });
    }
  },
);

export const putLeavesOmittedUnchanged = check(
  {
    id: 'cloud.account.put-leaves-omitted-unchanged',
    title: 'PUT /account with one field changes it and leaves every omitted field unchanged',
    protocol: 'cloud',
    section,
    level: 'MUST',
    spec: { file, line: 80, quote: 'Account (omitted fields unchanged) -> Account' },
    touches: ['GET /account', 'PUT /account'],
    faults: ['account-put-clears-omitted'],
    tags: ['destructive'],
    writes: [ACCOUNT],
  },
  async (ctx) => {
    const api = ctx.cloud.as('unrestricted');
    const original = await ctx.setup('GET /v4/account (the fields before the PUT)', async () => {
      const before = await api.get('/account');
      expectStatus(before, 200, 'GET /v4/account');
      const account = before.json;
      if (!isObject(account)) return ctx.fail(`GET /v4/account: expected an Account object, got ${brief(before)}`);
      // Fields to see unchanged: an Account showing none of the named ones leaves nothing to compare.
      if (!ACCOUNT_FIELDS.some((k) => k !== 'phone' && k in account)) return ctx.fail(`GET /v4/account shows none of the Account fields the document names (${ACCOUNT_FIELDS.join(', ')}): ${brief(before)}`);
      return account;
    });
    const phone = `555-${String(Date.now() % 10000).padStart(4, '0')}`;
    const what = `PUT /v4/account {"phone":"${phone}"}`;
    try {
      const res = await api.put('/account', { phone });
      expectStatus(res, 200, what);
      const after = await api.get('/account');
      expectStatus(after, 200, `GET /v4/account after ${what}`);
      const now = isObject(after.json) ? after.json : {};
      ctx.expect(now.phone === phone, `GET /v4/account after ${what}: expected phone ${show(phone)}, got ${show(now.phone)}`);
      const changed = ACCOUNT_FIELDS.filter((k) => k !== 'phone' && k in original && !sameValue(now[k], original[k]));
      ctx.expect(changed.length === 0, `GET /v4/account after ${what}: omitted fields changed: ${changed.map((k) => `${k} ${show(original[k])} -> ${show(now[k])}`).join(', ')}`);
    } finally {
      const restore: Record<string, unknown> = { phone: original.phone };
      for (const k of ACCOUNT_FIELDS) if (k in original) restore[k] = original[k];
      await api.put('/account', restore);
    }
  },
);

export const cancelSurveyLink = check(
  {
    id: 'cloud.account.cancel-survey-link',
    title: 'POST /account/cancel {comments} answers {survey_link} (cancels the account of tokens.cancellable)',
    protocol: 'cloud',
    section,
    level: 'MUST',
    spec: { file, line: 81, quote: '{comments} -> {survey_link}' },
    touches: ['POST /account/cancel'],
    faults: ['cancel-without-survey-link'],
    tags: ['destructive'],
  },
  async (ctx) => {
    // A throwaway account: cancelling one the other checks use would break them.
    const what = 'POST /v4/account/cancel {"comments":"conformance check"} as the cancellable account';
    const res = await ctx.cloud.as('cancellable').post('/account/cancel', { comments: 'conformance check' });
    notAboutTheRule(res, what);
    // 409 is the document's own refusal (the card on file cannot be charged); 401 is what a token of
    // an account cancelled by an earlier run gets: neither is the answer this rule is about.
    if (res.status === 409) return ctx.inconclusive(`${what}: answered 409 (the card on file cannot be charged, line 81): no cancel to read the answer of: ${brief(res)}`);
    if (res.status === 401) return ctx.inconclusive(`${what}: answered 401: the cancellable account's token is not accepted (an account cancelled by an earlier run?); tokens.cancellable needs a fresh account: ${brief(res)}`, { seeAlso: 'cloud.authentication.unauthenticated-401' });
    expectStatus(res, 200, what);
    expectShape(res, 'accountCancelResponse', what);
  },
);

export const creditCard299 = check(
  {
    id: 'cloud.account.credit-card-add-299',
    title: 'The deprecated credit-card add answers 299 with a warnings array',
    protocol: 'cloud',
    section: 'Versioning',
    level: 'MUST',
    spec: { file, line: 243, quote: 'Deprecated operations answer successfully with 299 where noted: credit-card add' },
    touches: ['DELETE /account/payment-methods/{paymentMethodId}', 'GET /account/payment-methods', 'POST /account/credit-card', 'POST /account/payment-methods', 'POST /account/payment-methods/{paymentMethodId}/make-default'],
    faults: ['credit-card-add-200', 'credit-card-add-no-warnings'],
    tags: ['destructive'],
    // The card may become one of account B's payment methods, which the payment-method checks count.
    writes: ['cloud:payment-methods'],
  },
  async (ctx) => {
    const card = { card_number: '4111111111111111', expiry_month: 12, expiry_year: new Date().getUTCFullYear() + 3, cvv: '123' };
    const api = ctx.cloud.as('otherAccount');
    const what = 'POST /v4/account/credit-card {card_number, expiry_month, expiry_year, cvv} as account B';
    // Linode API v4 "adds a credit card Payment Method to your account and sets it as the default
    // method": the card may become one of account B's payment methods (at most 6 active, 60 added
    // a day, line 233) and its default. It takes its turn with the payment-method checks, and what
    // it added is removed and the default given back, so a later run finds room again.
    await oneAtATime(ctx, 'payment-methods', async () => {
      const before = await paymentMethods(ctx, api);
      try {
        const res = await api.post('/account/credit-card', card);
        if (res.status >= 400 && res.status < 500 && ![404, 406, 415, 429].includes(res.status)) {
          // Refused: for the limits a payment method counts in, where a payment-method add is refused too.
          if (!before) return ctx.inconclusive(`${what}: refused, and account B's payment methods cannot be read (GET /v4/account/payment-methods), so whether it is at its limits (line 233) cannot be told: ${brief(res)}`, { seeAlso: 'cloud.payment-methods.list-both-prefixes' });
          const control = await api.post('/account/payment-methods', { type: 'credit_card', is_default: false, data: card });
          if (control.status < 200 || control.status > 299) return ctx.inconclusive(`${what}: refused, and so is POST /v4/account/payment-methods of a non-default card (${control.status}): account B may be at its limits (at most 6 active payment methods, 60 added a day, line 233), which the card, a payment method on Linode API v4, counts in: ${brief(res)}`, { seeAlso: 'cloud.payment-methods.at-most-6-active' });
        }
        expectWarnings(res, 299, what);
      } finally {
        if (before) await putBack(ctx, api, before);
      }
    });
  },
);

/** Account B's payment methods, every page; undefined where they cannot be read. */
async function paymentMethods(ctx: CloudCheckContext, api: CloudCaller): Promise<Record<string, unknown>[] | undefined> {
  return walkPages(ctx, api, '/account/payment-methods', 'GET /v4/account/payment-methods as account B').catch(() => undefined);
}

/**
 * Best effort, not judged: the payment methods added since `before` deleted, the default of
 * `before` made the default again first (the default cannot be deleted, line 117).
 */
async function putBack(ctx: CloudCheckContext, api: CloudCaller, before: Record<string, unknown>[]): Promise<void> {
  const after = await paymentMethods(ctx, api);
  if (!after) return;
  const known = new Set(before.map((m) => m.id));
  const added = after.filter((m) => Number.isInteger(m.id) && !known.has(m.id));
  if (!added.length) return;
  const oldDefault = before.find((m) => m.is_default === true)?.id;
  if (Number.isInteger(oldDefault) && after.find((m) => m.id === oldDefault)?.is_default !== true) await api.post(`/account/payment-methods/${oldDefault}/make-default`).catch(() => undefined);
  for (const m of added) await api.delete(`/account/payment-methods/${m.id}`).catch(() => undefined);
}

export const settingsUpdate = check(
  {
    id: 'cloud.account.settings-update',
    title: 'PUT /account/settings changes network_helper, and GET shows the change',
    protocol: 'cloud',
    section,
    level: 'MUST',
    spec: { file, line: 96, quote: 'Account settings -> Account settings (monitoring plan is updated elsewhere)' },
    touches: ['GET /account/settings', 'PUT /account/settings'],
    faults: ['settings-put-ignored'],
    tags: ['destructive'],
    writes: [SETTINGS],
  },
  async (ctx) => {
    const api = ctx.cloud.as('unrestricted');
    const current = await ctx.setup('GET /v4/account/settings (network_helper before the PUT)', async () => {
      const before = await api.get('/account/settings');
      expectStatus(before, 200, 'GET /v4/account/settings');
      expectShape(before, 'accountSettings', 'GET /v4/account/settings');
      const value = (before.json as { network_helper?: unknown }).network_helper;
      if (typeof value !== 'boolean') return ctx.fail(`GET /v4/account/settings: network_helper (boolean) missing: ${brief(before)}`);
      return value;
    });
    const what = `PUT /v4/account/settings {"network_helper":${!current}}`;
    try {
      const res = await api.put('/account/settings', { network_helper: !current });
      expectStatus(res, 200, what);
      expectShape(res, 'accountSettings', what);
      const after = await api.get('/account/settings');
      const now = (after.json as { network_helper?: unknown } | undefined)?.network_helper;
      ctx.expect(now === !current, `GET /v4/account/settings after ${what}: network_helper is ${show(now)}`);
    } finally {
      await api.put('/account/settings', { network_helper: current });
    }
  },
);

export const managedEnable = check(
  {
    id: 'cloud.account.managed-enable',
    title: 'POST /account/settings/managed-enable answers {} (a refusal only where the managed service is already enabled)',
    protocol: 'cloud',
    section,
    level: 'MUST',
    spec: { file, line: 97, quote: 'enables the managed service for the account and sends a welcome email -> {}' },
    touches: ['GET /account/settings', 'POST /account/settings/managed-enable'],
    faults: ['managed-enable-refused'],
    // Gated (targets opt in): the enable cannot be undone through the API and leaves a paid
    // service on; a later run meets it enabled and is inconclusive where the server refuses again.
    tags: ['destructive', 'irreversible'],
    writes: [SETTINGS],
  },
  async (ctx) => {
    const api = ctx.cloud.as('unrestricted');
    // Positive control: the settings the enable belongs to are served ("Account settings ... also
    // covers the managed-service subscription", line 33). Linode API v4 shows that subscription as
    // the boolean `managed`; the document does not name it, so it is read only where present.
    const before = await ctx.setup('GET /v4/account/settings (the settings the managed service belongs to)', async () => {
      const res = await api.get('/account/settings');
      expectStatus(res, 200, 'GET /v4/account/settings');
      expectShape(res, 'accountSettings', 'GET /v4/account/settings');
      if (typeof bodyField(res, 'network_helper') !== 'boolean') return ctx.fail(`GET /v4/account/settings: network_helper (boolean) missing: ${brief(res)}`);
      return res.json as Record<string, unknown>;
    }, { seeAlso: 'cloud.account.settings-update' });
    const what = 'POST /v4/account/settings/managed-enable';
    const res = await api.post('/account/settings/managed-enable');
    notAboutTheRule(res, what);
    if (res.status >= 400 && res.status < 500 && res.status !== 404) {
      // An enable of what is already enabled may be refused (the document does not say): only a
      // refusal while the settings show it off is a deviation.
      if (before.managed === true) return ctx.inconclusive(`${what}: refused, and GET /v4/account/settings showed managed: true before (enabled already, e.g. by an earlier run; it cannot be undone through the API): a second enable's refusal is not this rule: ${brief(res)}`);
      if (before.managed !== false) return ctx.inconclusive(`${what}: refused, and GET /v4/account/settings does not show whether the managed service is already enabled (no boolean managed, as Linode API v4 names it): the refusal may be for that: ${brief(res)}`);
      ctx.fail(`${what}: refused although GET /v4/account/settings showed managed: false (not enabled): expected {}, got ${brief(res)}`);
    }
    expectStatus(res, 200, what);
    ctx.expect(isObject(res.json), `${what}: expected the JSON object {}, got ${brief(res)}`);
    if (typeof before.managed === 'boolean') {
      const after = await api.get('/account/settings');
      const now = bodyField(after, 'managed');
      ctx.expect(now === true, `GET /v4/account/settings after ${what} answered {}: managed is ${show(now)}, the managed service was not enabled`);
    }
    if (before.managed === true) ctx.note('the managed service was enabled before this check (an earlier run): the enable was accepted again');
  },
);

export const transferUsage = check(
  {
    id: 'cloud.account.transfer-usage',
    title: "GET /account/transfer answers a Transfer object stating the month's network utilization",
    protocol: 'cloud',
    section,
    level: 'MUST',
    spec: { file, line: 94, quote: 'network utilization in GB for the current month -> Transfer' },
    touches: ['GET /account/transfer'],
    faults: ['transfer-usage-missing'],
  },
  async (ctx) => {
    const what = 'GET /v4/account/transfer';
    const res = await ctx.cloud.as('unrestricted').get('/account/transfer');
    expectStatus(res, 200, what);
    const body = res.json;
    if (!isObject(body)) return ctx.fail(`${what}: expected a JSON object (Transfer), got ${brief(res)}`);
    // Transfer fields are not shown (line 51) beyond the utilization in GB: a number. Linode API v4
    // writes it as `used` (beside `quota` and `billable`); other names are not failed.
    const numbers = Object.keys(body).filter((k) => typeof body[k] === 'number' && Number.isFinite(body[k] as number) && (body[k] as number) >= 0);
    ctx.expect(numbers.length > 0, `${what}: a Transfer states the network utilization in GB for the current month, yet the object holds no non-negative number: ${brief(res)}`);
    if ('used' in body) ctx.expect(typeof body.used === 'number' && body.used >= 0, `${what}: used (the utilization in GB, as Linode API v4 names it) is ${show(body.used)}, not a number of GB`);
  },
);

export const invoices = check(
  {
    id: 'cloud.account.invoices',
    title: 'Invoices: the list, one invoice by its id, and its items as a list',
    protocol: 'cloud',
    section,
    level: 'MUST',
    spec: { file, line: 89, quote: '| GET | /account/invoices/{invoiceId}/items | account:read_only | read_only | -> list of InvoiceItem |' },
    touches: ['GET /account/invoices', 'GET /account/invoices/{invoiceId}', 'GET /account/invoices/{invoiceId}/items'],
    faults: ['invoice-items-bare-array'],
  },
  async (ctx) => {
    const api = ctx.cloud.as('unrestricted');
    const list = await ctx.setup('GET /v4/account/invoices (an invoice to view)', async () => envelope(await api.get('/account/invoices'), 'GET /v4/account/invoices'));
    const id = list.data.map((i) => i.id).find((v) => Number.isInteger(v));
    if (id === undefined) return ctx.inconclusive('GET /v4/account/invoices lists no invoice with an integer id (Invoice fields are not shown)');
    const one = await api.get(`/account/invoices/${id}`);
    expectStatus(one, 200, `GET /v4/account/invoices/${id}`);
    ctx.expect(isObject(one.json), `GET /v4/account/invoices/${id}: expected an Invoice object, got ${brief(one)}`);
    envelope(await api.get(`/account/invoices/${id}/items`), `GET /v4/account/invoices/${id}/items`);
  },
);

export const unknownInvoice404 = check(
  {
    id: 'cloud.account.unknown-invoice-404',
    title: 'GET of an invoice that does not exist gets 404 (where an invoice that exists is found)',
    protocol: 'cloud',
    section: 'Errors',
    level: 'MUST',
    spec: { file, line: 214, quote: '| 404 | resource does not exist |' },
    touches: ['GET /account/invoices', 'GET /account/invoices/{invoiceId}'],
    faults: ['unknown-invoice-200'],
  },
  async (ctx) => {
    const api = ctx.cloud.as('unrestricted');
    // Positive control: the route finds an invoice that exists, so its 404 says "does not exist".
    const list = await ctx.setup('GET /v4/account/invoices (an invoice that exists)', async () => envelope(await api.get('/account/invoices'), 'GET /v4/account/invoices'), { seeAlso: 'cloud.account.invoices' });
    const ids = list.data.map((i) => i.id).filter((v): v is number => Number.isInteger(v));
    if (!ids.length) return ctx.inconclusive('GET /v4/account/invoices lists no invoice with an integer id: the route cannot be seen to find one that exists');
    await ctx.setup(`GET /v4/account/invoices/${ids[0]} (an invoice of the list is found)`, async () => expectStatus(await api.get(`/account/invoices/${ids[0]}`), 200, `GET /v4/account/invoices/${ids[0]}`), { seeAlso: 'cloud.account.invoices' });
    if (ids.includes(0)) return ctx.inconclusive('GET /v4/account/invoices lists an invoice with id 0: no id known never to have existed');
    expectStatus(await api.get('/account/invoices/0'), 404, 'GET /v4/account/invoices/0 (no invoice has id 0; ids are positive integers)');
  },
);

export const loginViewUnrestrictedOnly = check(
  {
    id: 'cloud.account.login-view-unrestricted-only',
    title: 'GET /account/logins/{loginId} answers an unrestricted user and refuses a restricted one',
    protocol: 'cloud',
    section,
    level: 'MUST',
    spec: { file, line: 91, quote: 'loginId integer; unrestricted users only -> Login' },
    touches: ['GET /account/logins', 'GET /account/logins/{loginId}'],
    faults: ['login-view-open-to-restricted', 'unrestricted-only-as-read-write'],
  },
  async (ctx) => {
    const list = await ctx.setup('GET /v4/account/logins (a login to view)', async () => envelope(await ctx.cloud.as('unrestricted').get('/account/logins'), 'GET /v4/account/logins'), { seeAlso: 'cloud.authentication.unrestricted-only-refused' });
    const id = list.data.map((l) => l.id).find((v) => Number.isInteger(v));
    if (id === undefined) return ctx.inconclusive('GET /v4/account/logins lists no login with an integer id');
    const mine = await ctx.cloud.as('unrestricted').get(`/account/logins/${id}`);
    expectStatus(mine, 200, `GET /v4/account/logins/${id} as an unrestricted user`);
    await expectRefusedToRestricted(ctx, (api) => api.get(`/account/logins/${id}`), `GET /v4/account/logins/${id}`);
  },
);

export const unknownLogin404 = check(
  {
    id: 'cloud.account.unknown-login-404',
    title: 'GET of a login that does not exist gets 404 (where a login of the list is found)',
    protocol: 'cloud',
    section: 'Errors',
    level: 'MUST',
    spec: { file, line: 214, quote: '| 404 | resource does not exist |' },
    touches: ['GET /account/logins', 'GET /account/logins/{loginId}'],
    faults: ['unknown-login-200'],
  },
  async (ctx) => {
    const api = ctx.cloud.as('unrestricted');
    // Positive control: the route finds a login of the list (as an unrestricted user: logins are
    // for unrestricted users only), so its 404 says "does not exist".
    const list = await ctx.setup('GET /v4/account/logins (a login that exists)', async () => envelope(await api.get('/account/logins'), 'GET /v4/account/logins'), { seeAlso: 'cloud.account.login-view-unrestricted-only' });
    const ids = list.data.map((l) => l.id).filter((v): v is number => Number.isInteger(v));
    if (!ids.length) return ctx.inconclusive('GET /v4/account/logins lists no login with an integer id: the route cannot be seen to find one that exists');
    await ctx.setup(`GET /v4/account/logins/${ids[0]} (a login of the list is found)`, async () => expectStatus(await api.get(`/account/logins/${ids[0]}`), 200, `GET /v4/account/logins/${ids[0]}`), { seeAlso: 'cloud.account.login-view-unrestricted-only' });
    if (ids.includes(0)) return ctx.inconclusive('GET /v4/account/logins lists a login with id 0: no id known never to have existed');
    expectStatus(await api.get('/account/logins/0'), 404, 'GET /v4/account/logins/0 (no login has id 0; ids are positive integers)');
  },
);

export const maintenanceBeta = check(
  {
    id: 'cloud.account.maintenance-on-v4beta',
    title: 'The maintenance list answers under /v4beta',
    protocol: 'cloud',
    section,
    level: 'MUST',
    spec: { file, line: 92, quote: 'beta: use prefix /v4beta' },
    touches: ['GET /account/maintenance'],
    faults: ['maintenance-v4-only'],
  },
  async (ctx) => {
    const api = ctx.cloud.as('unrestricted');
    const beta = await api.get('/account/maintenance', { prefix: 'v4beta' });
    if (beta.status === 404) {
      // Not found under /v4beta: a deviation where the list is served (under /v4), else a server
      // without the list at all (inconclusive, in envelope).
      const stable = await api.get('/account/maintenance');
      ctx.expect(stable.status !== 200, `GET /v4beta/account/maintenance answered ${brief(beta)}, yet GET /v4/account/maintenance answers ${brief(stable)}: the beta list is served, but not under /v4beta where the document says to call it`);
    }
    envelope(beta, 'GET /v4beta/account/maintenance');
  },
);

export const maintenanceNotOnV4 = check(
  {
    id: 'cloud.account.maintenance-not-on-v4',
    title: 'The beta maintenance list, served under /v4beta, is not served under /v4',
    protocol: 'cloud',
    section: 'Versioning',
    level: 'SHOULD',
    spec: { file, line: 242, quote: 'Beta endpoints (such as maintenance list) may receive breaking changes and must be called with the `/v4beta` prefix' },
    touches: ['GET /account/maintenance'],
    faults: ['maintenance-on-v4'],
    reliesOn: ['cloud.account.maintenance-on-v4beta'],
  },
  async (ctx) => {
    const api = ctx.cloud.as('unrestricted');
    // Positive control: the list is served, under /v4beta; then /v4 refusing it (404 included: the
    // rule is that it is not there) is the rule, not a server without the list.
    await ctx.setup('GET /v4beta/account/maintenance (the list served under the beta prefix)', async () => envelope(await api.get('/account/maintenance', { prefix: 'v4beta' }), 'GET /v4beta/account/maintenance'), { seeAlso: 'cloud.account.maintenance-on-v4beta' });
    const what = 'GET /v4/account/maintenance (beta: /v4beta only)';
    const res = await api.get('/account/maintenance');
    notAboutTheRule(res, what);
    ctx.expect(res.status >= 400 && res.status < 500, `${what}: expected a refusal (the beta list is not served under /v4), got ${brief(res)}`);
  },
);

export const notifications = check(
  {
    id: 'cloud.account.notifications-list',
    title: 'GET /account/notifications answers a list',
    protocol: 'cloud',
    section,
    level: 'MUST',
    spec: { file, line: 93, quote: '-> list of Notification' },
    touches: ['GET /account/notifications'],
    faults: ['notifications-bare-array'],
  },
  async (ctx) => {
    envelope(await ctx.cloud.as('unrestricted').get('/account/notifications'), 'GET /v4/account/notifications');
  },
);

export const checks = [usZipRule, putLeavesOmittedUnchanged, cancelSurveyLink, creditCard299, settingsUpdate, managedEnable, transferUsage, invoices, unknownInvoice404, loginViewUnrestrictedOnly, unknownLogin404, maintenanceBeta, maintenanceNotOnV4, notifications];
