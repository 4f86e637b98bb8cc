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
    faults: ['default-page-size-25'],
  },
  async (ctx) => {
    const list = envelope(await ctx.cloud.as('unrestricted').get(LIST), `GET /v4${LIST}`);
    const expected = Math.min(100, list.results);
    ctx.expect(list.data.length === expected, `GET /v4${LIST} with ${list.results} results: expected ${expected} items on page 1 (default page size 100), got ${list.data.length}`);
    if (list.results <= 25) ctx.note(`only ${list.results} results: the default page size cannot be told from 25`);
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
    faults: ['page-zero-based'],
  },
  async (ctx) => {
    const api = ctx.cloud.as('unrestricted');
    const all = envelope(await api.get(LIST, { query: { page_size: 500 } }), `GET /v4${LIST}?page_size=500`);
    if (all.results < 26) ctx.skip(`needs more than 25 items in ${LIST} to see a second page (has ${all.results})`);
    const p1 = envelope(await api.get(LIST, { query: { page: 1, page_size: 25 } }), `GET /v4${LIST}?page=1&page_size=25`);
    const p2 = envelope(await api.get(LIST, { query: { page: 2, page_size: 25 } }), `GET /v4${LIST}?page=2&page_size=25`);
    ctx.expect(p1.page === 1 && p2.page === 2, `expected page fields 1 and 2, got ${p1.page} and ${p2.page}`);
    ctx.expect(isDeepStrictEqual(p1.data, all.data.slice(0, 25)), 'page=1 does not hold the first 25 items of the list');
    ctx.expect(isDeepStrictEqual(p2.data, all.data.slice(25, 50)), 'page=2 does not hold items 26 to 50 of the list');
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
    faults: ['huge-page-empty'],
  },
  async (ctx) => {
    const api = ctx.cloud.as('unrestricted');
    const huge = (2n ** 64n / 25n + 1n).toString();
    const res = envelope(await api.get(LIST, { query: { page: huge, page_size: 25 } }), `GET /v4${LIST}?page=${huge}&page_size=25`);
    const last = envelope(await api.get(LIST, { query: { page: res.pages, page_size: 25 } }), `GET /v4${LIST}?page=${res.pages}&page_size=25`);
    ctx.expect(res.page === res.pages, `page=${huge}: expected the last page (${res.pages}), got page ${res.page}`);
    ctx.expect(isDeepStrictEqual(res.data, last.data), `page=${huge}: data differs from page ${res.pages}, the last page (${res.data.length} vs ${last.data.length} items)`);
  },
);

export const checks = [listEnvelope, defaultPageSize100, pageSizeRange, pagesStartAtOne, hugePageIsLast];
