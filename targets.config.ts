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

    // Your own server of the WIRE protocol:
    // 'my-db': { protocol: 'wire', host: '127.0.0.1', port: 28015, authKey: '' },

    // Your own server of the CLOUD API (tokens by role; fixtures name what the checks may use):
    // 'my-api': {
    //   protocol: 'cloud',
    //   baseUrl: 'https://api.example.test',
    //   tokens: { unrestricted: process.env.TOKEN_UNRESTRICTED, restricted: process.env.TOKEN_RESTRICTED,
    //             readOnly: process.env.TOKEN_READ_ONLY, otherAccount: process.env.TOKEN_OTHER_ACCOUNT },
    //   fixtures: { transferableNodeIds: [123, 124], databases: { active: 11, failed: 12 },
    //               filter: { path: '/account/events', stringField: 'action', numberField: 'id' } },
    //   allow: [],   // add 'destructive' and/or 'load' to run checks that change state or send bursts
    // },

    // Your own server of the BUILD API (HTTP Basic users by role, a runservice token, fixtures):
    // 'my-obs': {
    //   protocol: 'build',
    //   baseUrl: 'https://build.example.test',
    //   users: { user: { username: 'tux', password: process.env.OBS_PASSWORD ?? '' } },
    //   token: process.env.OBS_RUNSERVICE_TOKEN,
    //   fixtures: { project: 'home:tux:demo', package: 'hello', repository: 'standard', arch: 'x86_64' },
    //   allow: [],
    // },
  },
});
