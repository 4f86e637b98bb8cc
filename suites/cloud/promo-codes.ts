// Promo codes ("### Payment methods and payments" and "Limits" of cloud-api.md): promo credit for
// an account younger than 90 days without promo credit yet, unrestricted users only. The code
// the target accepts is fixtures.promoCode (and fixtures.secondPromoCode, another one, which only
// applies-once sends, after the first has been applied); applying it burns it for account A (applies-once
// applies it, or old-account-refused's positive control does, whichever of the two comes first
// in a run: they take turns, and the other reads the run's record of that apply).
import type { CloudCheckContext } from '../../src/core/check.ts';
import type { CloudCaller } from '../../src/clients/cloud/session.ts';
import { check } from '../../src/core/check.ts';
import type { HttpResponse } from '../../src/clients/http/client.ts';
import { bodyField, brief, errorsOf, expectRefused, expectShape, expectStatus, isJsonObject, notAboutTheRule, notServed, oneAtATime, show } from './support.ts';

const file = 'cloud-api.md';
const PROMO = '/account/promo-codes';

/** The run's record (shared by the checks of one run) that fixtures.promoCode was applied to account A. */
const APPLIED_TO_A = 'promo-codes: fixtures.promoCode applied to account A';

interface AppliedToA {
  /** The check whose request was answered 200. */
  by: string;
  at: string;
}

/** Whether this run already applied the code to account A (200), and by which check. */
async function appliedToA(ctx: CloudCheckContext): Promise<AppliedToA | undefined> {
  return (await ctx.cloud.target.nodePool.shared.get(APPLIED_TO_A)) as AppliedToA | undefined;
}

function recordAppliedToA(ctx: CloudCheckContext, by: string): void {
  ctx.cloud.target.nodePool.shared.set(APPLIED_TO_A, Promise.resolve({ by, at: new Date().toISOString() } satisfies AppliedToA));
}

/**
 * The account's promo credit where the server shows it: Account fields beyond the named ones are
 * not shown (line 51); the real service (Linode API v4) writes it as `active_promotions`, an array
 * of Promotion. Undefined where the Account has no such array.
 */
async function promotionsOf(api: CloudCaller, what: string): Promise<unknown[] | undefined> {
  const res = await api.get('/account');
  expectStatus(res, 200, what);
  const promotions = bodyField(res, 'active_promotions');
  return Array.isArray(promotions) ? promotions : undefined;
}

export const appliesOnce = check(
  {
    id: 'cloud.promo-codes.applies-once',
    title: 'A promo code applies to a young account once; a second one is refused (existing promo credit)',
    protocol: 'cloud',
    section: 'Limits',
    level: 'MUST',
    spec: { file, line: 234, quote: 'Promo credit: account younger than 90 days, no existing promo credit' },
    touches: ['GET /account', 'POST /account/promo-codes'],
    faults: ['second-promo-accepted', 'promo-second-code-accepted'],
    tags: ['destructive'],
    writes: ['cloud:promo-credit'],
  },
  async (ctx) => {
    const code = ctx.cloud.fixture(ctx.cloud.fixtures.promoCode, 'promoCode');
    const api = ctx.cloud.as('unrestricted');
    const what = `POST /v4${PROMO} {"promo_code":"${code}"} as account A`;
    await oneAtATime(ctx, 'promo-codes', async () => {
      // The first apply is the precondition: made here, or already made in this run by the
      // positive control of cloud.promo-codes.old-account-refused (answered 200 then).
      const earlier = await appliedToA(ctx);
      if (earlier) {
        ctx.note(`the first apply of ${code} to account A was made earlier in this run, by ${earlier.by} (answered 200 at ${earlier.at})`);
      } else {
        // A code already applied (an earlier run) is found out before use where the Account shows
        // its promotions; otherwise the first apply's refusal says it.
        await ctx.setup('GET /v4/account as account A (its active_promotions, where shown: promo credit already there?)', async () => {
          const promotions = await promotionsOf(api, 'GET /v4/account as account A');
          if (promotions?.length) ctx.fail(`account A already has promo credit (active_promotions: ${show(promotions)}), e.g. from an earlier run: the first apply cannot be made; testing this again needs an account A without promo credit`);
        });
        await ctx.setup(`${what} (the first apply)`, async () => {
          const first = await api.post(PROMO, { promo_code: code });
          expectStatus(first, 200, `${what} (fixtures.promoCode; account A must be younger than 90 days and have no promo credit yet)`);
          recordAppliedToA(ctx, 'cloud.promo-codes.applies-once');
          ctx.expect(isJsonObject(first), `${what}: expected a Promotion object, got ${brief(first)}`);
        });
      }
      // "no existing promo credit" is about the account, not the code: the same code again, and a
      // second code the target accepts for a young account without credit (fixtures.secondPromoCode),
      // must both be refused. A server keeping the rule per code refuses only the first.
      expectRefused(await api.post(PROMO, { promo_code: code }), `${what} again, now that account A has promo credit`);
      const second = ctx.cloud.fixtures.secondPromoCode;
      if (!second || second === code) {
        ctx.note(`no fixtures.secondPromoCode (another code the target accepts for a young account without promo credit): only the same code was sent again; a server refusing only a code the account already applied is not told apart (untested)`);
        return;
      }
      const secondWhat = `POST /v4${PROMO} {"promo_code":"${second}"} (fixtures.secondPromoCode, a different code) as account A, which has promo credit`;
      expectRefused(await api.post(PROMO, { promo_code: second }), `${secondWhat}: a young account with promo credit gets no more ("no existing promo credit", line 234)`);
    });
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
    touches: ['GET /account', 'POST /account/promo-codes'],
    faults: ['promo-age-unchecked'],
    tags: ['destructive'],
    writes: ['cloud:promo-credit'],
  },
  async (ctx) => {
    const code = ctx.cloud.fixture(ctx.cloud.fixtures.promoCode, 'promoCode');
    const age = ctx.cloud.fixture(ctx.cloud.fixtures.otherAccountAgeDays, 'otherAccountAgeDays');
    if (age < 90) return ctx.skip(`fixtures.otherAccountAgeDays is ${age}: needs an account 90 days old or older`);
    const b = ctx.cloud.as('otherAccount');
    const a = ctx.cloud.as('unrestricted');
    const what = `POST /v4${PROMO} {"promo_code":"${code}"} as account B (${age} days old)`;
    await oneAtATime(ctx, 'promo-codes', async () => {
      // Line 234 names two conditions on the account: a refusal for account B shows its age refused
      // only where B has no promo credit. The real service shows it (Account.active_promotions);
      // where the server shows none, that B has none is taken from the config.
      const promotionsB = await ctx.setup('GET /v4/account as account B (its active_promotions, where shown)', () => promotionsOf(b, 'GET /v4/account as account B'));
      if (promotionsB?.length) return ctx.inconclusive(`account B already has promo credit (active_promotions: ${show(promotionsB)}): a refusal may be for that ("no existing promo credit", line 234), not for its age`, { seeAlso: 'cloud.promo-codes.applies-once' });
      if (!promotionsB) ctx.note("account B's Account shows no active_promotions (Account fields are not shown, line 51): that B has no promo credit is taken from the config");
      const earlier = await appliedToA(ctx);
      const res = await b.post(PROMO, { promo_code: code });
      expectRefused(res, what);
      ctx.note(`refused: ${show(errorsOf(res))}`);
      // The positive control: the same code is one the target accepts for an eligible (young)
      // account, so the refusal was about account B and not about the code (unknown, expired, used
      // up), whatever the error says (a field promo_code or not).
      if (earlier) return ctx.note(`${code} was applied to account A (younger than 90 days) earlier in this run, by ${earlier.by} (answered 200 at ${earlier.at})`);
      const controlWhat = `POST /v4${PROMO} {"promo_code":"${code}"} as account A (younger than 90 days; the positive control, after account B's refusal)`;
      const control = await a.post(PROMO, { promo_code: code });
      if (control.status === 200) {
        recordAppliedToA(ctx, 'cloud.promo-codes.old-account-refused');
        return ctx.note(`${controlWhat}: 200: the code is one the target accepts, so account B's refusal was about account B`);
      }
      notAboutTheRule(control, controlWhat);
      const promotionsA = await promotionsOf(a, 'GET /v4/account as account A').catch(() => undefined);
      if (promotionsA?.length) return ctx.inconclusive(`${what}: refused, but ${controlWhat} was refused too (${brief(control)}), and account A already has promo credit (active_promotions: ${show(promotionsA)}), e.g. from an earlier run: that the code is one the target accepts cannot be shown, so the refusal cannot be put down to account B's age; testing this again needs an account A without promo credit`, { seeAlso: 'cloud.promo-codes.applies-once' });
      return ctx.inconclusive(`${what}: refused, but ${controlWhat} was refused too (${brief(control)}): the code is not shown to be one the target accepts (unknown, expired, used up?), so the refusal cannot be put down to account B's age: fixtures.promoCode must be a code the target still accepts for account A`, { seeAlso: 'cloud.promo-codes.applies-once' });
    });
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
    touches: ['POST /account/promo-codes'],
    faults: ['promo-code-open-to-restricted', 'unrestricted-only-as-read-write'],
    tags: ['destructive'],
    reads: ['cloud:promo-credit'],
  },
  async (ctx) => {
    const code = ctx.cloud.fixture(ctx.cloud.fixtures.promoCode, 'promoCode');
    const roles = ctx.cloud.target.tokens.restrictedReadWrite ? (['restricted', 'restrictedReadWrite'] as const) : (['restricted'] as const);
    if (roles.length === 1) ctx.note('no tokens.restrictedReadWrite: tested with a read_only restricted user only');
    for (const role of roles) {
      const what = `POST /v4${PROMO} {"promo_code":"${code}"} as a restricted user (account_access ${role === 'restricted' ? 'read_only' : 'read_write'})`;
      const res = await ctx.cloud.as(role).post(PROMO, { promo_code: code });
      notAboutTheRule(res, what);
      notServed(res, what);
      if (res.status < 400 || res.status > 499) expectRefused(res, what);
      // The refusal for the caller is "insufficient permission" (403, line 191). Another refusal
      // may be for the request (the code, account A's promo credit or age: line 234), and which
      // refusal comes first is open (line 219): the caller's refusal was then not seen.
      if (res.status !== 403) return ctx.inconclusive(`${what}: refused with ${brief(res)}, not 403 (insufficient permission): the refusal may be for the code or account A's promo credit or age (line 234), which a server may check before the caller (line 219); the rule was not seen`, { seeAlso: 'cloud.promo-codes.applies-once' });
      expectRefused(res, what);
    }
    ctx.note('each restricted caller was refused with 403 (insufficient permission): the refusal is for the caller, not the request');
  },
);

export const codeLength = check(
  {
    id: 'cloud.promo-codes.code-1-to-32-characters',
    title: 'A promo_code missing or longer than 32 characters is an invalid request (400), the long one with field promo_code',
    protocol: 'cloud',
    section: 'Resources and their fields',
    level: 'SHOULD',
    spec: { file, line: 38, quote: '| Promo code request | promo_code (string, 1 to 32 characters, required) |' },
    touches: ['POST /account/promo-codes'],
    faults: ['promo-code-length-unchecked'],
    tags: ['destructive'],
    reads: ['cloud:promo-credit'],
  },
  async (ctx) => {
    const api = ctx.cloud.as('unrestricted');
    // The comparison: a code of 32 characters (inside the range; no code the target knows) is
    // refused, if at all, for something other than its length (the code unknown, account A's promo
    // credit or age, line 234). Which refusal comes first is open (line 219): a request answered
    // just as that one was has not been seen refused for its length.
    const inside = `CONFORMANCE-NOT-A-CODE-${'X'.repeat(9)}`;
    const insideRes = await api.post(PROMO, { promo_code: inside });
    notAboutTheRule(insideRes, `POST /v4${PROMO} {"promo_code":"${inside}"} (32 characters)`);
    const sameAsInside = (r: HttpResponse) => r.status === insideRes.status && show(errorsOf(r).map((e) => e.reason).sort()) === show(errorsOf(insideRes).map((e) => e.reason).sort());
    const otherReason = (what: string, r: HttpResponse) => ctx.inconclusive(`${what}: answered ${brief(r)}, just as the 32-character code was (${brief(insideRes)}): the refusal is for something the two share (the code unknown, account A's promo credit or age), which a server may check first (line 219), not seen for the length`, { seeAlso: 'cloud.promo-codes.applies-once' });
    // Neither request can apply a code: a missing one and one of 33 characters are both invalid.
    const missing = await api.post(PROMO, {});
    const missingWhat = `POST /v4${PROMO} {} (promo_code required)`;
    notAboutTheRule(missing, missingWhat);
    if (missing.status !== 404 && sameAsInside(missing)) return otherReason(missingWhat, missing);
    expectStatus(missing, 400, `${missingWhat}: "400 | invalid request (missing parameters etc.)"`);
    expectShape(missing, 'errorBody', missingWhat);
    // The route is served (it answered {} with 400 and the error body): a 404 below is no "not served".
    const long = 'C'.repeat(33);
    const what = `POST /v4${PROMO} {"promo_code":"${long}"} (33 characters; 1 to 32 allowed)`;
    const res = await api.post(PROMO, { promo_code: long });
    notAboutTheRule(res, what);
    if (sameAsInside(res)) return otherReason(what, res);
    if (res.status !== 400) ctx.fail(`${what}: "400 | invalid request", got ${brief(res)} (the route answered ${missingWhat} with 400)`);
    expectShape(res, 'errorBody', what);
    // The problem is the submitted field promo_code (line 219: field present when the error concerns it).
    ctx.expect(errorsOf(res).some((e) => e.field === 'promo_code'), `${what}: no error has field "promo_code": ${show(errorsOf(res))}`);
  },
);

// old-account-refused first: where it runs before applies-once, its positive control is made
// after account B's refusal (a code used up by one apply is then told apart too).
export const checks = [oldAccountRefused, appliesOnce, unrestrictedOnly, codeLength];
