// CLOUD: every check proven on the variant (see prove.ts); the reference in cloud.test.ts.
import { proveBothWays } from './prove.ts';

await proveBothWays('cloud', ['variant']);
