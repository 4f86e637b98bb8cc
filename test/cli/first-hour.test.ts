// Issue 32, done when: "A test plays the partial implementer: a small server implementing one area
// of one protocol, a config with `implements`, a baseline, the gate green, a regression caught;
// `fuzz` with the same selection sends no request outside it."
//
// The small server is cloud-ref serving only the account, events, the invoice list, users and settings
// (every other route answers 404, as a server without it does), the offline emulator. It
// runs on 127.0.0.1; the user's config names it by URL and says what it implements.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Io } from '../../src/cli/console.ts';
import { main } from '../../src/cli/main.ts';
import { caseSelector, loadChecks } from '../../src/core/registry.ts';
import { startCloudReference } from '../../targets/cloud/server.ts';

// The emulator: the account itself, events, the invoice list, users, settings.
const IMPLEMENTS = ['/account', '/account/events/', '/account/invoices', '/account/users/**', '/account/settings/**'];

async function run(...args: string[]) {
  const lines: string[] = [];
  const io: Io = { out: (l) => lines.push(l), err: (l) => lines.push(l), interactive: false };
  const code = await main(['node', 'conformance', ...args], io);
  return { code, out: lines.join('\n') };
}

/** The emulator: the routes the checks declare under what it implements, and nothing else. */
async function startEmulator(faults: string[], seen: string[]) {
  const select = caseSelector({}, { paths: IMPLEMENTS }, 'cloud');
  const routes = [...new Set((await loadChecks(['cloud'])).flatMap((c) => c.touches ?? []))].filter((t) => {
    const [method, path] = t.split(' ');
    return select.route!(method, path);
  });
  return startCloudReference({ faults, modes: { onlyRoutes: routes, onRoute: (r) => seen.push(r) } });
}

function writeConfig(dir: string, ref: Awaited<ReturnType<typeof startCloudReference>>, name: string): string {
  // A file of its own per server: a config module, once imported, is not read again.
  const file = join(dir, name);
  const target = { protocol: 'cloud', baseUrl: `${ref.baseUrl}/v4`, tokens: ref.tokens, fixtures: ref.fixtures, allow: ['destructive'], implements: { paths: IMPLEMENTS } };
  writeFileSync(file, `export default { targets: { emulator: ${JSON.stringify(target)} } };\n`);
  return file;
}

describe("a partial implementer's first hour, end to end", () => {
  it('implements in the config, a baseline, the gate green, a regression caught, fuzz inside the selection', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'conformance-first-hour-'));
    const seen: string[] = [];
    let ref = await startEmulator([], seen);
    try {
      let config = writeConfig(dir, ref, 'targets.config.mjs');
      const common = ['--config', config, '--target', 'emulator', '--seed', '11', '--concurrency', '4'];

      // The first run: only the selected checks, none failing on what the emulator implements.
      const first = await run(...common, '--out', join(dir, 'first'));
      expect(first.code, first.out).toBe(0);
      expect(first.out).toMatch(/selection: emulator: \d+ of \d+ checks selected; not selected: \d+ by implements\.paths \(config\)/);
      expect(first.out).not.toMatch(/^\s*FAIL/m);

      // The baseline from it, and the gate with it: green.
      const baseline = join(dir, 'emulator.baseline');
      const wrote = await run('baseline', '--from', join(dir, 'first', 'conformance.json'), '--output', baseline);
      expect(wrote.code, wrote.out).toBe(0);
      const gate = await run(...common, '--baseline', baseline, '--out', join(dir, 'gate'));
      expect(gate.code, gate.out).toBe(0);
      expect(gate.out).toContain('verdict: PASSED (exit 0)');

      // A regression: DELETE of a user answers {} but keeps the user. The gate goes red and names it.
      await ref.close();
      ref = await startEmulator(['user-delete-noop'], seen);
      config = writeConfig(dir, ref, 'regressed.config.mjs');
      const regressed = await run('--config', config, '--target', 'emulator', '--seed', '11', '--concurrency', '4', '--baseline', baseline, '--out', join(dir, 'regressed'));
      expect(regressed.code, regressed.out).toBe(1);
      expect(regressed.out).toMatch(/verdict: FAILED \(exit 1\): \d+ new failure/);
      expect(regressed.out).toMatch(/FAIL.*cloud\.users\./);

      // fuzz with the same config: every request it sends is inside what the emulator implements.
      seen.length = 0;
      const fuzz = await run('fuzz', '--config', config, '--target', 'emulator', '--runs', '300', '--seed', '11', '--out', join(dir, 'fuzz'));
      expect([0, 1], fuzz.out).toContain(fuzz.code);
      expect(fuzz.out).toContain(`sends only: implements.paths ${IMPLEMENTS.join(', ')}`);
      expect(seen.length).toBeGreaterThan(300);
      const select = caseSelector({}, { paths: IMPLEMENTS }, 'cloud');
      const outside = seen.filter((r) => {
        const m = /^([A-Z]+) (\S+)/.exec(r)!;
        return r.endsWith('(no route)') || !select.route!(m[1], m[2]);
      });
      expect(outside).toEqual([]);
      // And the campaign reached the server's logic: not every answer was a 404.
      expect(fuzz.out).not.toContain("no case reached the server's logic");
    } finally {
      await ref.close();
    }
  }, 180_000);
});
