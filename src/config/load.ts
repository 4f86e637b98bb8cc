// Loads targets.config.ts (or .js/.mjs) at run time with jiti and validates it with ajv.
// Every failure becomes a ConfigError whose one-line message names the file and the problem.
import { existsSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { ErrorObject, ValidateFunction } from 'ajv';
import { createJiti } from 'jiti';
import { ConfigError } from '../core/errors.ts';
import { CODE_ROOT, MODULE_EXT } from '../core/paths.ts';
import { configSchema } from './schema.ts';
import { TOOL } from '../cli/tool.ts';
import type { ConformanceConfig } from './types.ts';

export const DEFAULT_CONFIG_FILE = 'targets.config.ts';
/** The names a config file may have, looked for in this order in each folder from the working one up. */
export const CONFIG_FILE_NAMES = ['targets.config.ts', 'targets.config.mts', 'targets.config.js', 'targets.config.mjs'];

/** The nearest config file from `cwd` upward, or undefined. */
export function findConfigFile(cwd: string): string | undefined {
  for (let dir = resolve(cwd); ; dir = dirname(dir)) {
    for (const name of CONFIG_FILE_NAMES) if (existsSync(join(dir, name))) return join(dir, name);
    if (dirname(dir) === dir) return undefined;
  }
}

/** The embedded targets, used when no config file exists where the tool is run. */
export const BUILTIN_CONFIG: ConformanceConfig = {
  targets: {
    'wire-ref': { protocol: 'wire', embedded: true, authKey: '' },
    'cloud-ref': { protocol: 'cloud', embedded: true },
    'build-ref': { protocol: 'build', embedded: true },
    // The same references in their variant mode: every choice the documents leave open taken the
    // other way (docs/open-choices.md). A check that fails here over-asserts.
    'wire-variant': { protocol: 'wire', embedded: true, variant: true, authKey: '' },
    'cloud-variant': { protocol: 'cloud', embedded: true, variant: true },
    'build-variant': { protocol: 'build', embedded: true, variant: true },
  },
};

export interface LoadedConfig {
  config: ConformanceConfig;
  /** Path shown in messages, relative to the working directory; '(built-in)' without a file. */
  file: string;
}

async function compileValidator(): Promise<ValidateFunction> {
  // Loaded when a config is validated: `--help` and `list` never pay for ajv.
  const { Ajv } = await import('ajv');
  const ajv = new Ajv();
  // A base URL must be an absolute http(s) URL; the message names the field.
  ajv.addFormat('http-url', (v: string) => {
    try {
      return ['http:', 'https:'].includes(new URL(v).protocol);
    } catch {
      return false;
    }
  });
  return ajv.compile(configSchema);
}

// Compiled on first use: `list` and `--help` never pay for it.
let validator: ValidateFunction | undefined;
async function validate(config: unknown): Promise<boolean> {
  validator ??= await compileValidator();
  return validator(config) as boolean;
}

/**
 * Loads the config: `path`, or the nearest targets.config.{ts,mts,js,mjs} from `cwd` upward, or
 * the built-in embedded targets when there is none. With `only`, just those targets are validated
 * in full (the rest only for a protocol): a target the run does not use, say one whose password
 * comes from an unset variable, does not stop it. A syntax error anywhere still does.
 */
export async function loadConfig(path?: string, cwd = process.cwd(), opts: { only?: readonly string[] } = {}): Promise<LoadedConfig> {
  const explicit = path !== undefined;
  const abs = explicit ? resolve(cwd, path) : findConfigFile(cwd);
  if (!abs) return { config: BUILTIN_CONFIG, file: '(built-in)' };
  const shown = relative(cwd, abs) || abs;
  if (!existsSync(abs)) throw new ConfigError(`${shown}: config file not found`);
  let mod: unknown;
  try {
    // No module cache: a config edited between two loads in one process is read again. The
    // transform cache stays on (its entries are keyed by a hash of the source, so an edited file
    // is transformed again): without it, every run loaded babel to transform the config,
    // ~100 ms and a young generation grown to 32 MB in the CLI's thread.
    //
    // `import … from 'conformance'` in the config is this very copy of the tool, wherever the config
    // lies: `npx --package=conformance conformance` installs the tool out of the config's reach.
    const self = fileURLToPath(new URL(`src/index${MODULE_EXT}`, CODE_ROOT));
    // Either name: the package's (`protocol-conformance-suite`) or the command's (`conformance`).
    const jiti = createJiti(import.meta.url, { moduleCache: false, alias: { [TOOL.name]: self, conformance: self } });
    mod = await withinLoadLimit(jiti.import(abs, { default: true }), shown);
  } catch (err) {
    if (err instanceof ConfigError) throw err;
    throw new ConfigError(`${shown}: cannot load: ${oneLine(err, abs, shown)}`, { cause: err });
  }
  const config = (mod as { default?: unknown })?.default ?? mod;
  await validateTargets(config, shown, opts.only);
  return { config: normalizeConfig(config as ConformanceConfig), file: shown };
}

/**
 * A CLOUD base URL that already ends in the API prefix (`https://api.example.com/v4`, as the
 * document writes its examples) names the same server as one without: the checks and the fuzzer
 * add `/v4` (or `/v4beta`) to every path themselves, so the prefix is taken off the base here,
 * once, for `run`, `fuzz`, `replay` and `list` alike. A BUILD base keeps its path (`https://host/api`):
 * every request path is appended to it.
 */
export function normalizeBaseUrl(protocol: string, baseUrl: string): string {
  if (protocol !== 'cloud') return baseUrl;
  try {
    const url = new URL(baseUrl);
    const path = url.pathname.replace(/\/+$/, '');
    const stripped = path.replace(/\/v4(?:beta)?$/, '');
    if (stripped === path) return baseUrl;
    url.pathname = stripped || '/';
    return url.toString().replace(/\/$/, '');
  } catch {
    return baseUrl;
  }
}

/** The config with each CLOUD base URL's API prefix taken off (see normalizeBaseUrl); a copy. */
export function normalizeConfig(config: ConformanceConfig): ConformanceConfig {
  const targets = Object.fromEntries(
    Object.entries(config.targets).map(([name, t]) => [name, t.protocol !== 'wire' && t.baseUrl ? { ...t, baseUrl: normalizeBaseUrl(t.protocol, t.baseUrl) } : t]),
  );
  return { ...config, targets };
}

/**
 * Validates `config` in full for the targets named (all when `only` is undefined); the others
 * need only be objects with a known protocol. A failure names the file, the target and the field.
 */
export async function validateTargets(config: unknown, shown: string, only?: readonly string[]): Promise<void> {
  const targets = (config as { targets?: unknown })?.targets;
  let checked = config;
  if (only && targets && typeof targets === 'object' && !Array.isArray(targets)) {
    const all = targets as Record<string, unknown>;
    const unknown = only.find((n) => !Object.hasOwn(all, n));
    if (unknown) throw new ConfigError(`unknown target '${unknown}' in ${shown} (known: ${Object.keys(all).join(', ') || 'none'})`);
    // The others keep their protocol only, which any valid target has.
    const outline = (v: unknown) => ({ protocol: (v as { protocol?: unknown })?.protocol, embedded: true });
    checked = { ...(config as object), targets: Object.fromEntries(Object.entries(all).map(([n, v]) => [n, only.includes(n) ? v : outline(v)])) };
  }
  if (!(await validate(checked))) throw new ConfigError(`${shown}: ${describeSchemaError(validator?.errors?.[0], checked)}`);
}

/**
 * How long a config may take to load. A top-level await that never settles would otherwise end
 * the process (exit 13) with no word; CONFORMANCE_CONFIG_LOAD_MS changes it.
 */
export function configLoadLimitMs(): number {
  const n = Number(process.env.CONFORMANCE_CONFIG_LOAD_MS);
  return Number.isInteger(n) && n > 0 ? n : 10_000;
}

async function withinLoadLimit<T>(loading: Promise<T>, shown: string): Promise<T> {
  const limit = configLoadLimitMs();
  let timer: NodeJS.Timeout | undefined;
  // Not unref'd: this timer is what keeps the process waiting for a config that never settles.
  const expired = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new ConfigError(`${shown}: did not finish loading within ${limit} ms (a top-level await that never settles?)`)), limit);
  });
  try {
    return await Promise.race([loading, expired]);
  } finally {
    clearTimeout(timer);
  }
}

/** The loader's message on one line; a trailing `<file>:<line>:<col>` line becomes "at line:col". */
function oneLine(err: unknown, abs: string, shown: string): string {
  const lines = (err instanceof Error ? err.message : String(err)).split('\n').map((l) => l.trim()).filter(Boolean);
  const text = lines
    .map((l) => {
      const at = l.startsWith(abs) ? /:(\d+):(\d+)$/.exec(l) : null;
      return at ? `at line ${at[1]}, column ${Number(at[2]) + 1}` : l.replaceAll(abs, shown);
    })
    .join(' ');
  return text || 'unknown error';
}

/** "target 'x': port must be <= 65535" from an ajv error. */
export function describeSchemaError(e: ErrorObject | undefined, config: unknown): string {
  if (!e) return 'invalid config';
  const parts = e.instancePath.split('/').slice(1).map((p) => p.replace(/~1/g, '/').replace(/~0/g, '~'));
  let where = 'config';
  let field = parts;
  if (parts[0] === 'targets' && parts.length >= 2) {
    where = `target '${parts[1]}'`;
    field = parts.slice(2);
  }
  const params = e.params as Record<string, unknown>;
  if (e.keyword === 'required') field = [...field, String(params.missingProperty)];
  if (e.keyword === 'additionalProperties') return `${where}: unknown field '${[...field, params.additionalProperty].join('.')}'`;
  if (e.keyword === 'propertyNames') return `${where}: target name '${params.propertyName}' may only hold letters, digits, '.', '_' and '-'`;
  const name = field.length ? `'${field.join('.')}'` : 'value';
  if (e.keyword === 'required') return `${where}: missing field ${name}`;
  if (e.keyword === 'enum' || e.keyword === 'const') {
    const allowed = (params.allowedValues as unknown[] | undefined) ?? [params.allowedValue];
    const got = valueAt(config, parts);
    return `${where}: ${name} is ${JSON.stringify(got)}, expected one of ${allowed.map((v) => JSON.stringify(v)).join(', ')}`;
  }
  if (e.keyword === 'format' && params.format === 'http-url') return `${where}: ${name} is not an http(s) URL: ${JSON.stringify(valueAt(config, parts))}`;
  return `${where}: ${name} ${e.message}`;
}

function valueAt(root: unknown, path: string[]): unknown {
  return path.reduce<unknown>((v, k) => (v && typeof v === 'object' ? (v as Record<string, unknown>)[k] : undefined), root);
}
