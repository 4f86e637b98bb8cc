// The CLOUD suite: one file per area of the CLOUD document (cloud-api.md), in document order.
import type { Check } from '../../src/core/check.ts';
import * as pagination from './pagination.ts';
import * as account from './account.ts';
import * as oauthClients from './oauth-clients.ts';
import * as paymentMethods from './payment-methods.ts';
import * as payments from './payments.ts';
import * as promoCodes from './promo-codes.ts';
import * as serviceTransfers from './service-transfers.ts';
import * as usersAndGrants from './users-and-grants.ts';
import * as managedDatabases from './managed-databases.ts';
import * as authentication from './authentication.ts';
import * as events from './events.ts';
import * as errors from './errors.ts';
import * as filtering from './filtering.ts';
import * as rateLimits from './rate-limits.ts';
import * as deprecated from './deprecated.ts';
import * as whatTheServiceDoes from './what-the-service-does.ts';
import * as endpoints from './endpoints.ts';

export const checks: Check[] = [
  pagination,
  account,
  oauthClients,
  paymentMethods,
  payments,
  promoCodes,
  serviceTransfers,
  usersAndGrants,
  managedDatabases,
  authentication,
  events,
  errors,
  filtering,
  rateLimits,
  deprecated,
  whatTheServiceDoes,
  endpoints,
].flatMap((section) => section.checks as Check[]);
