// Every fuzz kind by name. A protocol's kinds share its driver.
import { UsageError } from '../../src/core/errors.ts';
import { WIRE_KINDS } from '../wire/kinds.ts';
import { HTTP_KINDS } from '../http/kinds.ts';
import { httpJsonSequence } from '../http/sequence.ts';
import { httpXmlSequence } from '../http/build-sequence.ts';
import type { FuzzKind, FuzzProtocol } from './kind.ts';

export const FUZZ_KINDS: readonly FuzzKind<any>[] = [...WIRE_KINDS, ...HTTP_KINDS, httpJsonSequence, httpXmlSequence];

/** The kinds named (all of the protocol's but the opt-in ones when none is), refusing kinds of another protocol. */
export function selectKinds(protocol: FuzzProtocol, names?: readonly string[]): FuzzKind<any>[] {
  const mine = FUZZ_KINDS.filter((k) => k.protocol === protocol);
  if (!names?.length) return mine.filter((k) => !k.optIn);
  return names.map((n) => {
    const k = FUZZ_KINDS.find((x) => x.name === n);
    if (!k) throw new UsageError(`unknown fuzz kind '${n}' (known: ${FUZZ_KINDS.map((x) => x.name).join(', ')})`);
    if (k.protocol !== protocol) throw new UsageError(`fuzz kind '${n}' is for ${k.protocol} targets, not ${protocol}`);
    return k;
  });
}
