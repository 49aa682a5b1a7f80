import { describe, expect, it } from 'vitest';
import { depositKind } from '../../src/features/statements/rules';
import { bothSidesTotal } from '../../src/features/statements/read-totals';
import type { Col } from '../../src/features/statements/columns';
import { numericDate, tokens } from '../../src/features/statements/tokens';
import { extractItems } from '../../src/features/statements/extract';
import { read } from '../../src/features/statements/read';
import { analyzeStatementPdf, DEFAULTS } from '../../src/features/statements/analyze';
import { figures, R } from '../support/statement-read';
import { statementPdf, type PageSpec } from '../support/statement-builder';

const toks = (s: string) => tokens(s.split(' ').map((t, k) => ({ x0: k * 40, x1: k * 40 + 30, t, cell: k })));

// blind-62 (sf62): the first batch composed by LibreOffice (Calc and Writer). The cases here are
// lines and statements of our own (other names, numbers and words than the fixtures'). Each test
// fails without its rule.

describe('1. a dividend named by a type column and again by its details: the account\'s own dividend', () => {
  it('"Dividend | Dividend Earned" and its kin read as the account\'s interest', () => {
    for (const d of ['Dividend Deposit Savings Dividend', 'DIVIDEND CREDIT SHARE DIVIDEND 0.04% APY', 'Dividend Dividend Earned 606427', 'DIVIDENDS DIVIDEND PAID', 'Dividend Dividends Credited 00912', 'Dividend Dividend APY 0.10%']) expect(depositKind(d), d).toBe('interest');
  });
  it('near misses: a payer\'s dividend, a dividend fund, "dividend" in a company\'s name stay what they were', () => {
    for (const d of ['Dividend Payment VANGUARD 500', 'ACH Credit DIVIDEND CAPITAL PARTNERS', 'Dividend Dividend Fund LLC invoice 22', 'Deposit DIVIDEND FOODS INC', 'Dividend Deposit ACME HOLDINGS', 'Dividend Deposit Share Capital Partners LLC']) expect(depositKind(d), d).not.toBe('interest');
  });
});

describe('2. "Totals: <n> <side>, <n> <side>" with two amounts: each side\'s total, split at the comma', () => {
  // The register's Debits and Credits columns over the line's two amounts (at x 200-230 and 240-270).
  const cols = [{ kind: 'date', x0: 0, x1: 30 }, { kind: 'debit', x0: 195, x1: 232 }, { kind: 'credit', x0: 238, x1: 272 }] as Col[];
  const swapped = [{ kind: 'credit', x0: 195, x1: 232 }, { kind: 'debit', x0: 238, x1: 272 }] as Col[];
  it('a register\'s closing line counts each side, split by a comma, the amounts in that order', () => {
    const line = 'Totals: 61 debits, 18 credits 40,112.09 38,500.00';
    expect(bothSidesTotal(toks(line), line, () => cols)?.map((x) => [x.label, x.money.cents, x.count])).toEqual([
      ['Total debits', 4011209, 61],
      ['Total credits', 3850000, 18],
    ]);
    const amp = 'Total deposits & withdrawals 9,000.00 7,500.00';
    expect(bothSidesTotal(toks(amp), amp)?.map((x) => [x.label, x.money.cents])).toEqual([
      ['Total deposits', 900000],
      ['Total withdrawals', 750000],
    ]);
  });
  it('near misses: the amounts under the other sides\' columns, or no columns above: no such line (not a guess by the words\' order)', () => {
    const line = 'Totals: 61 debits, 18 credits 40,112.09 38,500.00';
    expect(bothSidesTotal(toks(line), line, () => swapped)).toBeNull();
    expect(bothSidesTotal(toks(line), line, () => null)).toBeNull();
    expect(bothSidesTotal(toks(line), line)).toBeNull();
  });
  it('near misses: two commas, both of one side, no separator, one amount: no such line', () => {
    for (const line of ['Totals: 5 checks, 4 withdrawals 1,200.00 3,400.00', 'Totals: 3 deposits, 2 credits, 4 debits 1.00 2.00', 'Totals: 52 debits 42 credits 1.00 2.00', 'Totals: 52 debits, 42 credits 58,831.28']) expect(bothSidesTotal(toks(line), line, () => cols), line).toBeNull();
  });
});

describe('3. a register row split by a page break: its description goes on under the next page\'s repeated column titles', () => {
  const titles = [[42, 'Date'], [82, 'Description'], [400, 'Debits'], [466, 'Credits'], [536, 'Balance']] as const;
  const statement = (o: { tailX?: number; titles2?: typeof titles; between?: boolean } = {}): PageSpec[] => [
    [
      [[42, 'KESTREL RIVER CREDIT UNION'], [420, 'Member Statement']],
      [[42, 'Statement Period: 03/01/2026 - 03/31/2026']],
      [[42, 'HOLLOW OAK CABINETRY LLC']],
      [[42, 'Previous Balance'], R(300, '5,000.00')],
      [[42, 'Total Credits (3)'], R(300, '9,500.00')],
      [[42, 'Total Debits (2)'], R(300, '6,200.00')],
      [[42, 'New Balance'], R(300, '8,300.00')],
      [],
      titles,
      [[42, '03/02'], [82, 'Deposit ACH TIMBERLINE HOMES Type: AP PAYMENT'], R(498, '4,000.00'), R(570, '9,000.00')],
      [[82, 'TIMBERLINE HOMES ID: 55102']],
      [[42, '03/09'], [82, 'Withdrawal ACH LUMBERWORKS SUPPLY Type: INV'], R(430, '5,000.00'), R(570, '4,000.00')],
      [[82, 'LUMBERWORKS SUPPLY ID: 88231']],
      [[42, '03/12'], [82, 'Deposit ACH ALDER PROPERTY MGMT Type: AP PAYMENT'], R(498, '3,000.00'), R(570, '7,000.00')],
      ...(o.between ? [[[82, 'Subtotal'], R(570, '7,000.00')] as const] : []),
    ],
    [
      [[42, 'Kestrel River Credit Union · HOLLOW OAK CABINETRY LLC · 03/01/2026 - 03/31/2026']],
      o.titles2 ?? titles,
      [[o.tailX ?? 82, 'WITHDRAWALS ID: 30917']],
      [[42, '03/20'], [82, 'Withdrawal Debit Card OAKRIDGE HARDWARE'], R(430, '1,200.00'), R(570, '5,800.00')],
      [[42, '03/27'], [82, 'Deposit ACH TIMBERLINE HOMES Type: AP PAYMENT'], R(498, '2,500.00'), R(570, '8,300.00')],
      [[42, '03/31'], [82, 'New Balance'], R(570, '8,300.00')],
    ],
  ].map((p, n) => [...p, ...Array.from({ length: 30 - p.length }, () => []), [[42, 'Kestrel River Credit Union'], [300, `Page ${n + 1} of 2`]]] as PageSpec);
  const rowsOf = async (pages: PageSpec[]) => {
    const x = await extractItems(await statementPdf(pages), { maxPages: 10, timeoutMs: 20_000, maxHeapMb: 256, maxMemoryMb: 512, maxDecodedBytes: DEFAULTS.maxDecodedBytes });
    if (!x.ok) throw new Error('unreadable');
    return read(x.items).rows;
  };
  it('reads: the tail is the split row\'s, no heading, so the credits after it stay credits', async () => {
    const f = figures(await analyzeStatementPdf(await statementPdf(statement())));
    expect([f.deposits_total, f.deposit_count, f.ending_balance]).toEqual([9500, 3, 8300]);
    expect((await rowsOf(statement())).find((r) => r.md[1] === 12)?.description).toMatch(/WITHDRAWALS ID: 30917$/);
  });
  it('near misses: a line left of the descriptions, other column titles, or more printed below the row on its page: not the row\'s', async () => {
    for (const o of [{ tailX: 42 }, { titles2: [[42, 'Date'], [82, 'Description'], [400, 'Amount'], [536, 'Balance']] as const }, { between: true }] as const) {
      const rows = await rowsOf(statement(o as Parameters<typeof statement>[0]));
      expect(rows.find((r) => r.md[1] === 12)?.description, JSON.stringify(o)).not.toMatch(/30917/);
    }
  });
});

describe('4. a spreadsheet\'s date cell "03-Apr-26": the day, the month\'s name and the year', () => {
  it('the day first, the month\'s cut, a year of two or four digits', () => {
    expect(numericDate('03-Apr-26')).toEqual([4, 3, 2026]);
    expect(numericDate('9-Sept-2025')).toEqual([9, 9, 2025]);
    expect(numericDate('31-DEC-27')).toEqual([12, 31, 2027]);
    expect(numericDate('16-Dec')).toEqual([12, 16, null]);
  });
  it('near misses: no day, a word no month, a day past 31, a three-digit year: no date', () => {
    for (const w of ['Apr-26-03', '03-Marketing-26', '12-Mart-26', '41-Aug-26', '03-Aug-202', '03-Aug-26-1']) expect(numericDate(w), w).toBeNull();
  });
});
