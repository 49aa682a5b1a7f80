import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { analyzeStatementPdf, summarize, type StatementFigures } from '../../src/features/statements/analyze';
import { lastPeakRssMb, useReaderPool } from '../../src/features/statements/extract';
import { bombPdf, inflateBombPdf, letterPdf, manyPagesPdf, passwordPdf, scannedPdf, statementFixtures, type StatementFixture } from '../support/statement-fixtures';

// Statement analysis on synthetic statements made with pdf-lib in three bank layouts, each with
// figures computed from its ground-truth transactions (not by the parser), and on PDFs that must
// fail with a reason: no text layer, a password, damage, a decompression/nesting bomb, 2,000 pages,
// a text that is not a statement. Failures never throw and finish within the module's limits.

let fixtures: StatementFixture[];
beforeAll(async () => {
  fixtures = await statementFixtures();
});
afterAll(() => undefined);

describe('statement fixtures', () => {
  it('covers three layouts, multi-page statements, NSFs, MCA debits, transfers, loans, refunds and recovery activity', () => {
    expect(fixtures.length).toBeGreaterThanOrEqual(6);
    expect(new Set(fixtures.map((f) => f.layout))).toEqual(new Set(['single_column', 'table', 'sectioned']));
    expect(fixtures.some((f) => f.pages > 1)).toBe(true);
    expect(fixtures.some((f) => f.expected.nsf_count > 0)).toBe(true);
    expect(fixtures.some((f) => f.expected.mca_count >= 2)).toBe(true);
    expect(fixtures.some((f) => f.expected.negative_days > 0)).toBe(true);
    expect(fixtures.some((f) => f.expected.has_recovery_activity)).toBe(true);
    expect(fixtures.some((f) => f.expected.true_revenue < f.expected.deposits_total)).toBe(true);
  });

  it.each([0, 1, 2, 3, 4, 5, 6])('fixture %i: every figure exactly as computed from its transactions', async (i) => {
    const f = fixtures[i];
    const r = await analyzeStatementPdf(f.bytes);
    expect(r.ok, JSON.stringify(r)).toBe(true);
    if (!r.ok) return;
    expect(r.pages).toBe(f.pages);
    expect(r.figures).toEqual(f.expected);
  });
});

describe('unreadable statements fail with a reason, never a crash', () => {
  const cases: Array<[string, () => Promise<Uint8Array> | Uint8Array, string[]]> = [
    ['zero bytes', () => new Uint8Array(0), ['empty']],
    ['random bytes', () => new Uint8Array(Array.from({ length: 4096 }, (_, i) => (i * 7919) % 251)), ['not_pdf']],
    ['no text layer (a scan)', scannedPdf, ['no_text_layer']],
    ['password protected', passwordPdf, ['encrypted']],
    ['a letter, not a statement', letterPdf, ['not_a_statement']],
  ];
  it.each(cases)('%s', async (_name, make, codes) => {
    const r = await analyzeStatementPdf(await make());
    expect(r.ok).toBe(false);
    if (r.ok) return;
    expect(codes).toContain(r.code);
    expect(r.reason).toMatch(/^[A-Z].{10,}$/);
    expect(r.reason).not.toMatch(/Exception|at .*\.(m?js|ts):\d+/);
  });

  it('a truncated statement fails', async () => {
    const r = await analyzeStatementPdf(fixtures[0].bytes.subarray(0, Math.floor(fixtures[0].bytes.length / 2)));
    expect(r.ok).toBe(false);
    if (!r.ok) expect(['unreadable', 'not_a_statement', 'no_text_layer']).toContain(r.code);
  });

  it('a statement whose transactions do not add up to its closing balance is does_not_reconcile, with no figures', async () => {
    // Same bytes with one digit of the printed closing balance changed.
    const f = fixtures[0];
    const text = Buffer.from(f.bytes).toString('latin1');
    expect(text.includes('Ending Balance')).toBe(false); // compressed content: tamper through the parser's input instead
    const { PDFDocument, StandardFonts } = await import('pdf-lib');
    const doc = await PDFDocument.create();
    const font = await doc.embedFont(StandardFonts.Helvetica);
    const page = doc.addPage([612, 792]);
    ['Front Range Community Bank', 'Statement Period: 10/01/2026 - 10/31/2026', 'Beginning Balance: $1,000.00', '10/02  DEPOSIT SQUARE INC  500.00  1,500.00', 'Ending Balance: $1,600.00']
      .forEach((l, i) => page.drawText(l, { x: 50, y: 700 - i * 14, size: 10, font }));
    const r = await analyzeStatementPdf(await doc.save());
    expect(r).toMatchObject({ ok: false, code: 'does_not_reconcile' });
    expect(r).not.toHaveProperty('figures');
  });

  it('boundaries: a day ending at exactly 0.00 is not negative, one at -0.01 is; days without transactions carry the balance', async () => {
    const { PDFDocument, StandardFonts } = await import('pdf-lib');
    const doc = await PDFDocument.create();
    const font = await doc.embedFont(StandardFonts.Helvetica);
    const page = doc.addPage([612, 792]);
    [
      'Front Range Community Bank', 'Statement Period: 10/01/2026 - 10/04/2026', 'Beginning Balance: $100.00',
      '10/02  POS PURCHASE SYSCO FOODS  -100.00  0.00', '10/03  ACH DEBIT XCEL ENERGY  -0.01  -0.01', 'Ending Balance: $-0.01',
    ].forEach((l, i) => page.drawText(l, { x: 50, y: 700 - i * 14, size: 10, font }));
    const r = await analyzeStatementPdf(await doc.save());
    expect(r.ok, JSON.stringify(r)).toBe(true);
    if (!r.ok) return;
    // End of day: 100.00, 0.00, -0.01, -0.01 -> two negative days, average 24.995 -> 25.00 (half up on cents)
    expect(r.figures).toMatchObject({ negative_days: 2, average_daily_balance: 25, ending_balance: -0.01, deposits_total: 0, true_revenue: 0, mca_withhold_percent: 0 });
  });

  it('a 2,000-page PDF fails with too_many_pages without reading its pages', async () => {
    const r = await analyzeStatementPdf(await manyPagesPdf(2000));
    expect(r).toMatchObject({ ok: false, code: 'too_many_pages', pages: 2000 });
  });

  it('a nesting bomb is stopped by the time or memory limit and fails', async () => {
    const r = await analyzeStatementPdf(bombPdf(9), { timeoutMs: 3000, maxHeapMb: 128 });
    expect(r.ok).toBe(false);
    if (!r.ok) expect(['timeout', 'too_complex']).toContain(r.code);
  });

  // The parent's resident size, sampled every 5 ms while `work` runs: its peak over the start.
  async function rssGrowthMb<T>(work: () => Promise<T>): Promise<{ value: T; growthMb: number }> {
    const start = process.memoryUsage().rss;
    let peak = start;
    const timer = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 5);
    try {
      const value = await work();
      peak = Math.max(peak, process.memoryUsage().rss);
      return { value, growthMb: (peak - start) / 2 ** 20 };
    } finally {
      clearInterval(timer);
    }
  }

  it.each([
    ['one FlateDecode stream', 1],
    ['chained FlateDecode filters', 2],
  ])('an inflate bomb (400 KB decoding to 400 MB, %s) is refused with resource_limit; this process stays small', async (_name, layers) => {
    const bomb = await inflateBombPdf(400, layers);
    expect(bomb.length).toBeLessThan(450 * 1024);
    // A fresh reader: a warm one keeps what earlier documents left (up to its soft mark), and in CI, where
    // files share a worker, that was 207 MB before this bomb was opened. What is measured is the bomb.
    useReaderPool(false);
    useReaderPool(true);
    const { value: r, growthMb } = await rssGrowthMb(() => analyzeStatementPdf(bomb));
    expect(r).toMatchObject({ ok: false, code: 'resource_limit', pages: null });
    if (!r.ok) expect(r.reason).toMatch(/^Reading the PDF needs more memory/);
    // Before the reader ran in a capped child, this process grew by about 900 MB here.
    expect(growthMb).toBeLessThan(100);
    expect(lastPeakRssMb).toBeLessThan(200);
  });

  it('with no decoding budget, the reader process is stopped at its memory cap and the bomb still fails with resource_limit', async () => {
    const bomb = await inflateBombPdf(400);
    const { value: r, growthMb } = await rssGrowthMb(() => analyzeStatementPdf(bomb, { maxDecodedBytes: Number.MAX_SAFE_INTEGER, maxMemoryMb: 300 }));
    expect(r).toMatchObject({ ok: false, code: 'resource_limit' });
    expect(growthMb).toBeLessThan(100);
    expect(lastPeakRssMb).toBeLessThanOrEqual(300 + 40); // the cap, plus at most one 20 ms sampling step
  });

  it('a file over the byte limit is refused before it is read', async () => {
    const r = await analyzeStatementPdf(fixtures[0].bytes, { maxBytes: 1000 });
    expect(r).toMatchObject({ ok: false, code: 'too_large' });
  });
});

describe('the deal summary', () => {
  const base: StatementFigures = {
    period_start: '2026-09-01', period_end: '2026-09-30', bank_name: 'B', beginning_balance: 0, deposits_total: 0, deposit_count: 0, true_revenue: 60000,
    average_daily_balance: 1000, ending_balance: 0, negative_days: 2, nsf_count: 1, mca_count: 1, mca_withhold_percent: 10, has_recovery_activity: false,
  };
  it('averages revenue, weights balances by days, totals negatives and NSFs, takes positions from the latest statement', () => {
    const oct: StatementFigures = { ...base, period_start: '2026-10-01', period_end: '2026-10-31', true_revenue: 90000.01, average_daily_balance: -3100, negative_days: 5, nsf_count: 0, mca_count: 2, mca_withhold_percent: 17.25, has_recovery_activity: true };
    expect(summarize([oct, base])).toEqual({
      true_revenue: 75000.01, // (60000 + 90000.01) / 2, to the cent
      average_balance: -1083.61, // (1000 * 30 + -3100 * 31) / 61
      negative_days: 7,
      nsf_count: 1,
      mca_count: 2,
      mca_withhold_percent: 17.25,
      has_recovery_activity: true,
    });
    expect(summarize([])).toBeNull();
  });
});
