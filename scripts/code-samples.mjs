// Code samples for every operation of the reference (Redoc's `x-codeSamples`): curl, TypeScript with
// the typed client, and Python with requests. They are generated from the contract's own examples
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

/** The three samples of one operation. */
export function samplesFor(spec, path, method) {
  const item = spec.paths[path];
  const op = item[method];
  const base = spec.servers?.[0]?.url ?? 'https://api.svc.example';
  const params = [...(item.parameters ?? []), ...(op.parameters ?? [])].map((p) => deref(spec, p));
  const pathParams = params.filter((p) => p.in === 'path');
  const query = params.filter((p) => p.in === 'query' && p.required).map((p) => [p.name, paramExample(spec, p)]);
  const idempotent = params.some((p) => p.in === 'header' && p.name.toLowerCase() === 'idempotency-key');
  const body = bodyExample(spec, op);
  const concrete = path.replace(/\{([^}]+)\}/g, (_, name) => encodeURIComponent(String(paramExample(spec, pathParams.find((p) => p.name === name)))));
  const qs = query.length ? `?${new URLSearchParams(query.map(([k, v]) => [k, String(v)])).toString()}` : '';
  const M = method.toUpperCase();

  const curl = [
    `curl -X ${M} "${base}${concrete}${qs}"`,
    `  -H "Authorization: Bearer $SVC_API_KEY"`,
    ...(idempotent ? [`  -H "Idempotency-Key: $(uuidgen)"`] : []),
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
    init.length ? `const { data, error } = await api.${M}('${path}', {\n${init.join('\n')}\n});` : `const { data, error } = await api.${M}('${path}');`,
    `if (error) throw new Error(JSON.stringify(error));`,
    `console.log(data);`,
  ].join('\n');

  const pyArgs = [`    "${base}${concrete}",`, `    headers={`, `        "Authorization": f"Bearer {os.environ['SVC_API_KEY']}",`];
  if (idempotent) pyArgs.push(`        "Idempotency-Key": str(uuid.uuid4()),`);
  pyArgs.push(`    },`);
  if (query.length) pyArgs.push(`    params=${pyLiteral(Object.fromEntries(query), '    ')},`);
  if (body !== undefined) pyArgs.push(`    json=${pyLiteral(body, '    ')},`);
  const py = [
    `import os`,
    ...(idempotent ? [`import uuid`] : []),
    ``,
    `import requests`,
    ``,
    `response = requests.${method}(`,
    ...pyArgs,
    `    timeout=30,`,
    `)`,
    `response.raise_for_status()`,
    `print(response.json() if response.content else response.status_code)`,
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
    { lang: 'Shell', label: 'curl', source: `curl -X ${method.toUpperCase()} "${base}${path}" \\\n  -u "inbound:$SVC_INBOUND_SECRET" \\\n  -H "Content-Type: ${type}" \\\n  --data-binary @reply.eml` },
    {
      lang: 'TypeScript', label: 'TypeScript',
      source: `import { readFile } from 'node:fs/promises';\n\nconst response = await fetch('${base}${path}', {\n  method: '${method.toUpperCase()}',\n  headers: {\n    Authorization: \`Basic \${Buffer.from(\`inbound:\${process.env.SVC_INBOUND_SECRET}\`).toString('base64')}\`,\n    'Content-Type': '${type}',\n  },\n  body: await readFile('reply.eml'),\n});\nconsole.log(response.status, await response.json());`,
    },
    {
      lang: 'Python', label: 'Python',
      source: `import os\n\nimport requests\n\nwith open("reply.eml", "rb") as f:\n    response = requests.${method}(\n        "${base}${path}",\n        auth=("inbound", os.environ["SVC_INBOUND_SECRET"]),\n        headers={"Content-Type": "${type}"},\n        data=f.read(),\n        timeout=30,\n    )\nresponse.raise_for_status()\nprint(response.json())`,
    },
  ];
}

/** The contract with `x-codeSamples` on every operation (a copy; the input is not changed). */
export function withCodeSamples(spec) {
  const copy = structuredClone(spec);
  for (const { path, method, samples } of allSamples(copy)) copy.paths[path][method]['x-codeSamples'] = samples;
  return copy;
}
