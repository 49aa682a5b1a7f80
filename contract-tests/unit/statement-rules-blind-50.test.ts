import { describe, expect, it } from 'vitest';
import { categoryDoubt, paidBack } from '../../src/features/statements/doubt';
import type { Txn } from '../../src/features/statements/reconcile';
import { depositKind, paidForByWire, supplierCreditFrom } from '../../src/features/statements/rules';

// The rules statements-blind-50 asked for (each test fails when its rule is removed). Invented
// banks, senders and payees throughout: no row can know them.

const tx = (date: string, description: string, dollars: number): Txn => ({ date, description, cents: Math.round(dollars * 100) });
/** A month of card payouts: $30,000 of sales, ten of them. */
const sales = Array.from({ length: 10 }, (_, i) => tx(`2026-03-${String(i + 2).padStart(2, '0')}`, `ACH DEPOSIT TOAST INC DEP ${5510 + i}`, 3000));
const ONE_OFF = /is of a kind no rule knows/;

describe("a supplier's CREDIT entry with the bank's BATCH number after it: money given back", () => {
  // blind-50 P02 (an Independent Bank-style register): the supplier's debits "ACH DEBIT <name>
  // INVOICE BATCH 5522 CO ID ... CCD TRACE ..." and its credit "ACH CREDIT <name> CREDIT BATCH 4460
  // CO ID ... CCD TRACE ...": BATCH and its number are the bank's field, as TRACE and its number are,
  // so the entry still ends in the company's CREDIT.
  const bought = [2, 9, 16, 23].map((d, i) => tx(`2026-03-${String(d).padStart(2, '0')}`, `ACH DEBIT HOLLINGBROOK PROVISI INVOICE BATCH ${5522 + i} CO ID 40254736${10 + i} CCD TRACE 3960324181017${10 + i}`, -(1877.2 + 148.59 * i)));
  const credit = tx('2026-03-18', 'ACH CREDIT HOLLINGBROOK PROVISI CREDIT BATCH 4460 CO ID 1381544505 CCD TRACE 552401551248498', 126.5);

  it('the name is read past the batch number', () => {
    expect(supplierCreditFrom(credit.description)).toEqual(['HOLLINGBROOK', 'PROVISI']);
    expect(supplierCreditFrom('ACH CREDIT HOLLINGBROOK PROVISI CREDIT BATCH NO. 4460')).toEqual(['HOLLINGBROOK', 'PROVISI']);
  });
  it('paid in the period at least as much: given back, not in doubt', () => {
    expect(paidBack([...sales, ...bought, credit]).has(credit)).toBe(true);
    expect(categoryDoubt([...sales, ...bought, credit])).toBeNull();
  });
  it('not paid in the period, paid less, or worded as anything but its CREDIT: still in doubt', () => {
    expect(paidBack([...sales, credit, tx('2026-03-09', 'ACH DEBIT OTHER SUPPLY CO INVOICE BATCH 5522', -1900)]).has(credit)).toBe(false);
    expect(paidBack([...sales, credit]).has(credit)).toBe(false);
    expect(paidBack([...sales, { ...bought[0], cents: -10000 }, credit]).has(credit)).toBe(false);
    // A customer paying says what it pays (an invoice, a payment), batch number or not.
    const pays = tx('2026-03-18', 'ACH CREDIT HOLLINGBROOK PROVISI INVOICE BATCH 4460 CO ID 1381544505 CCD', 126.5);
    expect(supplierCreditFrom(pays.description)).toBeNull();
    expect(paidBack([...sales, ...bought, pays]).has(pays)).toBe(false);
    // BATCH as a word of the entry (no number after it) is no bank field: the entry does not end in CREDIT.
    expect(supplierCreditFrom('ACH CREDIT HOLLINGBROOK PROVISI CREDIT BATCH')).toBeNull();
  });
});

describe("a public body's wire under a CONTRACT: a customer's payment, not in doubt", () => {
  // blind-50 P05: "INCOMING WIRE VA DEPT OF TRANSPORTATION INCIDENT CLEARANCE CONTRACT FED REF ...",
  // a state's towing contract, 12% of the credits, refused as a credit of a kind no rule knows. A
  // government buys work or goods by contract; its grants, loans, refunds and benefits are named so.
  // (A city's, county's or town's NUMBERED contract is a knowledge row's already: "CITY OF ... CONTRACT 26-114".)
  it.each([
    'INCOMING WIRE OH DEPT OF TRANSPORTATION SNOW REMOVAL CONTRACT FED REF 20260316ODT0042',
    'INCOMING WIRE DEPARTMENT OF PUBLIC WORKS STREET SWEEPING CONTRACT 2026-114',
    'WIRE TRANSFER IN CITY OF MARLOWE JANITORIAL CONTRACT',
    'INCOMING WIRE COUNTY OF BRANDT FLEET MAINTENANCE CONTRACT REF 88213',
  ])('%s', (wire) => {
    expect(paidForByWire(wire)).not.toBeNull();
    expect(categoryDoubt([...sales, tx('2026-03-16', wire, 8640)])).toBeNull();
  });

  it.each([
    // No contract named: a department pays benefits, refunds and grants too.
    'INCOMING WIRE OH DEPT OF TRANSPORTATION FED REF 20260316ODT0042',
    'INCOMING WIRE OH DEPT OF TRANSPORTATION SNOW REMOVAL FED REF 20260316',
    // A contract from a body no government's style names (a company's contract needs its period).
    'INCOMING WIRE MARLOWE HOLDCO INC SNOW REMOVAL CONTRACT',
    // Land or a right of way bought, a business relocated, tax, a grant, a loan, a refund, a bond returned.
    'INCOMING WIRE OH DEPT OF TRANSPORTATION RIGHT OF WAY ACQUISITION CONTRACT PARCEL 12',
    'INCOMING WIRE OH DEPT OF TRANSPORTATION RELOCATION CONTRACT',
    'INCOMING WIRE STATE OF OHIO DEPT OF TAXATION CONTRACT',
    'INCOMING WIRE CITY OF MARLOWE GRANT CONTRACT',
    'INCOMING WIRE CITY OF MARLOWE CONTRACT BOND RELEASE',
  ])('%s: still in doubt', (wire) => {
    expect(paidForByWire(wire)).toBeNull();
    expect(categoryDoubt([...sales, tx('2026-03-16', wire, 8640)])).toMatch(/^The credit of \$8640\.00 on 2026-03-16 .*(is of a kind no rule knows|reads like)/);
  });

  it('a department the merchant also pays in the period stays doubted', () => {
    const wire = tx('2026-03-16', 'INCOMING WIRE OH DEPT OF TRANSPORTATION SNOW REMOVAL CONTRACT FED REF 20260316ODT0042', 8640);
    expect(categoryDoubt([...sales, wire])).toBeNull();
    const paid = tx('2026-03-09', 'ACH DEBIT OH DEPT OF TRANSPORTATION PERMIT FEES 8898176826', -640);
    expect(categoryDoubt([...sales, paid, wire])).toMatch(ONE_OFF);
  });
});

describe('"ACH ITEM RETURNED <funder> R01": the merchant\'s own debit returned unpaid, money given back', () => {
  // blind-50 P06 (a Carter Bank-style register): a funder's pull returned for want of funds, credited
  // back as "ACH ITEM RETURNED RETAIL CAPITAL LLC R01 6479127522", was read as the funder's money
  // (a loan) by its name; "ACH RETURN" was a refund's phrase already, ITEM between them is the same.
  it.each(['ACH ITEM RETURNED RETAIL CAPITAL LLC R01 6479127522', 'ACH ITEM RETURN WESTOVER FUNDING R01 1896236076'])('%s', (d) => {
    expect(depositKind(d)).toBe('refund');
  });
  it("the funder's own credit, not a return, is still its money", () => {
    expect(depositKind('ACH CREDIT RETAIL CAPITAL LLC FUNDING 6479127522')).toBe('loan');
  });
});

describe('left in doubt on purpose (no rule added)', () => {
  // blind-50 P04: "Preauthorized Debit <name> MERCH WEEKLY PMT", four equal weekly debits to a
  // made-up funder whose ACH name was cut at 16 characters. MERCH is a card processor's own
  // abbreviation as well (statement-rules-blind-49: '<name> MERCH' weekly), so they stay refused.
  it('"<name> MERCH WEEKLY PMT", one sum every week', () => {
    const weekly = [5, 12, 19, 26].map((d, i) => tx(`2026-03-${String(d).padStart(2, '0')}`, `Preauthorized Debit WESTOVER BAY MERCH WEEKLY PMT Ref ${152433131742 + i}`, -685));
    expect(categoryDoubt([...sales, ...weekly])).toMatch(/^4 debits of \$685\.00 to one payee/);
  });
  // blind-50 P05: a wrecker maker's "WARRANTY RFD" with no purchase from it in the period: a warranty
  // credit is sales to a shop paid for warranty work and money back to a buyer; the policy doubts it.
  it('a maker\'s WARRANTY RFD from a counterparty not paid in the period', () => {
    expect(categoryDoubt([...sales, tx('2026-03-25', 'ACH DEPOSIT CALLOWAY INDUSTRIES WARRANTY RFD IND ID 255250040 IND NAME', 219.84)])).toMatch(/warranty credit/);
  });
});
