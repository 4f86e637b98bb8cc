// The published package as a newcomer meets it: `npm pack` (which builds dist/ through prepack),
// the tarball installed into an empty folder, a user's targets.config.ts type-checked against
// what was installed, and the installed `conformance` run on it. The npm registry is reached only
// for what the npm cache lacks (--prefer-offline): after the repo's own `npm ci`, nothing.
import { execFile } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const root = new URL('../..', import.meta.url).pathname;
const tsc = join(root, 'node_modules/typescript/bin/tsc');
// The consumer's Node types: the repo's own version, so the install finds it in the npm cache.
const typesNode = JSON.parse(readFileSync(join(root, 'node_modules/@types/node/package.json'), 'utf8')).version as string;

interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

async function run(file: string, args: string[], cwd: string): Promise<Run> {
  try {
    const { stdout, stderr } = await promisify(execFile)(file, args, { cwd, env: { ...process.env, CI: 'true' }, maxBuffer: 64 * 1024 * 1024 });
    return { code: 0, stdout, stderr };
  } catch (err) {
    const e = err as { code: number; stdout: string; stderr: string };
    return { code: typeof e.code === 'number' ? e.code : -1, stdout: e.stdout ?? '', stderr: e.stderr ?? String(err) };
  }
}

/** Fails with the process's own words, not just its exit code. */
function expectOk(r: Run, what: string): void {
  expect(r.code, `${what} exited ${r.code}\n${r.stdout}\n${r.stderr}`).toBe(0);
}

// The package's name (the command it installs is `conformance`).
const NAME = 'protocol-conformance-suite';

const CONFIG = `import { defineConfig } from '${NAME}';

export default defineConfig({
  targets: {
    'my-wire': { protocol: 'wire', embedded: true, authKey: '' },
  },
});
`;

// A consumer's usual settings, with the library's declarations checked too (no skipLibCheck).
const TSCONFIG = {
  compilerOptions: { target: 'ES2022', module: 'NodeNext', moduleResolution: 'NodeNext', strict: true, noEmit: true, skipLibCheck: false, types: ['node'] },
  include: ['targets.config.ts'],
};

describe('the packed tarball, installed into an empty folder', () => {
  let work: string;
  let consumer: string;
  let tarball: string;
  let entries: string[];

  beforeAll(async () => {
    work = mkdtempSync(join(tmpdir(), 'conformance-package-'));
    consumer = join(work, 'consumer');
    mkdirSync(consumer);
    const packed = await run('npm', ['pack', '--pack-destination', work, '--loglevel', 'error'], root);
    expectOk(packed, 'npm pack');
    tarball = join(work, readdirSync(work).find((f) => f.endsWith('.tgz'))!);
    entries = (await run('tar', ['-tzf', tarball], work)).stdout.split('\n').filter(Boolean).map((p) => p.replace(/^package\//, ''));

    writeFileSync(join(consumer, 'package.json'), JSON.stringify({ name: 'consumer', private: true, type: 'module' }));
    const installed = await run('npm', ['install', '--prefer-offline', '--no-audit', '--no-fund', '--loglevel', 'warn', tarball, `@types/node@${typesNode}`], consumer);
    expectOk(installed, 'npm install');
    // The root's `overrides` do not reach a consumer: the direct light-my-request dependency keeps
    // fastify's cookie at 1.x, whose engines Node 20 meets (cookie 2 declares Node 22).
    expect(installed.stderr).not.toContain('EBADENGINE');
  }, 240_000);

  afterAll(() => {
    if (work) rmSync(work, { recursive: true, force: true });
  });

  it('is named protocol-conformance-suite, installs the command conformance, and builds dist/ in prepare (so a git URL installs)', () => {
    const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
    expect(pkg.name).toBe(NAME);
    expect(pkg.bin).toEqual({ conformance: 'bin/conformance.js' });
    expect(pkg.scripts.prepare).toBe('node bin/build.js');
    expect(tarball.endsWith(`${NAME}-${pkg.version}.tgz`)).toBe(true);
    expect(existsSync(join(consumer, `node_modules/${NAME}/dist/src/index.js`))).toBe(true);
    expect(existsSync(join(consumer, 'node_modules/.bin/conformance'))).toBe(true);
  });

  it('ships what runs and nothing of the repo’s own tooling', () => {
    for (const p of ['bin/conformance.js', 'dist/src/index.js', 'dist/src/index.d.ts', 'dist/src/cli/main.js', 'dist/suites/wire/index.js', 'dist/src/clients/wire/ql2.proto', 'dist/fuzz/thread-worker.mjs', 'README.md', 'LICENSE', 'package.json']) {
      expect(entries, p).toContain(p);
    }
    expect(entries.filter((p) => /^(test|bench|\.ci|src|docs|examples|reports)\//.test(p))).toEqual([]);
    // No TypeScript source: its presence is what makes bin/conformance.js run sources through jiti.
    expect(entries.filter((p) => p.endsWith('.ts') && !p.endsWith('.d.ts'))).toEqual([]);
  });

  it('type-checks a user config that imports defineConfig from conformance', async () => {
    writeFileSync(join(consumer, 'targets.config.ts'), CONFIG);
    writeFileSync(join(consumer, 'tsconfig.json'), JSON.stringify(TSCONFIG));
    expectOk(await run(process.execPath, [tsc, '-p', consumer], consumer), 'tsc');
    // A mistake in the config is the consumer's tsc's to catch, through the package's declarations.
    writeFileSync(join(consumer, 'wrong.ts'), `import { defineConfig } from '${NAME}';\nexport default defineConfig({ targets: { x: { protocol: 'wire', port: 'no' } } });\n`);
    const wrong = await run(process.execPath, [tsc, '--noEmit', '--strict', '--module', 'NodeNext', '--moduleResolution', 'NodeNext', '--types', 'node', 'wrong.ts'], consumer);
    rmSync(join(consumer, 'wrong.ts'));
    expect(wrong.code).not.toBe(0);
    expect(wrong.stdout).toMatch(/wrong\.ts.*error TS2322/);
  }, 60_000);

  it('runs the user config with the installed conformance', async () => {
    writeFileSync(join(consumer, 'targets.config.ts'), CONFIG);
    const r = await run('npx', ['--no-install', 'conformance', '--target', 'my-wire', '--only', 'Handshake'], consumer);
    expectOk(r, 'npx conformance');
    const report = JSON.parse(readFileSync(join(consumer, 'reports/conformance.json'), 'utf8'));
    const results = JSON.stringify(report);
    expect(results).toContain('wire.handshake.success');
    expect(existsSync(join(consumer, 'reports/my-wire.junit.xml'))).toBe(true);
    expect(r.stdout).toMatch(/my-wire .*\n( {2}selection: .*\n)?.*\d+ passed, 0 failed/);
  }, 60_000);

  it('loads a config that imports conformance from a folder the package is not installed in (as npx --package does)', async () => {
    const elsewhere = join(work, 'elsewhere');
    mkdirSync(elsewhere);
    writeFileSync(join(elsewhere, 'targets.config.ts'), CONFIG);
    const bin = join(consumer, `node_modules/${NAME}/bin/conformance.js`);
    expectOk(await run(process.execPath, [bin, '--target', 'my-wire', '--only', 'wire.handshake.success'], elsewhere), 'conformance');
    expect(existsSync(join(elsewhere, 'reports/conformance.json'))).toBe(true);
  }, 60_000);

  it('leaves a clone running its sources: the dist/ that npm pack built there is never used', async () => {
    // npm pack just built dist/ in the repo; make its entry point unmistakable, then run the clone's bin.
    const built = join(root, 'dist/src/cli/main.js');
    const original = readFileSync(built, 'utf8');
    try {
      writeFileSync(built, 'export async function main() { return 99; }\n');
      const r = await run(process.execPath, [join(root, 'bin/conformance.js'), 'list', '--only', 'wire.handshake.success'], root);
      expectOk(r, 'conformance list in the clone');
      expect(r.stdout).toContain('wire.handshake.success');
    } finally {
      writeFileSync(built, original);
    }
  }, 60_000);

  it('has a postinstall that does nothing in a consumer install, and says nothing', async () => {
    // npm 11 holds a dependency's install scripts back until allowed; older npm runs them.
    const r = await run(process.execPath, [join(consumer, `node_modules/${NAME}/bin/warm-cache.js`)], consumer);
    expectOk(r, 'warm-cache');
    expect(r.stdout + r.stderr).toBe('');
  });
});

// `npm install -D git+<URL>` from a clone's repository: npm clones it, installs its dev
// dependencies there and runs `prepare` (which builds dist/), then installs what `npm pack` would
// ship. The URL here is the checkout's own repository (its committed HEAD), as a file URL.
const isGitCheckout = existsSync(join(root, '.git'));
describe.skipIf(!isGitCheckout)('installed from a git URL into an empty folder (the README install line)', () => {
  let consumer: string;

  beforeAll(async () => {
    consumer = mkdtempSync(join(tmpdir(), 'conformance-git-'));
    writeFileSync(join(consumer, 'package.json'), JSON.stringify({ name: 'consumer', private: true, type: 'module' }));
    const installed = await run('npm', ['install', '-D', '--prefer-offline', '--no-audit', '--no-fund', '--loglevel', 'error', `git+file://${root}`], consumer);
    expectOk(installed, 'npm install git+file://…');
  }, 420_000);

  afterAll(() => {
    if (consumer) rmSync(consumer, { recursive: true, force: true });
  });

  it('installs under its name with dist/ built by prepare, and runs a user config', async () => {
    expect(JSON.parse(readFileSync(join(consumer, 'package.json'), 'utf8')).devDependencies[NAME]).toMatch(/^git\+file:/);
    expect(existsSync(join(consumer, `node_modules/${NAME}/dist/src/cli/main.js`))).toBe(true);
    writeFileSync(join(consumer, 'targets.config.ts'), CONFIG);
    const r = await run('npx', ['--no-install', 'conformance', '--target', 'my-wire', '--only', 'wire.handshake.success'], consumer);
    expectOk(r, 'npx conformance');
    expect(JSON.stringify(JSON.parse(readFileSync(join(consumer, 'reports/conformance.json'), 'utf8')))).toContain('wire.handshake.success');
  }, 60_000);
});
