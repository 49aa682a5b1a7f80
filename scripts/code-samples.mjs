// Code samples for every operation of the reference (Redoc's `x-codeSamples`): curl, TypeScript with
// the typed client, and Python with its standard library only (urllib: nothing to install). Each runs
// as pasted with `SVC_API_KEY` in the environment: curl is silent but shows errors (`-sS`) and makes its
// Idempotency-Key from /dev/urandom with `od` (POSIX: Debian and macOS alike, no `uuidgen`), the
// TypeScript one wraps its calls in `async main()` (a default `npm init` project compiles .ts to
// CommonJS, where top-level await is an error). The address is the contract's first server; the
// server's own /docs swaps in its own address (src/web/reference/reference.routes.ts). They are generated from the contract's own examples
// (each path parameter's `example`, the request body's first example) when the reference is built,
// never written by hand, so they cannot drift from openapi.yaml. contract-tests/spec/code-samples.test.ts
// type-checks every TypeScript sample against generated/schema.d.ts and compiles every Python one.

const METHODS = ['get', 'post', 'put', 'patch', 'delete'];

function deref(spec, node) {
  let n = node;
  for (let hops = 0; n && typeof n.$ref === 'string' && hops < 10; hops++) {
    n = n.$ref.replace(/^#\//, '').split('/').reduce((x, k) => (x == null ? x : x[k]), spec);
  }
  return n;
}

/** The request body's example: `example`, else the first of `examples` (a value or a components/examples ref). */
function bodyExample(spec, op) {
  const media = op.requestBody?.content?.['application/json'];
  if (!media) return undefined;
  if (media.example !== undefined) return media.example;
  const first = Object.values(media.examples ?? {})[0];
  return first === undefined ? undefined : deref(spec, first).value;
}

function paramExample(spec, p) {
  if (p.example !== undefined) return p.example;
  const first = Object.values(p.examples ?? {})[0];
  if (first !== undefined) return deref(spec, first).value;
  return deref(spec, p.schema)?.example;
}

const indentLines = (text, pad) => text.split('\n').map((l, i) => (i === 0 ? l : pad + l)).join('\n');

function pyLiteral(v, pad = '') {
  if (v === null) return 'None';
  if (v === true) return 'True';
  if (v === false) return 'False';
  if (typeof v === 'number') return String(v);
  if (typeof v === 'string') return JSON.stringify(v);
  const inner = pad + '    ';
  if (Array.isArray(v)) return v.length ? `[\n${v.map((x) => inner + pyLiteral(x, inner)).join(',\n')},\n${pad}]` : '[]';
  const entries = Object.entries(v);
  return entries.length ? `{\n${entries.map(([k, x]) => `${inner}${JSON.stringify(k)}: ${pyLiteral(x, inner)}`).join(',\n')},\n${pad}}` : '{}';
}

const tsKey = (k) => (/^[A-Za-z_$][A-Za-z0-9_$]*$/.test(k) ? k : JSON.stringify(k));
function tsLiteral(v, pad = '') {
  if (v === null || typeof v !== 'object') return JSON.stringify(v);
  const inner = pad + '  ';
  if (Array.isArray(v)) return v.length ? `[\n${v.map((x) => inner + tsLiteral(x, inner)).join(',\n')},\n${pad}]` : '[]';
  const entries = Object.entries(v);
  return entries.length ? `{\n${entries.map(([k, x]) => `${inner}${tsKey(k)}: ${tsLiteral(x, inner)}`).join(',\n')},\n${pad}}` : '{}';
}

/** The curl sample's Idempotency-Key: 32 random hex digits, from tools every Unix shell has. */
export const CURL_IDEMPOTENCY_KEY = "$(od -An -N16 -tx1 /dev/urandom | tr -d ' \\n')";

/**
 * The query a sample sends: the required parameters, and on a list (a `limit` parameter) the page
 * size and its first filter with a fixed set of values (an enum), so a list sample shows filtering.
 */
function sampleQuery(spec, params) {
  const query = params.filter((p) => p.in === 'query');
  const picked = query.filter((p) => p.required);
  if (query.some((p) => p.name === 'limit')) {
    const filter = query.find((p) => !p.required && deref(spec, p.schema)?.enum && paramExample(spec, p) !== undefined);
    for (const p of [query.find((q) => q.name === 'limit'), filter]) if (p && !picked.includes(p) && paramExample(spec, p) !== undefined) picked.push(p);
  }
  return picked.map((p) => [p.name, paramExample(spec, p)]);
}

/** Python's send and print, shared: an error answer exits with its status and error envelope. */
const PY_SEND = [
  `try:`,
  `    with urllib.request.urlopen(request, timeout=30) as response:`,
  `        body = response.read()`,
  `        print(json.loads(body) if body else response.status)`,
  `except urllib.error.HTTPError as err:`,
  `    raise SystemExit(f"{err.code} {err.read().decode()}")`,
];

/** The three samples of one operation. */
export function samplesFor(spec, path, method) {
  const item = spec.paths[path];
  const op = item[method];
  const base = spec.servers?.[0]?.url ?? 'https://api.svc.example';
  const params = [...(item.parameters ?? []), ...(op.parameters ?? [])].map((p) => deref(spec, p));
  const pathParams = params.filter((p) => p.in === 'path');
  const query = sampleQuery(spec, params);
  const idempotent = params.some((p) => p.in === 'header' && p.name.toLowerCase() === 'idempotency-key');
  const body = bodyExample(spec, op);
  const concrete = path.replace(/\{([^}]+)\}/g, (_, name) => encodeURIComponent(String(paramExample(spec, pathParams.find((p) => p.name === name)))));
  const qs = query.length ? `?${new URLSearchParams(query.map(([k, v]) => [k, String(v)])).toString()}` : '';
  const M = method.toUpperCase();

  const curl = [
    `curl -sS -X ${M} "${base}${concrete}${qs}"`,
    `  -H "Authorization: Bearer $SVC_API_KEY"`,
    ...(idempotent ? [`  -H "Idempotency-Key: ${CURL_IDEMPOTENCY_KEY}"`] : []),
    ...(body !== undefined ? [`  -H "Content-Type: application/json"`, `  -d '${JSON.stringify(body, null, 2).replace(/'/g, `'\\''`)}'`] : []),
  ].join(' \\\n');

  const tsParams = [];
  if (pathParams.length) tsParams.push(`path: { ${pathParams.map((p) => `${tsKey(p.name)}: ${JSON.stringify(paramExample(spec, p))}`).join(', ')} }`);
  if (query.length) tsParams.push(`query: { ${query.map(([k, v]) => `${tsKey(k)}: ${JSON.stringify(v)}`).join(', ')} }`);
  if (idempotent) tsParams.push(`header: { 'Idempotency-Key': crypto.randomUUID() }`);
  const init = [];
  if (tsParams.length) init.push(`  params: { ${tsParams.join(', ')} },`);
  if (body !== undefined) init.push(`  body: ${indentLines(tsLiteral(body), '  ')},`);
  const ts = [
    `import { createClient } from 'deal-funding-api/client';`,
    ``,
    `const api = createClient({ baseUrl: '${base}', apiKey: process.env.SVC_API_KEY! });`,
    ``,
    `async function main() {`,
    init.length ? `  const { data, error } = await api.${M}('${path}', {\n${init.map((l) => '  ' + indentLines(l, '  ')).join('\n')}\n  });` : `  const { data, error } = await api.${M}('${path}');`,
    `  if (error) throw new Error(JSON.stringify(error));`,
    `  console.log(data);`,
    `}`,
    ``,
    `main().catch((err) => {`,
    `  console.error(err);`,
    `  process.exitCode = 1;`,
    `});`,
  ].join('\n');

  const pyHeaders = [`        "Authorization": f"Bearer {os.environ['SVC_API_KEY']}",`];
  if (idempotent) pyHeaders.push(`        "Idempotency-Key": str(uuid.uuid4()),`);
  if (body !== undefined) pyHeaders.push(`        "Content-Type": "application/json",`);
  const py = [
    `import json`,
    `import os`,
    `import urllib.error`,
    `import urllib.request`,
    ...(idempotent ? [`import uuid`] : []),
    ``,
    `request = urllib.request.Request(`,
    `    "${base}${concrete}${qs}",`,
    `    method="${M}",`,
    `    headers={`,
    ...pyHeaders,
    `    },`,
    ...(body !== undefined ? [`    data=json.dumps(${pyLiteral(body, '    ')}).encode(),`] : []),
    `)`,
    ...PY_SEND,
  ].join('\n');

  return [
    { lang: 'Shell', label: 'curl', source: curl },
    { lang: 'TypeScript', label: 'TypeScript', source: ts },
    { lang: 'Python', label: 'Python', source: py },
  ];
}

/** Every served operation with its samples: [{ operationId, path, method, samples }]. */
export function allSamples(spec) {
  const out = [];
  for (const [path, item] of Object.entries(spec.paths ?? {})) {
    for (const method of METHODS) {
      const op = item[method];
      if (!op?.operationId) continue;
      // The inbound route takes a raw MIME message and the location's inbound secret: its own sample.
      const raw = op.requestBody?.content && !op.requestBody.content['application/json'];
      out.push({ operationId: op.operationId, path, method, samples: raw ? rawSamples(spec, path, method) : samplesFor(spec, path, method) });
    }
  }
  return out;
}

function rawSamples(spec, path, method) {
  const base = spec.servers?.[0]?.url ?? 'https://api.svc.example';
  const type = Object.keys(spec.paths[path][method].requestBody.content)[0];
  return [
    { lang: 'Shell', label: 'curl', source: `curl -sS -X ${method.toUpperCase()} "${base}${path}" \\\n  -u "inbound:$SVC_INBOUND_SECRET" \\\n  -H "Content-Type: ${type}" \\\n  --data-binary @reply.eml` },
    {
      lang: 'TypeScript', label: 'TypeScript',
      source: `import { readFile } from 'node:fs/promises';\n\nasync function main() {\n  const response = await fetch('${base}${path}', {\n    method: '${method.toUpperCase()}',\n    headers: {\n      Authorization: \`Basic \${Buffer.from(\`inbound:\${process.env.SVC_INBOUND_SECRET}\`).toString('base64')}\`,\n      'Content-Type': '${type}',\n    },\n    body: await readFile('reply.eml'),\n  });\n  console.log(response.status, await response.json());\n}\n\nmain().catch((err) => {\n  console.error(err);\n  process.exitCode = 1;\n});`,
    },
    {
      lang: 'Python', label: 'Python',
      source: [
        `import base64`,
        `import json`,
        `import os`,
        `import urllib.error`,
        `import urllib.request`,
        ``,
        `credentials = base64.b64encode(f"inbound:{os.environ['SVC_INBOUND_SECRET']}".encode()).decode()`,
        `with open("reply.eml", "rb") as f:`,
        `    request = urllib.request.Request(`,
        `        "${base}${path}",`,
        `        method="${method.toUpperCase()}",`,
        `        headers={"Authorization": f"Basic {credentials}", "Content-Type": "${type}"},`,
        `        data=f.read(),`,
        `    )`,
        ...PY_SEND,
      ].join('\n'),
    },
  ];
}

/** The contract with `x-codeSamples` on every operation (a copy; the input is not changed). */
export function withCodeSamples(spec) {
  const copy = structuredClone(spec);
  for (const { path, method, samples } of allSamples(copy)) copy.paths[path][method]['x-codeSamples'] = samples;
  return copy;
}
