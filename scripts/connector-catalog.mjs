// Generates src/lint/connector-catalog.json, the catalog of Cloud Workflows connectors the language server
// completes and documents and the lint checks calls against (docs/editor.md#connectors, docs/lint.md).
//
// Which connectors exist: Google's connectors reference, https://cloud.google.com/workflows/docs/reference/googleapis
// (one connector per API and version below; a connector call is `googleapis.<api>.<version>.<resource...>.<method>`).
// What each connector holds: the API's discovery document (https://developers.google.com/discovery), as Google's own
// Node.js client, the `googleapis` npm package, generates it: build/src/apis/<api>/<version>.js names every resource
// and method with its required parameters, and <version>.d.ts holds the method and parameter descriptions. A
// connector's arguments are the method's parameters by their discovery names, plus `body` for a request body
// (https://cloud.google.com/workflows/docs/reference/googleapis#invoke_a_connector_call).
//
// The catalog is compact: `services` maps `<api>.<version>` to its title `t` and resources `r`, each resource path
// (`projects.locations.workflows`) to its methods, each method to [first sentence of its description, ...parameter
// names], a required parameter's name ending in `!`.
//
// Usage: npm pack googleapis && tar xzf googleapis-*.tgz
//        node scripts/connector-catalog.mjs <path of the unpacked package>   (writes src/lint/connector-catalog.json)
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * The connectors of Google's connectors reference: API name and versions; `connector:discovery` for a connector
 * version whose discovery document the package holds under another version name (integrations v1: v1alpha).
 * Every connector the published samples (GoogleCloudPlatform/workflows-samples) call is here (test/lint/check.test.ts
 * checks them all); the others are the reference's list as far as it was read. A connector missing here is
 * reported as UNKNOWN_CONNECTOR: add it and regenerate.
 */
const CONNECTORS = {
  accessapproval: ['v1'],
  aiplatform: ['v1'],
  alloydb: ['v1'],
  apikeys: ['v2'],
  appengine: ['v1'],
  artifactregistry: ['v1'],
  batch: ['v1'],
  bigquery: ['v2'],
  bigquerydatatransfer: ['v1'],
  bigtableadmin: ['v2'],
  certificatemanager: ['v1'],
  cloudbuild: ['v1', 'v2'],
  cloudfunctions: ['v1', 'v2'],
  cloudkms: ['v1'],
  cloudresourcemanager: ['v1', 'v2', 'v3'],
  cloudscheduler: ['v1'],
  cloudtasks: ['v2'],
  compute: ['v1'],
  container: ['v1'],
  datacatalog: ['v1'],
  dataflow: ['v1b3'],
  dataform: ['v1beta1'],
  datafusion: ['v1'],
  datamigration: ['v1'],
  dataplex: ['v1'],
  dataproc: ['v1'],
  datastore: ['v1'],
  dlp: ['v2'],
  documentai: ['v1'],
  eventarc: ['v1'],
  file: ['v1'],
  firebaserules: ['v1'],
  firestore: ['v1'],
  forms: ['v1'],
  healthcare: ['v1'],
  iam: ['v1'],
  iamcredentials: ['v1'],
  integrations: ['v1:v1alpha'],
  language: ['v1'],
  logging: ['v2'],
  memcache: ['v1'],
  metastore: ['v1'],
  ml: ['v1'],
  monitoring: ['v1', 'v3'],
  networkconnectivity: ['v1'],
  networkmanagement: ['v1'],
  osconfig: ['v1'],
  pubsub: ['v1'],
  redis: ['v1'],
  run: ['v1', 'v2'],
  secretmanager: ['v1'],
  securitycenter: ['v1'],
  servicedirectory: ['v1'],
  serviceusage: ['v1'],
  sheets: ['v4'],
  spanner: ['v1'],
  speech: ['v1'],
  sqladmin: ['v1', 'v1beta4'],
  storage: ['v1'],
  storagetransfer: ['v1'],
  texttospeech: ['v1'],
  transcoder: ['v1'],
  translate: ['v2', 'v3'],
  videointelligence: ['v1'],
  vision: ['v1'],
  workflowexecutions: ['v1'],
  workflows: ['v1'],
};

/**
 * Methods a connector has that its API's discovery document does not: helpers of Workflows itself, as the connector's
 * reference page documents them.
 */
const EXTRA_METHODS = [
  // https://cloud.google.com/workflows/docs/reference/googleapis/secretmanager/v1/projects.secrets/addVersionString
  [
    'secretmanager.v1',
    'projects.secrets',
    'addVersionString',
    ['Adds a secret version holding a string (no base64 encoding needed).', 'secret_id!', 'data!', 'project_id'],
  ],
  // https://cloud.google.com/workflows/docs/reference/googleapis/secretmanager/v1/projects.secrets.versions/accessString
  [
    'secretmanager.v1',
    'projects.secrets.versions',
    'accessString',
    ['Accesses a secret version as a UTF-8 string (no base64 decoding needed).', 'secret_id!', 'version', 'project_id'],
  ],
  // https://cloud.google.com/workflows/docs/reference/googleapis/workflowexecutions/v1/projects.locations.workflows.executions/run
  [
    'workflowexecutions.v1',
    'projects.locations.workflows.executions',
    'run',
    ['Runs an execution of the given workflow and waits for it to finish.', 'workflow_id!', 'argument', 'project_id', 'location'],
  ],
];

const pkg = process.argv[2];
if (!pkg) {
  console.error('usage: node scripts/connector-catalog.mjs <path of the unpacked googleapis npm package>');
  process.exit(2);
}
const version = JSON.parse(readFileSync(join(pkg, 'package.json'), 'utf8')).version;

/** The first sentence of a description, plain and at most `max` characters. */
function firstSentence(text, max) {
  const flat = text.replace(/\\([{}])/g, '$1').replace(/\s+/g, ' ').replace(/^(Required|Optional)\. /, '').trim();
  const m = /^(.*?[.!?])(\s|$)/.exec(flat);
  let s = m ? m[1] : flat;
  if (s.length > max) s = s.slice(0, max - 1).replace(/\s+\S*$/, '') + '…';
  return s;
}

/** The resource path of each class of a generated module, from the constructors: `Resource$Projects$Locations` → `projects.locations`. */
function resourcePaths(js) {
  const paths = new Map();
  const re = /class ([\w$]+) \{[\s\S]*?constructor\((?:options, google|context)\) \{([\s\S]*?)\n {8}\}/g;
  const children = [];
  for (const m of js.matchAll(re)) {
    for (const c of m[2].matchAll(/this\.(\w+) = new (Resource\$[\w$]+)\(this\.context\);/g)) children.push([m[1], c[1], c[2]]);
    if (!m[1].startsWith('Resource$')) paths.set(m[1], '');
  }
  for (let changed = true; changed; ) {
    changed = false;
    for (const [parent, prop, child] of children) {
      if (paths.has(parent) && !paths.has(child)) {
        const p = paths.get(parent);
        paths.set(child, p ? `${p}.${prop}` : prop);
        changed = true;
      }
    }
  }
  return paths;
}

/** The methods of each class of a generated module, with their required parameters. */
function methodsOf(js) {
  const out = new Map();
  const classes = [...js.matchAll(/^ {4}class (Resource\$[\w$]+) \{/gm)];
  classes.forEach((m, i) => {
    const body = js.slice(m.index, classes[i + 1]?.index ?? js.length);
    const methods = [];
    const re = /^ {8}(\w+)\(paramsOrCallback, optionsOrCallback, callback\) \{[\s\S]*?requiredParams: \[([^\]]*)\]/gm;
    for (const mm of body.matchAll(re)) methods.push([mm[1], [...mm[2].matchAll(/'(\w+)'/g)].map((x) => x[1])]);
    out.set(m[1], methods);
  });
  return out;
}

/** Method descriptions and parameter interfaces from the generated declarations. */
function declarationsOf(dts) {
  const methodDocs = new Map();
  for (const m of dts.matchAll(/\/\*\*\n((?: {9}\*.*\n)+?) {9}\*\/\n {8}(\w+)\(params: (Params\$Resource\$[\w$]+), options: StreamMethodOptions\)/g)) {
    const lines = m[1].split('\n').map((l) => l.replace(/^\s*\* ?/, ''));
    const end = lines.findIndex((l) => l.startsWith('@'));
    methodDocs.set(m[3], { name: m[2], doc: lines.slice(0, end < 0 ? undefined : end).join(' ') });
  }
  const params = new Map();
  for (const m of dts.matchAll(/export interface (Params\$Resource\$[\w$]+) extends StandardParameters \{\n([\s\S]*?)\n {4}\}/g)) {
    const list = [];
    for (const p of m[2].matchAll(/\/\*\*\n((?: {9}\*.*\n)+?) {9}\*\/\n {8}'?([\w.$-]+)'?\?: /g)) {
      list.push({ name: p[2], doc: p[1].split('\n').map((l) => l.replace(/^\s*\* ?/, '')).join(' ') });
    }
    params.set(m[1], list);
  }
  return { methodDocs, params };
}


const services = {};
for (const [api, versions] of Object.entries(CONNECTORS)) {
  for (const spec of versions) {
    const [v, discovery = v] = spec.split(':');
    const base = join(pkg, 'build/src/apis', api, discovery);
    const js = readFileSync(`${base}.js`, 'utf8');
    const dts = readFileSync(`${base}.d.ts`, 'utf8');
    const title = /^ {4}\/\*\*\n {5}\* (.+)\n/m.exec(js)?.[1] ?? api;
    const paths = resourcePaths(js);
    const { methodDocs, params } = declarationsOf(dts);
    const resources = {};
    for (const [cls, list] of methodsOf(js)) {
      const path = paths.get(cls);
      if (path === undefined) continue;
      for (const [name, required] of list) {
        const paramsType = `Params$${cls}$${name[0].toUpperCase()}${name.slice(1)}`;
        const doc = [...methodDocs.entries()].find(([t, d]) => t.toLowerCase() === paramsType.toLowerCase() && d.name === name)?.[1].doc ?? '';
        const args = [];
        const declared = [...params.entries()].find(([t]) => t.toLowerCase() === paramsType.toLowerCase())?.[1] ?? [];
        for (const p of declared) {
          if (p.name === 'requestBody') args.push('body');
          else if (p.name !== 'media') args.push(required.includes(p.name) ? `${p.name}!` : p.name);
        }
        ((resources[path] ??= {}))[name] = [firstSentence(doc, 72), ...args];
      }
    }
    services[`${api}.${v}`] = { t: title, r: resources };
  }
}

for (const [service, resource, method, entry] of EXTRA_METHODS) services[service].r[resource][method] = entry;

const catalog = {
  source: `Google's connectors reference (https://cloud.google.com/workflows/docs/reference/googleapis); methods and parameters from the discovery documents as the googleapis npm package ${version} holds them`,
  services,
};
const out = new URL('../src/lint/connector-catalog.json', import.meta.url);
// One connector per line, so a regenerated catalog diffs by connector.
const lines = Object.entries(services).map(([k, v]) => `${JSON.stringify(k)}:${JSON.stringify(v)}`);
writeFileSync(out, `{"source":${JSON.stringify(catalog.source)},"services":{\n${lines.join(',\n')}\n}}\n`);
const count = Object.values(services).reduce((n, s) => n + Object.values(s.r).reduce((k, r) => k + Object.keys(r).length, 0), 0);
console.log(`${Object.keys(services).length} connectors, ${count} methods: ${out.pathname}`);
