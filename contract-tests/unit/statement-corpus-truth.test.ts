// The development statement corpus (contract-tests/fixtures/statements) is only worth scoring against
// if its truth is right: every figure must follow from the transaction list by the rules in its
// README, and the generator must still produce exactly the committed files.
import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PDFDocument } from 'pdf-lib';
import { extractText, getDocumentProxy } from 'unpdf';
import { afterAll, describe, expect, it } from 'vitest';
import { generate } from '../fixtures/statements/generate';

const DIR = join(__dirname, '../fixtures/statements');

interface Txn {
  date: string;
  description: string;
  amount: number;
  balance: number;
  category: string;
  checkNumber?: number;
  funder?: string;
}
interface Funder {
  funder: string;
  achCompanyName: string;
  count: number;
  totalPaid: number;
  returnedCount: number;
  returnedTotal: number;
  netPaid: number;
}
interface Statement {
  file: string;
  expected: 'parsed' | 'failed';
  failureCode?: string;
  layout: string;
  bank: string | null;
  pages: number;
  orientation: 'portrait' | 'landscape';
  periodStart: string;
  periodEnd: string;
  openingBalance: number;
  closingBalance: number;
  totalCredits: number;
  totalDebits: number;
  creditCount: number;
  debitCount: number;
  nsfCount: number;
  nsfBreakdown: { nsfReturnedItemFees: number; overdraftPaidItemFees: number; feeReversalsNotCounted: number };
  returnedItemCredits: number;
  mcaFunders: Funder[];
  trueRevenue: number;
  revenueExclusions: { transfersFromOwnAccounts: number; loanProceeds: number; refundsAndReversals: number; nsfFeeReversals: number };
  averageDailyBalance: number;
  negativeBalanceDays: number;
  calendarDays: number;
  transactions: Txn[];
}

const truth = JSON.parse(readFileSync(join(DIR, 'truth.json'), 'utf8')) as { statements: Statement[] };
const parsed = truth.statements.filter((s) => s.expected === 'parsed');
const failed = truth.statements.filter((s) => s.expected === 'failed');
/** integer cents, so sums compare exactly */
const c = (n: number) => Math.round(n * 100);
const sumC = (xs: number[]) => xs.reduce((a, b) => a + c(b), 0);
const days = (a: string, b: string) => {
  const out: string[] = [];
  for (let d = new Date(`${a}T00:00:00Z`); d <= new Date(`${b}T00:00:00Z`); d.setUTCDate(d.getUTCDate() + 1)) out.push(d.toISOString().slice(0, 10));
  return out;
};
const EXCLUDED: Record<string, keyof Statement['revenueExclusions']> = {
  xfer_in: 'transfersFromOwnAccounts',
  loan: 'loanProceeds',
  mca_funding: 'loanProceeds',
  vendor_refund: 'refundsAndReversals',
  cb_reversal: 'refundsAndReversals',
  rtn_credit: 'refundsAndReversals',
  fee_rev: 'nsfFeeReversals',
};

describe('statement corpus truth', () => {
  it('has the corpus the issue asks for: at least 12 layouts, 2+ statements each, negatives for three failure codes', () => {
    const byLayout = new Map<string, number>();
    for (const s of parsed) byLayout.set(s.layout, (byLayout.get(s.layout) ?? 0) + 1);
    expect(byLayout.size).toBeGreaterThanOrEqual(12);
    for (const [layout, n] of byLayout) expect(n, layout).toBeGreaterThanOrEqual(2);
    expect(new Set(failed.map((s) => s.failureCode))).toEqual(new Set(['not_a_statement', 'does_not_reconcile', 'no_transactions']));
    expect(parsed.some((s) => s.periodStart.slice(0, 4) !== s.periodEnd.slice(0, 4))).toBe(true);
    expect(parsed.some((s) => s.orientation === 'landscape')).toBe(true);
    expect(parsed.some((s) => s.pages >= 4)).toBe(true);
  });

  it('lists exactly the PDFs in the folder, with their page count and orientation', async () => {
    const onDisk = readdirSync(DIR).filter((f) => f.endsWith('.pdf')).sort();
    expect(truth.statements.map((s) => s.file).sort()).toEqual(onDisk);
    for (const s of truth.statements) {
      const pdf = await PDFDocument.load(readFileSync(join(DIR, s.file)));
      expect(pdf.getPageCount(), s.file).toBe(s.pages);
      for (const p of pdf.getPages()) {
        const { width, height } = p.getSize();
        expect(width > height ? 'landscape' : 'portrait', s.file).toBe(s.orientation);
      }
    }
  });

  describe.each(parsed.map((s) => [s.file, s] as const))('%s', (_file, s) => {
    const tx = s.transactions;
    const credits = tx.filter((t) => t.amount > 0);
    const debits = tx.filter((t) => t.amount < 0);

    it('prints what truth says: every amount as often as truth needs it, the opening and closing balance', async () => {
      // a check of the rendering, not a source of truth: a row dropped or misprinted fails here
      const pdf = await getDocumentProxy(new Uint8Array(readFileSync(join(DIR, s.file))));
      const { text } = await extractText(pdf, { mergePages: true });
      const printed = new Map<string, number>();
      for (const m of text.matchAll(/\d{1,3}(?:,\d{3})*\.\d\d/g)) printed.set(m[0], (printed.get(m[0]) ?? 0) + 1);
      const fmt = (n: number) => Math.abs(n).toFixed(2).replace(/\B(?=(\d{3})+(?!\d))/g, ',');
      const needed = new Map<string, number>();
      for (const t of tx) needed.set(fmt(t.amount), (needed.get(fmt(t.amount)) ?? 0) + 1);
      for (const [amount, n] of needed) expect(printed.get(amount) ?? 0, amount).toBeGreaterThanOrEqual(n);
      expect(printed.has(fmt(s.openingBalance))).toBe(true);
      expect(printed.has(fmt(s.closingBalance))).toBe(true);
    });

    it('reconciles: opening + credits - debits = closing, and every running balance follows', () => {
      expect(c(s.openingBalance) + c(s.totalCredits) - c(s.totalDebits)).toBe(c(s.closingBalance));
      let bal = c(s.openingBalance);
      for (const t of tx) {
        bal += c(t.amount);
        expect(c(t.balance), `${t.date} ${t.description}`).toBe(bal);
      }
      expect(bal).toBe(c(s.closingBalance));
    });

    it('totals and counts equal the transaction list', () => {
      expect(tx.every((t) => t.amount !== 0)).toBe(true);
      expect(sumC(credits.map((t) => t.amount))).toBe(c(s.totalCredits));
      expect(-sumC(debits.map((t) => t.amount))).toBe(c(s.totalDebits));
      expect(credits.length).toBe(s.creditCount);
      expect(debits.length).toBe(s.debitCount);
    });

    it('dates lie in the period, in posting order; calendar days count the period', () => {
      const period = days(s.periodStart, s.periodEnd);
      expect(s.calendarDays).toBe(period.length);
      for (const [i, t] of tx.entries()) {
        expect(t.date >= s.periodStart && t.date <= s.periodEnd, t.date).toBe(true);
        if (i) expect(t.date >= tx[i - 1].date).toBe(true);
      }
    });

    it('NSF count, returned items and fee reversals follow the fee lines', () => {
      const n = (cat: string) => tx.filter((t) => t.category === cat).length;
      expect(s.nsfBreakdown).toEqual({ nsfReturnedItemFees: n('nsf_fee'), overdraftPaidItemFees: n('od_fee'), feeReversalsNotCounted: n('fee_rev') });
      expect(s.nsfCount).toBe(n('nsf_fee') + n('od_fee'));
      expect(s.returnedItemCredits).toBe(n('rtn_credit'));
      for (const t of tx.filter((t) => /fee/.test(t.category) && t.category !== 'fee_rev')) expect(t.amount, t.description).toBeLessThan(0);
      // an NSF fee that names a funder is a fee, never an MCA payment
      for (const t of tx.filter((t) => t.category === 'nsf_fee')) expect(t.funder).toBeUndefined();
    });

    it('MCA funders: counts, totals and returns follow the funder debits', () => {
      const names = [...new Set(tx.filter((t) => t.category === 'mca').map((t) => t.funder!))].sort();
      expect(s.mcaFunders.map((f) => f.funder).sort()).toEqual(names);
      for (const f of s.mcaFunders) {
        const paid = tx.filter((t) => t.category === 'mca' && t.funder === f.funder);
        const back = tx.filter((t) => t.category === 'rtn_credit' && t.funder === f.funder);
        expect(f.count).toBe(paid.length);
        expect(c(f.totalPaid)).toBe(-sumC(paid.map((t) => t.amount)));
        expect(f.returnedCount).toBe(back.length);
        expect(c(f.returnedTotal)).toBe(sumC(back.map((t) => t.amount)));
        expect(c(f.netPaid)).toBe(c(f.totalPaid) - c(f.returnedTotal));
        expect(f.achCompanyName.length).toBeLessThanOrEqual(16);
        for (const t of paid) expect(t.description.toUpperCase(), t.description).toContain(f.achCompanyName.toUpperCase().split(' ')[0]);
      }
    });

    it('true revenue = credits minus transfers in, loan/MCA proceeds, refunds and reversals, fee reversals, and the bank\'s interest', () => {
      const ex = { transfersFromOwnAccounts: 0, loanProceeds: 0, refundsAndReversals: 0, nsfFeeReversals: 0 };
      for (const t of credits) if (EXCLUDED[t.category]) ex[EXCLUDED[t.category]] += c(t.amount);
      expect(Object.fromEntries(Object.entries(s.revenueExclusions).map(([k, v]) => [k, c(v)]))).toEqual(ex);
      const interest = sumC(credits.filter((t) => t.category === 'interest').map((t) => t.amount));
      expect(c(s.trueRevenue)).toBe(c(s.totalCredits) - Object.values(ex).reduce((a, b) => a + b, 0) - interest);
    });

    it('average daily balance and negative days are over every calendar day, carrying balances', () => {
      let bal = c(s.openingBalance);
      let sum = 0;
      let neg = 0;
      for (const d of days(s.periodStart, s.periodEnd)) {
        const today = tx.filter((t) => t.date === d);
        if (today.length) bal = c(today[today.length - 1].balance);
        sum += bal;
        if (bal < 0) neg++;
      }
      expect(c(s.averageDailyBalance)).toBe(Math.round(sum / s.calendarDays));
      expect(s.negativeBalanceDays).toBe(neg);
    });
  });

  it('failed statements carry a failure code and no figures', () => {
    for (const s of failed) {
      expect(['not_a_statement', 'does_not_reconcile', 'no_transactions']).toContain(s.failureCode);
      expect(s).not.toHaveProperty('transactions');
      expect(s).not.toHaveProperty('closingBalance');
    }
  });

  describe('the generator', () => {
    const out = mkdtempSync(join(tmpdir(), 'stmt-corpus-'));
    afterAll(() => rmSync(out, { recursive: true, force: true }));
    it('reproduces every committed file byte for byte', { timeout: 120_000 }, async () => {
      await generate(out);
      const hash = (p: string) => createHash('sha256').update(readFileSync(p)).digest('hex');
      const made = readdirSync(out).sort();
      expect(made).toEqual(readdirSync(DIR).filter((f) => f.endsWith('.pdf') || f === 'truth.json').sort());
      for (const f of made) expect(hash(join(out, f)), f).toBe(hash(join(DIR, f)));
    });
  });
});
