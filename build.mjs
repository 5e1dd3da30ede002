// Bundles the emulator into one dependency-free ES module, dist/emulator.js (only `node:` built-ins stay
// imports), which is both the command line, run with `node dist/emulator.js`, `deno run -A dist/emulator.js` or
// `bun dist/emulator.js`, and the JS API for test suites (`import { startEmulator } from 'workflows-emulator'`:
// src/main.ts re-exports src/index.ts and starts the command line only when it is the program being run); the
// API's types go to dist/index.d.ts.
// Usage: node build.mjs [--watch] [--metafile]   (--metafile writes dist/meta.json for `esbuild --analyze`-style size checks)
//
// Size and stack traces (the file must stay under 700 KB and readable in a stack trace: docs/architecture.md): the code is
// minified (whitespace, syntax, identifiers) with esbuild's keepNames, so every function and class keeps its
// name in stack traces (V8 prints the `name` esbuild sets), and every source file starts on a line of its own
// with a `//! <path>` comment naming it (a dependency: its first file only), so `emulator.js:<line>` in a trace
// points at one file of ours or one package. The web UI's assets are inlined brotli-compressed (src/ui/assets.ts
// decompresses them on first use), and js-yaml comes in without its dumper (see yamlReader below).
import * as esbuild from 'esbuild';
import { builtinModules } from 'node:module';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { relative } from 'node:path';
import { brotliCompressSync, constants as zlibConstants } from 'node:zlib';

const pkg = JSON.parse(readFileSync(new URL('./package.json', import.meta.url), 'utf8'));

// The web UI's assets, inlined as __UI_ASSETS__ (src/ui/assets.ts reads them from disk when run from source):
// brotli at its highest quality, in base64 (about 10% fewer bytes than gzip -9 for htmx), the stylesheet
// minified first (esbuild's CSS minifier; the same rules, 18% fewer compressed bytes). Read once per build:
// under --watch, restart after editing them.
const file = (path) => readFileSync(new URL(path, import.meta.url), 'utf8');
const packed = (text) => brotliCompressSync(text, { params: { [zlibConstants.BROTLI_PARAM_QUALITY]: 11 } }).toString('base64');
const uiAssets = {
  'htmx.min.js': packed(file('./node_modules/htmx.org/dist/htmx.min.js')),
  'styles.css': packed((await esbuild.transform(file('./src/ui/styles.css'), { loader: 'css', minify: true })).code),
  'ui.js': packed(file('./src/ui/ui.js')),
};

// istanbul's HTML report assets (stylesheets, scripts, images), inlined as __COVERAGE_ASSETS__ for
// `test --coverage-reporter html` (src/cli/test-command/coverage-assets.ts reads them from node_modules when run from source).
const coverageAssetDir = new URL('./node_modules/istanbul-reports/lib/html/assets/', import.meta.url);
const coverageAssets = Object.fromEntries(
  ['base.css', 'block-navigation.js', 'favicon.png', 'sort-arrow-sprite.png', 'sorter.js', 'vendor/prettify.css', 'vendor/prettify.js'].map(
    (name) => [name.replace('vendor/', ''), brotliCompressSync(readFileSync(new URL(name, coverageAssetDir))).toString('base64')],
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
    build.onResolve({ filter: new RegExp(`^(node:)?(${names})$`) }, (args) =>
      args.namespace === 'node-builtin'
        ? { path: args.path, external: true }
        : { path: args.path.startsWith('node:') ? args.path : `node:${args.path}`, namespace: 'node-builtin' },
    );
    build.onLoad({ filter: /.*/, namespace: 'node-builtin' }, (args) => ({
      contents: `module.exports = require(${JSON.stringify(args.path)});`,
      loader: 'js',
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
// which leaves the dumper out: 11 KB less. From source (tsx, tests) `js-yaml` resolves as usual, to the same code.
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
    // yet". The build fails if js-yaml's code is not as these edits expect (test/dist/yaml-reader.test.ts
    // reads generated definitions through the bundle and through js-yaml as published).
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
      return { contents: `//! js-yaml/lib/loader.js\n${text}`, loader: 'js' };
    });
    build.onLoad({ filter: /.*/, namespace: 'js-yaml-reader' }, () => ({
      contents: [
        `export { load } from ${from('loader.js')};`,
        `export { default as Type } from ${from('type.js')};`,
        `export { default as FAILSAFE_SCHEMA } from ${from('schema/failsafe.js')};`,
      ].join('\n'),
      loader: 'js',
      resolveDir: root,
    }));
  },
};

// Connect's compression (@connectrpc/connect-node's compression.js) imports node:zlib statically; esbuild hoists
// that import to the top of the bundle, so every start would load node:zlib (with node:stream) although only a
// compressed gRPC request needs it. Its import gets the four functions it uses, each loading node:zlib on its
// first call through src/platform/builtins.ts (the same on-first-use loading as our own code's built-ins).
const lazyZlib = {
  name: 'lazy-zlib',
  setup(build) {
    build.onResolve({ filter: /^(node:)?zlib$/ }, (args) =>
      args.importer.includes('/@connectrpc/connect-node/') ? { path: 'zlib', namespace: 'lazy-zlib' } : undefined,
    );
    build.onLoad({ filter: /.*/, namespace: 'lazy-zlib' }, () => ({
      contents: [
        `import { nodeZlib } from ${JSON.stringify(root + 'src/platform/builtins.ts')};`,
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

// The language server's library (src/lsp/library-entry.ts: vscode-languageserver with its protocol, JSON-RPC and
// types, about 245 KB minified) as __LSP_LIBRARY__: an ES module of its own, brotli-compressed in base64, which
// src/lsp/library.ts imports only for `workflows-emulator lsp`. As code in the bundle, V8 would compile it at
// every start of every command (about 10 ms of CPU, docs/architecture.md "Start-up"); as a string it is scanned
// in well under a millisecond. Its built-ins are required (the `builtins` plugin) with a require made for it.
const lspLibrary = await esbuild.build({
  entryPoints: ['src/lsp/library-entry.ts'],
  bundle: true,
  write: false,
  platform: 'node',
  format: 'esm',
  target: ['node20'],
  minify: true,
  legalComments: 'inline',
  banner: { js: "import { createRequire as __wfCreateRequire } from 'node:module';\nconst require = __wfCreateRequire(process.cwd() + '/');" },
  logLevel: 'warning',
  plugins: [builtins],
});
const lspLibraryPacked = packed(lspLibrary.outputFiles[0].text);
// In the bundle, library.ts's from-source branch (`import('./library-entry.ts')`) gets an empty module.
const lspLibraryStub = {
  name: 'lsp-library-stub',
  setup(build) {
    build.onResolve({ filter: /\/library-entry\.ts$/ }, (args) => (args.importer.endsWith('/src/lsp/library.ts') ? { path: 'lsp-library', namespace: 'lsp-library-stub' } : undefined));
    build.onLoad({ filter: /.*/, namespace: 'lsp-library-stub' }, () => ({ contents: 'export {};', loader: 'js' }));
  },
};

// The connector catalog (src/lint/connectors.ts: every connector method with its doc and arguments, for the language
// server and the lint), as __CONNECTOR_CATALOG__: its JSON brotli-compressed in base64, inflated on first use.
const connectorCatalogPacked = packed(file('./src/lint/connector-catalog.json'));

const options = {
  entryPoints: ['src/main.ts'],
  outfile: 'dist/emulator.js',
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: ['node20'],
  minify: true,
  keepNames: true,
  legalComments: 'inline',
  // Some bundled CommonJS dependencies call require() for node built-ins; give ESM a require.
  banner: {
    js: [
      '#!/usr/bin/env node',
      "import { createRequire as __wfCreateRequire } from 'node:module';",
      'const require = __wfCreateRequire(import.meta.url);',
    ].join('\n'),
  },
  define: {
    __EMULATOR_VERSION__: JSON.stringify(pkg.version),
    __UI_ASSETS__: JSON.stringify(uiAssets),
    __LSP_LIBRARY__: JSON.stringify(lspLibraryPacked),
    __COVERAGE_ASSETS__: JSON.stringify(coverageAssets),
    __CONNECTOR_CATALOG__: JSON.stringify(connectorCatalogPacked),
  },
  loader: { '.css': 'text', '.html': 'text', '.txt': 'text' },
  logLevel: 'warning',
  plugins: [istanbulShims, yamlReader, protobufEntries, unreadOptionProtos, lazyZlib, lspLibraryStub, builtins, originComments],
};

/** dist/index.d.ts from src/index.ts alone (its public types are self-contained; isolated declarations). */
async function writeTypes() {
  const ts = (await import('typescript')).default;
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

if (process.argv.includes('--watch')) {
  const ctx = await esbuild.context(options);
  await ctx.watch();
} else {
  const metafile = process.argv.includes('--metafile');
  const [bundle] = await Promise.all([esbuild.build({ ...options, metafile }), writeTypes()]);
  if (metafile) writeFileSync(new URL('./dist/meta.json', import.meta.url), JSON.stringify(bundle.metafile));
  writeFileSync(options.outfile, onePackageComment(readFileSync(options.outfile, 'utf8')));
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
