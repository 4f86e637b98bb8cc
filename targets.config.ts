// Which servers `npx conformance` tests. Each target names a protocol and how to reach it.
// `npx conformance` with no --target runs every embedded target; `--target <name>` picks some.
import { defineConfig } from 'conformance';

export default defineConfig({
  targets: {
    // The embedded WIRE reference server, started on 127.0.0.1 on an ephemeral port for the run.
    'wire-ref': { protocol: 'wire', embedded: true, authKey: '' },
    // The embedded CLOUD reference server; it seeds its own tokens and fixtures.
    'cloud-ref': { protocol: 'cloud', embedded: true },
    // The embedded BUILD reference server; it seeds its own users, token and fixtures.
    'build-ref': { protocol: 'build', embedded: true },
    // The same three references in their variant mode: every choice the documents leave open
    // (key order, quoting, layout, which refusal comes first, how long a build takes) taken the
    // other way; see docs/open-choices.md. Every check passes against these too.
    'wire-variant': { protocol: 'wire', embedded: true, variant: true, authKey: '' },
    'cloud-variant': { protocol: 'cloud', embedded: true, variant: true },
    'build-variant': { protocol: 'build', embedded: true, variant: true },

    // Credentials come from the environment by one scheme: CONFORMANCE_ + the field path in upper
    // snake case (tokens.readOnly -> CONFORMANCE_TOKENS_READ_ONLY, users.user.password ->
    // CONFORMANCE_USERS_USER_PASSWORD); the curl lines of reports use the same names.

    // Your own server of the WIRE protocol (or, with no config at all:
    // npx conformance --host 127.0.0.1 --port 28015, the key from CONFORMANCE_AUTH_KEY):
    // 'my-db': { protocol: 'wire', host: '127.0.0.1', port: 28015, authKey: process.env.CONFORMANCE_AUTH_KEY ?? '' },

    // Your own server of the CLOUD API (tokens by role; fixtures name what the checks may use;
    // README "Point it at your own server" says what each is for and what a re-run needs):
    // 'my-api': {
    //   protocol: 'cloud',
    //   baseUrl: 'https://api.example.test',
    //   tokens: { unrestricted: process.env.CONFORMANCE_TOKENS_UNRESTRICTED, restricted: process.env.CONFORMANCE_TOKENS_RESTRICTED,
    //             restrictedReadWrite: process.env.CONFORMANCE_TOKENS_RESTRICTED_READ_WRITE,
    //             readOnly: process.env.CONFORMANCE_TOKENS_READ_ONLY, otherAccount: process.env.CONFORMANCE_TOKENS_OTHER_ACCOUNT },
    //   fixtures: {
    //     // 16 node ids for a full run; a re-run 4 more for each complete run before it (moved to B)
    //     transferableNodeIds: [101, 102, 103, 104, 105, 106, 107, 108, 109, 110, 111, 112, 113, 114, 115, 116],
    //     databases: { active: 11, failed: 12 },
    //     filter: { path: '/account/events', stringField: 'action', numberField: 'id' },
    //     // the OAuth login server, and a private client of account A for the checks that only
    //     // exchange codes and tokens (its secret is redacted from every report)
    //     oauth: { authUrl: 'https://login.example.test',
    //              client: { id: process.env.CONFORMANCE_FIXTURES_OAUTH_CLIENT_ID ?? '', secret: process.env.CONFORMANCE_FIXTURES_OAUTH_CLIENT_SECRET ?? '' } },
    //   },
    //   allow: [],   // add 'destructive' and/or 'load' to run checks that change state or send bursts
    // },

    // Your own server of the BUILD API (HTTP Basic users by role, a runservice token, fixtures):
    // 'my-obs': {
    //   protocol: 'build',
    //   baseUrl: 'https://build.example.test',
    //   users: { user: { username: 'tux', password: process.env.CONFORMANCE_USERS_USER_PASSWORD ?? '' } },
    //   token: process.env.CONFORMANCE_TOKEN,
    //   fixtures: { project: 'home:tux:demo', package: 'hello', repository: 'standard', arch: 'x86_64',
    //               attributeNamespace: 'OBS',   // the document's `SVC:` attributes (SVC:Maintained...) as an OBS names them
    //               // /search/owner: a binary owned at two levels, who holds which role there, and a binary with a devel package
    //               ownedBinary: 'owned', ownerRoles: { maintainer: 'Admin', bugowner: 'tux' },
    //               ownerDevel: { binary: 'devowned', develProject: 'devel:tools' } },
    //   // An already-built package the destructive checks may wipe and unpublish (only that purpose):
    //   // fixtures.built: { project: 'home:tux:built', package: 'alpha', repository: 'standard', arch: 'x86_64' },
    //   allow: [],
    // },
  },
});
