// The fault catalogues of the embedded references, and the check every adapter makes on them.
import { ConfigError } from '../core/errors.ts';

/** The fault catalogue of a protocol's embedded reference (name -> description). */
export async function faultCatalogue(protocol: string): Promise<Record<string, string>> {
  switch (protocol) {
    case 'wire': {
      // Faults proven by checks and faults proven by the fuzzer; both can be injected.
      const { WIRE_FAULTS, WIRE_FUZZ_FAULTS } = await import('../../targets/wire/faults.ts');
      return { ...WIRE_FAULTS, ...WIRE_FUZZ_FAULTS };
    }
    case 'cloud': {
      // Control faults break a precondition (no check may fail under them, only be inconclusive).
      const { CLOUD_FAULTS, CLOUD_CONTROL_FAULTS } = await import('../../targets/cloud/faults.ts');
      return { ...CLOUD_FAULTS, ...CLOUD_CONTROL_FAULTS, ...(await import('../../targets/http-fuzz-faults.ts')).CLOUD_FUZZ_FAULTS };
    }
    case 'build':
      return { ...(await import('../../targets/build/faults.ts')).BUILD_FAULTS, ...(await import('../../targets/http-fuzz-faults.ts')).BUILD_FUZZ_FAULTS };
    default:
      return {};
  }
}

/** Throws a ConfigError naming the first fault the protocol's reference does not have. */
export async function assertKnownFaults(name: string, protocol: string, faults: readonly string[]): Promise<void> {
  const catalogue = await faultCatalogue(protocol);
  const unknown = faults.find((f) => !Object.hasOwn(catalogue, f));
  if (unknown) throw new ConfigError(`target '${name}': unknown fault '${unknown}' (known: ${Object.keys(catalogue).join(', ')})`);
}

/** Faults and the variant mode belong to the embedded references; an external target has neither. */
export function assertEmbeddedOnly(name: string, config: { embedded?: boolean; variant?: boolean }, faults: readonly string[]): void {
  if (config.embedded) return;
  if (faults.length) throw new ConfigError(`target '${name}': faults can only be injected into embedded targets`);
  if (config.variant) throw new ConfigError(`target '${name}': variant applies to embedded targets only`);
}
