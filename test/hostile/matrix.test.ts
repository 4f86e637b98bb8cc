// Every hostile target against `conformance run` (in-process, the same main() the binary runs):
// the run ends within its timeouts, exits 1, leaves valid reports (no forged test case, under the
// size cap) that list every selected check with a one-line reason for each that did not pass, and
// no configured secret in any form in any file, the console or the GitHub step summary; and no
// line of the console that the target wrote (terminal escapes, workflow commands).
import { mkdtempSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { XMLParser, XMLValidator } from 'fast-xml-parser';
import { afterAll, describe, expect, it } from 'vitest';
import { main } from '../../src/cli/main.ts';
import type { Io } from '../../src/cli/console.ts';
import { loadChecks } from '../../src/core/registry.ts';
import type { Protocol } from '../../src/core/check.ts';
import { httpHostiles, startHttpHostile, startWireHostile, WIRE_HOSTILES, type Hostile } from './servers.ts';

const CHECK_MS = 1000;
/**
 * Setup, report writing and scheduling on a loaded 2-core machine: this file runs five hostile
 * runs at once, some parsing 200,000-item answers in every check, beside another test file. A
 * hang would exceed any margin; 3 s was exceeded by runs that ended normally (WIRE: 10 s of 9).
 */
const MARGIN_MS = 10_000;
const all = await loadChecks();
const count = (p: Protocol) => all.filter((c) => c.protocol === p).length;

const SECRETS = {
  wireKey: 'hostile-wire-key-5f3a',
  tokens: { unrestricted: 'hostile-token-unrestricted-9c1e', restricted: 'hostile-token-restricted-9c1e', readOnly: 'hostile-token-readonly-9c1e', otherAccount: 'hostile-token-other-9c1e' },
  userPw: 'hostile-pw-user-77ab',
  adminPw: 'hostile-pw-admin-77ab',
  runservice: 'hostile-runservice-3d2f',
};
/** Every secret in every form it may come back in: raw, base64(url), hex, URL-, HTML/XML- and JSON-escaped, Basic. */
function forms(secret: string): string[] {
  const b = Buffer.from(secret);
  const html = secret.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
  return [secret, b.toString('base64'), b.toString('base64url'), b.toString('hex'), b.toString('hex').toUpperCase(), encodeURIComponent(secret), html, JSON.stringify(secret).slice(1, -1)];
}
const basicValue = (pair: string) => Buffer.from(pair).toString('base64');
const secretStrings = [
  ...[SECRETS.wireKey, ...Object.values(SECRETS.tokens), SECRETS.userPw, SECRETS.adminPw, SECRETS.runservice].flatMap(forms),
  ...forms(`tux:${SECRETS.userPw}`),
  ...forms(`Admin:${SECRETS.adminPw}`),
  // The exact header values the tool sends, in every form too: a target echoing the Authorization
  // header as base64 of its base64 value must not get the credential into a report that way.
  ...[`tux:${SECRETS.userPw}`, `Admin:${SECRETS.adminPw}`].flatMap((pair) => [...forms(basicValue(pair)), ...forms(`Basic ${basicValue(pair)}`)]),
  ...Object.values(SECRETS.tokens).flatMap((t) => forms(`Bearer ${t}`)),
  ...forms(`Token ${SECRETS.runservice}`),
];

// The GitHub step summary of every run of this file (runs are concurrent: one file, checked at the end).
const stepSummary = join(mkdtempSync(join(tmpdir(), 'conformance-summary-')), 'summary.md');
writeFileSync(stepSummary, '');
process.env.GITHUB_STEP_SUMMARY = stepSummary;
afterAll(() => {
  const text = readFileSync(stepSummary, 'utf8');
  for (const secret of secretStrings) expect(text.includes(secret), 'the step summary contains a configured secret').toBe(false);
  expectSafeMarkdown(text, 'the step summary');
  delete process.env.GITHUB_STEP_SUMMARY;
});

/** What the target injected never becomes markup, a link, an image, a heading or a table row. */
function expectSafeMarkdown(text: string, where: string): void {
  expect(text, `${where}: raw <script>`).not.toContain('<script');
  expect(text, `${where}: a javascript: link`).not.toMatch(/\]\(javascript:/);
  expect(text, `${where}: a remote image`).not.toMatch(/!\[[^\]]*\]\(http/);
  expect(text, `${where}: a forged heading or row`).not.toMatch(/^(# Forged|\| forged)/m);
  // eslint-disable-next-line no-control-regex
  expect(text, `${where}: control characters`).not.toMatch(/[\u0000-\u0008\u001b\u007f-\u009f]/);
}

/** Report files may not grow with what a target sends (see README, "Running against untrusted servers"). */
const REPORT_FILE_CAP_BYTES = 16 * 1024 * 1024;

function targetFor(protocol: Protocol, port: number): Record<string, unknown> {
  const base = `http://127.0.0.1:${port}`;
  switch (protocol) {
    case 'wire':
      return { protocol, host: '127.0.0.1', port, authKey: SECRETS.wireKey };
    case 'cloud':
      return {
        protocol,
        baseUrl: base,
        tokens: SECRETS.tokens,
        fixtures: { transferableNodeIds: [1, 2, 3, 4, 5, 6, 7, 8], databases: { active: 1, failed: 2, degraded: 3, provisioning: 4 }, promoCode: 'X', filter: { path: '/account/events', stringField: 'action', numberField: 'id' } },
        allow: ['destructive'],
      };
    case 'build':
      return {
        protocol,
        baseUrl: base,
        users: { user: { username: 'tux', password: SECRETS.userPw }, admin: { username: 'Admin', password: SECRETS.adminPw } },
        token: SECRETS.runservice,
        fixtures: { project: 'p', package: 'k', repository: 'standard', arch: 'x86_64' },
        allow: ['destructive'],
      };
  }
}

/** Runs the CLI in-process (the same main() the binary runs) against a hostile, with `args` after the config. */
async function cliAgainst(protocol: Protocol, hostile: Hostile, command: string[], args: string[]) {
  const dir = mkdtempSync(join(tmpdir(), 'conformance-hostile-'));
  const config = join(dir, 'targets.config.ts');
  writeFileSync(config, `export default ${JSON.stringify({ targets: { hostile: targetFor(protocol, hostile.port) } })};`);
  const lines: string[] = [];
  const io: Io = { out: (l) => lines.push(l), err: (l) => lines.push(l), interactive: false };
  const out = join(dir, 'out');
  const started = performance.now();
  try {
    const code = await main(['node', 'conformance', ...command, '--config', config, '--target', 'hostile', '--out', out, '--seed', '7', ...args], io);
    return { code, ms: performance.now() - started, out, console: lines.join('\n') };
  } finally {
    await hostile.close();
  }
}

const runAgainst = (protocol: Protocol, hostile: Hostile) =>
  cliAgainst(protocol, hostile, [], ['--timeout', String(CHECK_MS), '--concurrency', '256', '--reporter', 'junit,json,html,markdown,github']);

/** Console lines the tool writes; a target's text never starts a line, and never carries a control character. */
function expectSafeConsole(text: string): void {
  for (const line of text.split('\n')) {
    if (line.startsWith('::')) expect(line, 'a workflow command the tool did not write').toMatch(/^::(error|warning|notice) title=hostile: [a-z0-9._-]+ \[(MUST|SHOULD)\]::/);
    // eslint-disable-next-line no-control-regex
    expect(line, 'a control character on the console').not.toMatch(/[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/);
  }
  for (const secret of secretStrings) expect(text.includes(secret), 'the console shows a configured secret').toBe(false);
}

/** Hostile targets that refuse the configured credentials: the run stops at once as unusable (exit 3), every check listed as not run. */
const UNUSABLE = new Set(['refuses the handshake naming the key, with injected text']);

/**
 * How many checks the runner may have to run one after another against a target that answers
 * none of them (each then takes the whole per-check timeout): the most checks sharing one state
 * (`writes`, `reads`: never at once) plus the longest chain of `reliesOn` (owners first). The
 * bound allows each step twice that, for the run start, the reports and a loaded machine: what it
 * proves is that the run ends, not how fast.
 */
function serialSteps(protocol: Protocol): number {
  const checks = all.filter((c) => c.protocol === protocol);
  const sharing = new Map<string, number>();
  for (const c of checks) for (const state of new Set([...(c.writes ?? []), ...(c.reads ?? [])])) sharing.set(state, (sharing.get(state) ?? 0) + 1);
  const byId = new Map(checks.map((c) => [c.id, c]));
  const depth = (id: string, seen: Set<string> = new Set()): number => (seen.has(id) ? 0 : 1 + Math.max(0, ...(byId.get(id)?.reliesOn ?? []).map((o) => depth(o, new Set([...seen, id])))));
  return Math.max(1, ...sharing.values()) + Math.max(...checks.map((c) => depth(c.id)));
}

function expectSound(protocol: Protocol, r: Awaited<ReturnType<typeof runAgainst>>, code = 1): void {
  expect(r.code, r.console).toBe(code);
  expect(r.ms, 'the run ends within the per-check timeout times the longest chain the runner must keep in order, plus a margin').toBeLessThan(2 * CHECK_MS * serialSteps(protocol) + MARGIN_MS);
  const report = JSON.parse(readFileSync(join(r.out, 'conformance.json'), 'utf8'));
  const results = report.targets[0].results as { check: { id: string }; status: string; message?: string }[];
  expect(results.length, 'every selected check is listed').toBe(count(protocol));
  for (const res of results) {
    if (res.status === 'passed') continue;
    expect(res.message, `${res.check.id} has a reason`).toBeTruthy();
    expect(res.message, `${res.check.id}: one line`).not.toContain('\n');
    expect(res.message, `${res.check.id}: the target, not our tool, is blamed`).not.toMatch(/^internal error/);
  }
  const xml = readFileSync(join(r.out, 'hostile.junit.xml'), 'utf8');
  expect(XMLValidator.validate(xml)).toBe(true);
  // Parsed, not matched: a forged <testcase> would be one more, or one named FORGED.
  const parsed = new XMLParser({ ignoreAttributes: false, isArray: (n) => ['testsuite', 'testcase'].includes(n) }).parse(xml);
  const cases = (parsed.testsuites.testsuite as { testcase: { '@_name': string }[] }[]).flatMap((s) => s.testcase);
  expect(cases.length, 'one test case per check, none forged').toBe(results.length);
  expect(cases.filter((c) => c['@_name'] === 'FORGED')).toEqual([]);
  for (const file of readdirSync(r.out)) {
    expect(statSync(join(r.out, file)).size, `${file} stays under the report size cap`).toBeLessThan(REPORT_FILE_CAP_BYTES);
    const text = readFileSync(join(r.out, file), 'utf8');
    for (const secret of secretStrings) expect(text.includes(secret), `${file} contains a configured secret`).toBe(false);
  }
  expectSafeMarkdown(readFileSync(join(r.out, 'conformance.md'), 'utf8'), 'conformance.md');
  expect(readFileSync(join(r.out, 'conformance.html'), 'utf8'), 'HTML: raw <script> from the target').not.toContain('<script>alert');
  expectSafeConsole(r.console);
}

/**
 * The test's own time limit: the run's bound (what expectSound asserts) and time to read and
 * check five reports. The default 20 s would cut a CLOUD run (bound 2 × 1 s × 13 serial steps +
 * the margin) before its own bound is judged.
 */
const runTestMs = (protocol: Protocol) => 2 * CHECK_MS * serialSteps(protocol) + MARGIN_MS + 15_000;

describe.concurrent('WIRE hostile targets', () => {
  it.each(Object.keys(WIRE_HOSTILES))('%s', async (name) => {
    const r = await runAgainst('wire', await startWireHostile(WIRE_HOSTILES[name]));
    expectSound('wire', r, UNUSABLE.has(name) ? 3 : 1);
  }, runTestMs('wire'));
});

// The fuzzer against the same WIRE hostiles: a hang, reset, flood or garbage becomes a finding,
// never a crash or a hang of the fuzzer; the campaign stops within --time plus the shrink time
// and a margin, and its reports (finding files, fuzz.json, JUnit) are valid and free of secrets.
const FUZZ_TIME_MS = 2000;
const SHRINK_MS = 500;
/** Confirming, probing and shrinking findings of cases in flight when --time ends, on a loaded 2-core machine. */
const FUZZ_MARGIN_MS = 4500;

const fuzzAgainst = (hostile: Hostile, protocol: Protocol = 'wire') =>
  cliAgainst(protocol, hostile, ['fuzz'], ['--runs', '60', '--time', `${FUZZ_TIME_MS}ms`, '--timeout', '300', '--shrink-time', String(SHRINK_MS)]);

/**
 * BUILD hostiles whose answers no document rule forbids: the build document states no status
 * codes (a redirect is not a deviation) and an HTML page is a well-formed document. A campaign
 * against them ends with no finding (exit 0) and the same valid reports.
 */
const NOT_A_FINDING_FOR_BUILD = new Set(['redirects in a loop', 'answers with the wrong Content-Type']);
/** A well-formed listing is no finding by itself: the case is here for what the campaign does with its size. */
const JUDGED_ON_OUTPUT_ONLY_FOR_BUILD = new Set(['answers 200 with a collection of 200,000 items']);
/**
 * A 400 carrying the error body is a refusal the CLOUD document allows, whatever its reason says:
 * the case is here for what the campaign writes (no secret, no injected markup), and on a loaded
 * machine a slow answer may still be a no-hang finding.
 */
const JUDGED_ON_OUTPUT_ONLY_FOR_CLOUD = new Set(['echoes the credentials with injected text', 'answers 200 with a list envelope of 200,000 items']);

/** `findings`: whether the campaign must find something; 'either' where only what it writes is judged. */
function expectSoundFuzz(r: Awaited<ReturnType<typeof fuzzAgainst>>, findings: boolean | 'either' = true): void {
  if (findings === 'either') expect([0, 1], r.console).toContain(r.code);
  else expect(r.code, r.console).toBe(findings ? 1 : 0);
  expect(r.ms, 'the campaign ends within --time, one shrink and a margin').toBeLessThan(FUZZ_TIME_MS + SHRINK_MS + FUZZ_MARGIN_MS);
  const report = JSON.parse(readFileSync(join(r.out, 'fuzz.json'), 'utf8'));
  if (findings === true) expect(report.findings.length, 'a broken target is a finding').toBeGreaterThan(0);
  for (const f of report.findings) {
    expect(f.message, `${f.bucket}: a one-line reason`).toMatch(/^[^\n]{10,}$/);
    expect(f.message).not.toMatch(/internal error/);
  }
  const findingFiles = report.findings.length ? readdirSync(join(r.out, 'findings')) : [];
  expect(findingFiles.length).toBe(report.findings.length);
  const xml = readFileSync(join(r.out, 'fuzz.junit.xml'), 'utf8');
  expect(XMLValidator.validate(xml)).toBe(true);
  expect((xml.match(/<testcase /g) ?? []).length).toBeGreaterThanOrEqual(report.findings.length);
  const files = [join(r.out, 'fuzz.json'), join(r.out, 'fuzz.junit.xml'), ...findingFiles.map((f) => join(r.out, 'findings', f))];
  for (const file of files) {
    const text = readFileSync(file, 'utf8');
    for (const secret of secretStrings) expect(text.includes(secret), `${file} contains a configured secret`).toBe(false);
  }
  for (const secret of secretStrings) expect(r.console.includes(secret), 'the console shows no secret').toBe(false);
}

describe.concurrent('WIRE hostile targets against `conformance fuzz`', () => {
  it.each(Object.keys(WIRE_HOSTILES))('%s', async (name) => {
    expectSoundFuzz(await fuzzAgainst(await startWireHostile(WIRE_HOSTILES[name])));
  });
});

describe.concurrent('CLOUD hostile targets against `conformance fuzz`', () => {
  const hostiles = httpHostiles('json');
  it.each(Object.keys(hostiles))('%s', async (name) => {
    expectSoundFuzz(await fuzzAgainst(await startHttpHostile(hostiles[name]), 'cloud'), JUDGED_ON_OUTPUT_ONLY_FOR_CLOUD.has(name) ? 'either' : true);
  });
});

describe.concurrent('BUILD hostile targets against `conformance fuzz`', () => {
  const hostiles = httpHostiles('xml');
  it.each(Object.keys(hostiles))('%s', async (name) => {
    expectSoundFuzz(await fuzzAgainst(await startHttpHostile(hostiles[name]), 'build'), JUDGED_ON_OUTPUT_ONLY_FOR_BUILD.has(name) ? 'either' : !NOT_A_FINDING_FOR_BUILD.has(name));
  });
});

describe.concurrent('CLOUD hostile targets', () => {
  const hostiles = httpHostiles('json');
  it.each(Object.keys(hostiles))('%s', async (name) => {
    const r = await runAgainst('cloud', await startHttpHostile(hostiles[name]));
    expectSound('cloud', r);
  }, runTestMs('cloud'));
});

describe.concurrent('BUILD hostile targets', () => {
  const hostiles = httpHostiles('xml');
  it.each(Object.keys(hostiles))('%s', async (name) => {
    const r = await runAgainst('build', await startHttpHostile(hostiles[name]));
    expectSound('build', r);
  }, runTestMs('build'));
});
