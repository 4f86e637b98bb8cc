// Section "Common list parameters" of cloud-api.md (with "Resources and their fields" and
// "Limits" for the envelope and the default page size): page, page_size, the list envelope.
import { check } from '../../src/core/check.ts';
import { isDeepStrictEqual } from 'node:util';
import { envelope, expectRefused } from './support.ts';

const section = 'Common list parameters';
const file = 'cloud-api.md';
const LIST = '/account/events';

export const listEnvelope = check(
  {
    id: 'cloud.pagination.list-envelope',
    title: 'A list answers with the envelope data, page, pages, results',
    protocol: 'cloud',
    section: 'Resources and their fields',
    level: 'MUST',
    spec: { file, line: 28, quote: '| Paginated list envelope | data (array), page (integer, starts at 1), pages (integer), results (integer, total) |' },
    touches: ['GET /account/events'],
    faults: ['envelope-without-results'],
  },
  async (ctx) => {
    const list = envelope(await ctx.cloud.as('unrestricted').get(LIST), `GET /v4${LIST}`);
    ctx.expect(list.page === 1, `GET /v4${LIST} without page: expected page 1, got ${list.page}`);
  },
);

export const defaultPageSize100 = check(
  {
    id: 'cloud.pagination.default-page-size-100',
    title: 'Without page_size a page holds up to 100 items',
    protocol: 'cloud',
    section: 'Limits',
    level: 'MUST',
    spec: { file, line: 223, quote: 'Pagination: default page size 100' },
    touches: ['GET /account/events'],
    faults: ['default-page-size-25'],
    // Page 1 holding the first items is that check's rule (a server counting pages from 0 fails it once).
    reliesOn: ['cloud.pagination.pages-start-at-1'],
  },
  async (ctx) => {
    const list = envelope(await ctx.cloud.as('unrestricted').get(LIST), `GET /v4${LIST}`);
    if (list.results <= 25) return ctx.inconclusive(`GET /v4${LIST} has only ${list.results} results: a default page size of 100 cannot be told from 25 or any other`);
    const expected = Math.min(100, list.results);
    ctx.expect(list.data.length === expected, `GET /v4${LIST} with ${list.results} results: expected ${expected} items on page 1 (default page size 100), got ${list.data.length}`);
    // All of 26..100 results on one page rules out 25, but not every other size of at least that many.
    if (list.results <= 100) return ctx.inconclusive(`GET /v4${LIST} has ${list.results} results, all on page 1: a default page size of 100 cannot be told from any other of ${list.results} or more`);
  },
);

export const pageSizeRange = check(
  {
    id: 'cloud.pagination.page-size-range',
    title: 'page_size 25 and 500 are accepted; 24 and 501 are refused',
    protocol: 'cloud',
    section,
    level: 'SHOULD',
    spec: { file, line: 178, quote: '`page_size` (integer, 25 to 500, default 100)' },
    touches: ['GET /account/events'],
    faults: ['page-size-unchecked'],
  },
  async (ctx) => {
    const api = ctx.cloud.as('unrestricted');
    for (const size of [25, 500]) {
      const list = envelope(await api.get(LIST, { query: { page_size: size } }), `GET /v4${LIST}?page_size=${size}`);
      ctx.expect(list.data.length <= size, `page_size=${size}: got ${list.data.length} items`);
    }
    for (const size of [24, 501]) expectRefused(await api.get(LIST, { query: { page_size: size } }), `GET /v4${LIST}?page_size=${size}`);
  },
);

export const pagesStartAtOne = check(
  {
    id: 'cloud.pagination.pages-start-at-1',
    title: 'page=1 is the first page and page=2 continues it without overlap',
    protocol: 'cloud',
    section,
    level: 'MUST',
    spec: { file, line: 178, quote: '`page` (integer, starting at 1' },
    touches: ['GET /account/events'],
    faults: ['page-zero-based'],
  },
  async (ctx) => {
    const api = ctx.cloud.as('unrestricted');
    const first = envelope(await api.get(LIST, { query: { page: 1, page_size: 25 } }), `GET /v4${LIST}?page=1&page_size=25`);
    ctx.expect(first.page === 1, `GET /v4${LIST}?page=1&page_size=25: expected page 1, got ${first.page}`);
    if (first.results < 26) return ctx.inconclusive(`GET /v4${LIST} has ${first.results} items: a second page of 25 cannot be seen`);
    // Pages 1 to \`pages\` of 25 together hold every item once: page 1 is the first, page 2 continues it.
    const ids = first.data.map((r) => (r.id !== undefined ? r.id : JSON.stringify(r)));
    for (let page = 2; page <= Math.min(first.pages, 40); page++) {
      const next = envelope(await api.get(LIST, { query: { page, page_size: 25 } }), `GET /v4${LIST}?page=${page}&page_size=25`);
      ctx.expect(next.page === page, `GET /v4${LIST}?page=${page}&page_size=25: expected page ${page}, got ${next.page}`);
      if (next.results !== first.results) return ctx.inconclusive(`GET /v4${LIST}: results went from ${first.results} to ${next.results} while the pages were read (other activity adds events): the pages cannot be compared with the total`);
      for (const r of next.data) ids.push(r.id !== undefined ? r.id : JSON.stringify(r));
    }
    const unique = new Set(ids.map((v) => JSON.stringify(v)));
    ctx.expect(unique.size === ids.length, `GET /v4${LIST}?page=1..${first.pages}&page_size=25: ${ids.length - unique.size} items appear on two pages`);
    if (first.pages > 40) return ctx.inconclusive(`GET /v4${LIST} has ${first.pages} pages of 25: only the first 40 were read, so whether they hold every item cannot be told`);
    ctx.expect(ids.length === first.results, `GET /v4${LIST}?page=1..${first.pages}&page_size=25: the pages hold ${ids.length} items, the list has ${first.results} (results): pages do not start at 1`);
  },
);

export const hugePageIsLast = check(
  {
    id: 'cloud.pagination.huge-page-is-last',
    title: 'A page above 2^64 / page_size returns the last possible page',
    protocol: 'cloud',
    section,
    level: 'MUST',
    spec: { file, line: 178, quote: 'a value above 2^64 divided by page size returns the last possible page' },
    touches: ['GET /account/events'],
    faults: ['huge-page-empty'],
  },
  async (ctx) => {
    const api = ctx.cloud.as('unrestricted');
    const huge = (2n ** 64n / 25n + 1n).toString();
    const res = envelope(await api.get(LIST, { query: { page: huge, page_size: 25 } }), `GET /v4${LIST}?page=${huge}&page_size=25`);
    ctx.expect(res.page === res.pages, `page=${huge}: expected the last page (${res.pages}), got page ${res.page}`);
    const last = await ctx.setup(`GET /v4${LIST}?page=${res.pages}&page_size=25`, async () => envelope(await api.get(LIST, { query: { page: res.pages, page_size: 25 } }), `GET /v4${LIST}?page=${res.pages}&page_size=25`));
    if (last.results !== res.results) return ctx.inconclusive(`GET /v4${LIST}: results went from ${res.results} to ${last.results} between the two reads (other activity adds events): the last pages cannot be compared`);
    const ids = (rows: Record<string, unknown>[]) => rows.map((r) => (r.id !== undefined ? r.id : r));
    ctx.expect(isDeepStrictEqual(ids(res.data), ids(last.data)), `page=${huge}: data differs from page ${res.pages}, the last page (${res.data.length} vs ${last.data.length} items)`);
  },
);

export const checks = [listEnvelope, defaultPageSize100, pageSizeRange, pagesStartAtOne, hugePageIsLast];
