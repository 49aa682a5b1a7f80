import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, renameSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import { CACHE_DIR } from './spec';

/**
 * What express-openapi-validator does once at start, made cheaper without changing what it builds
 * (the request validators, their schemas and their errors are the same objects and code as before):
 *
 * 1. Its SchemaPreprocessor looks up every `$ref` it meets in the operations (request bodies,
 *    responses, parameters) by asking an Ajv instance of its own for the schema registered under
 *    that key (`ajv.getSchema(ref).schema`). getSchema compiles the schema to hand back its
 *    validator, so every component schema an operation's answer names was compiled once only to
 *    read back the object it was registered with: about 40% of the start's CPU, and compiled code
 *    never run in the heap at the peak. That Ajv registers exactly `components.schemas[name]` under
 *    `#/components/schemas/{name}`, as the document held it when preProcess began; the same object
 *    is read here from a copy of that table taken then. Any other reference goes on to the
 *    validator's own lookup unchanged (which, for a key Ajv does not hold, reads the document).
 * 2. It runs `$RefParser.bundle` on the document it is given (~0.2 s of CPU) and validates the result
 *    against the OpenAPI schema (~0.2 s, most of it compiling that schema). Both depend only on the
 *    document and the library's version, so each is done once per distinct document and
 *    remembered in the contract's cache folder (spec.ts) by a hash of its JSON: bundling is skipped
 *    only for a document that bundling was seen to leave exactly as it was, and the OpenAPI schema
 *    check only for a document it passed. Another contract text, or another version of the
 *    validator, is another key, so it runs again; a read-only install runs both every time.
 */
const require = createRequire(import.meta.url);
const eovVersion = (require('express-openapi-validator/package.json') as { version: string }).version;
const preprocessor = require('express-openapi-validator/dist/middlewares/parsers/schema.preprocessor') as {
  SchemaPreprocessor: { prototype: { preProcess: (this: Preprocessor) => unknown; resolveSchema: (this: Preprocessor, schema: unknown) => unknown } };
  __lookupOnly?: boolean;
};
const framework = require('express-openapi-validator/dist/framework/index') as {
  OpenAPIFramework: { prototype: { loadSpec: (this: unknown, doc: unknown, refParser?: unknown) => Promise<unknown> | unknown } };
  __remembered?: boolean;
};
type SchemaValidator = new (opts: { version: string; validateApiSpec: boolean }) => { validate(doc: unknown): { errors: unknown[] } };
const schemaValidator = require('express-openapi-validator/dist/framework/openapi.schema.validator') as { OpenAPISchemaValidator: SchemaValidator };

interface Preprocessor {
  apiDoc: { components?: { schemas?: Record<string, unknown> } };
  resolvedSchemaCache: Map<string, unknown>;
  /** The components.schemas table as Ajv registered it (before preProcess replaces aliases in it). */
  __registered?: Map<string, unknown>;
}

const PREFIX = '#/components/schemas/';

if (!preprocessor.__lookupOnly) {
  const proto = preprocessor.SchemaPreprocessor.prototype;
  const preProcess = proto.preProcess;
  const resolveSchema = proto.resolveSchema;
  proto.preProcess = function (this: Preprocessor) {
    this.__registered = new Map(Object.entries(this.apiDoc.components?.schemas ?? {}));
    return preProcess.call(this);
  };
  proto.resolveSchema = function (this: Preprocessor, schema: unknown) {
    const ref = (schema as { $ref?: unknown } | null | undefined)?.$ref;
    if (typeof ref === 'string' && ref.startsWith(PREFIX) && !this.resolvedSchemaCache.has(ref)) {
      const registered = this.__registered?.get(ref.slice(PREFIX.length));
      if (registered !== undefined) {
        this.resolvedSchemaCache.set(ref, registered);
        return registered;
      }
    }
    return resolveSchema.call(this, schema);
  };
  preprocessor.__lookupOnly = true;
}

/** The key of a document: its JSON and the validator's version. */
function keyOf(doc: unknown): string {
  return createHash('sha256').update(eovVersion).update('\0').update(JSON.stringify(doc)).digest('hex').slice(0, 32);
}
const marker = (what: 'bundled-as-is' | 'openapi-valid', key: string) => join(CACHE_DIR, `${what}-${key}`);
function remember(file: string): void {
  try {
    mkdirSync(CACHE_DIR, { recursive: true });
    const tmp = `${file}.${process.pid}.tmp`;
    writeFileSync(tmp, '');
    renameSync(tmp, file);
  } catch {
    // a read-only install: checked again at the next start
  }
}

if (!framework.__remembered) {
  const proto = framework.OpenAPIFramework.prototype;
  const loadSpec = proto.loadSpec;
  /** The key of each document handed to the validator, for its OpenAPI schema check. */
  const keys = new WeakMap<object, string>();
  proto.loadSpec = async function (this: unknown, doc: unknown, refParser?: unknown) {
    const mode = (refParser as { mode?: string } | undefined)?.mode ?? 'bundle';
    if (typeof doc !== 'object' || doc === null || mode !== 'bundle') return loadSpec.call(this, doc, refParser);
    const key = keyOf(doc);
    if (existsSync(marker('bundled-as-is', key))) {
      keys.set(doc, key);
      return doc;
    }
    const before = structuredClone(doc);
    const bundled = await loadSpec.call(this, doc, refParser);
    if (isDeepStrictEqual(bundled, before)) {
      remember(marker('bundled-as-is', key));
      keys.set(bundled as object, key);
    }
    return bundled;
  };

  const Original = schemaValidator.OpenAPISchemaValidator;
  /** The OpenAPI schema is compiled only when a document not seen to pass is checked. */
  class RememberingSchemaValidator {
    constructor(private readonly opts: { version: string; validateApiSpec: boolean }) {}
    validate(doc: unknown): { errors: unknown[] } {
      const key = typeof doc === 'object' && doc !== null ? (keys.get(doc) ?? keyOf(doc)) : undefined;
      if (key && existsSync(marker('openapi-valid', key))) return { errors: [] };
      const result = new Original(this.opts).validate(doc);
      if (key && result.errors.length === 0) remember(marker('openapi-valid', key));
      return result;
    }
  }
  // The framework reads the class off this module at each start (`new module.OpenAPISchemaValidator`).
  schemaValidator.OpenAPISchemaValidator = RememberingSchemaValidator as unknown as SchemaValidator;
  framework.__remembered = true;
}
