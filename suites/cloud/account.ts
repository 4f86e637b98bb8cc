// The "### Account" table of cloud-api.md (with the Account row of "Resources and their fields"
// and "Versioning"): account update and the US zip rule, cancel, the deprecated credit-card add,
// settings, managed-enable, invoices, logins, maintenance (beta), notifications, transfer usage.
// Events read and seen are in events.ts.
import { check } from '../../src/core/check.ts';
import { brief, envelope, expectRefused, expectShape, expectStatus, expectWarnings, expectRefusedToRestricted, oneAtATime, sameValue, show } from './support.ts';

const section = 'Account';
const file = 'cloud-api.md';

/** The Account fields the document names. */
const ACCOUNT_FIELDS = ['address_1', 'address_2', 'city', 'company', 'country', 'email', 'first_name', 'last_name', 'phone', 'state', 'tax_id', 'zip'];

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

export const usZipRule = check(
  {
    id: 'cloud.account.us-zip-rule',
    title: 'PUT /account with country US and a zip that is no US zip code is refused',
    protocol: 'cloud',
    section: 'Resources and their fields',
    level: 'MUST',
    spec: { file, line: 30, quote: 'When country is set to US, zip must be a valid US zip code or an error is returned' },
    faults: ['us-zip-unchecked'],
    tags: ['destructive'],
  },
  async (ctx) => {
    const api = ctx.cloud.as('unrestricted');
    const before = await ctx.setup('GET /v4/account (to put its fields back)', async () => {
      const res = await api.get('/account');
      expectStatus(res, 200, 'GET /v4/account');
      return res;
    });
    const body = { country: 'US', zip: 'NOT-A-ZIP' };
    const what = `PUT /v4/account ${JSON.stringify(body)}`;
    const res = await api.put('/account', body);
    try {
      expectRefused(res, what);
    } finally {
      // A server that took it gets the fields it had back.
      if (res.status < 300 && isObject(before.json)) await api.put('/account', { country: before.json.country, zip: before.json.zip });
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
    faults: ['account-put-clears-omitted'],
    tags: ['destructive'],
  },
  async (ctx) => {
    const api = ctx.cloud.as('unrestricted');
    const original = await ctx.setup('GET /v4/account (the fields before the PUT)', async () => {
      const before = await api.get('/account');
      expectStatus(before, 200, 'GET /v4/account');
      if (!isObject(before.json)) return ctx.fail(`GET /v4/account: expected an Account object, got ${brief(before)}`);
      return before.json;
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
    faults: ['cancel-without-survey-link'],
    tags: ['destructive'],
  },
  async (ctx) => {
    // A throwaway account: cancelling one the other checks use would break them.
    const what = 'POST /v4/account/cancel {"comments":"conformance check"} as the cancellable account';
    const res = await ctx.cloud.as('cancellable').post('/account/cancel', { comments: 'conformance check' });
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
    faults: ['credit-card-add-200', 'credit-card-add-no-warnings'],
    tags: ['destructive'],
  },
  async (ctx) => {
    const card = { card_number: '4111111111111111', expiry_month: 12, expiry_year: new Date().getUTCFullYear() + 3, cvv: '123' };
    // The card may become one of account B's payment methods (the add it is superseded by): it
    // takes its turn with the payment-method checks, which count B's active methods.
    const res = await oneAtATime(ctx, 'payment-methods', () => ctx.cloud.as('otherAccount').post('/account/credit-card', card));
    expectWarnings(res, 299, 'POST /v4/account/credit-card {card_number, expiry_month, expiry_year, cvv} as account B');
  },
);

export const settingsUpdate = check(
  {
    id: 'cloud.account.settings-update',
    title: 'PUT /account/settings changes network_helper, and GET shows the change',
    protocol: 'cloud',
    section,
    level: 'MUST',
    spec: { file, line: 96, quote: 'Account settings -> Account settings (monitoring plan is updated elsewhere)' },
    faults: ['settings-put-ignored'],
    tags: ['destructive'],
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
    title: 'POST /account/settings/managed-enable answers {}',
    protocol: 'cloud',
    section,
    level: 'MUST',
    spec: { file, line: 97, quote: 'enables the managed service for the account and sends a welcome email -> {}' },
    faults: ['managed-enable-missing'],
    tags: ['destructive'],
  },
  async (ctx) => {
    const what = 'POST /v4/account/settings/managed-enable';
    const res = await ctx.cloud.as('unrestricted').post('/account/settings/managed-enable');
    expectStatus(res, 200, what);
    ctx.expect(isObject(res.json), `${what}: expected the JSON object {}, got ${brief(res)}`);
  },
);

export const transferUsage = check(
  {
    id: 'cloud.account.transfer-usage',
    title: 'GET /account/transfer answers a Transfer object',
    protocol: 'cloud',
    section,
    level: 'MUST',
    spec: { file, line: 94, quote: 'network utilization in GB for the current month -> Transfer' },
    faults: ['transfer-usage-missing'],
  },
  async (ctx) => {
    const res = await ctx.cloud.as('unrestricted').get('/account/transfer');
    expectStatus(res, 200, 'GET /v4/account/transfer');
    ctx.expect(isObject(res.json), `GET /v4/account/transfer: expected a JSON object (Transfer), got ${brief(res)}`);
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
    title: 'GET of an invoice that does not exist gets 404',
    protocol: 'cloud',
    section: 'Errors',
    level: 'MUST',
    spec: { file, line: 214, quote: '| 404 | resource does not exist |' },
    faults: ['unknown-invoice-200'],
  },
  async (ctx) => {
    expectStatus(await ctx.cloud.as('unrestricted').get('/account/invoices/0'), 404, 'GET /v4/account/invoices/0 (no invoice has id 0)');
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

export const maintenanceBeta = check(
  {
    id: 'cloud.account.maintenance-on-v4beta',
    title: 'The maintenance list answers under /v4beta',
    protocol: 'cloud',
    section,
    level: 'MUST',
    spec: { file, line: 92, quote: 'beta: use prefix /v4beta' },
    faults: ['maintenance-v4-only'],
  },
  async (ctx) => {
    envelope(await ctx.cloud.as('unrestricted').get('/account/maintenance', { prefix: 'v4beta' }), 'GET /v4beta/account/maintenance');
  },
);

export const maintenanceNotOnV4 = check(
  {
    id: 'cloud.account.maintenance-not-on-v4',
    title: 'The beta maintenance list is not served under /v4',
    protocol: 'cloud',
    section: 'Versioning',
    level: 'SHOULD',
    spec: { file, line: 242, quote: 'Beta endpoints (such as maintenance list) may receive breaking changes and must be called with the `/v4beta` prefix' },
    faults: ['maintenance-on-v4'],
  },
  async (ctx) => {
    expectRefused(await ctx.cloud.as('unrestricted').get('/account/maintenance'), 'GET /v4/account/maintenance (beta: /v4beta only)');
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
    faults: ['notifications-bare-array'],
  },
  async (ctx) => {
    envelope(await ctx.cloud.as('unrestricted').get('/account/notifications'), 'GET /v4/account/notifications');
  },
);

export const checks = [usZipRule, putLeavesOmittedUnchanged, cancelSurveyLink, creditCard299, settingsUpdate, managedEnable, transferUsage, invoices, unknownInvoice404, loginViewUnrestrictedOnly, maintenanceBeta, maintenanceNotOnV4, notifications];
