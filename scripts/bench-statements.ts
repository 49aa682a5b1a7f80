// Statement analysis on the dev corpus (contract-tests/fixtures/statements/, truth.json: statements
// parsed and fully right, accuracy per figure, any statement parsed with a wrong figure) and on the
// synthetic fixtures (contract-tests/support/statement-fixtures.ts), and analysis time per
// statement and per page (the whole path: reader process, pdf.js text extraction, reading,
// reconciliation, figures), sequentially and with the worker's usual concurrency. Then the SCANNED
// set (contract-tests/support/scans.ts: dev-corpus statements rendered at 150, 200 and 300 dpi, some
// turned and noisy, as image-only PDFs) read by OCR: figures right, none parsed wrong, and time per
// page (wall and CPU of the reader process) at each resolution.
//
//   npm run bench:statements [-- --rounds 5] [-- --dir contract-tests/fixtures/statements] [-- --scans-only]
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { build } from 'esbuild';
import { makeScanSet, SCAN_SET, scanName } from '../contract-tests/support/scans';
import { statementFixtures, type Expected } from '../contract-tests/support/statement-fixtures';
import { formatScore, scoreCorpus } from '../contract-tests/support/statement-score';

// The module is timed as it runs in production: bundled to plain JavaScript with its reader beside
// it (as scripts/build.mjs does), so no TypeScript loader runs in the reader processes.
const out = join(process.cwd(), '.bench-statements');
await build({
  entryPoints: { analyze: 'src/features/statements/analyze.ts', 'pdf-text.child': 'src/features/statements/pdf-text.child.mjs' },
  outdir: out, outExtension: { '.js': '.mjs' }, bundle: true, packages: 'external', platform: 'node', format: 'esm', target: 'node20', logLevel: 'warning',
});
const { analyzeStatementPdf } = (await import(pathToFileURL(join(out, 'analyze.mjs')).href)) as typeof import('../src/features/statements/analyze');
process.on('exit', () => rmSync(out, { recursive: true, force: true }));

const { values } = parseArgs({ options: { rounds: { type: 'string', default: '5' }, dir: { type: 'string', default: 'contract-tests/fixtures/statements' }, 'scans-only': { type: 'boolean', default: false } } });
const rounds = Number(values.rounds);

/** The scanned set read by OCR: score, and time per page by resolution. */
async function benchScans(): Promise<void> {
  const scans = mkdtempSync(join(tmpdir(), 'scans-'));
  try {
    const { files, truth } = await makeScanSet();
    for (const [name, bytes] of files) writeFileSync(join(scans, name), bytes);
    writeFileSync(join(scans, 'truth.json'), JSON.stringify(truth));
    const score = await scoreCorpus(scans, (b) => analyzeStatementPdf(b));
    console.log(formatScore('scanned set (OCR)', score));
    const parsedFigures = score.statements.filter((x) => x.result.ok).reduce((n, x) => n + x.figuresExpected, 0);
    const parsedRight = score.statements.filter((x) => x.result.ok).reduce((n, x) => n + x.right.length, 0);
    console.log(`Of the statements parsed from scans, figures right: ${parsedRight}/${parsedFigures}`);
    // The machine is shared: CPU time of the reader process is the measure that load does not
    // inflate (wall time is CPU time when the machine is idle: OCR runs on one core). Under load,
    // run with STATEMENT_SCAN_PAGE_MS=120000 (as the tests do) or scans fail `timeout`, not read.
    const all = score.statements.flatMap((x) => x.result.ocr ?? []);
    const setPages = score.statements.reduce((n, x) => n + (x.result.pages ?? 1), 0);
    const sum = (k: 'ms' | 'cpuMs') => all.reduce((n, p) => n + p[k], 0);
    console.log(`  per page of the set (every reading, a second reading of a scan included): ${(sum('cpuMs') / setPages / 1000).toFixed(1)} s CPU, ${(sum('ms') / setPages / 1000).toFixed(1)} s wall; load average ${loadavg().map((x) => x.toFixed(1)).join(' ')} on ${cpus().length} cores; scan page limit ${process.env.STATEMENT_SCAN_PAGE_MS ?? 'default'} ms`);
    const colds = all.filter((p) => (p as { coldCpuMs?: number }).coldCpuMs);
    console.log(`  recognizer started (worker created, model loaded) ${colds.length} times for ${score.statements.length} statements: ${(colds.reduce((n, p) => n + ((p as { coldCpuMs?: number }).coldCpuMs ?? 0), 0) / 1000).toFixed(1)} s CPU of ${(sum('cpuMs') / 1000).toFixed(1)} s`);
    for (const dpi of [...new Set(SCAN_SET.map((x) => x.o.dpi))]) {
      const pages = score.statements.filter((x) => SCAN_SET.some((y) => y.o.dpi === dpi && scanName(y) === x.file)).flatMap((x) => x.result.ocr ?? []);
      const med = (xs: number[]) => [...xs].sort((a, b) => a - b)[xs.length >> 1] ?? 0;
      console.log(`  ${dpi} dpi: ${pages.length} pages, per page median ${(med(pages.map((p) => p.ms)) / 1000).toFixed(1)} s wall (${(med(pages.map((p) => p.cpuMs)) / 1000).toFixed(1)} s CPU of the reader process, of which cleaning ${(med(pages.map((p) => p.prepCpuMs)) / 1000).toFixed(1)} s and second readings of doubtful amounts ${(med(pages.map((p) => p.rereadCpuMs)) / 1000).toFixed(1)} s; wall: cleaning ${(med(pages.map((p) => p.prepMs)) / 1000).toFixed(1)} s, recognition ${(med(pages.map((p) => p.ocrMs)) / 1000).toFixed(1)} s), max ${(Math.max(...pages.map((p) => p.ms)) / 1000).toFixed(1)} s`);
    }
  } finally {
    rmSync(scans, { recursive: true, force: true });
  }
}
/** The trade's rule table (rules.ts, knowledge.json) on 10,000 descriptions: every row of a statement is classified. */
async function benchRules() {
  const { depositKind, isNsf, isRecovery, mcaFunder } = await import('../src/features/statements/rules');
  const words = ['ACH DEBIT', 'POS PURCHASE', 'DEPOSIT', 'ONLINE TRANSFER FROM SAV', 'CHECK', 'WIRE OUT'];
  const descs = Array.from({ length: 10_000 }, (_, i) => `${words[i % words.length]} MERCHANT ${i} XXXXXX${1000 + (i % 9000)}`);
  const t = performance.now();
  for (const d of descs) {
    depositKind(d);
    isNsf(d);
    isRecovery(d);
    mcaFunder(d);
  }
  console.log(`Rule table: 10,000 descriptions classified in ${(performance.now() - t).toFixed(0)} ms (target: well under 1,000 ms)`);
}
if (values['scans-only']) {
  await benchScans();
  process.exit(0);
}
if (existsSync(join(values.dir, 'truth.json'))) {
  const score = await scoreCorpus(values.dir, (b) => analyzeStatementPdf(b));
  console.log(formatScore(values.dir, score));
} else console.log(`\n(no dev corpus at ${values.dir})`);
const fixtures = await statementFixtures();
const FIGURES = Object.keys(fixtures[0].expected) as (keyof Expected)[];

console.log(`\n${fixtures.length} statements, ${fixtures.reduce((n, f) => n + f.pages, 0)} pages, layouts: ${[...new Set(fixtures.map((f) => f.layout))].join(', ')}\n`);
const right = Object.fromEntries(FIGURES.map((k) => [k, 0])) as Record<keyof Expected, number>;
const maxError = Object.fromEntries(FIGURES.map((k) => [k, 0])) as Record<keyof Expected, number>;
let parsed = 0;
for (const f of fixtures) {
  const r = await analyzeStatementPdf(f.bytes);
  if (!r.ok) {
    console.log(`  ${f.name}: FAILED ${r.code} (${r.reason})`);
    continue;
  }
  parsed++;
  const wrong: string[] = [];
  for (const k of FIGURES) {
    const got = (r.figures as unknown as Record<string, unknown>)[k];
    const want = f.expected[k];
    if (got === want) right[k]++;
    else wrong.push(`${k}: ${String(got)} != ${String(want)}`);
    if (typeof want === 'number' && typeof got === 'number') maxError[k] = Math.max(maxError[k], Math.abs(got - want));
  }
  console.log(`  ${f.name.padEnd(22)} ${f.layout.padEnd(14)} ${String(f.pages).padStart(2)} page(s)  ${wrong.length ? wrong.join('; ') : 'all figures exact'}`);
}
console.log(`\nAccuracy per figure (exact, over ${fixtures.length} statements; ${parsed} parsed):`);
for (const k of FIGURES) console.log(`  ${k.padEnd(24)} ${right[k]}/${fixtures.length}${typeof fixtures[0].expected[k] === 'number' ? `   max abs error ${maxError[k]}` : ''}`);

const pct = (xs: number[], p: number) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor((p / 100) * xs.length))];
const perPage: number[] = [];
const perDoc: number[] = [];
const t0 = performance.now();
for (let i = 0; i < rounds; i++) {
  for (const f of fixtures) {
    const s = performance.now();
    await analyzeStatementPdf(f.bytes);
    const ms = performance.now() - s;
    perDoc.push(ms);
    perPage.push(ms / f.pages);
  }
}
const seqMs = performance.now() - t0;
const pages = rounds * fixtures.reduce((n, f) => n + f.pages, 0);
console.log(`\nSequential, ${rounds} rounds: per statement median ${pct(perDoc, 50).toFixed(0)} ms, p95 ${pct(perDoc, 95).toFixed(0)} ms; per page median ${pct(perPage, 50).toFixed(0)} ms, p95 ${pct(perPage, 95).toFixed(0)} ms; ${(pages / (seqMs / 1000)).toFixed(1)} pages/s`);
const t1 = performance.now();
await Promise.all(Array.from({ length: 4 }, async () => {
  for (let i = 0; i < rounds; i++) for (const f of fixtures) await analyzeStatementPdf(f.bytes);
}));
const parMs = performance.now() - t1;
console.log(`4 at once: ${((4 * pages) / (parMs / 1000)).toFixed(1)} pages/s (${(parMs / (4 * pages)).toFixed(0)} ms of wall time per page)\n`);
await benchRules();
await benchScans();
process.exit(0);
