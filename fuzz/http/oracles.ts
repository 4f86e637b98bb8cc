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
  if (protocol === 'cloud' && (status < 200 || (status >= 300 && status < 400))) {
    return [{ oracle: 'status', message: `${where} answered ${status}${o.res.headers.location ? ` (Location: ${o.res.headers.location})` : ''}, outside 2xx, 4xx and 5xx`, signature: `${status}`, detail: where }];
  }
  if (protocol === 'cloud' && status >= 400 && !cloudValidator('errorBody')(o.res.json)) {
    return [{ oracle: 'error-body', message: `${where} refused with ${status} without the document's error body (errors[].reason): ${JSON.stringify(o.res.text.slice(0, 120))}`, signature: `${status}`, detail: where }];
  }
  if (protocol === 'cloud' && text && o.res.json === undefined && type !== 'image/png') {
    return [{ oracle: 'body', message: `${where} answered ${status} with a body that is not JSON (${type || 'no content type'}): ${JSON.stringify(text.slice(0, 80))}`, signature: `${status} ${type}`, detail: where }];
  }
  if (protocol === 'build' && text && !/^text\/plain|octet-stream/.test(type) && !isWellFormedXml(text)) {
    return [{ oracle: 'body', message: `${where} answered ${status} with a body that is not a well-formed document (${type || 'no content type'}): ${JSON.stringify(text.slice(0, 80))}`, signature: `${status} ${type}`, detail: where }];
  }
  return [];
}
