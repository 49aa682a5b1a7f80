export interface CodeSample {
  lang: 'Shell' | 'TypeScript' | 'Python';
  label: string;
  source: string;
}
export function samplesFor(spec: unknown, path: string, method: string): CodeSample[];
export function allSamples(spec: unknown): { operationId: string; path: string; method: string; samples: CodeSample[] }[];
export function withCodeSamples<T>(spec: T): T;
