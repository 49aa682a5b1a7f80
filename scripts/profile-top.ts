/** `npx tsx scripts/profile-top.ts file.cpuprofile [N]`: self time by function and by package, top N. */
import { readFileSync } from 'node:fs';

interface Node { id: number; callFrame: { functionName: string; url: string; lineNumber: number }; hitCount?: number; children?: number[] }
const prof = JSON.parse(readFileSync(process.argv[2], 'utf8')) as { nodes: Node[]; samples: number[]; timeDeltas: number[] };
const top = Number(process.argv[3] ?? 25);
const self = new Map<number, number>();
prof.samples.forEach((id, i) => self.set(id, (self.get(id) ?? 0) + (prof.timeDeltas[i] ?? 0)));
const total = [...self.values()].reduce((a, b) => a + b, 0);
const byFn = new Map<string, number>();
const byPkg = new Map<string, number>();
for (const n of prof.nodes) {
  const t = self.get(n.id) ?? 0;
  const url = n.callFrame.url.replace(/^file:\/\//, '');
  const pkg = /node_modules\/((@[^/]+\/)?[^/]+)/.exec(url)?.[1] ?? (url.includes('/src/') ? 'src' : url ? 'node' : `(${n.callFrame.functionName || 'program'})`);
  const fn = `${n.callFrame.functionName || '(anonymous)'} ${url.split('/').slice(-2).join('/')}:${n.callFrame.lineNumber}`;
  byFn.set(fn, (byFn.get(fn) ?? 0) + t);
  byPkg.set(pkg, (byPkg.get(pkg) ?? 0) + t);
}
const show = (m: Map<string, number>) => [...m].sort((a, b) => b[1] - a[1]).slice(0, top).map(([k, v]) => `${((100 * v) / total).toFixed(1).padStart(5)}%  ${k}`).join('\n');
process.stdout.write(`by package\n${show(byPkg)}\n\nby function (self)\n${show(byFn)}\n`);

// Inclusive time of our own functions (src/): where the pipeline's time goes, callees included.
const byId = new Map(prof.nodes.map((n) => [n.id, n]));
const inclusive = new Map<number, number>();
const incl = (id: number): number => {
  const cached = inclusive.get(id);
  if (cached !== undefined) return cached;
  const n = byId.get(id)!;
  const t = (self.get(id) ?? 0) + (n.children ?? []).reduce((a, c) => a + incl(c), 0);
  inclusive.set(id, t);
  return t;
};
const ours = new Map<string, number>();
for (const n of prof.nodes) {
  if (!n.callFrame.url.includes('/src/') || n.callFrame.url.includes('node_modules')) continue;
  const fn = `${n.callFrame.functionName || '(anonymous)'} ${n.callFrame.url.split('/').slice(-2).join('/')}:${n.callFrame.lineNumber}`;
  ours.set(fn, (ours.get(fn) ?? 0) + incl(n.id));
}
process.stdout.write(`\nour functions (inclusive; nested calls counted in each)\n${show(ours)}\n`);
