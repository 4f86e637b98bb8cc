// The request pipeline of build-ref: HTTP Basic authentication on every route (the token route
// takes `Authorization: Token ...`), `cmd=` dispatch, XML status replies. The document states no
// error format or codes, so refusals use the build service's customary <status> body and a 4xx.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { restyleXmlText, serializeXml } from './style.ts';
import type { BuildFault } from './faults.ts';
import type { Token, User, World } from './world.ts';
import { Refusal } from '../refusal.ts';

export class BuildError extends Refusal {
  constructor(
    readonly status: number,
    readonly code: string,
    summary: string,
  ) {
    super(summary);
  }
}

export const refuse = (status: number, code: string, summary: string) => new BuildError(status, code, summary);
export const notFound = (what: string) => refuse(404, 'not_found', what);

export interface Call {
  world: World;
  faults: ReadonlySet<BuildFault>;
  /** The variant mode: every choice the document leaves open taken the other way (docs/open-choices.md). */
  variant: boolean;
  user?: User;
  token?: Token;
  params: Record<string, string>;
  query: Record<string, string | string[]>;
  /** The body as text (XML or plain). */
  body: string;
}

export interface Reply {
  status?: number;
  /** An XML element tree, or text with `contentType`. */
  xml?: Record<string, unknown>;
  text?: string;
  /** A binary body (with `contentType`). */
  bytes?: Buffer;
  contentType?: string;
}

export const ok = (): Reply => ({ xml: { status: { '@code': 'ok', summary: 'Ok' } } });

export type Auth = 'basic' | 'token';

export class Api {
  constructor(
    readonly app: FastifyInstance,
    readonly world: World,
    readonly faults: ReadonlySet<BuildFault>,
    readonly variant = false,
  ) {}

  route(method: 'GET' | 'PUT' | 'POST' | 'DELETE', url: string, handler: (call: Call) => Reply | Promise<Reply>, auth: Auth = 'basic'): void {
    this.app.route({ method, url, handler: (req, reply) => this.handle(req, reply, handler, auth) });
  }

  private async handle(req: FastifyRequest, reply: FastifyReply, handler: (call: Call) => Reply | Promise<Reply>, auth: Auth) {
    try {
      const call: Call = {
        world: this.world,
        faults: this.faults,
        variant: this.variant,
        params: req.params as Record<string, string>,
        query: req.query as Record<string, string>,
        body: typeof req.body === 'string' ? req.body : Buffer.isBuffer(req.body) ? req.body.toString('utf8') : '',
      };
      if (auth === 'token') call.token = this.token(req);
      else call.user = this.basic(req);
      const out = await handler(call);
      reply.code(out.status ?? 200);
      if (out.xml) return reply.type('application/xml').send(serializeXml(out.xml, this.variant));
      const type = out.contentType ?? 'text/plain';
      if (out.bytes) return reply.type(type).send(out.bytes);
      // A stored XML document (a meta as written) is rendered again by the variant.
      return reply.type(type).send(type === 'application/xml' && out.text ? restyleXmlText(out.text, this.variant) : (out.text ?? ''));
    } catch (err) {
      return this.sendError(reply, err);
    }
  }

  sendError(reply: FastifyReply, err: unknown) {
    const e = err instanceof BuildError ? err : refuse(500, 'internal_error', 'Internal error');
    // HTTP Basic (RFC 7617): a 401 carries the challenge; clients such as osc send credentials only after it.
    if (e.status === 401) reply.header('www-authenticate', 'Basic realm="build-ref"');
    return reply.code(e.status).type('application/xml').send(serializeXml({ status: { '@code': e.code, summary: e.message } }, this.variant));
  }

  private basic(req: FastifyRequest): User {
    const header = req.headers.authorization ?? '';
    const m = /^Basic (\S+)$/i.exec(header);
    if (!m) {
      if (this.faults.has('anonymous-allowed')) return this.world.users.get('tux')!;
      throw refuse(401, 'authentication_required', 'Authentication required');
    }
    const [login, ...rest] = Buffer.from(m[1], 'base64').toString('utf8').split(':');
    const user = this.world.users.get(login);
    if (!user || (user.password !== rest.join(':') && !this.faults.has('any-password'))) throw refuse(401, 'authentication_required', 'Unknown user or wrong password');
    if (user.state === 'locked' || user.state === 'deleted') throw refuse(403, 'user_locked', `user '${user.login}' is ${user.state}`);
    return user;
  }

  private token(req: FastifyRequest): Token {
    const m = /^Token (\S+)$/.exec(req.headers.authorization ?? '');
    const token = m ? this.world.tokens.get(m[1]) : undefined;
    if (token) return token;
    if (m && this.faults.has('runservice-any-token')) return { id: 0, string: m[1], login: 'tux', operation: 'runservice' };
    throw refuse(403, 'invalid_token', 'No valid token found');
  }
}

/** The value of a query parameter that may repeat; the first occurrence. */
export function param(call: Call, name: string): string | undefined {
  const v = call.query[name];
  return Array.isArray(v) ? v[0] : v;
}

/** May `user` write `project`? Admins anywhere; others in their home and below. */
export function canWrite(user: User | undefined, project: string): boolean {
  if (!user) return false;
  return user.admin || project === `home:${user.login}` || project.startsWith(`home:${user.login}:`);
}
