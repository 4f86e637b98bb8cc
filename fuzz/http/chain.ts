// What the stateful kinds (sequence.ts for CLOUD, build-sequence.ts for BUILD) share: a chain is
// run step by step through the driver, every step recorded (method, path, role, status), and it
// stops at its first failing step, so that a finding holds the shortest failing prefix.
import type { Violation } from '../core/kind.ts';
import type { HttpCase, HttpRole } from './case.ts';
import type { HttpOutcome } from './oracles.ts';

export interface ChainStep {
  method: HttpCase['method'];
  path: string;
  /** Sent as another role than the campaign's (another account, a restricted user). */
  role?: HttpRole;
  status?: number;
  error?: string;
}

export interface ChainResult {
  violations: Violation[];
  steps: ChainStep[];
  /** The chain got past the gates (not 401, 403, 429) at every step that was not meant to be refused. */
  past: boolean;
}

/** What a chain may use of the driver: sending, the roles the target's config names, its fixtures. */
export interface ChainEnv {
  send(c: HttpCase): Promise<HttpOutcome>;
  /** Roles other than the campaign's that the target's config gives credentials for. */
  roles: ReadonlySet<HttpRole>;
  /** CLOUD: node ids of the campaign's account that a service transfer may name (config fixtures). */
  transferableNodeIds: readonly number[];
  /** A resource the chain created, by the path that deletes it: the driver deletes it at the end unless the chain did. */
  created(deletePath: string): void;
  /** The chain deleted it itself. */
  removed(deletePath: string): void;
}

const GATES = [401, 403, 429];

export interface StepOptions {
  json?: unknown;
  /** A raw body with its content type (BUILD XML). */
  body?: { text: string; type: string };
  role?: HttpRole;
  /** A refusal (401, 403) is what the document owes here: it does not make the chain "stopped at a gate". */
  refusalExpected?: boolean;
}

/** A chain in progress: its steps so far, and the verdicts that end it. */
export class ChainRun {
  readonly steps: ChainStep[] = [];
  private past = true;

  constructor(
    private readonly env: ChainEnv,
    private readonly checker: string,
  ) {}

  async step(method: HttpCase['method'], path: string, o: StepOptions = {}): Promise<HttpOutcome> {
    const headers = o.json !== undefined ? { 'content-type': 'application/json' } : o.body ? { 'content-type': o.body.type } : undefined;
    const body = o.json !== undefined ? JSON.stringify(o.json) : o.body?.text;
    const out = await this.env.send({ method, path, route: path, ...(headers ? { headers } : {}), ...(body === undefined ? {} : { body }), ...(o.role ? { role: o.role } : {}) });
    this.steps.push({ method, path, ...(o.role ? { role: o.role } : {}), status: out.res?.status, error: out.error?.code });
    if (!out.res || (GATES.includes(out.res.status) && !(o.refusalExpected && out.res.status !== 429))) this.past = false;
    return out;
  }

  fail(oracle: string, signature: string, message: string): ChainResult {
    const trail = this.steps.map((s) => `${s.method} ${s.path}${s.role ? ` as ${s.role}` : ''} -> ${s.status ?? s.error}`).join(', ');
    return { violations: [{ oracle, signature, message: `${message} (step ${this.steps.length} of the chain: ${trail})`, detail: this.checker }], steps: this.steps, past: this.past };
  }

  /** The chain ends without a finding (a chain that sent nothing reached nothing). */
  done(): ChainResult {
    return { violations: [], steps: this.steps, past: this.past && this.steps.length > 0 };
  }
}

export const ok = (o: HttpOutcome): boolean => o.res !== undefined && o.res.status >= 200 && o.res.status < 300;
/** An answer the server's logic gave that is not a success: a refusal of the request (not a 5xx, which the single-request oracles judge, nor a gate). */
export const refused = (o: HttpOutcome): boolean => o.res !== undefined && o.res.status >= 400 && o.res.status < 500 && o.res.status !== 429;
/** Past the gates and not a server error: an answer about the resource itself. */
export const judged = (o: HttpOutcome): boolean => o.res !== undefined && o.res.status < 500 && !GATES.includes(o.res.status);
