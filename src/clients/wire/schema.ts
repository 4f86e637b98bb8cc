// Loads ql2.proto once with protobufjs and exposes the message types and enum values.
// Every encoder and decoder of the project (client, reference server, fuzzer) goes through here.
import { readFileSync } from 'node:fs';
import protobuf from 'protobufjs';

const protoText = readFileSync(new URL('./ql2.proto', import.meta.url), 'utf8');
export const root = protobuf.parse(protoText, { keepCase: true }).root;

export const QueryType_ = root.lookupType('Query');
export const ResponseType_ = root.lookupType('Response');
export const TermType_ = root.lookupType('Term');
export const DatumType_ = root.lookupType('Datum');

function enumValues<K extends string>(path: string, names: readonly K[]): Readonly<Record<K, number>> {
  const values = root.lookupEnum(path).values;
  for (const name of names) {
    if (!(name in values)) throw new Error(`ql2.proto: ${path} has no value ${name}`);
  }
  return Object.freeze({ ...values }) as Record<K, number>;
}

/** number -> name, for messages that show enum values to a reader. */
function enumNames(path: string): Readonly<Record<number, string>> {
  const out: Record<number, string> = {};
  for (const [name, value] of Object.entries(root.lookupEnum(path).values)) out[value] = name;
  return Object.freeze(out);
}

export const Version = enumValues('VersionDummy.Version', ['V0_1', 'V0_2', 'V0_3', 'V0_4', 'V1_0'] as const);
export type VersionName = keyof typeof Version;
export const WireProtocol = enumValues('VersionDummy.Protocol', ['PROTOBUF', 'JSON'] as const);
export const QueryType = enumValues('Query.QueryType', ['START', 'CONTINUE', 'STOP', 'NOREPLY_WAIT', 'SERVER_INFO'] as const);
export const ResponseType = enumValues('Response.ResponseType', [
  'SUCCESS_ATOM', 'SUCCESS_SEQUENCE', 'SUCCESS_PARTIAL', 'WAIT_COMPLETE', 'SERVER_INFO',
  'CLIENT_ERROR', 'COMPILE_ERROR', 'RUNTIME_ERROR',
] as const);
export const ErrorType = enumValues('Response.ErrorType', [
  'INTERNAL', 'RESOURCE_LIMIT', 'QUERY_LOGIC', 'NON_EXISTENCE', 'OP_FAILED', 'OP_INDETERMINATE', 'USER', 'PERMISSION_ERROR',
] as const);
export const ResponseNote = enumValues('Response.ResponseNote', [
  'SEQUENCE_FEED', 'ATOM_FEED', 'ORDER_BY_LIMIT_FEED', 'UNIONED_FEED', 'INCLUDES_STATES',
] as const);
export const FrameType = enumValues('Frame.FrameType', ['POS', 'OPT'] as const);
export const DatumType = enumValues('Datum.DatumType', ['R_NULL', 'R_BOOL', 'R_NUM', 'R_STR', 'R_ARRAY', 'R_OBJECT', 'R_JSON'] as const);
/** Every TermType of the catalogue, by name. */
export const TermType: Readonly<Record<string, number>> = Object.freeze({ ...root.lookupEnum('Term.TermType').values });

export const names = {
  version: enumNames('VersionDummy.Version'),
  queryType: enumNames('Query.QueryType'),
  responseType: enumNames('Response.ResponseType'),
  errorType: enumNames('Response.ErrorType'),
  responseNote: enumNames('Response.ResponseNote'),
  datumType: enumNames('Datum.DatumType'),
  termType: enumNames('Term.TermType'),
  frameType: enumNames('Frame.FrameType'),
};

/** Name of an enum value for messages, or the bare number when the value is not in the schema. */
export function nameOf(table: Readonly<Record<number, string>>, value: number | undefined): string {
  if (value === undefined) return '(unset)';
  return table[value] ?? `unknown value ${value}`;
}
