/** Builds the reference (openapi.yaml with code samples) into `out` (default docs-site/index.html). */
export function buildDocs(out?: string): string;
/** The guides of info.description as pages of their own: trait tags in a "Guides" tag group. */
export function withGuideTags<T extends Record<string, any>>(spec: T): T & { tags: { name: string; description: string; 'x-traitTag'?: boolean }[]; 'x-tagGroups': { name: string; tags: string[] }[] };
/** The inline script that lands old `#section/...`, `#tag/...` and `#operation/...` links. */
export function sectionLinkScript(spec: Record<string, any>): string;
/** The built page, finished: CSS, the old-link script, no remote badge. */
export function finishPage(html: string, spec: Record<string, any>): string;
