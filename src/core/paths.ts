// Where the tool's own files are, for the few places that find them by path. The same module runs
// as TypeScript in a clone (src/core/paths.ts, through jiti or vitest) and as JavaScript in the
// installed package (dist/src/core/paths.js, built by `npm run build`), one folder deeper there.
const built = !import.meta.url.endsWith('.ts');

/** The folder holding src/, suites/, targets/ and fuzz/: the clone's root, or dist/ when built. */
export const CODE_ROOT = new URL('../../', import.meta.url);

/** The package's root, holding package.json. */
export const PACKAGE_ROOT = new URL(built ? '../../../' : '../../', import.meta.url);

/** The extension of the tool's modules in this layout: `.ts` for sources, `.js` when built. */
export const MODULE_EXT = built ? '.js' : '.ts';
