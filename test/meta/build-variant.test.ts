// BUILD: every check proven on the variant (see prove.ts); the reference in build.test.ts.
import { proveBothWays } from './prove.ts';

await proveBothWays('build', ['variant']);
