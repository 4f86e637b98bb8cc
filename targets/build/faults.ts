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
  // Requests
  'request-not-stored': 'answers cmd=create with the request but keeps nothing to show or list',
  'states-filter-ignored': 'lists requests in every state whatever `states` names',
  'request-limit-ignored': 'ignores `limit` on the request list',
  'collection-unfiltered-accepted': 'serves view=collection without a user, project or package filter',
  'changestate-ignores-newstate': 'answers changestate with success but keeps the old state',
  'approval-ignored': 'leaves an approved request in new after its last review is accepted',
  'cancelapproval-noop': 'keeps the approval after cancelapproval',
  // Search
  'search-match-optional': 'serves /search routes without the mandatory match predicate',
  'search-match-ignored': 'returns everything whatever the match predicate says',
} as const;

export type BuildFault = keyof typeof BUILD_FAULTS;

export function isBuildFault(name: string): name is BuildFault {
  return Object.hasOwn(BUILD_FAULTS, name);
}
