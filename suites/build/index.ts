// The BUILD suite: one file per section of the BUILD document (build-service-api.md), in document order.
import type { Check } from '../../src/core/check.ts';
import * as about from './about-architectures-issue-trackers-distributions.ts';
import * as usersAndGroups from './users-and-groups.ts';
import * as projects from './projects.ts';
import * as packages from './packages.ts';
import * as requests from './requests.ts';
import * as attributeDefinitionsAndComments from './attribute-definitions-and-comments.ts';
import * as buildResults from './build-results.ts';
import * as workersAndControl from './workers-and-control.ts';
import * as search from './search.ts';
import * as publishedTreeAndLegacyResults from './published-tree-and-legacy-results.ts';
import * as statisticsAndStatusMessages from './statistics-and-status-messages.ts';
import * as statusChecks from './status-checks.ts';
import * as staging from './staging.ts';
import * as configuration from './configuration.ts';
import * as authentication from './authentication.ts';
import * as errors from './errors.ts';

export const checks: Check[] = [about, usersAndGroups, projects, packages, requests, attributeDefinitionsAndComments, buildResults, workersAndControl, search, publishedTreeAndLegacyResults, statisticsAndStatusMessages, statusChecks, staging, configuration, authentication, errors].flatMap(
  (section) => section.checks as Check[],
);
