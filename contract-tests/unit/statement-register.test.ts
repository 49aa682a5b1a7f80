import { describe, expect, it } from 'vitest';
import { analyzeStatementPdf, type StatementResult } from '../../src/features/statements/analyze';
import { statementPdf, type PageSpec } from '../support/statement-builder';

// Registers the reader refused in statements-blind-4 (does_not_reconcile), each rule on a small
// statement built for it: a landscape CR/DR register whose pages end in "Page totals ... Carried
// forward" and start with "Balance brought forward from page n" (none of them transactions or the
// statement's totals), whose checks are register lines "Check 2211" beside a separate checks total;
// and a history whose fee rows quote the bounced item's amount in the description, wrapping onto a
// line that reads like a heading ("Yellowstone Capi Ycl Debit").

const read = async (pages: PageSpec[], o?: { landscape?: boolean }) => analyzeStatementPdf(await statementPdf(pages, o));
function figures(r: StatementResult) {
  expect(r.ok, JSON.stringify(r)).toBe(true);
  if (!r.ok) throw new Error('not parsed');
  return r.figures;
}

describe('a landscape CR/DR register with page totals, carried-forward and brought-forward lines', () => {
  const reg = (d: string, desc: string, amt: string, bal: string): PageSpec[number] => [[40, d], [90, desc], [560, amt, { r: true }], [700, bal, { r: true }]];
  const pages = (o: { pageTotals?: string } = {}): PageSpec[] => [
    [
      [[40, 'Queen City National Bank'], [420, 'Statement Period Date: 3/1/2026 - 3/31/2026']],
      [[40, 'RIVERFRONT PRESS LLC'], [480, 'Beginning Balance'], [740, '1,000.00 CR', { r: true }]],
      [[480, 'Deposits / Credits  (2)'], [740, '3,000.00 CR', { r: true }]],
      [[480, 'Checks  (1)'], [740, '400.00 DR', { r: true }]],
      [[480, 'Withdrawals / Debits  (2)'], [740, '1,100.00 DR', { r: true }]],
      [[480, 'Ending Balance'], [740, '2,500.00 CR', { r: true }]],
      'Account Activity',
      [[40, 'Date', { b: true }], [90, 'Description', { b: true }], [560, 'Amount', { b: true, r: true }], [700, 'Balance', { b: true, r: true }]],
      reg('03/02', 'PREAUTHORIZED CREDIT STRIPE TRANSFER', '2,000.00 CR', '3,000.00'),
      [[90, 'ST-8812 260302']],
      reg('03/03', 'Check 101', '400.00 DR', '2,600.00'),
      reg('03/04', 'PREAUTHORIZED DEBIT XCEL ENERGY', '1,000.00 DR', '1,600.00'),
      [[40, o.pageTotals ?? 'Page totals:'], [300, 'Credits 2,000.00 CR'], [470, 'Debits 1,400.00 DR'], [620, 'Carried forward 1,600.00']],
    ],
    [
      [[40, 'Queen City National Bank'], [420, 'Statement Period Date: 3/1/2026 - 3/31/2026']],
      'Account Activity - continued',
      [[40, 'Date', { b: true }], [90, 'Description', { b: true }], [560, 'Amount', { b: true, r: true }], [700, 'Balance', { b: true, r: true }]],
      [[40, 'Balance brought forward from page 1'], [700, '1,600.00', { r: true }]],
      reg('03/16', 'PREAUTHORIZED CREDIT STRIPE TRANSFER', '1,000.00 CR', '2,600.00'),
      reg('03/17', 'MONTHLY SERVICE FEE', '100.00 DR', '2,500.00'),
      [[40, 'Page totals:'], [300, 'Credits 1,000.00 CR'], [470, 'Debits 100.00 DR'], [620, 'Carried forward 2,500.00']],
      [[40, 'Ending Balance'], [700, '2,500.00 CR', { r: true }]],
    ],
  ];
  it('reads the register: page totals and forwarded balances are neither totals nor rows; withdrawals beside checks exclude the "Check 101" line', async () => {
    const f = figures(await read(pages(), { landscape: true }));
    expect(f).toMatchObject({ beginning_balance: 1000, ending_balance: 2500, deposits_total: 3000, deposit_count: 2, true_revenue: 3000 });
  }, 60_000);
  it('a page total that is not labelled as one still has to match the statement (a wrong total is refused)', async () => {
    const r = await read(pages({ pageTotals: 'Totals:' }), { landscape: true });
    expect(r).toMatchObject({ ok: false, code: 'does_not_reconcile' });
  }, 60_000);
});

describe('a history whose fee rows quote the bounced amount and wrap onto a heading-like line', () => {
  const row = (d: string, desc: string, cr: string, dr: string, bal = ''): PageSpec[number] => [[40, d], [80, desc], ...(cr ? ([[430, cr, { r: true }]] as const) : []), ...(dr ? ([[500, dr, { r: true }]] as const) : []), ...(bal ? ([[570, bal, { r: true }]] as const) : [])];
  it('the quoted amount stays in the description; the wrapped "... Debit" line is not a section', async () => {
    const f = figures(await read([[
      'Pioneer Trail Bank', 'March 1, 2026 - March 31, 2026  |  Page 1 of 1',
      [[40, 'Beginning balance on 3/1'], [300, '$100.00', { r: true }]],
      [[40, 'Deposits/Credits'], [300, '1,500.00', { r: true }]],
      [[40, 'Withdrawals/Debits'], [300, '- 1,670.00', { r: true }]],
      [[40, 'Ending balance on 3/31'], [300, '-$70.00', { r: true }]],
      'Transaction history',
      [[380, 'Deposits/', { b: true }], [460, 'Withdrawals/', { b: true }], [530, 'Ending daily', { b: true }]],
      [[40, 'Date', { b: true }], [80, 'Description', { b: true }], [430, 'Credits', { b: true, r: true }], [500, 'Debits', { b: true, r: true }], [570, 'balance', { b: true, r: true }]],
      row('3/2', 'Square Inc Deposit 260302 Blue Door Cafe', '1,000.00', ''),
      row('3/2', 'Yellowstone Capi Ycl Debit 260302 Blue Door Cafe', '', '1,600.00', '-500.00'),
      row('3/3', 'Non-Sufficient Funds Fee for a Transaction $1,600.00', '', '35.00', '-535.00'),
      [[80, 'Yellowstone Capi Ycl Debit']],
      row('3/4', 'Returned Item Credit Insufficient Funds', '500.00', '', ''),
      [[80, 'Yellowstone Capi Ycl Debit']],
      row('3/4', 'Monthly Service Fee', '', '35.00', '-70.00'),
      [[40, 'Ending balance on 3/31'], [570, '-70.00', { r: true }]],
    ]]));
    expect(f).toMatchObject({ deposits_total: 1500, deposit_count: 2, nsf_count: 1, ending_balance: -70, true_revenue: 1000 });
  }, 60_000);
});

// statements-blind-20 (Atlantic Union-style): a sectioned statement without a running balance whose
// last page prints two different tables side by side, "Checks Paid" (number, date, amount, with
// gaps) beside a "Daily Balance Summary" (date, balance). Read as one table, the balances were taken
// for checks and the printed "Checks" total was refused (does_not_reconcile).
describe('checks paid beside a daily balance summary on one page', () => {
  const sec = (d: string, desc: string, amt: string): PageSpec[number] => [[40, d], [80, desc], [420, amt, { r: true }]];
  const pages = (checksTotal = '400.00'): PageSpec[] => [
    [
      [[40, 'Chesapeake Union Bank'], [360, 'Statement ending 3/31/26']],
      [[40, 'Statement period 3/1/26 - 3/31/26']],
      [[40, 'Beginning balance'], [250, '$1,000.00', { r: true }]],
      [[40, 'Deposits & other credits'], [250, '3,000.00', { r: true }]],
      [[40, 'Withdrawals & other debits'], [250, '700.00', { r: true }]],
      [[40, 'Checks'], [250, checksTotal, { r: true }]],
      [[40, 'Ending balance'], [250, '$2,900.00', { r: true }]],
      'Deposits & Other Credits',
      [[40, 'Date', { b: true }], [80, 'Description', { b: true }], [420, 'Amount', { b: true, r: true }]],
      sec('3/2', 'PREAUTHORIZED CREDIT', '2,000.00'),
      [[88, 'WORLDPAY DEPOSIT 1234']],
      sec('3/9', 'PREAUTHORIZED CREDIT', '1,000.00'),
      [[88, 'WORLDPAY DEPOSIT 5678']],
      [[80, 'Total deposits & other credits'], [420, '3,000.00', { r: true }]],
      'Withdrawals & Other Debits',
      [[40, 'Date', { b: true }], [80, 'Description', { b: true }], [420, 'Amount', { b: true, r: true }]],
      sec('3/4', 'PREAUTHORIZED DEBIT', '700.00'),
      [[88, 'XCEL ENERGY PAYMENT 4321']],
      [[80, 'Total withdrawals & other debits'], [420, '700.00', { r: true }]],
    ],
    [
      [[40, 'Checks Paid', { b: true }], [322, 'Daily Balance Summary', { b: true }]],
      [[40, 'Number', { b: true }], [110, 'Date', { b: true }], [260, 'Amount', { b: true, r: true }], [322, 'Date', { b: true }], [560, 'Balance', { b: true, r: true }]],
      [[40, '101'], [110, '3/5'], [260, '150.00', { r: true }], [322, '3/2'], [560, '3,000.00', { r: true }]],
      [[40, '103*'], [110, '3/12'], [260, '250.00', { r: true }], [322, '3/4'], [560, '2,300.00', { r: true }]],
      [[40, 'Total checks'], [260, '400.00', { r: true }], [322, '3/5'], [560, '2,150.00', { r: true }]],
      [[40, '* Gap in check sequence'], [322, '3/9'], [560, '3,150.00', { r: true }]],
      [[322, '3/12'], [560, '2,900.00', { r: true }]],
    ],
  ];
  it('each table read on its own: two checks against the Checks total, the balances as daily balances', async () => {
    const f = figures(await read(pages()));
    expect(f).toMatchObject({ beginning_balance: 1000, ending_balance: 2900, deposits_total: 3000, deposit_count: 2, true_revenue: 3000, negative_days: 0 });
  }, 60_000);
  it('a Checks total the checks do not make is still refused', async () => {
    expect(await read(pages('450.00'))).toMatchObject({ ok: false, code: 'does_not_reconcile' });
  }, 60_000);
});

describe('a checks-paid total below a register whose fee line names a check', () => {
  // Busey-style (blind-21): one register with a CHECK NO column and trailing minus signs; the bank's
  // "OVERDRAFT ITEM FEE CHECK 102" names a check too, so "CHECKS PAID ... TOTAL" stands for the rows
  // read with a check number, not for every line naming a check.
  const reg = (d: string, no: string, desc: string, amt: string, bal: string): PageSpec[number] => [[40, d], [100, no], [160, desc], [560, amt, { r: true }], [700, bal, { r: true }]];
  const pages = (checksTotal = '900.00'): PageSpec[] => [
    [
      [[40, 'PRAIRIE TEST BANK  STATEMENT OF ACCOUNT']],
      [[40, 'CHAMPAIGN PRINT CO'], [300, 'PREVIOUS BALANCE'], [440, '1,000.00', { r: true }], [500, 'STATEMENT DATES 4/1/26 THRU 4/30/26']],
      [[300, '2 DEPOSITS/CREDITS'], [440, '3,000.00', { r: true }]],
      [[300, '4 CHECKS/DEBITS'], [440, '1,736.00-', { r: true }]],
      [[300, 'ENDING BALANCE'], [440, '2,264.00', { r: true }]],
      [[40, 'DATE', { b: true }], [100, 'CHECK NO', { b: true }], [160, 'DESCRIPTION', { b: true }], [560, 'AMOUNT', { b: true, r: true }], [700, 'BALANCE', { b: true, r: true }]],
      reg('4/1/26', '', 'BALANCE FORWARD', '', '1,000.00'),
      reg('4/2/26', '101', 'CHECK 101', '400.00-', '600.00'),
      reg('4/3/26', '102', 'CHECK 102', '500.00-', '100.00'),
      reg('4/3/26', '', 'OVERDRAFT ITEM FEE CHECK 102', '36.00-', '64.00'),
      reg('4/6/26', '', 'ACH CREDIT STRIPE TRANSFER 7536260453 CCD', '2,000.00', '2,064.00'),
      reg('4/9/26', '', 'ACH DEBIT XCEL ENERGY PAYMENT 4276004880 CCD', '800.00-', '1,264.00'),
      reg('4/20/26', '', 'ACH CREDIT STRIPE TRANSFER 9868534686 CCD', '1,000.00', '2,264.00'),
      reg('4/30/26', '', 'ENDING BALANCE', '', '2,264.00'),
      [[40, `CHECKS PAID THIS PERIOD: 2  TOTAL ${checksTotal}  (INCLUDED IN CHECKS/DEBITS ABOVE)`]],
    ],
  ];
  it('reads the checks total against the two checks, the fee line apart', async () => {
    const f = figures(await read(pages(), { landscape: true }));
    expect(f).toMatchObject({ beginning_balance: 1000, ending_balance: 2264, deposits_total: 3000, deposit_count: 2, nsf_count: 1 });
  }, 60_000);
  it('a checks total the checks do not make is still refused', async () => {
    expect(await read(pages('936.00'), { landscape: true })).toMatchObject({ ok: false, code: 'does_not_reconcile' });
  }, 60_000);
});

describe('a summary box printing the service charge in a cell of its own, apart from CHECKS/DEBITS (blind-38, First Interstate-style)', () => {
  // "n CHECKS/DEBITS" leaves out the service charge the box prints beside it ("SERVICE CHARGE"), while
  // the checks listing's total below restates checks the debits include: the debits less the fee
  // cell's rows, to the cent and in number (the count in front of the label).
  const reg = (d: string, no: string, desc: string, dr: string, cr: string, bal: string): PageSpec[number] => [[40, d], [90, no], [150, desc], ...(dr ? ([[520, dr, { r: true }]] as const) : []), ...(cr ? ([[610, cr, { r: true }]] as const) : []), [700, bal, { r: true }]];
  const pages = (debits = '1,700.00', count = '3'): PageSpec[] => [
    [
      [[40, 'BIG TEST FRONTIER BANK  STATEMENT OF ACCOUNT'], [480, 'STATEMENT PERIOD 04/01/26 THRU 04/30/26']],
      [[40, 'RIMROCK PRINT CO']],
      [[40, 'BEGINNING BALANCE'], [170, '2 DEPOSITS/CREDITS'], [310, `${count} CHECKS/DEBITS`], [450, 'SERVICE CHARGE'], [590, 'ENDING BALANCE']],
      [[140, '1,000.00', { r: true }], [280, '3,000.00', { r: true }], [420, debits, { r: true }], [560, '18.00', { r: true }], [700, '2,282.00', { r: true }]],
      [[40, 'DATE', { b: true }], [90, 'CHECK NO', { b: true }], [150, 'DESCRIPTION', { b: true }], [520, 'DEBITS', { b: true, r: true }], [610, 'CREDITS', { b: true, r: true }], [700, 'BALANCE', { b: true, r: true }]],
      reg('04/01', '', 'BEGINNING BALANCE', '', '', '1,000.00'),
      reg('04/02', '101', 'CHECK', '400.00', '', '600.00'),
      reg('04/03', '102', 'CHECK', '500.00', '', '100.00'),
      reg('04/06', '', 'ACH CR STRIPE TRANSFER CO ID 7536260453 CCD', '', '2,000.00', '2,100.00'),
      reg('04/09', '', 'ACH DR XCEL ENERGY PAYMENT CO ID 4276004880 CCD', '800.00', '', '1,300.00'),
      reg('04/20', '', 'ACH CR STRIPE TRANSFER CO ID 9868534686 CCD', '', '1,000.00', '2,300.00'),
      reg('04/30', '', 'SERVICE CHARGE ACCOUNT ANALYSIS', '18.00', '', '2,282.00'),
      reg('04/30', '', 'ENDING BALANCE', '', '', '2,282.00'),
      [[40, 'CHECKS IN SERIAL ORDER']],
      [[40, '101'], [110, '04/02'], [200, '400.00', { r: true }], [240, '102'], [310, '04/03'], [400, '500.00', { r: true }]],
      [[40, '* SKIP IN CHECK SEQUENCE  2 CHECKS TOTALING  900.00']],
    ],
  ];
  it('reads CHECKS/DEBITS as the debits less the service charge row', async () => {
    const f = figures(await read(pages(), { landscape: true }));
    expect(f).toMatchObject({ beginning_balance: 1000, ending_balance: 2282, deposits_total: 3000, deposit_count: 2 });
  }, 60_000);
  it('a CHECKS/DEBITS total or count the debits less the service charge do not make is still refused', async () => {
    expect(await read(pages('1,718.00'), { landscape: true })).toMatchObject({ ok: false, code: 'does_not_reconcile' });
    expect(await read(pages('1,700.00', '4'), { landscape: true })).toMatchObject({ ok: false, code: 'does_not_reconcile' });
  }, 60_000);
});

describe('a fees box below the register repeating its fee lines (blind-22, Provident-style)', () => {
  // One register with leading +/- amounts and a running balance, then "FEES CHARGED THIS PERIOD
  // (INCLUDED IN CURRENT BALANCE)" listing the register's fee lines again: a recap, counted once.
  const reg = (d: string, desc: string, amt: string, bal: string): PageSpec[number] => [[40, d], [120, desc], [560, amt, { r: true }], [700, bal, { r: true }]];
  const pages = (boxFee = 'MONTHLY SERVICE CHARGE'): PageSpec[] => [
    [
      [[40, 'RIVERTEST SAVINGS BANK'], [520, 'PERIOD 03/01/2026 - 03/31/2026']],
      [[40, 'PREVIOUS BALANCE'], [200, 'DEPOSITS/CREDITS (1)'], [340, 'WITHDRAWALS/DEBITS (1)'], [480, 'FEES CHARGED (2)'], [620, 'CURRENT BALANCE']],
      [[40, '1,000.00'], [200, '2,000.00'], [340, '800.00'], [480, '45.00'], [620, '2,155.00']],
      'ACCOUNT TRANSACTIONS',
      [[40, 'POST DATE', { b: true }], [120, 'DESCRIPTION', { b: true }], [560, 'AMOUNT', { b: true, r: true }], [700, 'BALANCE', { b: true, r: true }]],
      reg('03/02/2026', 'ELECTRONIC CREDIT SQUARE INC SQ260 1234567890', '+2,000.00', '3,000.00'),
      reg('03/03/2026', 'ELECTRONIC DEBIT XCEL ENERGY PAYMENT 4276004880', '-800.00', '2,200.00'),
      reg('03/20/2026', 'OVERDRAFT FEE ITEM PAID CHECK 3345', '-35.00', '2,165.00'),
      reg('03/31/2026', 'MONTHLY SERVICE CHARGE', '-10.00', '2,155.00'),
      'FEES CHARGED THIS PERIOD (INCLUDED IN CURRENT BALANCE)',
      [[40, '03/20/2026'], [120, 'OVERDRAFT FEE ITEM PAID CHECK 3345'], [560, '-35.00', { r: true }]],
      [[40, '03/31/2026'], [120, boxFee], [560, '-10.00', { r: true }]],
      [[120, 'TOTAL FEES'], [560, '45.00', { r: true }]],
    ],
  ];
  it('reads the box as a recap of register rows, not as more activity', async () => {
    const f = figures(await read(pages(), { landscape: true }));
    expect(f).toMatchObject({ beginning_balance: 1000, ending_balance: 2155, deposits_total: 2000, deposit_count: 1, nsf_count: 1 });
  }, 60_000);
  it('a box with a line the register does not hold is no recap (refused)', async () => {
    expect(await read(pages('WIRE TRANSFER FEE'), { landscape: true })).toMatchObject({ ok: false, code: 'does_not_reconcile' });
  }, 60_000);
});

describe('a summary split by kind, its checks line printed again below the register (blind-22, Old Second-style)', () => {
  // "Electronic Withdrawals (3)" holds a card purchase and a loan payment as well as ACH debits: no
  // set of rows read from their descriptions makes it, so the box's debit lines are bound together
  // to the debit side (to the cent and in number). "Checks in this period: 1, totaling 400.00"
  // restates the box's "Checks Paid (1)": one line of the box, not a second.
  const reg = (d: string, desc: string, dr: string, cr: string, bal: string): PageSpec[number] => [[40, d], [84, desc], ...(dr ? ([[420, dr, { r: true }]] as const) : []), ...(cr ? ([[494, cr, { r: true }]] as const) : []), [570, bal, { r: true }]];
  const pages = (electronic = '1,250.00'): PageSpec[] => [
    [
      [[40, 'Fox Test Second National Bank'], [330, 'Statement Period 03/01/2026 thru 03/31/2026']],
      [[50, 'Beginning Balance'], [290, '$1,000.00', { r: true }], [330, 'Ending Balance'], [560, '$2,315.00', { r: true }]],
      [[50, 'Deposits & Other Credits (2)'], [290, '+3,000.00', { r: true }], [330, 'Average Ledger Balance'], [560, '$2,000.00', { r: true }]],
      [[50, 'Checks Paid (1)'], [290, '-400.00', { r: true }], [330, 'Low Balance'], [560, '$600.00', { r: true }]],
      [[50, 'Electronic Withdrawals (3)'], [290, `-${electronic}`, { r: true }]],
      [[50, 'Other Debits / Fees (1)'], [290, '-35.00', { r: true }]],
      'ACCOUNT ACTIVITY',
      [[40, 'Date', { b: true }], [84, 'Description', { b: true }], [420, 'Debits', { b: true, r: true }], [494, 'Credits', { b: true, r: true }], [570, 'Balance', { b: true, r: true }]],
      reg('03/02', 'ACH Deposit CLOVER MERCHANT SETTLEMENT', '', '2,000.00', '3,000.00'),
      reg('03/03', 'Check 1041', '400.00', '', '2,600.00'),
      reg('03/04', 'Debit Card Purchase NAPA AUTO PARTS', '250.00', '', '2,350.00'),
      reg('03/05', 'ACH Withdrawal KAPITUS SERVICIN DAILY', '500.00', '', '1,850.00'),
      reg('03/06', 'ALLY AUTO LOAN 4471', '500.00', '', '1,350.00'),
      reg('03/09', 'Overdraft Paid Item Fee', '35.00', '', '1,315.00'),
      reg('03/16', 'ACH Deposit CLOVER MERCHANT SETTLEMENT', '', '1,000.00', '2,315.00'),
      [[40, 'Checks in this period: 1, totaling 400.00 (shown above by date paid)']],
    ],
  ];
  it('binds the box lines together to the debits, the restated checks line once', async () => {
    const f = figures(await read(pages()));
    expect(f).toMatchObject({ beginning_balance: 1000, ending_balance: 2315, deposits_total: 3000, deposit_count: 2 });
  }, 60_000);
  it('a box line the debits do not make is still refused', async () => {
    expect(await read(pages('1,260.00'))).toMatchObject({ ok: false, code: 'does_not_reconcile' });
  }, 60_000);
});

describe('a service fee summary by type below the register (blind-23, Cathay-style)', () => {
  // "SERVICE FEE SUMMARY" / "Fee Type  Items  Amount" / one line per fee type, then the period's
  // total: each type's line sums the register's fee lines its words describe, the total all of them.
  // ("Overdraft Item Fee" was checked only against all the fees, or the fees that are not overdraft
  // or NSF ones, and so refused.)
  const reg = (d: string, desc: string, dr: string, cr: string, bal: string): PageSpec[number] => [[40, d], [84, desc], ...(dr ? ([[420, dr, { r: true }]] as const) : []), ...(cr ? ([[494, cr, { r: true }]] as const) : []), [570, bal, { r: true }]];
  const pages = (o: { odItems?: string; odAmount?: string; wire?: string } = {}): PageSpec[] => [
    [
      [[40, 'Harbor Test Pacific Bank'], [330, 'Statement Period 05/01/2026 - 05/31/2026']],
      [[50, 'Beginning Balance'], [290, '$1,000.00', { r: true }]],
      [[50, 'Credits (2)'], [290, '+3,000.00', { r: true }]],
      [[50, 'Debits (4)'], [290, '-1,672.00', { r: true }]],
      [[50, 'Ending Balance'], [290, '$2,328.00', { r: true }]],
      'TRANSACTION DETAIL',
      [[40, 'Date', { b: true }], [84, 'Description', { b: true }], [420, 'Debits', { b: true, r: true }], [494, 'Credits', { b: true, r: true }], [570, 'Balance', { b: true, r: true }]],
      reg('05/04', 'ACH CREDIT CLOVER MERCHANT DEPOSIT', '', '2,000.00', '3,000.00'),
      reg('05/06', 'ACH DEBIT RESTAURANT DEPOT PAYMENT', '1,600.00', '', '1,400.00'),
      reg('05/07', 'OVERDRAFT ITEM FEE ACH DEBIT RESTAURANT DEPOT', '35.00', '', '1,365.00'),
      reg('05/12', 'WIRE TRANSFER FEE OUTGOING', '25.00', '', '1,340.00'),
      reg('05/18', 'ACH CREDIT CLOVER MERCHANT DEPOSIT', '', '1,000.00', '2,340.00'),
      reg('05/31', 'MONTHLY SERVICE CHARGE', '12.00', '', '2,328.00'),
      'SERVICE FEE SUMMARY',
      [[50, 'Fee Type', { b: true }], [300, 'Items', { b: true, r: true }], [420, 'Amount', { b: true, r: true }]],
      [[50, 'Overdraft Item Fee'], [300, o.odItems ?? '1', { r: true }], [420, o.odAmount ?? '35.00', { r: true }]],
      [[50, 'Wire Transfer Fee'], [300, '1', { r: true }], [420, o.wire ?? '25.00', { r: true }]],
      [[50, 'Monthly Service Charge'], [300, '1', { r: true }], [420, '12.00', { r: true }]],
      [[50, 'Total Service Fees'], [300, '3', { r: true }], [420, '72.00', { r: true }]],
    ],
  ];
  it('each fee type\'s line is checked against the register\'s fee lines its words describe', async () => {
    const f = figures(await read(pages()));
    expect(f).toMatchObject({ beginning_balance: 1000, ending_balance: 2328, deposits_total: 3000, deposit_count: 2, nsf_count: 1 });
  }, 60_000);
  it('a type\'s line the register does not make is still refused', async () => {
    expect(await read(pages({ odItems: '2', odAmount: '70.00' }))).toMatchObject({ ok: false, code: 'does_not_reconcile' });
    expect(await read(pages({ wire: '30.00' }))).toMatchObject({ ok: false, code: 'does_not_reconcile' });
  }, 60_000);
});
