import fc from 'fast-check';

const instances = new Map<number, fc.Arbitrary<string>>();

/**
 * Any code points, up to `maxLength` of them, lone surrogates included. One instance per length,
 * built on first use: fast-check builds a table of every code point for each full-unicode string
 * arbitrary (about 0.8 s), which a WIRE campaign or `fuzz --help` has no reason to pay.
 */
export function anyUnicode(maxLength: number): fc.Arbitrary<string> {
  let a = instances.get(maxLength);
  if (!a) instances.set(maxLength, (a = fc.string({ unit: 'binary', maxLength })));
  return a;
}
