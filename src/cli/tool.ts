import { readFileSync } from 'node:fs';
import { PACKAGE_ROOT } from '../core/paths.ts';

const pkg = JSON.parse(readFileSync(new URL('package.json', PACKAGE_ROOT), 'utf8')) as { name: string; version: string };

/** Name and version, as every report records them. */
export const TOOL = { name: pkg.name, version: pkg.version } as const;
