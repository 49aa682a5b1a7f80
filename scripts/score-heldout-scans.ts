// The HELD-OUT scanned set (contract-tests/support/scans.ts HELDOUT_SCAN_SET: statements of blind
// batches the text reader reads right, scanned at 150, 200 and 300 dpi like the scanned set) read by
// OCR and scored: figures right, statements fully right, any parsed with a wrong figure, time per
// page. Never tuned on: run once before and once after a change to the OCR, and report both.
//
//   STATEMENT_SCAN_PAGE_MS=120000 npx tsx scripts/score-heldout-scans.ts
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { analyzeStatementPdf } from '../src/features/statements/analyze';
import * as extract from '../src/features/statements/extract';
import { HELDOUT_SCAN_SET, makeScanSet } from '../contract-tests/support/scans';
import { formatScore, scoreCorpus } from '../contract-tests/support/statement-score';

const dir = mkdtempSync(join(tmpdir(), 'heldout-scans-'));
try {
  const { files, truth } = await makeScanSet(undefined, undefined, HELDOUT_SCAN_SET);
  for (const [name, bytes] of files) writeFileSync(join(dir, name), bytes);
  writeFileSync(join(dir, 'truth.json'), JSON.stringify(truth));
  // The reader process's peak resident size after each scan (a warm reader keeps tesseract loaded).
  const peaks: number[] = [];
  const score = await scoreCorpus(dir, async (b) => {
    const r = await analyzeStatementPdf(b);
    peaks.push(extract.lastPeakRssMb);
    return r;
  });
  console.log(formatScore('held-out scanned set (OCR)', score));
  const all = score.statements.flatMap((x) => x.result.ocr ?? []);
  const pages = score.statements.reduce((n, x) => n + (x.result.pages ?? 1), 0);
  const sum = (k: 'ms' | 'cpuMs') => all.reduce((n, p) => n + p[k], 0);
  console.log(`per page (every reading): ${(sum('cpuMs') / pages / 1000).toFixed(1)} s CPU, ${(sum('ms') / pages / 1000).toFixed(1)} s wall over ${pages} pages; load average ${loadavg().map((x) => x.toFixed(1)).join(' ')} on ${cpus().length} cores; reader peak RSS per scan ${peaks.join(', ')} MB`);
  for (const s of score.statements) console.log(`  ${s.file}: ${s.result.ok ? (s.wrong.length ? `WRONG ${JSON.stringify(s.wrong)}` : 'fully right') : `${s.result.code}: ${s.result.reason}`}`);
} finally {
  rmSync(dir, { recursive: true, force: true });
}
process.exit(0);
