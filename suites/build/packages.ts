// Section "Sources: packages and files" of build-service-api.md.
import { createHash } from 'node:crypto';
import { check } from '../../src/core/check.ts';
import type { BuildResponse } from '../../src/clients/build/session.ts';
import { attr, elements, rootOf } from '../../src/clients/xml.ts';
import { brief, contentType, deleteProject, entryNames, expect2xx, expectNot2xx, expectServed, routeServed, withScratchProject, xmlValues, type Scratch } from './support.ts';

const section = 'Sources: packages and files';
const file = 'build-service-api.md';

export const uploadThenCommit = check(
  {
    id: 'build.packages.upload-then-commit',
    title: 'A file PUT with rev=upload appears in the package only after cmd=commit',
    protocol: 'build',
    section,
    level: 'MUST',
    spec: { file, line: 96, quote: '`rev`=`upload` uploads files one by one before cmd=commit' },
    touches: ['DELETE /source/{project}', 'GET /source/{project}/{package}', 'GET /source/{project}/{package}/{filename}', 'POST /source/{project}/{package}', 'PUT /source/{project}/_meta', 'PUT /source/{project}/{package}/_meta', 'PUT /source/{project}/{package}/{filename}'],
    faults: ['upload-commits-immediately'],
    tags: ['destructive'],
    reliesOn: ['build.projects.meta-put-creates'],
  },
  async (ctx) => {
    await withScratchProject(ctx, async ({ caller, project, addPackage }) => {
      const path = `/source/${project}/${await addPackage('uploads')}`;
      const content = 'uploaded by a conformance check\n';
      expectServed(await caller.put(`${path}/notes.txt`, { query: { rev: 'upload' }, body: content, contentType: 'application/octet-stream' }), `PUT ${path}/notes.txt?rev=upload`);
      const before = entryNames(expectServed(await caller.get(path), `GET ${path}`));
      ctx.expect(!before.includes('notes.txt'), `GET ${path}: notes.txt is listed before cmd=commit`);
      expectServed(await caller.post(path, { query: { cmd: 'commit', rev: 'upload' } }), `POST ${path}?cmd=commit&rev=upload`);
      const after = entryNames(expect2xx(await caller.get(path), `GET ${path}`));
      ctx.expect(after.includes('notes.txt'), `GET ${path}: notes.txt is not listed after cmd=commit (${after.join(', ') || 'no entries'})`);
      const read = expect2xx(await caller.get(`${path}/notes.txt`), `GET ${path}/notes.txt`);
      ctx.expect(read.text === content, `GET ${path}/notes.txt: expected the uploaded content, got ${JSON.stringify(read.text.slice(0, 80))}`);
    });
  },
);

export const deleteUploadRev = check(
  {
    id: 'build.packages.deleteuploadrev',
    title: 'deleteuploadrev discards uncommitted uploads',
    protocol: 'build',
    section,
    level: 'MUST',
    spec: { file, line: 102, quote: '`deleteuploadrev` (also as bare parameter): discard uncommitted uploads' },
    touches: ['DELETE /source/{project}', 'GET /source/{project}/{package}', 'POST /source/{project}/{package}', 'PUT /source/{project}/_meta', 'PUT /source/{project}/{package}/_meta', 'PUT /source/{project}/{package}/{filename}'],
    faults: ['deleteuploadrev-noop'],
    tags: ['destructive'],
    reliesOn: ['build.projects.meta-put-creates'],
  },
  async (ctx) => {
    await withScratchProject(ctx, async ({ caller, project, addPackage }) => {
      const path = `/source/${project}/${await addPackage('discard')}`;
      await ctx.setup('upload discarded.txt with rev=upload', async () => expect2xx(await caller.put(`${path}/discarded.txt`, { query: { rev: 'upload' }, body: 'x\n', contentType: 'application/octet-stream' }), `PUT ${path}/discarded.txt?rev=upload`), {
        seeAlso: 'build.packages.upload-then-commit',
      });
      expectServed(await caller.post(path, { query: { cmd: 'deleteuploadrev' } }), `POST ${path}?cmd=deleteuploadrev`);
      // The control: an upload made after the discard is committed, so the commit below does take
      // uploads and a missing discarded.txt is the discard's doing.
      await ctx.setup('upload kept.txt with rev=upload and commit the uploads', async () => {
        expect2xx(await caller.put(`${path}/kept.txt`, { query: { rev: 'upload' }, body: 'y\n', contentType: 'application/octet-stream' }), `PUT ${path}/kept.txt?rev=upload`);
        expect2xx(await caller.post(path, { query: { cmd: 'commit', rev: 'upload' } }), `POST ${path}?cmd=commit&rev=upload`);
      }, { seeAlso: 'build.packages.upload-then-commit' });
      const names = entryNames(expect2xx(await caller.get(path), `GET ${path}`));
      if (!names.includes('kept.txt')) ctx.inconclusive(`GET ${path} does not list kept.txt, uploaded after the discard and committed: the commit of uploads does not work here, so the discard cannot be told (see build.packages.upload-then-commit)`, { seeAlso: 'build.packages.upload-then-commit' });
      ctx.expect(!names.includes('discarded.txt'), `GET ${path}: discarded.txt was committed although its upload was discarded`);
    });
  },
);

export const historyRecordsCommits = check(
  {
    id: 'build.packages.history-records-commits',
    title: 'A commit changes the package _history',
    protocol: 'build',
    section,
    level: 'MUST',
    spec: { file, line: 95, quote: 'GET /source/<project>/<package>/_history: commit history' },
    touches: ['DELETE /source/{project}', 'GET /source/{project}/{package}/_history', 'PUT /source/{project}/_meta', 'PUT /source/{project}/{package}/_meta', 'PUT /source/{project}/{package}/{filename}'],
    faults: ['history-not-recorded'],
    tags: ['destructive'],
    reliesOn: ['build.projects.meta-put-creates'],
  },
  async (ctx) => {
    await withScratchProject(ctx, async ({ caller, project, addPackage }) => {
      const path = `/source/${project}/${await addPackage('history')}`;
      // Compared as documents (what they hold), not as text.
      const read = async () => JSON.stringify(rootOf(expect2xx(await caller.get(`${path}/_history`), `GET ${path}/_history`).xml) ?? null);
      const before = await ctx.setup(`read ${path}/_history before the commit`, read);
      expectServed(await caller.put(`${path}/file.txt`, { query: { comment: 'conformance commit' }, body: 'v1\n', contentType: 'application/octet-stream' }), `PUT ${path}/file.txt`);
      const after = await read();
      ctx.expect(after !== before, `GET ${path}/_history is unchanged after a commit`);
    });
  },
);

export const diffIsText = check(
  {
    id: 'build.packages.diff-text-plain',
    title: 'cmd=diff returns a text/plain diff',
    protocol: 'build',
    section,
    level: 'MUST',
    spec: { file, line: 99, quote: 'returns text/plain diff' },
    touches: ['POST /source/{project}/{package}'],
    faults: ['diff-as-xml'],
  },
  async (ctx) => {
    const project = ctx.build.fixture(ctx.build.fixtures.project, 'project');
    const pkg = ctx.build.fixture(ctx.build.fixtures.package, 'package');
    const res = expectServed(await ctx.build.as('user').post(`/source/${project}/${pkg}`, { query: { cmd: 'diff' } }), `POST /source/${project}/${pkg}?cmd=diff`);
    ctx.expect(contentType(res) === 'text/plain', `POST /source/${project}/${pkg}?cmd=diff: expected text/plain, got ${contentType(res) || 'no content type'}`);
  },
);

export const commitNeedsRev = check(
  {
    id: 'build.packages.commit-needs-rev',
    title: 'cmd=commit without rev is refused',
    protocol: 'build',
    section,
    level: 'SHOULD',
    spec: { file, line: 100, quote: '`commit` (`rev` req, `comment`)' },
    touches: ['DELETE /source/{project}', 'POST /source/{project}/{package}', 'PUT /source/{project}/_meta', 'PUT /source/{project}/{package}/_meta', 'PUT /source/{project}/{package}/{filename}'],
    faults: ['commit-without-rev-accepted'],
    tags: ['destructive'],
    reliesOn: ['build.projects.meta-put-creates'],
  },
  async (ctx) => {
    await withScratchProject(ctx, async ({ caller, project, addPackage }) => {
      const path = `/source/${project}/${await addPackage('norev')}`;
      await ctx.setup('upload norev.txt with rev=upload', async () => expect2xx(await caller.put(`${path}/norev.txt`, { query: { rev: 'upload' }, body: 'z\n', contentType: 'application/octet-stream' }), `PUT ${path}/norev.txt?rev=upload`), {
        seeAlso: 'build.packages.upload-then-commit',
      });
      const without = await caller.post(path, { query: { cmd: 'commit' } });
      // The positive control on the same route and command: with rev it is served.
      await routeServed(ctx, `POST ${path}?cmd=commit&rev=upload`, () => caller.post(path, { query: { cmd: 'commit', rev: 'upload' } }), 'build.packages.upload-then-commit');
      expectNot2xx(without, `POST ${path}?cmd=commit without rev`);
    });
  },
);

export const commitFileList = check(
  {
    id: 'build.packages.commitfilelist',
    title: 'cmd=commitfilelist commits the listed files, uploaded beforehand with rev=repository',
    protocol: 'build',
    section,
    level: 'MUST',
    spec: { file, line: 101, quote: 'Files are uploaded beforehand by PUT with `rev=repository`' },
    touches: ['DELETE /source/{project}', 'GET /source/{project}/{package}', 'GET /source/{project}/{package}/{filename}', 'POST /source/{project}/{package}', 'PUT /source/{project}/_meta', 'PUT /source/{project}/{package}/_meta', 'PUT /source/{project}/{package}/{filename}'],
    faults: ['commitfilelist-ignores-uploads'],
    tags: ['destructive'],
    reliesOn: ['build.projects.meta-put-creates'],
  },
  async (ctx) => {
    await withScratchProject(ctx, async ({ caller, project, addPackage }) => {
      const path = `/source/${project}/${await addPackage('filelist')}`;
      const content = 'committed through a file list\n';
      expectServed(await caller.put(`${path}/listed.txt`, { query: { rev: 'repository' }, body: content, contentType: 'application/octet-stream' }), `PUT ${path}/listed.txt?rev=repository`);
      const md5 = createHash('md5').update(content).digest('hex');
      const sha256 = createHash('sha256').update(content).digest('hex');
      const listing = `<directory><entry name="listed.txt" md5="${md5}" hash="sha256:${sha256}"/></directory>`;
      expectServed(await caller.post(path, { query: { cmd: 'commitfilelist', withvalidate: 1, comment: 'conformance' }, body: listing }), `POST ${path}?cmd=commitfilelist`);
      const names = entryNames(expectServed(await caller.get(path), `GET ${path}`));
      ctx.expect(names.includes('listed.txt'), `GET ${path}: listed.txt is not committed after cmd=commitfilelist (${names.join(', ') || 'no entries'})`);
      const read = expect2xx(await caller.get(`${path}/listed.txt`), `GET ${path}/listed.txt`);
      ctx.expect(read.text === content, `GET ${path}/listed.txt: expected the uploaded content, got ${JSON.stringify(read.text.slice(0, 80))}`);
    });
  },
);

/** A body read as a document, for telling one answer from another (the same server writes both alike). */
const asDocument = (res: BuildResponse) => JSON.stringify(rootOf(res.xml) ?? res.text);

/** Commits `content` to `file` of a scratch package (one commit; a set-up step). */
async function commitFile(s: Scratch, pkg: string, file: string, content: string): Promise<void> {
  const path = `/source/${s.project}/${pkg}/${file}`;
  await s.ctx.setup(`commit ${file} to ${s.project}/${pkg}`, async () => expect2xx(await s.caller.put(path, { body: content, contentType: 'application/octet-stream' }), `PUT ${path}`));
}

export const packageListDeleted = check(
  {
    id: 'build.packages.list-deleted',
    title: 'GET /source/<project>?deleted lists the deleted packages of the project, not the live ones',
    protocol: 'build',
    section,
    // What `deleted` does to a package list is read from its name (line 79 states it for projects only).
    level: 'SHOULD',
    spec: { file, line: 91, quote: 'GET /source/<project>: list packages. Params: `deleted`' },
    touches: ['DELETE /source/{project}', 'DELETE /source/{project}/{package}', 'GET /source/{project}', 'PUT /source/{project}/_meta', 'PUT /source/{project}/{package}/_meta'],
    faults: ['package-list-deleted-ignored'],
    tags: ['destructive'],
    reliesOn: ['build.projects.meta-put-creates'],
  },
  async (ctx) => {
    await withScratchProject(ctx, async ({ caller, project, addPackage }) => {
      await addPackage('kept');
      await addPackage('removed');
      await ctx.setup(`delete ${project}/removed`, async () => expect2xx(await caller.delete(`/source/${project}/removed`), `DELETE /source/${project}/removed`), { seeAlso: 'build.packages.delete' });
      const res = expectServed(await caller.get(`/source/${project}`, { query: { deleted: 1 } }), `GET /source/${project}?deleted=1`);
      const names = entryNames(res);
      ctx.expect(names.includes('removed'), `GET /source/${project}?deleted=1 does not list the deleted package removed: ${brief(res)}`);
      ctx.expect(!names.includes('kept'), `GET /source/${project}?deleted=1 lists the live package kept: ${brief(res)}`);
    });
  },
);

export const packageListExpand = check(
  {
    id: 'build.packages.list-expand',
    title: 'GET /source/<project>?expand includes the packages of the projects it links to',
    protocol: 'build',
    section,
    level: 'MUST',
    spec: { file, line: 91, quote: '`expand` (include linked projects)' },
    touches: ['DELETE /source/{project}', 'GET /source/{project}', 'PUT /source/{project}/_meta', 'PUT /source/{project}/{package}/_meta'],
    faults: ['package-list-expand-ignored'],
    tags: ['destructive'],
    reliesOn: ['build.projects.meta-put-creates'],
  },
  async (ctx) => {
    await withScratchProject(ctx, async (base) => {
      await base.addPackage('inherited');
      // A project link, written as the build service reads it (<link project/> after the description).
      await withScratchProject(ctx, async ({ caller, project, addPackage }) => {
        await addPackage('own');
        const res = expectServed(await caller.get(`/source/${project}`, { query: { expand: 1 } }), `GET /source/${project}?expand=1`);
        const names = entryNames(res);
        ctx.expect(names.includes('inherited'), `GET /source/${project}?expand=1 leaves out the package inherited of ${base.project}, which ${project} links to: ${brief(res)}`);
        ctx.expect(names.includes('own'), `GET /source/${project}?expand=1 leaves out the project's own package own: ${brief(res)}`);
      }, { metaExtra: `<link project="${base.project}"/>` });
    });
  },
);

export const projectViews = check(
  {
    id: 'build.packages.project-views',
    title: 'GET /source/<project> with view=issues, productlist or verboseproductlist answers that view, not the package list',
    protocol: 'build',
    section,
    // What each view holds is read from its name only.
    level: 'SHOULD',
    spec: { file, line: 91, quote: '`view` (`issues`; `productlist`; `verboseproductlist`)' },
    touches: ['GET /source/{project}'],
    faults: ['project-views-ignored'],
  },
  async (ctx) => {
    const project = ctx.build.fixture(ctx.build.fixtures.project, 'project');
    const caller = ctx.build.as('user');
    const path = `/source/${project}`;
    const plain = await ctx.setup(`list the packages of ${project}`, async () => asDocument(expect2xx(await caller.get(path), `GET ${path}`)));
    for (const view of ['issues', 'productlist', 'verboseproductlist']) {
      const res = expect2xx(await caller.get(path, { query: { view } }), `GET ${path}?view=${view}`);
      ctx.expect(res.xml !== undefined, `GET ${path}?view=${view}: expected a structured document, got ${brief(res)}`);
      ctx.expect(asDocument(res) !== plain, `GET ${path}?view=${view} answers with the package list itself: the view is not taken`);
    }
  },
);

export const viewInfo = check(
  {
    id: 'build.packages.view-info',
    title: 'A source listing with view=info names the build description files and the sources\' md5 sum',
    protocol: 'build',
    section,
    level: 'MUST',
    spec: { file, line: 92, quote: '`info`: source version, md5sums and build description files' },
    touches: ['DELETE /source/{project}', 'GET /source/{project}/{package}', 'PUT /source/{project}/_meta', 'PUT /source/{project}/{package}/_meta', 'PUT /source/{project}/{package}/{filename}'],
    faults: ['view-info-ignored'],
    tags: ['destructive'],
    reliesOn: ['build.projects.meta-put-creates'],
  },
  async (ctx) => {
    await withScratchProject(ctx, async (s) => {
      const pkg = await s.addPackage('described');
      await commitFile(s, pkg, 'described.spec', 'Name: described\nVersion: 4.2.7\nRelease: 0\nSummary: conformance probe\nLicense: MIT\n%description\nprobe\n');
      const path = `/source/${s.project}/${pkg}`;
      const plain = await ctx.setup(`read the source listing of ${path}`, async () => expect2xx(await s.caller.get(path), `GET ${path}`));
      // The sources' md5 sum as the plain listing gives it (the build service's `srcmd5`), where it does.
      const srcmd5 = attr(rootOf(plain.xml)?.node, 'srcmd5');
      const info = expect2xx(await s.caller.get(path, { query: { view: 'info' } }), `GET ${path}?view=info`);
      ctx.expect(asDocument(info) !== asDocument(plain), `GET ${path}?view=info answers with the plain source listing: the view is not taken`);
      ctx.expect(xmlValues(info).has('described.spec'), `GET ${path}?view=info does not name the build description file described.spec: ${brief(info)}`);
      if (srcmd5) ctx.expect(xmlValues(info).has(srcmd5), `GET ${path}?view=info does not give the md5 sum ${srcmd5} of the sources: ${brief(info)}`);
      // Not asserted: the version (4.2.7). Line 92 gives view=info `parse`, `arch` and `repository`:
      // reading the version may take parsing against a repository's build configuration, which a
      // scratch project does not have.
    });
  },
);

/** The members of a cpio archive (newc 070701/070702 or portable odc 070707), name -> content; undefined if it is not one. */
export function readCpio(bytes: Buffer): Map<string, Buffer> | undefined {
  const out = new Map<string, Buffer>();
  let at = 0;
  const pad4 = (n: number) => (n + 3) & ~3;
  while (at < bytes.length) {
    const magic = bytes.toString('latin1', at, at + 6);
    let name: string;
    let size: number;
    let next: number;
    if (magic === '070701' || magic === '070702') {
      const hex = (i: number) => parseInt(bytes.toString('latin1', at + 6 + i * 8, at + 14 + i * 8), 16);
      const namesize = hex(11);
      size = hex(6);
      if (!Number.isFinite(namesize) || !Number.isFinite(size)) return undefined;
      name = bytes.toString('utf8', at + 110, at + 110 + namesize - 1);
      const data = pad4(at + 110 + namesize);
      out.set(name, bytes.subarray(data, data + size));
      next = pad4(data + size);
    } else if (magic === '070707') {
      const oct = (from: number, width: number) => parseInt(bytes.toString('latin1', at + from, at + from + width), 8);
      const namesize = oct(59, 6);
      size = oct(65, 11);
      if (!Number.isFinite(namesize) || !Number.isFinite(size)) return undefined;
      name = bytes.toString('utf8', at + 76, at + 76 + namesize - 1);
      out.set(name, bytes.subarray(at + 76 + namesize, at + 76 + namesize + size));
      next = at + 76 + namesize + size;
    } else return undefined;
    if (name === 'TRAILER!!!') {
      out.delete(name);
      return out;
    }
    if (next > bytes.length) return undefined;
    at = next;
  }
  return undefined;
}

export const viewCpio = check(
  {
    id: 'build.packages.view-cpio',
    title: 'A source listing with view=cpio streams every file of the package as a cpio archive',
    protocol: 'build',
    section,
    level: 'MUST',
    spec: { file, line: 92, quote: '`cpio` streams all files as cpio' },
    touches: ['DELETE /source/{project}', 'GET /source/{project}/{package}', 'PUT /source/{project}/_meta', 'PUT /source/{project}/{package}/_meta', 'PUT /source/{project}/{package}/{filename}'],
    faults: ['view-cpio-drops-file'],
    tags: ['destructive'],
    reliesOn: ['build.projects.meta-put-creates'],
  },
  async (ctx) => {
    await withScratchProject(ctx, async (s) => {
      const pkg = await s.addPackage('archived');
      const files: Record<string, string> = { 'first.txt': 'the first file\n', 'second.txt': 'the second file, a little longer\n' };
      for (const [name, content] of Object.entries(files)) await commitFile(s, pkg, name, content);
      const path = `/source/${s.project}/${pkg}`;
      const res = expectServed(await s.caller.get(path, { query: { view: 'cpio' } }), `GET ${path}?view=cpio`);
      const archive = readCpio(res.bytes);
      ctx.expect(archive, `GET ${path}?view=cpio: expected a cpio archive, got ${res.bytes.length} bytes starting ${JSON.stringify(res.bytes.subarray(0, 16).toString('latin1'))}`);
      for (const [name, content] of Object.entries(files)) {
        const got = archive!.get(name);
        ctx.expect(got, `GET ${path}?view=cpio: the archive has no ${name} (members: ${[...archive!.keys()].join(', ') || 'none'})`);
        ctx.expect(got!.toString('utf8') === content, `GET ${path}?view=cpio: ${name} holds ${JSON.stringify(got!.toString('utf8').slice(0, 60))}, not the committed content`);
      }
    });
  },
);

export const packageViewIssues = check(
  {
    id: 'build.packages.view-issues',
    title: 'A source listing with view=issues answers that view, not the file list',
    protocol: 'build',
    section,
    // What the view holds is read from its name only.
    level: 'SHOULD',
    spec: { file, line: 92, quote: '`issues`; `products`; `productrepositories`' },
    touches: ['GET /source/{project}/{package}'],
    faults: ['package-views-ignored'],
  },
  async (ctx) => {
    const project = ctx.build.fixture(ctx.build.fixtures.project, 'project');
    const pkg = ctx.build.fixture(ctx.build.fixtures.package, 'package');
    const caller = ctx.build.as('user');
    const path = `/source/${project}/${pkg}`;
    const plain = await ctx.setup(`read the source listing of ${path}`, async () => asDocument(expect2xx(await caller.get(path), `GET ${path}`)));
    // Not asked: products and productrepositories, views of product definitions (a package
    // without one, such as the fixture, has nothing to show; the build service may refuse them).
    const res = expect2xx(await caller.get(path, { query: { view: 'issues' } }), `GET ${path}?view=issues`);
    ctx.expect(res.xml !== undefined, `GET ${path}?view=issues: expected a structured document, got ${brief(res)}`);
    ctx.expect(asDocument(res) !== plain, `GET ${path}?view=issues answers with the file list itself: the view is not taken`);
  },
);

/** The fixture product package's path and product name, and the user's caller (fixtures.product). */
function productFixture(ctx: Parameters<typeof packageViewIssues.run>[0]) {
  const f = ctx.build.fixture(ctx.build.fixtures.product, 'product');
  return { path: `/source/${f.project}/${f.package}`, name: f.name, caller: ctx.build.as('user') };
}

export const productViews = check(
  {
    id: 'build.packages.view-products-productrepositories',
    title: 'A source listing of a product package with view=products names its products, and view=productrepositories answers that view',
    protocol: 'build',
    section,
    // What each view holds is read from its name only.
    level: 'SHOULD',
    spec: { file, line: 92, quote: '`issues`; `products`; `productrepositories`' },
    touches: ['GET /source/{project}/{package}'],
    faults: ['package-views-ignored', 'productrepositories-ignored'],
  },
  async (ctx) => {
    const { path, name, caller } = productFixture(ctx);
    const plain = await ctx.setup(`read the source listing of ${path}`, async () => asDocument(expect2xx(await caller.get(path), `GET ${path}`)));
    const products = expect2xx(await caller.get(path, { query: { view: 'products' } }), `GET ${path}?view=products`);
    ctx.expect(asDocument(products) !== plain, `GET ${path}?view=products answers with the file list itself: the view is not taken`);
    ctx.expect(xmlValues(products).has(name), `GET ${path}?view=products does not name the product ${name} (fixtures.product): ${brief(products)}`);
    const repositories = expect2xx(await caller.get(path, { query: { view: 'productrepositories' } }), `GET ${path}?view=productrepositories`);
    ctx.expect(repositories.xml !== undefined, `GET ${path}?view=productrepositories: expected a structured document, got ${brief(repositories)}`);
    ctx.expect(asDocument(repositories) !== plain, `GET ${path}?view=productrepositories answers with the file list itself: the view is not taken`);
  },
);

export const productFilter = check(
  {
    id: 'build.packages.product-limits-product-view',
    title: '`product` limits view=products to the product it names',
    protocol: 'build',
    section,
    level: 'MUST',
    spec: { file, line: 92, quote: '`product` (limit product view)' },
    touches: ['GET /source/{project}/{package}'],
    faults: ['product-filter-ignored'],
  },
  async (ctx) => {
    const { path, name, caller } = productFixture(ctx);
    const all = await ctx.setup(`read ${path}?view=products`, async () => expect2xx(await caller.get(path, { query: { view: 'products' } }), `GET ${path}?view=products`), {
      seeAlso: 'build.packages.view-products-productrepositories',
    });
    if (!xmlValues(all).has(name)) ctx.inconclusive(`GET ${path}?view=products does not name the product ${name} (fixtures.product): there is nothing to limit: ${brief(all)}`);
    const kept = expect2xx(await caller.get(path, { query: { view: 'products', product: name } }), `GET ${path}?view=products&product=${name}`);
    ctx.expect(xmlValues(kept).has(name), `GET ${path}?view=products&product=${name} leaves out the product it names: ${brief(kept)}`);
    const other = 'conformance-no-such-product';
    const none = expect2xx(await caller.get(path, { query: { view: 'products', product: other } }), `GET ${path}?view=products&product=${other}`);
    ctx.expect(!xmlValues(none).has(name), `GET ${path}?view=products&product=${other} still names the product ${name}: ${brief(none)}`);
  },
);

export const branchTarget = check(
  {
    id: 'build.packages.branch-target',
    title: 'cmd=branch with target_project and target_package branches to the package they name',
    protocol: 'build',
    section,
    // That the two parameters name the target is read from their names (beside "default target").
    level: 'SHOULD',
    spec: { file, line: 100, quote: '`branch` (default target home:<user>:branches:<project>; params `ignoredevel`, `target_project`, `target_package`' },
    touches: ['DELETE /source/{project}', 'GET /source/{project}/{package}/_meta', 'POST /source/{project}/{package}', 'PUT /source/{project}/_meta'],
    faults: ['branch-ignores-target'],
    tags: ['destructive'],
    reliesOn: ['build.projects.meta-put-creates'],
  },
  async (ctx) => {
    const project = ctx.build.fixture(ctx.build.fixtures.project, 'project');
    const pkg = ctx.build.fixture(ctx.build.fixtures.package, 'package');
    await withScratchProject(ctx, async (s) => {
      const target = 'branched-here';
      const what = `POST /source/${project}/${pkg}?cmd=branch&target_project=${s.project}&target_package=${target}`;
      // The positive control: a package _meta is found (the fixture package's), so a refusal below
      // for the branch target means it does not exist.
      await routeServed(ctx, `GET /source/${project}/${pkg}/_meta`, () => s.caller.get(`/source/${project}/${pkg}/_meta`), 'build.packages.meta-get');
      expectServed(await s.caller.post(`/source/${project}/${pkg}`, { query: { cmd: 'branch', target_project: s.project, target_package: target } }), what);
      const meta = await s.caller.get(`/source/${s.project}/${target}/_meta`);
      ctx.expect(meta.status >= 200 && meta.status <= 299, `${what}: the package ${s.project}/${target} it names does not exist afterwards: GET /source/${s.project}/${target}/_meta answered ${brief(meta)}`);
      // It is that package: its meta names it (the build service's <package name project>; line 43 shows no structure).
      const root = rootOf(meta.xml);
      ctx.expect(root?.name === 'package' && attr(root.node, 'name') === target, `${what}: GET /source/${s.project}/${target}/_meta does not answer the meta of a package ${target}: ${brief(meta)}`);
    });
  },
);

/** A scratch project with one repository that builds against the fixture repository (as the build commands need one). */
function withRepositoryScratch(ctx: Parameters<typeof packageViewIssues.run>[0], body: (s: Scratch, repo: string) => Promise<void>): Promise<void> {
  const f = ctx.build.fixtures;
  const [project, repo, arch] = [ctx.build.fixture(f.project, 'project'), ctx.build.fixture(f.repository, 'repository'), ctx.build.fixture(f.arch, 'arch')];
  return withScratchProject(ctx, (s) => body(s, repo), { metaExtra: `<repository name="${repo}"><path project="${project}" repository="${repo}"/><arch>${arch}</arch></repository>` });
}

export const collectbuildenvNeedsOrigin = check(
  {
    id: 'build.packages.collectbuildenv-needs-oproject-opackage',
    title: 'cmd=collectbuildenv is refused without oproject and opackage',
    protocol: 'build',
    section,
    // A refusal implied by "req" on a parameter (as `commit`'s `rev` on the same line): SHOULD.
    level: 'SHOULD',
    spec: { file, line: 100, quote: '`collectbuildenv` (`oproject` req, `opackage` req, `comment`)' },
    touches: ['DELETE /source/{project}', 'POST /source/{project}/{package}', 'PUT /source/{project}/_meta', 'PUT /source/{project}/{package}/_meta'],
    faults: ['collectbuildenv-unchecked'],
    tags: ['destructive'],
    reliesOn: ['build.projects.meta-put-creates'],
  },
  async (ctx) => {
    const origin = { oproject: ctx.build.fixture(ctx.build.fixtures.project, 'project'), opackage: ctx.build.fixture(ctx.build.fixtures.package, 'package') };
    await withRepositoryScratch(ctx, async (s) => {
      const pkg = await s.addPackage('buildenv');
      const path = `/source/${s.project}/${pkg}`;
      // Served with both first: a refusal below is then about the missing parameters.
      await ctx.setup(`collect the build environment of ${origin.oproject}/${origin.opackage}`, async () =>
        expect2xx(await s.caller.post(path, { query: { cmd: 'collectbuildenv', ...origin } }), `POST ${path}?cmd=collectbuildenv&oproject=${origin.oproject}&opackage=${origin.opackage}`),
      );
      for (const [query, what] of [[{ opackage: origin.opackage }, 'without oproject'], [{ oproject: origin.oproject }, 'without opackage']] as const) {
        expectNot2xx(await s.caller.post(path, { query: { cmd: 'collectbuildenv', ...query } }), `POST ${path}?cmd=collectbuildenv ${what}`);
      }
    });
  },
);

export const releaseTargetNeedsRepositories = check(
  {
    id: 'build.packages.release-target-needs-repositories',
    title: 'cmd=release with target_project is refused without repository or target_repository',
    protocol: 'build',
    section,
    // A refusal implied by "required" on parameters (as "req" on the same line): SHOULD.
    level: 'SHOULD',
    spec: { file, line: 100, quote: 'repository and target_repository required with it' },
    touches: ['DELETE /source/{project}', 'POST /source/{project}/{package}', 'PUT /source/{project}/_meta', 'PUT /source/{project}/{package}/_meta'],
    faults: ['release-target-unchecked'],
    tags: ['destructive'],
    reliesOn: ['build.projects.meta-put-creates'],
  },
  async (ctx) => {
    await withRepositoryScratch(ctx, async (s, repo) => {
      const pkg = await s.addPackage('released');
      const target = `${s.project}:release`;
      await ctx.setup(`create the release target project ${target}`, async () =>
        expect2xx(await s.caller.put(`/source/${target}/_meta`, { body: `<project name="${target}"><title>release target</title><description/><repository name="${repo}"/></project>` }), `PUT /source/${target}/_meta`),
      );
      try {
        const path = `/source/${s.project}/${pkg}`;
        const all = { cmd: 'release', target_project: target, repository: repo, target_repository: repo };
        // Served with all three first: a refusal below is then about the missing one.
        await ctx.setup(`release ${path} into ${target}`, async () => expect2xx(await s.caller.post(path, { query: all }), `POST ${path}?cmd=release&target_project=${target}&repository=${repo}&target_repository=${repo}`));
        for (const left of ['repository', 'target_repository'] as const) {
          const { [left]: _, ...query } = all;
          expectNot2xx(await s.caller.post(path, { query }), `POST ${path}?cmd=release&target_project=${target} without ${left}`);
        }
      } finally {
        await deleteProject(s.caller, target);
      }
    });
  },
);

export const extensionFilter = check(
  {
    id: 'build.packages.extension-filter',
    title: 'A source listing with `extension` lists only the files with that extension',
    protocol: 'build',
    section,
    level: 'MUST',
    spec: { file, line: 92, quote: '`extension` (file extension filter)' },
    touches: ['DELETE /source/{project}', 'GET /source/{project}/{package}', 'PUT /source/{project}/_meta', 'PUT /source/{project}/{package}/_meta', 'PUT /source/{project}/{package}/{filename}'],
    faults: ['extension-filter-ignored'],
    tags: ['destructive'],
    reliesOn: ['build.projects.meta-put-creates'],
  },
  async (ctx) => {
    await withScratchProject(ctx, async (s) => {
      const pkg = await s.addPackage('mixed');
      await commitFile(s, pkg, 'mixed.spec', 'Name: mixed\nVersion: 1\nRelease: 0\n');
      await commitFile(s, pkg, 'notes.txt', 'not a spec file\n');
      const path = `/source/${s.project}/${pkg}`;
      const res = expectServed(await s.caller.get(path, { query: { extension: 'spec' } }), `GET ${path}?extension=spec`);
      const names = entryNames(res);
      ctx.expect(names.includes('mixed.spec'), `GET ${path}?extension=spec does not list mixed.spec: ${brief(res)}`);
      ctx.expect(!names.includes('notes.txt'), `GET ${path}?extension=spec also lists notes.txt: ${brief(res)}`);
    });
  },
);

export const packageMetaGet = check(
  {
    id: 'build.packages.meta-get',
    title: 'GET /source/<project>/<package>/_meta reads the package meta written by PUT',
    protocol: 'build',
    section,
    level: 'MUST',
    spec: { file, line: 93, quote: 'GET, PUT (`comment` opt; body; creates if absent; commits the package to the build backend) /source/<project>/<package>/_meta' },
    touches: ['DELETE /source/{project}', 'GET /source/{project}/{package}/_meta', 'PUT /source/{project}/_meta', 'PUT /source/{project}/{package}/_meta'],
    faults: ['package-meta-get-wrong'],
    tags: ['destructive'],
    reliesOn: ['build.projects.meta-put-creates'],
  },
  async (ctx) => {
    await withScratchProject(ctx, async ({ caller, project, addPackage }) => {
      const pkg = await addPackage('described');
      const path = `/source/${project}/${pkg}/_meta`;
      const res = expectServed(await caller.get(path), `GET ${path}`);
      const root = rootOf(res.xml);
      ctx.expect(root?.name === 'package' && attr(root.node, 'name') === pkg, `GET ${path}: expected the <package name="${pkg}"> meta written, got ${brief(res)}`);
    });
  },
);

export const packageDelete = check(
  {
    id: 'build.packages.delete',
    title: 'DELETE /source/<project>/<package> removes the package',
    protocol: 'build',
    section,
    level: 'MUST',
    spec: { file, line: 93, quote: 'DELETE /source/<project>/<package> (`comment` opt)' },
    touches: ['DELETE /source/{project}', 'DELETE /source/{project}/{package}', 'GET /source/{project}', 'GET /source/{project}/{package}/_meta', 'PUT /source/{project}/_meta', 'PUT /source/{project}/{package}/_meta'],
    faults: ['package-delete-noop'],
    tags: ['destructive'],
    reliesOn: ['build.projects.meta-put-creates'],
  },
  async (ctx) => {
    await withScratchProject(ctx, async ({ caller, project, addPackage }) => {
      const pkg = await addPackage('doomed');
      // The positive control: the package's meta is found before the delete.
      await routeServed(ctx, `GET /source/${project}/${pkg}/_meta (before the delete)`, () => caller.get(`/source/${project}/${pkg}/_meta`), 'build.packages.meta-get');
      expectServed(await caller.delete(`/source/${project}/${pkg}`, { query: { comment: 'conformance' } }), `DELETE /source/${project}/${pkg}`);
      const listing = expectServed(await caller.get(`/source/${project}`), `GET /source/${project}`);
      ctx.expect(!entryNames(listing).includes(pkg), `GET /source/${project} still lists ${pkg} after DELETE: ${brief(listing)}`);
      expectNot2xx(await caller.get(`/source/${project}/${pkg}/_meta`), `GET /source/${project}/${pkg}/_meta after DELETE`);
    });
  },
);

export const unlockNeedsComment = check(
  {
    id: 'build.packages.unlock-needs-comment',
    title: 'cmd=unlock of a locked package is refused without a comment and served with one',
    protocol: 'build',
    section,
    // The refusal is implied by a parameter being required ("requires one"), not stated: SHOULD.
    level: 'SHOULD',
    spec: { file, line: 104, quote: '`comment` (unlock requires one)' },
    touches: ['DELETE /source/{project}', 'GET /source/{project}/{package}/_meta', 'POST /source/{project}/{package}', 'PUT /source/{project}/_meta', 'PUT /source/{project}/{package}/_meta'],
    faults: ['unlock-without-comment'],
    tags: ['destructive'],
    reliesOn: ['build.projects.meta-put-creates'],
  },
  async (ctx) => {
    await withScratchProject(ctx, async ({ caller, project, addPackage }) => {
      const pkg = await addPackage('locked');
      const path = `/source/${project}/${pkg}`;
      // Locked through its meta, as the build service writes a lock (<lock><enable/></lock>).
      await ctx.setup(`lock ${path}`, async () => {
        expect2xx(await caller.put(`${path}/_meta`, { body: `<package name="${pkg}" project="${project}"><title>${pkg}</title><description/><lock><enable/></lock></package>` }), `PUT ${path}/_meta with a lock`);
        const meta = expect2xx(await caller.get(`${path}/_meta`), `GET ${path}/_meta`);
        ctx.expect(elements(elements(meta.xml, 'lock')[0], 'enable').length > 0, `GET ${path}/_meta does not show the lock just written: ${brief(meta)}`);
      });
      try {
        const without = await caller.post(path, { query: { cmd: 'unlock' } });
        const withComment = await caller.post(path, { query: { cmd: 'unlock', comment: 'unlocked by a conformance check' } });
        if (without.status < 200 || without.status > 299) expectServed(withComment, `POST ${path}?cmd=unlock with a comment`);
        expectNot2xx(without, `POST ${path}?cmd=unlock without a comment`);
      } finally {
        await caller.post(path, { query: { cmd: 'unlock', comment: 'conformance clean-up' } }).catch(() => undefined);
      }
    });
  },
);

export const copyOrev = check(
  {
    id: 'build.packages.copy-orev',
    title: 'cmd=copy with oproject and opackage copies the sources, of the revision `orev` names where given',
    protocol: 'build',
    section,
    // What copy and `orev` do is read from their names (line 104 lists the parameters only).
    level: 'SHOULD',
    spec: { file, line: 104, quote: 'Params across package commands: `rev`, `linkrev`, `orev`, `olinkrev`, `oproject`, `opackage`' },
    touches: ['DELETE /source/{project}', 'GET /source/{project}/{package}/_history', 'GET /source/{project}/{package}/{filename}', 'POST /source/{project}/{package}', 'PUT /source/{project}/_meta', 'PUT /source/{project}/{package}/_meta', 'PUT /source/{project}/{package}/{filename}'],
    faults: ['copy-ignores-orev'],
    tags: ['destructive'],
    reliesOn: ['build.projects.meta-put-creates'],
  },
  async (ctx) => {
    await withScratchProject(ctx, async (s) => {
      const { caller, project } = s;
      const original = await s.addPackage('original');
      await commitFile(s, original, 'file.txt', 'first revision\n');
      await commitFile(s, original, 'file.txt', 'second revision\n');
      // The revision of the first commit, from the history (the build service's <revision rev>; line 43 shows no structure).
      const first = await ctx.setup(`read the history of ${project}/${original}`, async () => {
        const hist = expect2xx(await caller.get(`/source/${project}/${original}/_history`), `GET /source/${project}/${original}/_history`);
        const revs = elements(hist.xml, 'revision').map((r) => Number(attr(r, 'rev'))).filter(Number.isInteger);
        ctx.expect(revs.length >= 2, `GET /source/${project}/${original}/_history: expected the 2 commits just made, got ${brief(hist)}`);
        return String(revs.reduce((a, b) => Math.min(a, b)));
      }, { seeAlso: 'build.packages.history-records-commits' });
      const copy = async (target: string, orev?: string) => {
        const query = { cmd: 'copy', oproject: project, opackage: original, ...(orev ? { orev } : {}) };
        expect2xx(await caller.post(`/source/${project}/${target}`, { query }), `POST /source/${project}/${target}?cmd=copy&oproject=${project}&opackage=${original}${orev ? `&orev=${orev}` : ''}`);
        return expect2xx(await caller.get(`/source/${project}/${target}/file.txt`), `GET /source/${project}/${target}/file.txt`).text;
      };
      const latest = await copy('latest');
      ctx.expect(latest === 'second revision\n', `a copy of ${original} without orev holds ${JSON.stringify(latest.slice(0, 60))}, not the latest sources`);
      const older = await copy('older', first);
      ctx.expect(older === 'first revision\n', `a copy of ${original} with orev=${first} holds ${JSON.stringify(older.slice(0, 60))}, not the sources of revision ${first}`);
    });
  },
);

export const checks = [
  uploadThenCommit,
  deleteUploadRev,
  historyRecordsCommits,
  diffIsText,
  commitNeedsRev,
  commitFileList,
  packageListDeleted,
  packageListExpand,
  projectViews,
  viewInfo,
  viewCpio,
  packageViewIssues,
  productViews,
  productFilter,
  branchTarget,
  collectbuildenvNeedsOrigin,
  releaseTargetNeedsRepositories,
  extensionFilter,
  packageMetaGet,
  packageDelete,
  unlockNeedsComment,
  copyOrev,
];
