// What a BUILD check holds as `ctx.build`: callers by role with HTTP Basic credentials, the
// runservice token caller, XML bodies, and the fixtures a real server has to name.
import type { Timeouts } from '../../core/check.ts';
import { CheckSkipped } from '../../core/errors.ts';
import type { EvidenceLog } from '../../core/evidence.ts';
import type { BuildFixtures, BuildUsers } from '../../config/types.ts';
import { envName, neededField } from '../../config/env.ts';
import { HttpClient, type HttpRequest, type HttpResponse } from '../http/client.ts';
import { parseXml, type XmlNode } from '../xml.ts';

export type BuildRole = keyof BuildUsers;

export interface BuildTargetInfo {
  baseUrl: string;
  users: BuildUsers;
  token?: string;
  fixtures: BuildFixtures;
  maxBodyBytes?: number;
}

export interface BuildCallOptions {
  query?: HttpRequest['query'];
  headers?: Record<string, string>;
  /** XML or plain text; sent as is. */
  body?: string | Buffer;
  contentType?: string;
}

/** A response with its body parsed as XML where it is XML. */
export interface BuildResponse extends HttpResponse {
  xml: XmlNode | undefined;
}

export class BuildCaller {
  constructor(
    private readonly http: HttpClient,
    private readonly authorization: string | undefined,
    private readonly credentialName: string,
    private readonly signal: AbortSignal,
  ) {}

  async request(method: HttpRequest['method'], path: string, opts: BuildCallOptions = {}): Promise<BuildResponse> {
    const headers: Record<string, string> = { accept: 'application/xml, text/plain, */*', ...opts.headers };
    if (this.authorization) headers.authorization = this.authorization;
    if (opts.body !== undefined) headers['content-type'] = opts.contentType ?? 'application/xml';
    const res = await this.http.request({ method, path, query: opts.query, headers, body: opts.body, credentialName: this.credentialName }, this.signal);
    return { ...res, xml: parseXml(res.text) };
  }

  get(path: string, opts?: BuildCallOptions) {
    return this.request('GET', path, opts);
  }
  post(path: string, opts?: BuildCallOptions) {
    return this.request('POST', path, opts);
  }
  put(path: string, opts?: BuildCallOptions) {
    return this.request('PUT', path, opts);
  }
  delete(path: string, opts?: BuildCallOptions) {
    return this.request('DELETE', path, opts);
  }
}

export class BuildSession {
  private readonly http: HttpClient;

  constructor(
    readonly target: BuildTargetInfo,
    evidence: EvidenceLog,
    timeouts: Timeouts,
    private readonly signal: AbortSignal,
  ) {
    const secrets = [target.token, ...Object.values(target.users).map((u) => u?.password)].filter((s): s is string => Boolean(s));
    // Basic credentials travel base64-encoded: mask that form too.
    for (const u of Object.values(target.users)) if (u) secrets.push(Buffer.from(`${u.username}:${u.password}`).toString('base64'));
    this.http = new HttpClient({ baseUrl: target.baseUrl, timeoutMs: timeouts.replyMs, maxBodyBytes: target.maxBodyBytes, evidence, secrets });
  }

  /** A caller with the Basic credentials of `role`; skips the check when the config has none. */
  as(role: BuildRole): BuildCaller {
    const creds = this.target.users[role];
    if (!creds) throw new CheckSkipped(`needs ${neededField(`users.${role}`)}`);
    return this.basic(creds.username, creds.password, envName(`users.${role}`));
  }

  /** The username of `role` (for paths such as /person/<userid> and home:<userid>). */
  username(role: BuildRole): string {
    const creds = this.target.users[role];
    if (!creds) throw new CheckSkipped(`needs ${neededField(`users.${role}`)}`);
    return creds.username;
  }

  basic(username: string, password: string, name = 'CREDENTIALS'): BuildCaller {
    return new BuildCaller(this.http, `Basic ${Buffer.from(`${username}:${password}`).toString('base64')}`, name, this.signal);
  }

  anonymous(): BuildCaller {
    return new BuildCaller(this.http, undefined, 'NONE', this.signal);
  }

  /** A caller sending `Authorization: Token <token>` (the configured runservice token by default). */
  withToken(token = this.target.token): BuildCaller {
    if (!token) throw new CheckSkipped(`needs ${neededField('token')}, a runservice token`);
    return new BuildCaller(this.http, `Token ${token}`, envName('token'), this.signal);
  }

  get fixtures(): BuildFixtures {
    return this.target.fixtures;
  }

  fixture<T>(value: T | undefined, name: string): T {
    if (value === undefined) throw new CheckSkipped(`needs ${neededField(`fixtures.${name}`)}`);
    return value;
  }
}
