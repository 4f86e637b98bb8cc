// Which servers `npx conformance` tests. Each target names a protocol and how to reach it.
// `npx conformance` with no --target runs every embedded target; `--target <name>` picks some.
import { defineConfig } from 'conformance';

export default defineConfig({
  targets: {
    // The embedded WIRE reference server, started on 127.0.0.1 on an ephemeral port for the run.
    'wire-ref': { protocol: 'wire', embedded: true, authKey: '' },

    // Your own server of the WIRE protocol:
    // 'my-db': { protocol: 'wire', host: '127.0.0.1', port: 28015, authKey: '' },
  },
});
