// Section "Configuration" of build-service-api.md.
import { check } from '../../src/core/check.ts';
import { elements } from '../../src/clients/xml.ts';
import { brief, expectServed } from './support.ts';

export const configurationReadable = check(
  {
    id: 'build.configuration.readable',
    title: 'GET /configuration is readable by an ordinary user',
    protocol: 'build',
    section: 'Configuration',
    level: 'MUST',
    spec: { file: 'build-service-api.md', line: 160, quote: 'GET /configuration: publicly readable instance configuration.' },
    touches: ['GET /configuration'],
    faults: ['configuration-admin-only', 'configuration-no-schedulers'],
  },
  async (ctx) => {
    const res = expectServed(await ctx.build.as('user').get('/configuration'), 'GET /configuration as an ordinary user');
    ctx.expect(res.xml !== undefined, `GET /configuration: expected a structured document, got ${brief(res)}`);
    // Line 66 names one element of it: "see the schedulers element of /configuration".
    ctx.expect(elements(res.xml, 'schedulers').length > 0, `GET /configuration has no schedulers element (line 66: "the schedulers element of /configuration"): ${brief(res)}`);
  },
);

export const checks = [configurationReadable];
