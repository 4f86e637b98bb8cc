// WIRE: every check proven on the reference (see prove.ts); the variant in wire-variant.test.ts.
import { proveBothWays } from './prove.ts';

await proveBothWays('wire', ['reference']);
