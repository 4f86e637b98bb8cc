// BUILD: every check proven both ways, on the reference and on its variant (see prove.ts).
import { proveBothWays } from './prove.ts';

await proveBothWays('build');
