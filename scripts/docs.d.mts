/** Builds the reference (openapi.yaml with code samples) into `out` (default docs-site/index.html). */
export function buildDocs(out?: string): string;
