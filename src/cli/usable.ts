// Whether a reachable target can be tested at all, asked once before any check runs: a WIRE
// server must accept the configured key in a handshake, a CLOUD or BUILD server must not answer
// 401 to the configured credentials on one read. When it cannot, the run says so in one message
// (exit 3) instead of one error or failure per check.
import type { PreparedTarget } from '../adapters/index.ts';
import type { Timeouts } from '../core/check.ts';
import { EvidenceLog } from '../core/evidence.ts';
import type { WireSession } from '../clients/wire/session.ts';
import type { CloudSession } from '../clients/cloud/session.ts';
import type { BuildSession } from '../clients/build/session.ts';
import { neededField } from '../config/env.ts';

/** Why the target is unusable, or undefined when it is usable (or the probe cannot tell). */
export async function unusableReason(target: PreparedTarget, timeouts: Timeouts, runSignal?: AbortSignal): Promise<string | undefined> {
  const controller = new AbortController();
  // One reply wait at most: a target that does not answer is for the checks to report, and every
  // run against it already waits for each of them.
  const timer = setTimeout(() => controller.abort(), Math.max(timeouts.connectMs, timeouts.replyMs)).unref();
  // Ctrl-C during the probe ends it: the run then reports itself interrupted, as it would anyway.
  const onAbort = () => controller.abort();
  runSignal?.addEventListener('abort', onAbort, { once: true });
  const stopped = new Promise<undefined>((resolve) => controller.signal.addEventListener('abort', () => resolve(undefined), { once: true }));
  try {
    return await Promise.race([probe(target, timeouts, controller.signal), stopped]);
  } finally {
    clearTimeout(timer);
    runSignal?.removeEventListener('abort', onAbort);
    controller.abort();
  }
}

async function probe(target: PreparedTarget, timeouts: Timeouts, signal: AbortSignal): Promise<string | undefined> {
  const session = target.createSession({ evidence: new EvidenceLog(), timeouts, signal });
  try {
    if (target.protocol === 'wire') {
      const wire = session.extras.wire as WireSession;
      const conn = await wire.socket();
      // No reply, or bytes that are no reply, is for the checks to report (they time out, or judge it).
      const reply = await conn.handshake({ authKey: wire.target.authKey ?? '' });
      // Only a refusal stops the run; a reply spelt otherwise is for the handshake checks to judge.
      if (/^success$/i.test(reply)) return undefined;
      return `the handshake was refused with the configured key: ${JSON.stringify(reply)} (check ${neededField('authKey')})`;
    }
    if (target.protocol === 'cloud') {
      const cloud = session.extras.cloud as CloudSession;
      if (!cloud.target.tokens.unrestricted) return undefined;
      const res = await cloud.as('unrestricted').get('/account');
      if (res.status === 401) return `credentials refused: GET /v4/account with ${neededField('tokens.unrestricted')} answered 401 (is the token valid for this server?)`;
      return undefined;
    }
    const build = session.extras.build as BuildSession;
    const user = build.target.users.user;
    if (!user) return undefined;
    const path = `/person/${encodeURIComponent(user.username)}`;
    const res = await build.as('user').get(path);
    if (res.status === 401) return `credentials refused: GET ${path} with ${neededField('users.user')} answered 401 (are the user name and password right for this server?)`;
    return undefined;
  } catch {
    // A probe that breaks down tells nothing the checks would not: they run and say it themselves.
    return undefined;
  } finally {
    session.dispose();
  }
}
