// The HTTP oracles, each in the documents' terms:
//   no-5xx      "2xx means success, 4xx request error, 5xx server error" (cloud-api.md): no input
//               is a server error; the build document states no codes, and a 5xx there is the
//               server failing all the same
//   no-hang     every request gets a complete answer within the case timeout (a timeout is a finding)
//   answers     the answer is HTTP: no reset, no close mid-response, no garbage
//   error-body  CLOUD: a 4xx carries the error body (`errors` array, each with a `reason`)
//   status      CLOUD: the answer is 2xx, 4xx or 5xx, the classes the document names (no 1xx or 3xx)
//   body        CLOUD: a body is JSON ("JSON-over-HTTPS API"); BUILD: a body that is not plain
//               text or binary is a well-formed structured document ("Request and response bodies
//               are structured documents ... plain text and binary bodies are noted where given")
//   liveness    after a failing case the server still answers a documented read route
//   refuse-*    CLOUD: input a rule of the document says is invalid is not accepted with a 2xx
//               (acceptanceOf below; each rule's line in fuzz/core/rules.ts)
// no-5xx, no-hang, answers and liveness are robustness: no document line states them, and they
// are never reported as a deviation from the document (fuzz/core/rules.ts).
// A bucket is the oracle and what the server did (status, content type, how the answer ended),
// never the route: one bug behind many routes is one bucket, its routes the bucket's examples.
import { cloudValidator } from '../../src/schemas/cloud.ts';
import { isWellFormedXml } from '../../src/clients/xml.ts';
import type { HttpResponse } from '../../src/clients/http/client.ts';
import type { Violation } from '../core/kind.ts';
import type { HttpCase } from './case.ts';

export type HttpOutcome = { res: HttpResponse; error?: undefined } | { res?: undefined; error: { code: string; message: string } };

export function judgeHttp(protocol: 'cloud' | 'build', c: HttpCase, o: HttpOutcome): Violation[] {
  const where = `${c.method} ${c.route}`;
  if (o.error) {
    if (o.error.code === 'E_TARGET_TIMEOUT') return [{ oracle: 'no-hang', message: `${where}: ${o.error.message}`, signature: 'timeout', detail: where }];
    // A reset and a close are one behaviour seen at two moments (which one the client sees is timing).
    const how = o.error.code === 'E_TARGET_RESET' || o.error.code === 'E_TARGET_CLOSED' ? 'cut' : o.error.code;
    return [{ oracle: 'answers', message: `${where}: no complete HTTP answer (${o.error.message})`, signature: how, detail: where }];
  }
  const { status } = o.res;
  if (status >= 500) return [{ oracle: 'no-5xx', message: `${where} answered ${status}${o.res.text ? `: ${o.res.text.slice(0, 120).replace(/\s+/g, ' ')}` : ''}`, signature: `${status}`, detail: where }];
  const type = (o.res.headers['content-type'] ?? '').split(';')[0].trim().toLowerCase();
  const text = o.res.text.trim();
  // Every rule the answer breaks, each its own violation (and bucket).
  const out: Violation[] = [];
  if (protocol === 'cloud' && (status < 200 || (status >= 300 && status < 400))) {
    out.push({ oracle: 'status', message: `${where} answered ${status}${o.res.headers.location ? ` (Location: ${o.res.headers.location})` : ''}, outside 2xx, 4xx and 5xx`, signature: `${status}`, detail: where });
  }
  if (protocol === 'cloud' && status >= 400 && !cloudValidator('errorBody')(o.res.json)) {
    out.push({ oracle: 'error-body', message: `${where} refused with ${status} without the document's error body (errors[].reason): ${JSON.stringify(o.res.text.slice(0, 120))}`, signature: `${status}`, detail: where });
  }
  if (protocol === 'cloud' && text && o.res.json === undefined && type !== 'image/png') {
    out.push({ oracle: 'body', message: `${where} answered ${status} with a body that is not JSON (${type || 'no content type'}): ${JSON.stringify(text.slice(0, 80))}`, signature: `${status} ${type}`, detail: where });
  }
  if (protocol === 'build' && text && !/^text\/plain|octet-stream/.test(type) && !isWellFormedXml(text)) {
    out.push({ oracle: 'body', message: `${where} answered ${status} with a body that is not a well-formed document (${type || 'no content type'}): ${JSON.stringify(text.slice(0, 80))}`, signature: `${status} ${type}`, detail: where });
  }
  if (protocol === 'cloud' && status >= 200 && status < 300) out.push(...acceptanceOf(c, status));
  return out;
}

/**
 * Fields the document marks required in a request body, by route (cloud-api.md): OAuth client
 * create (line 103 "label and redirect_uri required", line 34), user create (line 142, 42),
 * service-transfer create (line 130), payment-method add (line 36), promo code (line 38),
 * snapshot create (line 44).
 */
const REQUIRED: Record<string, readonly string[]> = {
  'POST /account/oauth-clients': ['label', 'redirect_uri'],
  'POST /account/users': ['username', 'email'],
  'POST /account/service-transfers': ['entities'],
  'POST /account/payment-methods': ['type', 'is_default', 'data'],
  'POST /account/promo-codes': ['promo_code'],
  'POST /databases/mongodb/instances/{instanceId}/backups': ['label'],
};
/** Enums of request fields (line 36: payment method type; line 44: snapshot target). */
const ENUMS: Record<string, Record<string, readonly unknown[]>> = {
  'POST /account/payment-methods': { type: ['credit_card'] },
  'POST /databases/mongodb/instances/{instanceId}/backups': { target: ['primary', 'secondary'] },
};
const LIST_ROUTES = /^GET \/(account\/(events|invoices|users|oauth-clients|payments|payment-methods|notifications|logins|service-transfers|maintenance)|databases\/(instances|engines|mongodb\/instances|mysql\/instances))$/;

/** Characters, as the document counts them (code points, not UTF-16 units). */
const chars = (x: string) => [...x].length;
/** No US zip code however read: not text, a letter in it, or fewer than five digits in a row. */
const notUsZip = (zip: unknown) => typeof zip !== 'string' || /[A-Za-z]/.test(zip) || !/\d{5}/.test(zip);

/**
 * CLOUD acceptance: a 2xx for input a rule of the document says is invalid. Judged from what was
 * sent (the parsed body, the query), not from how the case was made; one violation per rule
 * broken, bucketed by the rule and the status that accepted it.
 */
export function acceptanceOf(c: HttpCase, status: number): Violation[] {
  const route = `${c.method} ${c.route.replace(/^\/v4(beta)?(?=\/)/, '')}`;
  const where = `${c.method} ${c.route}`;
  const out: Violation[] = [];
  const accepted = (oracle: string, what: string) => out.push({ oracle, message: `${where} accepted (${status}) ${what}`, signature: `${status}`, detail: `${route}: ${what.replace(/ ".*$|: .*$/, '')}` });
  const pageSize = c.query?.page_size;
  if (c.method === 'GET' && pageSize !== undefined && /^-?\d+$/.test(pageSize) && LIST_ROUTES.test(route)) {
    const n = Number(pageSize);
    if (n < 25 || n > 500) accepted('refuse-page-size', `page_size ${pageSize}, outside 25 to 500`);
  }
  if (c.body === undefined) return out;
  let body: unknown;
  try {
    body = JSON.parse(c.body);
  } catch {
    return out;
  }
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return out;
  const b = body as Record<string, unknown>;
  for (const field of REQUIRED[route] ?? []) if (!(field in b)) accepted('refuse-missing-required', `a body without ${field}, which the document marks required`);
  for (const [field, values] of Object.entries(ENUMS[route] ?? {})) {
    if (field in b && !values.includes(b[field])) accepted('refuse-enum', `${field} ${JSON.stringify(b[field]).slice(0, 40)}, outside ${values.join(', ')}`);
  }
  if (route === 'POST /account/promo-codes' && typeof b.promo_code === 'string' && (chars(b.promo_code) < 1 || chars(b.promo_code) > 32)) {
    accepted('refuse-promo-code-length', `a promo_code of ${chars(b.promo_code)} characters, outside 1 to 32`);
  }
  if (route === 'POST /databases/mongodb/instances/{instanceId}/backups' && typeof b.label === 'string' && (chars(b.label) < 3 || chars(b.label) > 64)) {
    accepted('refuse-snapshot-label', `a snapshot label of ${chars(b.label)} characters, outside 3 to 64`);
  }
  if (route === 'PUT /account' && b.country === 'US' && 'zip' in b && notUsZip(b.zip)) {
    accepted('refuse-us-zip', `country US with zip ${JSON.stringify(b.zip).slice(0, 40)}, no US zip code`);
  }
  return out;
}
