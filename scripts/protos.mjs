// Copies the published protobuf definitions the gRPC API serves into proto/, with every file they import
// (followed transitively), from the npm packages that ship them: google/cloud/workflows/** from
// @google-cloud/workflows, google/api, google/longrunning, google/rpc (and google/type when imported) from
// google-gax. Well-known types (google/protobuf/*) are not copied: buf provides them. Files are copied
// byte for byte, license headers included; proto/README.md records the source packages and versions.
// Usage: npm run protos   (then `npm run generate` to regenerate gen/)
import { copyFileSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';

const root = new URL('..', import.meta.url).pathname;
const out = join(root, 'proto');

/** Where each package keeps its .proto files, in lookup order. */
const sources = [
  { pkg: '@google-cloud/workflows', dir: 'build/protos' },
  { pkg: 'google-gax', dir: 'build/protos' },
];

/** The files the API serves; everything they import follows. */
const roots = [
  'google/cloud/workflows/v1/workflows.proto',
  'google/cloud/workflows/executions/v1/executions.proto',
];

function version(pkg) {
  return JSON.parse(readFileSync(join(root, 'node_modules', pkg, 'package.json'), 'utf8')).version;
}

function locate(file) {
  for (const s of sources) {
    const p = join(root, 'node_modules', s.pkg, s.dir, file);
    if (existsSync(p)) return { path: p, pkg: s.pkg };
  }
  throw new Error(`${file}: not found in ${sources.map((s) => s.pkg).join(', ')}`);
}

const copied = new Map(); // file -> package
const queue = [...roots];
while (queue.length > 0) {
  const file = queue.shift();
  if (copied.has(file) || file.startsWith('google/protobuf/')) continue;
  const { path, pkg } = locate(file);
  copied.set(file, pkg);
  for (const m of readFileSync(path, 'utf8').matchAll(/^import\s+(?:public\s+|weak\s+)?"([^"]+)";/gm)) queue.push(m[1]);
}

rmSync(join(out, 'google'), { recursive: true, force: true });
for (const file of copied.keys()) {
  const dest = join(out, file);
  mkdirSync(dirname(dest), { recursive: true });
  copyFileSync(locate(file).path, dest);
}

const byPkg = new Map();
for (const [file, pkg] of [...copied].sort(([a], [b]) => a.localeCompare(b))) {
  byPkg.set(pkg, [...(byPkg.get(pkg) ?? []), file]);
}
const lines = [
  '# proto/',
  '',
  'The published protobuf definitions the emulator serves over gRPC (docs/grpc.md#the-grpc-api), copied unchanged',
  '(license headers kept) by `npm run protos` (scripts/protos.mjs) from the npm packages that ship them.',
  'Do not edit these files; rerun the script after upgrading a package. `npm run generate` turns them into',
  'TypeScript under gen/ (buf.gen.yaml, protoc-gen-es). Well-known types (google/protobuf/*) come with buf.',
  '',
  '| Source package | Version | Files |',
  '|---|---|---|',
  ...[...byPkg].map(([pkg, files]) => `| ${pkg} | ${version(pkg)} | ${files.map((f) => `\`${f}\``).join('<br>')} |`),
  '',
];
writeFileSync(join(out, 'README.md'), lines.join('\n'));
process.stdout.write(`proto/: ${copied.size} files\n`);
