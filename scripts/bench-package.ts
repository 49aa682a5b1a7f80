/**
 * `npx tsx scripts/bench-package.ts [--packages 50] [--statements 3] [--pages 4] [--scanned] [--concurrency 1] [--out FILE]`
 *
 * A benchmark, never a test: the time to build the submission packages for one deal sent to 50
 * lenders (the issue's "time to send 50 submissions with packages", package part), and the peak RSS.
 *
 * Each package is what one lender gets: the deal summary page plus `--statements` bank statements of
 * `--pages` pages each, every page stamped with that submission's own trace code. The statements are
 * made here once, like a bank's digital statement: Helvetica text, a raster logo, a header, ~45
 * transaction rows per page (about 25-30 KB each). `--scanned` makes each statement page a
 * 1275 x 1650 (150 dpi letter) greyscale scan instead (about 2 MB per statement), the heavy case.
 *
 * Every package is built from the documents' bytes, as the send job will (it parses each source PDF
 * again per package). `--concurrency N` builds N at a time on this one thread (what several jobs in
 * one worker process would do). Reports: total and per-package time (median, p95, max), packages
 * per second, package size, peak RSS (process max, from getrusage) and the RSS before the run.
 */
import { deflateSync } from 'node:zlib';
import { writeFileSync } from 'node:fs';
import { performance } from 'node:perf_hooks';
import { PDFDocument, StandardFonts, rgb } from 'pdf-lib';
import { buildSubmissionPackage, type SubmissionPackageInput } from '../src/features/submissions/package';
import { newTraceCode } from '../src/features/submissions/trace-code';
import { pngChunk, SAMPLE_BUSINESS, SAMPLE_DEAL } from '../contract-tests/support/package-sample';

function arg(name: string, fallback: number): number {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? Number(process.argv[i + 1]) : fallback;
}
const PACKAGES = arg('packages', 50);
const STATEMENTS = arg('statements', 3);
const PAGES = arg('pages', 4);
const CONCURRENCY = Math.max(1, arg('concurrency', 1));
const SCANNED = process.argv.includes('--scanned');
const OUT = process.argv.includes('--out') ? process.argv[process.argv.indexOf('--out') + 1] : null;

// --- inputs -----------------------------------------------------------------------------------

function png(width: number, height: number, colour: boolean, pixel: (x: number, y: number) => number): Uint8Array {
  const channels = colour ? 3 : 1;
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr[8] = 8;
  ihdr[9] = colour ? 2 : 0;
  const raw = Buffer.alloc((width * channels + 1) * height);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const v = pixel(x, y);
      const o = y * (width * channels + 1) + 1 + x * channels;
      for (let c = 0; c < channels; c++) raw[o + c] = colour ? (v >> (8 * (2 - c))) & 0xff : v;
    }
  }
  const sig = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
  return Buffer.concat([sig, pngChunk('IHDR', ihdr), pngChunk('IDAT', deflateSync(raw)), pngChunk('IEND', Buffer.alloc(0))]);
}

let seed = 42;
const rand = () => ((seed = (seed * 1103515245 + 12345) & 0x7fffffff) / 0x7fffffff);

async function digitalStatement(month: number): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  const font = await doc.embedFont(StandardFonts.Helvetica);
  const bold = await doc.embedFont(StandardFonts.HelveticaBold);
  const logo = await doc.embedPng(png(360, 90, true, (x, y) => ((x * 7 + y * 3) & 0xff) << 16 | ((y * 5) & 0xff) << 8 | (Math.floor(rand() * 40) + 180)));
  let balance = 48_210.55;
  for (let p = 0; p < PAGES; p++) {
    const page = doc.addPage([612, 792]);
    page.drawImage(logo, { x: 40, y: 722, width: 144, height: 36 });
    page.drawText('First Mountain Bank, N.A.', { x: 200, y: 745, size: 12, font: bold });
    page.drawText(`Business Checking Statement  ·  Account ****4417  ·  ${month}/01/2026 - ${month}/30/2026`, { x: 200, y: 730, size: 8, font });
    page.drawText(`Page ${p + 1} of ${PAGES}`, { x: 520, y: 40, size: 8, font });
    ['Date', 'Description', 'Debits', 'Credits', 'Balance'].forEach((h, k) => page.drawText(h, { x: [40, 90, 360, 430, 510][k], y: 690, size: 8, font: bold }));
    page.drawLine({ start: { x: 40, y: 684 }, end: { x: 572, y: 684 }, thickness: 0.5, color: rgb(0.6, 0.6, 0.6) });
    for (let r = 0; r < 45; r++) {
      const y = 670 - r * 13.5;
      const credit = rand() < 0.4;
      const amount = Math.round(rand() * 480_000) / 100;
      balance += credit ? amount : -amount;
      const desc = credit ? `CARD SETTLEMENT SQUARE INC ${Math.floor(rand() * 1e9)}` : `ACH DEBIT ${['SYSCO', 'XCEL ENERGY', 'ADP PAYROLL', 'US FOODS', 'COMCAST'][r % 5]} PPD ID ${Math.floor(rand() * 1e8)}`;
      page.drawText(`${month}/${String((r % 28) + 1).padStart(2, '0')}`, { x: 40, y, size: 8, font });
      page.drawText(desc, { x: 90, y, size: 8, font });
      page.drawText(amount.toFixed(2), { x: credit ? 430 : 360, y, size: 8, font });
      page.drawText(balance.toFixed(2), { x: 510, y, size: 8, font });
    }
  }
  return doc.save();
}

async function scannedStatement(): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  for (let p = 0; p < PAGES; p++) {
    // Paper grey with scanner noise and dark "text" bands: compresses like a real scan, poorly.
    const scan = await doc.embedPng(png(1275, 1650, false, (x, y) => ((y % 24 < 9 && x > 120 && x < 1150 && (x * 13 + y) % 7 < 4) ? 40 : 235) + Math.floor(rand() * 18)));
    doc.addPage([612, 792]).drawImage(scan, { x: 0, y: 0, width: 612, height: 792 });
  }
  return doc.save();
}

// --- run --------------------------------------------------------------------------------------

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
}

async function main() {
  const statements: Uint8Array[] = [];
  for (let s = 0; s < STATEMENTS; s++) statements.push(SCANNED ? await scannedStatement() : await digitalStatement(8 + s));
  const base: Omit<SubmissionPackageInput, 'traceCode' | 'lender'> = {
    generatedAt: new Date('2026-11-03T16:05:42Z'),
    location: { name: 'Summit Funding Partners' },
    business: SAMPLE_BUSINESS,
    deal: SAMPLE_DEAL,
    owners: [
      { full_name: 'Maria Lopez', role: 'owner', ownership_percent: 75 },
      { full_name: 'James Lopez', role: 'co-owner', ownership_percent: 25 },
    ],
    documents: statements.map((content, i) => ({ filename: `first-mountain-2026-${String(8 + i).padStart(2, '0')}.pdf`, content, category: 'bank_statement' })),
  };
  const inputKb = statements.reduce((n, s) => n + s.length, 0) / 1024;

  // One warm-up package (module and font setup, JIT), not counted.
  await buildSubmissionPackage({ ...base, traceCode: newTraceCode(), lender: { name: 'Warm-up' } });
  if (global.gc) global.gc();
  const rssBefore = process.memoryUsage().rss;

  const times: number[] = [];
  const sizes: number[] = [];
  let next = 0;
  let last: Uint8Array | null = null;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (next < PACKAGES) {
        const n = next++;
        const t0 = performance.now();
        const bytes = await buildSubmissionPackage({ ...base, traceCode: newTraceCode(), lender: { name: `Lender ${n + 1}` } });
        times.push(performance.now() - t0);
        sizes.push(bytes.length);
        last = bytes;
      }
    }),
  );
  const total = performance.now() - started;
  const peakRss = process.resourceUsage().maxRSS / 1024; // KB -> MB
  if (OUT && last) writeFileSync(OUT, last);

  const sorted = [...times].sort((a, b) => a - b);
  const mb = (n: number) => (n / 1024 / 1024).toFixed(1);
  const pages = 1 + STATEMENTS * PAGES;
  console.log(`submission packages: ${PACKAGES} x (summary + ${STATEMENTS} ${SCANNED ? 'scanned' : 'digital'} statements x ${PAGES} pages = ${pages} pages), concurrency ${CONCURRENCY}`);
  console.log(`  input documents: ${inputKb.toFixed(0)} KB per package; package size: ${(sizes[0] / 1024).toFixed(0)} KB`);
  console.log(`  total: ${(total / 1000).toFixed(2)} s for ${PACKAGES} packages (${(PACKAGES / (total / 1000)).toFixed(1)} packages/s)`);
  console.log(`  per package: median ${percentile(sorted, 50).toFixed(1)} ms, p95 ${percentile(sorted, 95).toFixed(1)} ms, max ${sorted[sorted.length - 1].toFixed(1)} ms`);
  console.log(`  RSS: ${mb(rssBefore)} MB before the run, peak ${peakRss.toFixed(1)} MB (process max); node ${process.version}`);
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
