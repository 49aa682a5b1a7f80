import { createRequire } from 'node:module';

/**
 * Ajv's schema compilations in this process, counted where express-openapi-validator reaches them
 * (the `ajv` copy it resolves): it compiles a validator per operation, and keeps one per distinct
 * Content-Type string it is shown. `count()` is the number since the call; `restore()` puts Ajv back.
 */
export function countSchemaCompilations(): { count(): number; restore(): void } {
  const require = createRequire(createRequire(import.meta.url).resolve('express-openapi-validator'));
  const AjvCore = (require('ajv/dist/core') as { default: { prototype: { addSchema: (...a: unknown[]) => unknown } } }).default;
  const original = AjvCore.prototype.addSchema;
  let added = 0;
  AjvCore.prototype.addSchema = function (this: unknown, ...a: unknown[]) {
    added++;
    return original.apply(this, a);
  };
  return { count: () => added, restore: () => void (AjvCore.prototype.addSchema = original) };
}
