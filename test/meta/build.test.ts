// BUILD: every check proven on the reference (see prove.ts); the variant in build-variant.test.ts.
import { proveBothWays } from './prove.ts';

await proveBothWays('build', ['reference']);
