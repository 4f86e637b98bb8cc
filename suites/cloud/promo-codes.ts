// Promo codes ("### Payment methods and payments" and "Limits" of cloud-api.md): promo credit for
// an account younger than 90 days without promo credit yet, unrestricted users only. The code
// the target accepts is fixtures.promoCode; applying it burns it for account A.
import { check } from '../../src/core/check.ts';
import { brief, errorsOf, expectRefused, expectRefusedToRestricted, expectShape, expectStatus, isJsonObject, notAboutTheRule, show } from './support.ts';

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
    const what = `POST /v4${PROMO} {"promo_code":"${code}"} as account B (${age} days old)`;
    const res = await ctx.cloud.as('otherAccount').post(PROMO, { promo_code: code });
    expectRefused(res, what);
    // A refusal whose every error names the submitted field promo_code is about the code (used up
    // by an earlier apply, unknown), not about the account's age (line 219: field only when the
    // error concerns that field): the age rule was not what refused it.
    const errors = errorsOf(res);
    if (errors.length > 0 && errors.every((e) => e.field === 'promo_code')) {
      return ctx.inconclusive(`${what}: refused for the submitted promo_code itself (${show(errors)}), not for the account's age: fixtures.promoCode must be a code the target still accepts`, { seeAlso: 'cloud.promo-codes.applies-once' });
    }
    ctx.note(`refused: ${show(errors)}`);
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
    faults: ['promo-code-open-to-restricted', 'unrestricted-only-as-read-write'],
    tags: ['destructive'],
  },
  async (ctx) => {
    const code = ctx.cloud.fixture(ctx.cloud.fixtures.promoCode, 'promoCode');
    await expectRefusedToRestricted(ctx, (api) => api.post(PROMO, { promo_code: code }), `POST /v4${PROMO} {"promo_code":"${code}"}`);
  },
);

export const codeLength = check(
  {
    id: 'cloud.promo-codes.code-1-to-32-characters',
    title: 'A promo_code missing or longer than 32 characters is an invalid request (400), the long one with field promo_code',
    protocol: 'cloud',
    section: 'Resources and their fields',
    level: 'MUST',
    spec: { file, line: 38, quote: '| Promo code request | promo_code (string, 1 to 32 characters, required) |' },
    faults: ['promo-code-length-unchecked'],
    tags: ['destructive'],
  },
  async (ctx) => {
    const api = ctx.cloud.as('unrestricted');
    // Neither request can apply a code: a missing one and one of 33 characters are both invalid.
    const missing = await api.post(PROMO, {});
    const missingWhat = `POST /v4${PROMO} {} (promo_code required)`;
    notAboutTheRule(missing, missingWhat);
    expectStatus(missing, 400, `${missingWhat}: "400 | invalid request (missing parameters etc.)"`);
    expectShape(missing, 'errorBody', missingWhat);
    const long = 'C'.repeat(33);
    const what = `POST /v4${PROMO} {"promo_code":"${long}"} (33 characters; 1 to 32 allowed)`;
    const res = await api.post(PROMO, { promo_code: long });
    notAboutTheRule(res, what);
    expectStatus(res, 400, what);
    expectShape(res, 'errorBody', what);
    // The problem is the submitted field promo_code (line 219: field present when the error concerns it).
    ctx.expect(errorsOf(res).some((e) => e.field === 'promo_code'), `${what}: no error has field "promo_code": ${show(errorsOf(res))}`);
  },
);

export const checks = [appliesOnce, oldAccountRefused, unrestrictedOnly, codeLength];
