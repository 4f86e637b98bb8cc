// Named faults of the embedded CLOUD reference server. Each breaks exactly one documented
// behaviour; every check lists the faults that must make it fail, and the meta-test proves it.
export const CLOUD_FAULTS = {
  // Account, events, invoices, logins, maintenance, notifications, settings, transfer usage,
  // OAuth clients, payment methods, payments, promo codes
  'us-zip-unchecked': 'accepts an account with country US and a zip that is not a US zip code',
  'account-put-clears-omitted': 'clears account fields a PUT /account leaves out instead of leaving them unchanged',
  'cancel-without-survey-link': 'answers an account cancel with {} instead of {survey_link}',
  'credit-card-add-200': 'answers the deprecated credit-card add with 200 instead of 299',
  'credit-card-add-no-warnings': 'answers the deprecated credit-card add with 299 but no warnings array',
  'settings-put-ignored': 'answers PUT /account/settings with the settings but keeps the old values',
  'managed-enable-missing': 'does not serve POST /account/settings/managed-enable',
  'event-read-needs-read-write': 'refuses marking an event read to a user with read_only account access',
  'event-seen-read-only-grant': 'lets a user with read_only account access mark events seen',
  'event-read-unknown-200': 'answers marking an event that does not exist read with 200',
  'unknown-invoice-200': 'answers GET of an invoice that does not exist with 200 and an empty object',
  'invoice-items-bare-array': 'answers the invoice items list with a bare array instead of the list envelope',
  'login-view-open-to-restricted': 'lets restricted users view a single login',
  'maintenance-v4-only': 'serves the beta maintenance list only under /v4, not /v4beta',
  'maintenance-on-v4': 'serves the beta maintenance list under /v4 as well',
  'notifications-bare-array': 'answers the notifications list with a bare array instead of the list envelope',
  'transfer-usage-missing': 'does not serve GET /account/transfer',
  'oauth-create-without-redirect-uri': 'creates an OAuth client from a body without redirect_uri',
  'oauth-public-default-true': 'makes a new OAuth client public when public is omitted',
  'oauth-secret-on-get': 'shows the plaintext secret of an OAuth client on GET and in the list',
  'oauth-reset-same-secret': 'answers reset-secret with the old secret instead of a new one',
  'oauth-delete-noop': 'answers DELETE of an OAuth client with {} but keeps the client',
  'oauth-put-ignored': 'answers PUT of an OAuth client with the client but keeps the old values',
  'thumbnail-needs-token': 'answers the public thumbnail GET without a token with 401',
  'thumbnail-not-png': 'serves the thumbnail as application/octet-stream instead of image/png',
  'payment-methods-v4-only': 'serves the payment-method list only under /v4, not /v4beta',
  'payment-method-add-on-v4beta': 'serves payment-method add under /v4beta as well',
  'no-payment-method-add-event': 'records no payment_method_add event when a payment method is added',
  'payment-method-type-unchecked': 'adds a payment method whose type is not credit_card',
  'seventh-payment-method-accepted': 'accepts a 7th active payment method',
  'deleted-payment-method-stays-active': 'keeps a deleted payment method counting as active',
  'default-payment-method-deletable': 'deletes the default payment method',
  'make-default-keeps-others': 'leaves is_default on the other payment methods after make-default',
  'payment-accepted-without-warnings': 'answers every payment with 202 and no warnings array',
  'no-payment-submitted-event': 'records no payment_submitted event when a payment is submitted',
  'unknown-payment-200': 'answers GET of a payment that does not exist with 200 and an empty object',
  'second-promo-accepted': 'applies a promo code to an account that already has promo credit',
  'promo-age-unchecked': 'applies a promo code to an account older than 90 days',
  'promo-code-open-to-restricted': 'lets restricted users apply promo codes',
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
