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
} as const;

export type CloudFault = keyof typeof CLOUD_FAULTS;

export function isCloudFault(name: string): name is CloudFault {
  return Object.hasOwn(CLOUD_FAULTS, name);
}
