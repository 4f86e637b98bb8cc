// Section "Authentication" of wire-protocol.md: how a refusal for lack of permission is reported.
import { ErrorType, names, nameOf } from '../../src/clients/wire/schema.ts';
import { term } from '../../src/clients/wire/terms.ts';
import { check } from '../../src/core/check.ts';
import { neededField } from '../../src/config/env.ts';
import { databaseName, expectType, ResponseType, show, summary } from './support.ts';

const section = 'Authentication';
const file = 'wire-protocol.md';

export const permissionError = check(
  {
    id: 'wire.authentication.permission-error',
    title: 'A query refused for lack of permission reports error_type PERMISSION_ERROR',
    protocol: 'wire',
    section,
    level: 'MUST',
    spec: { file, line: 167, quote: 'A query refused for lack of permission is reported with error_type PERMISSION_ERROR' },
    touches: ['term:DATUM', 'term:DB_CREATE', 'term:DB_DROP'],
    faults: ['permission-error-untyped'],
    tags: ['needs:restrictedAuthKey'],
  },
  async (ctx) => {
    const key = ctx.wire.restrictedAuthKey;
    if (key === undefined) ctx.skip(`needs ${neededField('restrictedAuthKey')}: the key of a user who may not create a database`);
    const name = databaseName('permission-error', ctx.seed);
    // The configured (full) user may create the database: a refusal below is then for the user, not for DB_CREATE.
    const admin = await ctx.wire.connect();
    await ctx.setup(`positive control: DB_CREATE("${name}") and DB_DROP as the configured user`, async () => {
      expectType(await admin.start(term('DB_CREATE', [name])), 'SUCCESS_ATOM', `DB_CREATE("${name}") as the configured user`);
      expectType(await admin.start(term('DB_DROP', [name])), 'SUCCESS_ATOM', `DB_DROP("${name}") as the configured user`);
    }, { seeAlso: 'wire.term-catalogue.administration.db-create-list-drop' });
    const conn = await ctx.wire.socket();
    await ctx.setup('handshake with the read-only user\'s key', async () => {
      const reply = await conn.handshake({ authKey: key });
      ctx.expect(reply === 'SUCCESS', `the handshake with restrictedAuthKey answered ${show(reply)}, not "SUCCESS"`);
    });
    const res = await conn.start(term('DB_CREATE', [name]));
    if (res.type === ResponseType.SUCCESS_ATOM) {
      // The configured user could write: nothing was refused, so the rule could not be seen.
      await admin.start(term('DB_DROP', [name]));
      ctx.inconclusive(`DB_CREATE("${name}") as the restrictedAuthKey user succeeded: that user may write, so no refusal for lack of permission could be observed`);
    }
    ctx.expect(
      res.type === ResponseType.RUNTIME_ERROR && res.error_type === ErrorType.PERMISSION_ERROR,
      `DB_CREATE("${name}") as a user without permission to write: expected RUNTIME_ERROR with error_type PERMISSION_ERROR, got ${summary(res)} with error_type ${nameOf(names.errorType, res.error_type)} ${show(res.response)}`,
    );
  },
);

export const checks = [permissionError];
