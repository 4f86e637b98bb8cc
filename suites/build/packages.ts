// Section "Sources: packages and files" of build-service-api.md.
import { createHash } from 'node:crypto';
import { check } from '../../src/core/check.ts';
import { rootOf } from '../../src/clients/xml.ts';
import { contentType, entryNames, expect2xx, expectNot2xx, withScratchProject } from './support.ts';

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
    faults: ['upload-commits-immediately'],
    tags: ['destructive'],
  },
  async (ctx) => {
    await withScratchProject(ctx, async ({ caller, project, addPackage }) => {
      const path = `/source/${project}/${await addPackage('uploads')}`;
      const content = 'uploaded by a conformance check\n';
      expect2xx(await caller.put(`${path}/notes.txt`, { query: { rev: 'upload' }, body: content, contentType: 'application/octet-stream' }), `PUT ${path}/notes.txt?rev=upload`);
      const before = entryNames(expect2xx(await caller.get(path), `GET ${path}`));
      ctx.expect(!before.includes('notes.txt'), `GET ${path}: notes.txt is listed before cmd=commit`);
      expect2xx(await caller.post(path, { query: { cmd: 'commit', rev: 'upload' } }), `POST ${path}?cmd=commit&rev=upload`);
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
    faults: ['deleteuploadrev-noop'],
    tags: ['destructive'],
  },
  async (ctx) => {
    await withScratchProject(ctx, async ({ caller, project, addPackage }) => {
      const path = `/source/${project}/${await addPackage('discard')}`;
      await ctx.setup('upload discarded.txt with rev=upload', async () => expect2xx(await caller.put(`${path}/discarded.txt`, { query: { rev: 'upload' }, body: 'x\n', contentType: 'application/octet-stream' }), `PUT ${path}/discarded.txt?rev=upload`), {
        seeAlso: 'build.packages.upload-then-commit',
      });
      expect2xx(await caller.post(path, { query: { cmd: 'deleteuploadrev' } }), `POST ${path}?cmd=deleteuploadrev`);
      expect2xx(await caller.post(path, { query: { cmd: 'commit', rev: 'upload' } }), `POST ${path}?cmd=commit&rev=upload`);
      const names = entryNames(expect2xx(await caller.get(path), `GET ${path}`));
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
    faults: ['history-not-recorded'],
    tags: ['destructive'],
  },
  async (ctx) => {
    await withScratchProject(ctx, async ({ caller, project, addPackage }) => {
      const path = `/source/${project}/${await addPackage('history')}`;
      // Compared as documents (what they hold), not as text.
      const read = async () => JSON.stringify(rootOf(expect2xx(await caller.get(`${path}/_history`), `GET ${path}/_history`).xml) ?? null);
      const before = await ctx.setup(`read ${path}/_history before the commit`, read);
      expect2xx(await caller.put(`${path}/file.txt`, { query: { comment: 'conformance commit' }, body: 'v1\n', contentType: 'application/octet-stream' }), `PUT ${path}/file.txt`);
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
    faults: ['diff-as-xml'],
  },
  async (ctx) => {
    const project = ctx.build.fixture(ctx.build.fixtures.project, 'project');
    const pkg = ctx.build.fixture(ctx.build.fixtures.package, 'package');
    const res = expect2xx(await ctx.build.as('user').post(`/source/${project}/${pkg}`, { query: { cmd: 'diff' } }), `POST /source/${project}/${pkg}?cmd=diff`);
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
    faults: ['commit-without-rev-accepted'],
    tags: ['destructive'],
  },
  async (ctx) => {
    await withScratchProject(ctx, async ({ caller, project, addPackage }) => {
      const path = `/source/${project}/${await addPackage('norev')}`;
      expectNot2xx(await caller.post(path, { query: { cmd: 'commit' } }), `POST ${path}?cmd=commit without rev`);
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
    faults: ['commitfilelist-ignores-uploads'],
    tags: ['destructive'],
  },
  async (ctx) => {
    await withScratchProject(ctx, async ({ caller, project, addPackage }) => {
      const path = `/source/${project}/${await addPackage('filelist')}`;
      const content = 'committed through a file list\n';
      expect2xx(await caller.put(`${path}/listed.txt`, { query: { rev: 'repository' }, body: content, contentType: 'application/octet-stream' }), `PUT ${path}/listed.txt?rev=repository`);
      const md5 = createHash('md5').update(content).digest('hex');
      const sha256 = createHash('sha256').update(content).digest('hex');
      const listing = `<directory><entry name="listed.txt" md5="${md5}" hash="sha256:${sha256}"/></directory>`;
      expect2xx(await caller.post(path, { query: { cmd: 'commitfilelist', withvalidate: 1, comment: 'conformance' }, body: listing }), `POST ${path}?cmd=commitfilelist`);
      const names = entryNames(expect2xx(await caller.get(path), `GET ${path}`));
      ctx.expect(names.includes('listed.txt'), `GET ${path}: listed.txt is not committed after cmd=commitfilelist (${names.join(', ') || 'no entries'})`);
      const read = expect2xx(await caller.get(`${path}/listed.txt`), `GET ${path}/listed.txt`);
      ctx.expect(read.text === content, `GET ${path}/listed.txt: expected the uploaded content, got ${JSON.stringify(read.text.slice(0, 80))}`);
    });
  },
);

export const checks = [uploadThenCommit, deleteUploadRev, historyRecordsCommits, diffIsText, commitNeedsRev, commitFileList];
