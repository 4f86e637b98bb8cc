// cloud-ref: the embedded reference server of the CLOUD protocol (cloud-api.md),
// a real HTTP server (fastify) on 127.0.0.1 with in-memory state seeded per start.
import Fastify from 'fastify';
import type { CloudFixtures, CloudTokens } from '../../src/config/types.ts';
import { Api, MALFORMED_JSON, refuse } from './api.ts';
import { registerAccount } from './areas/account.ts';
import { registerOAuthClients, seedClient } from './areas/oauth-clients.ts';
import { registerOAuth } from './areas/oauth.ts';
import { promotion, registerPayments } from './areas/payments.ts';
import { registerDatabases } from './areas/databases.ts';
import { registerTransfers } from './areas/transfers.ts';
import { registerUsers } from './areas/users.ts';
import { CLOUD_CONTROL_FAULTS, CLOUD_FAULTS, isCloudFault } from './faults.ts';
import { CLOUD_FUZZ_FAULTS, installHttpFuzzFaults } from '../http-fuzz-faults.ts';
import { installServerModes, type ServerModeOptions } from '../server-modes.ts';
import { seedWorld } from './world.ts';

export interface CloudReferenceOptions {
  host?: string;
  port?: number;
  faults?: readonly string[];
  /** Run as the variant: every choice the document leaves open taken the other way (docs/open-choices.md). */
  variant?: boolean;
  /** General per-endpoint limit; the document's is 800 requests per minute. */
  rateLimit?: { limit: number; windowMs: number };
  /** Tokens to seed instead of random ones, by role (`conformance serve cloud --token`); distinct. */
  tokens?: Partial<CloudTokens>;
  /**
   * The accounts (by the role of their user: `unrestricted` for account A, `otherAccount` for
   * account B) that start with promo credit, as an earlier run (A) or credit got while young (B)
   * leaves them: the state cloud.promo-codes.* must find out before use.
   */
  promoCredit?: readonly ('unrestricted' | 'otherAccount')[];
  /**
   * List deleted (deactivated) payment methods too, as they were: the document does not say the
   * list holds only active ones (neither the reference nor the variant does this).
   */
  listDeactivatedPaymentMethods?: boolean;
  /**
   * Refuse (400) a managed-enable while the managed service is enabled already, as a real service
   * may: the document does not say. The variant does (default: `variant`), the reference does not.
   */
  refuseSecondManagedEnable?: boolean;
  /**
   * How many events account A and B start with (150 by default, two pages of 100): a busy account
   * has more than a walk over pages reads (more than 50 pages of 100: over 5,000).
   */
  eventCount?: number;
  /**
   * The deprecated credit-card add makes the card the account's default payment method, counted
   * in its at most 6 active (line 233), as Linode API v4 does: the document does not say.
   */
  creditCardAddsPaymentMethod?: boolean;
  /**
   * Accounts that never paid: no payment is listed at the start (by default each account has paid
   * once before, as an account in use has; cloud.payments.list-and-unknown-404 needs one listed).
   */
  noPastPayments?: boolean;
  /** The proof matrix's server modes: do-nothing, accept-all, half-built, busy (targets/server-modes.ts). */
  modes?: ServerModeOptions;
}

export interface CloudReference {
  baseUrl: string;
  tokens: Required<CloudTokens>;
  fixtures: CloudFixtures;
  close(): Promise<void>;
}

export async function startCloudReference(options: CloudReferenceOptions = {}): Promise<CloudReference> {
  const unknown = (options.faults ?? []).filter((f) => !isCloudFault(f) && !Object.hasOwn(CLOUD_FUZZ_FAULTS, f));
  if (unknown.length) throw new Error(`unknown cloud-ref fault(s): ${unknown.join(', ')}; known: ${[...Object.keys(CLOUD_FAULTS), ...Object.keys(CLOUD_CONTROL_FAULTS), ...Object.keys(CLOUD_FUZZ_FAULTS)].join(', ')}`);
  const faults = new Set((options.faults ?? []).filter(isCloudFault));
  const { world, roles } = seedWorld(options.tokens);
  world.choices.listDeactivatedPaymentMethods = options.listDeactivatedPaymentMethods === true;
  // A one-time action the document leaves open: the variant refuses a second enable, as a real service may.
  world.choices.refuseSecondManagedEnable = options.refuseSecondManagedEnable ?? options.variant === true;
  if (options.eventCount !== undefined) world.choices.eventCount = options.eventCount;
  world.choices.creditCardAddsPaymentMethod = options.creditCardAddsPaymentMethod === true;
  world.choices.noPastPayments = options.noPastPayments === true;
  for (const role of options.promoCredit ?? []) {
    const account = world.accounts.get(world.users.get(world.tokens.get(roles.tokens[role])!.username)!.account)!;
    account.promotions.push(promotion('SEEDED-PROMO'));
  }
  const oauthClient = seedClient(world, 'A');
  const app = Fastify({ logger: false, bodyLimit: 1024 * 1024 });
  // Binary uploads (the OAuth client thumbnail) arrive as Buffers; JSON stays JSON.
  app.addContentTypeParser(['image/png', 'application/octet-stream'], { parseAs: 'buffer' }, (_req, body, done) => done(null, body));
  // Action endpoints (make-default, reset-secret, accept...) are POSTed without a body, with or
  // without a content type (the SDK sends a form type): an empty body is no body, not a 4xx.
  // A body that is not JSON is refused (400) by the request pipeline, after authentication, and
  // before (variant) or after (reference) permission: see Api.handle.
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (_req, body, done) => {
    if (!String(body).trim()) return done(null, undefined);
    try {
      done(null, JSON.parse(String(body)));
    } catch {
      done(null, MALFORMED_JSON);
    }
  });
  app.addContentTypeParser('*', { parseAs: 'buffer' }, (_req, body, done) => done(null, (body as Buffer).length ? body : undefined));
  installHttpFuzzFaults(app, (options.faults ?? []).filter((f) => Object.hasOwn(CLOUD_FUZZ_FAULTS, f)));
  installServerModes(app, options.modes ?? {}, {
    notFound: { status: 404, type: 'application/json', body: JSON.stringify({ errors: [{ reason: 'Not found' }] }) },
    ok: { status: 200, type: 'application/json', body: '{}' },
    basePrefix: /^\/v4(beta)?(?=\/)/,
  });
  const api = new Api(app, { world, faults, rateLimit: options.rateLimit ?? { limit: 800, windowMs: 60_000 }, variant: options.variant === true });
  app.setErrorHandler((err: { statusCode?: number; message: string }, _req, reply) => {
    const status = err.statusCode && err.statusCode >= 400 && err.statusCode < 500 ? err.statusCode : 500;
    return api.sendError(reply, refuse(status, status === 500 ? 'Internal server error' : err.message));
  });
  app.setNotFoundHandler((_req, reply) => api.sendError(reply, refuse(404, 'Not found')));

  registerAccount(api);
  registerOAuthClients(api);
  registerOAuth(api);
  registerPayments(api);
  registerDatabases(api);
  registerTransfers(api);
  registerUsers(api);

  const address = await app.listen({ host: options.host ?? '127.0.0.1', port: options.port ?? 0 });
  const fixtures: CloudFixtures = {
    transferableNodeIds: roles.transferableNodeIds,
    databases: roles.databases,
    promoCode: roles.promoCode,
    secondPromoCode: roles.secondPromoCode,
    nonNodeEntity: roles.nonNodeEntity,
    otherAccountAgeDays: roles.otherAccountAgeDays,
    filter: { path: '/account/events', stringField: 'action', numberField: 'id' },
    // The OAuth login server is served at the same origin; a person's login is a bearer token;
    // a client of account A is registered for the checks that only exchange codes and tokens.
    oauth: { authUrl: address, login: 'bearer', client: oauthClient },
  };
  return {
    baseUrl: address,
    tokens: roles.tokens,
    fixtures,
    close: () => app.close(),
  };
}

