// Named faults of the embedded BUILD reference server. Each breaks exactly one documented
// behaviour; every check lists the faults that must make it fail, and the meta-test proves it.
export const BUILD_FAULTS = {
  // Authentication
  'anonymous-allowed': 'answers requests without an Authorization header',
  'any-password': 'accepts any password for a known user',
  'runservice-any-token': 'accepts any string as a runservice token',
  'move-not-admin-only': 'lets an ordinary user run the project move command',
  // Errors
  'spec-template-overwrites': 'createSpecFileTemplate succeeds although the spec file exists',
  'waitservice-202': 'answers a successful waitservice with 202 instead of 200',
  // Projects
  'meta-put-ignored': 'answers PUT _meta for a new project with success but creates nothing',
  'undelete-noop': 'answers undelete with success but leaves the project deleted',
  'deleted-listing-ignored': 'ignores `deleted` on GET /source/ and lists the live projects',
  'config-as-xml': 'serves the project _config as application/xml instead of text/plain',
  'set-flag-unchecked': 'accepts set_flag without flag and status',
  // Packages and files
  'upload-commits-immediately': 'puts a file uploaded with rev=upload in the listing before cmd=commit',
  'deleteuploadrev-noop': 'keeps uploads after deleteuploadrev, so the next commit includes them',
  'history-not-recorded': 'adds no revision to _history on commit',
  'diff-as-xml': 'answers cmd=diff with application/xml instead of text/plain',
  'commit-without-rev-accepted': 'accepts cmd=commit without the mandatory rev',
  'commitfilelist-ignores-uploads': 'cmd=commitfilelist does not take files uploaded with rev=repository',
  // Search
  'search-match-optional': 'serves /search routes without the mandatory match predicate',
  'search-match-ignored': 'returns everything whatever the match predicate says',
  // Requests (areas/requests.ts)
  'states-filter-ignored': 'ignores `states` on GET /request?view=collection',
  'states-filter-first-only': 'takes only the first state of a comma-separated `states` list',
  'types-filter-ignored': 'ignores `types` on GET /request?view=collection',
  'roles-filter-ignored': 'ignores `roles` on GET /request?view=collection',
  'collection-without-filter-served': 'serves view=collection without a user, project or package filter',
  'request-limit-ignored': 'ignores `limit` on GET /request?view=collection',
  'changestate-ignores-newstate': 'answers changestate with success but sets declined whatever newstate says',
  'addreview-keeps-state-new': 'records a review added with addreview but leaves the request in state new',
  'review-by-package-dropped': 'drops by_package from a review added with addreview',
  'changereviewstate-ignored': 'answers changereviewstate with success but leaves the review state as it was',
  'approve-accepts-before-last-review': 'accepts an approved request at the first accepted review, before the last',
  'approve-ignored': 'records approve but leaves the request in new after the last review',
  'cancelapproval-noop': 'answers cancelapproval with success but keeps the approval',
  'setpriority-ignored': 'answers setpriority with success but keeps the old priority',
  'setacceptat-ignores-time': 'sets the accept time to now even when `time` is given',
  'setacceptat-needs-time': 'refuses setacceptat without `time` instead of taking now',
  'request-put-open-to-all': 'lets any user change all parts of a request with PUT /request/<id>',
  'request-diff-first-action-only': 'answers a request cmd=diff with the diff of the first action only',
  // Staging (areas/staging.ts)
  'workflow-delete-keeps-staging-projects': 'keeps the staging projects when a workflow is deleted with with_staging_projects',
  'backlog-includes-staged': 'lists staged requests in the backlog',
  'backlog-includes-excluded': 'lists excluded requests in the backlog',
  'exclusion-delete-noop': 'answers DELETE excluded_requests with success but keeps the exclusion',
  'remove-exclusion-ignored': 'stages an excluded request with remove_exclusion but leaves it excluded',
  'unstage-noop': 'answers DELETE staged_requests with success but keeps the requests staged',
  'accept-keeps-staged-requests': 'keeps the staged requests after accept, so the staging project does not return to empty',
  'staging-accept-unchecked': 'accepts a staging project that is not acceptable without force',
  'force-accept-ignores-missing-reviews': 'accepts a staging project with missing reviews when forced',
  'staging-copy-noop': 'answers a staging project copy with success but creates nothing',
  'staging-show-ignores-requests': 'ignores `requests` on GET of a staging project',
  // Statistics, status messages, status checks (areas/status.ts)
  'statistics-limit-ignored': 'ignores `limit` on the /statistics listings',
  'redirect-stats-open-to-all': 'lets any user PUT /statistics/redirect_stats',
  'status-messages-open-to-all': 'lets any user POST /status/messages/',
  'status-message-delete-open-to-all': 'lets any user DELETE /status/messages/<id>',
  'status-messages-limit-ignored': 'ignores `limit` on GET /status/messages/',
  'status-report-put-ignored': 'answers PUT of a request status report with success but stores nothing',
  'status-report-put-duplicates': 'adds a second check of the same name on PUT instead of updating it',
  'required-check-delete-noop': 'answers DELETE of a required check with success but keeps it',
  // Build results, workers and control, published tree and legacy results (areas/build.ts)
  'build-arch-listing-empty': 'lists no packages at GET /build/<project>/<repository>/<arch>',
  'result-filters-ignored': 'ignores `package`, `repository` and `arch` on GET /build/<project>/_result',
  'builddepinfo-filter-ignored': 'ignores `package` on GET _builddepinfo and answers for every package',
  'jobhistory-limit-ignored': 'ignores `limit` on GET _jobhistory',
  'repository-upload-open-to-all': 'lets an ordinary user upload binaries to a repository (PUT .../_repository/<file>)',
  'abortbuild-leaves-job': 'answers abortbuild with success but the job goes on running (_jobstatus not empty)',
  'abortbuild-not-failed': 'stops the running build on abortbuild but marks it scheduled, not failed',
  'log-entry-wrong-size': 'gives a size one byte off the log\'s real size for _log?view=entry',
  'log-range-ignored': 'ignores `start` and `end` on GET _log and returns the whole log',
  'buildinfo-repository-refused': 'refuses POST _buildinfo with the package `_repository`',
  'control-all-means-first': 'applies a build control command without `package` to the first package only',
  'wipe-noop': 'answers cmd=wipe with success but keeps the binaries in the build area',
  'unpublish-noop': 'answers cmd=unpublish with success but keeps the binaries in the publish area',
  'worker-status-missing': 'has no GET /worker/_status',
  'checkconstraints-unchecked': 'runs checkconstraints without the project, package, arch and repository it needs',
  'published-status-ignored': 'ignores view=status on GET /published/<project>/<repository> and lists the architectures',
  'ymp-ignored': 'ignores view=ymp on a published binary and sends the binary itself',
  'legacy-result-missing': 'has no legacy /result/<project>/<platform>/... routes',
  'log-not-text': 'serves _log as application/octet-stream instead of text',
} as const;

export type BuildFault = keyof typeof BUILD_FAULTS;

export function isBuildFault(name: string): name is BuildFault {
  return Object.hasOwn(BUILD_FAULTS, name);
}
