// WIRE: every check proven on the variant (see prove.ts); the reference in wire.test.ts.
import { proveBothWays } from './prove.ts';

await proveBothWays('wire', ['variant']);
