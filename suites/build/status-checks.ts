// Section "Status checks (beta, unstable)" of build-service-api.md: status reports of requests
// and required checks of projects, on the check's own scratch project and request.
import { check } from '../../src/core/check.ts';
import type { BuildResponse } from '../../src/clients/build/session.ts';
import { attr, elements, text } from '../../src/clients/xml.ts';
import { brief, expectServed, rereadUntil, withScratchProject, xmlValues } from './support.ts';
import { scratchSubmit } from './request-helpers.ts';

const section = 'Status checks (beta, unstable)';
const file = 'build-service-api.md';

const checkBody = (name: string, state: string) => `<check name="${name}"><state>${state}</state><short_description>conformance</short_description></check>`;

/** Names of the checks of a status report (the document names a check by its name). */
const checkNames = (res: BuildResponse) => elements(res.xml, 'check').map((c) => attr(c, 'name') ?? text(elements(c, 'name')[0]).trim());

/**
 * The state of the check `name` of a status report, as the build service writes it (a `<state>`
 * child of `<check>`, or else a `state` attribute; line 43 shows no structure).
 */
const checkState = (res: BuildResponse, name: string) => {
  const c = elements(res.xml, 'check').find((x) => (attr(x, 'name') ?? text(elements(x, 'name')[0]).trim()) === name);
  const el = c && elements(c, 'state')[0];
  return el ? text(el).trim() : c && attr(c, 'state');
};

export const requestReportPut = check(
  {
    id: 'build.status-checks.request-report-put',
    title: 'PUT /status_reports/requests/<request>/reports creates check data, and a second PUT updates it',
    protocol: 'build',
    section,
    level: 'MUST',
    spec: { file, line: 148, quote: 'GET, PUT /status_reports/requests/<request>/reports (PUT creates or updates check data)' },
    touches: ['DELETE /source/{project}', 'GET /status_reports/requests/{request}/reports', 'POST /request', 'PUT /source/{project}/_meta', 'PUT /source/{project}/{package}/_meta', 'PUT /source/{project}/{package}/{filename}', 'PUT /status_reports/requests/{request}/reports'],
    faults: ['status-report-put-ignored', 'status-report-put-duplicates', 'status-report-put-keeps-state'],
    reliesOn: ['build.projects.meta-put-creates'],
    tags: ['destructive'],
  },
  async (ctx) => {
    await withScratchProject(ctx, async (s) => {
      const id = await scratchSubmit(s, 'checked');
      const path = `/status_reports/requests/${id}/reports`;
      const read = async () => expectServed(await s.caller.get(path), `GET ${path}`);
      expectServed(await s.caller.put(path, { body: checkBody('conformance-ci', 'pending') }), `PUT ${path} (check conformance-ci, pending)`);
      // A PUT may be stored in the background: each read is repeated until it shows what the PUT
      // wrote, or what is left of ctx.timeouts.backgroundMs is spent (rubric 6).
      const created = checkNames(await rereadUntil(ctx, read, (r) => checkNames(r).includes('conformance-ci')));
      ctx.expect(created.includes('conformance-ci'), `GET ${path}: the check conformance-ci just PUT is not reported ([${created.join(', ')}])`);
      expectServed(await s.caller.put(path, { body: checkBody('conformance-ci', 'success') }), `PUT ${path} (check conformance-ci again, success)`);
      const res = await rereadUntil(ctx, read, (r) => checkState(r, 'conformance-ci') === 'success');
      const n = checkNames(res).filter((c) => c === 'conformance-ci').length;
      ctx.expect(n === 1, `GET ${path}: a second PUT of check conformance-ci should update it, but the report holds ${n} checks of that name (${brief(res)})`);
      const state = checkState(res, 'conformance-ci');
      ctx.expect(state === 'success', `GET ${path}: after a second PUT of check conformance-ci with state success, its state is ${state ?? 'not shown'} (${brief(res)})`);
    });
  },
);

export const requiredChecks = check(
  {
    id: 'build.status-checks.required-checks',
    title: 'POST adds a required check of a project, GET lists it, DELETE removes it',
    protocol: 'build',
    section,
    // That POST adds the check and DELETE removes it is read from the methods and the route's name
    // (line 149 names them only), as staging's unstage reads its DELETE: SHOULD.
    level: 'SHOULD',
    spec: { file, line: 149, quote: 'POST and DELETE on .../required_checks/<check> (DELETE body none)' },
    touches: ['DELETE /source/{project}', 'DELETE /status_reports/projects/{project}/required_checks/{check}', 'GET /status_reports/projects/{project}/required_checks', 'POST /status_reports/projects/{project}/required_checks/{check}', 'PUT /source/{project}/_meta'],
    faults: ['required-check-delete-noop'],
    reliesOn: ['build.projects.meta-put-creates'],
    tags: ['destructive'],
  },
  async (ctx) => {
    await withScratchProject(ctx, async (s) => {
      const base = `/status_reports/projects/${s.project}/required_checks`;
      // The document names the check only; the listing's elements are not shown, so look for the name.
      const listed = async () => xmlValues(expectServed(await s.caller.get(base), `GET ${base}`)).has('conformance-required');
      // Each change may land in the background: re-read until it shows, or what is left of
      // ctx.timeouts.backgroundMs is spent (rubric 6).
      expectServed(await s.caller.post(`${base}/conformance-required`), `POST ${base}/conformance-required`);
      ctx.expect(await rereadUntil(ctx, listed, (v) => v), `GET ${base}: the required check conformance-required just added is not listed`);
      expectServed(await s.caller.delete(`${base}/conformance-required`), `DELETE ${base}/conformance-required`);
      ctx.expect(!(await rereadUntil(ctx, listed, (v) => !v)), `GET ${base}: the required check conformance-required is still listed after DELETE`);
    });
  },
);

export const checks = [requestReportPut, requiredChecks];
