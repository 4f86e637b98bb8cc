// Section "Configuration" of build-service-api.md.
import { check } from '../../src/core/check.ts';
import { brief, expect2xx } from './support.ts';

export const configurationReadable = check(
  {
    id: 'build.configuration.readable',
    title: 'GET /configuration is readable by an ordinary user',
    protocol: 'build',
    section: 'Configuration',
    level: 'MUST',
    spec: { file: 'build-service-api.md', line: 160, quote: 'GET /configuration: publicly readable instance configuration.' },
    faults: ['configuration-admin-only'],
  },
  async (ctx) => {
    const res = expect2xx(await ctx.build.as('user').get('/configuration'), 'GET /configuration as an ordinary user');
    ctx.expect(res.xml !== undefined, `GET /configuration: expected a structured document, got ${brief(res)}`);
  },
);

export const checks = [configurationReadable];
