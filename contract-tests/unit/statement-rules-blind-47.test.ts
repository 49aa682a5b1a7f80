import { describe, expect, it } from 'vitest';
import { categoryDoubt, paidBack } from '../../src/features/statements/doubt';
import type { Txn } from '../../src/features/statements/reconcile';
import { paidForByWire, warrantyCreditFrom } from '../../src/features/statements/rules';

// The rules statements-blind-47 asked for (each test fails when its rule is removed). Invented
// senders and payees throughout: no row can know them.

const tx = (date: string, description: string, dollars: number): Txn => ({ date, description, cents: Math.round(dollars * 100) });
/** A month of card payouts: $30,000 of sales, ten of them. */
const sales = Array.from({ length: 10 }, (_, i) => tx(`2026-03-${String(i + 2).padStart(2, '0')}`, `ACH DEPOSIT TOAST INC DEP ${5510 + i}`, 3000));
const ONE_OFF = /is of a kind no rule knows/;

describe('a large one-off wire whose sender wrote what it pays for: a customer, not in doubt', () => {
  // blind-47: a shipper's wire for a trucker's dedicated lane (N02) and a buyer's wire for a named boat
  // at a marine dealer (N08), each a tenth or more of the period's credits, refused as a credit of a
  // kind no rule knows.
  it.each([
    'INCOMING WIRE WILLOWMERE FOODS LLC DEDICATED LANE DEC FED REF 1222ZZ41',
    'INCOMING WIRE HALLORAN PETER J 2024 SEAHAWK 2400 CC FED REF 1015QQ',
    'WIRE IN BRANTLEY DAIRY CO LOAD 448812 REF 77120',
    'Incoming Wire CALDERWOOD AGRI 2021 KUBOTA SVL75 Fed Ref 2026030911',
    'FEDWIRE CREDIT MARSH ORCHARDS VIN 1FTFW1E50NFA00000',
  ])('%s', (wire) => {
    const txns = [...sales, tx('2026-03-16', wire, 9850)];
    expect(paidForByWire(wire)).not.toBeNull();
    expect(categoryDoubt(txns)).toBeNull();
  });

  it.each([
    // No purpose named: who pays, and for what, the line cannot say.
    'INCOMING WIRE WILLOWMERE FOODS LLC FED REF 1222ZZ41',
    'INCOMING WIRE HALLORAN PETER J FED REF 1015QQ',
    // A lender's, a floor plan's, an investor's, an association's words, or a period or a tax year, not a unit.
    'INCOMING WIRE LAKESIDE BANK 2024 SEAHAWK 2400 CC FED REF 1015QQ',
    'INCOMING WIRE HARBOR FLOORPLAN 2024 SEAHAWK 2400 CC',
    'INCOMING WIRE MAPLE RIDGE HOLDINGS DEDICATED LANE DEC',
    'INCOMING WIRE NORTHERN GROWERS ASSOCIATION LOAD 448812',
    'INCOMING WIRE HALLORAN PETER J 2025 DEC 15 FED REF 1015QQ',
    'INCOMING WIRE HALLORAN PETER J 2025 TAX RETURN 1120',
    // The funding trade's or the owner's words decide first.
    'INCOMING WIRE OSPREY CAPITAL 2024 SEAHAWK 2400 CC',
    'INCOMING WIRE OWNER HALLORAN 2024 SEAHAWK 2400 CC',
    // Not a wire: an ACH entry names its purpose in its own fields (rows settle those).
    'ACH CREDIT WILLOWMERE FOODS DEDICATED LANE DEC',
  ])('%s: still in doubt', (wire) => {
    expect(paidForByWire(wire)).toBeNull();
    expect(categoryDoubt([...sales, tx('2026-03-16', wire, 9850)])).toMatch(/^The credit of \$9850\.00 on 2026-03-16 .*(is of a kind no rule knows|reads like)/);
  });

  it('a sender the merchant also pays in the period (a floor plan lender, its own account elsewhere) stays doubted', () => {
    const wire = tx('2026-03-16', 'INCOMING WIRE HARROWGATE MARINE 2024 SEAHAWK 2400 CC FED REF 1015QQ', 9850);
    expect(categoryDoubt([...sales, wire])).toBeNull();
    const paid = tx('2026-03-09', 'PREAUTHORIZED DEBIT HARROWGATE MARINE CURTAIL 8898176826', -6240);
    expect(categoryDoubt([...sales, paid, wire])).toMatch(ONE_OFF);
  });
});

describe("a supplier's WARRANTY PARTS CREDIT from a supplier the merchant pays: parts credited back", () => {
  // blind-47 N08: "MERCURY MARINE WARRANTY PARTS CR", the engine maker whose parts the dealer buys all month.
  const credit = tx('2026-03-26', 'PREAUTHORIZED CREDIT HALVARD MARINE WARRANTY PARTS CR 2624218470', 1642.3);
  const bought = [tx('2026-03-06', 'PREAUTHORIZED DEBIT HALVARD MARINE PARTS 9722446974', -3890.35), tx('2026-03-13', 'PREAUTHORIZED DEBIT HALVARD MARINE PARTS 9355292796', -2489.89)];
  it('money given back, not in doubt', () => {
    expect(warrantyCreditFrom(credit.description)).toEqual(['HALVARD', 'MARINE']);
    expect(paidBack([...sales, ...bought, credit]).has(credit)).toBe(true);
    expect(categoryDoubt([...sales, ...bought, credit])).toBeNull();
  });
  it('from a supplier not paid in the period, or worded as labour or a claim: still doubted', () => {
    expect(categoryDoubt([...sales, credit])).toMatch(/warranty credit/);
    expect(warrantyCreditFrom('PREAUTHORIZED CREDIT HALVARD MARINE WARRANTY LABOR CR 2624218470')).toBeNull();
    expect(warrantyCreditFrom('PREAUTHORIZED CREDIT HALVARD MARINE WARRANTY PARTS CLAIM 2624218470')).toBeNull();
  });
});
