// The build service's checksums of sources: md5 of a file, and `srcmd5`, one md5 for a whole file list.
import { createHash } from 'node:crypto';

export const md5 = (content: string) => createHash('md5').update(content, 'utf8').digest('hex');

/** One checksum for a whole file list (the service's "srcmd5"). */
export const srcmd5 = (files: Map<string, string>) => md5([...files].sort(([a], [b]) => (a < b ? -1 : 1)).map(([n, c]) => `${md5(c)}  ${n}\n`).join(''));
