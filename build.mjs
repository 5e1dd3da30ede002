// Bundles the emulator into one dependency-free ES module, dist/emulator.js (only `node:` built-ins stay
// imports), which is both the command line, run with `node dist/emulator.js`, `deno run -A dist/emulator.js` or
// `bun dist/emulator.js`, and the JS API for test suites (`import { startEmulator } from 'workflows-emulator'`:
// src/main.ts re-exports src/index.ts and starts the command line only when it is the program being run); the
// API's types go to dist/index.d.ts.
// Usage: node build.mjs [--watch] [--metafile] [--keep-names]
//   --metafile writes dist/meta.json for `esbuild --analyze`-style size checks; --keep-names builds a file whose
//   stack traces name every function and class (esbuild's keepNames), to read a trace by.
//
// Size and stack traces (docs/architecture.md#the-one-file): the code is minified (whitespace, syntax,
// identifiers), and every source file starts on a line of its own with a `//! <path>` comment naming it (a
// dependency: its first file only), so `emulator.js:<line>` in a trace points at one file of ours or one
// package. Function names are not kept by default: esbuild keeps them by setting each function's `name` when the
// function is made, which cost every process 3-5 ms of CPU at start, about 0.5-1.2 MiB of idle RSS and 28 KB of
// the file; `--keep-names` gives them back for a build made to read a trace. What start-up does not need is carried packed, brotli-compressed
// (PACKED_LIBRARIES and PACKED_MODULES below; docs/architecture.md#packed-libraries-and-module-groups), and js-yaml
// comes in without its dumper (see yamlReader below). The main code and each group are compiled at start as
// scripts with V8's code cache (mainFile below, asScriptFunction in scripts/script-code.mjs; docs/architecture.md#the-code-cache).
import * as esbuild from 'esbuild';
import { createHash } from 'node:crypto';
import { builtinModules } from 'node:module';
import { asScriptFunction, commentSafe, scriptReady, typescript } from './scripts/script-code.mjs';
import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { isAbsolute, relative, resolve } from 'node:path';
import { promisify } from 'node:util';
import { brotliCompress, constants as zlibConstants } from 'node:zlib';

const pkg = JSON.parse(readFileSync(new URL('./package.json', import.meta.url), 'utf8'));

// The web UI's assets, inlined as __UI_ASSETS__ (src/ui/assets.ts reads them from disk when run from source) in
// the web UI's module group (PACKED_MODULES below), which is itself brotli-compressed as a whole: as text, the
// stylesheet minified first (esbuild's CSS minifier). Read once per build: under --watch, restart after editing them.
const file = (path) => readFileSync(new URL(path, import.meta.url), 'utf8');
/**
 * Brotli at its highest quality (on zlib's thread pool, so the groups compress on every core at once), in base 117
 * (src/platform/base117.ts, loaded here through esbuild: one implementation for both ends): what the bundle carries
 * of each packed library and module group.
 */
const { base117Encode } = await import(
  `data:text/javascript;base64,${Buffer.from((await esbuild.transform(file('./src/platform/base117.ts'), { loader: 'ts', format: 'esm' })).code).toString('base64')}`
);
const brotli = promisify(brotliCompress);
const packed = async (text) => base117Encode(await brotli(text, { params: { [zlibConstants.BROTLI_PARAM_QUALITY]: 11 } }));
/** A hash of a script's text (16 hex digits): the build's name in its code cache entries (src/platform/code-cache.ts). */
const scriptHash = (text) => createHash('sha256').update(text).digest('hex').slice(0, 16);
/** Each packed group's scriptHash, as __PACKED_HASHES__ (src/platform/libraries.ts). */
const packedHashes = {};
/** Packs one group's script and records its hash. */
const packGroup = (group, script) => {
  packedHashes[group] = scriptHash(script);
  return packed(script);
};
const uiAssets = {
  'htmx.min.js': file('./node_modules/htmx.org/dist/htmx.min.js'),
  'styles.css': (await esbuild.transform(file('./src/ui/styles.css'), { loader: 'css', minify: true })).code,
  'ui.js': file('./src/ui/ui.js'),
};

// istanbul's HTML report assets (stylesheets, scripts, images), inlined as __COVERAGE_ASSETS__ for
// `test --coverage-reporter html` (src/cli/test-command/coverage-assets.ts reads them from node_modules when run
// from source), in the test command's module group (PACKED_MODULES below), which is compressed as a whole: the
// text files as text, the images in base64.
const coverageAssetDir = new URL('./node_modules/istanbul-reports/lib/html/assets/', import.meta.url);
const coverageAssets = Object.fromEntries(
  ['base.css', 'block-navigation.js', 'favicon.png', 'sort-arrow-sprite.png', 'sorter.js', 'vendor/prettify.css', 'vendor/prettify.js'].map(
    (name) => [name.replace('vendor/', ''), readFileSync(new URL(name, coverageAssetDir)).toString(name.endsWith('.png') ? 'base64' : 'utf8')],
  ),
);

// Node built-ins are loaded with require (the banner's), never by an ES import, wherever the bundle names them
// (`node:fs`, or a bare `fs` from a bundled CommonJS dependency): each becomes a tiny module of the bundle,
// `module.exports = require("node:fs")`. Node's ES facade of a built-in reads every export once, which runs the
// lazy getters behind them: importing node:fs loads node:stream for fs.ReadStream, node:util loads its argument
// parser and MIME types, about 3 ms of CPU at every start (`npm run bench -- dist`); require does not. Every
// built-in the bundle loads is then a `node:` one, which Deno and Bun resolve everywhere, as Node does.
const builtins = {
  name: 'node-builtins',
  setup(build) {
    const names = builtinModules.filter((m) => !m.startsWith('_')).join('|').replace(/\//g, '\\/');
    build.onResolve({ filter: new RegExp(`^(node:)?(${names})$`) }, (args) => ({
      path: args.path.startsWith('node:') ? args.path : `node:${args.path}`,
      external: true,
    }));
  },
};

// `//! <path>` (a legal comment, which minification keeps in place, on a line of its own) at the top of every
// bundled source file: the file of origin of any line of the bundle (`src/...`, or a package's own path).
const root = new URL('.', import.meta.url).pathname;
const originComments = {
  name: 'origin-comments',
  setup(build) {
    build.onLoad({ filter: /\.(ts|js|mjs|cjs)$/ }, (args) => ({
      contents: `//! ${relative(root, args.path).replace(/\\/g, '/').replace(/^.*node_modules\//, '')}\n` + readFileSync(args.path, 'utf8'),
      loader: args.path.endsWith('.ts') ? 'ts' : 'js',
    }));
  },
};

// js-yaml's ES module (dist/js-yaml.mjs) is its CommonJS files rolled into one module whose default export object
// also holds the dumper and the removed `safeLoad` stubs (made by calls, which esbuild must keep): importing only
// `load` from it still bundles all of it. src/lang/definition/load.ts uses `load`, `Type` and `FAILSAFE_SCHEMA`, so
// the bundle takes those three from the package's own CommonJS files (lib/: the same code the .mjs is built from),
// which leaves the dumper out: 11 KB less; and `load` loads the reader on its first call, packed (the
// `yaml-reader` library below: 20 KB less), so that start-up neither parses it nor builds js-yaml's default
// schema (about 4 ms of CPU at every start: npm run bench -- startup). From
// source (tsx, tests) `js-yaml` resolves as usual, to the same code.
// istanbul-lib-report (the coverage reports of `test --coverage-reporter`) makes directories with make-dir,
// which brings semver along (11 KB), and asks supports-color whether to colour console text it never writes
// here: both become what Node does itself (`mkdirSync` with `recursive`) and "no colour".
const istanbulShims = {
  name: 'istanbul-shims',
  setup(build) {
    build.onResolve({ filter: /^(make-dir|supports-color)$/ }, (args) =>
      args.importer.includes('/istanbul-lib-report/') ? { path: args.path, namespace: 'istanbul-shims' } : undefined,
    );
    build.onLoad({ filter: /.*/, namespace: 'istanbul-shims' }, (args) => ({
      contents:
        args.path === 'make-dir'
          ? "const fs = require('node:fs'); module.exports = { sync: (dir) => fs.mkdirSync(dir, { recursive: true }) };"
          : 'module.exports = { stdout: false, stderr: false };',
      loader: 'js',
    }));
  },
};

const yamlReader = {
  name: 'js-yaml-reader',
  setup(build) {
    const lib = new URL('./node_modules/js-yaml/lib/', import.meta.url).pathname;
    const from = (path) => JSON.stringify(lib + path);
    build.onResolve({ filter: /^js-yaml$/ }, () => ({ path: 'js-yaml', namespace: 'js-yaml-reader' }));
    // js-yaml makes a map of "overridable keys" (the keys a `<<` merge brought in, which a later key may
    // override; a null-prototype object, a hash table in V8) for every flow collection it might read and every
    // block mapping it reads. readFlowCollection makes it before it looks whether the node is a flow
    // collection at all, and composeNode tries it first for every node: 1.4 MB of garbage each time the 126 KB
    // bench definition is read, and the block mappings' maps 0.6 MB more, of 6.9 MB a compile allocated
    // (docs/architecture.md#deploying-over-rest). In the bundle, readFlowCollection makes its map once the node
    // is a flow collection, and a block mapping makes its map at its first merge (a key tagged
    // `tag:yaml.org,2002:merge`), until which no key can be overridable; storeMappingPair takes null for "none
    // yet". And storeMappingPair does not store a key's value in the mapping's object: the definition's tree
    // is built from the reader's events (src/lang/definition/yaml-tree.ts), which reads a mapping's object
    // only for its identity, never its entries, and finds repeated keys itself (the reader is called with
    // `json: true`, so it does not look for them); a property added by a key never seen before turns each
    // object into a new hidden class, then a dictionary, about 8% of a steady deploy of the bench definition.
    // And composeNode takes a snapshot of its state (an object of nine fields) before it looks for a node's tag
    // or anchor, to roll back to if the node turns out to be a block mapping's first key; in the bundle it takes
    // one only when the node starts with `!` or `&`, the only characters a tag or an anchor starts with (both
    // readers give up at once on any other, as the loop then does): one object less for nearly every node.
    // The build fails if js-yaml's code is not as these edits expect (test/dist/yaml-reader.test.ts reads
    // generated definitions through the bundle and through js-yaml as published).
    build.onLoad({ filter: /\/js-yaml\/lib\/loader\.js$/ }, (args) => {
      let text = readFileSync(args.path, 'utf8');
      /** Replaces `count` occurrences of `from` in the body of function `fn` (between it and the next function). */
      const edit = (fn, from, to, count = 1) => {
        const start = text.indexOf(`\nfunction ${fn} (`);
        const end = text.indexOf('\nfunction ', start + 1);
        const body = text.slice(start, end);
        if (start < 0 || body.split(from).length - 1 !== count) throw new Error(`js-yaml-reader: ${fn} in lib/loader.js is not as expected; review the edits`);
        text = text.slice(0, start) + body.split(from).join(to) + text.slice(end);
      };
      edit('readFlowCollection', '  const overridableKeys = Object.create(null)\n', '  let overridableKeys\n');
      edit('readFlowCollection', '  } else {\n    return false\n  }\n', '  } else {\n    return false\n  }\n  overridableKeys = Object.create(null)\n');
      edit('readBlockMapping', '  const overridableKeys = Object.create(null)\n', '  let overridableKeys = null\n');
      edit(
        'readBlockMapping',
        'storeMappingPair(state, _result, overridableKeys, keyTag,',
        "storeMappingPair(state, _result, overridableKeys = overridableKeys === null && keyTag === 'tag:yaml.org,2002:merge' ? Object.create(null) : overridableKeys, keyTag,",
        4,
      );
      edit('storeMappingPair', '!_hasOwnProperty.call(overridableKeys, keyNode) &&', '!(overridableKeys !== null && _hasOwnProperty.call(overridableKeys, keyNode)) &&');
      edit('storeMappingPair', '    delete overridableKeys[keyNode]\n', '    if (overridableKeys !== null) delete overridableKeys[keyNode]\n');
      edit('storeMappingPair', '    setProperty(_result, keyNode, valueNode)\n', '');
      edit(
        'composeNode',
        '      const ch = state.input.charCodeAt(state.position)\n      const propertyState = snapshotState(state)\n',
        '      const ch = state.input.charCodeAt(state.position)\n      if (ch !== 0x21/* ! */ && ch !== 0x26/* & */) break\n      const propertyState = snapshotState(state)\n',
      );
      return { contents: `//! js-yaml/lib/loader.js\n${text}`, loader: 'js' };
    });
    build.onLoad({ filter: /.*/, namespace: 'js-yaml-reader' }, () => ({
      contents: [
        // The reader (loader.js, which builds js-yaml's default schema when it is evaluated) on the first read:
        // the packed synchronous library `yaml-reader` (PACKED_LIBRARIES below), which a definition's read cannot
        // wait for. It has copies of the few files of js-yaml it shares with Type and FAILSAFE_SCHEMA here (common,
        // exception, the schema classes), which hold no state: the schema load.ts passes in is read by duck typing.
        `import { loadLibrarySync } from ${JSON.stringify(root + 'src/platform/libraries.ts')};`,
        `export function load(input, options) { return loadLibrarySync('yaml-reader').load(input, options); }`,
        // Type and FAILSAFE_SCHEMA as src/lang/definition/yaml-schema.ts uses them (`new Type(...)`,
        // `FAILSAFE_SCHEMA.extend(...)`), evaluating js-yaml's files behind them on that first use: yaml-schema.ts
        // makes its schema on the first read, and a start evaluates none of them.
        `export function Type(tag, options) { return new (require(${from('type.js')}))(tag, options); }`,
        `export const FAILSAFE_SCHEMA = { extend: (definition) => require(${from('schema/failsafe.js')}).extend(definition) };`,
      ].join('\n'),
      loader: 'js',
      resolveDir: root,
    }));
  },
};

// Connect's compression (@connectrpc/connect-node's compression.js) imports node:zlib statically; esbuild hoists
// that import to the top of the module, so loading the gRPC library (PACKED_LIBRARIES below) would load node:zlib
// (with node:stream) although only a compressed gRPC request needs it. Its import gets the four functions it
// uses, each loading node:zlib with `require` on its first call.
const lazyZlib = {
  name: 'lazy-zlib',
  setup(build) {
    build.onResolve({ filter: /^(node:)?zlib$/ }, (args) =>
      args.importer.includes('/@connectrpc/connect-node/') ? { path: 'zlib', namespace: 'lazy-zlib' } : undefined,
    );
    build.onLoad({ filter: /.*/, namespace: 'lazy-zlib' }, () => ({
      contents: [
        `const nodeZlib = () => require('node:zlib');`,
        ...['gzip', 'gunzip', 'brotliCompress', 'brotliDecompress'].map(
          (name) => `export const ${name} = (...args) => nodeZlib().${name}(...args);`,
        ),
      ].join('\n'),
      loader: 'js',
      resolveDir: root,
    }));
  },
};

// The gRPC API (Connect, protobuf-es, gen/) is loaded on its first request, and esbuild does not tree-shake inside
// such a lazily-run part of the bundle: protobuf-es's `wkt` and `codegenv2` entry points re-export every module
// they have (`export *`; protobuf-es's own modules import the first as ./wkt/index.js), so all of those came along, used or not (codegen symbol tables; the descriptors of
// plugin.proto, type.proto, api.proto and the language feature protos: about 6 KB). Their imports get only the
// names the bundle uses, from the modules that define them; a name missing here is a build error ("No matching
// export"), to be added to this list.
const PROTOBUF_ENTRY_NAMES = {
  '@bufbuild/protobuf/codegenv2': {
    'codegenv2/file.js': ['fileDesc'],
    'codegenv2/message.js': ['messageDesc'],
    'codegenv2/enum.js': ['enumDesc'],
    'codegenv2/service.js': ['serviceDesc'],
    'codegenv2/extension.js': ['extDesc'],
  },
  '@bufbuild/protobuf/wkt': {
    'wkt/google/protobuf/any_pb.js': ['file_google_protobuf_any'],
    'wkt/google/protobuf/descriptor_pb.js': ['file_google_protobuf_descriptor', 'MethodOptions_IdempotencyLevel'],
    'wkt/google/protobuf/duration_pb.js': ['file_google_protobuf_duration', 'DurationSchema'],
    'wkt/google/protobuf/empty_pb.js': ['file_google_protobuf_empty', 'EmptySchema'],
    'wkt/google/protobuf/field_mask_pb.js': ['file_google_protobuf_field_mask'],
    'wkt/google/protobuf/timestamp_pb.js': ['file_google_protobuf_timestamp', 'TimestampSchema'],
    'wkt/google/protobuf/struct_pb.js': ['ListValueSchema', 'NullValue', 'StructSchema', 'ValueSchema'],
    'wkt/wrappers.js': ['hasCustomJsonRepresentation', 'isWrapperDesc'],
    'wkt/any.js': ['anyPack', 'anyUnpack'],
  },
};
const protobufEntries = {
  name: 'protobuf-entries',
  setup(build) {
    const dist = new URL('./node_modules/@bufbuild/protobuf/dist/esm/', import.meta.url).pathname;
    build.onResolve({ filter: /^@bufbuild\/protobuf\/(wkt|codegenv2)$/ }, (args) => ({ path: args.path, namespace: 'protobuf-entry' }));
    // protobuf-es's own modules import the `wkt` entry point as ./wkt/index.js.
    build.onResolve({ filter: /^\.\.?\/wkt\/index\.js$/ }, (args) =>
      args.importer.startsWith(dist) ? { path: '@bufbuild/protobuf/wkt', namespace: 'protobuf-entry' } : undefined,
    );
    build.onLoad({ filter: /.*/, namespace: 'protobuf-entry' }, (args) => ({
      contents: Object.entries(PROTOBUF_ENTRY_NAMES[args.path])
        .map(([file, names]) => `export { ${names.join(', ')} } from ${JSON.stringify(dist + file)};`)
        .join('\n'),
      loader: 'js',
      resolveDir: root,
    }));
  },
};

// gen/google/api's client.proto, resource.proto and field_behavior.proto (with launch_stage.proto, which client.proto
// imports) define options the Workflows protos carry (google.api.default_host, method_signature, resource_reference,
// field_behavior, ...) that the emulator never reads: it reads google.api.http alone (src/api/rest-google.ts), and a
// descriptor keeps the options it carries as unknown fields whether or not their definitions are loaded. So in the
// bundle each of those files is a descriptor with its name and package only (what the Workflows protos import),
// without its messages and enums: about 8 KB less. Tests run the full gen/ files; the runtime suite and the
// black-box tests run the bundle, gRPC and Google's REST transport included.
const UNREAD_OPTION_PROTOS = {
  'gen/google/api/client_pb.ts': ['file_google_api_client', 'google/api/client.proto'],
  'gen/google/api/resource_pb.ts': ['file_google_api_resource', 'google/api/resource.proto'],
  'gen/google/api/field_behavior_pb.ts': ['file_google_api_field_behavior', 'google/api/field_behavior.proto'],
};
const unreadOptionProtos = {
  name: 'unread-option-protos',
  async setup(build) {
    const { create, toBinary } = await import('@bufbuild/protobuf');
    const { FileDescriptorProtoSchema } = await import('@bufbuild/protobuf/wkt');
    build.onLoad({ filter: /\/gen\/google\/api\/\w+_pb\.ts$/ }, (args) => {
      const file = relative(root, args.path);
      if (!(file in UNREAD_OPTION_PROTOS)) return undefined;
      const [name, protoName] = UNREAD_OPTION_PROTOS[file];
      const descriptor = create(FileDescriptorProtoSchema, { name: protoName, package: 'google.api', syntax: 'proto3' });
      return {
        contents: [
          `//! ${file} (the descriptor's name and package only: build.mjs, UNREAD_OPTION_PROTOS)`,
          `import { fileDesc } from '@bufbuild/protobuf/codegenv2';`,
          `export const ${name} = /*@__PURE__*/ fileDesc(${JSON.stringify(Buffer.from(toBinary(FileDescriptorProtoSchema, descriptor)).toString('base64'))});`,
        ].join('\n'),
        loader: 'ts',
      };
    });
  },
};

// Libraries start-up does not need, used by code that start-up does load (src/platform/libraries.ts): each group
// of packages is bundled on its own, packed (brotli in base 117), in __PACKED_LIBRARIES__; in the bundle every import of
// them from src/ or gen/ gets a stand-in module whose bindings src/platform/libraries.ts fills in when the group is
// loaded. The names a stand-in exports are read from the import statements of src/ and gen/ (a name imported
// nowhere is not packed). V8 scans the string in well under a millisecond where it would parse the code at every
// start. Libraries only a module group below uses are bundled in that group instead.
const PACKED_LIBRARIES = {
  yaml: ['yaml'],
  re2: ['re2js'],
  // js-yaml's reader (lib/loader.js as yamlReader edits it, with the files it requires): its `load` is the group's.
  'yaml-reader': [],
};
// Groups that synchronous code loads (src/platform/libraries.ts, loadLibrarySync): a CommonJS module wrapped in a
// function expression, `(function (module) { ... })`, which is evaluated as a script and called.
const SYNC_LIBRARIES = new Set(['re2', 'yaml-reader']);
const packedSpecifiers = new Map(Object.entries(PACKED_LIBRARIES).flatMap(([group, specs]) => specs.map((spec, i) => [spec, { group, key: `s${i}$` }])));

/** The names src/ and gen/ import (values, not types) from each packed specifier: spec -> Set of names ('default' too). */
function importedNames() {
  const names = new Map([...packedSpecifiers.keys()].map((spec) => [spec, new Set()]));
  const files = ['src', 'gen'].flatMap((d) => readdirSync(new URL(`./${d}/`, import.meta.url), { recursive: true }).map((f) => `${d}/${f}`));
  for (const file of files.filter((f) => f.endsWith('.ts'))) {
    for (const [, type, clause, spec] of readFileSync(new URL(`./${file}`, import.meta.url), 'utf8').matchAll(/\bimport\s+(type\s+)?([^'";]*?)\s+from\s+['"]([^'"]+)['"]/g)) {
      const set = names.get(spec);
      if (!set || type) continue;
      if (clause.includes('*')) throw new Error(`${file}: a namespace import of ${spec} cannot be packed (build.mjs, PACKED_LIBRARIES)`);
      const [, defaultName, members] = /^([\w$]+)?\s*,?\s*(?:\{([^}]*)\})?$/.exec(clause.trim()) ?? [];
      if (defaultName) set.add('default');
      for (const m of (members ?? '').split(',').map((x) => x.trim()).filter((x) => x && !x.startsWith('type '))) set.add(m.split(/\s+as\s+/)[0]);
    }
  }
  return names;
}
const packedNames = importedNames();

// `import.meta` in our code and in the packed groups' code: the parameters of the function each is run as
// (asScriptFunction, scripts/script-code.mjs), which dist/emulator.js's first lines fill in with its own `import.meta`.
const importMetaDefines = { 'import.meta.url': '__wfImportMetaUrl', 'import.meta.main': '__wfImportMetaMain' };

/** One group's library: an ES module exporting each imported name of each specifier as `s<i>$<name>`. */
async function packLibrary(group) {
  let contents = PACKED_LIBRARIES[group]
    .map((spec) => {
      const { key } = packedSpecifiers.get(spec);
      const list = [...packedNames.get(spec)].map((n) => `${n} as ${key}${n}`);
      return list.length ? `export { ${list.join(', ')} } from ${JSON.stringify(spec)};` : '';
    })
    .join('\n');
  if (group === 'yaml-reader') contents = `module.exports = require(${JSON.stringify(new URL('./node_modules/js-yaml/lib/loader.js', import.meta.url).pathname)});`;
  const result = await esbuild.build({
    stdin: { contents, resolveDir: root, sourcefile: `packed-${group}.js`, loader: 'js' },
    bundle: true,
    write: false,
    platform: 'node',
    format: SYNC_LIBRARIES.has(group) ? 'cjs' : 'esm',
    target: ['node20'],
    minify: true,
    legalComments: 'none',
    banner: SYNC_LIBRARIES.has(group) ? { js: '(function (module) {' } : undefined,
    define: SYNC_LIBRARIES.has(group) ? undefined : importMetaDefines,
    footer: SYNC_LIBRARIES.has(group) ? { js: '})' } : undefined,
    logLevel: 'warning',
    plugins: [istanbulShims, protobufEntries, lazyZlib, yamlReader, builtins],
  });
  const code = result.outputFiles[0].text;
  if (SYNC_LIBRARIES.has(group) && /\brequire\(/.test(code)) throw new Error(`packed library ${group} requires a module: a synchronous group has no require`);
  return packGroup(group, SYNC_LIBRARIES.has(group) ? code : asScriptFunction(scriptReady(code)).script);
}
const packedLibraries = Object.fromEntries(await Promise.all(Object.keys(PACKED_LIBRARIES).map(async (g) => [g, await packLibrary(g)])));

/** In the bundle, an import of a packed specifier from src/ or gen/ gets its stand-in (src/platform/libraries.ts). */
const packedStandIns = {
  name: 'packed-stand-ins',
  setup(build) {
    build.onResolve({ filter: /.*/ }, (args) =>
      packedSpecifiers.has(args.path) && !args.importer.includes('/node_modules/') && args.namespace === 'file'
        ? { path: args.path, namespace: 'packed-stand-in' }
        : undefined,
    );
    build.onLoad({ filter: /.*/, namespace: 'packed-stand-in' }, (args) => {
      const { group, key } = packedSpecifiers.get(args.path);
      const names = [...packedNames.get(args.path)];
      const local = (n) => (n === 'default' ? '$default' : n);
      return {
        contents: [
          `import { onLibraryLoad, notLoaded } from ${JSON.stringify(root + 'src/platform/libraries.ts')};`,
          ...names.map((n) => `let ${local(n)} = notLoaded(${JSON.stringify(group)}, ${JSON.stringify(`${args.path}: ${n}`)});`),
          `export { ${names.map((n) => (n === 'default' ? '$default as default' : n)).join(', ')} };`,
          `onLibraryLoad(${JSON.stringify(group)}, (lib) => { ${names.map((n) => `${local(n)} = lib[${JSON.stringify(key + n)}];`).join(' ')} });`,
        ].join('\n'),
        loader: 'js',
        resolveDir: root,
      };
    });
  },
};

// Groups of our own modules start-up does not need (src/platform/libraries.ts, loadModule): each is bundled on its
// own from its entries, with the libraries only it uses, packed like the libraries above, and loaded by
// `loadModule(group, entry, ...)` on first use. `owns` says which of our files are the group's: an import of any
// other file of ours is the bundle's own instance of it (src/platform/packed-hosts.ts, filled in here, hands them
// over), so state and classes are shared with the rest of the emulator; in the bundle, the group's files are
// empty modules (an import of one of their values outside the group is a build error: "No matching export").
const PACKED_MODULES = {
  grpc: {
    entries: ['src/api/grpc-routes.ts', 'src/api/rest-google.ts', 'src/api/grpc-operations.ts'],
    owns: /^(gen\/|src\/api\/(grpc-routes|grpc-services|grpc-stream|grpc-operations|convert|rest-google)\.ts$)/,
  },
  ui: { entries: ['src/ui/routes.ts', 'src/cli/graph.ts'], owns: /^src\/(ui\/|graph\/|cli\/graph\.ts$)/ },
  test: {
    entries: ['src/cli/test-command/test-command.ts', 'src/cli/mocks-skeleton.ts'],
    owns: /^src\/cli\/(test-command\/(?!find-test-files\.ts$|test-file\.ts$)|mocks-skeleton\.ts$)/,
  },
  debug: { entries: ['src/debug/inspect.ts', 'src/cli/debug.ts'], owns: /^src\/(debug\/(adapter|inspect)|cli\/debug)\.ts$/ },
  // The lint with the connector catalog (__CONNECTOR_CATALOG__ below), for the lint command and the language server.
  lint: {
    entries: ['src/cli/lint.ts', ...readdirSync(new URL('./src/lint/', import.meta.url)).filter((f) => f.endsWith('.ts')).map((f) => `src/lint/${f}`)],
    owns: /^src\/(lint\/|cli\/lint\.ts$)/,
  },
  lsp: { entries: ['src/lsp/server.ts'], owns: /^src\/lsp\//, uses: ['lint'] },
  // The data directory, import and export (docs/persistence.md), for --data-dir, --import and an export.
  persist: {
    entries: ['src/service/persist/open.ts', 'src/service/persist/export.ts'],
    owns: /^src\/service\/persist\/(?!hooks\.ts$)/,
  },
  // The help texts of the server and `run`, printed only on --help (the other commands' are in their groups).
  help: { entries: ['src/cli/help.ts'], owns: /^src\/cli\/help\.ts$/ },
};
// `uses`: the groups whose modules a group imports (its entries only), loaded before it (src/platform/libraries.ts).
const packedModuleUses = Object.fromEntries(Object.entries(PACKED_MODULES).filter(([, g]) => g.uses).map(([name, g]) => [name, g.uses]));
const groupOwning = (file) => Object.keys(PACKED_MODULES).find((g) => PACKED_MODULES[g].owns.test(file));
/** A relative or absolute import's file, relative to the repository (`src/ui/routes.ts`), or undefined. */
const ownFile = (args) => {
  if (!/^[./]/.test(args.path) || (args.namespace !== 'file' && args.namespace !== 'packed-stand-in')) return undefined;
  const file = relative(root, isAbsolute(args.path) ? args.path : resolve(args.resolveDir, args.path)).replace(/\\/g, '/');
  return /^(src|gen)\//.test(file) ? file : undefined;
};
/** Our files the module groups import from the bundle (src/platform/packed-hosts.ts). */
const hostModules = new Set();
const HOST_MODULES_KEY = "Symbol.for('workflows-emulator:host-modules')";
const GROUP_MODULES_KEY = "Symbol.for('workflows-emulator:module-groups')";

/** One module group, bundled (its imports of our files outside it become the bundle's instances) and packed. */
async function packModules(group) {
  const { entries, owns } = PACKED_MODULES[group];
  const hosts = {
    name: 'host-modules',
    setup(build) {
      build.onResolve({ filter: /^[./]/ }, (args) => {
        const file = ownFile(args);
        if (file === undefined || owns.test(file)) return undefined;
        const owner = groupOwning(file);
        if (owner && (!PACKED_MODULES[group].uses?.includes(owner) || !PACKED_MODULES[owner].entries.includes(file))) {
          throw new Error(`build.mjs PACKED_MODULES: group ${group} imports ${file}, which group ${owner} owns (not an entry of a group it uses)`);
        }
        if (owner) return { path: `${owner}:${file}`, namespace: 'group-module' };
        hostModules.add(file);
        return { path: file, namespace: 'host-module' };
      });
      build.onLoad({ filter: /.*/, namespace: 'group-module' }, (args) => {
        const [owner, file] = args.path.split(':');
        return { contents: `module.exports = globalThis[${GROUP_MODULES_KEY}][${JSON.stringify(owner)}][${JSON.stringify(file)}];`, loader: 'js' };
      });
      build.onLoad({ filter: /.*/, namespace: 'host-module' }, (args) => ({
        contents: `module.exports = globalThis[${HOST_MODULES_KEY}][${JSON.stringify(args.path)}];`,
        loader: 'js',
      }));
    },
  };
  const result = await esbuild.build({
    ...options,
    entryPoints: undefined,
    outfile: undefined,
    stdin: {
      contents: [
        ...entries.map((e, i) => `import * as e${i} from ${JSON.stringify(root + e)};`),
        `export default { ${entries.map((e, i) => `${JSON.stringify(e)}: e${i}`).join(', ')} };`,
      ].join('\n'),
      resolveDir: root,
      sourcefile: `packed-${group}.js`,
      loader: 'js',
    },
    write: false,
    legalComments: 'none',
    banner: undefined,
    plugins: [hosts, packedStandIns, istanbulShims, yamlReader, protobufEntries, unreadOptionProtos, lazyZlib, builtins],
  });
  return packGroup(group, asScriptFunction(scriptReady(result.outputFiles[0].text)).script);
}

/** In the bundle: the module groups' files are empty modules, and packed-hosts.ts names what the groups import. */
const packedModuleStubs = {
  name: 'packed-module-stubs',
  setup(build) {
    build.onResolve({ filter: /^[./]/ }, (args) => {
      const file = ownFile(args);
      return file !== undefined && groupOwning(file) ? { path: file, namespace: 'packed-module-stub' } : undefined;
    });
    build.onLoad({ filter: /.*/, namespace: 'packed-module-stub' }, () => ({ contents: 'export {};', loader: 'js' }));
    build.onLoad({ filter: /\/src\/platform\/packed-hosts\.ts$/ }, () => {
      const files = [...hostModules].sort();
      return {
        contents: [
          '//! src/platform/packed-hosts.ts (filled in by build.mjs, PACKED_MODULES)',
          `import { registerHostModules } from ${JSON.stringify(root + 'src/platform/libraries.ts')};`,
          ...files.map((f, i) => `import * as m${i} from ${JSON.stringify(root + f)};`),
          `registerHostModules({ ${files.map((f, i) => `${JSON.stringify(f)}: m${i}`).join(', ')} });`,
        ].join('\n'),
        loader: 'js',
        resolveDir: root,
      };
    });
  },
};

// The connector catalog (src/lint/connectors.ts: every connector method with its doc and arguments, for the language
// server and the lint), as __CONNECTOR_CATALOG__: its JSON text as a string literal of the lint module group (which
// is compressed as a whole), parsed on first use.
const connectorCatalog = file('./src/lint/connector-catalog.json');

const options = {
  entryPoints: ['src/main.ts'],
  outfile: 'dist/emulator.js',
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: ['node20'],
  minify: true,
  keepNames: process.argv.includes('--keep-names'),
  legalComments: 'inline',
  // The `require` of Node built-ins that the bundle's code and its packed groups call (every module they load is
  // one: test/dist/bundle.test.ts): the runtime's own process.getBuiltinModule (Node 20.16 and later, Deno, Bun),
  // which loads nothing more, else createRequire's (about 3.4 million instructions more at every start on Node, for
  // node:module, the ES facade of its import and createRequire: docs/architecture.md#start-up).
  banner: {
    js: [
      '#!/usr/bin/env node',
      "const require = typeof process.getBuiltinModule === 'function' ? (id) => process.getBuiltinModule(id)",
      "  : (await import('node:module')).createRequire(import.meta.url);",
    ].join('\n'),
  },
  define: {
    ...importMetaDefines,
    __EMULATOR_VERSION__: JSON.stringify(pkg.version),
    __UI_ASSETS__: JSON.stringify(uiAssets),
    __COVERAGE_ASSETS__: JSON.stringify(coverageAssets),
    __CONNECTOR_CATALOG__: JSON.stringify(connectorCatalog),
    __PACKED_MODULE_USES__: JSON.stringify(packedModuleUses),
  },
  loader: { '.css': 'text', '.html': 'text', '.txt': 'text' },
  logLevel: 'warning',
  plugins: [packedModuleStubs, packedStandIns, istanbulShims, yamlReader, protobufEntries, unreadOptionProtos, lazyZlib, builtins, originComments],
};
// The module groups are bundled with the bundle's own options (minified, names as the bundle's, the same defines).
const packedModules = Object.fromEntries(await Promise.all(Object.keys(PACKED_MODULES).map(async (g) => [g, await packModules(g)])));
// The packed texts are not in the main code: dist/emulator.js's outer module holds each in a function that returns
// it, and hands the main code their object as its parameter __wfPacked (mainFile). V8 makes a string of a group's
// text only when the group is loaded, where a literal of the main code would be a string from the start (in the
// main code's own text, and again as a value: about 0.9 MB of every process's heap).
const packedTexts = { ...packedLibraries, ...packedModules };
options.define.__PACKED_LIBRARIES__ = '__wfPacked';
// Sorted by group name, not in the order the groups' builds finished: the same sources make the same file (and the
// same code cache key).
const byGroupName = Object.entries(packedHashes).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
options.define.__PACKED_HASHES__ = JSON.stringify(Object.fromEntries(byGroupName));

/** dist/index.d.ts from src/index.ts alone (its public types are self-contained; isolated declarations). */
async function writeTypes() {
  const ts = typescript();
  const source = readFileSync(new URL('./src/index.ts', import.meta.url), 'utf8');
  const { outputText, diagnostics } = ts.transpileDeclaration(source, {
    fileName: 'index.ts',
    compilerOptions: { target: ts.ScriptTarget.ES2022, module: ts.ModuleKind.NodeNext, allowImportingTsExtensions: true },
  });
  if (diagnostics?.length) {
    throw new Error(`dist/index.d.ts: ${diagnostics.map((d) => ts.flattenDiagnosticMessageText(d.messageText, '\n')).join('; ')}`);
  }
  // esbuild creates dist/ too, but concurrently: make sure it exists before writing beside it.
  mkdirSync(new URL('./dist/', import.meta.url), { recursive: true });
  writeFileSync(new URL('./dist/index.d.ts', import.meta.url), outputText);
}

/**
 * The runtime's part of the code cache (src/platform/code-cache.ts, with the built-ins it loads), for
 * dist/emulator.js's first lines: minified, ending in `const __wfRunCached = runCachedScript`.
 */
async function codeCacheLoader() {
  const result = await esbuild.build({
    entryPoints: ['src/platform/code-cache.ts'],
    bundle: true,
    write: false,
    platform: 'node',
    format: 'esm',
    target: ['node20'],
    minify: true,
    legalComments: 'none',
    logLevel: 'warning',
    plugins: [builtins],
  });
  const code = scriptReady(result.outputFiles[0].text);
  const clause = /\bexport\s*\{\s*([\w$]+) as runCachedScript\s*\};?\s*$/.exec(code);
  if (!clause) throw new Error('build.mjs codeCacheLoader: src/platform/code-cache.ts no longer exports runCachedScript alone');
  return `${code.slice(0, clause.index).trim()}\nconst __wfRunCached = ${clause[1]};`;
}

/** The commands whose starts keep code cache entries of their own (src/main.ts); anything else is the server's. */
const CACHED_COMMANDS = ['run', 'test', 'mocks', 'debug', 'lint', 'lsp', 'graph'];

/**
 * How dist/emulator.js reads the texts it carries as comments (mainFile): a function's source text, which V8 keeps
 * (and Bun too, for a legal comment, `/*!`), from its comment's opening to its closing. Throws if a tool that
 * drops comments has rewritten the file.
 */
const COMMENT_TEXT = [
  '// The texts this file carries are comments of functions, read back from their source (build.mjs mainFile).',
  'const __wfCommentText = (f) => {',
  '  const s = Function.prototype.toString.call(f), i = s.indexOf("/*!"), j = s.lastIndexOf("*/");',
  '  if (i < 0 || j < i + 3) throw new Error("workflows-emulator: this copy of emulator.js has lost the comments that hold its code (a tool that drops comments rewrote it): use the file as published");',
  '  return s.slice(i + 3, j);',
  '};',
].join('\n');

/**
 * dist/emulator.js from esbuild's ES module of src/main.ts: a short ES module (the banner's `require`, the code
 * cache's loader, and the exports) whose main code is one script function (asScriptFunction) carried as the
 * comment of a function (commentSafe: no end of comment inside), compiled at start with node:vm and V8's code
 * cache (src/platform/code-cache.ts); the packed texts are carried the same way. V8 skips a comment when it
 * compiles the module, faster than it scans a string literal of the same text (valgrind, `--version`: 8-13
 * million fewer instructions a start), and the script is the module's own source text
 * (a slice of it, not a second copy in the heap: 0.7 MiB less idle RSS). A start with a cache entry skips
 * compiling the main code. The comment's lines are the script's lines, so stack traces name the file's own lines
 * (`emulator.js:<line>`).
 */
async function mainFile(code) {
  const banner = options.banner.js + '\n';
  const { script, names } = asScriptFunction(code, banner, ['require', '__wfImportMetaUrl', '__wfImportMetaMain', '__wfPacked']);
  if (!names.includes('startEmulator')) throw new Error('build.mjs mainFile: src/main.ts exports no startEmulator');
  const main = commentSafe(script);
  const before = [
    options.banner.js,
    "// The main code is the comment of the function below __wfSource, compiled at start with V8's code cache",
    '// (build.mjs mainFile; src/platform/code-cache.ts; docs/architecture.md#the-code-cache).',
    await codeCacheLoader(),
    COMMENT_TEXT,
    '// The packed libraries and module groups (src/platform/libraries.ts), each made a string when it is loaded.',
    `const __wfPacked = {${Object.entries(packedTexts).map(([group, text]) => `\n${JSON.stringify(group)}: () => __wfCommentText(function(){/*!${text}*/})`).join(',')}\n};`,
  ].join('\n');
  // The script's lines are the file's: it starts on the line of its function, after the comment's opening.
  const opening = 'const __wfSource = __wfCommentText(function(){/*!';
  const where = `{ filename: import.meta.url, lineOffset: ${before.split('\n').length}, columnOffset: ${opening.length}, key: \`${scriptHash(main)}-main-\${__wfCommand}\` }`;
  return [
    before,
    `${opening}${main}*/});`,
    `const __wfCommand = ${JSON.stringify(CACHED_COMMANDS)}.includes(process.argv[2]) ? process.argv[2] : 'main';`,
    `const __wfMain = __wfRunCached(__wfSource, ${where});`,
    `export const { ${names.join(', ')} } = await __wfMain(require, import.meta.url, import.meta.main, __wfPacked);`,
    '',
  ].join('\n');
}

/** dist/emulator.js from esbuild's output of src/main.ts: names, package comments, then mainFile. */
const finishMain = async (code) => mainFile(onePackageComment(scriptReady(code, options.banner.js.length + 1)));

if (process.argv.includes('--watch')) {
  const finish = {
    name: 'main-file',
    setup(build) {
      build.onEnd(async (result) => {
        if (result.errors.length === 0) writeFileSync(options.outfile, await finishMain(readFileSync(options.outfile, 'utf8')));
      });
    },
  };
  const ctx = await esbuild.context({ ...options, plugins: [...options.plugins, finish] });
  await ctx.watch();
} else {
  const metafile = process.argv.includes('--metafile');
  const [bundle] = await Promise.all([esbuild.build({ ...options, metafile }), writeTypes()]);
  if (metafile) writeFileSync(new URL('./dist/meta.json', import.meta.url), JSON.stringify(bundle.metafile));
  writeFileSync(options.outfile, await finishMain(readFileSync(options.outfile, 'utf8')));
  // An earlier build's second file (the JS API was once bundled apart): gone, so nothing can import it by mistake.
  rmSync(new URL('./dist/index.js', import.meta.url), { force: true });
}

/**
 * Keeps the file-of-origin comment of every file of ours (`src/...`, `gen/...`) and, for a dependency, only
 * the first of each run of its files: `//! re2js/...` then marks all of re2js's lines (about 8 KB less; the
 * line breaks stay, so no statement is joined to another).
 */
function onePackageComment(code) {
  let last = '';
  return code.replace(/\/\/! (\S+)(?=\n)/g, (comment, path) => {
    const ours = path.startsWith('src/') || path.startsWith('gen/');
    const owner = ours ? path : path.split('/').slice(0, path.startsWith('@') ? 2 : 1).join('/');
    if (!ours && owner === last) return '';
    last = owner;
    return comment;
  });
}
