import { describe, expect, it } from 'vitest';
import { categoryDoubt, paidBack } from '../../src/features/statements/doubt';
import type { Txn } from '../../src/features/statements/reconcile';
import { paidForByWire, paysCounterparty } from '../../src/features/statements/rules';
import { headingOf } from '../../src/features/statements/sections';

// The rules statements-blind-48 asked for (each test fails when its rule is removed). Invented
// senders and payees throughout: no row can know them.

const tx = (date: string, description: string, dollars: number): Txn => ({ date, description, cents: Math.round(dollars * 100) });
/** A month of card payouts: $30,000 of sales, ten of them. */
const sales = Array.from({ length: 10 }, (_, i) => tx(`2026-03-${String(i + 2).padStart(2, '0')}`, `ACH DEPOSIT TOAST INC DEP ${5510 + i}`, 3000));
const ONE_OFF = /is of a kind no rule knows/;

describe('a large one-off wire whose memo names work billed, from an organisation: a customer, not in doubt', () => {
  // blind-48: a snow contract's quarter (N04), therapy services for a month (N06), a progress billing
  // (N07), each a tenth or more of the period's credits, refused as a credit of a kind no rule knows.
  it.each([
    'INCOMING WIRE TRANSFER ORG:BRIARWOOD COMMONS RETAIL LLC SNOW CONTRACT Q4 REF 1223G8814',
    'Incoming Wire UNIVERSITY OF NORTHMARK HEALTH Contract Therapy Services Sep Ref 20261019UUH0031',
    'WT Fed#03417 First Lakeside Bank, N /Org=Copperline Development LLC Srf# Bo26060300412 Trn#260603041288 Rfb# Progress Billing 4',
    'INCOMING WIRE ORG: FENWICK HOSPITAL OBI: CUSTODIAL SERVICES OCT',
    'WIRE TRANSFER IN ORG: CITY OF ASHGROVE OBI: PROGRESS PAYMENT 3 FED REF 20260713C5512',
  ])('%s', (wire) => {
    expect(paidForByWire(wire)).not.toBeNull();
    expect(categoryDoubt([...sales, tx('2026-03-16', wire, 9850)])).toBeNull();
  });

  it.each([
    // No work named, or work named with no period or billing document.
    'INCOMING WIRE TRANSFER ORG:BRIARWOOD COMMONS RETAIL LLC REF 1223G8814',
    'Incoming Wire UNIVERSITY OF NORTHMARK HEALTH Therapy Services Ref 20261019',
    // No organisation: a person's wire may be the owner's money.
    'INCOMING WIRE HALLORAN PETER J SNOW CONTRACT Q4',
    'INCOMING WIRE HALLORAN PETER J PROGRESS BILLING 4',
    // A draw, capital, a grant, a claim, a deposit held, escrow, a settlement, an investment, a reimbursement.
    'WT Fed#03417 First Lakeside Bank /Org=Copperline Development LLC Rfb# Construction Draw 4 Progress Billing',
    'INCOMING WIRE ORG: COPPERLINE DEVELOPMENT LLC CAPITAL CALL SERVICES Q4',
    'INCOMING WIRE ORG: FENWICK COUNTY GRANT SERVICES Q3',
    'INCOMING WIRE ORG: BRIARWOOD RETAIL LLC DEPOSIT SNOW CONTRACT Q4',
    'INCOMING WIRE ORG: BRIARWOOD RETAIL LLC ESCROW PROGRESS BILLING 4',
    'INCOMING WIRE ORG: BRIARWOOD RETAIL LLC SETTLEMENT SERVICES SEP',
    'INCOMING WIRE ORG: BRIARWOOD RETAIL LLC INVESTMENT SERVICES SEP',
    'INCOMING WIRE ORG: BRIARWOOD RETAIL LLC REIMBURSEMENT SERVICES SEP',
    // A lender's, an investor's, an insurer's words in the sender's own field.
    'INCOMING WIRE ORG: SEQUOIA GROWTH FUND LP SERVICES SEP',
    'WT Fed#03417 First Lakeside Bank /Org=Lakeside Bank Rfb# Progress Billing 4',
    'INCOMING WIRE ORG: MAPLE RIDGE HOLDINGS LLC PROGRESS BILLING 4',
    'INCOMING WIRE ORG: CEDAR MUTUAL INSURANCE CO INC SERVICES SEP',
  ])('%s: still in doubt', (wire) => {
    expect(paidForByWire(wire)).toBeNull();
    expect(categoryDoubt([...sales, tx('2026-03-16', wire, 9850)])).toMatch(/^The credit of \$9850\.00 on 2026-03-16 .*(is of a kind no rule knows|reads like)/);
  });

  it('a sender the merchant also pays in the period stays doubted', () => {
    const wire = tx('2026-03-16', 'INCOMING WIRE TRANSFER ORG:BRIARWOOD COMMONS RETAIL LLC SNOW CONTRACT Q4 REF 1223G8814', 9850);
    expect(categoryDoubt([...sales, wire])).toBeNull();
    const paid = tx('2026-03-09', 'ACH DEBIT BRIARWOOD COMMONS RENT 8898176826', -6240);
    expect(categoryDoubt([...sales, paid, wire])).toMatch(ONE_OFF);
  });
});

describe("a combined statement's loan table header is a summary's columns, no debits section", () => {
  // blind-48 N05: a credit union's Account Summary, then "Loan Accounts  Loan ID  Rate  Payments
  // Balance" read as a debits heading (PAYMENTS): the checking share's rows below it were all signed
  // as debits and its "Total Deposits and Credits" did not reconcile.
  it.each(['Loan Accounts Loan ID Rate Payments Balance', 'Loans  Rate  Principal  Balance', 'Loan Accounts  APR  Payment Due  Balance'])('%s', (h) => {
    expect(headingOf(h)).toEqual({ kind: 'summary', category: 'summary' });
  });
  it('a payments heading without a rate and a balance still opens a debits section', () => {
    expect(headingOf('Loan Payments')?.kind).toBe('debit');
    expect(headingOf('Electronic Payments')?.kind).toBe('debit');
  });
});

describe("a supplier's credit memo, its store bought from by card under a store number printed without #", () => {
  // blind-48 N04: "SITEONE LANDSCAP CREDIT MEMO" (the ACH name cut at 16 characters) beside card
  // purchases "POS PURCHASE SITEONE 0417 PEORIA IL TERM 360035": the same supplier, paid more than it
  // gave back, so money given back, not a credit of a kind no rule knows.
  const memo = tx('2026-03-20', 'BRAMBLETON SUPPL CREDIT MEMO 1176769272', 524.3);
  const card = (date: string, dollars: number) => tx(date, `POS PURCHASE BRAMBLETON 0417 PEORIA IL TERM ${date.slice(-2)}0035`, -dollars);
  it('paid at least as much by card: given back', () => {
    expect(paysCounterparty('POS PURCHASE BRAMBLETON 0417 PEORIA IL TERM 360035', ['BRAMBLETON', 'SUPPL'])).toBe(true);
    expect(paidBack([...sales, card('2026-03-05', 463.23), card('2026-03-12', 982.34), memo]).has(memo)).toBe(true);
  });
  it('paid less, or not by card (an ACH debit to a payee of another name), still doubted', () => {
    expect(paidBack([...sales, card('2026-03-05', 100), memo]).has(memo)).toBe(false);
    expect(paysCounterparty('ACH DEBIT BRAMBLETON 0417 PEORIA', ['BRAMBLETON', 'SUPPL'])).toBe(false);
  });
});
