import { describe, expect, it } from 'vitest';
import type { PageItems } from '../../src/features/statements/extract';
import type { Reading, Row } from '../../src/features/statements/reading-types';
import { reconcile } from '../../src/features/statements/reconcile';
import { amountForm, amountFormAlternatives, balanceProof, datesFromOtherReading } from '../../src/features/statements/scan-proof';

// What a scan's printed figures prove about its misread ones (src/features/statements/scan-proof.ts).

describe('amountForm: an amount misread in a form only one amount explains', () => {
  it('a comma for the point, a space for the point, the point where the thousands comma is', () => {
    expect(amountForm('269,00')).toBe('269.00');
    expect(amountForm('1,269,00')).toBe('1,269.00');
    expect(amountForm('2,330 05')).toBe('2,330.05');
    expect(amountForm('7.49501')).toBe('7,495.01');
  });
  it('anything an amount or another number may be is left alone', () => {
    for (const s of ['269.00', '26,900', '1,234.56', '06/12', '2,330 5', '269,0', '12,34,00', '3409', 'CARD 3409', '7.4950', '1,2,30 05']) expect(amountForm(s), s).toBeNull();
  });
  it('alternatives: the item as read and the amount; an unreadable amount without alternatives gets its first reading', () => {
    const pages: PageItems[] = [{ width: 612, height: 792, items: [
      { x: 400, y: 100, w: 30, h: 9, s: '269,00' },
      { x: 400, y: 110, w: 30, h: 9, s: '1,111.11?' },
      { x: 400, y: 120, w: 30, h: 9, s: '7,177.48?', alt: [['7,177.48?', '7,177.48', '7,177.46']] },
      { x: 80, y: 100, w: 30, h: 9, s: 'ACH DEBIT 269,00 FEE' },
    ] }];
    const got = amountFormAlternatives(pages);
    expect(got[0].items.map((x) => x.alt ?? null)).toEqual([[['269,00', '269,00', '269.00']], [['1,111.11?', '1,111.11']], [['7,177.48?', '7,177.48', '7,177.46']], null]);
    expect(pages[0].items[0].alt).toBeUndefined();
  });
});

const row = (cents: number, sign: 1 | -1, balance: number | null, day = 2): Row => ({ md: [6, day, null], description: `row ${cents}`, cents, sign, marker: null, balance, section: 0 });
const reading = (rows: Row[], opening = 100_000, closing?: number): Reading => ({
  bankName: null,
  period: { start: '2025-06-01', end: '2025-06-30' },
  opening,
  closing: closing ?? opening + rows.reduce((s, x) => s + x.sign! * x.cents, 0),
  closings: [],
  rows,
  totals: [],
  daily: [],
  sections: [{ kind: 'mixed', category: 'other', heading: 'Activity' }],
});

describe('balanceProof: a printed balance misread, proven by the rows on both sides of it', () => {
  it('a digit misread in a balance (7,872.58 for 7,872.53): both runs around it prove it', () => {
    const r = reading([row(10_000, 1, 110_000), row(61_148, 1, 171_148), row(55_395, 1, 226_543), row(5_241, -1, 221_302)]);
    r.rows[1].balance = 171_153;
    expect(reconcile(r).ok).toBe(false);
    const p = balanceProof(r)!;
    expect(p.rows.map((x) => x.balance)).toEqual([110_000, 171_148, 226_543, 221_302]);
    expect(reconcile(p).ok).toBe(true);
    expect(r.rows[1].balance).toBe(171_153);
  });
  it('a speck read as a minus on the last balance: the closing balance proves it', () => {
    const r = reading([row(10_000, 1, 110_000), row(1_500, -1, 108_500)]);
    r.rows[1].balance = -108_500;
    expect(balanceProof(r)!.rows[1].balance).toBe(108_500);
  });
  it('an amount misread (or a row dropped beside it) is not corrected: the balances cannot tell the two apart', () => {
    const r = reading([row(10_000, 1, 110_000), row(56_395, 1, 165_395), row(5_241, -1, 160_154)], 100_000, 160_154);
    r.rows[1].cents = 55_395 + 1_000; // 563.95 read for 553.95, or a 10.00 row dropped
    expect(balanceProof(r)).toBeNull();
  });
  it("a row whose amount and balance are both misread stays as read", () => {
    const r = reading([row(10_000, 1, 110_000), row(61_148, 1, 171_148), row(5_241, -1, 165_907)]);
    r.rows[1].cents = 61_748;
    r.rows[1].balance = 171_158;
    expect(balanceProof(r)).toBeNull();
  });
  it('balances that agree are left as they are', () => {
    expect(balanceProof(reading([row(10_000, 1, 110_000), row(1_500, -1, 108_500)]))).toBeNull();
  });
});

describe('datesFromOtherReading: a date the first reading left unread, from a second reading of the same line', () => {
  const page = (items: PageItems['items'], unread?: PageItems['unread']): PageItems[] => [{ width: 612, height: 792, items, ...(unread ? { unread } : {}) }];
  const line = (y: number, balance = '7,477.05') => [
    { x: 80, y, w: 200, h: 9, s: 'ACH CREDIT SQUARE INC SQ250606' },
    { x: 476, y, w: 30, h: 9, s: '742.19' },
    { x: 541, y, w: 40, h: 9, s: balance },
  ];
  const ink = [{ x0: 36, y0: 420, x1: 60, y1: 429.6 }];
  it('taken where both readings read the rest of the line word for word and the first saw ink there', () => {
    const got = datesFromOtherReading(page(line(428), ink), page([{ x: 38, y: 428.3, w: 22, h: 9, s: '06/06' }, ...line(428.5)]))!;
    expect(got[0].items.map((x) => x.s)).toContain('06/06');
  });
  it('not taken when the readings disagree on the line, the first read something there, or saw no ink there', () => {
    const other = page([{ x: 38, y: 428.3, w: 22, h: 9, s: '06/06' }, ...line(428.5)]);
    expect(datesFromOtherReading(page(line(428, '7,477.08'), ink), other)).toBeNull();
    expect(datesFromOtherReading(page([{ x: 38, y: 428, w: 22, h: 9, s: '06/05' }, ...line(428)], ink), other)).toBeNull();
    expect(datesFromOtherReading(page(line(428), [{ x0: 300, y0: 420, x1: 310, y1: 429 }]), other)).toBeNull();
  });
});
