// Where reports go (issue 25): `--junit <file>` puts every target's JUnit in one file of the
// user's choosing; `-o` means `--out <dir>` in every command, so `baseline` refuses it with a
// pointer to `--output`; and a failure of a run given `-c <file>` reproduces from its printed line.
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { XMLValidator } from 'fast-xml-parser';
import { describe, expect, it } from 'vitest';
import type { Io } from '../../src/cli/console.ts';
import { main } from '../../src/cli/main.ts';

async function run(...args: string[]) {
  const lines: string[] = [];
  const io: Io = { out: (l) => lines.push(l), err: (l) => lines.push(l), interactive: false };
  const code = await main(['node', 'conformance', ...args], io);
  return { code, out: lines.join('\n') };
}

const dir = () => mkdtempSync(join(tmpdir(), 'conformance-output-'));

describe('--junit <file>', () => {
  it('writes the JUnit of every target to that one file, and no per-target file under --out', async () => {
    const d = dir();
    const junit = join(d, 'ci', 'results.xml');
    const r = await run('--target', 'wire-ref', 'build-ref', '--only', 'wire.limits.*', 'build.about.*', '--seed', '3', '--out', join(d, 'out'), '--junit', junit);
    expect(r.code, r.out).toBe(0);
    expect(r.out).toContain(`reports: ${junit}, `);
    const xml = readFileSync(junit, 'utf8');
    expect(XMLValidator.validate(xml)).toBe(true);
    const report = JSON.parse(readFileSync(join(d, 'out', 'conformance.json'), 'utf8'));
    expect((xml.match(/<testcase /g) ?? []).length).toBe(report.totals.total);
    expect(xml).toMatch(/<testsuite name="wire-ref · /);
    expect(xml).toMatch(/<testsuite name="build-ref · /);
    expect(readdirSync(join(d, 'out')).filter((f) => f.endsWith('.junit.xml'))).toEqual([]);
  }, 30_000);

  it('a --junit that is a directory: exit 2 before any check runs', async () => {
    const d = dir();
    mkdirSync(join(d, 'results'));
    const r = await run('--target', 'wire-ref', '--only', 'wire.limits.*', '--out', join(d, 'out'), '--junit', join(d, 'results'));
    expect([r.code, r.out]).toEqual([2, `conformance: --junit ${join(d, 'results')}: is a directory (name the file, e.g. ${join(d, 'results')}/junit.xml)`]);
  });
});

describe('-o', () => {
  it('baseline answers -o with a pointer to --output; --output writes the file', async () => {
    const d = dir();
    const failing = await run('--target', 'wire-ref', '--fault', 'batch-1000', '--only', 'wire.limits.*', '--seed', '1', '--out', join(d, 'a'));
    expect(failing.code).toBe(1);
    const from = join(d, 'a', 'conformance.json');
    const refused = await run('baseline', '--from', from, '-o', join(d, 'known.txt'));
    expect([refused.code, refused.out]).toEqual([2, `conformance: baseline writes one file: name it with --output ${join(d, 'known.txt')} (-o is --out <dir> in run, fuzz and merge)`]);
    const wrote = await run('baseline', '--from', from, '--output', join(d, 'known.txt'));
    expect(wrote.code, wrote.out).toBe(0);
    expect(readFileSync(join(d, 'known.txt'), 'utf8')).toContain('wire.limits.');
  }, 30_000);

  it('run, merge and fuzz take -o as --out <dir>', async () => {
    const d = dir();
    const one = ['--target', 'wire-ref', '--only', 'wire.limits.*', '--seed', '4'];
    expect((await run(...one, '--shard', '1/1', '-o', join(d, 's1'))).code).toBe(0);
    expect((await run('merge', join(d, 's1', 'conformance.json'), '-o', join(d, 'm'))).code).toBe(0);
    expect(readdirSync(join(d, 'm'))).toContain('conformance.json');
    expect((await run('fuzz', '--target', 'wire-ref', '--runs', '20', '--seed', '1', '-o', join(d, 'f'))).code).toBe(0);
    expect(readdirSync(join(d, 'f'))).toContain('fuzz.json');
  }, 30_000);
});

describe('a run with -c', () => {
  it('prints a reproduction that carries the config file, and it reproduces', async () => {
    const d = dir();
    const config = join(d, 'conf', 'mine.config.mjs');
    mkdirSync(join(d, 'conf'));
    writeFileSync(config, "export default { targets: { db: { protocol: 'wire', embedded: true, authKey: '' } } };\n");
    const r = await run('-c', config, '--fault', 'batch-1000', '--only', 'wire.limits.*', '--out', join(d, 'out'));
    expect(r.code).toBe(1);
    const line = r.out.split('\n').find((l) => l.startsWith('reproduce the first failure: '))!;
    const command = line.replace('reproduce the first failure: npx conformance ', '');
    expect(command).toMatch(new RegExp(`^--config ${config.replace(/[.]/g, '\\.')} --target db --only wire\\.limits\\.[a-z0-9.-]+ --seed \\d+ --fault batch-1000$`));
    const again = await run(...command.split(' '), '--out', join(d, 'again'));
    expect(again.code, again.out).toBe(1);
    expect(again.out).toContain('FAIL  wire.limits.');
  }, 30_000);
});
