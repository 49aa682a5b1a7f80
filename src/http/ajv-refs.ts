import { createRequire } from 'node:module';

/**
 * express-openapi-validator compiles each operation's request validator as a schema that carries the
 * whole contract (`paths` and `components`) so that its `$ref`s resolve, and ajv walks every schema
 * it adds, all of it, looking for `$id` and `$anchor` (getSchemaRefs): the 700 KB contract walked
 * twice per operation, about a third of the start-up's CPU. The contract has neither keyword, so
 * those two parts yield nothing on every walk. Here they are walked once per object (any key named
 * `$id`, `$anchor`, `$dynamicAnchor` or the instance's schemaId anywhere in them, even as a property
 * name, and they are walked as before, every time); the rest of each schema is walked as before.
 * The result is the same: the same local references, the same registrations, the same errors.
 */
const require = createRequire(import.meta.url);
type GetSchemaRefs = (this: { opts: { schemaId?: string } }, schema: unknown, baseId?: string) => Record<string, unknown>;
const lib = require('ajv/dist/compile/resolve') as { getSchemaRefs: GetSchemaRefs; __sharedParts?: boolean };

const SHARED = ['paths', 'components'] as const;

function holdsNoId(node: unknown, keys: Set<string>, seen: Set<object>): boolean {
  if (node === null || typeof node !== 'object' || seen.has(node)) return true;
  seen.add(node);
  if (Array.isArray(node)) return node.every((v) => holdsNoId(v, keys, seen));
  for (const k of Object.keys(node)) {
    if (keys.has(k)) return false;
    if (!holdsNoId((node as Record<string, unknown>)[k], keys, seen)) return false;
  }
  return true;
}

if (!lib.__sharedParts) {
  const original = lib.getSchemaRefs;
  /** Objects walked once and found free of identifiers, per schemaId keyword. */
  const idFree = new Map<string, WeakSet<object>>();
  lib.getSchemaRefs = function getSchemaRefs(schema, baseId) {
    if (!schema || typeof schema !== 'object' || Array.isArray(schema)) return original.call(this, schema, baseId);
    const s = schema as Record<string, unknown>;
    const shared = SHARED.filter((k) => s[k] && typeof s[k] === 'object');
    if (!shared.length) return original.call(this, schema, baseId);
    const schemaId = this.opts.schemaId ?? '$id';
    let known = idFree.get(schemaId);
    if (!known) idFree.set(schemaId, (known = new WeakSet()));
    const keys = new Set(['$id', '$anchor', '$dynamicAnchor', schemaId]);
    for (const k of shared) {
      const part = s[k] as object;
      if (known.has(part)) continue;
      if (!holdsNoId(part, keys, new Set())) return original.call(this, schema, baseId);
      known.add(part);
    }
    const rest = { ...s };
    for (const k of shared) delete rest[k];
    return original.call(this, rest, baseId);
  };
  lib.__sharedParts = true;
}
