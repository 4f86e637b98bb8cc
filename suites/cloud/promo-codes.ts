// Promo codes ("### Payment methods and payments" and "Limits" of cloud-api.md): promo credit for
// an account younger than 90 days without promo credit yet, unrestricted users only. The code
// the target accepts is fixtures.promoCode; applying it burns it for account A.
import { check } from '../../src/core/check.ts';
import { brief, expectRefused, expectStatus, isJsonObject } from './support.ts';

const file = 'cloud-api.md';
const PROMO = '/account/promo-codes';

export const appliesOnce = check(
  {
    id: 'cloud.promo-codes.applies-once',
    title: 'A promo code applies to a young account once; a second one is refused (existing promo credit)',
    protocol: 'cloud',
    section: 'Limits',
    level: 'MUST',
    spec: { file, line: 234, quote: 'Promo credit: account younger than 90 days, no existing promo credit' },
    faults: ['second-promo-accepted'],
    tags: ['destructive'],
  },
  async (ctx) => {
    const code = ctx.cloud.fixture(ctx.cloud.fixtures.promoCode, 'promoCode');
    const api = ctx.cloud.as('unrestricted');
    const what = `POST /v4${PROMO} {"promo_code":"${code}"} as account A`;
    // The first apply is the precondition: a code already used up (an earlier run) or an account
    // that is not eligible leaves the rule untested.
    await ctx.setup(`${what} (the first apply)`, async () => {
      const first = await api.post(PROMO, { promo_code: code });
      expectStatus(first, 200, `${what} (fixtures.promoCode; account A must be younger than 90 days and have no promo credit yet)`);
      ctx.expect(isJsonObject(first), `${what}: expected a Promotion object, got ${brief(first)}`);
    });
    expectRefused(await api.post(PROMO, { promo_code: code }), `${what} again, now that account A has promo credit`);
  },
);

export const oldAccountRefused = check(
  {
    id: 'cloud.promo-codes.old-account-refused',
    title: 'A promo code is refused for an account 90 days old or older',
    protocol: 'cloud',
    section: 'Limits',
    level: 'MUST',
    spec: { file, line: 234, quote: 'Promo credit: account younger than 90 days' },
    faults: ['promo-age-unchecked'],
    tags: ['destructive'],
  },
  async (ctx) => {
    const code = ctx.cloud.fixture(ctx.cloud.fixtures.promoCode, 'promoCode');
    const age = ctx.cloud.fixture(ctx.cloud.fixtures.otherAccountAgeDays, 'otherAccountAgeDays');
    if (age < 90) return ctx.skip(`fixtures.otherAccountAgeDays is ${age}: needs an account 90 days old or older`);
    const res = await ctx.cloud.as('otherAccount').post(PROMO, { promo_code: code });
    expectRefused(res, `POST /v4${PROMO} {"promo_code":"${code}"} as account B (${age} days old)`);
  },
);

export const unrestrictedOnly = check(
  {
    id: 'cloud.promo-codes.unrestricted-only',
    title: 'A restricted user is refused adding a promo code',
    protocol: 'cloud',
    section: 'Payment methods and payments',
    level: 'MUST',
    spec: { file, line: 124, quote: '| POST | /account/promo-codes | account:read_only | unrestricted only | {promo_code} -> Promotion |' },
    faults: ['promo-code-open-to-restricted'],
    tags: ['destructive'],
  },
  async (ctx) => {
    const code = ctx.cloud.fixture(ctx.cloud.fixtures.promoCode, 'promoCode');
    const res = await ctx.cloud.as('restricted').post(PROMO, { promo_code: code });
    expectRefused(res, `POST /v4${PROMO} {"promo_code":"${code}"} as a restricted user`);
  },
);

export const checks = [appliesOnce, oldAccountRefused, unrestrictedOnly];
