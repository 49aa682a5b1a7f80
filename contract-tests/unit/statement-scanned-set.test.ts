import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { analyzeStatementPdf } from '../../src/features/statements/analyze';
import { makeScanSet, SCAN_SET, scanName } from '../support/scans';
import { formatScore, scoreCorpus, type CorpusScore } from '../support/statement-score';

// The scanned set (contract-tests/support/scans.ts: dev-corpus statements rendered at 150, 200 and
// 300 dpi, turned, noisy, JPEG-compressed, as image-only PDFs) read by OCR end to end, scored
// against the truth of their sources: no statement ever parsed with a wrong figure (a scan that
// cannot be read exactly fails `unreadable_scan`). Slow (OCR of every page, about 5.5 CPU-minutes for
// the whole set): `npm test` reads three of them with their exact outcomes (a 200 dpi JPEG of a layout
// with page subtotals read right; the noisy 150 dpi JPEG of empire-city, read right since 2026-11-28
// only through what its printed figures prove and its second reading's dates (it was the refused case
// here); and the 300 dpi scan of a statement that does not add up, refused: 9 pages with the second
// readings); statement-ocr.test.ts reads 300, 200 and 150 dpi scans and a refused one (a date
// scribbled over; the statement that does not add up is checked here, from this reading); SCANNED_SET=all reads all, held to MIN_FIGURES (`npm run bench:statements` prints the same
// score with time per page). A scan's reading does not depend on the machine's load
// (120 s a page in the tests, vitest.config.ts), so each outcome is exact.
const ALL = process.env.SCANNED_SET === 'all';
const SUBSET: Record<string, 'right' | 'unreadable_scan'> = {
  'harborline-coastline-outfitters-2026-03.pdf': 'right',
  'empire-city-brooklyn-bagel-2025-06.pdf': 'right',
  'negative-lantern-mismatch-2025-10.pdf': 'unreadable_scan',
};

/**
 * Share of the set's figures read exactly right, at least. Issue 27's bar is 95%; measured on
 * 2026-11-27: 9 of 12 statements (75%), then 10 of 12 (120/144, 83.3%; the allegan 200 dpi JPEG read
 * right: a speck read as a dash after a deposit's description no longer makes it a debit), then 11 of
 * 12 (132/144, 91.7%; capstone's 150 dpi scan read right: specks read as "To" between two amounts
 * dropped, a minus read as "--" glued to its amount, a faint minus over a speck left to the
 * reconciliation). Still refused: empire-city's noisy 150 dpi JPEG (its dates are now recovered; digits
 * misread). 2026-11-28: the same 132/144 (none wrong) after a line's baseline is taken from its words' ink
 * when a speck pulled the recognizer's down (empire-city's "Credits" header is on its row again on
 * both pages; the scan is still refused: in each reading several amounts are misread, e.g. a digit,
 * a comma for a point, a speck read as a minus), and without tesseract's word lists. The floor is what
 * is reached, not the bar. 2026-11-28, later: 12 of 12 (144/144, 100%, none wrong): empire-city read
 * right by what its printed figures prove (src/features/statements/scan-proof.ts): "269,00", "2,330 05"
 * and "7.49501" as the one amount each can be (chosen only as the one reading that reconciles), an
 * unreadable "1,111.11?" as its first reading (likewise), the misread balances "7,872.58",
 * "8,105.07 -" and "-6,709.07" corrected by the rows on both sides of each, and one date its first
 * reading left unread taken from the one-block reading of the same line, read word for word alike.
 */
const MIN_FIGURES = 1;

let dir: string;
let score: CorpusScore;
beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'scanned-set-'));
  const { files, truth } = await makeScanSet(undefined, ALL ? undefined : (x) => x.source in SUBSET);
  for (const [name, bytes] of files) writeFileSync(join(dir, name), bytes);
  writeFileSync(join(dir, 'truth.json'), JSON.stringify(truth));
  score = await scoreCorpus(dir, (b) => analyzeStatementPdf(b));
  console.log(formatScore('scanned set (OCR)', score));
  // Time per page, of every reading (a second reading of a scan counts as pages too).
  const pages = score.statements.flatMap((x) => x.result.ocr ?? []);
  const med = (xs: number[]) => [...xs].sort((a, b) => a - b)[xs.length >> 1] ?? 0;
  const perPage = (k: 'ms' | 'cpuMs') => score.statements.reduce((n, x) => n + (x.result.ocr ?? []).reduce((m, p) => m + p[k], 0), 0) / score.statements.reduce((n, x) => n + (x.result.pages ?? 1), 0) / 1000;
  console.log(`OCR per page: median ${(med(pages.map((p) => p.cpuMs)) / 1000).toFixed(1)} CPU-s, ${(med(pages.map((p) => p.ms)) / 1000).toFixed(1)} wall-s per reading; per page of the set (all readings) ${perPage('cpuMs').toFixed(1)} CPU-s, ${perPage('ms').toFixed(1)} wall-s`);
}, 1_200_000);
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('the scanned set is read by OCR', () => {
  it.runIf(ALL)(`at least ${MIN_FIGURES * 100}% of its figures exactly right`, () => {
    expect(score.figuresRight / score.figuresTotal).toBeGreaterThanOrEqual(MIN_FIGURES);
  });

  it.runIf(!ALL)('three scans, each with its exact outcome: read fully right, or unreadable_scan', () => {
    expect(score.statements.length).toBe(Object.keys(SUBSET).length);
    for (const st of score.statements) {
      const source = Object.keys(SUBSET).find((k) => st.file.startsWith(k.replace(/\.pdf$/, '')))!;
      if (SUBSET[source] === 'right') expect({ ok: st.result.ok, wrong: st.wrong }, st.file).toEqual({ ok: true, wrong: [] });
      else expect(st.result, st.file).toMatchObject({ ok: false, code: 'unreadable_scan' });
    }
  });

  it('no scan is ever parsed with a wrong figure; one that cannot be read exactly fails unreadable_scan', () => {
    expect(score.parsedWrong.map((s) => s.file)).toEqual([]);
    const neg = score.statements.filter((s) => s.expectedFailed);
    if (ALL) expect(neg.length).toBeGreaterThan(0);
    for (const s of neg) expect(s.result).toMatchObject({ ok: false, code: 'unreadable_scan' });
    // Every scan that is not parsed says why: it could not be read exactly (the tests give OCR 120 s a
    // page, so no scan here runs out of time).
    for (const s of score.statements.filter((x) => !x.result.ok)) expect((s.result as { code: string }).code, s.file).toBe('unreadable_scan');
  });

  // Moved here from statement-ocr.test.ts (it read the same scan again there: OCR of it, with its
  // second reading, 24 CPU-s measured): this set's reading of it is the one checked.
  it('a scan of a statement whose printed figures do not add up fails (unreadable_scan), with no figures', () => {
    const neg = SCAN_SET.find((x) => x.source === 'negative-lantern-mismatch-2025-10.pdf')!;
    // A 300 dpi scan turned 1°, without noise (the seed only draws noise): the scan that test read.
    expect(neg.o).toEqual({ dpi: 300, angle: 1, seed: 11 });
    const st = score.statements.find((x) => x.file === scanName(neg))!;
    expect(st.expectedFailed).toBe(true);
    const r = st.result;
    expect(r.ok).toBe(false);
    if (!r.ok) {
      expect(r.code).toBe('unreadable_scan');
      expect(r.reason).toMatch(/^The scan could not be read exactly: .*closing balance/);
      expect('figures' in r).toBe(false);
    }
  });
});
