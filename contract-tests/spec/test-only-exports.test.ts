// An export named `...ForTests` (src/db/prepared.ts `preparedForTests`) gathers in one place what a
// module offers its tests only: no other file under src/ may use it.
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT } from './helpers';

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? sources(join(dir, e.name)) : /\.(ts|mts|mjs)$/.test(e.name) ? [join(dir, e.name)] : []));
}

describe('test-only exports', () => {
  it('an export named ...ForTests is used by no other file under src/', () => {
    const files = sources(join(ROOT, 'src')).map((f) => ({ file: relative(ROOT, f), text: readFileSync(f, 'utf8') }));
    const exported = files.flatMap(({ file, text }) => [...text.matchAll(/^export (?:const|function) (\w+ForTests)\b/gm)].map((m) => ({ file, name: m[1] })));
    expect(exported.map((e) => e.name)).toContain('preparedForTests');
    const misuse = exported.flatMap(({ file, name }) => files.filter((f) => f.file !== file && new RegExp(`\\b${name}\\b`).test(f.text)).map((f) => `${f.file} uses ${name} (${file})`));
    expect(misuse).toEqual([]);
  });
});
