import { createRequire } from 'node:module';

/**
 * express-openapi-validator finds a request's operation by compiling every path template of the
 * contract with path-to-regexp, on every request, until one matches (46 paths: ~20% of the
 * pipeline's CPU under load). The compiled form depends only on the template and two options, so
 * it is memoised here, once per process, on the module instance the validator uses. Pure: the
 * validator only reads `regexp` (no `g` flag, so no state) and `keys`.
 */
const require = createRequire(import.meta.url);
const lib = require('path-to-regexp') as { pathToRegexp: (path: string, opts?: Record<string, unknown>) => unknown; __memoised?: boolean };

if (!lib.__memoised) {
  const compile = lib.pathToRegexp;
  const cache = new Map<string, unknown>();
  lib.pathToRegexp = (path: string, opts?: Record<string, unknown>) => {
    if (typeof path !== 'string') return compile(path, opts);
    const key = `${path}\u0000${JSON.stringify(opts ?? {})}`;
    let hit = cache.get(key);
    if (hit === undefined) {
      hit = compile(path, opts);
      if (cache.size < 10_000) cache.set(key, hit);
    }
    return hit;
  };
  lib.__memoised = true;
}
