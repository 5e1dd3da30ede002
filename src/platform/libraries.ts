/**
 * Libraries that start-up does not need, carried by the one-file bundle as data and loaded on first use: the
 * gRPC API's (Connect, protobuf-es), the `yaml` package's Document API (test files written by recording and
 * `test --update`), the Debug Adapter Protocol's (@vscode/debugadapter) and istanbul's coverage reports. Code in
 * the bundle is parsed by V8 at every start of every command, run or not (docs/architecture.md#start-up), so
 * build.mjs bundles each group of packages on its own, brotli-compressed in base 117 (`__PACKED_LIBRARIES__`: each
 * group's text returned by a function of dist/emulator.js's outer module, so that V8 makes a string of it only
 * when the group is loaded, and the main code does not carry it),
 * and replaces every import of them in src/ and gen/ with a stand-in module whose bindings this module fills in
 * when `loadLibrary` has run the group: a script of build output (never user input) evaluating to one function
 * that returns the group's exports, compiled with V8's code cache (src/platform/code-cache.ts). Code that uses one of these packages runs only after
 * `await loadLibrary(group)`; a binding used before that is a function throwing an error naming the group.
 * From source (tests, `node --import tsx`), `__PACKED_LIBRARIES__` is undefined, the packages are imported as
 * usual and `loadLibrary` resolves at once.
 */
import { nodeRequire, nodeZlib } from './builtins.ts';
import { runCachedScript } from './code-cache.ts';
import { base117Decode } from './base117.ts';

/** In the bundle: each packed group's text (build.mjs mainFile), returned by a function called when it is loaded. */
declare const __PACKED_LIBRARIES__: Readonly<Record<string, () => string>> | undefined;
/** In the bundle: a hash of each packed group's code (build.mjs), naming its code cache entries. */
declare const __PACKED_HASHES__: Readonly<Record<string, string>> | undefined;
/** In the bundle: the module groups each module group imports modules of (build.mjs, a group's `uses`). */
declare const __PACKED_MODULE_USES__: Readonly<Record<string, readonly ModuleGroup[]>> | undefined;

/** The groups build.mjs packs (PACKED_LIBRARIES there). */
export type LibraryGroup = 'grpc' | 'yaml' | 'debug' | 'coverage';
/**
 * The groups that synchronous code needs (build.mjs, SYNC_LIBRARIES): re2js, for the regular expressions of
 * `text.*_regex` and of mock URL patterns, which an expression or a mock file compiles where nothing can wait;
 * and js-yaml's reader (`yaml-reader`, loaded by the bundle's own `js-yaml` module, build.mjs's yamlReader, on the
 * first definition read).
 */
export type SyncLibraryGroup = 're2' | 'yaml-reader';

type Exports = Readonly<Record<string, unknown>>;
const loaded = new Map<string, Exports>();
const loading = new Map<string, Promise<void>>();
const setters = new Map<string, ((lib: Exports) => void)[]>();

/**
 * Called by build.mjs's stand-in modules when they are evaluated: `set` receives the group's exports once it is
 * loaded (at once if it already is).
 */
export function onLibraryLoad(group: string, set: (lib: Exports) => void): void {
  const lib = loaded.get(group);
  if (lib) return set(lib);
  setters.set(group, [...(setters.get(group) ?? []), set]);
}

/** What a stand-in binding is until its group is loaded: a function that throws, naming the group. */
export function notLoaded(group: string, name: string): () => never {
  // A function, not an arrow: `new` of a class before its group is loaded throws this error too.
  return function notLoadedYet(): never {
    throw new Error(`internal error: ${name} (library group '${group}') used before loadLibrary('${group}')`);
  };
}

/** Loads a group of packed libraries (once; later calls share the first). Resolves at once when run from source. */
export function loadLibrary(group: LibraryGroup): Promise<void> {
  if (typeof __PACKED_LIBRARIES__ !== 'object' || loaded.has(group)) return Promise.resolve();
  let p = loading.get(group);
  if (!p) {
    const packed = __PACKED_LIBRARIES__[group]?.();
    if (packed === undefined) throw new Error(`internal error: no packed library group '${group}'`);
    p = (async () => publish(group, await runGroupScript(group, packed)))();
    loading.set(group, p);
  }
  return p;
}

/**
 * A packed group's script, unpacked and compiled (with its code cache entry): what its one function expression
 * evaluates to. The script is build output (build.mjs), never user input.
 */
function compileGroup(group: string, packed: string): unknown {
  const code = nodeZlib().brotliDecompressSync(base117Decode(packed)).toString('utf8');
  const hash = typeof __PACKED_HASHES__ === 'object' ? __PACKED_HASHES__[group] : undefined;
  return runCachedScript(code, { filename: `workflows-emulator:packed/${group}.js`, key: `${hash ?? 'unhashed'}-${group}` });
}

/**
 * Runs an asynchronous packed group (a library group or a module group): build.mjs makes each an ES module of
 * esbuild's turned into one async function, `(require, importMetaUrl, importMetaMain) => exports`, which is
 * handed `require` for the Node built-ins it uses.
 */
async function runGroupScript(group: string, packed: string): Promise<Exports> {
  const run = compileGroup(group, packed) as (require: typeof nodeRequire, importMetaUrl: string, importMetaMain: boolean) => Promise<Exports>;
  return run(nodeRequire, import.meta.url, false);
}

/**
 * Loads a group that synchronous code needs, at once (once): build.mjs packs it as a CommonJS module wrapped in
 * a function, which is evaluated as a script of build output (node:vm, in this context; never user input) and
 * called with a module object to fill. Returns the group's exports (its `module.exports`); when run from source,
 * where the packages are imported as usual, an empty object.
 */
export function loadLibrarySync(group: SyncLibraryGroup): Exports {
  if (typeof __PACKED_LIBRARIES__ !== 'object') return {};
  const done = loaded.get(group);
  if (done) return done;
  const packed = __PACKED_LIBRARIES__[group]?.();
  if (packed === undefined) throw new Error(`internal error: no packed library group '${group}'`);
  const wrapper = compileGroup(group, packed) as (module: { exports: Exports }) => void;
  const module = { exports: {} as Exports };
  wrapper(module);
  publish(group, module.exports);
  return module.exports;
}

/** Keeps a loaded group's exports and hands them to the stand-ins waiting for them. */
function publish(group: string, lib: Exports): void {
  loaded.set(group, lib);
  for (const set of setters.get(group) ?? []) set(lib);
  setters.delete(group);
}

/**
 * Groups of our own modules that start-up does not need (build.mjs, PACKED_MODULES): the gRPC API with its
 * libraries, the web UI, the test command, the debug adapter, the lint with the connector catalog, the language
 * server, the data directory with import and export, and the help texts of the server and `run`.
 */
export type ModuleGroup = 'grpc' | 'ui' | 'test' | 'debug' | 'lint' | 'lsp' | 'persist' | 'help';

const groups = new Map<string, Promise<Readonly<Record<string, unknown>>>>();
let hostModules: Readonly<Record<string, unknown>> | undefined;

/**
 * Called once by the bundle's src/platform/packed-hosts.ts (which build.mjs fills in; main.ts imports it last):
 * our modules that the module groups import, by their path in the repository.
 */
export function registerHostModules(modules: Readonly<Record<string, unknown>>): void {
  hostModules = modules;
}

/**
 * Loads `path` (a module of ours, by its path in the repository: `src/ui/routes.ts`) from its module group: in
 * the bundle, the group is an ES module of its own, packed like the libraries above, whose imports of our other
 * modules are the bundle's own instances (registerHostModules hands them over), so state and classes are shared;
 * loaded once. From source, `fromSource()` (an `import()` of the module).
 * @throws Error (the promise rejects) when the group does not hold `path` (a build.mjs PACKED_MODULES entry is missing).
 */
export function loadModule<T>(group: ModuleGroup, path: string, fromSource: () => Promise<T>): Promise<T> {
  if (typeof __PACKED_LIBRARIES__ !== 'object') return fromSource();
  return loadGroup(group).then((modules) => {
    if (!(path in modules)) throw new Error(`internal error: module group '${group}' has no ${path}`);
    return modules[path] as T;
  });
}

/** A packed module group's modules by path (once; later calls share the first), after the groups it uses. */
function loadGroup(group: ModuleGroup): Promise<Readonly<Record<string, unknown>>> {
  let p = groups.get(group);
  if (!p) {
    const packed = __PACKED_LIBRARIES__![group]?.();
    if (packed === undefined) return Promise.reject(new Error(`internal error: no packed module group '${group}'`));
    p = (async () => {
      const shared = globalThis as Record<symbol, unknown>;
      shared[Symbol.for('workflows-emulator:host-modules')] ??= hostModules;
      // The groups whose modules this one imports (build.mjs, `uses`), first: their modules, by group.
      const byGroup = (shared[Symbol.for('workflows-emulator:module-groups')] ??= {}) as Record<string, unknown>;
      for (const used of (typeof __PACKED_MODULE_USES__ === 'object' ? __PACKED_MODULE_USES__[group] : undefined) ?? []) {
        byGroup[used] = await loadGroup(used);
      }
      return (await runGroupScript(group, packed))['default'] as Readonly<Record<string, unknown>>;
    })();
    groups.set(group, p);
  }
  return p;
}

/** Whether `group` can be used now (loaded, or run from source). */
export function libraryLoaded(group: LibraryGroup | SyncLibraryGroup): boolean {
  return typeof __PACKED_LIBRARIES__ !== 'object' || loaded.has(group);
}
