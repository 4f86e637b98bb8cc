// Payment methods, payments and promo codes of cloud-ref: at most 6 active payment methods and 60
// added per day, add only on /v4, the default cannot be deleted, make-default; payments (200
// Payment); the payment_method_add and payment_submitted events; promo credit for young accounts.
import type { Api, Call } from '../api.ts';
import { conflict, notFound, paginate, refuse, requireCaller, validateBody } from '../api.ts';
import { areaState, PROMO_CODE, SECOND_PROMO_CODE, type World } from '../world.ts';
import { recordEvent, VARIANT_EVENT_DELAY_MS } from './account.ts';

interface PaymentMethod {
  id: number;
  account: string;
  type: 'credit_card';
  is_default: boolean;
  active: boolean;
  deleted?: boolean;
  data: { last_four: string; expiry: string; card_type: string };
  created: string;
}

interface Payment {
  id: number;
  account: string;
  /** Linode's Payment writes the amount as a number (the request sends it as a decimal string, line 37). */
  usd: number;
  payment_method_id: number;
  date: string;
}

const MAX_ACTIVE = 6;
const MAX_ADDED_PER_DAY = 60;
const DAY = 24 * 3600 * 1000;

interface State {
  methods: PaymentMethod[];
  /** Times of additions per account, for the 60-per-day limit. */
  added: Map<string, number[]>;
  payments: Payment[];
}

const now = () => new Date().toISOString().slice(0, 19);

function state(world: World): State {
  return areaState(world, 'payments', () => {
    // Every account starts with one default card.
    const methods: PaymentMethod[] = [...world.accounts.keys()].map((account) => ({
      id: world.nextId(),
      account,
      type: 'credit_card',
      is_default: true,
      active: true,
      data: { last_four: '1111', expiry: '12/2030', card_type: 'Visa' },
      created: now(),
    }));
    // Each account has paid once before (a month ago, with its default card), unless it never paid.
    const payments: Payment[] = world.choices.noPastPayments ? [] : methods.map((m) => ({ id: world.nextId(), account: m.account, usd: 10, payment_method_id: m.id, date: new Date(Date.now() - 30 * DAY).toISOString().slice(0, 19) }));
    return { methods, added: new Map(), payments };
  });
}

function activeMethods(call: Call, account: string): PaymentMethod[] {
  return state(call.world).methods.filter((m) => m.account === account && m.active);
}

const viewMethod = ({ account: _a, active: _b, deleted: _c, ...m }: PaymentMethod) => m;
/** A Payment as Linode writes it: id, date, usd (the method it was paid with is kept internal). */
const viewPayment = ({ id, date, usd }: Payment) => ({ id, date, usd });

function ownMethod(call: Call): PaymentMethod {
  const { account } = requireCaller(call);
  const m = activeMethods(call, account.id).find((x) => x.id === Number(call.params.paymentMethodId));
  if (!m) throw notFound();
  return m;
}

export function registerPayments(api: Api): void {
  const { world } = api;
  // Under the fault, every account has made 59 of its 60 adds of the day (as after earlier runs).
  if (api.faults.has('payment-method-add-on-v4beta-day-spent')) for (const a of world.accounts.keys()) state(world).added.set(a, Array.from({ length: MAX_ADDED_PER_DAY - 1 }, () => Date.now()));

  api.endpoint(
    { method: 'GET', path: '/account/payment-methods', scope: 'account:read_only', grant: 'read_only', prefixes: api.faults.has('payment-methods-v4-only') ? ['v4'] : ['v4', 'v4beta'] },
    (call) => {
      const { account } = requireCaller(call);
      const listed = world.choices.listDeactivatedPaymentMethods ? state(world).methods.filter((m) => m.account === account.id) : activeMethods(call, account.id);
      // Linode marks no PaymentMethod field filterable.
      return paginate(call, listed.map(viewMethod), []);
    },
  );

  api.endpoint(
    { method: 'POST', path: '/account/payment-methods', scope: 'account:read_write', grant: 'read_write', prefixes: api.faults.has('payment-method-add-on-v4beta') || api.faults.has('payment-method-add-on-v4beta-day-spent') ? ['v4', 'v4beta'] : ['v4'], request: (call) => void validateBody(call, 'paymentMethodRequest', call.body) },
    (call) => {
      const { account, user } = requireCaller(call);
      let body = call.body as Record<string, unknown> | undefined;
      if (call.faults.has('payment-method-type-unchecked') && body && typeof body === 'object' && typeof body.type === 'string') body = { ...body, type: 'credit_card' };
      const req = validateBody<{ type: 'credit_card'; is_default: boolean; data: { card_number: string; expiry_month: number; expiry_year: number } }>(call, 'paymentMethodRequest', body);
      const s = state(world);
      const active = activeMethods(call, account.id);
      // Deleted methods are deactivated and no longer count (unless the fault keeps them counting).
      const counted = call.faults.has('deleted-payment-method-stays-active') ? s.methods.filter((m) => m.account === account.id && (m.active || m.deleted)) : active;
      if (counted.length >= MAX_ACTIVE && !call.faults.has('seventh-payment-method-accepted')) throw conflict(call, `An account may have at most ${MAX_ACTIVE} active payment methods`);
      const since = Date.now() - DAY;
      const added = (s.added.get(account.id) ?? []).filter((t) => t > since);
      if (added.length >= MAX_ADDED_PER_DAY) throw refuse(400, `At most ${MAX_ADDED_PER_DAY} payment methods may be added per day`);
      added.push(Date.now());
      s.added.set(account.id, added);
      if (req.is_default) for (const m of active) m.is_default = false;
      const d = req.data;
      s.methods.push({
        id: world.nextId(),
        account: account.id,
        type: req.type,
        is_default: req.is_default,
        active: true,
        data: { last_four: d.card_number.slice(-4), expiry: `${String(d.expiry_month).padStart(2, '0')}/${d.expiry_year}`, card_type: 'Visa' },
        created: now(),
      });
      if (!call.faults.has('no-payment-method-add-event')) recordEvent(world, account.id, 'payment_method_add', user.username, call.variant);
      return { body: {} };
    },
  );

  api.endpoint({ method: 'GET', path: '/account/payment-methods/{paymentMethodId}', scope: 'account:read_only', grant: 'read_only' }, (call) => {
    // The fault's server views deactivated methods too.
    const gone = call.faults.has('default-delete-refused-but-deactivated') ? state(world).methods.find((x) => x.id === Number(call.params.paymentMethodId) && x.account === requireCaller(call).account.id && !x.active) : undefined;
    return { body: viewMethod(gone ?? ownMethod(call)) };
  });

  // Scope account:read_only as the document gives it; a DELETE still needs a read_write scope.
  api.endpoint({ method: 'DELETE', path: '/account/payment-methods/{paymentMethodId}', scope: 'account:read_only', grant: 'read_write' }, (call) => {
    if (call.faults.has('delete-unknown-payment-method-200') && !state(world).methods.some((x) => x.id === Number(call.params.paymentMethodId))) return { body: {} };
    const m = ownMethod(call);
    if (m.is_default && !call.faults.has('default-payment-method-deletable')) {
      const refusal = conflict(call, 'The default payment method cannot be deleted; make another one the default first');
      if (call.faults.has('default-delete-refused-but-deactivated')) m.active = false;
      throw refusal;
    }
    m.active = false; // deactivated
    m.deleted = true;
    return { body: {} };
  });

  api.endpoint({ method: 'POST', path: '/account/payment-methods/{paymentMethodId}/make-default', scope: 'account:read_write', grant: 'read_write', request: 'none' }, (call) => {
    const m = ownMethod(call);
    if (!call.faults.has('make-default-keeps-others')) for (const other of activeMethods(call, m.account)) other.is_default = false;
    m.is_default = true;
    return { body: {} };
  });

  api.endpoint({ method: 'GET', path: '/account/payments', scope: 'account:read_only', grant: 'read_only' }, (call) => {
    const { account } = requireCaller(call);
    // Linode marks no Payment field filterable.
    return paginate(call, state(world).payments.filter((p) => p.account === account.id).map(viewPayment), []);
  });

  api.endpoint({ method: 'GET', path: '/account/payments/{paymentId}', scope: 'account:read_only', grant: 'read_only' }, (call) => {
    const { account } = requireCaller(call);
    const p = state(world).payments.find((x) => x.id === Number(call.params.paymentId) && x.account === account.id);
    if (call.faults.has('payment-view-not-served')) throw notFound();
    if (!p && call.faults.has('unknown-payment-200')) return { body: {} };
    if (!p) throw notFound();
    return { body: viewPayment(p) };
  });

  api.endpoint({ method: 'POST', path: '/account/payments', scope: 'account:read_write', grant: 'read_write', request: (call) => void validateBody(call, 'paymentRequest', call.body) }, (call) => {
    const { account, user } = requireCaller(call);
    const req = validateBody<{ usd?: string; cvv?: string; payment_method_id?: number }>(call, 'paymentRequest', call.body);
    if (req.usd === undefined) throw refuse(400, 'usd is required', 'usd');
    if (!(Number(req.usd) > 0)) throw refuse(400, 'usd must be more than 0', 'usd');
    // The control fault: a minimum payment (the document gives no amount rules; the real service has one).
    if (call.faults.has('payment-minimum-5') && Number(req.usd) < 5) throw refuse(400, 'usd must be at least 5.00', 'usd');
    const methods = activeMethods(call, account.id);
    // The default payment method is used when payment_method_id is omitted.
    const method = req.payment_method_id === undefined ? methods.find((m) => m.is_default) : methods.find((m) => m.id === req.payment_method_id);
    if (!method) throw refuse(400, req.payment_method_id === undefined ? 'The account has no default payment method' : 'No such active payment method', req.payment_method_id === undefined ? undefined : 'payment_method_id');
    const p: Payment = { id: world.nextId(), account: account.id, usd: Number(req.usd), payment_method_id: method.id, date: now() };
    if (!call.faults.has('no-payment-submitted-event')) recordEvent(world, account.id, 'payment_submitted', user.username, call.variant);
    if (call.faults.has('payment-accepted-without-warnings')) {
      state(world).payments.push(p);
      return { status: 202, body: {} };
    }
    // The fault (reference and variant alike): 200 and a Payment, and no payment recorded.
    if (call.faults.has('payment-200-not-recorded')) return { body: viewPayment(p) };
    // "200 Payment, or 202 accepted response": the variant accepts, processes in the background
    // (the payment is listed a moment later) and answers 202 with an empty warnings array.
    if (call.variant) {
      setTimeout(() => state(world).payments.push(p), VARIANT_EVENT_DELAY_MS).unref();
      return { status: 202, body: { warnings: [] } };
    }
    state(world).payments.push(p);
    return { body: viewPayment(p) };
  });

  // Altpay staging and execution: deprecated and disabled; they answer 299 with a warnings array
  // ("Versioning") and stage nothing (the variant's warnings array is empty).
  const altpayWarning = { title: 'Deprecated endpoint', details: 'Altpay payments are deprecated and disabled.' };
  api.endpoint({ method: 'POST', path: '/account/payments/altpay', scope: 'account:read_write', grant: 'read_only' }, (call) => {
    requireCaller(call);
    const body = { payment_id: `ALTPAY-${world.nextId()}`, checkout_token: `EC-${world.nextId()}` };
    if (call.faults.has('altpay-200')) return { body };
    return { status: 299, body: { ...body, warnings: call.variant ? [] : [altpayWarning] } };
  });
  api.endpoint({ method: 'POST', path: '/account/payments/altpay/execute', scope: 'account:read_write', grant: 'read_write' }, (call) => {
    requireCaller(call);
    return { status: 299, body: { warnings: call.variant ? [] : [altpayWarning] } };
  });

  api.endpoint(
    { method: 'POST', path: '/account/promo-codes', scope: 'account:read_only', grant: api.faults.has('promo-code-open-to-restricted') ? 'none' : 'unrestricted', request: (call) => void validateBody(call, 'promoCodeRequest', call.body) },
    (call) => {
      const { account } = requireCaller(call);
      const sent = (call.body as { promo_code?: unknown } | undefined)?.promo_code;
      if (call.faults.has('promo-code-length-unchecked') && typeof sent === 'string' && sent.length > 32) throw refuse(404, 'Promo code not found');
      // The control fault: the account is checked before the request body (an order line 219 leaves open).
      if (call.faults.has('promo-account-checked-first') && account.promotions.length > 0) throw conflict(call, 'The account already has promo credit');
      if (call.faults.has('promo-account-checked-first') && Date.now() - account.createdAt.getTime() >= 90 * DAY) throw refuse(400, 'Promo credit is only for accounts younger than 90 days');
      const { promo_code } = validateBody<{ promo_code: string }>(call, 'promoCodeRequest', call.body);
      if (!PROMO_CODES.has(promo_code)) throw refuse(400, 'Unknown promo code', 'promo_code');
      if (Date.now() - account.createdAt.getTime() >= 90 * DAY && !call.faults.has('promo-age-unchecked')) throw refuse(400, 'Promo credit is only for accounts younger than 90 days');
      // The fault keeps the rule per code: only a code the account already applied is refused.
      const alreadyHas = call.faults.has('promo-second-code-accepted') ? account.promotions.some((p) => p.description === promo_code) : account.promotions.length > 0;
      if (alreadyHas && !call.faults.has('second-promo-accepted')) throw conflict(call, 'The account already has promo credit');
      // A refusal for any reason, with no field: what a used-up code looks like from outside.
      if (call.faults.has('promo-refused-always')) throw refuse(400, 'This promo code cannot be applied');
      const p = promotion(promo_code);
      account.promotions.push(p);
      return { body: p };
    },
  );
}

const PROMO_CODES = new Set([PROMO_CODE, SECOND_PROMO_CODE]);

/**
 * A Promotion as Linode API v4 writes one (its fields are not shown, line 51): what a promo code
 * answers, and an item of the Account's `active_promotions`.
 */
export function promotion(code: string): Record<string, unknown> {
  return { summary: '$100 promo credit', credit_remaining: '100.00', credit_monthly_cap: '100.00', expire_dt: new Date(Date.now() + 90 * DAY).toISOString().slice(0, 19), image_url: '', service_type: 'all', description: code, this_month_credit_remaining: '100.00' };
}

/** The default payment method's card of an account ({last_four, expiry}), as the Account's `credit_card` shows it. */
export function defaultCardOf(world: World, accountId: string): { last_four: string; expiry: string } | undefined {
  const m = state(world).methods.find((x) => x.account === accountId && x.active && x.is_default);
  return m ? { last_four: m.data.last_four, expiry: m.data.expiry } : undefined;
}

/**
 * The deprecated credit-card add as Linode API v4 does it ("Adds a credit card Payment Method to
 * your account and sets it as the default method"), where startCloudReference's
 * creditCardAddsPaymentMethod is set (the document does not say; neither the reference nor the
 * variant does it): the card becomes the default payment method, within the limits of line 233.
 */
export function addCardAsDefaultMethod(call: Call, accountId: string, d: { card_number: string; expiry_month: number; expiry_year: number }): void {
  const s = state(call.world);
  const active = activeMethods(call, accountId);
  if (active.length >= MAX_ACTIVE) throw conflict(call, `An account may have at most ${MAX_ACTIVE} active payment methods`);
  const since = Date.now() - DAY;
  const added = (s.added.get(accountId) ?? []).filter((t) => t > since);
  if (added.length >= MAX_ADDED_PER_DAY) throw refuse(400, `At most ${MAX_ADDED_PER_DAY} payment methods may be added per day`);
  added.push(Date.now());
  s.added.set(accountId, added);
  for (const m of active) m.is_default = false;
  s.methods.push({ id: call.world.nextId(), account: accountId, type: 'credit_card', is_default: true, active: true, data: { last_four: d.card_number.slice(-4), expiry: `${String(d.expiry_month).padStart(2, '0')}/${d.expiry_year}`, card_type: 'Visa' }, created: now() });
}
