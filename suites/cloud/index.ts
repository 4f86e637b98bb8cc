// The CLOUD suite: one file per area of ../shared/spec/cloud-api.md, in document order.
import type { Check } from '../../src/core/check.ts';
import * as pagination from './pagination.ts';
import * as authentication from './authentication.ts';
import * as errors from './errors.ts';
import * as filtering from './filtering.ts';
import * as rateLimits from './rate-limits.ts';
import * as serviceTransfers from './service-transfers.ts';
import * as usersAndGrants from './users-and-grants.ts';
import * as managedDatabases from './managed-databases.ts';
import * as deprecated from './deprecated.ts';

export const checks: Check[] = [pagination, authentication, errors, filtering, rateLimits, serviceTransfers, usersAndGrants, managedDatabases, deprecated].flatMap((section) => section.checks as Check[]);
