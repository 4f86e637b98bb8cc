// osc, the build service's own command-line client (Debian package `osc`), against build-ref over
// plain http on loopback with Basic credentials from a temporary oscrc.
import { execFile } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startBuildReference, type BuildReference } from '../../targets/build/server.ts';

const OSC = '/usr/bin/osc';
// CI installs osc (.ci/run); a developer machine without it skips this file.
const haveOsc = existsSync(OSC) || process.env.CI === 'true';

describe.skipIf(!haveOsc)('osc against build-ref', () => {
  let ref: BuildReference;
  let home: string;
  let oscrc: string;
  /** A project of tux's, from a meta of <repository name="standard"> plus `extra` (e.g. a release target). */
  async function makeProject(name: string, extra = '', dir = mkdtempSync(join(home, 'prj-'))): Promise<string> {
    writeFileSync(join(dir, 'prj.xml'), `<project name="${name}"><title>${name}</title><description/><repository name="standard">${extra}<arch>x86_64</arch></repository></project>`);
    await osc(['meta', 'prj', '-F', join(dir, 'prj.xml'), name]);
    return dir;
  }

  /** Runs osc with the temporary config; returns stdout (osc's insecure-http warning goes to stderr). */
  async function osc(args: string[], cwd = home): Promise<string> {
    // OSC_CONFIG as well as -c: osc's branch reads the default config for its closing hint, ignoring -c;
    // EDITOR=true: a command that would ask for a message in an editor never waits for one.
    const { stdout } = await promisify(execFile)(OSC, ['-c', oscrc, ...args], { cwd, env: { ...process.env, HOME: home, OSC_CONFIG: oscrc, EDITOR: 'true', XDG_STATE_HOME: join(home, '.state') } });
    return stdout;
  }

  beforeAll(async () => {
    ref = await startBuildReference();
    home = mkdtempSync(join(tmpdir(), 'conformance-osc-'));
    oscrc = join(home, 'oscrc');
    const { username, password } = ref.users.user;
    // check_for_request_on_action=0: around checkout and commit osc looks for open requests
    // (/search/request); these tests are about sources, not requests.
    writeFileSync(oscrc, `[general]\napiurl = ${ref.baseUrl}\ncheck_for_request_on_action = 0\n[${ref.baseUrl}]\nuser = ${username}\npass = ${password}\ncredentials_mgr_class=osc.credentials.PlaintextConfigFileCredentialsManager\n`);
    chmodSync(oscrc, 0o600);
  });
  afterAll(async () => ref?.close());

  it('osc ls lists projects, packages and files', async () => {
    expect((await osc(['ls'])).split('\n')).toContain('conformance:fixture');
    expect((await osc(['ls', 'conformance:fixture'])).split('\n')).toEqual(expect.arrayContaining(['hello', 'world']));
    expect((await osc(['ls', 'conformance:fixture', 'hello'])).split('\n')).toEqual(expect.arrayContaining(['hello.spec', 'hello.c']));
  });

  it('osc meta prj / pkg read and write', async () => {
    expect(await osc(['meta', 'prj', 'conformance:fixture'])).toContain('<project name="conformance:fixture">');
    const dir = mkdtempSync(join(home, 'meta-'));
    writeFileSync(join(dir, 'prj.xml'), '<project name="home:tux:osc-meta"><title>osc</title><description/></project>');
    await osc(['meta', 'prj', '-F', join(dir, 'prj.xml'), 'home:tux:osc-meta']);
    expect(await osc(['meta', 'prj', 'home:tux:osc-meta'])).toContain('<title>osc</title>');
    writeFileSync(join(dir, 'pkg.xml'), '<package name="tool" project="home:tux:osc-meta"><title>tool</title><description/></package>');
    await osc(['meta', 'pkg', '-F', join(dir, 'pkg.xml'), 'home:tux:osc-meta', 'tool']);
    expect(await osc(['meta', 'pkg', 'home:tux:osc-meta', 'tool'])).toContain('<package name="tool"');
  });

  it('osc checkout, add, commit and log of a package', async () => {
    const dir = mkdtempSync(join(home, 'wc-'));
    writeFileSync(join(dir, 'prj.xml'), '<project name="home:tux:osc-wc"><title>wc</title><description/></project>');
    writeFileSync(join(dir, 'pkg.xml'), '<package name="demo" project="home:tux:osc-wc"><title>demo</title><description/></package>');
    await osc(['meta', 'prj', '-F', join(dir, 'prj.xml'), 'home:tux:osc-wc']);
    await osc(['meta', 'pkg', '-F', join(dir, 'pkg.xml'), 'home:tux:osc-wc', 'demo']);
    await osc(['checkout', 'home:tux:osc-wc', 'demo'], dir);
    const wc = join(dir, 'home:tux:osc-wc', 'demo');
    mkdirSync(wc, { recursive: true });
    writeFileSync(join(wc, 'demo.c'), 'int main(void) { return 0; }\n');
    await osc(['add', 'demo.c'], wc);
    expect(await osc(['commit', '-m', 'first commit from osc'], wc)).toContain('Committed revision 1');
    expect((await osc(['ls', 'home:tux:osc-wc', 'demo'])).split('\n')).toContain('demo.c');
    writeFileSync(join(wc, 'demo.c'), 'int main(void) { return 1; }\n');
    expect(await osc(['commit', '-m', 'second commit from osc'], wc)).toContain('Committed revision 2');
    const log = await osc(['log'], wc);
    expect(log).toContain('second commit from osc');
    expect(log).toContain('first commit from osc');
  });

  it('osc sr, request list, accept and decline', async () => {
    const dir = mkdtempSync(join(home, 'rq-'));
    writeFileSync(join(dir, 'prj.xml'), '<project name="home:tux:osc-rq"><title>rq</title><description/></project>');
    await osc(['meta', 'prj', '-F', join(dir, 'prj.xml'), 'home:tux:osc-rq']);
    for (const k of ['a', 'b']) {
      writeFileSync(join(dir, `${k}.xml`), `<package name="${k}" project="home:tux:osc-rq"><title>${k}</title><description/></package>`);
      await osc(['meta', 'pkg', '-F', join(dir, `${k}.xml`), 'home:tux:osc-rq', k]);
    }
    const created = await osc(['sr', '-m', 'from osc', 'home:tux:osc-rq', 'a', 'home:tux:osc-rq', 'b'], dir);
    const id = /created request id (\d+)/.exec(created)?.[1];
    expect(id, created).toBeDefined();
    const list = await osc(['request', 'list', 'home:tux:osc-rq'], dir);
    expect(list).toMatch(new RegExp(`${id}\\s+State:new`));
    expect(list).toContain('home:tux:osc-rq/a');
    // After the changestate, osc looks up devel packages at `//search/package` (a doubled slash,
    // with a `[devel/[...]]` predicate): build-ref answers both.
    expect(await osc(['request', 'accept', '-m', 'ok', id!], dir)).toContain('Result of change request state: ok');
    expect(await osc(['request', 'list', '-s', 'accepted', 'home:tux:osc-rq'], dir)).toMatch(new RegExp(`${id}\\s+State:accepted`));
    const second = /created request id (\d+)/.exec(await osc(['sr', '-m', 'again', 'home:tux:osc-rq', 'a', 'home:tux:osc-rq', 'b'], dir))?.[1];
    await osc(['request', 'decline', '-m', 'no', second!], dir);
    expect(await osc(['request', 'list', '-s', 'declined', 'home:tux:osc-rq'], dir)).toMatch(new RegExp(`${second}\\s+State:declined`));
  });

  it('osc results, remotebuildlog, buildhistory and jobhistory read the build results', async () => {
    // The fixture project holds builds in every result code the document lists; osc shows them.
    const table = await osc(['results', 'conformance:fixture']);
    expect(table).toMatch(/% U x s\s+standard aarch64/);
    expect(table).toMatch(/\. B {3}F\s+standard x86_64/);
    const hello = await osc(['results', 'conformance:fixture', 'hello']);
    expect(hello).toMatch(/standard\s+x86_64\s+succeeded/);
    expect(hello).toMatch(/standard\s+aarch64\s+building/);
    const log = await osc(['remotebuildlog', 'conformance:fixture', 'hello', 'standard', 'x86_64']);
    expect(log).toContain('finished "build hello.spec" with result succeeded');
    expect(await osc(['buildhistory', 'conformance:fixture', 'hello', 'standard', 'x86_64'])).toMatch(/1\.0-0\.3/);
    expect(await osc(['jobhistory', 'conformance:fixture', 'hello', 'standard', 'x86_64'])).toMatch(/hello\s+source change\s+succeeded/);
  });

  it('osc buildlog in a checked-out package prints the log of its build, from --offset on', async () => {
    // osc buildlog reads GET .../<package>/_log?nostream=1&start=<offset> until an empty answer.
    const dir = mkdtempSync(join(home, 'bl-'));
    await osc(['checkout', 'conformance:fixture', 'world'], dir);
    const wc = join(dir, 'conformance:fixture', 'world');
    const log = await osc(['buildlog', 'standard', 'x86_64'], wc);
    expect(log).toContain('error: Bad exit status');
    expect(log).toContain('finished "build world.spec" with result failed');
    expect(log).toBe(await osc(['remotebuildlog', 'conformance:fixture', 'world', 'standard', 'x86_64']));
    expect(await osc(['buildlog', '--offset', '20', 'standard', 'x86_64'], wc)).toBe(log.slice(20));
    // hello builds on aarch64 now: its log so far, without an end.
    await osc(['checkout', 'conformance:fixture', 'hello'], dir);
    const running = await osc(['buildlog', 'standard', 'aarch64'], join(dir, 'conformance:fixture', 'hello'));
    expect(running).toContain('compiling hello');
    expect(running).not.toContain('finished');
  });

  it('osc rebuild reschedules builds of a project the user may write, and is refused elsewhere', async () => {
    const dir = mkdtempSync(join(home, 'bc-'));
    writeFileSync(join(dir, 'prj.xml'), '<project name="home:tux:osc-bc"><title>bc</title><description/><repository name="standard"><arch>x86_64</arch></repository></project>');
    writeFileSync(join(dir, 'pkg.xml'), '<package name="p" project="home:tux:osc-bc"><title>p</title><description/></package>');
    await osc(['meta', 'prj', '-F', join(dir, 'prj.xml'), 'home:tux:osc-bc']);
    await osc(['meta', 'pkg', '-F', join(dir, 'pkg.xml'), 'home:tux:osc-bc', 'p']);
    expect(await osc(['rebuild', 'home:tux:osc-bc', 'p'])).toContain('ok');
    expect(await osc(['results', 'home:tux:osc-bc', 'p'])).toMatch(/standard\s+x86_64\s+scheduled/);
    await expect(osc(['rebuild', 'conformance:fixture', 'hello'])).rejects.toThrow(/403/);
  });

  it('osc getbinaries downloads the binaries of a repository the fixture project declares in its meta', async () => {
    const dir = mkdtempSync(join(home, 'bin-'));
    expect(await osc(['meta', 'prj', 'conformance:fixture'])).toMatch(/<repository name="standard">/);
    await osc(['getbinaries', 'conformance:fixture', 'hello', 'standard', 'x86_64', '-d', dir]);
    expect(readFileSync(join(dir, 'hello-1.0-0.x86_64.rpm'), 'utf8')).toContain('binary of hello for x86_64');
  });

  it('osc branch makes a link in home:<user>:branches:<project>; osc ls shows it and its expanded sources', async () => {
    const out = await osc(['branch', 'conformance:fixture', 'hello']);
    expect(out).toContain('osc co home:tux:branches:conformance:fixture/hello');
    // ls of a link: its own files, the <linkinfo> target, then the expanded files.
    const ls = (await osc(['ls', 'home:tux:branches:conformance:fixture', 'hello'])).split('\n');
    expect(ls).toEqual(expect.arrayContaining(['_link', '# -> conformance:fixture hello (latest)', 'hello.spec', 'hello.c']));
    expect((await osc(['ls', '-u', 'home:tux:branches:conformance:fixture', 'hello'])).split('\n').filter(Boolean)).toEqual(['_link']);
    expect(await osc(['cat', 'home:tux:branches:conformance:fixture', 'hello', '_link'])).toMatch(/<link project="conformance:fixture" package="hello" baserev="[0-9a-f]{32}">/);
    // The branch project builds against the project it branches from, and builds the expanded sources.
    expect(await osc(['meta', 'prj', 'home:tux:branches:conformance:fixture'])).toContain('<path project="conformance:fixture" repository="standard"/>');
    expect(await osc(['results', 'home:tux:branches:conformance:fixture', 'hello'])).toMatch(/standard\s+x86_64\s+succeeded/);
    // A second branch of the same package is refused, as the service does.
    await expect(osc(['branch', 'conformance:fixture', 'hello'])).rejects.toThrow(/branch target package already exists/);
  });

  it('osc branch, change, commit, sr and accept: the change reaches the original package', async () => {
    const dir = await makeProject('home:tux:osc-up');
    writeFileSync(join(dir, 'pkg.xml'), '<package name="up" project="home:tux:osc-up"><title>up</title><description/></package>');
    await osc(['meta', 'pkg', '-F', join(dir, 'pkg.xml'), 'home:tux:osc-up', 'up']);
    await osc(['checkout', 'home:tux:osc-up', 'up'], dir);
    writeFileSync(join(dir, 'home:tux:osc-up', 'up', 'up.spec'), 'Name: up\nVersion: 1\nRelease: 0\n');
    await osc(['add', 'up.spec'], join(dir, 'home:tux:osc-up', 'up'));
    await osc(['commit', '-m', 'initial'], join(dir, 'home:tux:osc-up', 'up'));
    await osc(['branch', 'home:tux:osc-up', 'up']);
    // The checkout of a branch holds the expanded sources; a commit there keeps the link.
    await osc(['checkout', 'home:tux:branches:home:tux:osc-up', 'up'], dir);
    const wc = join(dir, 'home:tux:branches:home:tux:osc-up', 'up');
    expect(readFileSync(join(wc, 'up.spec'), 'utf8')).toContain('Version: 1');
    writeFileSync(join(wc, 'up.spec'), 'Name: up\nVersion: 2\nRelease: 0\n');
    expect(await osc(['commit', '-m', 'version 2'], wc)).toContain('Committed revision 2');
    expect((await osc(['ls', '-u', 'home:tux:branches:home:tux:osc-up', 'up'])).split('\n').filter(Boolean)).toEqual(['_link', 'up.spec']);
    // rdiff with another project and package shows the branch's change against the original.
    const rdiff = await osc(['rdiff', 'home:tux:osc-up', 'up', 'home:tux:branches:home:tux:osc-up', 'up']);
    expect(rdiff).toContain('-Version: 1');
    expect(rdiff).toContain('+Version: 2');
    // sr from the working copy submits to the link target.
    const id = /created request id (\d+)/.exec(await osc(['sr', '-m', 'take version 2'], wc))?.[1];
    expect(id).toBeDefined();
    const shown = await osc(['request', 'show', id!]);
    expect(shown).toMatch(/submit:\s+home:tux:branches:home:tux:osc-up\/up\s+->\s+home:tux:osc-up/);
    expect(await osc(['request', 'accept', '-m', 'ok', id!])).toContain('Result of change request state: ok');
    expect(await osc(['cat', 'home:tux:osc-up', 'up', 'up.spec'])).toContain('Version: 2');
    expect((await osc(['ls', 'home:tux:osc-up', 'up'])).split('\n')).not.toContain('_link');
  });

  it('osc request show prints a request with its comments', async () => {
    const dir = await makeProject('home:tux:osc-show');
    for (const k of ['a', 'b']) {
      writeFileSync(join(dir, `${k}.xml`), `<package name="${k}" project="home:tux:osc-show"><title>${k}</title><description/></package>`);
      await osc(['meta', 'pkg', '-F', join(dir, `${k}.xml`), 'home:tux:osc-show', k]);
    }
    const id = /created request id (\d+)/.exec(await osc(['sr', '-m', 'shown by osc', 'home:tux:osc-show', 'a', 'home:tux:osc-show', 'b'], dir))?.[1];
    const shown = await osc(['request', 'show', id!]);
    expect(shown).toContain(`Request: #${id}`);
    expect(shown).toContain('shown by osc');
    expect(shown).toMatch(/State:\s+new/);
  });

  it('osc copypac copies a package with its sources', async () => {
    await makeProject('home:tux:osc-copy');
    expect(await osc(['copypac', 'conformance:fixture', 'hello', 'home:tux:osc-copy', 'hello-copy'])).toContain('Copying files...');
    expect((await osc(['ls', 'home:tux:osc-copy', 'hello-copy'])).split('\n')).toEqual(expect.arrayContaining(['hello.spec', 'hello.c']));
    expect(await osc(['cat', 'home:tux:osc-copy', 'hello-copy', 'hello.spec'])).toContain('Name: hello');
  });

  it('osc detachbranch replaces a link by its expanded sources', async () => {
    await osc(['branch', 'conformance:fixture', 'world']);
    expect((await osc(['ls', '-u', 'home:tux:branches:conformance:fixture', 'world'])).split('\n')).toContain('_link');
    await osc(['detachbranch', 'home:tux:branches:conformance:fixture', 'world']);
    const ls = (await osc(['ls', 'home:tux:branches:conformance:fixture', 'world'])).split('\n').filter(Boolean);
    expect(ls).toEqual(['world.spec']);
  });

  it('osc maintainer by binary names the maintainers of the project whose package builds it', async () => {
    const out = await osc(['maintainer', 'hello']);
    // The fixture project's meta names its maintainer; the package's names nobody, so the owner
    // search answers the project (owner.rb falls back from package to project).
    expect(out).toMatch(/Defined in project:\s+conformance:fixture\b/);
    expect(out).toMatch(/maintainer of hello :\s+Admin/);
  });

  it('osc release copies sources and binaries to the release target of the repository', async () => {
    await makeProject('home:tux:osc-rel-target');
    await makeProject('home:tux:osc-rel', '<releasetarget project="home:tux:osc-rel-target" repository="standard" trigger="manual"/>');
    await osc(['copypac', 'conformance:fixture', 'hello', 'home:tux:osc-rel', 'hello']);
    await osc(['release', 'home:tux:osc-rel', 'hello']);
    expect((await osc(['ls', 'home:tux:osc-rel-target', 'hello'])).split('\n')).toEqual(expect.arrayContaining(['hello.spec', 'hello.c']));
    expect((await osc(['ls', '-b', 'home:tux:osc-rel-target', 'hello', 'standard', 'x86_64'])).split('\n')).toContain('hello-1.0-0.x86_64.rpm');
    expect(await osc(['api', "/search/released/binary?match=@name='hello'"])).toContain('project="home:tux:osc-rel-target"');
    // Without a release target, release is refused.
    await expect(osc(['release', 'home:tux:osc-rel-target', 'hello'])).rejects.toThrow(/release target/);
  });

  it('osc buildhistory shows the srcmd5 of each build', async () => {
    const out = await osc(['buildhistory', 'conformance:fixture', 'hello', 'standard', 'x86_64']);
    expect(out).toMatch(/\s[0-9a-f]{32}\s+1\.0-0\.1/);
    expect(out).not.toContain('None');
  });

  it('osc commands for the project and package commands of the document: signkey, createpatchinfo, linktobranch, showlinked, undelete', async () => {
    await makeProject('home:tux:osc-cmds');
    // signkey: the project has no key of its own, then createkey gives it one.
    const global = await osc(['signkey', 'home:tux:osc-cmds']);
    expect(global).toContain('BEGIN PGP PUBLIC KEY BLOCK');
    await osc(['signkey', '--create', 'home:tux:osc-cmds']);
    const own = await osc(['signkey', 'home:tux:osc-cmds']);
    expect(own).toContain('BEGIN PGP PUBLIC KEY BLOCK');
    expect(own).not.toBe(global);
    // createpatchinfo makes a patchinfo package.
    // (osc patchinfo would open an editor after the command: the command itself through osc api.)
    expect(await osc(['api', '-X', 'POST', '/source/home:tux:osc-cmds?cmd=createpatchinfo'])).toContain('<data name="targetpackage">patchinfo</data>');
    expect((await osc(['ls', 'home:tux:osc-cmds'])).split('\n')).toContain('patchinfo');
    expect((await osc(['ls', 'home:tux:osc-cmds', 'patchinfo'])).split('\n')).toContain('_patchinfo');
    // linkpac makes a plain link; linktobranch gives it a baserev.
    await osc(['linkpac', 'conformance:fixture', 'world', 'home:tux:osc-cmds']);
    expect(await osc(['cat', 'home:tux:osc-cmds', 'world', '_link'])).not.toContain('baserev');
    await osc(['linktobranch', 'home:tux:osc-cmds', 'world']);
    expect(await osc(['cat', 'home:tux:osc-cmds', 'world', '_link'])).toMatch(/baserev="[0-9a-f]{32}"/);
    // showlinked of the linked package names the link.
    expect(await osc(['api', '-X', 'POST', '/source/conformance:fixture/world?cmd=showlinked'])).toContain('<package name="world" project="home:tux:osc-cmds"/>');
    // undelete restores a deleted package.
    await osc(['rdelete', '-m', 'gone', 'home:tux:osc-cmds', 'world']);
    expect((await osc(['ls', 'home:tux:osc-cmds'])).split('\n')).not.toContain('world');
    await osc(['undelete', '-m', 'back', 'home:tux:osc-cmds', 'world']);
    expect((await osc(['ls', 'home:tux:osc-cmds'])).split('\n')).toContain('world');
  });
});
