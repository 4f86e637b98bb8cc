// Section "Versioning" of cloud-api.md: the deprecated entity-transfer endpoints answer
// successfully with 299 and a `warnings` array, and do what their service-transfer equivalents do.
import { check, type CloudCheckContext } from '../../src/core/check.ts';
import type { HttpResponse } from '../../src/clients/http/client.ts';
import { brief, expectStatus, notAboutTheRule, show, bodyField } from './support.ts';
import { TRANSFERS, cancelQuietly, createTransfer } from './service-transfers.ts';

const file = 'cloud-api.md';
const ENTITY = '/account/entity-transfers';

/** 299 with a `warnings` array, empty or not (Errors: "299 | success but a deprecated endpoint was used; body has a `warnings` array"). */
function expectDeprecated(ctx: CloudCheckContext, res: HttpResponse, what: string): void {
  notAboutTheRule(res, what);
  expectStatus(res, 299, what);
  const warnings = bodyField(res, 'warnings');
  ctx.expect(Array.isArray(warnings), `${what}: a 299 answer has a warnings array, got ${show(warnings)} in ${brief(res)}`);
}

export const entityTransfers299 = check(
  {
    id: 'cloud.versioning.entity-transfers-299',
    title: 'The deprecated entity-transfer list, create, view and cancel answer 299 with warnings',
    protocol: 'cloud',
    section: 'Versioning',
    level: 'MUST',
    spec: { file, line: 243, quote: 'Deprecated operations answer successfully with 299 where noted: credit-card add, entity transfers' },
    touches: ['DELETE /account/entity-transfers/{token}', 'DELETE /account/service-transfers/{token}', 'GET /account/entity-transfers', 'GET /account/entity-transfers/{token}', 'GET /account/service-transfers', 'POST /account/entity-transfers'],
    faults: ['entity-transfers-200', 'entity-transfers-no-warnings'],
    tags: ['destructive'],
  },
  async (ctx) => {
    const api = ctx.cloud.as('unrestricted');
    const t = await createTransfer(ctx, { base: ENTITY, status: 299, asSetup: false });
    try {
      expectDeprecated(ctx, t.res, `POST /v4${ENTITY} {"entities":{"nodes":[${t.node}]}}`);
      expectDeprecated(ctx, await api.get(ENTITY), `GET /v4${ENTITY}`);
      const one = `${ENTITY}/${encodeURIComponent(t.token)}`;
      expectDeprecated(ctx, await api.get(one), `GET /v4${ENTITY}/{token}`);
      expectDeprecated(ctx, await api.delete(one), `DELETE /v4${ENTITY}/{token}`);
    } finally {
      await cancelQuietly(ctx, t.token);
    }
  },
);

export const entityTransferAccept = check(
  {
    id: 'cloud.versioning.entity-transfer-accept',
    title: 'The deprecated entity-transfer accept answers 299 with warnings and accepts the transfer',
    protocol: 'cloud',
    section: 'Service transfers (and deprecated entity transfers)',
    level: 'MUST',
    spec: { file, line: 136, quote: '| POST | /account/entity-transfers/{token}/accept | account:read_write | unrestricted only | deprecated equivalent of accept |' },
    touches: ['DELETE /account/service-transfers/{token}', 'GET /account/service-transfers', 'GET /account/service-transfers/{token}', 'POST /account/entity-transfers/{token}/accept', 'POST /account/service-transfers'],
    faults: ['entity-transfer-accept-ignored', 'entity-transfers-200'],
    tags: ['destructive'],
  },
  async (ctx) => {
    const t = await createTransfer(ctx);
    try {
      expectDeprecated(ctx, await ctx.cloud.as('otherAccount').post(`${ENTITY}/${encodeURIComponent(t.token)}/accept`), `POST /v4${ENTITY}/{token}/accept by the receiving account B`);
      const after = await ctx.cloud.as('unrestricted').get(`${TRANSFERS}/${encodeURIComponent(t.token)}`);
      expectStatus(after, 200, `GET /v4${TRANSFERS}/{token} after the deprecated accept`);
      const status = bodyField(after, 'status');
      ctx.expect(status !== 'pending', `GET /v4${TRANSFERS}/{token} after POST /v4${ENTITY}/{token}/accept answered 299: the transfer is still "pending"`);
    } finally {
      await cancelQuietly(ctx, t.token);
    }
  },
);

export const checks = [entityTransfers299, entityTransferAccept];
