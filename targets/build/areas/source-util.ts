// Shared by the /source handlers (sources.ts, source-commands.ts): lookups that refuse with the
// build service's <status> body, the write permission check, and committing a new revision.
import { canWrite, notFound, refuse, type Call } from '../api.ts';
import { commit, type Package, type Project } from '../world.ts';

export function project(call: Call, name = call.params.project, opts: { deleted?: boolean } = {}): Project {
  const p = call.world.projects.get(name);
  if (!p || p.deleted !== (opts.deleted ?? false)) throw notFound(`project '${name}' does not exist`);
  return p;
}

export function pkg(call: Call, p: Project, name = call.params.package): Package {
  const k = p.packages.get(name);
  if (!k || k.deleted) throw notFound(`package '${p.name}/${name}' does not exist`);
  return k;
}

export function writable(call: Call, name: string): void {
  if (!canWrite(call.user, name)) throw refuse(403, 'modify_project_no_permission', `no permission to modify project '${name}'`);
}

export function record(call: Call, k: Package, files: Map<string, string>, comment: string): void {
  if (call.faults.has('history-not-recorded')) {
    k.files = new Map(files);
    return;
  }
  commit(k, files, call.user?.login ?? 'unknown', comment);
}

/**
 * A unified diff of two file lists, file by file, each changed file one hunk of all its lines
 * (valid input for patch): `--- name\t(from)`, `+++ name\t(to)`, `@@ -1,n +1,m @@`.
 */
export function unifiedDiff(a: Map<string, string>, b: Map<string, string>, from: string, to: string): string {
  const out: string[] = [];
  for (const name of [...new Set([...a.keys(), ...b.keys()])].sort()) {
    const x = a.get(name);
    const y = b.get(name);
    if (x === y) continue;
    const old = linesOf(x);
    const neu = linesOf(y);
    out.push(`--- ${name}\t(${from})`, `+++ ${name}\t(${to})`, `@@ -${old.length ? 1 : 0},${old.length} +${neu.length ? 1 : 0},${neu.length} @@`);
    for (const line of old) out.push(`-${line}`);
    for (const line of neu) out.push(`+${line}`);
  }
  return out.join('\n') + (out.length ? '\n' : '');
}

const linesOf = (text: string | undefined) => {
  if (!text) return [];
  const lines = text.split('\n');
  if (lines.at(-1) === '') lines.pop();
  return lines;
};
