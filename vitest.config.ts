import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // vitest's default on 2 cores is one worker; most files wait on sockets, servers and
    // background windows rather than compute, so two share the machine (CI's is the same size).
    maxWorkers: 2,
    testTimeout: 20_000,
    hookTimeout: 20_000,
  },
});
