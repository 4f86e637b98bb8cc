// Named faults of the embedded WIRE reference server. Each breaks exactly one documented
// behaviour; every check lists the faults that must make it fail, and the meta-test proves it.
import { TERM_FAULTS } from './term-faults.ts';

export const WIRE_FAULTS = {
  ...TERM_FAULTS,
  'handshake-lowercase-success': 'answers an accepted handshake with "success" instead of "SUCCESS"',
  'no-nul-after-success': 'sends SUCCESS without the terminating NUL byte',
  'reject-v0_3': 'refuses the V0_3 version magic',
  'reject-v0_2': 'refuses the V0_2 version magic',
  'accept-unknown-version': 'answers SUCCESS to a handshake with a version magic the document does not list (read as V0_4)',
  'accept-unknown-protocol': 'answers SUCCESS to a handshake with a protocol magic the document does not list (read as PROTOBUF)',
  'second-handshake-accepted': 'takes a version magic sent on an open connection as a new handshake and answers it SUCCESS',
  'error-type-on-every-error': 'fills error_type on CLIENT_ERROR and COMPILE_ERROR responses too',
  'serial-queries': 'answers the queries of a connection one after another: a query that waits (a changefeed CONTINUE, an INDEX_WAIT) holds back every later one',
  'stream-as-atom': 'answers a finite stream (RANGE, a table) with one SUCCESS_ATOM holding an array of every item',
  'accept-any-key': 'accepts any authorization key',
  'permission-error-untyped': 'refuses a read-only user\'s write with error_type OP_FAILED, not PERMISSION_ERROR',
  'length-big-endian': 'writes the response size prefix big-endian',
  'assume-whole-frames': 'parses every TCP chunk as exactly one whole frame',
  'atom-as-sequence': 'answers a single value with a one-item SUCCESS_SEQUENCE',
  'continue-restarts': 'CONTINUE restarts the stream from its first item',
  'single-cursor': 'keeps one cursor per connection: CONTINUE resumes the latest stream whatever its token',
  'unknown-token-runtime-error': 'answers CONTINUE for an unknown token with RUNTIME_ERROR',
  'noreply-wait-wrong-type': 'answers NOREPLY_WAIT with SUCCESS_ATOM',
  'server-info-as-atom': 'answers SERVER_INFO with SUCCESS_ATOM',
  'server-info-profile': 'adds profiling data to SERVER_INFO when profile is set',
  'token-echo-wrong': 'answers with the query token plus one',
  'token-truncate-32': 'answers with the query token cut to its low 32 bits',
  'batch-1000': 'sends batches of 1000 datums',
  'no-batching': 'sends a whole stream in one SUCCESS_SEQUENCE',
  'last-batch-unbounded': 'sends everything after the first batch in one final batch',
  'malformed-closes': 'closes the connection on malformed protobuf instead of answering CLIENT_ERROR',
  'error-message-as-object': 'puts error messages in an R_OBJECT {message} instead of one R_STR',
  'arity-runtime-error': 'reports a wrong argument count as RUNTIME_ERROR instead of COMPILE_ERROR',
  'lenient-add': 'adds booleans as numbers instead of raising RUNTIME_ERROR',
  'error-type-bogus': 'fills error_type with 42, a value outside ErrorType',
  'no-backtrace': 'sends error responses without a backtrace',
  'backtrace-reversed': 'lists backtrace frames innermost first',
  'pos-one-based': 'counts POS frame indexes from 1 instead of 0',
  'opt-frame-as-pos': 'reports an error in an optional argument as a POS frame',
  'bool-as-num': 'encodes booleans as R_NUM 1 or 0',
  'num-as-int': 'truncates numbers to integers',
  'r-json-always': 'uses R_JSON even when the query did not accept it',
  'r-json-invalid': 'writes R_JSON datums that are not JSON (single quotes)',
  'honour-obsolete-noreply': 'treats OBSOLETE_noreply as noreply and does not answer',
  'noreply-ignored': 'answers queries sent with global optarg noreply = true',
  'noreply-any-value': 'treats noreply = false like noreply = true',
  'profile-missing': 'omits profiling data when profile = true',
  'profile-always': 'adds profiling data to every response',
  'spurious-feed-note': 'marks ordinary streams with the SEQUENCE_FEED note',
  'unknown-token-error-object-message': 'answers CONTINUE for an unknown token with RUNTIME_ERROR whose message is an R_OBJECT {message}, not one R_STR',
  'unknown-token-error-no-backtrace': 'answers CONTINUE for an unknown token with RUNTIME_ERROR carrying no backtrace',
  'extra-args-ignored': 'accepts a term with more positional arguments than its signature takes and evaluates it on the ones it takes (too few are still refused)',
  'computed-index-by-primary-key': 'takes a sub-term as GET_ALL\'s index (instead of refusing it) and then looks the keys up by primary key',
  'implicit-var-takes-args': 'accepts IMPLICIT_VAR with positional arguments (and ignores them) instead of refusing them',
} as const;

export type WireFault = keyof typeof WIRE_FAULTS;

export function isWireFault(name: string): name is WireFault {
  return Object.hasOwn(WIRE_FAULTS, name);
}

// Faults for the fuzzer: each makes wire-ref crash, hang or misbehave on specific inputs only.
// They are not in WIRE_FAULTS (no check lists them); test/fuzz proves the fuzzer finds each one.
export const WIRE_FUZZ_FAULTS = {
  'crash-on-deep-nesting': 'destroys the connection on a START whose term nests deeper than 3 levels',
  'hang-on-empty-frame': 'stops answering on a connection after a zero-length frame',
  'oversized-batch-on-limit-0': 'answers a query holding LIMIT with a 0 argument with a batch of 1000 datums',
  'two-strings-for-rare-term': 'an error response to a query holding POLYGON_SUB carries two R_STR datums',
  'silent-on-unknown-magic': 'never answers a handshake with an unknown version magic (no deviation: nothing is owed after a magic outside line 109; a campaign must find nothing)',
} as const;

export type WireFuzzFault = keyof typeof WIRE_FUZZ_FAULTS;

export function isWireFuzzFault(name: string): name is WireFuzzFault {
  return Object.hasOwn(WIRE_FUZZ_FAULTS, name);
}

/** Every fault of either catalogue. */
export function isAnyWireFault(name: string): boolean {
  return isWireFault(name) || isWireFuzzFault(name);
}
