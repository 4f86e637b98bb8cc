// Linode's own JavaScript SDK (@linode/api-v4) against cloud-ref. The SDK hard-codes its API root;
// an interceptor on its exported axios instance rewrites the root to cloud-ref on loopback.
import * as sdk from '@linode/api-v4';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startCloudReference, type CloudReference } from '../../targets/cloud/server.ts';

const api = sdk as unknown as Record<string, (...args: unknown[]) => Promise<any>> & {
  baseRequest: { interceptors: { request: { use(f: (c: { url?: string; headers?: Record<string, unknown> }) => unknown): number; eject(id: number): void } } };
  setToken(token: string): void;
};

/** A refusal as the SDK rejects it (an AxiosError): the status and the document's error objects. */
async function refusal(p: Promise<unknown>): Promise<{ status: number; errors: { reason?: string; field?: string }[] }> {
  try {
    await p;
  } catch (err) {
    const res = (err as { response?: { status: number; data?: { errors?: { reason?: string; field?: string }[] } } }).response;
    return { status: res?.status ?? 0, errors: res?.data?.errors ?? [] };
  }
  throw new Error('expected the call to be refused');
}

describe.sequential('@linode/api-v4 against cloud-ref', () => {
  let ref: CloudReference;
  let interceptor: number;
  const urls: string[] = [];
  /**
   * The SDK's setToken() adds an interceptor per call, and axios runs the first added last, so a
   * second setToken never takes effect. This interceptor, added first, sets the token of the
   * account a test acts as.
   */
  let token = '';
  const as = (t: string) => (token = t);

  beforeAll(async () => {
    ref = await startCloudReference();
    interceptor = api.baseRequest.interceptors.request.use((config) => {
      config.url = String(config.url).replace(/^https:\/\/api\.linode\.com/, ref.baseUrl);
      config.headers = { ...config.headers, Authorization: `Bearer ${token}` };
      urls.push(config.url);
      return config;
    });
    as(ref.tokens.unrestricted);
  });
  afterAll(async () => {
    api.baseRequest.interceptors.request.eject(interceptor);
    await ref.close();
  });

  it('account info and settings', async () => {
    expect((await api.getAccountInfo()).email).toBe('owner-a@example.com');
    const settings = await api.updateAccountSettings({ network_helper: false });
    expect(settings.network_helper).toBe(false);
    expect((await api.getAccountSettings()).network_helper).toBe(false);
  });

  it('events with pagination parameters and an X-Filter as the SDK sends them', async () => {
    const page = await api.getEvents({ page: 1, page_size: 25 }, { action: 'node_boot' });
    expect(page.page).toBe(1);
    expect(page.data.length).toBeGreaterThan(0);
    expect(page.data.every((e: { action: string }) => e.action === 'node_boot')).toBe(true);
    const ordered = await api.getEvents({ page_size: 25 }, { '+order_by': 'id', '+order': 'desc' });
    const ids = ordered.data.map((e: { id: number }) => e.id);
    expect(ids).toEqual([...ids].sort((a: number, b: number) => b - a));
    expect((await api.getInvoices()).data.length).toBeGreaterThan(0);
  });

  it('users and grants, including the 204 for an unrestricted user', async () => {
    const users = await api.getUsers();
    expect(users.data.map((u: { username: string }) => u.username)).toEqual(expect.arrayContaining(['alice', 'rita']));
    // 204 with no body: the SDK hands back the empty body as it is.
    expect(await api.getGrants('alice')).toBe('');
    const rita = await api.getGrants('rita');
    expect(rita.global.account_access).toBe('read_only');
    const updated = await api.updateGrants('rita', { global: { add_databases: true } });
    expect(updated.global.add_databases).toBe(true);
    expect(updated.global.account_access).toBe('read_only'); // omitted grants unchanged
  });

  it('OAuth clients: the secret on create and reset, never on get', async () => {
    const created = await api.createOAuthClient({ label: 'sdk', redirect_uri: 'https://example.test/cb' });
    expect(typeof created.secret).toBe('string');
    expect(created.public).toBe(false);
    const fetched = await api.getOAuthClient(created.id);
    expect(JSON.stringify(fetched)).not.toContain(created.secret);
    const reset = await api.resetOAuthClientSecret(created.id);
    expect(reset.secret).not.toBe(created.secret);
  });

  it('payment methods: add, make-default, and one default left (as account B)', async () => {
    as(ref.tokens.otherAccount);
    try {
      await api.addPaymentMethod({ type: 'credit_card', is_default: false, data: { card_number: '4111111111111111', expiry_month: 12, expiry_year: 2031, cvv: '123' } });
      const methods = (await api.getPaymentMethods()).data;
      expect(methods.filter((m: { is_default: boolean }) => m.is_default)).toHaveLength(1);
      const other = methods.find((m: { is_default: boolean }) => !m.is_default);
      expect(other).toBeDefined();
      await api.makeDefaultPaymentMethod(other.id);
      const after = (await api.getPaymentMethods()).data;
      expect(after.filter((m: { is_default: boolean }) => m.is_default).map((m: { id: number }) => m.id)).toEqual([other.id]);
    } finally {
      as(ref.tokens.unrestricted);
    }
  });

  it('promo codes: one per young account, refused the second time', async () => {
    expect(await api.addPromotion(ref.fixtures.promoCode)).toBeTruthy();
    const second = await refusal(api.addPromotion(ref.fixtures.promoCode));
    expect(second.status).toBeGreaterThanOrEqual(400);
    expect(second.errors[0]?.reason).toBeTruthy();
  });

  it('the service-transfer life cycle across two accounts, with its refusals', async () => {
    const node = ref.fixtures.transferableNodeIds![0];
    // The SDK names compute nodes `linodes`; the document's naming note says `nodes`, and the
    // document decides: cloud-ref refuses `linodes`, and the SDK passes `nodes` through unchanged.
    const sdkWord = await refusal(api.createServiceTransfer({ entities: { linodes: [node] } }));
    expect(sdkWord.status).toBe(400);
    const transfer = await api.createServiceTransfer({ entities: { nodes: [node] } } as never);
    expect(transfer.status).toBe('pending');
    // The creating account may not accept its own transfer.
    expect((await refusal(api.acceptServiceTransfer(transfer.token))).errors[0]?.reason).toBeTruthy();
    as(ref.tokens.otherAccount);
    try {
      expect((await api.getServiceTransfer(transfer.token)).status).toBe('pending');
      await api.acceptServiceTransfer(transfer.token);
    } finally {
      as(ref.tokens.unrestricted);
    }
    expect((await api.getServiceTransfer(transfer.token)).status).not.toBe('pending');
    // An accepted transfer cannot be cancelled.
    expect((await refusal(api.cancelServiceTransfer(transfer.token))).errors[0]?.reason).toBeTruthy();
  });

  it('called only the /v4 and /v4beta prefixes of cloud-ref', () => {
    expect(urls.length).toBeGreaterThan(10);
    for (const url of urls) expect(url.startsWith(`${ref.baseUrl}/v4`)).toBe(true);
  });
});
