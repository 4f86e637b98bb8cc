// Section "Published tree and legacy results" of build-service-api.md, read on the fixture project.
import { check } from '../../src/core/check.ts';
import type { BuildResponse } from '../../src/clients/build/session.ts';
import { rootOf } from '../../src/clients/xml.ts';
import { buildFixture, expectListings } from './build-results.ts';
import { brief, childCount, contentType, expect2xx, expectServed, fileNames, resultCodes, saysNotServed, served, xmlValues } from './support.ts';

const section = 'Published tree and legacy results';
const file = 'build-service-api.md';

export const publishedLevels = check(
  {
    id: 'build.published.listing-levels',
    title: 'GET /published, /<project>, /<repository>, /<arch> list down to a binary that downloads',
    protocol: 'build',
    section,
    level: 'MUST',
    spec: { file, line: 140, quote: 'GET /published; /published/<project>; /published/<project>/<repository>' },
    touches: ['GET /published', 'GET /published/{project}', 'GET /published/{project}/{repository}', 'GET /published/{project}/{repository}/{arch}', 'GET /published/{project}/{repository}/{arch}/{binary}'],
    faults: ['published-project-listing-empty'],
  },
  async (ctx) => {
    const f = buildFixture(ctx);
    // The fixture project is one the ordinary user can read, not one the target must have built and
    // published (an instance with no scheduler publishes nothing: GET /published answers an empty
    // directory). Whether anything is published for it is read where it lands, in the architecture
    // directory, before any level is judged: nothing published there ends the check inconclusive,
    // whichever level would first have shown it, as view-status and view-ymp end (rubric 16). The
    // top of the tree must be served all the same; below it a directory that does not exist
    // (404) is nothing published.
    const top = expectServed(await f.caller.get('/published'), 'GET /published');
    const dir = `/published/${f.project}/${f.repo}/${f.arch}`;
    const leaf = await f.caller.get(dir);
    const [name] = saysNotServed(leaf) ? [] : fileNames(expect2xx(leaf, `GET ${dir}`));
    if (!name) ctx.inconclusive(`nothing is published in ${dir} (${brief(leaf)}; GET /published: ${brief(top)}): there is no published binary of the fixture to walk down to, so the listings were not judged`);
    // Something is published there: each level above must name the next one down to it.
    ctx.expect(xmlValues(top).has(f.project), `GET /published does not name the fixture project ${f.project}, although ${dir} lists ${name}: ${brief(top)}`);
    await expectListings(ctx, f, [
      [`/published/${f.project}`, f.repo, 'repository'],
      [`/published/${f.project}/${f.repo}`, f.arch, 'architecture'],
    ]);
    const binary = expectServed(await f.caller.get(`${dir}/${name}`), `GET ${dir}/${name}`);
    ctx.expect(binary.bytes.length > 0, `GET ${dir}/${name}: the download is empty`);
  },
);

export const publishedStatus = check(
  {
    id: 'build.published.view-status',
    title: 'GET /published/<project>/<repository>?view=status answers with the publish status, not the listing',
    protocol: 'build',
    section,
    // What view=status returns is stated (line 140), as `expand`'s "(include linked projects)" is
    // (build.packages.list-expand): MUST.
    level: 'MUST',
    spec: { file, line: 140, quote: '/published/<project>/<repository> (`view=status` returns last publish time and build id)' },
    touches: ['GET /published/{project}/{repository}'],
    faults: ['published-status-ignored', 'published-status-error-document'],
    reliesOn: ['build.published.listing-levels'],
  },
  async (ctx) => {
    const f = buildFixture(ctx);
    const path = `/published/${f.project}/${f.repo}`;
    const listing = await ctx.setup(`read the listing ${path}`, async () => expectServed(await f.caller.get(path), `GET ${path}`), { seeAlso: 'build.published.listing-levels' });
    const asked = served(await f.caller.get(path, { query: { view: 'status' } }), `GET ${path}?view=status`);
    // Nothing published in the repository (its listing names nothing): a refusal may be for that
    // (rubric 3), and the check ends as its siblings do there (rubric 16: listing-levels, view-ymp).
    // An answer given is judged all the same.
    if ((asked.status < 200 || asked.status > 299) && childCount(listing) === 0) {
      ctx.inconclusive(`nothing is published in ${path} (${brief(listing)}) and GET ${path}?view=status is refused (${brief(asked)}): the refusal may be for that, so the publish status could not be judged`);
    }
    const status = expect2xx(asked, `GET ${path}?view=status`);
    ctx.expect(status.text !== listing.text, `GET ${path}?view=status answers with the same body as the listing: ${brief(status)}`);
    // A 200 error document is no publish status: the build service reports an error as a bare
    // <status code="…"> holding at most <summary> and <details> (line 43 shows no shape, so the
    // status itself is read only as "something other than that": it names a time and a build id).
    ctx.expect(!isErrorDocument(status), `GET ${path}?view=status answers with an error document, not the last publish time and build id: ${brief(status)}`);
  },
);

/** A build service error document: a `<status>` root with nothing but `summary`/`details` children (or none). */
function isErrorDocument(res: BuildResponse): boolean {
  const root = rootOf(res.xml);
  if (!root || root.name !== 'status') return false;
  return Object.keys(root.node).filter((k) => !k.startsWith('@') && k !== '#text').every((k) => k === 'summary' || k === 'details');
}

export const ymp = check(
  {
    id: 'build.published.view-ymp',
    title: 'view=ymp on a published binary generates an install pattern file, not the binary',
    protocol: 'build',
    section,
    // What view=ymp does is stated (line 140), not read from its name: MUST, as view-status.
    level: 'MUST',
    spec: { file, line: 140, quote: '`view=ymp` generates an install pattern file' },
    touches: ['GET /published/{project}/{repository}/{arch}', 'GET /published/{project}/{repository}/{arch}/{binary}'],
    faults: ['ymp-ignored'],
    reliesOn: ['build.published.listing-levels'],
  },
  async (ctx) => {
    const f = buildFixture(ctx);
    const dir = `/published/${f.project}/${f.repo}/${f.arch}`;
    const names = await ctx.setup(`list what is published in ${dir}`, async () => fileNames(expectServed(await f.caller.get(dir), `GET ${dir}`)), { seeAlso: 'build.published.listing-levels' });
    if (!names.length) ctx.inconclusive(`nothing is published in ${dir}: there is no binary to ask an install pattern of`);
    const path = `${dir}/${names[0]}`;
    const binary = await ctx.setup(`download ${path}`, async () => expectServed(await f.caller.get(path), `GET ${path}`), { seeAlso: 'build.published.listing-levels' });
    const pattern = expectServed(await f.caller.get(path, { query: { view: 'ymp' } }), `GET ${path}?view=ymp`);
    ctx.expect(!pattern.bytes.equals(binary.bytes), `GET ${path}?view=ymp sends the binary itself (${binary.bytes.length} bytes), not an install pattern file`);
  },
);

export const legacyRoutes = check(
  {
    id: 'build.published.legacy-result-routes',
    title: 'The legacy /result routes still answer',
    protocol: 'build',
    section,
    level: 'SHOULD',
    spec: { file, line: 141, quote: 'Legacy (obsolete): GET /result/<project>/<platform>/result' },
    touches: ['GET /result/{project}/{platform}/result', 'GET /result/{project}/{platform}/{package}/result', 'GET /result/{project}/{platform}/{package}/{arch}/log'],
    faults: ['legacy-result-empty'],
  },
  async (ctx) => {
    // The document does not say what a platform is; the build service names its repositories so.
    // Each answers with what its name says, read as the /build routes give it: the results name
    // the fixture package and a documented result code (line 47), the log is text (line 126).
    // A route not served is not judged (a half-built server, or one that dropped them).
    const f = buildFixture(ctx);
    for (const path of [`/result/${f.project}/${f.repo}/result`, `/result/${f.project}/${f.repo}/${f.pkg}/result`]) {
      const res = expectServed(await f.caller.get(path), `GET ${path} (platform = the fixture repository)`);
      ctx.expect(xmlValues(res).has(f.pkg) && resultCodes(res).length > 0, `GET ${path}: expected the results of ${f.pkg} with a documented result code, got ${brief(res)}`);
    }
    const log = `/result/${f.project}/${f.repo}/${f.pkg}/${f.arch}/log`;
    const res = expectServed(await f.caller.get(log), `GET ${log} (platform = the fixture repository)`);
    ctx.expect(contentType(res).startsWith('text/') && res.bytes.length > 0, `GET ${log}: expected the build log as text, got ${contentType(res) || 'no content type'}, ${res.bytes.length} bytes`);
  },
);

export const checks = [publishedLevels, publishedStatus, ymp, legacyRoutes];
