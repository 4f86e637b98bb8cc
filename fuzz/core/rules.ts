// Every fuzz oracle, with what it enforces: a rule of one of the three documents (file, line,
// short quote and level, as a check's `spec`), or robustness (a hang, a dead server, a cut answer,
// a 5xx): things no document line states, which the fuzzer reports in a class of their own and
// never as a deviation from the document. An oracle id belongs to one class only, so a
// robustness bucket never holds a document deviation and the other way round.
// A test (test/fuzz/rules.test.ts) reads each quote back from the line it cites.
import type { SpecCitation } from '../../src/core/check.ts';
import type { FuzzProtocol } from './kind.ts';

export type RuleClass = 'document' | 'robustness';

export interface FuzzRule {
  class: RuleClass;
  /** Document rules: MUST where the document states the behaviour or the error, SHOULD where it states only the constraint. */
  level?: 'MUST' | 'SHOULD';
  spec?: SpecCitation;
  /** One line: what the oracle judges. */
  rule: string;
}

const W = 'wire-protocol.md';
const C = 'cloud-api.md';
const B = 'build-service-api.md';
const cite = (file: string, line: number, quote: string): SpecCitation => ({ file, line, quote });
const doc = (level: 'MUST' | 'SHOULD', spec: SpecCitation, rule: string): FuzzRule => ({ class: 'document', level, spec, rule });
const robust = (rule: string): FuzzRule => ({ class: 'robustness', rule });

/** Robustness oracles, the same for every protocol. */
const ROBUSTNESS: Record<string, FuzzRule> = {
  'no-hang': robust('what is owed comes within --timeout (the documents state no time limit: a hang is robustness)'),
  liveness: robust('after a case the server still answers (WIRE SERVER_INFO on the connection or a fresh one; HTTP the documented read route)'),
  'no-5xx': robust('no input makes the server fail (a 5xx): the documents never say an input is answered with a server error'),
  answers: robust('every request gets a complete HTTP answer (no reset, no close mid-answer, no garbage)'),
};

const WIRE_RULES: Record<string, FuzzRule> = {
  'one-response-per-query': doc('MUST', cite(W, 7, 'Each query carries a token, and each response carries the token of the query it answers.'), 'a query owed an answer (START, CONTINUE of a partial or unknown token, NOREPLY_WAIT, SERVER_INFO) gets exactly one, with its token, before the server closes the connection; no response answers no query'),
  'response-type-in-enum': doc('MUST', cite(W, 32, '| type | 1 | ResponseType | outcome kind |'), 'Response.type is a ResponseType value (lines 43-50)'),
  'response-type-fits-query': doc('MUST', cite(W, 93, '| (none) | CONTINUE for unknown token | - | - | CLIENT_ERROR |'), 'the answer fits the query (lines 90-95, 121-127): START -> a result or an error, CONTINUE of an unknown token -> CLIENT_ERROR, NOREPLY_WAIT -> WAIT_COMPLETE, SERVER_INFO -> SERVER_INFO'),
  'error-one-r-str': doc('MUST', cite(W, 176, 'Each carries one R_STR datum with the message in `response`.'), 'CLIENT_ERROR, COMPILE_ERROR and RUNTIME_ERROR carry exactly one R_STR datum'),
  'batch-under-1000': doc('MUST', cite(W, 184, 'Batches of results contain fewer than 1000 items'), 'a response holds fewer than 1000 datums'),
  'malformed-client-error': doc('SHOULD', cite(W, 48, '| CLIENT_ERROR | 16 | client bug, e.g. malformed protobuf or CONTINUE for an unknown token |'), 'a frame that is not a protobuf Query is answered CLIENT_ERROR (the document gives it as the example of a client bug: SHOULD)'),
  'handshake-reply': doc('MUST', cite(W, 107, 'Server answers with a NUL-terminated string.'), 'a whole handshake of a documented version magic (V0_1 to V0_4, lines 104-109) gets a NUL-terminated reply; after V1_0 (exchange "not shown", line 165) or an unknown magic nothing is owed'),
  'response-is-protobuf': doc('MUST', cite(W, 117, 'Server to client: 4-byte little-endian size of the serialized Response, then the serialized Response.'), 'a response frame decodes as a Response'),
};

const CLOUD_RULES: Record<string, FuzzRule> = {
  status: doc('SHOULD', cite(C, 219, '2xx means success, 4xx request error, 5xx server error.'), 'answers are of the classes the document names (no 1xx, no 3xx)'),
  'error-body': doc('MUST', cite(C, 219, 'Error body: `errors` array, each with `reason` (always)'), 'a 4xx carries the error body'),
  body: doc('MUST', cite(C, 9, 'Responses are JSON (except a PNG thumbnail).'), 'a body is JSON (or a PNG)'),
  'refuse-missing-required': doc('MUST', cite(C, 211, '| 400 | invalid request (missing parameters etc.) |'), 'a body without a field the document marks required (lines 34, 36, 38, 42, 44, 103, 130, 142) is not accepted (2xx)'),
  'refuse-page-size': doc('SHOULD', cite(C, 178, '`page_size` (integer, 25 to 500, default 100)'), 'an integer page_size outside 25..500 is not accepted (2xx); also line 223 "range 25 to 500"'),
  'refuse-us-zip': doc('MUST', cite(C, 30, 'When country is set to US, zip must be a valid US zip code or an error is returned'), 'PUT /account with country US and a zip that is no US zip (no 5 digits) is not accepted (2xx)'),
  'refuse-promo-code-length': doc('SHOULD', cite(C, 38, 'promo_code (string, 1 to 32 characters, required)'), 'a promo_code of 0 or more than 32 characters is not accepted (2xx); also line 234'),
  'refuse-enum': doc('SHOULD', cite(C, 36, 'type (string, enum: credit_card; required)'), 'a value outside a documented enum is not accepted (2xx): payment method type (line 36), snapshot target primary/secondary (line 44)'),
  'refuse-snapshot-label': doc('SHOULD', cite(C, 44, 'label (string, 3 to 64 characters, required'), 'a snapshot label shorter than 3 or longer than 64 characters is not accepted (2xx); also line 235'),
  'sequence-deleted-gone': doc('MUST', cite(C, 214, '| 404 | resource does not exist |'), 'a deleted OAuth client or user reads 404'),
  'sequence-unknown-id-404': doc('MUST', cite(C, 214, '| 404 | resource does not exist |'), 'an id never created reads 404'),
  'sequence-read-after-write': doc('MUST', cite(C, 105, '| PUT | /account/oauth-clients/{clientId} | account:read_write | fields to change -> OAuth client |'), 'a read after a create or update returns what was written'),
  'sequence-refused-create': doc('SHOULD', cite(C, 219, '2xx means success, 4xx request error, 5xx server error.'), 'a create refused with a 4xx leaves nothing behind'),
  'sequence-other-account': doc('MUST', cite(C, 131, 'visibility: pending: unrestricted user of any account; accepted: only creating and accepting accounts; cancelled or expired: creating account only'), 'service-transfer visibility and cancel by another account; users refused to a restricted caller (line 149)'),
};

const BUILD_RULES: Record<string, FuzzRule> = {
  body: doc('MUST', cite(B, 20, 'Request and response bodies are structured documents (their schemas are not reproduced); plain text and binary bodies are noted where given.'), 'a body that is not plain text or binary is a well-formed document'),
  'sequence-deleted-gone': doc('SHOULD', cite(B, 93, 'DELETE /source/<project>/<package> (`comment` opt)'), 'a deleted package or project is not listed and its _meta is not read with a 2xx (the document states no status codes, line 180: SHOULD)'),
  'sequence-unknown-id-404': doc('SHOULD', cite(B, 81, 'GET /source/<project>/_meta; PUT /source/<project>/_meta (`comment` opt; body; creates the project if absent).'), 'the _meta of a project or package never created is not read with a 2xx'),
  'sequence-read-after-write': doc('MUST', cite(B, 81, 'PUT /source/<project>/_meta (`comment` opt; body; creates the project if absent).'), 'PUT _meta creates what is absent: GET _meta reads it back'),
  'sequence-refused-create': doc('SHOULD', cite(B, 93, 'PUT (`comment` opt; body; creates if absent; commits the package to the build backend)'), 'a PUT _meta the server refused leaves nothing listed or readable'),
};

/** The rule of an oracle for a protocol (undefined: an oracle this table does not know). */
export function ruleOf(protocol: FuzzProtocol, oracle: string): FuzzRule | undefined {
  return ROBUSTNESS[oracle] ?? (protocol === 'wire' ? WIRE_RULES : protocol === 'cloud' ? CLOUD_RULES : BUILD_RULES)[oracle];
}

/** Every oracle of a protocol with its rule (README, tests). */
export function rulesOf(protocol: FuzzProtocol): Record<string, FuzzRule> {
  const own = protocol === 'wire' ? WIRE_RULES : protocol === 'cloud' ? CLOUD_RULES : BUILD_RULES;
  const robustness = protocol === 'wire' ? { 'no-hang': ROBUSTNESS['no-hang'], liveness: ROBUSTNESS.liveness } : ROBUSTNESS;
  return { ...own, ...robustness };
}

/** `[MUST] wire-protocol.md:176 "Each carries one R_STR datum ..."`, or `[robustness]`. */
export function ruleLabel(r: FuzzRule | undefined): string {
  if (!r) return '[unclassified]';
  if (r.class === 'robustness' || !r.spec) return '[robustness]';
  return `[${r.level}] ${r.spec.file}:${r.spec.line} "${r.spec.quote}"`;
}
