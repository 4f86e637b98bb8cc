import fc from 'fast-check';

/**
 * Any code points, up to `maxLength` of them, lone surrogates included: what a server that takes
 * text must survive. Built from code point numbers rather than fc.string's 'binary' unit, which
 * builds a table of every code point first (about 0.8 s and 80 MB per arbitrary): a campaign's
 * thread would pay that before its first case.
 */
export function anyUnicode(maxLength: number): fc.Arbitrary<string> {
  return fc.array(fc.integer({ min: 0, max: 0x10ffff }), { maxLength }).map((cps) => String.fromCodePoint(...cps));
}
