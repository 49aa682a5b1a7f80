/**
 * CSV of a list operation (`Accept: text/csv`), as openapi.yaml documents it:
 *
 * - the columns are the list item's schema in openapi.yaml, in its declared property order, read
 *   here and nowhere else: a scalar is one column; an object with declared properties (a nested
 *   object, `primary_contact`) is flattened into `parent.child` columns (empty when it is null); an
 *   array or a free-form object (`tags`, `custom_data`) is one column holding its compact JSON;
 * - one header row, then one row per record, CRLF line ends, UTF-8 without a byte-order mark;
 * - RFC 4180 quoting: a cell holding a comma, a double quote, CR or LF is quoted, quotes doubled;
 * - CSV injection: a text cell starting with `=`, `+`, `-`, `@`, tab, CR or LF (or their full-width
 *   forms `＝ ＋ － ＠`) gets a leading apostrophe `'`, so a spreadsheet shows it as text and never runs
 *   it as a formula. Numbers and booleans are written as numbers and booleans (`-250.5` stays a number).
 */
type Node = Record<string, unknown>;

export interface CsvColumn {
  /** Header: the dotted path of the field. */
  name: string;
  path: string[];
  /** `json`: an array or free-form object written as its compact JSON. */
  json: boolean;
}

function resolve(spec: Node, node: unknown): Node {
  let n = node as Node;
  for (let hops = 0; typeof n?.$ref === 'string' && hops < 20; hops++) {
    n = (n.$ref as string).replace(/^#\//, '').split('/').reduce<unknown>((x, k) => (x as Node)?.[k], spec) as Node;
  }
  return n ?? {};
}

/** allOf merged; a oneOf/anyOf that is one schema or null is that schema; several shapes: undefined. */
function shapeOf(spec: Node, node: unknown): Node | undefined {
  const s = resolve(spec, node);
  if (Array.isArray(s.allOf)) {
    const properties: Node = {};
    for (const part of s.allOf) Object.assign(properties, shapeOf(spec, part)?.properties ?? {});
    return { ...s, type: 'object', properties: { ...properties, ...((s.properties as Node) ?? {}) } };
  }
  const alternatives = (s.oneOf ?? s.anyOf) as unknown[] | undefined;
  if (Array.isArray(alternatives)) {
    const real = alternatives.map((a) => resolve(spec, a)).filter((a) => a.type !== 'null');
    if (real.length === 1) return shapeOf(spec, real[0]);
    // Several object shapes (an event, by its type): the properties every shape has, in the first
    // shape's order; one that differs between shapes (an event's `data`) becomes a JSON column.
    const shapes = real.map((a) => shapeOf(spec, a));
    if (shapes.some((x) => !x?.properties)) return undefined;
    const properties: Node = {};
    for (const [k, v] of Object.entries(shapes[0]!.properties as Node)) {
      const all = shapes.map((x) => (x!.properties as Node)[k]);
      if (all.some((x) => x === undefined)) continue;
      const same = all.every((x) => JSON.stringify(resolve(spec, x)) === JSON.stringify(resolve(spec, v)));
      const scalar = all.every((x) => {
        const t = typesOf(resolve(spec, x));
        return t.length > 0 && !t.includes('object') && !t.includes('array');
      });
      properties[k] = same ? v : scalar ? { type: 'string' } : { type: 'object', additionalProperties: true };
    }
    return { type: 'object', properties };
  }
  return s;
}

function typesOf(s: Node): string[] {
  return Array.isArray(s.type) ? (s.type as string[]) : typeof s.type === 'string' ? [s.type] : [];
}

function columnsOf(spec: Node, schema: unknown, prefix: string[], depth: number): CsvColumn[] {
  const s = shapeOf(spec, schema);
  const props = s?.properties as Node | undefined;
  const types = s ? typesOf(s) : [];
  if (!s || types.includes('array') || !props || Object.keys(props).length === 0 || depth > 3) {
    const json = !s || types.includes('array') || types.includes('object') || !!props || !!s.additionalProperties;
    return [{ name: prefix.join('.'), path: prefix, json }];
  }
  return Object.entries(props).flatMap(([k, v]) => columnsOf(spec, v, [...prefix, k], depth + 1));
}

const cache = new WeakMap<Node, Map<string, CsvColumn[] | null>>();

/** The list item schema of an operation's 200 answer (`data.items`), or null when it is not a list. */
function itemSchema(spec: Node, path: string, method: string): unknown {
  const op = (spec.paths as Record<string, Record<string, Node>>)[path]?.[method];
  const content = resolve(spec, (op?.responses as Node | undefined)?.['200']).content as Record<string, Node> | undefined;
  if (!content?.['text/csv']) return null;
  const list = shapeOf(spec, content['application/json']?.schema);
  const data = shapeOf(spec, (list?.properties as Node | undefined)?.data);
  return data && typesOf(data).includes('array') ? data.items : null;
}

/** The CSV columns of a list operation (null when it does not offer text/csv). */
export function csvColumns(spec: Node, path: string, method: string): CsvColumn[] | null {
  let perSpec = cache.get(spec);
  if (!perSpec) cache.set(spec, (perSpec = new Map()));
  const key = `${method} ${path}`;
  if (!perSpec.has(key)) {
    const items = itemSchema(spec, path, method);
    perSpec.set(key, items ? columnsOf(spec, items, [], 0) : null);
  }
  return perSpec.get(key) ?? null;
}

const FORMULA_START = /^[=+\-@\t\r\n\uFF1D\uFF0B\uFF0D\uFF20]/;
const NEEDS_QUOTES = /[",\r\n]/;

/** One cell: neutralised when text could run as a formula, then quoted per RFC 4180 when needed. */
export function csvCell(value: unknown, json = false): string {
  let text: string;
  if (value === null || value === undefined) return '';
  if (json || (typeof value === 'object' && value !== null)) text = JSON.stringify(value);
  else if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  else {
    text = String(value);
    if (FORMULA_START.test(text)) text = `'${text}`;
  }
  return NEEDS_QUOTES.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

export function csvHeader(columns: CsvColumn[]): string {
  return columns.map((c) => csvCell(c.name)).join(',') + '\r\n';
}

export function csvRow(columns: CsvColumn[], record: unknown): string {
  return (
    columns
      .map((c) => {
        let v: unknown = record;
        for (const k of c.path) v = v === null || v === undefined ? undefined : (v as Node)[k];
        return csvCell(v, c.json);
      })
      .join(',') + '\r\n'
  );
}
