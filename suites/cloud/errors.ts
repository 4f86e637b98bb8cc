// Section "Errors" of cloud-api.md: status codes and the error body.
import { check, type CloudCheckContext } from '../../src/core/check.ts';
import type { HttpResponse } from '../../src/clients/http/client.ts';
import { errorsOf, expectShape, expectStatus, show } from './support.ts';

const section = 'Errors';
const file = 'cloud-api.md';

/** Error responses that concern no submitted field: 401, 404 and 403. */
async function nonFieldErrors(ctx: CloudCheckContext): Promise<[string, HttpResponse][]> {
  const out: [string, HttpResponse][] = [['GET /v4/account without a token', await ctx.cloud.anonymous().get('/account')]];
  out.push(['GET /v4/account/events/0', await ctx.cloud.as('unrestricted').get('/account/events/0')]);
  out.push(['PUT /v4/account with only account:read_only', await ctx.cloud.as('readOnly').put('/account', {})]);
  return out;
}

export const reasonAlways = check(
  {
    id: 'cloud.errors.reason-always',
    title: 'Every error in an error body carries a reason',
    protocol: 'cloud',
    section,
    level: 'MUST',
    spec: { file, line: 219, quote: 'Error body: `errors` array, each with `reason` (always)' },
    faults: ['error-without-reason'],
  },
  async (ctx) => {
    for (const [what, res] of await nonFieldErrors(ctx)) {
      ctx.expect(res.status >= 400, `${what}: expected an error status, got ${res.status}`);
      expectShape(res, 'errorBody', what);
    }
  },
);

export const noFieldUnlessFieldError = check(
  {
    id: 'cloud.errors.no-field-unless-field-error',
    title: 'An error about no submitted JSON field carries no field',
    protocol: 'cloud',
    section,
    level: 'MUST',
    spec: { file, line: 219, quote: '`field` (only when specific to a submitted JSON field)' },
    faults: ['error-field-always'],
  },
  async (ctx) => {
    for (const [what, res] of await nonFieldErrors(ctx)) {
      const withField = errorsOf(res).filter((e) => e.field !== undefined);
      ctx.expect(withField.length === 0, `${what}: no JSON field was submitted, yet errors carry field: ${show(withField)}`);
    }
  },
);

export const notFound404 = check(
  {
    id: 'cloud.errors.not-found-404',
    title: 'A resource that does not exist gets 404',
    protocol: 'cloud',
    section,
    level: 'MUST',
    spec: { file, line: 214, quote: '| 404 | resource does not exist |' },
    faults: ['unknown-event-200'],
  },
  async (ctx) => {
    const res = await ctx.cloud.as('unrestricted').get('/account/events/0');
    expectStatus(res, 404, 'GET /v4/account/events/0 (no event has id 0)');
  },
);

export const checks = [reasonAlways, noFieldUnlessFieldError, notFound404];
