// Named faults of the embedded CLOUD reference server. Each breaks exactly one documented
// behaviour; every check lists the faults that must make it fail, and the meta-test proves it.
export const CLOUD_FAULTS = {
  // Authentication, scopes and grants
  'unauthenticated-as-403': 'answers a missing or unknown token with 403 instead of 401',
  'forbidden-as-401': 'answers an authenticated caller lacking permission with 401 instead of 403',
  'read-only-scope-writes': 'lets a :read_only scope call non-GET endpoints of its area',
  'restricted-passes-unrestricted-only': 'lets restricted users call operations marked unrestricted only',
  'read-only-scope-get-refused': 'refuses GET to a token holding only the :read_only scope of the area',
  'public-endpoint-needs-token': 'answers 401 on public endpoints called without a token',
  // Errors
  'error-field-always': 'adds a field to every error, also to errors about no submitted field',
  'error-without-reason': 'leaves reason out of error objects',
  'unknown-event-200': 'answers GET of an event that does not exist with 200 and an empty object',
  // Pagination
  'page-size-unchecked': 'accepts page_size below 25',
  'huge-page-empty': 'answers a page above the last with an empty page instead of the last one',
  'page-zero-based': 'serves page n as if pages started at 0',
  'envelope-without-results': 'leaves results out of the list envelope',
  'default-page-size-25': 'uses 25 as the default page size instead of 100',
  // Filtering
  'filter-ignored': 'ignores the X-Filter header',
  'filter-or-as-and': 'evaluates +or like +and',
  'order-without-order-by-accepted': 'accepts +order without +order_by',
  'filter-gt-inclusive': 'treats +gt as +gte',
  'filter-order-ignored': 'ignores +order desc',
  // Rate limits
  'no-rate-limit': 'never answers 429',
  'rate-limit-no-headers': 'sends no X-RateLimit-* or Retry-After headers',
  // Service transfers, users and grants, managed databases, and the Errors rules on field errors
  'transfer-token-not-uuid': 'gives a new service transfer a token that is not a UUID',
  'transfer-created-not-pending': 'creates a service transfer in status accepted instead of pending',
  'transfer-create-without-entities': 'creates a service transfer from a body without entities',
  'transfer-node-twice': 'puts a node already in a pending transfer into a second transfer',
  'transfer-foreign-nodes': 'lets an account create a transfer of nodes another account owns',
  'transfer-non-node-entities': 'accepts entities other than compute nodes in a service transfer',
  'pending-transfer-hidden-from-others': 'hides a pending transfer from unrestricted users of other accounts',
  'accepted-transfer-hidden-from-acceptor': 'hides an accepted transfer from the accepting account',
  'cancelled-transfer-visible-to-others': 'shows cancelled and accepted transfers to accounts other than those involved',
  'transfer-list-omits-accepted': 'leaves transfers the account accepted out of its transfer list',
  'transfer-accept-by-creator': 'lets the creating account accept its own transfer',
  'transfer-cancel-by-receiver': 'lets an account other than the creating one cancel a transfer',
  'accept-cancelled-transfer': 'lets a cancelled transfer be accepted',
  'cancel-accepted-transfer': 'lets an accepted transfer be cancelled',
  'entity-transfers-200': 'answers the deprecated entity-transfer endpoints with 200 instead of 299',
  'entity-transfers-no-warnings': 'answers the deprecated entity-transfer endpoints with 299 but no warnings array',
  'entity-transfer-accept-ignored': 'answers the deprecated entity-transfer accept with 299 but does not accept',
  'users-open-to-restricted': 'lets restricted users with account_access call the users operations',
  'user-create-without-email': 'creates a user from a body without email',
  'user-delete-noop': 'answers DELETE of a user with {} but keeps the user',
  'unrestricted-grants-200': 'answers GET grants of an unrestricted user with 200 and a body instead of 204',
  'restricted-turn-keeps-grants': 'gives a user turned restricted every grant instead of none',
  'grants-put-replaces': 'resets grants omitted from a PUT grants instead of leaving them unchanged',
  'first-error-only': 'reports only the first problem of an invalid request body',
  'field-error-without-field': 'leaves field out of errors about a submitted JSON field',
  'instance-without-uri': 'lists databases without instance_uri',
  'instances-v4-only': 'serves the database instance list only under /v4, not /v4beta',
  'engine-view-by-version-only': 'serves the engine view at /databases/engines/{version} instead of {engine}/{version}',
  'update-on-failed-database': 'updates a database that is not active',
  'snapshot-on-failed-database': 'creates a snapshot of a database that is not active',
  'restore-on-failed-database': 'restores a backup into a database that is not active',
  'credentials-on-failed-database': 'shows the credentials of a database that is not active',
  'ssl-on-failed-database': 'shows the SSL CA certificate of a database that is not active',
  'patch-on-failed-database': 'patches a database that is not active',
  'delete-provisioning-database': 'deletes a database that is provisioning',
  'backups-listed-while-provisioning': 'lists and shows backups of a database that is provisioning',
  'allow-list-merges': 'merges a new allow_list into the existing one instead of overwriting it',
  'empty-allow-list-refused': 'refuses an empty allow_list',
  'snapshot-label-double-dash': 'accepts snapshot labels with two dashes, underscores or periods in a row',
  'snapshot-target-unchecked': 'accepts a snapshot target other than primary or secondary',
  'mysql-create-ignores-add-databases': 'lets a restricted user without add_databases create a MySQL database',
} as const;

export type CloudFault = keyof typeof CLOUD_FAULTS;

export function isCloudFault(name: string): name is CloudFault {
  return Object.hasOwn(CLOUD_FAULTS, name);
}
