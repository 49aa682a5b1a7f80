import { createRequire } from 'node:module';
import type { ErrorObject, ValidateFunction } from 'ajv';
import { loadSpec } from '../../../http/spec';

// A body the app builds from a form is checked against the same openapi.yaml schema the /v1
// validator checks (bounds, enums, lengths), so the app has no second set of rules: the service
// then applies the rest, as it does for /v1.

const require = createRequire(import.meta.url);
const compiled = new Map<string, ValidateFunction>();
let ajv: { addSchema(s: object, key: string): void; compile(s: object): ValidateFunction } | null = null;

function validatorOf(schemaName: string): ValidateFunction {
  let v = compiled.get(schemaName);
  if (v) return v;
  if (!ajv) {
    const Ajv = (require('ajv') as { default: new (o: object) => NonNullable<typeof ajv> }).default;
    const addFormats = (require('ajv-formats') as { default: (a: unknown) => void }).default;
    ajv = new Ajv({ strict: false, allErrors: true, validateFormats: true });
    addFormats(ajv);
    ajv.addSchema(loadSpec(), 'openapi');
  }
  v = ajv.compile({ $ref: `openapi#/components/schemas/${schemaName}` });
  compiled.set(schemaName, v);
  return v;
}

function sentence(e: ErrorObject, labels: Record<string, string>): string {
  const field = e.instancePath.split('/').filter((p) => p && !/^\d+$/.test(p)).pop() ?? '';
  const label = labels[field] ?? (field.replace(/_/g, ' ') || 'The answer');
  const p = e.params as Record<string, unknown>;
  switch (e.keyword) {
    case 'minimum': return `${label} must be at least ${p.limit}.`;
    case 'maximum': return `${label} must be at most ${p.limit}.`;
    case 'exclusiveMinimum': return `${label} must be more than ${p.limit}.`;
    case 'exclusiveMaximum': return `${label} must be less than ${p.limit}.`;
    case 'maxLength': return `${label} is too long (at most ${p.limit} characters).`;
    case 'minLength': return `${label} must not be empty.`;
    case 'maxItems': return `${label}: at most ${p.limit}.`;
    case 'type': return p.type === 'integer' ? `${label} must be a whole number.` : `${label} must be a number.`;
    case 'enum': return `${label} is not one of the choices.`;
    case 'pattern': return `${label} may use only lower-case letters, digits and underscores.`;
    default: return `${label} is not valid.`;
  }
}

/** The first problem of `body` under the contract's schema, as a sentence, or null when it is valid. */
export function contractProblem(schemaName: string, body: unknown, labels: Record<string, string> = {}): string | null {
  const v = validatorOf(schemaName);
  if (v(body)) return null;
  return sentence((v.errors ?? [])[0]!, labels);
}

/** Every problem of `body` under the contract's schema (ajv's errors, all of them); empty when valid. */
export function contractErrors(schemaName: string, body: unknown): ErrorObject[] {
  const v = validatorOf(schemaName);
  return v(body) ? [] : [...(v.errors ?? [])];
}
