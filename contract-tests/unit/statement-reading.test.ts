import { existsSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { analyzeStatementPdf, type StatementResult } from '../../src/features/statements/analyze';
import { dateIn } from '../../src/features/statements/period';
import { reconcile } from '../../src/features/statements/reconcile';
import { numericDate, parseMoney, signedCents } from '../../src/features/statements/tokens';
import { statementPdf, type Cell, type PageSpec } from '../support/statement-builder';
import { formatScore, scoreCorpus } from '../support/statement-score';

// The reading rules of the statement reader, each on a small statement built for it (real PDFs read
// through the same child process and reconciliation the API uses), and the dev corpus
// (contract-tests/fixtures/statements/, truth computed from the generated transactions): every
// statement there is either fully right or failed, never parsed with a wrong figure.

let n = 0;
const read = async (pages: PageSpec[], o?: { landscape?: boolean }) => {
  const b = await statementPdf(pages, o);
  if (process.env.DUMP_PDFS) (await import('node:fs')).writeFileSync(`/tmp/sr/t${++n}.pdf`, b);
  return analyzeStatementPdf(b);
};
function figures(r: StatementResult) {
  expect(r.ok, JSON.stringify(r)).toBe(true);
  if (!r.ok) throw new Error('not parsed');
  return r.figures;
}
function failed(r: StatementResult, code: string) {
  expect(r).toMatchObject({ ok: false, code });
  expect(r).not.toHaveProperty('figures');
}

// A table: Date | Description | Amount | Balance
const AMT = (date: string, desc: string, amount: string, balance?: string): PageSpec[number] => [[50, date], [100, desc], [420, amount, { r: true }], ...(balance ? ([[540, balance, { r: true }]] as const) : [])];
const HEAD: PageSpec[number] = [[50, 'Date', { b: true }], [100, 'Description', { b: true }], [420, 'Amount', { b: true, r: true }], [540, 'Balance', { b: true, r: true }]];

describe('numbers and signs', () => {
  it.each([
    ['1,234.56', 123456, null], ['$1,234.56', 123456, null], ['(310.00)', -31000, 'paren'], ['125.00-', -12500, 'minus'], ['-125.00', -12500, 'minus'],
    ['\u2013219.00', -21900, 'minus'], ['\u2212219.00', -21900, 'minus'], ['349.00DR', -34900, 'dr'], ['349.00CR', 34900, 'cr'], ['-$1,000.00', -100000, 'minus'], ['$-5.00', -500, 'minus'],
    // A trailing plus marks a credit as a leading one does (a mainframe summary's "31,287.35+").
    ['31,287.35+', 3128735, 'cr'],
  ])('%s', (text, cents, marker) => {
    const m = parseMoney(text)!;
    expect(m.marker).toBe(marker);
    expect(signedCents(m)).toBe(cents);
  });
  it('refuses what is not an amount', () => {
    for (const t of ['1042', '10/02', '(310.00', '12.5', 'abc']) expect(parseMoney(t)).toBeNull();
  });

  it('a signed amount column in every format, "$ " and CR/DR as separate words, a blank for zero: parsed and reconciled', async () => {
    const r = await read([[
      'Lakeshore Bank', 'Statement Period 10/01/2026 - 10/31/2026', [[50, 'Beginning Balance'], [300, '$1,000.00', { r: true }]], HEAD,
      AMT('10/02', 'CARD SETTLEMENT VISA', '$1,234.56', '2,234.56'),
      AMT('10/03', 'POS PURCHASE SYSCO', '(310.00)', '1,924.56'),
      AMT('10/05', 'ACH DEBIT XCEL ENERGY', '125.00-', '1,799.56'),
      AMT('10/06', 'POS PURCHASE HOME DEPOT', '-125.00', '1,674.56'),
      AMT('10/07', 'ACH DEBIT COMCAST', '\u2013219.00', '1,455.56'),
      [[50, '10/08'], [100, 'WIRE OUT LANDLORD'], [420, '349.00 DR', { r: true }], [540, '1,106.56', { r: true }]],
      [[50, '10/09'], [100, 'DEPOSIT SQUARE INC'], [420, '500.00 CR', { r: true }], [540, '1,606.56', { r: true }]],
      [[50, 'Ending Balance'], [300, '$1,606.56', { r: true }]],
    ]]);
    expect(figures(r)).toMatchObject({ beginning_balance: 1000, ending_balance: 1606.56, deposits_total: 1734.56, deposit_count: 2 });
  });

  it('separate withdrawal and deposit columns decide the sign (an unsigned payout is a credit, whatever its words)', async () => {
    const row = (d: string, desc: string, w: string, dep: string, bal: string): PageSpec[number] => [[50, d], [100, desc], ...(w ? ([[390, w, { r: true }]] as const) : []), ...(dep ? ([[470, dep, { r: true }]] as const) : []), [550, bal, { r: true }]];
    const r = await read([[
      'Lakeshore Bank', 'Statement Period: 10/01/2026 through 10/31/2026', [[50, 'Opening balance'], [300, '500.00', { r: true }]],
      [[50, 'Date', { b: true }], [100, 'Description', { b: true }], [390, 'Withdrawals', { b: true, r: true }], [470, 'Deposits', { b: true, r: true }], [550, 'Balance', { b: true, r: true }]],
      row('10/02', 'PAYMENT FROM STRIPE TRANSFER', '', '800.00', '1,300.00'),
      row('10/03', 'DEPOSIT CORRECTION DEBIT', '100.00', '', '1,200.00'),
      [[50, 'Closing balance'], [300, '1,200.00', { r: true }]],
    ]]);
    expect(figures(r)).toMatchObject({ deposits_total: 800, deposit_count: 1, ending_balance: 1200 });
  });
});

describe('page subtotals', () => {
  it('"Total Debits/Credits this page" under each page\'s columns is that page\'s, not the statement\'s: read past, the statement reconciles', async () => {
    const row = (d: string, desc: string, w: string, dep: string, bal = ''): PageSpec[number] => [[50, d], [100, desc], ...(w ? ([[390, w, { r: true }]] as const) : []), ...(dep ? ([[470, dep, { r: true }]] as const) : []), ...(bal ? ([[550, bal, { r: true }]] as const) : [])];
    const head: PageSpec[number] = [[50, 'Date', { b: true }], [100, 'Description', { b: true }], [390, 'Debits', { b: true, r: true }], [470, 'Credits', { b: true, r: true }], [550, 'Balance', { b: true, r: true }]];
    const r = await read([
      ['Harbor Commerce Bank', 'Statement Period: 10/01/2026 through 10/31/2026', [[50, 'Beginning Balance'], [300, '500.00', { r: true }]], head,
        row('10/02', 'DEPOSIT AT BRANCH', '', '800.00'), row('10/03', 'ACH DEBIT CON EDISON', '100.00', '', '1,200.00'),
        [[100, 'Subtotal Debits and Credits on this page'], [390, '100.00', { r: true }], [470, '800.00', { r: true }]]],
      [head, row('10/09', 'DEPOSIT AT BRANCH', '', '50.00'), row('10/12', 'ACH DEBIT VERIZON', '25.00', '', '1,225.00'),
        [[100, 'Total Debits/Credits this page'], [390, '25.00', { r: true }], [470, '50.00', { r: true }]],
        [[50, 'Ending Balance'], [300, '1,225.00', { r: true }]]],
    ]);
    expect(figures(r)).toMatchObject({ deposits_total: 850, deposit_count: 2, ending_balance: 1225 });
  });
});

describe('dates and the period', () => {
  it.each([
    [[5, 2, null], '2026-05-02'], [[12, 20, null], '2025-12-20'], [[1, 5, null], '2026-01-05'], [[1, 3, 2026], '2026-01-03'],
  ] as const)('%j in 12/16/2025 - 05/15/2026 is %s', (md, iso) => {
    expect(dateIn([...md], { start: '2025-12-16', end: '2026-05-15' })).toBe(iso);
  });

  it('a period crossing the year end: December and January rows get their own years (05-02 style dates, Jan 03 style dates)', async () => {
    const r = await read([[
      'Pine Valley Credit Union', 'Statement Period: 12/16/2025 - 01/15/2026', [[50, 'Previous Balance'], [300, '100.00', { r: true }]], HEAD,
      AMT('12-20', 'DEPOSIT BRANCH', '50.00', '150.00'),
      AMT('Dec 31', 'POS PURCHASE', '-200.00', '-50.00'),
      AMT('Jan 03', 'DEPOSIT BRANCH', '100.00', '50.00'),
      AMT('1/5', 'DEPOSIT BRANCH', '10.00', '60.00'),
      [[50, 'New Balance'], [300, '60.00', { r: true }]],
    ]]);
    // End of day: 12/16-19 100 (4), 12/20-30 150 (11), 12/31-01/02 -50 (3), 01/03-04 50 (2), 01/05-15 60 (11) over 31 days
    expect(figures(r)).toMatchObject({ period_start: '2025-12-16', period_end: '2026-01-15', negative_days: 3, average_daily_balance: Math.round((400 + 1650 - 150 + 100 + 660) / 31 * 100) / 100 });
  });

  it('a statement printing only its closing date and the previous statement date; 2-digit years; Oct 2, 2026 dates', async () => {
    const r = await read([[
      'Granite State Bank', 'Statement Date: 10/31/25', 'Previous Statement Date: 09/30/25', [[50, 'Beginning Balance'], [300, '1,000.00', { r: true }]], HEAD,
      AMT('Oct 2, 2025', 'DEPOSIT BRANCH', '100.00', '1,100.00'),
      AMT('10/15/25', 'DEPOSIT BRANCH', '100.00', '1,200.00'),
      [[50, 'Ending Balance'], [300, '1,200.00', { r: true }]],
    ]]);
    expect(figures(r)).toMatchObject({ period_start: '2025-10-01', period_end: '2025-10-31', deposit_count: 2 });
  });

  it('an online export summarising in sentences: "balance went from X at the start of D to Y at the end of D", "received X in N ... and sent Y in M"', async () => {
    const page = (sent: string): PageSpec[] => [[
      'Ledgerly', 'Business Checking \u2022\u20224410 \u00b7 Statement for Mar 2, 2026 - Apr 1, 2026',
      'Your balance went from $1,000.00 at the start of Mar 2, 2026 to $1,150.00 at the end of Apr 1, 2026.',
      `You received $250.00 in 2 transactions and sent ${sent} in 1 transactions.`,
      HEAD, AMT('Mar 3, 2026', 'Stripe \u00b7 TRANSFER', '+$200.00', '$1,200.00'), AMT('Mar 9, 2026', 'Branch Deposit', '+$50.00', '$1,250.00'), AMT('Mar 20, 2026', 'Comcast \u00b7 BILL', '-$100.00', '$1,150.00'),
    ]];
    expect(figures(await read(page('$100.00')))).toMatchObject({ period_start: '2026-03-02', period_end: '2026-04-01', beginning_balance: 1000, ending_balance: 1150, deposit_count: 2 });
    failed(await read(page('$110.00')), 'does_not_reconcile');
  });

  it('10/01/25 THRU 10/31/25 periods', async () => {
    const r = await read([['Granite State Bank', 'STATEMENT PERIOD 10/01/25 THRU 10/31/25', [[50, 'BEGINNING BALANCE'], [300, '10.00', { r: true }]], HEAD, AMT('10/02', 'DEPOSIT', '5.00', '15.00'), [[50, 'ENDING BALANCE'], [300, '15.00', { r: true }]]]]);
    expect(figures(r)).toMatchObject({ period_start: '2025-10-01', period_end: '2025-10-31' });
  });

  it('a transaction outside the period fails does_not_reconcile', async () => {
    const r = await read([['Granite State Bank', 'Statement Period 10/01/2026 - 10/31/2026', [[50, 'Beginning Balance'], [300, '10.00', { r: true }]], HEAD, AMT('11/02/2026', 'DEPOSIT', '5.00', '15.00'), [[50, 'Ending Balance'], [300, '15.00', { r: true }]]]]);
    failed(r, 'does_not_reconcile');
  });
});

describe('sections, check registers, daily balances, wrapped descriptions', () => {
  const sectioned = (o: { dailyWrong?: boolean; checkSummaryTwice?: boolean } = {}): PageSpec[] => [
    [
      'Riverbend National Bank', 'Account Statement   October 1, 2026 - October 31, 2026',
      [[50, 'Beginning Balance', { b: true }], [180, 'Deposits and Credits', { b: true }], [320, 'Withdrawals and Debits', { b: true }], [540, 'Ending Balance', { b: true, r: true }]],
      [[120, '$2,000.00', { r: true }], [270, '$1,500.00', { r: true }], [420, '$1,239.00', { r: true }], [540, '$2,261.00', { r: true }]],
      'DEPOSITS AND OTHER CREDITS',
      [[50, 'Date', { b: true }], [100, 'Description', { b: true }], [540, 'Amount', { b: true, r: true }]],
      [[50, '10/02'], [100, 'CARD SETTLEMENT VISA'], [540, '1,000.00', { r: true }]],
      [[50, '10/14'], [100, 'ONLINE TRANSFER'], [540, '500.00', { r: true }]],
      [[100, 'FROM SAV XXXXXX4410']],
      [[100, 'Total Deposits and Other Credits'], [540, '$1,500.00', { r: true }]],
      'CHECKS PAID',
      [[50, 'Check', { b: true }], [100, 'Date', { b: true }], [190, 'Amount', { b: true, r: true }], [230, 'Check', { b: true }], [280, 'Date', { b: true }], [370, 'Amount', { b: true, r: true }], [410, 'Check', { b: true }], [460, 'Date', { b: true }], [550, 'Amount', { b: true, r: true }]],
      [[50, '1042'], [100, '10/05'], [190, '300.00', { r: true }], [230, '1043'], [280, '10/07'], [370, '100.00', { r: true }], [410, '1046*'], [460, '10/09'], [550, '40.00', { r: true }]],
      [[50, '1047'], [100, '10/12'], [190, '60.00', { r: true }]],
      'There are 4 checks totaling $500.00',
      'ELECTRONIC WITHDRAWALS',
      [[50, '10/08'], [100, 'ACH DEBIT'], [540, '349.00', { r: true }]],
      [[100, 'YELLOWSTONE CAPITAL PMT']],
      [[50, '10/20'], [100, 'Insufficient Funds Fee For A $389.00 Item'], [540, '35.00', { r: true }]],
      [[50, '10/21'], [100, 'ACH DEBIT XCEL ENERGY INVOICE TOTAL $1,299.00'], [540, '355.00', { r: true }]],
      ...(o.checkSummaryTwice ? ['SUMMARY OF CHECKS WRITTEN', [[50, '1042'], [100, '10/05'], [190, '300.00', { r: true }]] as PageSpec[number]] : []),
    ],
    [
      'Riverbend National Bank   Page 2',
      'DAILY ENDING BALANCE',
      [[50, '10/02'], [110, '3,000.00', { r: true }], [180, '10/05'], [240, '2,700.00', { r: true }], [310, '10/07'], [370, '2,600.00', { r: true }], [440, '10/08'], [500, '2,251.00', { r: true }]],
      [[50, '10/09'], [110, '2,211.00', { r: true }], [180, '10/12'], [240, '2,151.00', { r: true }], [310, '10/14'], [370, o.dailyWrong ? '2,561.00' : '2,651.00', { r: true }], [440, '10/20'], [500, '2,616.00', { r: true }]],
      [[50, '10/21'], [110, '2,261.00', { r: true }]],
    ],
  ];

  it('labels over amounts, deposits and checks sections, 3 checks a line with * gap marks, a quoted-item fee at the fee, a wrapped transfer, daily balances', async () => {
    const f = figures(await read(sectioned()));
    expect(f).toMatchObject({
      beginning_balance: 2000, ending_balance: 2261, deposits_total: 1500, deposit_count: 2,
      true_revenue: 1000, // the wrapped "ONLINE TRANSFER / FROM SAV" is a transfer, not revenue
      nsf_count: 1, // booked at 35.00, not the quoted 389.00 (the balances would not reconcile)
      mca_count: 1, // "ACH DEBIT / YELLOWSTONE CAPITAL PMT" wrapped over two lines
      mca_withhold_percent: 34.9,
    });
  });

  it('a printed daily balance that does not follow from the rows fails does_not_reconcile, with no figures', async () => {
    failed(await read(sectioned({ dailyWrong: true })), 'does_not_reconcile');
  });

  it('a "summary of checks written" repeating a check already in the history counts it once', async () => {
    const f = figures(await read(sectioned({ checkSummaryTwice: true })));
    expect(f.ending_balance).toBe(2261);
  });

  it('a printed section total that does not match its rows fails does_not_reconcile', async () => {
    const pages = sectioned();
    pages[0] = pages[0].map((l) => (typeof l === 'string' ? l.replace('4 checks totaling $500.00', '4 checks totaling $510.00') : l));
    failed(await read(pages), 'does_not_reconcile');
  });

  it('a summary box total that does not match the rows fails does_not_reconcile', async () => {
    const pages = sectioned();
    pages[0] = pages[0].map((l) => (Array.isArray(l) ? l.map((c) => (c[1] === '$1,500.00' && c[0] === 270 ? ([270, '$1,400.00', { r: true }] as typeof c) : c)) : l));
    failed(await read(pages), 'does_not_reconcile');
  });
});

describe('rows over two lines, balances on a day\'s last line', () => {
  it('a row whose amount is on the line below its date keeps its own date; a running balance printed only on each day\'s last row', async () => {
    const row = (d: string, desc: string, w: string, dep: string, bal: string): PageSpec[number] => [[50, d], [100, desc], ...(w ? ([[390, w, { r: true }]] as const) : []), ...(dep ? ([[470, dep, { r: true }]] as const) : []), ...(bal ? ([[550, bal, { r: true }]] as const) : [])];
    const f = figures(await read([[
      'Lakeshore Bank', 'Statement Period 10/01/2026 - 10/10/2026', [[50, 'Beginning Balance'], [300, '100.00', { r: true }]],
      [[50, 'Date', { b: true }], [100, 'Description', { b: true }], [390, 'Debits', { b: true, r: true }], [470, 'Credits', { b: true, r: true }], [550, 'Balance', { b: true, r: true }]],
      row('10/02', 'DEPOSIT SQUARE INC', '', '50.00', ''),
      row('10/02', 'POS PURCHASE SYSCO', '200.00', '', '-50.00'),
      row('10/06', 'ORIG CO NAME:SHOPIFY', '', '', ''),
      [[100, 'CO ENTRY DESCR:PAYOUT'], [470, '150.00', { r: true }], [550, '100.00', { r: true }]],
      [[50, 'Ending Balance'], [300, '100.00', { r: true }]],
    ]]));
    // End of day: 10/01 100, 10/02-10/05 -50 (4 days), 10/06-10/10 100 (5 days)
    expect(f).toMatchObject({ negative_days: 4, average_daily_balance: 40, deposit_count: 2, deposits_total: 200 });
  });
});

describe('a check number column, CR/DR amounts, daily ledger balances by month name', () => {
  it('reads them and reconciles against "additions" and "subtractions" totals', async () => {
    const row = (d: string, chk: string, desc: string, amt: string, bal: string): PageSpec[number] => [[40, d], ...(chk ? ([[95, chk]] as const) : []), [140, desc], [460, amt, { r: true }], [560, bal, { r: true }]];
    const f = figures(await read([[
      'Ozark Mountain Bank',
      'Statement Period: 09/01/2026 to 09/30/2026',
      [[40, 'Beginning balance'], [200, '1,000.00', { r: true }], [240, 'Total additions'], [400, '2,500.00', { r: true }]],
      [[40, 'Ending balance'], [200, '2,150.00', { r: true }], [240, 'Total subtractions'], [400, '1,350.00', { r: true }]],
      [[40, 'Date', { b: true }], [95, 'Check No.', { b: true }], [140, 'Description', { b: true }], [460, 'Amount', { b: true, r: true }], [560, 'Balance', { b: true, r: true }]],
      row('09/02', '', 'CARD PROCESSOR PAYOUT', '2,000.00 CR', '3,000.00'),
      row('09/03', '1042', 'CHECK', '350.00 DR', '2,650.00'),
      row('09/04', '', 'TRANSFER FROM SAVINGS', '500.00 CR', '3,150.00'),
      row('09/08', '', 'ACH PAYROLL', '1,000.00 DR', '2,150.00'),
      'Daily Ledger Balances',
      [[40, 'Sep 02'], [120, '3,000.00', { r: true }], [160, 'Sep 03'], [240, '2,650.00', { r: true }], [280, 'Sep 04'], [360, '3,150.00', { r: true }], [400, 'Sep 08'], [480, '2,150.00', { r: true }]],
    ]]));
    expect(f).toMatchObject({ deposits_total: 2500, deposit_count: 2, beginning_balance: 1000, ending_balance: 2150, negative_days: 0 });
  });
});

describe('page balances', () => {
  it('an "ending balance" printed under each page\'s rows: the one the rows reconcile to is the statement\'s', async () => {
    const f = figures(await read([
      ['Lakeshore Bank', 'Statement Period 10/01/2026 - 10/31/2026', [[50, 'Beginning Balance'], [300, '1,000.00', { r: true }]], HEAD, AMT('10/02', 'DEPOSIT SQUARE', '500.00', '1,500.00'), [[50, 'Ending balance'], [300, '1,500.00', { r: true }]], 'Page 1 of 2'],
      ['Lakeshore Bank', HEAD, AMT('10/20', 'DEPOSIT SQUARE', '500.00', '2,000.00'), [[50, 'Ending balance'], [300, '2,000.00', { r: true }]], 'Page 2 of 2'],
    ]));
    expect(f).toMatchObject({ ending_balance: 2000, deposits_total: 1000 });
  });
});

describe('newest first', () => {
  it('a history listed newest first, its running balances following from the bottom up; a wrong one still fails', async () => {
    const make = (lastBal: string): PageSpec[] => [[
      'Relay Business Bank', 'Statement period: Oct 1, 2026 - Oct 31, 2026', [[40, 'Starting balance'], [200, '$100.00', { r: true }]], [[40, 'Ending balance'], [200, '$130.00', { r: true }]],
      [[40, 'Date', { b: true }], [100, 'Description', { b: true }], [380, 'Money out', { b: true, r: true }], [460, 'Money in', { b: true, r: true }], [550, 'Balance', { b: true, r: true }]],
      [[40, 'Oct 20'], [100, 'Stripe payout'], [460, '$80.00', { r: true }], [550, '$130.00', { r: true }]],
      [[40, 'Oct 10'], [100, 'Gusto payroll'], [380, '\u2013$100.00', { r: true }], [550, '$50.00', { r: true }]],
      [[40, 'Oct 02'], [100, 'Shopify payout'], [460, '$50.00', { r: true }], [550, lastBal, { r: true }]],
    ]];
    expect(figures(await read(make('$150.00')))).toMatchObject({ deposits_total: 130, negative_days: 0, average_daily_balance: Math.round(((100 + 150 * 8 + 50 * 10 + 130 * 12) / 31) * 100) / 100 });
    failed(await read(make('$151.00')), 'does_not_reconcile');
  });
});

describe('summary boxes, multi-page and landscape tables', () => {
  it('label/value pairs side by side, several on one line; a landscape table continued over pages with repeated headers and footers', async () => {
    const head: PageSpec[number] = [[40, 'Posted', { b: true }], [110, 'Transaction Description', { b: true }], [560, 'Debits', { b: true, r: true }], [650, 'Credits', { b: true, r: true }], [750, 'Running Balance', { b: true, r: true }]];
    const rows: PageSpec[number][] = [];
    let bal = 50000;
    let credits = 0;
    let debits = 0;
    for (let d = 1; d <= 40; d++) {
      const day = 1 + (d % 28);
      const c = (d % 3 === 0 ? -1 : 1) * (1000 + d * 37);
      bal += c;
      if (c > 0) credits += c;
      else debits -= c;
      rows.push([[40, `11/${String(day).padStart(2, '0')}`], [110, c > 0 ? `DEPOSIT SHOPIFY ${d}` : `POS PURCHASE ${d}`], ...(c < 0 ? ([[560, (Math.abs(c) / 100).toFixed(2), { r: true }]] as const) : ([[650, (c / 100).toFixed(2), { r: true }]] as const)), [750, (bal / 100).toFixed(2), { r: true }]]);
    }
    // Rows by date, as banks print them; balances recomputed in that order.
    rows.sort((a, b) => String((a as [number, string][])[0][1]).localeCompare(String((b as [number, string][])[0][1])));
    bal = 50000;
    for (const r of rows as unknown as Array<Array<[number, string, object?]>>) {
      const amt = Math.round(Number(r[2][1]) * 100) * (r[2][0] === 560 ? -1 : 1);
      bal += amt;
      r[3] = [750, (bal / 100).toFixed(2), { r: true }];
    }
    const summary: PageSpec[number] = [[40, 'Beginning balance'], [200, '$500.00', { r: true }], [230, 'Total credits'], [380, `$${(credits / 100).toFixed(2)}`, { r: true }], [410, 'Total debits'], [560, `$${(debits / 100).toFixed(2)}`, { r: true }], [590, 'Ending balance'], [750, `$${(bal / 100).toFixed(2)}`, { r: true }]];
    const r = await read([
      ['Cascade Business Bank', 'Statement period: November 1, 2026 to November 30, 2026', summary, 'Account activity', head, ...rows.slice(0, 20), 'Page 1 of 2'],
      ['Cascade Business Bank', 'Account activity (continued)', head, ...rows.slice(20), 'Page 2 of 2'],
    ], { landscape: true });
    expect(figures(r)).toMatchObject({ beginning_balance: 500, ending_balance: bal / 100, deposits_total: credits / 100, deposit_count: rows.filter((x) => (x as unknown as [number][])[2][0] === 650).length });
  });

  it('a letter is not_a_statement; a statement without rows is no_transactions; no figures either way', async () => {
    failed(await read([['Dear Maria,', 'Thank you for your application dated 10/02/2026.', 'Kind regards']]), 'not_a_statement');
    failed(await read([['Lakeshore Bank', 'Statement Period 10/01/2026 - 10/31/2026', [[50, 'Beginning Balance'], [300, '10.00', { r: true }]], [[50, 'Ending Balance'], [300, '10.00', { r: true }]]]]), 'no_transactions');
  });

  it('a row whose sign cannot be told (no column, marker, section or balance) fails rather than guessing', async () => {
    const r = await read([['Lakeshore Bank', 'Statement Period 10/01/2026 - 10/31/2026', [[50, 'Beginning Balance'], [300, '10.00', { r: true }]], [[50, 'Date'], [100, 'Description'], [420, 'Amount', { r: true }]], AMT('10/02', 'SOMETHING', '5.00'), [[50, 'Ending Balance'], [300, '15.00', { r: true }]]]]);
    failed(r, 'does_not_reconcile');
  });
});

// The dev corpus and the former blind batches (scored once blind, then used for development;
// their READMEs hold that first result): no statement parsed with a wrong figure, in any of them,
// whatever the figure (the reader's own or what rules.ts knows a description means), every
// expected failure failed, and at least as many parsed as the reader reaches today.
const CORPORA: Array<{ dir: string; minParsed: number }> = [
  { dir: 'contract-tests/fixtures/statements', minParsed: 35 },
  { dir: 'contract-tests/fixtures/statements-blind-1', minParsed: 12 },
  { dir: 'contract-tests/fixtures/statements-blind-2', minParsed: 12 },
  { dir: 'contract-tests/fixtures/statements-blind-3', minParsed: 8 },
  // Blind-4 scored 2 parsed with a wrong CATEGORY (a funder's wire and an own-account transfer as
  // revenue); the knowledge rows and the doubt guard (uncertain_categories) close both. Its three
  // refusals (page totals, checks beside withdrawals, quoted amounts) are read since.
  { dir: 'contract-tests/fixtures/statements-blind-4', minParsed: 10 },
  // Blind-5 scored 3 parsed with a wrong CATEGORY (Spartan Capital's "Withdrawal to ..." debits not
  // known and not doubted; card-purchase returns and a "Trf Fr Sv" transfer counted as revenue). The
  // rows for them and a guard that no longer trusts WITHDRAWAL, keys payees by their counterparty and
  // doubts money given back by a counterparty the merchant pays close all three.
  { dir: 'contract-tests/fixtures/statements-blind-5', minParsed: 12 },
  // Blind-6 scored 2 parsed with a wrong category (a money-market transfer, a debit-card credit as
  // revenue); the rows close both. Its two refusals (a BMO-style overdraft/NSF fee summary, its title
  // read into the first label) are read since.
  { dir: 'contract-tests/fixtures/statements-blind-6', minParsed: 8 },
  // Blind-7 scored 8/10 parsed, all right; its two refusals were a credit union's savings and
  // share-draft accounts printed on one statement, read since (each account apart, the share draft reported).
  { dir: 'contract-tests/fixtures/statements-blind-7', minParsed: 10 },
  // Blind-8 scored 4/10 parsed (3 fully right), 1 with a wrong NSF count (a deposited check returned
  // unpaid read as the merchant's returned item); the deposited_return row closes it (and settles
  // the bank's return-deposit-item charge, the $12 doubt). Its refusals (a summary as a row of boxes
  // with an ".00", a fee box beside the summary, a wire with a PO number) are read since.
  { dir: 'contract-tests/fixtures/statements-blind-8', minParsed: 10 },
  // Blind-9 scored 4/8 parsed, all right, none wrong. After its fixes 8/8: a fee box's "Fee per
  // item: $34.00" beside its item counts is a rate, not a total; a this-period / year-to-date fee
  // box ends at the next table's column header (TD-style: the register right under it had its first
  // rows' amounts dropped as year-to-date ones, so "Deposits" did not match).
  { dir: 'contract-tests/fixtures/statements-blind-9', minParsed: 8 },
  // Blind-10 scored 8/10 parsed (7 fully right), 1 with a wrong true revenue: an HVAC contractor's
  // payment from a utility's rebate programme ("DOMINION ENERGY REBATE PGM") read as money back,
  // because "REBATE" settled any credit as a refund. A programme's rebate or incentive pays the owner
  // who bought or the contractor who installed, so it is now doubted (that statement refuses,
  // uncertain_categories); only a supplier's purchase rebate stays a refund row. Its two refusals
  // (a supplier's credit memo) are read since: money given back by a counterparty the merchant paid
  // at least as much in the period is not revenue.
  { dir: 'contract-tests/fixtures/statements-blind-10', minParsed: 9 },
  // Blind-11 scored 5/10 parsed (3 fully right), 2 with a wrong true revenue: a trucker's factoring
  // advances settled as a loan (a "FACTORING ADV" phrase), an HVAC contractor's manufacturer warranty
  // credit and an insurance claim for the business's own loss (trailer damage) settled as sales.
  // Factoring, a claim naming a loss or damage, and a warranty credit are read either way in the
  // trade, so no row settles them: doubted (those statements refuse, uncertain_categories). Since:
  // "DEP/CREDITS" is a credit column (a typewriter register), "INV-2591" an invoice number.
  { dir: 'contract-tests/fixtures/statements-blind-11', minParsed: 5 },
  // Blind-12 scored 2/10 parsed (1 fully right), 1 with a wrong MCA count: a wire paying off
  // another funder's balance ("Outgoing Wire Cfg Merchant Solutions / Payoff Balance") counted as a
  // position; a payoff closes a position, it is none of its payments. Since: two tables side by side
  // (Deposits and Credits | Withdrawals and Debits, each its own Date / Description / Amount) read
  // as two; "14 Jan" dates and "14 Jan 2026 - 12 Feb 2026" periods (day first); "Start balance";
  // a processor's payout "NET OF SHOPIFY CAPITAL REMIT" is the processor's (sales), not the funder's;
  // an Amazon FBA inventory reimbursement is money given back. Its three refusals are credits the
  // trade reads either way (an insurance claim for an own loss twice, an owner's capital wire).
  { dir: 'contract-tests/fixtures/statements-blind-12', minParsed: 7 },
  // Blind-13 scored 5/10 parsed, all right, none wrong. Since, by rules from the page: "16-DEC" dates
  // (day first, the year from a period across the year end) on a landscape register with OD balances
  // and balances carried / brought forward; a pending box titled "... not included in this
  // statement" whose items' method lines read like headings; and from the trade: a consumer
  // financing program's payout (Service Finance) is sales, a chain's store paid by card ("FERGUSON
  // #2211") is the company whose credit memo comes back. Refused still: a supplier's "TYPE: CREDIT"
  // that says nothing of money back (uncertain_categories, the doubt policy), and a statement that
  // prints a malformed amount ("-$1,184.61.99999999998545", a generator fault) and so does not add up.
  // Since blind-19: a supplier's credit worded "<name> CREDIT" (or "TYPE: CREDIT") from a supplier paid at least
  // as much in the period is its money given back, as a credit memo is (doubt.ts paidBack): "CAFE VITA ROASTING TYPE: CREDIT" now parses (9/10).
  { dir: 'contract-tests/fixtures/statements-blind-13', minParsed: 9 },
  // Blind-14 scored 6/8 parsed, 5 right, ONE PARSED WRONG (evansville: an Idea Financial line-of-credit
  // payment counted as an MCA position, a supplier's "MSC INDUSTRIAL CREDIT" counted as sales). Since: a
  // line-of-credit payment is no position; a payee's own CREDIT from a payee the period pays is doubted
  // (evansville refused); Capytal is a known funder (bloomington right). Refused still: a supplier's
  // credit memo with no payment to it in the period (the doubt policy).
  // Since blind-19: a supplier's credit worded "<name> CREDIT" (or "TYPE: CREDIT") from a supplier paid at least
  // as much in the period is its money given back, as a credit memo is (doubt.ts paidBack): "MSC INDUSTRIAL CREDIT" now parses (7/8).
  // Since blind-20: a company's ACH credit memo from a company the period does not pay, under a tenth of
  // the credits, is its money given back (doubt.ts givenBackByEntry): Silk City's "ACH CREDIT SYSCO CORP CR MEMO" parses (8/8).
  // Since sfix19: a credit memo from a company the period paid nothing is doubted as one from a company
  // paid less than the memo is (one cautious policy, doubt.ts paidBack): Silk City refused again (7/8).
  { dir: 'contract-tests/fixtures/statements-blind-14', minParsed: 7 },
  // Blind-15 scored 8/8 parsed, all right, none wrong (the first batch read whole at its blind scoring): a
  // horizontal summary row and Date | Amount | Description sections, a landscape Courier register with an
  // effective-date column, sections closed by their own totals, a fintech table with no running balance.
  { dir: 'contract-tests/fixtures/statements-blind-15', minParsed: 8 },
  // Blind-16 scored 6/10 parsed, all right, none wrong. Since, by rules from the page: a year is never the
  // first digits of an amount (a newest-first register's summary "Beginning balance on Feb 1  22041.77",
  // no thousands separator, read as Feb 1, 2204 and $1.77: both refused); a fee box's "Fee refunds" is a
  // credit total of the credits refunding a fee (was a debit total of fees: refused). From the trade:
  // Family Funding Group is a known funder (its 22 daily debits were doubted as an unknown funder's,
  // uncertain_categories); "ACH RTN" is money given back. 10/10 parsed, 120/120 figures.
  { dir: 'contract-tests/fixtures/statements-blind-16', minParsed: 10 },
  // Blind-17 scored 3/10 parsed, 1 right, TWO PARSED WRONG (an owner's contribution deposited at the
  // teller, under a tenth of the credits and in no trade word, counted as sales). Since: the owner's
  // money put in is an own-account transfer (a row) and, worded so with no row, doubted however small.
  // By rules from the page: a service-charges box is the bank's own charges (not "ADP PAYROLL FEES");
  // "Money in / Money out by type" tables are each side's breakdown by place; a day's rows broken by a
  // page keep the day heading's date under the same column titles. From the trade: Knight Capital
  // Funding and "FOX BUSINESS FU". Refused still: a $21,969.34 customer's wire of no known kind (12% of
  // the credits; the doubt policy). 9/10 parsed, 108/120 figures.
  { dir: 'contract-tests/fixtures/statements-blind-17', minParsed: 9 },
  // Blind-18 scored 6/8 parsed, 5 right, ONE PARSED WRONG (a single "ONDECK CAPITAL LOAN PMT", a term
  // loan's monthly installment, counted as a third MCA position). Since: a known funder's only debit of
  // the period worded as a loan payment is doubted (installment or first pull: the line cannot say), so
  // that statement is refused, not guessed; an overdraft fee charged for an item that was a transfer is
  // an overdraft fee (the Fee Summary's "Overdraft Item Fees" now reconciles). Refused still: the
  // OnDeck statement above, and a $364.20 credit from a payee the merchant pays (the doubt policy).
  // 6/8 parsed, 72/96 figures, 0 wrong.
  // Since blind-19: a supplier's credit worded "<name> CREDIT" (or "TYPE: CREDIT") from a supplier paid at least
  // as much in the period is its money given back, as a credit memo is (doubt.ts paidBack): "POOLCORP SCP DIST CREDIT" now parses (7/8).
  // sfix2: a known funder's only debit worded as a loan payment, no credit from it, is a term loan's
  // installment (doubt.ts loanInstallments): the OnDeck statement parses, 8/8.
  { dir: 'contract-tests/fixtures/statements-blind-18', minParsed: 8 },
  // Blind-19 scored 6/10 parsed, all right, 72/120 figures, 0 wrong; the four refusals were two summary
  // styles no rule read (not_a_statement). Since, by rules from the page: "Opening Ledger" / "Closing
  // Ledger" are balances, a "# Credits" cell counts its side's total in a strip of labelled cells, an
  // amount before its label ("119,514.41  Total Credits: 24 items") is a total with its count, a
  // trailing "+" marks a credit ("31,287.35+"), "BALANCE THIS STATEMENT  06/30/26" (and a statement
  // date whose words a typewriter prints apart) closes the period. From the trade: Bryant Park Capital.
  // 10/10 parsed, 120/120 figures.
  { dir: 'contract-tests/fixtures/statements-blind-19', minParsed: 10 },
  // Blind-20 scored 4/8 parsed, all right, 48/96 figures, 0 wrong. Refused: a last page printing "Checks
  // Paid" beside a "Daily Balance Summary" read as one table (the printed Checks total unmatched), a
  // roofer's "ACH CREDIT BEACON BUILDING CREDIT MEMO" from a supplier not paid in the period and a
  // brewery's NACHA "CO ENTRY DESCR:CREDIT" from a supplier it pays (the doubt policy). Since, by a rule
  // from the page: two different tables side by side under their own headings are read apart
  // (columns.ts tablesBeside); from the trade: a company's ACH entry saying CREDIT MEMO (under a tenth
  // of the credits, the company unpaid in the period) or, NACHA, CREDIT (the company paid at least as
  // much) is its money given back (doubt.ts givenBackByEntry). 8/8 parsed, 96/96 figures. Since sfix19:
  // the roofer's BEACON credit memo, its company unpaid in the period, is doubted as one from a company
  // paid less than the memo is (one cautious policy, doubt.ts paidBack): refused again, 7/8.
  { dir: 'contract-tests/fixtures/statements-blind-20', minParsed: 7 },
  // Blind-21 scored 6/8 parsed, all right, 72/96 figures, 0 wrong. Refused: a Busey-style register whose
  // "CHECKS PAID THIS PERIOD: 10 TOTAL 7,370.18" did not match because an "OVERDRAFT ITEM FEE CHECK 4421"
  // line names a check too, and Wide Merchant's "WIDE MERCHANT IN FUNDING" deposit (a funder no row knew,
  // its name cut at 16 characters, 2 letters into a word) doubted as funding. Since, by a rule from the
  // page: a checks total stands for the rows read with a check number (reconcile.ts); from the trade:
  // Wide Merchant Group is a known funder (its deposit is funding, its daily debits a position). 8/8
  // parsed, 96/96 figures.
  { dir: 'contract-tests/fixtures/statements-blind-21', minParsed: 8 },
  // Blind-22 scored 2/8 parsed, all right, 24/96 figures, 0 wrong. Refused: a landscape Courier summary
  // whose labels pdf.js cut at their spaces ("PREVIOUS" "BALANCE": no opening or closing balance), an
  // Old Second-style box split by kind ("Electronic Withdrawals (47)") whose checks line is printed again
  // below the register, and an online bank's "Summary by type  In  Out" read as an "ACH" total. Since,
  // by rules from the page: a typewriter font's one-space gap is inside a cell (lines.ts); a later
  // section repeating earlier rows one for one is a recap counted once, and a summary line printed
  // twice is one line of its by-kind box, bound with the others to its side (reconcile.ts); a
  // "Summary by type" over In / Out is each side's breakdown, each column bound to its side
  // (read-totals.ts). 8/8 parsed, 96/96 figures.
  { dir: 'contract-tests/fixtures/statements-blind-22', minParsed: 8 },
  // Blind-23 scored 7/8 parsed, 6 fully right, 82/96 figures, ONE PARSED WRONG (a Hanmi-style "ACH CR
  // JFC INTERNATIONA CREDIT", a supplier's credit, counted as sales: "CR" read as a word of the name, so
  // the supplier paid by "ACH DR JFC INTERNATIONA INV PMT" was not found). Refused: a Cathay-style SERVICE
  // FEE SUMMARY's "Overdraft Item Fee 1 35.00" (checked only against all the fees, or the fees that are
  // not overdraft or NSF ones). Since, by a rule from the page: CR / DR right after ACH (or EFT) is the
  // bank's direction, channel words (rules.ts channelLead); a fee summary's line per fee type stands
  // for the fee lines its words describe (reconcile.ts). 8/8 parsed, 96/96 figures.
  { dir: 'contract-tests/fixtures/statements-blind-23', minParsed: 8 },
  // Scored blind 2/8, 0 wrong (24/96 figures): the UMB-style pair read right; refused the Banner-style
  // landscape pair (register in two newspaper columns, summary after the activity: not_a_statement,
  // still refused), the Live Oak-style pair (weekday before each date, "Thu 04/02": no row had a
  // date) and the Lili-style pair (a Tax Bucket sub-account's "balance on May 31" taken for the
  // account's closing). Since: a weekday is part of the date (tokens.ts), a sub-account's balance is
  // another account's (read-totals.ts), the bank's interest is not revenue (rules.ts), a register in
  // two newspaper columns is read down each column (columns.ts sideBySide). 8/8, 96/96.
  { dir: 'contract-tests/fixtures/statements-blind-24', minParsed: 8 },
  // Blind-25 scored 4/8 parsed (3 fully right), 1 with a wrong true revenue: a supplier's CREDIT whose
  // ACH company name was cut at 16 characters matched no payee its card purchases named whole, so it
  // was counted as sales (and not doubted). After its fixes (a cut name matches, booking platforms'
  // payouts are a processor's, rows under day headings with no table header) 6/8; the two refusals
  // are right: a large once-only credit of no known kind, a funder's only loan-worded debit.
  // sfix2: the loan-worded debit is a term loan's installment (no credit from that funder): 7/8.
  { dir: 'contract-tests/fixtures/statements-blind-25', minParsed: 7 },
  // Blind-26 scored 3/8 parsed (all right), none wrong. After its fixes (dates printed "DEC11", a
  // footer legend naming the debits is no heading, an overdraft-privilege programme's fee is an
  // overdraft fee, short day headings without the year, an account title atop every later page is a
  // running header) 6/8; the two refusals are right: a factoring company's payment and a warranty
  // credit (the trade reads both either way), and a lender-processor's equal weekly debits that no
  // funder row knows (an advance's pulls or a loan's: uncertain_categories, never a wrong MCA figure).
  // 7/8 since sfix7 (2026-11-29): the lender-processor's equal weekly debits ("NEWTEK MERCHANT WEEKLY
  // DEBIT") are a position, MERCHANT after a name naming a funder (doubt.ts unknownFunderPositions).
  { dir: 'contract-tests/fixtures/statements-blind-26', minParsed: 7 },
  // Blind-27 scored 6/8 (all right), none wrong. After the interest paid printed apart from the
  // deposits in the summary is read as its own line, 7/8; the refusal is right: a funder's only
  // loan-worded debit (PayPal's loan repayment, a term loan's installment or an advance's pull).
  // sfix2: after PayPal's credit worded LOAN DISBURSE, its one LOAN REPAYMENT is that loan's: 8/8.
  { dir: 'contract-tests/fixtures/statements-blind-27', minParsed: 8 },
  // Blind-28 scored 2/8 parsed (1 fully right), 1 with a wrong true revenue: a parts store's "<name>
  // CREDIT" (AUTO in its name read as "automatic", paid by card as "On 0812 NAPA AUTO 4410") matched no
  // payee and was counted as sales. After its fixes (that credit, a row of boxes label left / amount
  // right, "Money in" over its breakdown, a summary balance dated before its label, SEC codes and
  // suffixes after a supplier's name, a credit memo's cut ACH name) 8/8, 96/96.
  { dir: 'contract-tests/fixtures/statements-blind-28', minParsed: 8 },
  // Blind-29 scored 5/8 parsed (all right), none wrong. Its refusals: a credit union's supplier "TYPE:
  // CREDIT" with the company-name field after it (uncertain_categories), and a Wise-style account
  // printed newest first, each row's date on a line below its sentence. After its fixes (that wording,
  // a date printed below the row) 7/8, 84/96; the other Wise-style statement still refuses a funder's
  // only debit after a line draw from it (uncertain_categories, by design).
  // sfix2: after a credit worded only as a line's DRAW, the funder's one debit is the line's payment: 8/8.
  { dir: 'contract-tests/fixtures/statements-blind-29', minParsed: 8 },
  // Blind-30 scored 0/8 parsed, none wrong. After its fixes (a by-type box beside the summary read
  // apart, a checks total without the bank's fee naming a check, a rate quoted "$15.00 PER WIRE" in a
  // notice, "This statement: <date>", Idea Financial as IDEA 247 INC) 7/8; the refusal is right: a
  // factoring advance, which the trade (and blind-11's truth) reads either way.
  { dir: 'contract-tests/fixtures/statements-blind-30', minParsed: 7 },
  // Blind-31 scored 7/8 parsed (all right), none wrong: a brewery's weekly pulls by "WIDE MERCHANT" (Wide
  // Merchant Investment's bare ACH name) doubted as an unknown funder's. After its fixes (that name in
  // the funder table, a transfer from a full account number "41-0081-4435" an own transfer) 8/8, 96/96.
  { dir: 'contract-tests/fixtures/statements-blind-31', minParsed: 8 },
  // Blind-32 scored 2/8 parsed, 24/96, none wrong. After its fixes (sfix14) 6/8: a branch "Financial
  // Center" is no funder, a core-charge credit is money back, a register under a "Balance Summary" box
  // is no daily balances, a credit union's "Type: CREDIT  Co: X  ID: n" is the supplier's credit.
  // The Amex-style register's "Pending  Not yet posted..." title over its own header is that box
  // (sfix2): both now reconcile; a supplier's "NAME - CREDIT  ACH credit  Trace n" is its credit (7/8).
  // Denver still refuses a client's round $24,500 wire of no known kind (uncertain_categories), rightly.
  { dir: 'contract-tests/fixtures/statements-blind-32', minParsed: 7 },
  // Blind-33 scored 8/8 parsed, 96/96, none wrong (Old National-, Tri Counties-, Live Oak- and Hancock
  // Whitney-style: checks among other debits, one signed Amount column, the summary after the rows).
  { dir: 'contract-tests/fixtures/statements-blind-33', minParsed: 8 },
  // Blind-34 scored 4/8 parsed (all right), none wrong (Ramp-style ISO dates and a summary table at the
  // top right: not_a_statement; Atlantic Union-style date headings: does_not_reconcile). Since 7/8: a
  // balance box at the right beside the title and the period is read as its own lines, a day heading's
  // weekday may stand in parentheses, a day's "Ending ledger balance" is its daily balance. Still
  // refused: a manufacturer's warranty credit (uncertain_categories, by design).
  { dir: 'contract-tests/fixtures/statements-blind-34', minParsed: 8 },
  // Blind-35 scored 3/8 parsed (all right), none wrong; 4/8 with Capchase in the funder table. After
  // its fixes (sfix3) 8/8: a summary of several accounts (a row per share and a Total) beside the
  // member's address read past, a debit worded as an insurance premium no unknown advance's pull, a
  // supplier's WARRANTY CREDIT from a supplier paid more in the period money back.
  { dir: 'contract-tests/fixtures/statements-blind-35', minParsed: 8 },
  // Blind-36 scored 6/8 parsed, 5 fully right, ONE wrong (a North One-style fintech's envelope
  // transfer and a vendor's overbill credit counted as sales). After its fixes (sfix2) 8/8: a transfer
  // from an envelope / pocket / bucket is a transfer, an overbill or overcharge credit a refund, Wall
  // Street Funding a funder; a sub-account transfer in words no row knows, overbill words, and a credit
  // from a vendor paid by card (the channel printed after the name) are doubted.
  { dir: 'contract-tests/fixtures/statements-blind-36', minParsed: 8 },
  // Blind-37 scored 3/8 parsed, all fully right, none wrong. After its fixes (sfix, 2026-11-29) 5/8:
  // Newtek Merchant Funding under its cut name ("NEWTEK MERCH FUN") a funder, a transfer the line says
  // is from the owner a transfer, a supplier's RMA credit money given back when the supplier is paid
  // in the period. Still refused: two factoring advances (the trade reads them either way) and an
  // insurance claim for a loss.
  { dir: 'contract-tests/fixtures/statements-blind-37', minParsed: 5 },
  // Blind-38 scored 6/8 parsed, all fully right, none wrong. After its fixes (sfix2, 2026-11-29) 8/8:
  // a credit memo printed "<company>/CREDIT MEMO" (or "ACH CR <company>") money given back by the
  // company the debits pay ("<company>/INVOICE", "ACH DR <company>"), and a "73 CHECKS/DEBITS" box
  // cell that leaves out the service charge printed in its own cell.
  { dir: 'contract-tests/fixtures/statements-blind-38', minParsed: 8 },
  // Blind-39 scored 7/8 parsed, all fully right, none wrong. After its fix (sfix3, 2026-11-29) 8/8:
  // a seller's "WARRANTY CR" under its legal name ("TA OPERATING LLC") money given back when its
  // stores ("CHECK CARD PURCHASE TA TRUCK SERVICE") are paid by card at least as much in the period.
  { dir: 'contract-tests/fixtures/statements-blind-39', minParsed: 8 },
  // Blind-40 scored 6/8 parsed, all fully right, none wrong. After its fix (sfix4, 2026-11-29) 7/8: a
  // funder no row knows pulling one sum on the schedule its ACH entry names ("ALPINE FUNDING P
  // WEEKLY") is a position of that payee. Still refused: a convention and visitors authority's bare
  // incoming wire, 13% of the credits (a public tourism body pays its vendors but also gives grants).
  { dir: 'contract-tests/fixtures/statements-blind-40', minParsed: 7 },
  // Blind-41 scored 4/8 parsed, all fully right, none wrong. After its fixes (sfix5, 2026-11-29) 8/8:
  // a credit union's share heading ("BUSINESS CHECKING - SHARE 10") names its account by the share
  // id; one amount under the balance column alone on a row's wrapped description line is its running
  // balance ("ID 8855148974 CCD  42,854.75"); a numbered pay application (PAY APP 7) is a customer's.
  { dir: 'contract-tests/fixtures/statements-blind-41', minParsed: 8 },
  // Blind-42 scored 2/8 parsed, all fully right, none wrong. After its fixes (sfix6, 2026-11-29) 7/8:
  // a DD-MON-YYYY period ("16-DEC-2026 TO 15-JAN-2027"); a row's description line in one cell under
  // it ("CHECK DEPOSIT") is no header; a relationship summary's "Total Deposit Balances" is no credits
  // total; a supplier's BILLING CREDIT paid back within the period is a refund; a capital management
  // company's VENDOR PMT is a customer's. Still refused: a growers' association's one incoming wire
  // for a named job, 15% of the credits (a customer, or a loan, grant or insurance payout).
  { dir: 'contract-tests/fixtures/statements-blind-42', minParsed: 7 },
  // Blind-44 scored 2/8 parsed, all fully right, none wrong. After its fix (sfix7, 2026-11-29) 8/8:
  // an unknown funder's equal pulls are a position when its name carries a funder word whole or cut
  // at 16 characters ("... FUNDI", "... FDG"), MERCHANT after a name, RTR / RCVBL, or a bare CAPITAL
  // with REMIT, and the pulls are worded DAILY / WEEKLY or entered as remittances every business day
  // or week; a large credit from that payee before its pulls is its funding, not revenue.
  { dir: 'contract-tests/fixtures/statements-blind-44', minParsed: 8 },
  // Blind-43 scored 5/8 parsed then (with sfix7's broader funder words) 6/8, one with a WRONG MCA count: a
  // lender's ADVANCE credit and its ONE REPAYMENT debit two weeks later counted as a third position.
  // After its fix (sfix8, 2026-11-29) 7/8: a known funder's only debit of the period worded as a
  // repayment, a week and more after its funding, is a loan's installment (sooner, doubted); Bizcap
  // is a known funder. Still refused: a one-off client wire for a named event (a kind no rule knows).
  { dir: 'contract-tests/fixtures/statements-blind-43', minParsed: 7 },
  // Blind-45 scored 4/8 parsed, one with a WRONG MCA count: a day-grouped register's note "1 check
  // paid - see Checks Paid", read into a funder's weekly pull, made it look like a check, neither
  // counted nor doubted. After its fix (sfix8) 3/8, all right: the note is no word of the entry, and
  // the pull is doubted. Still refused: a bare CAP funder's DAILY PMT, the two-column register, the
  // day-grouped register's checks (does_not_reconcile). After sfix10 4/8, all right: the two-column
  // register whose rows stand on baselines of their own is read down the left column, then the right
  // (N05/N06 reconcile, still refused for an unknown funder's pulls named only FUND or MERCH), and a
  // "n checks paid - see Checks Paid" note at a page's top is no Checks Paid heading (N07 parsed).
  // After sfix11 6/8: those pulls, one sum every business day, are an advance's daily pulls (doubt.ts
  // dailyPulls). Still refused: N02, one funder's daily pulls under two descriptors (the same sum to
  // another payee before or after keeps them doubted), and N08's weekly bare-CAP pulls.
  { dir: 'contract-tests/fixtures/statements-blind-45', minParsed: 6 },
  // Blind-46 scored 2/8 parsed, one with a WRONG MCA count and withholding: a split advance's pulls
  // ("... CAPITAL LLC SPLIT 11%", a different sum every business day) neither counted nor doubted, the
  // unknown-funder doubt grouping equal sums only. After its fix (sfix9, 2026-11-29) 5/8, all right: a
  // funder-named payee's SPLIT / HOLDBACK pulls on an advance's schedule are its position, and differing
  // sums to a payee with a funder's words or a share of sales on that schedule are doubted; MERCHA ending
  // a 16-character ACH name is MERCHANT cut; FIRE before a claim's word is the insurer's name; a summary
  // cell "Balance on <date>" is opening or closing by its date. Still refused: equal daily or weekly
  // pulls to payees without a funder's word (a name cut to one letter, RECEIVABLES, REVENU). After
  // sfix11 7/8: one sum to one payee on every business day of its span (8+ pulls; weekends, bank
  // holidays and a day per returned pull aside) is an advance's daily pulls whatever the payee's name
  // (doubt.ts dailyPulls). Still refused: the weekly RECEIVABLES pulls (a vendor's department too).
  { dir: 'contract-tests/fixtures/statements-blind-46', minParsed: 7 },
  // Blind-47 scored 6/8 parsed, all right, none wrong. After its fix (sfix11, 2026-11-29) 7/8: a wire
  // whose sender names what it buys (a model year, make and model number; a dedicated lane) is a
  // customer's (rules.ts paidForByWire), and a supplier's WARRANTY PARTS CR paid back within the
  // period is money given back. Still refused: a weekly pull to "GULF HARBOR FUND" (FUND alone names
  // benefit, ad and union funds too).
  { dir: 'contract-tests/fixtures/statements-blind-47', minParsed: 7 },
  // Blind-48 scored 4/8 parsed, all right, none wrong. After its fix (sfix12, 2026-11-29) 8/8: a
  // wire whose memo names work billed (an invoice or PO, a pay application, a progress billing,
  // retainage, or a contract or service and its period) from an organisation is a customer's
  // (rules.ts paidForByWire, workBilled); a loan table's column header is a summary's, no debits
  // section (sections.ts headingOf); a card store's number printed without # names the supplier of a
  // cut-name CREDIT MEMO (rules.ts paysCounterparty).
  { dir: 'contract-tests/fixtures/statements-blind-48', minParsed: 8 },
  // Blind-49 scored 5/8 parsed, all right, none wrong. After its fix (sfix14, 2026-11-29) 7/8: a
  // heading drawn between dashes ("- - - OTHER DEBITS - - -", its dashes cells of their own) over its
  // table header is a heading, not a two-line header's first line (read.ts); a supplier's WARRANTY
  // CR matches card purchases whose descriptor abbreviates its name, "CTR" for CENTERS (rules.ts
  // abbreviatedName). N03 stays refused on purpose: "<name> MERCH" weekly is no funder's name (MERCH
  // is a processor's abbreviation too).
  { dir: 'contract-tests/fixtures/statements-blind-49', minParsed: 7 },
  // Blind-50 scored 5/8 parsed, all right, none wrong. After its fix (sfix15, 2026-11-29) 6/8: a
  // supplier's CREDIT entry is read past the bank's BATCH number (rules.ts supplierCreditFrom), and
  // a public body's wire under a CONTRACT is a customer's (rules.ts paidForByWire, publicContract).
  // Still refused: weekly pulls to "<name> MERCH" (MERCH is a processor's word too), and a maker's
  // WARRANTY RFD from a payee not paid in the period (warranty credits are doubted by policy).
  { dir: 'contract-tests/fixtures/statements-blind-50', minParsed: 6 },
  // Blind-51 scored 6/8 parsed, all right, none wrong. After its fix (sfix16, 2026-11-29) 7/8: Pearl
  // Capital's funding entities, Pearl Beta / Pearl Delta Funding LLC, cut at 16 characters ("PEARL DELTA
  // FUND"), are Pearl Capital (knowledge.json). Still refused on purpose: a county's wire for an event
  // DEPOSIT (a deposit is money held, refundable; doubted by policy, rules.ts NO_PRICE).
  { dir: 'contract-tests/fixtures/statements-blind-51', minParsed: 7 },
  // Blind-52 scored 6/8 parsed, all right, none wrong. After its fix (sfix17, 2026-11-29) 8/8: a known
  // funder's debit worded as an EQUIP LEASE is the lease's payment (rules.ts funderRowsDisagree), and a
  // deposited check is no payee's credit because the merchant pays checks ("Check 5120" names no one;
  // doubt.ts fromPaidCounterparty), unless it carries a paid check's number.
  { dir: 'contract-tests/fixtures/statements-blind-52', minParsed: 8 },
  // Blind-53 scored 2/8 parsed, all right, none wrong. After its fix (sfix18, 2026-11-29) 6/8: a section
  // whose every row repeats a row already read (an "Electronic Items" summary after the register) is
  // dropped, not counted twice (read.ts withoutRepeatedListings); a box titled with period and YTD columns
  // is a summary, not a fees section (sections.ts headingOf); a dividend saying its APY earned is interest;
  // childcare tuition platforms are processors. Still refused on purpose: a supplier's credit memo larger
  // than the period paid that supplier (doubt.ts paidBack's bound, tested in statement-doubt.test.ts) and a
  // wire worded as a "340B SETTLEMENT" (a settlement may be a lawsuit's or an insurer's).
  { dir: 'contract-tests/fixtures/statements-blind-53', minParsed: 6 },
  // blind-54 (sfix20): a general contractor's progress payment beside its AP payments is its customer's
  // (doubt.ts billedByItsCustomer); the US Treasury disbursing a department's task order is no treasury
  // account (rules.ts treasuryPaysOrder); a fee line only doubted as an overdraft fee counts when the bank's
  // printed overdraft-fee total takes it (reconcile.ts feeCounted); a company with the warranty word in its
  // name paying the merchant as its vendor is a third-party payer (rules.ts warrantyCompanyPaysVendor).
  { dir: 'contract-tests/fixtures/statements-blind-54', minParsed: 8 },
  // Blind-55 scored 4/8 parsed, all right, none wrong. After its fix (sfix21, 2026-11-29) 8/8: a credit
  // union's DIVIDENDS cell beside a DEPOSITS cell that leaves them out is the interest credited, and must
  // be the dividend rows read (sections.ts labelOf, reconcile.ts); a "Sep 16  2291" line of a checks list
  // is Sep 16 and check 2291, a year taken only from the day's own cell (tokens.ts), so the list is read
  // as the register's checks again (same number, date and amount) and counted once.
  { dir: 'contract-tests/fixtures/statements-blind-55', minParsed: 8 },
  // Blind-56 scored 8/8 parsed, all 96 figures right, none wrong, before any change for it (2026-11-29).
  { dir: 'contract-tests/fixtures/statements-blind-56', minParsed: 8 },
  // Blind-57 scored 8/8 parsed, all 96 figures right, none wrong, before any change for it (2026-11-29).
  { dir: 'contract-tests/fixtures/statements-blind-57', minParsed: 8 },
  // Blind-58 (the first batch printed by headless Chromium from HTML) scored 3/8 parsed, none wrong.
  // After its fix (sfix22, 2026-11-29) 7/8: a line of one or two items (a word per item) set in the
  // typewriter font other lines of its page show is typewriter-spaced, so "OTHER" "DEBITS" is one
  // heading (lines.ts); a column spans its left-aligned title and the figures right-aligned under it,
  // so a short figure bare between two titles is its column's, not the balance's (columns.ts
  // fitColumnsOf). N02 stays refused: its "Keelson Treasury ••3388 Transfer in" names an account by
  // its kind and masked digits, which the doubt rule (statement-doubt.test.ts) leaves to a person.
  { dir: 'contract-tests/fixtures/statements-blind-58', minParsed: 7 },
  // Blind-59 (the first batch composed with ReportLab) scored 5/8 parsed, none wrong. After its fix
  // (sf59, 2026-11-29) 7/8: before any row, an account's own heading ("BUSINESS CHECKING") starts its
  // register, so the one-sided FEES box above it no longer signs the register's credits (read.ts; the
  // glyph-by-glyph items were joined right already); Amazon's payout as AMAZON.COM SVCS is the
  // marketplace's and Fundfi a known funder (knowledge.json). N05 stays refused: weekly pulls of
  // an "ADVANCE" payee no rule knows.
  { dir: 'contract-tests/fixtures/statements-blind-59', minParsed: 7 },
  // Blind-60 (the first batch from Ghostscript-converted PostScript and from groff) scored 2/8 parsed,
  // none wrong. After its fix (sf60, 2026-11-29) 7/8: a word struck twice over itself (bold by double
  // striking) is read once (lines.ts); a heading set letter by letter between dashes ("C H E C K S
  // P A I D") is the heading it spells (sections.ts unspaced); a sequence-number column after the
  // balance is no amount (rows.ts); the bank's fee for a check stays with the other debits
  // (reconcile.ts); a company's CCD credit worded PAYMENT is a customer's payment (knowledge.json).
  // N07 stays refused: an RTS Financial factoring advance, which the corpora's truths count as sales in
  // some batches and as loan proceeds in others, so the doubt rule leaves it to a person.
  { dir: 'contract-tests/fixtures/statements-blind-60', minParsed: 7 },
  // Blind-61 (the first batch from Apache FOP, PDFKit and jsPDF) scored 5/8 parsed, none wrong. After
  // its fix (sf61, 2026-11-30) 8/8: a register's closing "Total additions (n) and subtractions (n)"
  // line with two amounts is each side's total, not one total of both nor a heading (read-totals.ts
  // bothSidesTotal); a page's running footer is never the description of the page's last row
  // (lines.ts runningFooters: an FOP footer's "lost or stolen card" made an insurer's claim payment
  // look like a claim for a loss).
  { dir: 'contract-tests/fixtures/statements-blind-61', minParsed: 8 },
  // Blind-62 (the first batch composed by LibreOffice, Calc and Writer) scored 1/8 parsed, none wrong.
  // After its fix (sf62, 2026-11-30) 5/8: a dividend named by a type column and its details ("Dividend
  // | Dividend Earned", "Dividend Deposit | Share Draft Dividend") is the account's interest (rules.ts);
  // "Totals: 52 debits, 42 credits" splits at its comma into each side's total when its amounts lie
  // under those sides' columns (read-totals.ts bothSidesTotal); a row split by a page break goes on
  // under the next page's repeated titles (read.ts); "03-Apr-26" is a date (tokens.ts). N03, N04 (a
  // Calc grid summary with headings wrapped over three lines, a Totals row of three amounts) and N05
  // (an RTS factoring advance, doubted as in blind-60) stay refused. After the factoring fix (sf65)
  // 6/8: N05's "RTS FINANCIAL ... ENTRY DESCR:FACTORING" is the factor paying for invoices, sales.
  { dir: 'contract-tests/fixtures/statements-blind-62', minParsed: 6 },
  // Blind-63 (the first batch from pdflatex, WeasyPrint and wkhtmltopdf) scored 8/8 parsed, ONE with
  // a wrong figure: N01's solar-loan funding settlements ("GOODLEAP LLC Loan Funding Settlement")
  // settled as loan proceeds by the generic loan words. After its fix (sf63, 2026-11-30) 8/8: a
  // consumer-financing program's payout worded as its loan's funding is sales (rules.ts
  // depositKind); and more than two credits settled as loan or advance proceeds in one statement
  // (a line of credit's draws aside) are doubted, never a confident low revenue (doubt.ts
  // recurringLoanCredits).
  { dir: 'contract-tests/fixtures/statements-blind-63', minParsed: 8 },
  // Blind-64 (the first batch composed by Cairo/Pango and by Chromium printing a web app's CSS grid /
  // flexbox view) scored 3/8 parsed, none wrong. After its fix (sf64, 2026-11-30) 6/8: a transfer the
  // bank calls "between your accounts" is the merchant's own money (knowledge.json); a dated day
  // heading carrying the day's closing balance ("May 4 ... End of day balance $13,174.61") heads the
  // day's rows and is that day's balance, no transaction (read.ts). N02 (a trucker's factoring
  // advance) and N08 (weekly debits to a funder no row knows) stay refused. After the factoring fix
  // (sf65) 7/8: N02's "TRIUMPH PAY FACTORING" is a factor paying for invoices, sales (rules.ts
  // factoringSale); its ADVANCE would stay doubted.
  { dir: 'contract-tests/fixtures/statements-blind-64', minParsed: 7 },
  // Blind-65 (report-engine, iText-like, print-server and object-stream PDFs written by hand) scored
  // 7/8 parsed, none wrong. After its fix (sf65, 2026-11-30) 8/8: a sale barn's "LIVESTOCK PROCEEDS"
  // (and the name cut, "LIVESTOC") is the proceeds of a sale of the merchant's goods, sales (rules.ts
  // saleProceeds); a loan's, a note's, a government program's or an asset's proceeds stay doubted.
  { dir: 'contract-tests/fixtures/statements-blind-65', minParsed: 8 },
  // Blind-66 (statements composed by other software: an OCR'd scan's word-per-Tm invisible layer, a
  // browser print of online activity, groff/tbl, two months merged in one PDF) scored 4/8 parsed, 2
  // WRONG (N08 a merged file read as its first month, N01 a funder's pulls missed where OCR words were
  // glued). After its fix (sf66, 2026-11-30) 4/8 parsed, 4/8 fully right, none wrong: a PDF holding
  // several statements is read part by part and combined only when the parts chain (parts.ts); items
  // on baselines or at sizes of their own, or with a space shown between, are never glued into one
  // word (lines.ts); a debit that is a known funder's with other spacing but names none is doubted
  // (doubt.ts spacingTwin). N02 (one glued Kalamata pull), N03/N04 (browser activity prints) and N07
  // (a factoring credit) stay refused.
  // With the factoring fix (sf65) merged: 5/8, N07 read right (both months, its factor's payment sales).
  { dir: 'contract-tests/fixtures/statements-blind-66', minParsed: 5 },
  // Blind-67 (PDF internals: /Rotate 90 pages drawn sideways, a flipped scaled user space with Form
  // XObjects, Tc/Tw/Ts and /Differences fonts, a two-up register) scored 8/8 blind, none wrong.
  { dir: 'contract-tests/fixtures/statements-blind-67', minParsed: 8 },
  // Not blind: one seeded transaction model rendered in 39 layout variations x 4 (generate.ts there)
  // to find where the reader's rules do not generalise: "+" credit marks, "Money In / Money Out"
  // and "Incoming Payments" sections, a summary as a one-row table, amounts on a wrapped row's last
  // line (also on the next page), dates heading each day's rows, the date column right of the
  // description, a calendar month as the period, a summary by the bank's own categories, a service
  // charge beside overdraft fees, titles set left over figures set right, undated rows read as
  // labels, merchants named like a balance or a total ("NEW BALANCE", "TOTAL WINE"), "Date | Amount
  // | Description | Balance" and a "CREDIT MEMO" counted as sales were the reader's faults. Each
  // variation's fourth rendering carries one line no row knows (an unknown funder, own transfer,
  // loan or refund): refused or read right, never wrong. 143 since sfix4: an unknown funder's DAILY
  // pulls with the funding trade's words are a position (doubt.ts unknownFunderPositions).
  { dir: 'contract-tests/fixtures/statements-stress', minParsed: 143 },
];
describe.each(CORPORA.filter((c) => existsSync(`${c.dir}/truth.json`)))('the corpus $dir', ({ dir, minParsed }) => {
  it('no statement parsed with a wrong figure; every expected failure failed; parsed no fewer than before', async () => {
    const score = await scoreCorpus(dir, (b) => analyzeStatementPdf(b));
    const report = formatScore(dir, score);
    expect(score.parsedWrong.map((s) => s.file), report).toEqual([]);
    expect(score.statements.filter((s) => s.result.ok && s.expectedFailed).map((s) => s.file), report).toEqual([]);
    const readable = score.statements.filter((s) => !s.expectedFailed).length;
    expect(score.correctlyFailed, report).toBe(score.statements.length - readable);
    expect(score.parsed, report).toBeGreaterThanOrEqual(minParsed);
    expect(score.fullyRight, report).toBe(score.parsed);
  }, 300_000);
});

describe('a header box with the period stacked, rows and checks printed across with reference numbers', () => {
  const stmt = (o: { periodLabel?: string } = {}): PageSpec[] => [[
    [[42, 'Great Prairie Bank'], [460, 'Business Statement']],
    [[460, o.periodLabel ?? 'Statement Period:']],
    [[42, 'RIDGELINE ELECTRIC CO'], [460, 'Aug 1, 2026']],
    [[42, '1455 RICE ST'], [470, 'through']],
    [[460, 'Aug 31, 2026']],
    [[42, 'SAINT PAUL MN 55117']],
    'Account Summary',
    [[42, 'Beginning Balance on Aug 1'], [282, '$'], [380, '3,100.00', { r: true }]],
    [[42, 'Customer Deposits'], [260, '3', { r: true }], [380, '3,000.00', { r: true }]],
    [[42, 'Checks Paid'], [260, '4', { r: true }], [380, '1,000.00-', { r: true }]],
    [[42, 'Ending Balance on Aug 31, 2026'], [282, '$'], [380, '5,100.00', { r: true }]],
    'Customer Deposits',
    [[42, 'Date', { b: true }], [87, 'Ref Number', { b: true }], [280, 'Amount', { b: true, r: true }], [306, 'Date', { b: true }], [351, 'Ref Number', { b: true }], [545, 'Amount', { b: true, r: true }]],
    [[42, 'Aug 4'], [87, '2553824832'], [280, '1,000.00', { r: true }], [306, 'Aug 11'], [351, '5640413173'], [545, '1,500.00', { r: true }]],
    [[42, 'Aug 18'], [87, '3572674334'], [280, '500.00', { r: true }]],
    [[406, 'Total Customer Deposits'], [500, '$'], [545, '3,000.00', { r: true }]],
    'Checks Presented Conventionally',
    [[42, 'Check', { b: true }], [76, 'Date', { b: true }], [108, 'Ref Number', { b: true }], [210, 'Amount', { b: true, r: true }], [240, 'Check', { b: true }], [274, 'Date', { b: true }], [306, 'Ref Number', { b: true }], [408, 'Amount', { b: true, r: true }], [420, 'Check', { b: true }], [454, 'Date', { b: true }], [486, 'Ref Number', { b: true }], [570, 'Amount', { b: true, r: true }]],
    [[42, '7730'], [76, 'Aug 5'], [108, '4381711233'], [210, '250.00-', { r: true }], [240, '7731'], [274, 'Aug 6'], [306, '4212671450'], [408, '250.00-', { r: true }], [420, '7733*'], [454, 'Aug 7'], [486, '0605116107'], [570, '250.00-', { r: true }]],
    [[42, '7734'], [76, 'Aug 8'], [108, '4590658826'], [210, '250.00-', { r: true }]],
    [[42, '* Gap in check sequence'], [400, 'Conventional Checks Paid (4)'], [500, '$'], [570, '1,000.00-', { r: true }]],
  ]];
  it('reads the period down the box, each deposit and check of a line across, the reference numbers left out', async () => {
    expect(figures(await read(stmt()))).toMatchObject({ period_start: '2026-08-01', period_end: '2026-08-31', beginning_balance: 3100, ending_balance: 5100, deposits_total: 3000, deposit_count: 3 });
  });
  it('without a period label above the dates, no period is made up from them', async () => {
    failed(await read(stmt({ periodLabel: 'Account Number: 1 523 0007 2093' })), 'not_a_statement');
  });
});

describe('two accounts summarised side by side, each label over its amount', () => {
  it("the first account's totals are this statement's; the second's (other counts, other amounts) are not checked against its rows", async () => {
    const r = await read([[
      'Anchorpoint Federal Credit Union', [[40, 'Statement Period'], [422, '06/01/26 - 06/30/26']],
      'Summary of your deposit accounts',
      [[40, 'Business Checking - 7102004417'], [306, 'Business Savings - 3090004417']],
      [[40, 'Previous Balance'], [306, 'Previous Balance']],
      [[40, '$1,000.00'], [306, '$24,096.57']],
      [[40, 'Deposits/Credits (2)'], [306, 'Deposits/Credits (3)']],
      [[40, '$1,500.00'], [306, '$5,501.46']],
      [[40, 'Withdrawals/Debits (1)'], [306, 'Withdrawals/Debits (1)']],
      [[40, '$200.00'], [306, '$4,000.00']],
      [[40, 'Ending Balance'], [306, 'Ending Balance']],
      [[40, '$2,300.00'], [306, '$25,598.03']],
      'Business Checking - 7102004417',
      [[40, 'Date', { b: true }], [84, 'Transaction Detail', { b: true }], [480, 'Amount($)', { b: true, r: true }], [560, 'Balance($)', { b: true, r: true }]],
      [[40, '06-02'], [84, 'Deposit - ACH Paid From SQUARE INC'], [480, '1,000.00', { r: true }], [560, '2,000.00', { r: true }]],
      [[40, '06-03'], [84, 'Paid To - XCEL ENERGY'], [480, '-200.00', { r: true }], [560, '1,800.00', { r: true }]],
      [[40, '06-04'], [84, 'Deposit - Branch Norfolk Main'], [480, '500.00', { r: true }], [560, '2,300.00', { r: true }]],
    ]]);
    expect(figures(r)).toMatchObject({ beginning_balance: 1000, ending_balance: 2300, deposits_total: 1500, deposit_count: 2 });
  });
});

describe('the amount column before the description; "deductions" sections', () => {
  it('reads "Date posted | Amount | Transaction description" rows (wrapped descriptions under them, an amount quoted there) and each "... Deductions" section with its own total', async () => {
    const H: PageSpec[number] = [[50, 'Date posted', { b: true }], [200, 'Amount', { b: true, r: true }], [220, 'Transaction description', { b: true }]];
    const r = await read([[
      'Keystone Valley Bank', [[410, 'For the period 04/01/2026 to 04/30/2026']],
      [[58, 'Beginning balance'], [185, 'Deposits and other additions'], [325, 'Checks and other deductions'], [460, 'Ending balance']],
      [[58, '1,000.00'], [185, '3,000.00'], [325, '854.00'], [460, '3,146.00']],
      [[50, 'Deposits and Other Additions'], [352, 'There are 2 Deposits and Other Additions totaling $3,000.00.']],
      H,
      [[50, '04/01'], [200, '1,000.00', { r: true }], [220, 'Corporate ACH Square Inc 250401p2']],
      [[220, 'L279456950']],
      [[50, '04/02'], [200, '2,000.00', { r: true }], [220, 'Mobile Deposit']],
      [[50, 'Online and Electronic Banking Deductions'], [309, 'There are 2 Online and Electronic Banking Deductions totaling $800.00.']],
      H,
      [[50, '04/03'], [200, '389.00', { r: true }], [220, 'Corporate ACH Libertas Funding Debit']],
      [[220, '250403 6531675120']],
      [[50, '04/04'], [200, '411.00', { r: true }], [220, 'Online Transfer To Xxxxxx4821']],
      [[50, 'Other Deductions'], [409, 'There are 2 Other Deductions totaling $54.00.']],
      H,
      [[50, '04/23'], [200, '36.00', { r: true }], [220, 'NSF Returned Item Fee']],
      [[220, 'Item Amount'], [290, '$1,995.00']],
      [[50, '04/30'], [200, '18.00', { r: true }], [220, 'Service Charge Period Ending 04/30']],
    ]]);
    expect(figures(r)).toMatchObject({ beginning_balance: 1000, ending_balance: 3146, deposits_total: 3000, deposit_count: 2, mca_count: 1, nsf_count: 1 });
  });
});

describe('amount-first sections whose side is the section\'s (Huntington-style "Other Credits (+) / Other Debits (-)")', () => {
  const H: PageSpec[number] = [[50, 'Date', { b: true }], [150, 'Amount', { b: true, r: true }], [170, 'Description', { b: true }]];
  const stmt = (feeQuoted: string): PageSpec[] => [[
    'Riverbend Savings Bank', 'Statement Period 05/01/26 to 05/31/26', 'Account Summary',
    [[50, 'Beginning Balance'], [300, '$2,000.00', { r: true }]],
    [[50, 'Credits (+)'], [300, '1,250.00', { r: true }]], [[50, 'Regular Deposits'], [300, '100.00', { r: true }]], [[50, 'Other Credits'], [300, '1,150.00', { r: true }]],
    [[50, 'Debits (-)'], [300, '329.00', { r: true }]], [[50, 'Other Debits'], [300, '329.00', { r: true }]],
    [[50, 'Ending Balance'], [300, '$2,921.00', { r: true }]],
    [[50, 'Deposits (+)'], [300, 'Total 100.00', { r: true }]], H,
    [[50, '05/04'], [150, '100.00', { r: true }]],
    [[50, 'Other Credits (+)'], [300, 'Total 1,150.00', { r: true }]], H,
    [[50, '05/05'], [150, '1,150.00', { r: true }], [170, 'ACH CREDIT ELAVON MERCH DEP 0505']],
    [[50, 'Other Debits (-)'], [300, 'Total 329.00', { r: true }]], H,
    [[50, '05/06'], [150, '300.00', { r: true }], [170, 'ACH DEBIT DUKE ENERGY WEB PMT']],
    [[50, '05/07'], [150, '29.00', { r: true }], [170, `RETURNED ITEM FEE ITEM AMT ${feeQuoted}`]],
  ]];
  it('each section gives its rows\' side; the deposits total is its own section\'s; a quoted amount after the description is not the row\'s', async () => {
    expect(figures(await read(stmt('$1,408.12')))).toMatchObject({ deposits_total: 1250, deposit_count: 2, ending_balance: 2921, nsf_count: 1 });
  });
});

describe('what is not a total', () => {
  it("a monthly service fee summary (the fee's terms, its period and amount) is not a printed total of the fees read", async () => {
    const r = await read([[
      'Lakeshore Bank', 'Statement Period 10/01/2026 - 10/31/2026', [[50, 'Beginning Balance'], [300, '$1,000.00', { r: true }]], HEAD,
      AMT('10/02', 'CARD SETTLEMENT VISA', '500.00', '1,500.00'),
      AMT('10/31', 'MONTHLY SERVICE FEE', '-30.00', '1,470.00'),
      AMT('10/31', 'WIRE FEE', '-15.00', '1,455.00'),
      [[50, 'Ending Balance'], [300, '$1,455.00', { r: true }]],
      'Monthly service fee summary',
      'Fee period 10/01/2026 - 10/31/2026 Standard monthly service fee $30.00 You paid $30.00',
    ]]);
    expect(figures(r)).toMatchObject({ ending_balance: 1455, deposits_total: 500 });
  });
  it('an amount quoted on the second line of a description, in the description column, is part of it: no total, no row', async () => {
    const H3: PageSpec[number] = [[50, 'Date', { b: true }], [100, 'Description', { b: true }], [540, 'Amount', { b: true, r: true }]];
    const r = await read([[
      'Lakeshore Bank', 'Statement Period 10/01/2026 - 10/31/2026', [[50, 'Beginning Balance'], [300, '$1,000.00', { r: true }]],
      'Deposits and other credits', H3,
      [[50, '10/02'], [100, 'CARD SETTLEMENT VISA'], [540, '500.00', { r: true }]],
      'Service fees', H3,
      [[50, '10/05'], [100, 'NSF: RETURNED ITEM FEE LG FUNDING LLC'], [540, '-35.00', { r: true }]],
      [[100, 'DEBIT ITEM AMOUNT'], [180, '$449.00']],
      [[50, '10/09'], [100, 'NSF: RETURNED ITEM FEE GUSTO ITEM AMOUNT'], [540, '-35.00', { r: true }]],
      [[100, '$1,631.39']],
      [[50, 'Ending Balance'], [300, '$1,430.00', { r: true }]],
    ]]);
    expect(figures(r)).toMatchObject({ ending_balance: 1430, deposits_total: 500, nsf_count: 2 });
  });
});

describe('extractLines (the text of any PDF, for other readers)', () => {
  it('keeps its shape: pages of lines of runs (x, width, text), top to bottom, left to right', async () => {
    const { extractLines } = await import('../../src/features/statements/extract');
    const bytes = await statementPdf([[[[50, 'Hello'], [300, 'world']], 'Second line'], ['Page two']]);
    const x = await extractLines(bytes, { maxPages: 10, timeoutMs: 10_000, maxHeapMb: 256, maxMemoryMb: 512, maxDecodedBytes: 1 << 26 });
    expect(x.ok).toBe(true);
    if (!x.ok) return;
    expect(x.pages).toBe(2);
    expect(x.lines.map((p) => p.map((l) => l.map((r) => r.text).join('|')))).toEqual([['Hello|world', 'Second line'], ['Page two']]);
    expect(x.lines[0][0][1].x).toBeCloseTo(300, 0);
    expect(x.lines[0][0][0].w).toBeGreaterThan(10);
  });
});

describe('the warm readers', () => {
  it('a reader stopped at its time limit is replaced: the next statement reads, and a second document pays no process start', async () => {
    const { bombPdf, statementFixtures } = await import('../support/statement-fixtures');
    const [good] = await statementFixtures();
    const bomb = await analyzeStatementPdf(bombPdf(9), { timeoutMs: 1500 });
    expect(bomb.ok).toBe(false);
    if (!bomb.ok) expect(['timeout', 'too_complex']).toContain(bomb.code);
    await analyzeStatementPdf(good.bytes);
    await analyzeStatementPdf(good.bytes);
    const t = performance.now();
    const r = await analyzeStatementPdf(good.bytes);
    const warmMs = performance.now() - t;
    expect(r.ok).toBe(true);
    const { useReaderPool } = await import('../../src/features/statements/extract');
    useReaderPool(false);
    const t2 = performance.now();
    const cold = await analyzeStatementPdf(good.bytes);
    const coldMs = performance.now() - t2;
    useReaderPool(true);
    expect(cold).toEqual(r);
    expect(warmMs).toBeLessThan(coldMs);
  }, 60_000);
});

describe('summary totals that name several categories or part of a side', () => {
  // Deposits 1,500.00 (2); checks 500.00 (2, register with a reference number after each check);
  // card purchases 300.00 (2); ACH 400.00 (1); fees 39.00 (2: an NSF fee and a service charge).
  const body = (summary: PageSpec[number][]): PageSpec[] => [[
    'Keystone Valley Bank', 'For the period 10/01/2026 to 10/31/2026',
    ...summary,
    'Deposits and Other Additions',
    [[50, 'Date', { b: true }], [100, 'Description', { b: true }], [540, 'Amount', { b: true, r: true }]],
    [[50, '10/02'], [100, 'CARD SETTLEMENT VISA'], [540, '1,000.00', { r: true }]],
    [[50, '10/14'], [100, 'MOBILE DEPOSIT'], [540, '500.00', { r: true }]],
    'Checks Paid',
    [[50, 'Check', { b: true }], [110, 'Amount', { b: true, r: true }], [130, 'Date paid', { b: true }], [190, 'Reference', { b: true }], [300, 'Check', { b: true }], [360, 'Amount', { b: true, r: true }], [380, 'Date paid', { b: true }], [440, 'Reference', { b: true }]],
    [[50, '1042'], [110, '300.00', { r: true }], [130, '10/05'], [190, '617011895'], [300, '1043'], [360, '200.00', { r: true }], [380, '10/07'], [440, '221850115']],
    'Card Purchases',
    [[50, 'Date', { b: true }], [100, 'Description', { b: true }], [540, 'Amount', { b: true, r: true }]],
    [[50, '10/08'], [100, 'POS PURCHASE SYSCO'], [540, '100.00', { r: true }]],
    [[50, '10/09'], [100, 'POS PURCHASE HOME DEPOT'], [540, '200.00', { r: true }]],
    'ACH Deductions',
    [[50, 'Date', { b: true }], [100, 'Description', { b: true }], [540, 'Amount', { b: true, r: true }]],
    [[50, '10/10'], [100, 'ACH DEBIT XCEL ENERGY'], [540, '400.00', { r: true }]],
    'Service Charges and Fees',
    [[50, 'Date', { b: true }], [100, 'Description', { b: true }], [540, 'Amount', { b: true, r: true }]],
    [[50, '10/10'], [100, 'NSF RETURNED ITEM FEE'], [540, '35.00', { r: true }]],
    [[50, '10/31'], [100, 'SERVICE CHARGE'], [540, '4.00', { r: true }]],
  ]];
  const opening: PageSpec[number] = [[50, 'PREVIOUS BALANCE'], [300, '2,000.00', { r: true }]];
  const closing: PageSpec[number] = [[50, 'ENDING BALANCE'], [300, '2,261.00', { r: true }]];

  it('a partial total beside the others of its side ("CHECKS/DEBITS" beside "SERVICE CHARGES/FEES") is what they leave; counts in front of labels are checked', async () => {
    const make = (fees: string, count = '5'): PageSpec[] => body([opening, [[50, '2 DEPOSITS/CREDITS'], [300, '1,500.00', { r: true }]], [[50, `${count} CHECKS/DEBITS`], [300, '1,200.00-', { r: true }]], [[50, '2 SERVICE CHARGES/FEES'], [300, fees, { r: true }]], closing]);
    expect(figures(await read(make('39.00-')))).toMatchObject({ beginning_balance: 2000, ending_balance: 2261, nsf_count: 1 });
    // A box that also restates its overdraft / returned-item fees (part of the service charges): still what the others leave.
    const withFeeLine = make('39.00-');
    withFeeLine[0].splice(5, 0, [[50, 'OVERDRAFT AND RETURNED ITEM FEES'], [300, '35.00', { r: true }]]);
    expect(figures(await read(withFeeLine))).toMatchObject({ ending_balance: 2261 });
    // The split no set of rows gives (fees 49.00, so the others 1,190.00) fails, as does a wrong count.
    failed(await read(make('49.00-')), 'does_not_reconcile');
    failed(await read(make('39.00-', '6')), 'does_not_reconcile');
  });

  it('labels naming several categories ("Checks and card purchases", "ACH and fees") stand for the union of those rows', async () => {
    const make = (ach: string): PageSpec[] => body([opening, [[50, 'Deposits and other additions'], [300, '1,500.00', { r: true }]], [[50, 'Checks and card purchases'], [300, '800.00', { r: true }]], [[50, 'ACH and fees'], [300, ach, { r: true }]], closing]);
    expect(figures(await read(make('439.00')))).toMatchObject({ ending_balance: 2261 });
    failed(await read(make('440.00')), 'does_not_reconcile');
  });

  it('a fee box of item counts and a fee per item ("Overdraft items paid: 0 Items returned unpaid: 1 Fee per item: $35.00") is a rate, not a total; a genuine fee total beside it still binds', async () => {
    const box: PageSpec[number] = [[50, 'Overdraft items paid:'], [170, '0'], [200, 'Items returned unpaid:'], [330, '1'], [360, 'Fee per item:'], [480, '$35.00', { r: true }]];
    expect(figures(await read(body([opening, box, closing])))).toMatchObject({ beginning_balance: 2000, ending_balance: 2261, nsf_count: 1 });
    failed(await read(body([opening, box, [[50, 'Total returned item fees'], [300, '70.00', { r: true }]], closing])), 'does_not_reconcile');
  });

  it('"Checks and other deductions": the whole side, whatever the sub-sections', async () => {
    const make = (d: string): PageSpec[] => body([
      [[50, 'Beginning', { b: true }], [180, 'Deposits and', { b: true }], [320, 'Checks and other', { b: true }], [540, 'Ending', { b: true, r: true }]],
      [[50, 'balance', { b: true }], [180, 'other additions', { b: true }], [320, 'deductions', { b: true }], [540, 'balance', { b: true, r: true }]],
      [[120, '2,000.00', { r: true }], [270, '1,500.00', { r: true }], [420, d, { r: true }], [540, '2,261.00', { r: true }]],
      [[50, 'Overdraft and returned item fees'], [300, '35.00', { r: true }]],
    ]);
    expect(figures(await read(make('1,239.00')))).toMatchObject({ deposits_total: 1500, nsf_count: 1 });
    failed(await read(make('1,200.00')), 'does_not_reconcile');
  });
});

describe('sub-section totals in a sentence', () => {
  it('"There are N additions totaling  X" on its own line, set apart in cells, closes the sub-section above it', async () => {
    const HEAD3: PageSpec[number] = [[50, 'Date', { b: true }], [160, 'Amount', { b: true, r: true }], [180, 'Description', { b: true }]];
    const row = (d: string, amt: string, desc: string): PageSpec[number] => [[50, d], [160, amt, { r: true }], [180, desc]];
    const make = (ach: string): PageSpec[] => [[
      'Keystone Valley Bank', 'For the period 10/01/2026 to 10/31/2026',
      [[50, 'Beginning balance'], [300, '1,000.00', { r: true }]], [[50, 'Ending balance'], [300, '1,750.00', { r: true }]],
      'Deposits and Other Additions',
      'Deposits', [[50, 'There are 2 additions totaling'], [300, '700.00', { r: true }]], HEAD3,
      row('10/02', '500.00', 'BRANCH DEPOSIT'), row('10/03', '200.00', 'ACH CREDIT SQUARE INC'),
      'ACH Additions', [[50, 'There are 1 additions totaling'], [300, ach, { r: true }]], HEAD3,
      row('10/09', '150.00', 'MOBILE DEPOSIT'),
      'Checks and Other Deductions',
      'ACH Deductions', [[50, 'There are 1 deductions totaling'], [300, '100.00', { r: true }]], HEAD3,
      row('10/12', '100.00', 'ACH DEBIT XCEL ENERGY'),
    ]];
    expect(figures(await read(make('150.00')))).toMatchObject({ deposits_total: 850, ending_balance: 1750 });
    failed(await read(make('160.00')), 'does_not_reconcile');
  });
});

describe('summaries written in sentences', () => {
  const make = (o: { added?: string; count?: string; endRow?: string; feeItems?: string; stated?: string; wrap?: string } = {}): PageSpec[] => [[
    'Mohawk Valley Bank', 'BUSINESS CHECKING  Account 9870114417',
    [[50, 'Beginning Balance'], [300, '1,000.00', { r: true }]],
    `Your balance on 09/30/26 was $${o.stated ?? '1,000.00'}.`,
    `During this period we added ${o.count ?? '2'} deposits and credits totaling $${o.added ?? '1,500.00'}.`,
    ...(o.wrap ? ['We subtracted 3 withdrawals, checks and fees totaling', `${o.wrap}.`, 'Your balance on 10/31/26 was', '$1,862.00.'] : ['We subtracted 3 withdrawals, checks and fees totaling $638.00.', 'Your balance on 10/31/26 was $1,862.00.']),
    `Overdraft and returned item fees this period: ${o.feeItems ?? '1'} items.`,
    HEAD,
    AMT('10/02/26', 'ACH CREDIT SQUARE INC', '1,000.00', '2,000.00'),
    AMT('10/05/26', 'CHECK # 2240', '-600.00', '1,400.00'),
    AMT('10/05/26', 'OVERDRAFT ITEM FEE CHECK 2240', '-36.00', '1,364.00'),
    AMT('10/09/26', 'MOBILE DEPOSIT', '500.00', '1,864.00'),
    AMT('10/31/26', 'MAINTENANCE FEE', '-2.00', '1,862.00'),
    [[50, 'Ending Balance'], [540, o.endRow ?? '1,862.00', { r: true }]],
  ]];

  it('"Your balance on <date> was $X" opens and closes by date order and gives the period; "We added N ... totaling $X" is a total with its count', async () => {
    expect(figures(await read(make()))).toMatchObject({ period_start: '2026-10-01', period_end: '2026-10-31', beginning_balance: 1000, ending_balance: 1862, deposits_total: 1500, deposit_count: 2, nsf_count: 1 });
  });
  it('a sentence total or count the rows do not give, or a stated balance another line contradicts, fails', async () => {
    failed(await read(make({ added: '1,600.00' })), 'does_not_reconcile');
    failed(await read(make({ count: '3' })), 'does_not_reconcile');
    failed(await read(make({ feeItems: '2' })), 'does_not_reconcile');
    failed(await read(make({ endRow: '1,962.00' })), 'does_not_reconcile');
    // The rows reconcile with the printed beginning balance, but the sentence states another one.
    failed(await read(make({ stated: '900.00' })), 'does_not_reconcile');
  });
  it('a sentence wrapped before its amount is read with the line below', async () => {
    expect(figures(await read(make({ wrap: '$638.00' })))).toMatchObject({ beginning_balance: 1000, ending_balance: 1862 });
    failed(await read(make({ wrap: '$648.00' })), 'does_not_reconcile');
  });
  it('"Your ending balance was $X on <date>": the amount before the date', async () => {
    const r = await read([[
      'Mohawk Valley Bank', 'Your beginning balance was $1,000.00 on October 1, 2026.', 'Your ending balance was $1,500.00 on October 31, 2026.', HEAD,
      AMT('10/20/26', 'MOBILE DEPOSIT', '500.00', '1,500.00'),
    ]]);
    expect(figures(r)).toMatchObject({ period_start: '2026-10-01', period_end: '2026-10-31', beginning_balance: 1000, ending_balance: 1500 });
  });
  it('balances dated mid-month with no period printed ("on 12/15 ... on 01/15"): which day the period starts is unknown, so not_a_statement', async () => {
    const r = await read([[
      'Mohawk Valley Bank', 'Your balance on 12/15/25 was $1,000.00.', 'Your balance on 01/15/26 was $1,500.00.', HEAD,
      AMT('12/20/25', 'MOBILE DEPOSIT', '500.00', '1,500.00'),
    ]]);
    failed(r, 'not_a_statement');
  });
});

describe('partial totals on the credit side; "this period" labels', () => {
  const make = (other: string, label = 'Other credits'): PageSpec[] => [[
    'Lakeshore Bank', 'Statement Period 10/01/2026 - 10/31/2026',
    [[50, 'Beginning Balance'], [300, '1,000.00', { r: true }]],
    [[50, 'Deposits'], [220, '2', { r: true }], [300, '700.00', { r: true }]],
    [[50, label], [220, '2', { r: true }], [300, other, { r: true }]],
    [[50, 'Withdrawals this period'], [220, '1', { r: true }], [300, '100.00', { r: true }]],
    [[50, 'Ending Balance'], [300, '1,850.00', { r: true }]],
    HEAD,
    AMT('10/02', 'DEPOSIT', '500.00', '1,500.00'),
    AMT('10/03', 'ACH CREDIT STRIPE TRANSFER', '150.00', '1,650.00'),
    AMT('10/05', 'ACH DEBIT XCEL ENERGY', '-100.00', '1,550.00'),
    AMT('10/09', 'MOBILE DEPOSIT', '200.00', '1,750.00'),
    AMT('10/12', 'ACH CREDIT SQUARE INC', '100.00', '1,850.00'),
  ]];
  it('"Other credits" beside "Deposits" is what the deposits leave; a split no rows give fails', async () => {
    expect(figures(await read(make('250.00')))).toMatchObject({ deposits_total: 950, deposit_count: 4 });
    failed(await read(make('240.00')), 'does_not_reconcile');
  });
  it('a total labelled "this period" is checked like any other', async () => {
    expect(figures(await read(make('250.00', 'Other credits this period')))).toMatchObject({ deposits_total: 950 });
    failed(await read(make('240.00', 'Other credits this period')), 'does_not_reconcile');
  });
});

describe('what is printed but not this period\'s posted activity', () => {
  const make = (extra: PageSpec[number][]): PageSpec[] => [[
    'Lakeshore Bank', 'Statement Period 10/01/2026 - 10/31/2026', [[50, 'Beginning Balance'], [300, '1,000.00', { r: true }]], [[50, 'Ending Balance'], [300, '1,200.00', { r: true }]],
    'Account activity', HEAD,
    AMT('10/02', 'ACH CREDIT SQUARE INC', '500.00', '1,500.00'),
    AMT('10/05', 'CHECK 1042', '-300.00', '1,200.00'),
    ...extra,
  ]];
  it.each([
    ['pending transactions', ['Pending transactions', [[50, 'Date'], [100, 'Description'], [420, 'Amount', { r: true }]], AMT('10/31', 'ACH DEBIT GUSTO PAYROLL', '-900.00')]],
    ['check images', ['Check Images', [[50, '10/05/2026'], [140, 'Check 1042'], [300, '$300.00', { r: true }]]]],
    ['an account analysis', ['Account Analysis', [[50, 'ACH origination'], [200, '25', { r: true }], [300, '3.75', { r: true }]], [[50, 'Total service charges'], [300, '3.75', { r: true }]]]],
  ] as Array<[string, PageSpec[number][]]>)('%s: never read as rows or totals', async (_, extra) => {
    expect(figures(await read(make(extra)))).toMatchObject({ deposits_total: 500, ending_balance: 1200 });
  });
});

describe('the bank\'s name', () => {
  it('a name printed as words set apart ("FARMERS  &  DROVERS  BANK", a typewriter font) is read whole, without the page number far to its right', async () => {
    const f = figures(await read([[
      [[50, 'FARMERS'], [97, '&'], [112, 'DROVERS'], [162, 'BANK'], [520, 'PAGE 1']],
      'Statement Period 10/01/2026 - 10/31/2026', [[50, 'Beginning Balance'], [300, '100.00', { r: true }]], HEAD,
      AMT('10/09', 'MOBILE DEPOSIT', '500.00', '600.00'),
      [[50, 'Ending Balance'], [300, '600.00', { r: true }]],
    ]]));
    expect(f.bank_name).toBe('FARMERS & DROVERS BANK');
  });
});

describe('overdrawn balances', () => {
  it('"1,234.56 OD" at the end of a line is a negative balance', async () => {
    const f = figures(await read([[
      'Elk Creek Bank', 'Statement Period 10/01/2026 - 10/31/2026', [[50, 'Beginning Balance'], [300, '100.00', { r: true }]], HEAD,
      AMT('10/02', 'ACH DEBIT GUSTO PAYROLL', '-300.00', '200.00 OD'),
      AMT('10/09', 'MOBILE DEPOSIT', '500.00', '300.00'),
      [[50, 'Ending Balance'], [300, '300.00', { r: true }]],
    ]]));
    expect(f).toMatchObject({ negative_days: 7, ending_balance: 300 });
  });
});

describe('a type column', () => {
  it('"Debit" / "Credit" in a Type column signs unsigned amounts when nothing else does; a type the amount contradicts is not read', async () => {
    const row = (d: string, type: string, desc: string, amt: string): PageSpec[number] => [[50, d], [100, type], [160, desc], [540, amt, { r: true }]];
    const make = (thirdType: string, thirdAmt = '200.00'): PageSpec[] => [[
      'Prairie Business Bank', 'Statement Period 10/01/2026 - 10/31/2026',
      [[50, 'Beginning Balance'], [300, '1,000.00', { r: true }]], [[50, 'Ending Balance'], [300, '1,300.00', { r: true }]],
      [[50, 'Date', { b: true }], [100, 'Type', { b: true }], [160, 'Description', { b: true }], [540, 'Amount', { b: true, r: true }]],
      row('10/02', 'Credit', 'SQUARE INC DEPOSIT', '500.00'),
      row('10/06', thirdType, 'XCEL ENERGY', thirdAmt),
    ]];
    expect(figures(await read(make('Debit')))).toMatchObject({ deposits_total: 500, deposit_count: 1, ending_balance: 1300 });
    failed(await read(make('Credit')), 'does_not_reconcile');
    failed(await read(make('Credit', '-200.00')), 'does_not_reconcile');
  });
});

describe('fee boxes with this period and year-to-date', () => {
  const make = (od: string, ri: string): PageSpec[] => [[
    'Lakeshore Bank', 'Statement Period 10/01/2026 - 10/31/2026', [[50, 'Beginning Balance'], [300, '1,000.00', { r: true }]], HEAD,
    AMT('10/02', 'CARD SETTLEMENT VISA', '500.00', '1,500.00'),
    AMT('10/05', 'OVERDRAFT ITEM FEE', '-35.00', '1,465.00'),
    AMT('10/06', 'RETURNED ITEM FEE', '-35.00', '1,430.00'),
    AMT('10/07', 'OD FEE', '-35.00', '1,395.00'),
    [[50, 'Ending Balance'], [300, '1,395.00', { r: true }]],
    // The year-to-date column printed first: its amounts are never read as this period's.
    [[250, 'Total year-to-date', { b: true, r: true }], [400, 'Total for this period', { b: true, r: true }]],
    [[50, 'Total Overdraft Fees'], [250, '$420.00', { r: true }], [400, od, { r: true }]],
    [[50, 'Total Returned Item Fees'], [250, '$105.00', { r: true }], [400, ri, { r: true }]],
  ]];
  it('this period\'s overdraft and returned-item fee totals are checked against those fee lines; the year-to-date ones are not this period\'s', async () => {
    expect(figures(await read(make('$70.00', '$35.00')))).toMatchObject({ nsf_count: 3, ending_balance: 1395 });
    failed(await read(make('$35.00', '$70.00')), 'does_not_reconcile');
  });
});

describe('a register right under a this-period / year-to-date fee box', () => {
  // TD-style: the fee box, then at once "Deposits" with its column header; the register's amounts
  // stand under the box's year-to-date column. The box ends at the register's header: its rows are
  // read whole, the box's own figures still bind.
  const make = (od: string): PageSpec[] => [[
    'Lakeshore Bank', 'Statement Period 10/01/2026 - 10/31/2026', [[50, 'Beginning Balance'], [300, '1,000.00', { r: true }]], [[50, 'Ending Balance'], [300, '1,465.00', { r: true }]],
    [[130, 'Total for This Period', { b: true }], [330, 'Total Year-to-Date', { b: true }]],
    [[50, 'Total Overdraft Fees'], [250, od, { r: true }], [430, '$420.00', { r: true }]],
    [[50, 'Total Returned Item Fees'], [250, '$0.00', { r: true }], [430, '$105.00', { r: true }]],
    'Deposits',
    HEAD,
    AMT('10/02', 'DEPOSIT', '500.00', '1,500.00'),
    'Service Charges',
    HEAD,
    AMT('10/05', 'OVERDRAFT ITEM FEE', '35.00', '1,465.00'),
  ]];
  it('the rows are read, not cut as year-to-date amounts; the box\'s this-period total still binds', async () => {
    expect(figures(await read(make('$35.00')))).toMatchObject({ deposits_total: 500, deposit_count: 1, nsf_count: 1, ending_balance: 1465 });
    failed(await read(make('$70.00')), 'does_not_reconcile');
  });
});

describe('a fee box titled on the line of its first figure', () => {
  // BMO-style: "Overdraft/NSF fee summary   Total overdraft fees $70.00   Total NSF fees $35.00" on
  // one line. The title ("... summary") names the box, "Total overdraft fees" the figure: the figure
  // is the overdraft fees only (not overdraft and NSF together) and still checked against them.
  const make = (od: string, nsf: string): PageSpec[] => [[
    'Lakeshore Bank', 'Statement Period 10/01/2026 - 10/31/2026', [[50, 'Beginning Balance'], [300, '1,000.00', { r: true }]], HEAD,
    AMT('10/02', 'CARD SETTLEMENT VISA', '500.00', '1,500.00'),
    AMT('10/05', 'Overdraft Item Paid Fee - 3,004.47', '-35.00', '1,465.00'),
    AMT('10/06', 'NSF Item Returned Fee - 395.00', '-35.00', '1,430.00'),
    AMT('10/07', 'Overdraft Item Paid Fee - 611.65', '-35.00', '1,395.00'),
    [[50, 'Ending Balance'], [300, '1,395.00', { r: true }]],
    [[50, 'Overdraft/NSF fee summary'], [170, 'Total overdraft fees'], [290, od, { r: true }], [320, 'Total NSF fees'], [440, nsf, { r: true }]],
  ]];
  it('the figure is the one its own words name, and it still binds', async () => {
    expect(figures(await read(make('$70.00', '$35.00')))).toMatchObject({ nsf_count: 3, ending_balance: 1395 });
    failed(await read(make('$35.00', '$70.00')), 'does_not_reconcile');
  });
  it('a title is dropped only when it is one and the rest names a figure on its own', async () => {
    const { untitled } = await import('../../src/features/statements/sections');
    expect(untitled('Overdraft/NSF fee summary Total overdraft fees')).toBe('Total overdraft fees');
    expect(untitled('Account Summary Total deposits')).toBe('Total deposits');
    expect(untitled('Deposits (+) Total')).toBe('Deposits (+) Total');
    expect(untitled('Checks and other Total')).toBe('Checks and other Total');
  });
});

describe('credits marked "+" beside unsigned debits; "Money In" / "Money Out" sections', () => {
  it('a leading "+" marks a credit as CR does: the unsigned amounts are the debits', async () => {
    expect(parseMoney('+4,867.93')).toEqual({ cents: 486793, marker: 'cr' });
    const r = await read([[
      'Lakeshore Bank', 'Statement Period 10/01/2026 - 10/31/2026', [[50, 'Beginning Balance'], [300, '1,000.00', { r: true }]], HEAD,
      // (No running balance to tell the sides apart: only the marks do.)
      AMT('10/02', 'CARD SETTLEMENT VISA', '+500.00'),
      AMT('10/03', 'ACH DEBIT XCEL ENERGY', '125.00'),
      AMT('10/05', 'MOBILE DEPOSIT', '+200.00'),
      AMT('10/06', 'POS PURCHASE HOME DEPOT', '75.00'),
      [[50, 'Ending Balance'], [300, '1,500.00', { r: true }]],
    ]]);
    expect(figures(r)).toMatchObject({ deposits_total: 700, deposit_count: 2, ending_balance: 1500 });
  });
  it('"Money In" and "Money Out" headings give their rows\' side, and their subtotals bind', async () => {
    const head: PageSpec[number] = [[50, 'Date', { b: true }], [110, 'Details', { b: true }], [540, 'Amount', { b: true, r: true }]];
    const make = (outTotal: string): PageSpec[] => [[
      'Harborlight Bank', 'Statement Period: 10/01/2026 through 10/31/2026',
      [[50, 'Opening Balance'], [300, '1,000.00', { r: true }]], [[50, 'Money In'], [300, '700.00', { r: true }]], [[50, 'Money Out'], [300, '200.00', { r: true }]], [[50, 'Closing Balance'], [300, '1,500.00', { r: true }]],
      [[50, 'Money In', { b: true }]], head,
      [[50, '10/02/2026'], [110, 'CARD SETTLEMENT VISA'], [540, '500.00', { r: true }]],
      [[50, '10/05/2026'], [110, 'MOBILE DEPOSIT'], [540, '200.00', { r: true }]],
      [[50, 'Subtotal:'], [540, '700.00', { r: true }]],
      [[50, 'Money Out', { b: true }]], head,
      [[50, '10/03/2026'], [110, 'ACH DEBIT XCEL ENERGY'], [540, '125.00', { r: true }]],
      [[50, '10/06/2026'], [110, 'POS PURCHASE HOME DEPOT'], [540, '75.00', { r: true }]],
      [[50, 'Subtotal:'], [540, outTotal, { r: true }]],
    ]];
    expect(figures(await read(make('200.00')))).toMatchObject({ deposits_total: 700, deposit_count: 2, ending_balance: 1500 });
    failed(await read(make('210.00')), 'does_not_reconcile');
  });
});

describe('several accounts on one statement', () => {
  // A register: Date | Description | Amount | Balance, the balance line of an account inside it.
  const BAL = (date: string, label: string, balance: string): PageSpec[number] => [[50, date], [100, label], [540, balance, { r: true }]];
  const checking = (heading: string, withBalances = true): PageSpec => [
    heading, HEAD,
    ...(withBalances ? [BAL('10/01', 'Beginning Balance', '1,000.00')] : []),
    AMT('10/02', 'CARD SETTLEMENT VISA', '2,500.00', '3,500.00'),
    AMT('10/05', 'ACH DEBIT XCEL ENERGY', '(300.00)', '3,200.00'),
    AMT('10/09', 'ONLINE TRANSFER TO SAVINGS ****5678', '(500.00)', '2,700.00'),
    ...(withBalances ? [BAL('10/31', 'Ending Balance', '2,700.00')] : []),
    '',
  ];
  // The savings account: more rows than the checking (the transfers from it, interest), so the
  // account with the most activity is not the one to report.
  const savings = (heading: string, withBalances = true): PageSpec => [
    heading, HEAD,
    ...(withBalances ? [BAL('10/01', 'Beginning Balance', '10,000.00')] : []),
    AMT('10/03', 'TRANSFER FROM CHECKING ****1234', '200.00', '10,200.00'),
    AMT('10/09', 'TRANSFER FROM CHECKING ****1234', '500.00', '10,700.00'),
    AMT('10/20', 'TRANSFER FROM CHECKING ****1234', '300.00', '11,000.00'),
    AMT('10/25', 'WITHDRAWAL TELLER', '(1,000.00)', '10,000.00'),
    AMT('10/31', 'INTEREST PAID', '1.25', '10,001.25'),
    ...(withBalances ? [BAL('10/31', 'Ending Balance', '10,001.25')] : []),
    '',
  ];
  const top = ['Harbor Commerce Bank', 'Statement Period: 10/01/2026 through 10/31/2026', ''];
  const CHECKING = { beginning_balance: 1000, ending_balance: 2700, deposits_total: 2500, deposit_count: 1, true_revenue: 2500 };

  // A summary table of both accounts, one row each, the savings first.
  const table: PageSpec = [
    'Account Summary',
    [[50, 'Account', { b: true }], [300, 'Beginning Balance', { b: true, r: true }], [380, 'Deposits', { b: true, r: true }], [460, 'Withdrawals', { b: true, r: true }], [540, 'Ending Balance', { b: true, r: true }]],
    [[50, 'Business Savings 5678'], [300, '10,000.00', { r: true }], [380, '1,001.25', { r: true }], [460, '1,000.00', { r: true }], [540, '10,001.25', { r: true }]],
    [[50, 'Business Checking 1234'], [300, '1,000.00', { r: true }], [380, '2,500.00', { r: true }], [460, '800.00', { r: true }], [540, '2,700.00', { r: true }]],
    '',
  ];
  it('checking, then savings with transfers from the checking: the checking is read, never a savings row (nor the summary table\'s savings row)', async () => {
    const r = await read([[...top, ...checking('Business Checking  Account ****1234'), ...savings('Business Savings  Account ****5678')]]);
    expect(figures(r)).toMatchObject(CHECKING);
    expect(figures(await read([[...top, ...table, ...checking('Business Checking  Account ****1234'), ...savings('Business Savings  Account ****5678')]]))).toMatchObject(CHECKING);
  });
  it('a summary of several accounts beside the member\'s address, savings first and a Total row: no row is the checking\'s totals; each register\'s own totals are', async () => {
    // (The address lines share the table's header and first rows: a row's first words are the
    // street, not the account's name, so only the names the rows print tell the table apart.)
    const R = (x: string, a: string, b: string, c: string, d: string): PageSpec[number] => [[250, x], [330, a, { r: true }], [400, b, { r: true }], [470, c, { r: true }], [540, d, { r: true }]];
    const addr = (street: string, row: PageSpec[number]): PageSpec[number] => [[50, street], ...(row as Array<PageSpec[number][number]>)] as PageSpec[number];
    const sumTable: PageSpec = [
      'Summary of Accounts',
      'DELTA BAKERY LLC',
      [[50, '12 MILL ST'], [250, 'Account', { b: true }], [330, 'Previous Balance', { b: true, r: true }], [400, 'Deposits', { b: true, r: true }], [470, 'Withdrawals', { b: true, r: true }], [540, 'Ending Balance', { b: true, r: true }]],
      addr('AMESBURY, MA 01913', R('Primary Share 00', '10,000.00', '1,001.25', '1,000.00', '10,001.25')),
      R('Business Checking 11', '1,000.00', '2,500.00', '800.00', '2,700.00'),
      R('Total', '11,000.00', '3,501.25', '1,800.00', '12,701.25'),
      '',
    ];
    const chk = checking('BUSINESS CHECKING - SHARE 11 - ACCOUNT 0004471911');
    const withTotals: PageSpec = [...chk.slice(0, -1), [[100, 'Deposits (1) 2,500.00'], [300, 'Withdrawals (2) 800.00']], ''];
    const r = await read([[...top, ...sumTable, ...withTotals, ...savings('PRIMARY SHARE 00 - ACCOUNT 0004471900')]]);
    expect(figures(r)).toMatchObject(CHECKING);
  });
  it('savings first, then checking: the checking is read', async () => {
    const r = await read([[...top, ...savings('Business Savings  Account ****5678'), ...checking('Business Checking  Account ****1234')]]);
    expect(figures(r)).toMatchObject(CHECKING);
  });
  it('a credit union: a summary of both shares, the share savings register, then the share draft (continued on a page headed with the union\'s name)', async () => {
    const r = await read([
      [
        'Lakeshore Community Federal Credit Union   Business Member Statement', 'Statement Period: 10/01/2026 thru 10/31/2026', '', 'ACCOUNT SUMMARY',
        [[50, 'Account', { b: true }], [300, 'Previous Balance', { b: true, r: true }], [380, 'Deposits', { b: true, r: true }], [460, 'Withdrawals', { b: true, r: true }], [540, 'Ending Balance', { b: true, r: true }]],
        [[50, '0001 BUSINESS SHARE SAVINGS'], [300, '10,000.00', { r: true }], [380, '1,001.25', { r: true }], [460, '(1,000.00)', { r: true }], [540, '10,001.25', { r: true }]],
        [[50, '0070 BUSINESS SHARE DRAFT'], [300, '1,000.00', { r: true }], [380, '2,500.00', { r: true }], [460, '(800.00)', { r: true }], [540, '2,700.00', { r: true }]],
        '',
        ...savings('0001 BUSINESS SHARE SAVINGS'),
        '0070 BUSINESS SHARE DRAFT', HEAD, BAL('10/01', 'Previous Balance', '1,000.00'), AMT('10/02', 'Deposit ACH CARD SETTLEMENT VISA', '2,500.00', '3,500.00'),
      ],
      [
        'Lakeshore Community Federal Credit Union   Statement Period 10/01/2026 thru 10/31/2026', 'BUSINESS SHARE DRAFT (continued)', HEAD,
        AMT('10/05', 'Withdrawal ACH XCEL ENERGY', '(300.00)', '3,200.00'), AMT('10/09', 'Withdrawal Transfer To Share Savings 0001', '(500.00)', '2,700.00'), BAL('10/31', 'Ending Balance', '2,700.00'),
      ],
    ]);
    expect(figures(r)).toMatchObject(CHECKING);
  });
  it('a credit union\'s name ("... Federal Credit Union") heading a page is no "credits" section: the withdrawals go on', async () => {
    const head: PageSpec[number] = [[50, 'Date', { b: true }], [100, 'Description', { b: true }], [420, 'Amount', { b: true, r: true }]];
    const r = await read([
      ['Lakeshore Community Federal Credit Union', 'Statement Period: 10/01/2026 thru 10/31/2026', [[50, 'Previous Balance'], [300, '1,000.00', { r: true }]], [[50, 'Ending Balance'], [300, '2,700.00', { r: true }]], '',
        'Deposits', head, AMT('10/02', 'CARD SETTLEMENT VISA', '2,500.00'), '', 'Withdrawals', head, AMT('10/05', 'ACH XCEL ENERGY', '300.00')],
      ['Lakeshore Community Federal Credit Union', head, AMT('10/09', 'ACH COMCAST BUSINESS', '500.00')],
    ]);
    expect(figures(r)).toMatchObject(CHECKING);
  });
  it('a bank named "... Savings Bank" heading every page is no savings account: the checking\'s rows on page 2 stay the checking\'s', async () => {
    const chk = checking('Business Checking  Account ****1234');
    const r = await read([['Harborview Savings Bank', ...top.slice(1), ...chk.slice(0, 4)], ['Harborview Savings Bank', HEAD, ...chk.slice(4)]]);
    expect(figures(r)).toMatchObject(CHECKING);
    // (Nor a title naming an account's kind on every page, before the account's own heading.)
    const t = await read([['Peoples Savings  Account Statement', ...top.slice(1), ...chk.slice(0, 4)], ['Peoples Savings  Account Statement', HEAD, ...chk.slice(4)]]);
    expect(figures(t)).toMatchObject(CHECKING);
  });
  it('a loan\'s activity after the checking (no balance line of its own) is the loan\'s, not the checking\'s', async () => {
    const r = await read([[...top, ...checking('Business Checking  Account ****1234'), 'Business Line of Credit  Loan ****0142', HEAD, AMT('10/15', 'PAYMENT RECEIVED THANK YOU', '500.00'), AMT('10/20', 'INTEREST CHARGED', '(112.40)')]]);
    expect(figures(r)).toMatchObject(CHECKING);
  });
  it('a relationship summary listing each account\'s balances: only the checking\'s open and close the checking', async () => {
    const line = (name: string, open: string, close: string): PageSpec[number] => [[50, name], [200, 'Beginning balance'], [360, open, { r: true }], [400, 'Ending balance'], [540, close, { r: true }]];
    const r = await read([[
      ...top, 'Relationship Summary', line('Business Savings ****5678', '$10,000.00', '$10,001.25'), line('Business Checking ****1234', '$1,000.00', '$2,700.00'), '',
      ...savings('Business Savings  Account ****5678', false), ...checking('Business Checking  Account ****1234', false),
    ]]);
    expect(figures(r)).toMatchObject(CHECKING);
  });
  it('the checking\'s name heading every page (a running header) does not end the savings section continued on that page', async () => {
    const sav = savings('Business Savings  Account ****5678');
    const r = await read([
      [...top, ...checking('Business Checking  Account ****1234'), ...sav.slice(0, 5)],
      ['Business Checking  Account ****1234   Page 2 of 2', HEAD, ...sav.slice(5)],
    ]);
    expect(figures(r)).toMatchObject(CHECKING);
  });
  it('a summary with a column per account (the savings first): each balance is its column\'s account\'s', async () => {
    const col = (label: string, sav: string, chk: string): PageSpec[number] => [[50, label], [380, sav, { r: true }], [540, chk, { r: true }]];
    const r = await read([[
      ...top, 'Summary of Accounts', [[300, 'Business Savings ****5678', { b: true }], [450, 'Business Checking ****1234', { b: true }]],
      col('Beginning balance', '10,000.00', '1,000.00'), col('Deposits and credits', '1,001.25', '2,500.00'), col('Ending balance', '10,001.25', '2,700.00'), '',
      ...savings('Business Savings  Account ****5678', false), ...checking('Business Checking  Account ****1234', false),
    ]]);
    expect(figures(r)).toMatchObject(CHECKING);
  });
  it('a checking account with no activity this period beside an active savings: no transactions, never the savings\' figures', async () => {
    const r = await read([[...top, 'Business Checking  Account ****1234', HEAD, BAL('10/01', 'Beginning Balance', '1,000.00'), BAL('10/31', 'Ending Balance', '1,000.00'), '', ...savings('Business Savings  Account ****5678')]]);
    failed(r, 'no_transactions');
  });
  it('two checking accounts, or two accounts no heading names: which is the business\'s is not plain, so several_accounts', async () => {
    failed(await read([[...top, ...checking('Operating Checking  Account ****1234'), ...checking('Payroll Checking  Account ****9876')]]), 'several_accounts');
    // (Each table opens with its own balance: two accounts, neither named.)
    failed(await read([[...top, ...checking(''), ...savings('')]]), 'several_accounts');
  });
});

describe('a summary printed as a one-row table', () => {
  // "Account | Opening Ledger Balance | Total Credits | Total Debits | Closing Ledger Balance" over
  // "Business Checking 4417 | 1,000.00 | ...": the account's name sits under "Account" (no label)
  // and runs on; the amounts are the labels' above them.
  const make = (closing: string): PageSpec[] => [[
    'Granite Peak Bank', 'Statement Period: 10/01/26 - 10/31/26',
    [[50, 'Account', { b: true }], [250, 'Opening Ledger Balance', { b: true, r: true }], [340, 'Total Credits', { b: true, r: true }], [440, 'Total Debits', { b: true, r: true }], [560, 'Closing Ledger Balance', { b: true, r: true }]],
    [[50, 'Business Checking 4417'], [250, '1,000.00', { r: true }], [340, '700.00', { r: true }], [440, '200.00', { r: true }], [560, closing, { r: true }]],
    [[50, 'Date', { b: true }], [100, 'Description', { b: true }], [420, 'Debits', { b: true, r: true }], [490, 'Credits', { b: true, r: true }], [560, 'Balance', { b: true, r: true }]],
    [[50, '10/02'], [100, 'CARD SETTLEMENT VISA'], [490, '500.00', { r: true }], [560, '1,500.00', { r: true }]],
    [[50, '10/03'], [100, 'ACH DEBIT XCEL ENERGY'], [420, '125.00', { r: true }], [560, '1,375.00', { r: true }]],
    [[50, '10/05'], [100, 'MOBILE DEPOSIT'], [490, '200.00', { r: true }], [560, '1,575.00', { r: true }]],
    [[50, '10/06'], [100, 'POS PURCHASE HOME DEPOT'], [420, '75.00', { r: true }], [560, '1,500.00', { r: true }]],
  ]];
  it('its balances and totals are read under their labels, and bind', async () => {
    expect(figures(await read(make('1,500.00')))).toMatchObject({ beginning_balance: 1000, ending_balance: 1500, deposits_total: 700 });
    failed(await read(make('1,600.00')), 'does_not_reconcile');
  });
  it('labels over a two-line column header are not a summary: the first row stays a transaction', async () => {
    const r = await read([[
      'Fairhaven Savings Bank', 'Statement Period: 10/01/2026 through 10/31/2026', [[50, 'Beginning Balance'], [300, '1,000.00', { r: true }]], [[50, 'Ending Balance'], [300, '1,500.00', { r: true }]],
      [[50, 'Post', { b: true }], [420, 'Withdrawals/', { b: true, r: true }], [490, 'Deposits/', { b: true, r: true }]],
      [[50, 'Date', { b: true }], [100, 'Description', { b: true }], [420, 'Debits', { b: true, r: true }], [490, 'Credits', { b: true, r: true }], [560, 'Balance', { b: true, r: true }]],
      [[50, '10/02'], [100, 'CARD SETTLEMENT VISA'], [490, '500.00', { r: true }], [560, '1,500.00', { r: true }]],
      [[50, '10/03'], [100, 'ACH DEBIT XCEL ENERGY'], [420, '125.00', { r: true }], [560, '1,375.00', { r: true }]],
      [[50, '10/05'], [100, 'MOBILE DEPOSIT'], [490, '200.00', { r: true }], [560, '1,575.00', { r: true }]],
      [[50, '10/06'], [100, 'POS PURCHASE HOME DEPOT'], [420, '75.00', { r: true }], [560, '1,500.00', { r: true }]],
    ]]);
    expect(figures(r)).toMatchObject({ deposits_total: 700, deposit_count: 2, ending_balance: 1500 });
  });
});

describe('a typewriter register: CHECKS/DEBITS and DEP/CREDITS columns, a dotted-leader summary', () => {
  // blind-11 (Farmers & Drovers): "DEP/CREDITS" was no credit header, so every amount read as a
  // debit and the printed "DEPOSITS/CREDITS.........  32  32,290.18" total did not reconcile.
  const make = (credits: string): PageSpec[] => [[
    'THE FARMERS & DROVERS BANK OF HILLSBORO', 'STATEMENT PERIOD 09/01/2025 TO 09/30/2025',
    [[40, 'PREVIOUS BALANCE..................'], [330, '1,000.00', { r: true }]],
    [[40, 'DEPOSITS/CREDITS..................'], [260, '2', { r: true }], [330, credits, { r: true }]],
    [[40, 'CHECKS/DEBITS.....................'], [260, '1', { r: true }], [330, '220.09', { r: true }]],
    [[40, 'ENDING BALANCE....................'], [330, '3,094.43', { r: true }]],
    [[40, 'DATE', { b: true }], [90, 'DESCRIPTION', { b: true }], [400, 'CHECKS/DEBITS', { b: true, r: true }], [480, 'DEP/CREDITS', { b: true, r: true }], [560, 'BALANCE', { b: true, r: true }]],
    [[40, '09-02'], [90, 'CLOVER MERCH DEP'], [480, '1,443.46', { r: true }], [560, '2,443.46', { r: true }]],
    [[90, 'BATCH 980445']],
    [[40, '09-02'], [90, 'CHECK 6650'], [400, '220.09', { r: true }], [560, '2,223.37', { r: true }]],
    [[90, 'PAY TO: HILLSBORO HARDWARE']],
    [[40, '09-03'], [90, 'CASH DEPOSIT'], [480, '871.06', { r: true }], [560, '3,094.43', { r: true }]],
    [[90, 'CASH & CHECKS']],
  ]];
  it('reads DEP/CREDITS as the credit column: the rows and the dotted totals bind', async () => {
    // 1,000.00 + 1,443.46 + 871.06 - 220.09 = 3,094.43; the credits 2,314.52 in 2.
    expect(figures(await read(make('2,314.52')))).toMatchObject({ beginning_balance: 1000, ending_balance: 3094.43, deposits_total: 2314.52, deposit_count: 2 });
    failed(await read(make('2,414.52')), 'does_not_reconcile');
  });
});

describe('a wrapped row with its amounts on its last line', () => {
  // The date and the first description line, then the rest of the description ending in the
  // amounts: the lines below, indented to the description, are the row's even when their words
  // read like a heading or a label ("DEBIT ID 1853027741 ..." is no debits section or total).
  const head: PageSpec[number] = [[40, 'Date', { b: true }], [90, 'Description', { b: true }], [420, 'Withdrawals ($)', { b: true, r: true }], [495, 'Deposits ($)', { b: true, r: true }], [572, 'Balance ($)', { b: true, r: true }]];
  it('is one row, its lines joined, whatever the words below the first look like', async () => {
    const r = await read([[
      'Hollister Valley Bank', 'Statement Period: 10/01/2026 through 10/31/2026', [[40, 'Beginning Balance'], [300, '1,000.00', { r: true }]], [[40, 'Ending Balance'], [300, '1,330.00', { r: true }]], 'Account Activity', head,
      [[40, '10/02'], [90, 'ACH CREDIT FISERV MERCHANT']], [[90, 'MERCH DEP CCD 473300205'], [495, '600.00', { r: true }], [572, '1,600.00', { r: true }]],
      [[40, '10/03'], [90, 'ACH Debit - GREEN NOTE CAP GNC']], [[90, 'DEBIT ID 1853027741 Ind KF648824002'], [420, '245.00', { r: true }], [572, '1,355.00', { r: true }]],
      [[40, '10/05'], [90, 'Debit Card Purchase']], [[90, 'DEPOSITS AND CREDITS ADJ'], [90, '']], [[90, 'STORE 4410 TOLEDO OH'], [420, '25.00', { r: true }], [572, '1,330.00', { r: true }]],
    ]]);
    expect(figures(r)).toMatchObject({ deposits_total: 600, deposit_count: 1, mca_count: 1, ending_balance: 1330 });
  });
});

describe('dates heading each day\'s rows, no date column', () => {
  // An online bank's "Wednesday, Oct 2, 2026" on a line of its own over the day's rows, under
  // "Description | Amount | Balance": the heading's date is each row's; the running balance binds.
  const make = (last: string): PageSpec[] => [[
    'Mosaic Business Banking', 'Statement Period 10/01/2026 - 10/31/2026', [[50, 'Starting balance'], [300, '$1,000.00', { r: true }]], [[50, 'Ending balance'], [300, '$1,500.00', { r: true }]],
    [[60, 'Description', { b: true }], [470, 'Amount', { b: true, r: true }], [572, 'Balance', { b: true, r: true }]],
    [[40, 'Friday, Oct 2, 2026', { b: true }]],
    [[60, 'CARD SETTLEMENT VISA'], [470, '$500.00', { r: true }], [572, '$1,500.00', { r: true }]],
    [[60, 'ACH DEBIT XCEL ENERGY'], [470, '-$125.00', { r: true }], [572, '$1,375.00', { r: true }]],
    [[40, 'Monday, Oct 5, 2026', { b: true }]],
    [[60, 'MOBILE DEPOSIT'], [470, '$200.00', { r: true }], [572, '$1,575.00', { r: true }]],
    [[60, 'POS PURCHASE HOME DEPOT'], [470, '-$75.00', { r: true }], [572, last, { r: true }]],
  ]];
  it('each row takes its heading\'s date', async () => {
    expect(figures(await read(make('$1,500.00')))).toMatchObject({ deposits_total: 700, deposit_count: 2, ending_balance: 1500, period_start: '2026-10-01' });
    failed(await read(make('$1,400.00')), 'does_not_reconcile');
  });
});

describe('dates heading each day\'s rows with no table header at all, a balance line closing each day (blind-25)', () => {
  // No column titles: "Thursday 1 October 2026" over the day's rows (a description and one signed
  // amount each), "Balance at end of day" closing the day. Each row takes its heading's date; each
  // day's balance is a printed daily balance the rows must reach.
  const make = (firstDay: string): PageSpec[] => [[
    'Brightwater Online Business Account', 'Statement Period 10/01/2026 - 10/31/2026', [[50, 'Opening balance'], [300, '$1,000.00', { r: true }]], [[50, 'Closing balance'], [300, '$1,500.00', { r: true }]],
    'Transactions',
    [[40, 'Thursday 1 October 2026', { b: true }]],
    [[60, 'CARD SETTLEMENT VISA 88231'], [470, '$500.00', { r: true }]],
    [[60, 'ACH DEBIT XCEL ENERGY 4471'], [470, '-$125.00', { r: true }]],
    [[300, 'Balance at end of day'], [470, firstDay, { r: true }]],
    [[40, 'Monday 5 October 2026', { b: true }]],
    [[60, 'MOBILE DEPOSIT 5520'], [470, '$200.00', { r: true }]],
    [[60, 'POS PURCHASE HOME DEPOT 0931'], [470, '-$75.00', { r: true }]],
    [[300, 'Balance at end of day'], [470, '$1,500.00', { r: true }]],
  ]];
  it('each row takes its heading\'s date; a day\'s balance that the rows do not reach refuses the statement', async () => {
    expect(figures(await read(make('$1,375.00')))).toMatchObject({ deposits_total: 700, deposit_count: 2, ending_balance: 1500, period_start: '2026-10-01', average_daily_balance: 1483.87 });
    failed(await read(make('$1,300.00')), 'does_not_reconcile');
  });
});

describe('a day\'s rows broken across a page, the column titles repeated (blind-17)', () => {
  // "Friday, October 2, 2026" at the foot of page 1, its rows on page 2 under "Account Activity
  // (continued)" and the same column titles: still that day's rows. Under other column titles no
  // day is carried over (the rows have no date, so the statement is refused).
  const head = (t: string): PageSpec[number] => [[60, 'Description', { b: true }], [430, t, { b: true, r: true }], [520, 'Subtractions', { b: true, r: true }]];
  const make = (second: string): PageSpec[] => [
    [
      'Conestoga Test Bank', 'Statement period Oct 1, 2026 through Oct 31, 2026', [[50, 'Balance last statement'], [300, '1,000.00', { r: true }]], [[50, '2 Additions'], [300, '700.00', { r: true }]],
      [[50, '2 Subtractions'], [300, '200.00', { r: true }]], [[50, 'Balance this statement'], [300, '1,500.00', { r: true }]],
      'Account Activity', head('Additions'),
      [[40, 'Thursday, October 1, 2026', { b: true }]],
      [[60, 'ACH Credit HPS MERCH DEP'], [430, '500.00', { r: true }]],
      [[60, 'Balance at end of day'], [520, '1,500.00', { r: true }]],
      [[40, 'Friday, October 2, 2026', { b: true }]],
    ],
    [
      'Account Activity (continued)', head(second),
      [[60, 'ACH Debit PERFORMANCE FOOD EFT'], [520, '125.00', { r: true }]],
      [[60, 'MOBILE DEPOSIT'], [430, '200.00', { r: true }]],
      [[60, 'Debit Card Purchase Giant Food'], [520, '75.00', { r: true }]],
      [[60, 'Balance at end of day'], [520, '1,500.00', { r: true }]],
    ],
  ];
  it('the rows after the break are the day\'s; under other titles they are not', async () => {
    expect(figures(await read(make('Additions')))).toMatchObject({ deposits_total: 700, deposit_count: 2, ending_balance: 1500, period_end: '2026-10-31' });
    const other = await read(make('Credits'));
    expect(other.ok).toBe(false);
  });
});

describe('a calendar month as the period; the date column right of the description', () => {
  const make = (period: string, last = '1,500.00'): PageSpec[] => [[
    'Crescent City Bank', period, [[40, 'Beginning Balance'], [300, '1,000.00', { r: true }]], [[40, 'Ending Balance'], [300, '1,500.00', { r: true }]],
    [[40, 'Description', { b: true }], [330, 'Posted', { b: true }], [470, 'Amount', { b: true, r: true }], [572, 'Balance', { b: true, r: true }]],
    [[40, 'CARD SETTLEMENT VISA'], [330, '10/02/2026'], [470, '500.00', { r: true }], [572, '1,500.00', { r: true }]],
    [[40, 'OVERDRAFT ITEM FEE ITEM 1,234.56'], [330, '10/03/2026'], [470, '-35.00', { r: true }], [572, '1,465.00', { r: true }]],
    [[40, 'MOBILE DEPOSIT'], [330, '10/05/2026'], [470, '200.00', { r: true }], [572, '1,665.00', { r: true }]],
    [[40, 'POS PURCHASE HOME DEPOT'], [330, '10/06/2026'], [470, '-165.00', { r: true }], [572, last, { r: true }]],
  ]];
  it('"Statement Period: October 2026" is the month\'s first to last day; each row\'s date is the one under "Posted"', async () => {
    expect(figures(await read(make('Statement Period: October 2026')))).toMatchObject({ period_start: '2026-10-01', period_end: '2026-10-31', deposits_total: 700, nsf_count: 1, ending_balance: 1500 });
    expect(figures(await read(make('October 2026 Statement')))).toMatchObject({ period_start: '2026-10-01', period_end: '2026-10-31' });
    failed(await read(make('Statement Period: October 2026', '1,600.00')), 'does_not_reconcile');
  });
  it('a month that starts a range of months, or has no year, is no period', async () => {
    failed(await read(make('Statement Period: October 2026 - November 2026')), 'not_a_statement');
    failed(await read(make('Statement Period: October')), 'not_a_statement');
  });
});

describe('a summary breaking each side down by the bank\'s own categories', () => {
  // "Deposits" (the mobile deposit only), "Electronic Credits" (card settlements), "Checks Paid",
  // "Card Purchases", "Electronic Debits": the bank's categories, which the descriptions need not
  // reproduce (a card settlement is no "Deposits" to the bank). Each side's lines together are the
  // side, to the cent and in number: read as a partition of the side, which binds.
  const make = (deposits: string, electronic: string, count = '2'): PageSpec[] => [[
    'Tidewater Commerce Bank', 'Statement Period: 10/01/2026 through 10/31/2026', 'Account Summary',
    [[40, 'Beginning Balance'], [330, '1,000.00', { r: true }]],
    [[40, 'Deposits'], [230, '1', { r: true }], [330, deposits, { r: true }]],
    [[40, 'Electronic Credits'], [230, count, { r: true }], [330, electronic, { r: true }]],
    [[40, 'Card Purchases'], [230, '1', { r: true }], [330, '75.00', { r: true }]],
    [[40, 'Electronic Debits'], [230, '1', { r: true }], [330, '125.00', { r: true }]],
    [[40, 'Ending Balance'], [330, '1,700.00', { r: true }]],
    [[40, 'Date', { b: true }], [100, 'Description', { b: true }], [430, 'Debits', { b: true, r: true }], [500, 'Credits', { b: true, r: true }], [572, 'Balance', { b: true, r: true }]],
    [[40, '10/02'], [100, 'SQUARE INC DEPOSIT 2610'], [500, '500.00', { r: true }], [572, '1,500.00', { r: true }]],
    [[40, '10/03'], [100, 'ACH DEBIT XCEL ENERGY'], [430, '125.00', { r: true }], [572, '1,375.00', { r: true }]],
    [[40, '10/05'], [100, 'MOBILE DEPOSIT 0412'], [500, '200.00', { r: true }], [572, '1,575.00', { r: true }]],
    [[40, '10/06'], [100, 'POS PURCHASE HOME DEPOT'], [430, '75.00', { r: true }], [572, '1,500.00', { r: true }]],
    [[40, '10/07'], [100, 'STRIPE TRANSFER ST-0412'], [500, '200.00', { r: true }], [572, '1,700.00', { r: true }]],
  ]];
  it('lines that together are their side are read as its breakdown', async () => {
    expect(figures(await read(make('200.00', '700.00')))).toMatchObject({ deposits_total: 900, deposit_count: 3, ending_balance: 1700 });
  });
  it('a breakdown that is not its side, in cents or in number, still fails', async () => {
    failed(await read(make('200.00', '700.00', '3')), 'does_not_reconcile');
    failed(await read(make('250.00', '700.00')), 'does_not_reconcile');
  });
});

describe('a service charge in the summary beside overdraft fees', () => {
  const make = (svc: string): PageSpec[] => [[
    'Ozark Hills Bank', 'Statement Period: 10/01/2026 through 10/31/2026',
    [[40, 'Beginning Balance'], [300, '1,000.00', { r: true }]], [[40, 'Ending Balance'], [300, '1,415.00', { r: true }]],
    [[40, 'Number of Deposits'], [300, '1', { r: true }]], [[40, 'Service Charge'], [300, svc, { r: true }]],
    [[40, 'Date', { b: true }], [100, 'Description', { b: true }], [430, 'Withdrawals', { b: true, r: true }], [500, 'Deposits', { b: true, r: true }], [572, 'Balance', { b: true, r: true }]],
    [[40, '10/02'], [100, 'SQUARE INC DEPOSIT 2610'], [500, '500.00', { r: true }], [572, '1,500.00', { r: true }]],
    [[40, '10/03'], [100, 'OVERDRAFT ITEM FEE'], [430, '35.00', { r: true }], [572, '1,465.00', { r: true }]],
    [[40, '10/05'], [100, 'RETURNED ITEM FEE'], [430, '35.00', { r: true }], [572, '1,430.00', { r: true }]],
    [[40, '10/30'], [100, 'MONTHLY SERVICE FEE'], [430, '15.00', { r: true }], [572, '1,415.00', { r: true }]],
  ]];
  it('is the fee lines that are not overdraft or returned-item fees (or all of them); any other figure fails', async () => {
    expect(figures(await read(make('15.00')))).toMatchObject({ nsf_count: 2, ending_balance: 1415 });
    expect(figures(await read(make('85.00')))).toMatchObject({ nsf_count: 2 });
    failed(await read(make('50.00')), 'does_not_reconcile');
  });
});

describe("a service charges box: the bank's own charges, not a payee's bill naming its fees (blind-17)", () => {
  // "Service Charges*" boxed beside Total Debits (and included in it): the overdraft and analysis
  // charges; "ACH DEBIT ADP PAYROLL FEES" is the payroll company's pull, no bank charge.
  const make = (svc: string): PageSpec[] => [[
    'Golden Gate Test Bank', 'Statement Period: 10/01/2026 through 10/31/2026',
    [[40, 'Beginning Balance'], [300, '1,000.00', { r: true }]], [[40, 'Ending Balance'], [300, '1,345.00', { r: true }]],
    [[40, 'Service Charges*'], [300, svc, { r: true }]],
    [[40, 'Date', { b: true }], [100, 'Description', { b: true }], [430, 'Debits', { b: true, r: true }], [500, 'Credits', { b: true, r: true }], [572, 'Balance', { b: true, r: true }]],
    [[40, '10/02'], [100, 'SQUARE INC DEPOSIT 2610'], [500, '500.00', { r: true }], [572, '1,500.00', { r: true }]],
    [[40, '10/03'], [100, 'ACH DEBIT ADP PAYROLL FEES ADP WAGE'], [430, '100.00', { r: true }], [572, '1,400.00', { r: true }]],
    [[40, '10/05'], [100, 'OVERDRAFT CHARGE PAID ITEM ACH DEBIT ADP PAYROLL FEES'], [430, '30.00', { r: true }], [572, '1,370.00', { r: true }]],
    [[40, '10/30'], [100, 'ACCOUNT ANALYSIS CHARGE'], [430, '25.00', { r: true }], [572, '1,345.00', { r: true }]],
  ]];
  it('is the lines worded with the fee word before any channel; any other figure fails', async () => {
    expect(figures(await read(make('55.00')))).toMatchObject({ nsf_count: 1, ending_balance: 1345 });
    failed(await read(make('45.00')), 'does_not_reconcile');
  });
});

describe('"Money in by type" / "Money out by type": totals of each side, by place, never transactions (blind-17)', () => {
  // Side by side: "ACH" on the left is money in, on the right money out; the lines of each table
  // together must be their side, to the cent and in number.
  const make = (wire: string): PageSpec[] => [[
    'Tallwood Cash Account', 'Statement Period: 10/01/2026 through 10/31/2026',
    [[40, 'Beginning Balance'], [300, '1,000.00', { r: true }]], [[40, 'Ending Balance'], [300, '5,600.00', { r: true }]],
    [[40, 'Money in by type'], [320, 'Money out by type']],
    [[40, 'Type'], [120, 'Count'], [240, 'Total', { r: true }], [320, 'Type'], [400, 'Count'], [520, 'Total', { r: true }]],
    [[40, 'ACH'], [120, '2'], [240, '$1,500.00', { r: true }], [320, 'ACH'], [400, '1'], [520, '$1,500.00', { r: true }]],
    [[40, 'Wire'], [120, '1'], [240, wire, { r: true }], [320, 'Card'], [400, '1'], [520, '$400.00', { r: true }]],
    [[40, 'Date', { b: true }], [100, 'Description', { b: true }], [430, 'Debits', { b: true, r: true }], [500, 'Credits', { b: true, r: true }], [572, 'Balance', { b: true, r: true }]],
    [[40, '10/02'], [100, 'STRIPE TRANSFER 3371'], [500, '1,000.00', { r: true }], [572, '2,000.00', { r: true }]],
    [[40, '10/05'], [100, 'CORVID ROBOTICS INVOICE PMT'], [500, '500.00', { r: true }], [572, '2,500.00', { r: true }]],
    [[40, '10/06'], [100, 'WIRE IN NORTHWELL ANALYTICS INVOICE 2231'], [500, '5,000.00', { r: true }], [572, '7,500.00', { r: true }]],
    [[40, '10/09'], [100, 'GUSTO NET 895496702'], [430, '1,500.00', { r: true }], [572, '6,000.00', { r: true }]],
    [[40, '10/12'], [100, 'SLACK CARD 8812'], [430, '400.00', { r: true }], [572, '5,600.00', { r: true }]],
  ]];
  it('are read as each side\'s breakdown: the statement is parsed', async () => {
    expect(figures(await read(make('$5,000.00')))).toMatchObject({ deposits_total: 6500, deposit_count: 3, ending_balance: 5600 });
  });
  it('a line that does not add up with its side fails', async () => {
    failed(await read(make('$5,100.00')), 'does_not_reconcile');
  });
});

// blind-28: a fintech's "Money in" title alone over its breakdown, its own card payouts apart from
// the rest ("Harbor card payouts (1)", "Other money in (2)"): lines of the credit side, not a debit
// total of card purchases.
describe('a side\'s title alone ("Money in") over its breakdown lines: together they are that side (blind-28)', () => {
  const make = (payouts: string): PageSpec[] => [[
    'Harbor Ledger Business Account', 'Statement Period: 10/01/2026 through 10/31/2026',
    [[40, 'Beginning Balance'], [300, '1,000.00', { r: true }]], [[40, 'Ending Balance'], [300, '5,600.00', { r: true }]],
    [[40, 'Money in', { b: true }]],
    [[48, 'Harbor card payouts (1)'], [300, payouts, { r: true }]],
    [[48, 'Other money in (2)'], [300, '$5,500.00', { r: true }]],
    [[40, 'Date', { b: true }], [100, 'Description', { b: true }], [430, 'Debits', { b: true, r: true }], [500, 'Credits', { b: true, r: true }], [572, 'Balance', { b: true, r: true }]],
    [[40, '10/02'], [100, 'HARBOR CARD PAYOUT 3371'], [500, '1,000.00', { r: true }], [572, '2,000.00', { r: true }]],
    [[40, '10/05'], [100, 'CORVID ROBOTICS INVOICE PMT'], [500, '500.00', { r: true }], [572, '2,500.00', { r: true }]],
    [[40, '10/06'], [100, 'WIRE IN NORTHWELL ANALYTICS INVOICE 2231'], [500, '5,000.00', { r: true }], [572, '7,500.00', { r: true }]],
    [[40, '10/09'], [100, 'GUSTO NET 895496702'], [430, '1,500.00', { r: true }], [572, '6,000.00', { r: true }]],
    [[40, '10/12'], [100, 'SLACK CARD 8812'], [430, '400.00', { r: true }], [572, '5,600.00', { r: true }]],
  ]];
  it('are read as the side\'s breakdown: the statement is parsed', async () => {
    expect(figures(await read(make('$1,000.00')))).toMatchObject({ deposits_total: 6500, deposit_count: 3, ending_balance: 5600 });
  });
  it('lines that do not add up to the side fail', async () => {
    failed(await read(make('$1,050.00')), 'does_not_reconcile');
  });
});

describe('"Summary by type" over "In" and "Out": each column\'s lines together are that side (blind-22)', () => {
  // An online bank's table of its own types (ACH, Card, Wire) for both sides under one title: the
  // title line reads like a column header ("In", "Out"); "ACH" is not the rows whose description says
  // ACH. Each column's lines must together be their side, to the cent; a line after the table
  // ("Average daily balance ...") ends it.
  const make = (cardOut: string): PageSpec[] => [[
    'Tallwood Direct Business Bank', 'Statement Period: 10/01/2026 through 10/31/2026',
    [[40, 'Beginning Balance'], [300, '1,000.00', { r: true }]], [[40, 'Ending Balance'], [300, '5,600.00', { r: true }]],
    [[40, 'Summary by type'], [300, 'In', { r: true }], [380, 'Out', { r: true }]],
    [[40, 'ACH'], [300, '$1,500.00', { r: true }], [380, '$1,500.00', { r: true }]],
    [[40, 'Card'], [300, '$0.00', { r: true }], [380, cardOut, { r: true }]],
    [[40, 'Wire'], [300, '$5,000.00', { r: true }], [380, '$0.00', { r: true }]],
    [[40, 'Average daily balance $4,000.00   Interest paid $0.00']],
    [[40, 'Date', { b: true }], [100, 'Description', { b: true }], [430, 'Debits', { b: true, r: true }], [500, 'Credits', { b: true, r: true }], [572, 'Balance', { b: true, r: true }]],
    [[40, '10/02'], [100, 'STRIPE TRANSFER 3371'], [500, '1,000.00', { r: true }], [572, '2,000.00', { r: true }]],
    [[40, '10/05'], [100, 'CORVID ROBOTICS INVOICE PMT'], [500, '500.00', { r: true }], [572, '2,500.00', { r: true }]],
    [[40, '10/06'], [100, 'WIRE IN NORTHWELL ANALYTICS INVOICE 2231'], [500, '5,000.00', { r: true }], [572, '7,500.00', { r: true }]],
    [[40, '10/09'], [100, 'GUSTO NET 895496702'], [430, '1,500.00', { r: true }], [572, '6,000.00', { r: true }]],
    [[40, '10/12'], [100, 'SLACK PURCHASE 8812'], [430, '400.00', { r: true }], [572, '5,600.00', { r: true }]],
  ]];
  it('are read as each side\'s breakdown: the statement is parsed', async () => {
    expect(figures(await read(make('$400.00')))).toMatchObject({ deposits_total: 6500, deposit_count: 3, ending_balance: 5600 });
  });
  it('a column whose lines do not make its side fails', async () => {
    failed(await read(make('$500.00')), 'does_not_reconcile');
  });
});

describe('titles set left over figures set right; the date on a day\'s first row only', () => {
  // "Debits  Credits  Balance" each at the left of its column while the figures are right-aligned
  // at the column's right: by the titles' places a credit would sit under "Balance". The rows'
  // right edges give the columns. Rows after a day's first carry no date (and "ACH Debit - ..."
  // is that day's row, not a debits total).
  const row = (d: string, desc: string, debit: string, credit: string, bal: string): PageSpec[number] => [[40, d], [100, desc], ...(debit ? ([[430, debit, { r: true }]] as const) : []), ...(credit ? ([[500, credit, { r: true }]] as const) : []), [572, bal, { r: true }]];
  const make = (last: string): PageSpec[] => [[
    'Sandhill Community Bank', 'Statement Period: 10/01/2026 through 10/31/2026', [[40, 'Beginning Balance'], [300, '1,000.00', { r: true }]], [[40, 'Ending Balance'], [300, '1,235.00', { r: true }]],
    [[40, 'Date', { b: true }], [100, 'Description', { b: true }], [360, 'Debits', { b: true }], [430, 'Credits', { b: true }], [502, 'Balance', { b: true }]],
    row('10/02', 'SQUARE INC DEPOSIT 2610', '', '500.00', '1,500.00'),
    row('', 'ACH Debit - GREEN NOTE CAP GNC DEBIT ID 1853027741', '245.00', '', '1,255.00'),
    row('', 'POS PURCHASE HOME DEPOT', '20.00', '', '1,235.00'),
    row('10/05', 'MOBILE DEPOSIT 0412', '', '200.00', '1,435.00'),
    row('', 'ACH DEBIT XCEL ENERGY', '125.00', '', '1,310.00'),
    row('10/06', 'STRIPE TRANSFER ST-0412', '', '150.00', '1,460.00'),
    row('', 'POS PURCHASE SHELL OIL', '225.00', '', last),
  ]];
  it('are read by where the figures are, each row with its day\'s date', async () => {
    expect(figures(await read(make('1,235.00')))).toMatchObject({ deposits_total: 850, deposit_count: 3, mca_count: 1, ending_balance: 1235 });
    failed(await read(make('1,335.00')), 'does_not_reconcile');
  });
});

describe('merchants whose names read like a balance or a total', () => {
  it('"POS PURCHASE NEW BALANCE", "... ENDING BALANCE CAFE", "TOTAL WINE & MORE" on their dates are purchases; "Beginning Balance" leading a row is a balance', async () => {
    const r = await read([[
      'Lakeshore Bank', 'Statement Period 10/01/2026 - 10/31/2026', [[50, 'Ending Balance'], [300, '1,320.00', { r: true }]], HEAD,
      AMT('10/01', 'Beginning Balance', '', '1,000.00'),
      AMT('10/02', 'CARD SETTLEMENT VISA', '500.00', '1,500.00'),
      AMT('10/03', 'POS PURCHASE NEW BALANCE #0412 BOSTON MA', '-80.00', '1,420.00'),
      AMT('10/05', 'POS PURCHASE ENDING BALANCE CAFE 88 AUSTIN TX', '-40.00', '1,380.00'),
      AMT('10/06', 'TOTAL WINE & MORE 1107 TAMPA FL', '-60.00', '1,320.00'),
    ]]);
    expect(figures(r)).toMatchObject({ beginning_balance: 1000, ending_balance: 1320, deposits_total: 500, deposit_count: 1 });
  });
});

describe('a repeated header keeps the columns its rows gave on an earlier page', () => {
  // Titles set left of right-aligned figures; the last page holds only debits, too few edges to
  // place the columns there: the first page's places stand.
  const row = (d: string, desc: string, debit: string, credit: string, bal: string): PageSpec[number] => [[40, d], [100, desc], ...(debit ? ([[430, debit, { r: true }]] as const) : []), ...(credit ? ([[500, credit, { r: true }]] as const) : []), [572, bal, { r: true }]];
  const head: PageSpec[number] = [[40, 'Date', { b: true }], [100, 'Description', { b: true }], [360, 'Debits', { b: true }], [430, 'Credits', { b: true }], [502, 'Balance', { b: true }]];
  it('and the last page\'s debits stay debits', async () => {
    const r = await read([
      ['Sandhill Community Bank', 'Statement Period: 10/01/2026 through 10/31/2026', [[40, 'Beginning Balance'], [300, '1,000.00', { r: true }]], [[40, 'Ending Balance'], [300, '1,325.00', { r: true }]], head,
        row('10/02', 'SQUARE INC DEPOSIT 2610', '', '500.00', '1,500.00'), row('10/03', 'ACH DEBIT XCEL ENERGY', '125.00', '', '1,375.00'), row('10/05', 'MOBILE DEPOSIT 0412', '', '200.00', '1,575.00'),
        row('10/06', 'POS PURCHASE HOME DEPOT', '20.00', '', '1,555.00'), row('10/07', 'STRIPE TRANSFER ST-0412', '', '150.00', '1,705.00'), row('10/08', 'POS PURCHASE SHELL OIL', '30.00', '', '1,675.00')],
      [head, row('10/20', 'ACH DEBIT COMCAST', '300.00', '', '1,375.00'), row('10/30', 'MONTHLY SERVICE FEE', '50.00', '', '1,325.00')],
    ]);
    expect(figures(r)).toMatchObject({ deposits_total: 850, ending_balance: 1325 });
  });
});

describe('a wrapped row running on to the next page', () => {
  // The date and first description line at the foot of a page; the rest of the description and
  // its amounts under the next page's repeated column header.
  const head: PageSpec[number] = [[40, 'Date', { b: true }], [90, 'Description', { b: true }], [420, 'Withdrawals', { b: true, r: true }], [495, 'Deposits', { b: true, r: true }], [572, 'Balance', { b: true, r: true }]];
  it('is one row', async () => {
    const r = await read([
      ['Driftwood Coast Bank', 'Statement Period: 10/01/2026 through 10/31/2026', [[40, 'Beginning Balance'], [300, '1,000.00', { r: true }]], [[40, 'Ending Balance'], [300, '1,375.00', { r: true }]], head,
        [[40, '10/02'], [90, 'ACH CREDIT FISERV MERCHANT']], [[90, 'MERCH DEP CCD 473300205'], [495, '500.00', { r: true }], [572, '1,500.00', { r: true }]],
        [[40, '10/03'], [90, 'ACH DEBIT XCEL ENERGY']]],
      ['Driftwood Coast Bank   Page 2', head, [[90, 'UTIL PAYMT CCD 279568915'], [420, '125.00', { r: true }], [572, '1,375.00', { r: true }]]],
    ]);
    expect(figures(r)).toMatchObject({ deposits_total: 500, ending_balance: 1375 });
  });
});

describe('the amount before the description, the balance after it', () => {
  // "Date | Amount | Description | Balance": the amount right after the date is the row's; an
  // amount quoted in the description stays in it.
  const make = (last: string): PageSpec[] => [[
    'Larkspur Savings Bank', 'Statement Period: 10/01/2026 through 10/31/2026', [[40, 'Beginning Balance'], [300, '1,000.00', { r: true }]], [[40, 'Ending Balance'], [300, '1,430.00', { r: true }]],
    [[40, 'Date', { b: true }], [150, 'Amount', { b: true, r: true }], [170, 'Description', { b: true }], [572, 'Balance', { b: true, r: true }]],
    [[40, '10/02'], [150, '500.00', { r: true }], [170, 'CARD SETTLEMENT VISA'], [572, '1,500.00', { r: true }]],
    [[40, '10/03'], [150, '-35.00', { r: true }], [170, 'OVERDRAFT ITEM FEE ITEM 1,234.56'], [572, '1,465.00', { r: true }]],
    [[40, '10/05'], [150, '-35.00', { r: true }], [170, 'POS PURCHASE HOME DEPOT'], [572, last, { r: true }]],
  ]];
  it('is read with the amount as the row\'s and the running balance binding', async () => {
    expect(figures(await read(make('1,430.00')))).toMatchObject({ deposits_total: 500, nsf_count: 1, ending_balance: 1430 });
    failed(await read(make('1,440.00')), 'does_not_reconcile');
  });
});

describe('a check the merchant deposited, returned unpaid, on a register with a running balance', () => {
  // The debit of the returned check and the bank's charge for it are the payer's bounce: not an
  // NSF of the merchant's (the truth of a Zions-style register counted 4 overdraft fees, the reader 5).
  const make = (returned: string): PageSpec[] => [[
    'Wasatch Plains Bank', 'Statement Period: 10/01/2026 through 10/31/2026', [[40, 'Beginning Balance'], [300, '1,000.00', { r: true }]], [[40, 'Ending Balance'], [300, '1,229.00', { r: true }]],
    HEAD,
    AMT('10/02', 'CARD SETTLEMENT VISA', '800.00', '1,800.00'),
    AMT('10/03', 'MOBILE DEPOSIT CK 1207', '400.00', '2,200.00'),
    AMT('10/09', returned, '-400.00', '1,800.00'),
    AMT('10/09', 'RETURN DEPOSIT ITEM CHARGE', '-12.00', '1,788.00'),
    AMT('10/12', 'ACH DEBIT XCEL ENERGY', '-2,000.00', '-212.00'),
    AMT('10/12', 'OVERDRAFT PAID ITEM FEE', '-35.00', '-247.00'),
    AMT('10/20', 'CARD SETTLEMENT VISA', '1,476.00', '1,229.00'),
  ]];
  it('is a debit, not an NSF, and its charge is no doubt', async () => {
    expect(figures(await read(make('DEPOSITED ITEM RETURNED UNPAID CK 1207')))).toMatchObject({ ending_balance: 1229, deposits_total: 2676, nsf_count: 1 });
    // The merchant's own item returned unpaid is still counted.
    expect(figures(await read(make('ITEM RETURNED UNPAID CK 1207')))).toMatchObject({ nsf_count: 2 });
  });
});

describe('an account summary as a row of boxes, each label over its amount', () => {
  // "Previous Balance | n Deposits/Credits | n Checks/Debits | Service Charges/Fees | Interest Paid |
  // Current Balance" over six amounts, an empty one printed ".00" (no whole dollars).
  const make = (interest: string, current = '1,865.00'): PageSpec[] => [[
    [[40, 'PEACHTREE PLAINS BANK'], [500, 'Statement Date']],
    [[360, 'Statement Period 10/01/2026 thru 10/31/2026']],
    'ACCOUNT SUMMARY',
    [[58, 'Previous Balance'], [143, '2 Deposits/Credits'], [235, '2 Checks/Debits'], [318, 'Service Charges/Fees'], [420, 'Interest Paid'], [503, 'Current Balance']],
    [[102, '1,000.00', { r: true }], [191, '1,500.00', { r: true }], [280, '600.00', { r: true }], [363, '35.00', { r: true }], [444, interest, { r: true }], [545, current, { r: true }]],
    HEAD,
    AMT('10/02', 'CARD SETTLEMENT VISA', '1,000.00'),
    AMT('10/09', 'MOBILE DEPOSIT', '500.00'),
    AMT('10/12', 'ACH DEBIT XCEL ENERGY', '-400.00'),
    AMT('10/15', 'ACH DEBIT SYSCO', '-200.00'),
    AMT('10/15', 'OVERDRAFT ITEM FEE', '-35.00'),
  ]];
  it('reads the balances and totals from the boxes', async () => {
    expect(figures(await read(make('.00')))).toMatchObject({ period_start: '2026-10-01', period_end: '2026-10-31', beginning_balance: 1000, ending_balance: 1865, deposits_total: 1500, nsf_count: 1 });
    // A current balance the rows do not reach.
    failed(await read(make('.00', '1,875.00')), 'does_not_reconcile');
  });
});

// blind-28: a credit union's summary as four boxes, each label at its box's left and its amount at
// its right: the first box's amount lies nearer the second box's label than its own.
describe('a row of boxes, each label at its left and its amount at its right', () => {
  const make = (credits: string): PageSpec[] => [[
    [[40, 'CASCADE MEADOWS FCU'], [360, 'Period 10/01/2026 thru 10/31/2026']],
    [[44, 'Beginning Balance', { size: 7 }], [177, 'Credits This Period (2)', { size: 7 }], [310, 'Debits This Period (3)', { size: 7 }], [443, 'Ending Balance', { size: 7 }]],
    [[167, '12,000.00', { r: true }], [300, '+1,500.00', { r: true }], [433, '-635.00', { r: true }], [566, '12,865.00', { r: true }]],
    HEAD,
    AMT('10/02', 'CARD SETTLEMENT VISA', '1,000.00', '13,000.00'),
    AMT('10/09', 'MOBILE DEPOSIT', credits, '13,500.00'),
    AMT('10/12', 'ACH DEBIT XCEL ENERGY', '-400.00', '13,100.00'),
    AMT('10/15', 'ACH DEBIT SYSCO', '-200.00', '12,900.00'),
    AMT('10/15', 'OVERDRAFT ITEM FEE', '-35.00', '12,865.00'),
  ]];
  it('reads each box\'s amount as its own label\'s', async () => {
    expect(figures(await read(make('500.00')))).toMatchObject({ beginning_balance: 12000, ending_balance: 12865, deposits_total: 1500, deposit_count: 2, nsf_count: 1 });
  });
});

// blind-28: a Fifth Third-style summary dates its balances before their labels ("04/01/2026
// Beginning Balance $64,000.00", an average beside it): the balances of those days, never rows.
describe('a summary balance dated before its label', () => {
  const make = (ending: string): PageSpec[] => [[
    [[40, 'OHIO RIVER TRUST'], [366, 'Statement Period Date: 10/1/2026 - 10/31/2026']],
    'Account Summary',
    [[44, '10/01/2026  Beginning Balance'], [290, '$1,000.00', { r: true }], [330, 'Average Daily Balance'], [568, '1,200.00', { r: true }]],
    [[44, '2 Deposits / Credits'], [290, '1,500.00', { r: true }], [330, 'Days in Period'], [568, '31', { r: true }]],
    [[44, '3 Withdrawals / Debits'], [290, '-635.00', { r: true }]],
    [[44, '10/31/2026  Ending Balance'], [290, ending, { r: true }]],
    HEAD,
    AMT('10/02', 'CARD SETTLEMENT VISA', '1,000.00'),
    AMT('10/09', 'MOBILE DEPOSIT', '500.00'),
    AMT('10/12', 'ACH DEBIT XCEL ENERGY', '-400.00'),
    AMT('10/15', 'ACH DEBIT SYSCO', '-200.00'),
    AMT('10/15', 'OVERDRAFT ITEM FEE', '-35.00'),
  ]];
  it('reads the opening and closing balances', async () => {
    expect(figures(await read(make('$1,865.00')))).toMatchObject({ beginning_balance: 1000, ending_balance: 1865, deposits_total: 1500, nsf_count: 1 });
    failed(await read(make('$1,875.00')), 'does_not_reconcile');
  });
});

describe('a box of fees beside the summary, its heading level with the balances', () => {
  // "OVERDRAFT / RETURN ITEM FEES" (this period, year to date) right of "Beginning Balance ...
  // Ending Balance": the box is not read, the summary beside it is.
  const make = (ending: string): PageSpec[] => [[
    'Delta Plains Bank', [[415, 'Statement Period: 10/01/2026 to 10/31/2026']],
    'BUSINESS CHECKING SUMMARY',
    [[366, 'OVERDRAFT / RETURN ITEM FEES']],
    [[46, 'Beginning Balance'], [334, '$1,000.00', { r: true }]],
    [[440, 'Total for'], [510, 'Total']],
    [[46, 'Deposits and Other Credits'], [240, '2', { r: true }], [334, '+$1,500.00', { r: true }]],
    [[440, 'this period'], [510, 'year-to-date']],
    [[46, 'Electronic Debits'], [240, '2', { r: true }], [334, '-$600.00', { r: true }]],
    [[366, 'Overdraft Fees'], [480, '$35.00', { r: true }], [566, '$70.00', { r: true }]],
    [[46, 'Service Charges and Fees'], [240, '1', { r: true }], [334, '-$35.00', { r: true }]],
    [[366, 'Return Item Fees'], [480, '$0.00', { r: true }], [566, '$36.00', { r: true }]],
    [[46, 'Ending Balance'], [334, ending, { r: true }]],
    HEAD,
    AMT('10/02', 'CARD SETTLEMENT VISA', '1,000.00'),
    AMT('10/09', 'MOBILE DEPOSIT', '500.00'),
    AMT('10/12', 'ACH DEBIT XCEL ENERGY', '-400.00'),
    AMT('10/15', 'ACH DEBIT SYSCO', '-200.00'),
    AMT('10/15', 'OVERDRAFT ITEM FEE', '-35.00'),
  ]];
  it('reads the opening and closing balances beside it', async () => {
    expect(figures(await read(make('$1,865.00')))).toMatchObject({ beginning_balance: 1000, ending_balance: 1865, deposits_total: 1500, nsf_count: 1 });
    failed(await read(make('$1,875.00')), 'does_not_reconcile');
  });
});

describe('only a statement date and the days in the period', () => {
  // "Statement Date 02/28/26" and "Days in period 14": the period is the 14 days ending that date.
  const make = (daysLine: string): PageSpec[] => [[
    [[40, 'Gulf Plains Bank'], [420, 'Statement Date 02/28/26']],
    [[420, daysLine]],
    [[40, 'Balance Last Statement'], [300, '1,000.00', { r: true }]],
    [[40, 'Balance This Statement'], [300, '1,300.00', { r: true }]],
    HEAD,
    AMT('02/16', 'CARD SETTLEMENT VISA', '500.00', '1,500.00'),
    AMT('02/20', 'ACH DEBIT XCEL ENERGY', '-200.00', '1,300.00'),
  ]];
  it('starts the period that many days before its end', async () => {
    expect(figures(await read(make('Days in period 14')))).toMatchObject({ period_start: '2026-02-15', period_end: '2026-02-28', beginning_balance: 1000, ending_balance: 1300 });
    // Without it, a month-end statement date is a calendar month.
    expect(figures(await read(make('Enclosures 0')))).toMatchObject({ period_start: '2026-02-01', period_end: '2026-02-28' });
  });
});

describe('"Incoming Payments" / "Outgoing Payments" sections', () => {
  it('money coming in is a credit section whatever its noun ("payments" alone reads as debits)', async () => {
    const head: PageSpec[number] = [[40, 'Date', { b: true }], [100, 'Description', { b: true }], [560, 'Amount', { b: true, r: true }]];
    const r = await read([[
      'Quayside Business Bank', 'Statement Period: 10/01/2026 through 10/31/2026', [[40, 'Opening Balance'], [300, '1,000.00', { r: true }]], [[40, 'Closing Balance'], [300, '1,500.00', { r: true }]],
      [[40, 'Incoming Payments', { b: true }]], head, [[40, '10/02'], [100, 'CARD SETTLEMENT VISA'], [560, '700.00', { r: true }]],
      [[40, 'Outgoing Payments', { b: true }]], head, [[40, '10/03'], [100, 'ACH DEBIT XCEL ENERGY'], [560, '200.00', { r: true }]],
    ]]);
    expect(figures(r)).toMatchObject({ deposits_total: 700, deposit_count: 1, ending_balance: 1500 });
  });
});

// blind-13: an Associated-style landscape register dated "16-DEC" (day first, the month's name, no
// year; a period crossing the year end), a posting and an effective date, a type code, overdrawn
// balances "1,234.56 OD", "BALANCE CARRIED FORWARD" at a page's foot and "BALANCE BROUGHT FORWARD"
// at the next page's head; "16-DEC" was read as no date at all, every row as a label.
describe('day-month-name dates ("16-DEC"), the year from a period across the year end', () => {
  it('"16-DEC" / "05-Jan" are dates, day first; "DEC-16" month first; nothing else', () => {
    expect(numericDate('16-DEC')).toEqual([12, 16, null]);
    expect(numericDate('05-Jan')).toEqual([1, 5, null]);
    expect(numericDate('DEC-16')).toEqual([12, 16, null]);
    for (const w of ['16-DECK', '32-DEC', '0-DEC', '16-XYZ']) expect(numericDate(w), w).toBeNull();
  });
  it('a register with posting and effective dates, type codes, OD balances and balances carried / brought forward: parsed and reconciled', async () => {
    const head: PageSpec[number] = [[40, 'POST DATE', { b: true }], [100, 'EFF DATE', { b: true }], [160, 'TC', { b: true }], [190, 'DESCRIPTION', { b: true }], [520, 'DEBITS', { b: true, r: true }], [610, 'CREDITS', { b: true, r: true }], [720, 'BALANCE', { b: true, r: true }]];
    const row = (post: string, eff: string, tc: string, desc: string, debit: string, credit: string, bal: string): PageSpec[number] => [[40, post], [100, eff], [160, tc], [190, desc], ...(debit ? ([[520, debit, { r: true }]] as const) : []), ...(credit ? ([[610, credit, { r: true }]] as const) : []), [720, bal, { r: true }]];
    const r = await read([
      [
        'FOX HOLLOW COMMERCE BANK', 'STATEMENT PERIOD 12/16/25 THRU 01/15/26',
        [[300, 'Beginning Balance 12/15/25'], [500, '500.00', { r: true }]], [[300, 'Total Credits (2)'], [500, '2,000.00', { r: true }]], [[300, 'Total Debits (3)'], [500, '1,435.00', { r: true }]], [[300, 'Ending Balance 01/15/26'], [500, '1,065.00', { r: true }]],
        'ACCOUNT ACTIVITY', head,
        [[190, 'BEGINNING BALANCE'], [720, '500.00', { r: true }]],
        row('16-DEC', '16-DEC', 'ACH', 'PAYCHEX PAYROLL', '800.00', '', '300.00 OD'),
        row('16-DEC', '16-DEC', 'SVC', 'OVERDRAFT CHARGE PAID ITEM', '35.00', '', '335.00 OD'),
        row('29-DEC', '26-DEC', 'DEP', 'DEPOSIT 3 ITEMS', '', '1,200.00', '865.00'),
        [[190, 'BALANCE CARRIED FORWARD'], [720, '865.00', { r: true }]],
      ],
      [
        'ACCOUNT ACTIVITY (CONTINUED)', head,
        [[190, 'BALANCE BROUGHT FORWARD'], [720, '865.00', { r: true }]],
        row('05-JAN', '02-JAN', 'POS', 'POS DEBIT KWIK TRIP 316 GREEN BAY WI', '600.00', '', '265.00'),
        row('12-JAN', '12-JAN', 'DEP', 'DEPOSIT 2 ITEMS', '', '800.00', '1,065.00'),
        [[190, 'ENDING BALANCE'], [720, '1,065.00', { r: true }]],
      ],
    ], { landscape: true });
    expect(figures(r)).toMatchObject({ period_start: '2025-12-16', period_end: '2026-01-15', beginning_balance: 500, ending_balance: 1065, deposits_total: 2000, deposit_count: 2, nsf_count: 1, negative_days: 13 });
  });
});

// blind-13: a fintech statement's boxed "Pending transactions — not included in this statement or
// its balances" (a title too long for a heading), each item with a grey method line indented below
// it ("ACH deposit · Payout · pending", which reads like a deposits heading): its items were read
// as rows of the Money out table.
describe('a pending box titled at length, its items with a method line below them', () => {
  const make = (extra: PageSpec[number][]): PageSpec[] => [[
    'Lakeshore Bank', 'Statement Period 10/01/2026 - 10/31/2026', [[50, 'Beginning Balance'], [300, '1,000.00', { r: true }]], [[50, 'Ending Balance'], [300, '1,200.00', { r: true }]],
    [[50, 'Money in', { b: true }]], HEAD,
    AMT('10/02', 'ACH CREDIT SQUARE INC', '+$500.00'),
    [[50, 'Money out', { b: true }]], HEAD,
    AMT('10/05', 'CHECK 1042', '-$300.00'),
    ...extra,
  ]];
  it('never read as rows, nor its method lines as headings', async () => {
    const pending: PageSpec[number][] = [
      [[50, 'Pending transactions \u2014 not included in this statement or its balances', { b: true }]],
      AMT('10/31', 'Shopify', '+$1,150.49'),
      [[130, 'ACH deposit \u00b7 Payout \u00b7 pending']],
      AMT('11/01', 'Meta Platforms', '-$269.55'),
      [[130, 'Card authorization \u00b7 pending']],
      AMT('11/02', 'Etsy, Inc.', '+$84.10'),
      [[130, 'ACH deposit \u00b7 Payout \u00b7 pending']],
    ];
    expect(figures(await read(make(pending)))).toMatchObject({ deposits_total: 500, deposit_count: 1, ending_balance: 1200 });
  });
});

// blind-32 (sfix2): a box titled just "Pending" with its note beside it on the same line ("Not yet
// posted. Not included in the summary, balances or totals"), its own Date / Description / Amount
// header right below: the title line was taken for the first line of a two-line header, so the
// box's items were read as rows and the statement did not reconcile.
describe('a "Pending" box titled with its note beside it, over its own header', () => {
  const make = (title: PageSpec[number]): PageSpec[] => [[
    'Lakeshore Bank', 'Statement Period 10/01/2026 - 10/31/2026', [[50, 'Beginning Balance'], [300, '1,000.00', { r: true }]], [[50, 'Ending Balance'], [300, '1,200.00', { r: true }]],
    [[50, 'Total deposits'], [300, '500.00', { r: true }]],
    title,
    HEAD,
    AMT('10/31', 'STRIPE - TRANSFER', '+$1,250.00'),
    AMT('10/31', 'FIGMA - MONTHLY', '-$25.99'),
    [[50, 'Posted transactions', { b: true }]], HEAD,
    AMT('10/02', 'ACH CREDIT SQUARE INC', '+$500.00'),
    AMT('10/05', 'CHECK 1042', '-$300.00'),
  ]];
  it('its items are never read as rows: parsed with the posted rows only', async () => {
    expect(figures(await read(make([[50, 'Pending', { b: true }], [110, 'Not yet posted. Not included in the summary, balances or totals on this statement.']])))).toMatchObject({ deposits_total: 500, deposit_count: 1, ending_balance: 1200 });
  });
  it('a box whose note does not say it is left out is read (and here does not reconcile)', async () => {
    failed(await read(make([[50, 'Recent', { b: true }], [110, 'Listed by date.']])), 'does_not_reconcile');
  });
});

// blind-16: an online bank's register printed newest first (its "Beginning balance" row at the end),
// "Feb 27" dates, every description wrapped with the amount on its first line, and amounts with no
// thousands separator: the summary's "Beginning balance on Feb 1  22041.77" was read as a balance on
// "Feb 1 2204" of $1.77 (a year taken from the amount's first digits), so nothing reconciled.
describe('a newest-first register, amounts without thousands separators, a balance "on Feb 1" before its amount', () => {
  const make = (opening: string): PageSpec[] => [[
    'Harbor Direct Bank', [[340, 'Statement period'], [470, 'Feb 1, 2026 - Feb 28, 2026']],
    'Summary',
    [[48, 'Beginning balance on Feb 1'], [330, opening, { r: true }], [360, 'Average daily balance'], [560, '20500.00', { r: true }]],
    [[48, '2 Deposits and other credits'], [330, '+13500.00', { r: true }]],
    [[48, '2 Withdrawals and other debits'], [330, '-11541.77', { r: true }]],
    [[48, 'Ending balance on Feb 28'], [330, '24000.00', { r: true }]],
    'Account Activity',
    'Activity is listed with the most recent transaction first.',
    HEAD,
    AMT('Feb 27', 'ACH Withdrawal', '-10000.00', '24000.00'),
    [[108, 'PAYCHEX PAYROLL']],
    AMT('Feb 20', 'ACH Deposit', '12500.00', '34000.00'),
    [[108, 'STRIPE TRANSFER'], [250, 'Trace 846554443450383']],
    AMT('Feb 12', 'Debit Card Purchase', '-1541.77', '21500.00'),
    [[108, 'STAPLES 0771 Card 7620']],
    AMT('Feb 3', 'ACH Deposit', '1000.00', '23041.77'),
    [[108, 'SQUARE INC SETTLEMENT']],
    [[100, 'Beginning balance'], [540, '22041.77', { r: true }]],
  ]];
  it('reads the balance on its date whole and the register in its printed order: parsed and reconciled', async () => {
    expect(figures(await read(make('22041.77')))).toMatchObject({ period_start: '2026-02-01', period_end: '2026-02-28', beginning_balance: 22041.77, ending_balance: 24000, deposits_total: 13500, deposit_count: 2 });
  });
  it('a beginning balance the rows do not follow from is refused', async () => {
    failed(await read(make('22041.78')), 'does_not_reconcile');
  });
});

// blind-16: a fee box beside the activity summary ("Overdraft fees", "Returned item fees", "Fee
// refunds"; this period and year to date): "Fee refunds $34.00" was read as a debit total of fees and
// matched no rows, so the statement was refused. A refund of fees is a credit: the total of the
// credits that refund or reverse a fee.
describe('a fee box with a "Fee refunds" total', () => {
  const make = (refunds: string, refundRow = 'OVERDRAFT FEE REFUND'): PageSpec[] => [[
    'Big Valley Bank', [[360, 'Statement period'], [476, 'Jan 1, 2026 - Jan 31, 2026']],
    [[48, 'Activity summary'], [328, 'Fee summary'], [467, 'Period'], [524, 'Year to date']],
    [[48, 'Beginning balance'], [256, '1,000.00', { r: true }], [328, 'Overdraft fees'], [500, '68.00', { r: true }], [570, '102.00', { r: true }]],
    [[48, 'Deposits/Credits'], [256, '+1,534.00', { r: true }], [328, 'Returned item fees'], [500, '0.00', { r: true }], [570, '0.00', { r: true }]],
    [[48, 'Withdrawals/Debits'], [256, '-1,368.00', { r: true }], [328, 'Fee refunds'], [500, refunds, { r: true }], [570, '34.00', { r: true }]],
    [[48, 'Ending balance'], [256, '1,166.00', { r: true }]],
    'Transaction history',
    HEAD,
    AMT('01/05', 'ACH DEBIT PAYCHEX PAYROLL', '-1,200.00', '-200.00'),
    AMT('01/05', 'OVERDRAFT ITEM FEE', '-34.00', '-234.00'),
    AMT('01/06', 'ACH DEBIT XCEL ENERGY', '-100.00', '-334.00'),
    AMT('01/06', 'OVERDRAFT ITEM FEE', '-34.00', '-368.00'),
    AMT('01/07', refundRow, '34.00', '-334.00'),
    AMT('01/09', 'ELECTRONIC CREDIT SQUARE INC', '1,500.00', '1,166.00'),
  ]];
  it('is the credits that refund a fee: parsed and reconciled', async () => {
    expect(figures(await read(make('34.00')))).toMatchObject({ beginning_balance: 1000, ending_balance: 1166, deposits_total: 1534, deposit_count: 2, nsf_count: 2 });
  });
  it('a fee-refund total the refund rows do not make, or no refund row, is refused', async () => {
    failed(await read(make('68.00')), 'does_not_reconcile');
    failed(await read(make('34.00', 'ELECTRONIC CREDIT CLOVER')), 'does_not_reconcile');
  });
});

// A newest-first register whose one Amount column prints no sign: each row's sign comes from its
// running balance, read from the last row (the oldest) up; read from the top, no row's balance follows
// from the opening balance and the statement was refused.
describe('a newest-first register with unsigned amounts: signs from the running balance, oldest row first', () => {
  const make = (closing: string): PageSpec[] => [[
    'Harbor Direct Bank', 'Statement Period 10/01/2026 - 10/31/2026',
    [[50, 'Beginning Balance'], [300, '1,000.00', { r: true }]], [[50, 'Ending Balance'], [300, closing, { r: true }]],
    'Activity, most recent first', HEAD,
    AMT('10/20', 'ACH DEBIT XCEL ENERGY', '300.00', '1,100.00'),
    AMT('10/12', 'CARD SETTLEMENT VISA', '600.00', '1,400.00'),
    AMT('10/05', 'POS PURCHASE SYSCO', '200.00', '800.00'),
  ]];
  it('parsed and reconciled', async () => {
    expect(figures(await read(make('1,100.00')))).toMatchObject({ beginning_balance: 1000, ending_balance: 1100, deposits_total: 600, deposit_count: 1 });
  });
  it('a closing balance the rows do not reach is refused', async () => {
    failed(await read(make('1,500.00')), 'does_not_reconcile');
  });
});

// blind-19, Bremer-style mainframe print (Courier): "BALANCE LAST STATEMENT  05/31/26" and "BALANCE
// THIS STATEMENT  06/30/26" give the period (no range printed; the statement date's words two spaces
// apart), "2 DEPOSITS/CREDITS  1,500.00+" (a count before its label, a trailing plus) and "3
// CHECKS/DEBITS  2,200.00-" are the totals, debits and an overdrawn balance carry a trailing minus,
// and the balance is printed on a day's last item only.
describe('a mainframe print: BALANCE LAST / THIS STATEMENT with their dates, trailing signs, a balance on a day\'s last item', () => {
  const make = (o: { deposits?: string; negBal?: string; dateLine?: string; thisLabel?: string } = {}): PageSpec[] => [[
    // (A typewriter's words set apart: two cells, "STATEMENT" and "DATE 06/30/26".)
    o.dateLine ? [[40, 'RIVER BEND BANK'], [330, o.dateLine]] : [[40, 'RIVER BEND BANK'], [330, 'STATEMENT'], [395, 'DATE 06/30/26']],
    [[40, 'BUSINESS CHECKING']],
    [[46, 'BALANCE LAST STATEMENT  05/31/26'], [330, '1,000.00', { r: true }]],
    [[46, '2 DEPOSITS/CREDITS'], [330, o.deposits ?? '1,500.00+', { r: true }]],
    [[46, '3 CHECKS/DEBITS'], [330, '2,200.00-', { r: true }]],
    [[46, o.thisLabel ?? 'BALANCE THIS STATEMENT  06/30/26'], [330, '300.00', { r: true }]],
    [[46, 'AVERAGE DAILY BALANCE'], [330, '290.00', { r: true }]],
    '*** ACCOUNT TRANSACTIONS ***',
    HEAD,
    AMT('06/01', 'ACH WITHDRAWAL XCEL ENERGY', '1,200.00-'),
    AMT('06/01', 'CARD SETTLEMENT VISA', '1,000.00', '800.00'),
    AMT('06/02', 'ACH WITHDRAWAL SYSCO', '900.00-', o.negBal ?? '100.00-'),
    AMT('06/03', 'MOBILE DEPOSIT', '500.00'),
    AMT('06/03', 'SERVICE CHARGE', '100.00-', '300.00'),
  ]];
  it('parsed and reconciled: the period from the two statements\' dates, the overdrawn day counted', async () => {
    expect(figures(await read(make()))).toMatchObject({ period_start: '2026-06-01', period_end: '2026-06-30', beginning_balance: 1000, ending_balance: 300, deposits_total: 1500, deposit_count: 2, negative_days: 1 });
    // The statement's date alone on the balance line: the same period.
    expect(figures(await read(make({ dateLine: 'ACCOUNT 60118842' })))).toMatchObject({ period_start: '2026-06-01', period_end: '2026-06-30' });
    // Or the statement's date alone, its words two spaces apart ("STATEMENT  DATE 06/30/26").
    expect(figures(await read(make({ thisLabel: 'BALANCE THIS STATEMENT' })))).toMatchObject({ period_start: '2026-06-01', period_end: '2026-06-30' });
  });
  it('a "+" total the rows do not make, or an overdrawn balance printed without its minus, is refused', async () => {
    failed(await read(make({ deposits: '1,400.00+' })), 'does_not_reconcile');
    failed(await read(make({ negBal: '100.00' })), 'does_not_reconcile');
  });
});

// blind-19, Texas Capital-style landscape treasury statement: a Balance Summary strip of labelled cells
// ("Opening Ledger | Total Credits | # Credits | Total Debits | # Debits | Closing Ledger | Average
// Ledger | Minimum Ledger") over its figures; a Credits table and a Debits table (Value Date | Amount |
// Type | Bank Reference | Description last), each closed by its amount then "Total Credits: n items";
// ledger balances for every calendar day, five across.
describe('a treasury statement: a strip of labelled cells, tables with the description last, a ledger balance for every day', () => {
  const make = (o: { stripCredits?: string; lineCredits?: string; closing?: string; ledger31?: string } = {}): PageSpec[] => {
    const row = (d: string, amt: string, type: string, desc: string): PageSpec[number] => [[40, d], [170, amt, { r: true }], [190, type], [290, `2603${d.slice(3, 5)}${d.slice(0, 2)}1234567`], [400, desc]];
    const head: PageSpec[number] = [[40, 'Value Date', { b: true }], [170, 'Amount', { b: true, r: true }], [190, 'Type', { b: true }], [290, 'Bank Reference', { b: true }], [400, 'Description', { b: true }]];
    const bal = (day: number) => (day === 1 ? '1,000.00' : day === 2 ? '2,000.00' : day <= 4 ? '1,600.00' : day <= 9 ? '1,300.00' : day === 31 && o.ledger31 ? o.ledger31 : '1,800.00');
    const ledger: PageSpec = [];
    for (let r = 0; r < 7; r++) {
      const cells: Array<readonly [number, string] | readonly [number, string, { r: boolean }]> = [];
      for (let c = 0; c < 5; c++) {
        const day = c * 7 + r + 1;
        if (day > 31) continue;
        cells.push([40 + c * 145, `03/${String(day).padStart(2, '0')}/2026`], [170 + c * 145, bal(day), { r: true }]);
      }
      ledger.push(cells);
    }
    return [[
      [[40, 'PECOS COMMERCE BANK'], [300, 'COMMERCIAL ACCOUNT STATEMENT']],
      [[40, 'Treasury Client Services'], [500, 'Statement Period: 03/01/2026 to 03/31/2026']],
      'Balance Summary',
      [[65, 'Opening Ledger'], [150, 'Total Credits'], [235, '# Credits'], [300, 'Total Debits'], [385, '# Debits'], [450, 'Closing Ledger'], [540, 'Average Ledger'], [630, 'Minimum Ledger']],
      [[120, '1,000.00', { r: true }], [210, '1,500.00', { r: true }], [270, o.stripCredits ?? '2', { r: true }], [360, '700.00', { r: true }], [420, '2', { r: true }], [510, o.closing ?? '1,800.00', { r: true }], [600, '1,551.61', { r: true }], [690, '1,000.00', { r: true }]],
      'Credits', head,
      row('03/02/2026', '1,000.00', 'ACH CREDIT', 'STRIPE TRANSFER CCD 8326352243'),
      row('03/10/2026', '500.00', 'DEPOSIT', 'MOBILE DEPOSIT REF 9948407785'),
      [[170, '1,500.00', { r: true }], [190, `Total Credits: ${o.lineCredits ?? '2'} items`]],
      'Debits', head,
      row('03/03/2026', '400.00', 'ACH DEBIT', 'XCEL ENERGY CCD 3796706182'),
      row('03/05/2026', '300.00', 'CARD PURCHASE', 'CARD 3831 LOVES TRAVEL 0412 BAYTOWN TX'),
      [[170, '700.00', { r: true }], [190, 'Total Debits: 2 items']],
      'Ledger Balances',
      [0, 1, 2, 3, 4].flatMap((c) => [[40 + c * 145, 'Date', { b: true }], [170 + c * 145, 'Ledger Balance', { b: true, r: true }]] as const),
      ...ledger,
    ]];
  };
  it('parsed and reconciled from the strip: "Opening Ledger" and "Closing Ledger" are the balances', async () => {
    expect(figures(await read(make(), { landscape: true }))).toMatchObject({ period_start: '2026-03-01', period_end: '2026-03-31', beginning_balance: 1000, ending_balance: 1800, deposits_total: 1500, deposit_count: 2, negative_days: 0 });
    failed(await read(make({ closing: '1,900.00' }), { landscape: true }), 'does_not_reconcile');
  });
  it('the "# Credits" cell is the credits\' count, and "1,500.00  Total Credits: n items" a total with its count: a count the rows do not make is refused', async () => {
    failed(await read(make({ stripCredits: '3' }), { landscape: true }), 'does_not_reconcile');
    failed(await read(make({ lineCredits: '3' }), { landscape: true }), 'does_not_reconcile');
  });
  it('a ledger balance the rows do not reach is refused', async () => {
    failed(await read(make({ ledger31: '1,700.00' }), { landscape: true }), 'does_not_reconcile');
  });
});

// The amount-first total line ("1,500.00  Total Credits: 2 items") is read only when its label says it
// is a total: in a register printed amount first with the date on a day's first row only, an undated
// "500.00  MOBILE DEPOSIT" is that day's row, never a total named "MOBILE DEPOSIT".
describe('an amount-first register, the date on a day\'s first row only', () => {
  const row = (d: string, amt: string, desc: string): PageSpec[number] => [...(d ? ([[50, d]] as const) : []), [200, amt, { r: true }], [230, desc]];
  const make = (closing: string): PageSpec[] => [[
    'Prairie Ledger Bank', 'Statement Period 10/01/2026 - 10/31/2026',
    [[50, 'Beginning Balance'], [300, '1,000.00', { r: true }]], [[50, 'Ending Balance'], [300, closing, { r: true }]],
    'DEPOSITS AND CREDITS',
    [[50, 'Date', { b: true }], [200, 'Amount', { b: true, r: true }], [230, 'Description', { b: true }]],
    row('10/02', '1,000.00', 'CARD SETTLEMENT VISA'),
    row('', '500.00', 'MOBILE DEPOSIT'),
    row('10/09', '250.00', 'CARD SETTLEMENT VISA'),
  ]];
  it('the undated row is the day\'s row: parsed and reconciled', async () => {
    expect(figures(await read(make('2,750.00')))).toMatchObject({ beginning_balance: 1000, ending_balance: 2750, deposits_total: 1750, deposit_count: 3 });
    failed(await read(make('2,850.00')), 'does_not_reconcile');
  });
});

// blind-24: a fintech's statement (newest first, one signed Amount column, no balance column) prints
// beside its own summary the balance of a savings sub-account that is not part of the account
// ("Tax Bucket balance on May 31, 2026: $X (a separate savings bucket, not included above)"). Read as
// a balance stated for the period's last day, it conflicted with the closing balance and the
// statement was refused. Another account's balance closes nothing of this one's.
describe("a sub-account's balance printed beside a fintech's summary", () => {
  const make = (note: string, opening = '$400.00'): PageSpec[] => [[
    'Fernleaf Money', 'Statement period: Oct 1, 2026 - Oct 31, 2026',
    [[40, 'Starting balance (10/01/2026)'], [300, opening, { r: true }]],
    [[40, 'Money in'], [160, '2 transactions'], [300, '+$900.00', { r: true }]],
    [[40, 'Money out'], [160, '2 transactions'], [300, '-$250.00', { r: true }]],
    [[40, 'Ending balance (10/31/2026)'], [300, '$1,050.00', { r: true }]],
    note,
    'Transactions (newest first)',
    [[40, 'Date', { b: true }], [120, 'Description', { b: true }], [520, 'Amount', { b: true, r: true }]],
    [[40, '10/28/2026'], [120, 'STRIPE TRANSFER'], [520, '+$600.00', { r: true }]],
    [[40, '10/15/2026'], [120, 'Transfer to Rainy Day Vault'], [520, '-$200.00', { r: true }]],
    [[40, '10/09/2026'], [120, 'SQUARE INC SETTLEMENT'], [520, '+$300.00', { r: true }]],
    [[40, '10/03/2026'], [120, 'Adobe subscription'], [520, '-$50.00', { r: true }]],
  ]];
  it('"Rainy Day Vault balance on Oct 31, 2026: $X" is another account\'s: parsed and reconciled from the account\'s own balances', async () => {
    expect(figures(await read(make('Rainy Day Vault balance on Oct 31, 2026: $3,200.00')))).toMatchObject({ beginning_balance: 400, ending_balance: 1050, deposits_total: 900, deposit_count: 2 });
    expect(figures(await read(make('Payroll reserve balance on Oct 31, 2026: $700.00 (kept separate, not included above)')))).toMatchObject({ ending_balance: 1050 });
  });
  it('with it, rows the summary does not follow from are still refused', async () => {
    failed(await read(make('Rainy Day Vault balance on Oct 31, 2026: $3,200.00', '$401.00')), 'does_not_reconcile');
  });
});

// blind-24: a register whose date column prints the weekday before the date ("Thu 04/02"), with a
// Type column between the date and the description. Read as text, no row had a date: every line of
// the register was taken for a summary line and nothing reconciled.
describe('a weekday before each row\'s date', () => {
  const pages: PageSpec[] = [[
    'Cypress Hollow Bank', 'Statement Period 06/01/2026 - 06/30/2026', [[50, 'Beginning Balance'], [300, '$2,000.00', { r: true }]],
    [[50, 'Date', { b: true }], [110, 'Type', { b: true }], [180, 'Description', { b: true }], [430, 'Debits', { b: true, r: true }], [500, 'Credits', { b: true, r: true }], [570, 'Balance', { b: true, r: true }]],
    [[50, 'Tue 06/02'], [110, 'ACH Credit'], [180, 'STRIPE TRANSFER'], [500, '750.00', { r: true }], [570, '$2,750.00', { r: true }]],
    [[50, 'Fri. 06/05'], [110, 'Card'], [180, 'OFFICE DEPOT 1182'], [430, '120.00', { r: true }], [570, '$2,630.00', { r: true }]],
    [[50, 'Monday 06/15'], [110, 'Interest'], [180, 'Interest credited'], [500, '1.25', { r: true }], [570, '$2,631.25', { r: true }]],
    [[180, 'Totals'], [430, '120.00', { r: true }], [500, '751.25', { r: true }], [570, '$2,631.25', { r: true }]],
    [[50, 'Ending Balance'], [300, '$2,631.25', { r: true }]],
  ]];
  it('the weekday is part of the date: parsed and reconciled; the bank\'s interest is a credit, not revenue', async () => {
    expect(figures(await read(pages))).toMatchObject({ period_start: '2026-06-01', deposits_total: 751.25, deposit_count: 2, true_revenue: 750, ending_balance: 2631.25 });
  });
});

// blind-24: a landscape register flowing in two newspaper columns (each "Date Description Amount
// Balance", down the left column, then down the right one), the account summary set after the
// activity in the next free column of the last page. Read row by row across, the two columns'
// rows and balances interleaved and the summary's lines ran into the rows: not_a_statement.
describe('a register in two newspaper columns, the summary after the activity', () => {
  const R = 420; // the right column's left edge
  const head = (x: number): readonly Cell[] => [[x, 'Date', { b: true }], [x + 40, 'Description', { b: true }], [x + 280, 'Amount', { b: true, r: true }], [x + 350, 'Balance', { b: true, r: true }]];
  const cell = (x: number, d: string, desc: string, amt: string, bal: string): readonly Cell[] => [[x, d], [x + 40, desc], [x + 280, amt, { r: true }], [x + 350, bal, { r: true }]];
  const both = (a: readonly Cell[], b: readonly Cell[]): readonly Cell[] => [...a, ...b];
  const make = (debits: string): PageSpec[] => [
    ['Ridgeline Mountain Bank', 'Statement Period 03/01/26 - 03/31/26', 'ACCOUNT ACTIVITY', both(head(40), head(R)),
      both(cell(40, '3/1', 'Beginning Balance', '', '1,000.00'), cell(R, '3/12', 'ACH Debit PACIFIC POWER', '-90.00', '1,560.00')),
      both(cell(40, '3/3', 'ACH Credit STRIPE TRANSFER', '400.00', '1,400.00'), cell(R, '3/16', 'ACH Credit SQUARE INC SQ DEP', '250.00', '1,810.00')),
      both(cell(40, '3/6', 'Debit Card Purchase STAPLES', '-50.00', '1,350.00'), cell(R, '3/20', 'ACH Debit GUSTO PAYROLL', '-600.00', '1,210.00')),
      both(cell(40, '3/9', 'ACH Credit SHOPIFY TRANSFER', '300.00', '1,650.00'), cell(R, '3/24', 'ACH Credit STRIPE TRANSFER', '175.00', '1,385.00')),
      'Continued on next page'],
    ['Ridgeline Mountain Bank  -  Page 2 of 2', head(40),
      both(cell(40, '3/27', 'ACH Debit VERIZON WIRELESS', '-85.00', '1,300.00'), [[R, 'ACCOUNT SUMMARY', { b: true }]]),
      both(cell(40, '3/31', 'Ending Balance', '', '1,300.00'), [[R, 'Beginning Balance on 03/01/26'], [R + 350, '$1,000.00', { r: true }]]),
      [[R, 'Total Credits (4)'], [R + 350, '1,125.00', { r: true }]],
      [[R, 'Total Debits (4)'], [R + 350, debits, { r: true }]],
      [[R, 'Ending Balance on 03/31/26'], [R + 350, '$1,300.00', { r: true }]]],
  ];
  it('down the left column, then down the right; the summary read after the rows: parsed and reconciled', async () => {
    expect(figures(await read(make('-825.00'), { landscape: true }))).toMatchObject({ period_start: '2026-03-01', beginning_balance: 1000, ending_balance: 1300, deposits_total: 1125, deposit_count: 4 });
  });
  it('a summary total the rows do not make is still refused', async () => {
    failed(await read(make('-835.00'), { landscape: true }), 'does_not_reconcile');
  });
});

// blind-26: a credit union's landscape register printing its dates as the month's short name and the
// day run together ("DEC11", "MAY01"), one signed amount column (a trailing minus on withdrawals), a
// legend in the page's footer ("AMOUNTS FOLLOWED BY - ARE DEBITS") and a fee box of its overdraft
// programme's fees ("Privilege Pay"). No row had a date (the register was read as labels); then the
// footer, read as a debits heading, signed the next page's deposits as withdrawals; then the fee box's
// overdraft-programme total was checked against every fee.
describe('dates as "OCT02", a footer legend naming the debits, an overdraft-privilege fee box (blind-26)', () => {
  it('"OCT02" / "Sep7" / "SEPT30" are dates; a longer word, a day past 31 or none is not', () => {
    expect(numericDate('OCT02')).toEqual([10, 2, null]);
    expect(numericDate('Sep7')).toEqual([9, 7, null]);
    expect(numericDate('SEPT30')).toEqual([9, 30, null]);
    for (const w of ['JUNE2026', 'OCT45', 'OCT0', 'MARKET12', 'UNIT12', 'OCT123']) expect(numericDate(w), w).toBeNull();
  });
  const head: PageSpec[number] = [[40, 'POSTED', { b: true }], [110, 'DESCRIPTION OF ITEM', { b: true }], [560, 'AMOUNT', { b: true, r: true }], [690, 'NEW BALANCE', { b: true, r: true }]];
  const row = (d: string, desc: string, amt: string, bal: string): PageSpec[number] => [[40, d], [110, desc], [560, amt, { r: true }], [690, bal, { r: true }]];
  const make = (o: { legend?: string; odBox?: string; riBox?: string } = {}): PageSpec[] => [
    [
      'PRAIRIE LAKES COMMUNITY CREDIT UNION', 'STATEMENT PERIOD 10/01/26 THRU 10/31/26',
      'BUSINESS CHECKING SHARE 0090', head,
      row('OCT01', 'BEGINNING BALANCE', '', '900.00'),
      row('OCT02', 'ACH CREDIT HEARTLAND PMT SYS DEP', '1,250.00', '2,150.00'),
      row('OCT05', 'ACH DEBIT PAYCHEX EIB INVOICE', '2,400.00-', '250.00-'),
      row('OCT05', 'PRIVILEGE PAY CHARGE ACH PAYCHEX', '32.00-', '282.00-'),
      row('OCT06', 'ACH DEBIT ALLIANT ENERGY', '118.00-', '400.00-'),
      row('OCT06', 'RETURNED ITEM CHARGE ACH ALLIANT', '32.00-', '432.00-'),
      o.legend ?? 'Figures followed by a minus sign are withdrawals',
    ],
    [
      'BUSINESS CHECKING SHARE 0090 (CONTINUED)', head,
      row('OCT09', 'MOBILE DEPOSIT', '1,600.00', '1,168.00'),
      row('OCT14', 'ACH CREDIT HEARTLAND PMT SYS DEP', '980.00', '2,148.00'),
      row('OCT20', 'PRIVILEGE PAY CHARGE REFUND', '32.00', '2,180.00'),
      row('OCT31', 'ENDING BALANCE', '', '2,180.00'),
      'FEE TOTALS  THIS PERIOD  YEAR TO DATE',
      [[52, 'Total privilege pay charges'], [400, o.odBox ?? '$32.00', { r: true }], [520, '$96.00', { r: true }]],
      [[52, 'Total returned item charges'], [400, o.riBox ?? '$32.00', { r: true }], [520, '$64.00', { r: true }]],
    ],
  ];
  it('parsed and reconciled: the run-together dates are the rows\' own, the legend opens no section, the overdraft-programme fee is an overdraft fee', async () => {
    expect(figures(await read(make(), { landscape: true }))).toMatchObject({ period_start: '2026-10-01', beginning_balance: 900, ending_balance: 2180, deposits_total: 3862, deposit_count: 4, nsf_count: 2, negative_days: 4 });
  });
  it('fee totals the fee rows do not make are still refused', async () => {
    failed(await read(make({ odBox: '$48.00' }), { landscape: true }), 'does_not_reconcile');
    failed(await read(make({ riBox: '$40.00' }), { landscape: true }), 'does_not_reconcile');
  });
});

// blind-26: a fintech's Daily Activity, each day's rows under a short heading ("Tue 09/02", no year)
// with a description and a signed amount and no table header, a "Closing balance for the day" line
// after them; every page after the first titled with the account ("<bank> | <business> | Checking
// x8810"). The headings were not taken for days (only a heading with its year was), and the title on
// page 2 set the first page's rows apart as another account's.
describe('short day headings without the year, the account named atop every later page (blind-26)', () => {
  const make = (o: { firstHeading?: string; dayEnd?: string; title?: (p: number) => string } = {}): PageSpec[] => {
    const title = o.title ?? (() => 'Tallgrass | Juniper Florals LLC | Checking x2231');
    return [
      [
        'Tallgrass', 'Statement period: October 1 - October 31, 2026',
        [[44, 'Opening balance'], [300, '$1,000.00', { r: true }]], [[44, 'Closing balance'], [300, '$1,540.00', { r: true }]],
        'Daily Activity',
        [[44, o.firstHeading ?? 'Mon 10/05', { b: true }]],
        [[56, 'SHOPIFY PAYOUTS 88120'], [520, '+$640.00', { r: true }]],
        [[56, 'Card x4410 SMITHERS OASIS'], [520, '-$210.00', { r: true }]],
        [[300, 'Closing balance for the day'], [520, o.dayEnd ?? '$1,430.00', { r: true }]],
      ],
      [
        title(2),
        [[44, 'Wed 10/07', { b: true }]],
        [[56, 'ETSY INC PAYOUT 5521'], [520, '+$300.00', { r: true }]],
        [[300, 'Closing balance for the day'], [520, '$1,730.00', { r: true }]],
      ],
      [
        title(3),
        [[44, 'Fri 10/16', { b: true }]],
        [[56, 'COMED UTILITY PMT 7731'], [520, '-$190.00', { r: true }]],
        [[300, 'Closing balance for the day'], [520, '$1,540.00', { r: true }]],
      ],
    ];
  };
  it('each row takes its day\'s date, each day\'s closing balance is a daily balance, one account: parsed and reconciled', async () => {
    expect(figures(await read(make()))).toMatchObject({ period_start: '2026-10-01', beginning_balance: 1000, ending_balance: 1540, deposits_total: 940, deposit_count: 2, average_daily_balance: 1518.39 });
  });
  it('a day\'s balance the rows do not reach is refused; a weekday that is not the date\'s heads no day', async () => {
    failed(await read(make({ dayEnd: '$1,440.00' })), 'does_not_reconcile');
    expect((await read(make({ firstHeading: 'Tue 10/05' }))).ok).toBe(false);
  });
  it('a title naming the account on one later page only is no running header (another account\'s rows stay apart)', async () => {
    expect((await read(make({ title: (p) => (p === 2 ? 'Tallgrass | Juniper Florals LLC | Checking x2231' : 'Tallgrass  -  page 3') }))).ok).toBe(false);
  });
});

// blind-34: activity grouped under ISO date headings with the weekday in parentheses ("2026-03-02
// (Monday)"), no table header, each row a description and one amount (debits in parentheses), each
// day closed by an "Ending ledger balance" line (negative in parentheses). The headings were not
// taken for days (a weekday in parentheses was no weekday) and the day's ending balances were read as
// closing balances of the statement.
describe('ISO day headings with the weekday in parentheses, each day\'s ending ledger balance (blind-34)', () => {
  const make = (o: { heading?: string; dayEnd?: string } = {}): PageSpec[] => [[
    'Wharfside Union Bank', [[44, 'Statement period 2026-03-01 to 2026-03-31']],
    [[44, 'Previous balance'], [300, '$1,000.00', { r: true }]],
    [[44, 'Deposits and other credits (2)'], [300, '$900.00', { r: true }]],
    [[44, 'Withdrawals and other debits (2)'], [300, '($2,100.00)', { r: true }]],
    [[44, 'New balance'], [300, '($200.00)', { r: true }]],
    'Account Activity',
    [[44, o.heading ?? '2026-03-02 (Monday)', { b: true }]],
    [[56, 'ACH CREDIT WORLDPAY DEPOSIT ID 7712'], [540, '$600.00', { r: true }]],
    [[56, 'ACH DEBIT HARBOR MARINA LEASE ID 5531'], [540, '($1,500.00)', { r: true }]],
    [[300, 'Ending ledger balance'], [540, o.dayEnd ?? '$100.00', { r: true }]],
    [[44, '2026-03-04 (Wednesday)', { b: true }]],
    [[56, 'MOBILE DEPOSIT REF 99120'], [540, '$300.00', { r: true }]],
    [[56, 'CHECK # 1042'], [540, '($600.00)', { r: true }]],
    [[300, 'Ending ledger balance'], [540, '($200.00)', { r: true }]],
  ]];
  it('each row takes its day\'s date, each day\'s ending ledger balance is its daily balance: parsed and reconciled', async () => {
    expect(figures(await read(make()))).toMatchObject({ period_start: '2026-03-01', beginning_balance: 1000, ending_balance: -200, deposits_total: 900, deposit_count: 2, negative_days: 28 });
  });
  it('a day\'s ending balance the rows do not reach is refused', async () => {
    failed(await read(make({ dayEnd: '($50.00)' })), 'does_not_reconcile');
  });
});

// blind-34: a fintech's summary as a grey table at the top right ("Starting balance / Deposits 2 /
// Withdrawals 1 / Ending balance"), each of its lines on the baseline of the title, the logo or the
// period printed at the left; a register with ISO dates, the counterparty over its memo, the money
// out as "-$1,234.56". Read line by line, the title ran into "Withdrawals" (a debits heading) and the
// period's date started the "Ending balance" line (a row): no opening or closing balance was read.
describe('a summary table at the top right beside the title and the period (blind-34)', () => {
  const make = (o: { ending?: string; deposits?: string } = {}): PageSpec[] => [[
    [[44, 'crestline', { b: true, size: 14 }], [340, 'Starting balance'], [560, '$1,000.00', { r: true }]],
    [[340, 'Deposits'], [470, '2'], [560, o.deposits ?? '$1,500.00', { r: true }]],
    [[44, 'Business Account Statement', { b: true }], [340, 'Withdrawals'], [470, '1'], [560, '-$400.00', { r: true }]],
    [[44, '2026-02-01 to 2026-02-28'], [340, 'Ending balance'], [560, o.ending ?? '$2,100.00', { r: true }]],
    [[44, 'Juniper Code Works LLC'], [340, 'Crestline Business Checking']],
    'Account activity',
    [[44, 'Date', { b: true }], [100, 'Counterparty / Memo', { b: true }], [360, 'Method', { b: true }], [460, 'Amount', { b: true, r: true }], [560, 'Balance', { b: true, r: true }]],
    [[44, '2026-02-03'], [100, 'Stripe', { b: true }], [360, 'ACH'], [460, '$1,000.00', { r: true }], [560, '$2,000.00', { r: true }]],
    [[100, 'Transfer - ACH credit 4078624349']],
    [[44, '2026-02-10'], [100, '8th Street Offices LLC', { b: true }], [360, 'ACH'], [460, '-$400.00', { r: true }], [560, '$1,600.00', { r: true }]],
    [[100, 'Rent - ACH debit 5797644506']],
    [[44, '2026-02-20'], [100, 'Stripe', { b: true }], [360, 'ACH'], [460, '$500.00', { r: true }], [560, '$2,100.00', { r: true }]],
    [[100, 'Transfer - ACH credit 4366642675']],
  ]];
  it('the table\'s lines are read as the summary, the text beside them apart: parsed and reconciled', async () => {
    expect(figures(await read(make()))).toMatchObject({ period_start: '2026-02-01', beginning_balance: 1000, ending_balance: 2100, deposits_total: 1500, deposit_count: 2 });
  });
  it('an ending balance or a deposits total the rows do not make is refused', async () => {
    failed(await read(make({ ending: '$2,200.00' })), 'does_not_reconcile');
    failed(await read(make({ deposits: '$1,600.00' })), 'does_not_reconcile');
  });
});

// blind-27: an online bank's summary printing the interest paid as a line of its own ("Beginning /
// Deposits and Credits (n) / Withdrawals and Debits (n) / Interest Paid / Ending"), beside an interest
// box (this period, year to date). The deposits line leaves the interest out; it was checked against
// every credit and the statement refused.
describe('interest earned printed apart from the deposits in the summary (blind-27)', () => {
  const make = (o: { deposits?: string; interest?: string } = {}): PageSpec[] => [[
    'Saltmarsh Business Bank', 'Statement Period 04/01/2026 - 04/30/2026',
    [[44, 'Opening Balance'], [300, '$2,000.00', { r: true }], [400, 'Interest earned year to date'], [560, '$14.90', { r: true }]],
    [[44, 'Total Deposits (2)'], [300, o.deposits ?? '$1,500.00', { r: true }], [400, 'Interest earned this period'], [560, o.interest ?? '$3.75', { r: true }]],
    [[44, 'Total Withdrawals (1)'], [300, '-$400.00', { r: true }]],
    [[44, 'Interest Earned'], [300, o.interest ?? '$3.75', { r: true }]],
    [[44, 'Closing Balance'], [300, '$3,103.75', { r: true }]],
    'Transactions',
    [[44, 'Date', { b: true }], [120, 'Description', { b: true }], [400, 'Debits', { b: true, r: true }], [480, 'Credits', { b: true, r: true }], [560, 'Balance', { b: true, r: true }]],
    [[44, '04/03/2026'], [120, 'ACH Credit - TOAST INC - DEP'], [480, '$1,100.00', { r: true }], [560, '$3,100.00', { r: true }]],
    [[44, '04/10/2026'], [120, 'ACH Debit - SYSCO - INVOICE'], [400, '-$400.00', { r: true }], [560, '$2,700.00', { r: true }]],
    [[44, '04/17/2026'], [120, 'Mobile check deposit'], [480, '$400.00', { r: true }], [560, '$3,100.00', { r: true }]],
    [[44, '04/30/2026'], [120, 'Interest credited'], [480, '$3.75', { r: true }], [560, '$3,103.75', { r: true }]],
  ]];
  it('the deposits line is the credits that are not interest, the interest line the interest: parsed and reconciled', async () => {
    expect(figures(await read(make()))).toMatchObject({ deposits_total: 1503.75, true_revenue: 1500, ending_balance: 3103.75 });
  });
  it('an interest line the interest rows do not make, or deposits the other credits do not, is refused', async () => {
    failed(await read(make({ interest: '$4.75' })), 'does_not_reconcile');
    failed(await read(make({ deposits: '$1,400.00' })), 'does_not_reconcile');
  });
});

describe('a breakdown "by type" set beside the summary: the box apart, its lines each side\'s breakdown (blind-30)', () => {
  // A fintech's summary with a "Credits and debits by type  In  Out" box to its right on the same
  // lines: a type's line ("ACH  1,500.00  1,500.00") sits on the summary's lines, and read across it
  // was an "ACH" total. The box is read apart: its columns must together be their sides.
  const make = (cardOut: string): PageSpec[] => [[
    'Quillfeather Business Account', 'Statement period Oct 1 - Oct 31, 2026',
    [[40, 'Opening balance'], [200, '$1,000.00', { r: true }], [320, 'Credits and debits by type'], [480, 'In', { r: true }], [560, 'Out', { r: true }]],
    [[320, 'ACH'], [480, '1,500.00', { r: true }], [560, '1,500.00', { r: true }]],
    [[40, 'Money in'], [200, '+$6,500.00', { r: true }], [320, 'Card'], [480, '0.00', { r: true }], [560, cardOut, { r: true }]],
    [[40, 'Money out'], [200, '-$1,900.00', { r: true }], [320, 'Wire'], [480, '5,000.00', { r: true }], [560, '0.00', { r: true }]],
    [[40, 'Closing balance'], [200, '$5,600.00', { r: true }]],
    [],
    [[40, 'Date', { b: true }], [100, 'Description', { b: true }], [430, 'Money out', { b: true, r: true }], [500, 'Money in', { b: true, r: true }], [572, 'Balance', { b: true, r: true }]],
    [[40, 'Oct 2'], [100, 'STRIPE TRANSFER 3371'], [500, '1,000.00', { r: true }], [572, '2,000.00', { r: true }]],
    [[40, 'Oct 5'], [100, 'CORVID ROBOTICS INVOICE PMT'], [500, '500.00', { r: true }], [572, '2,500.00', { r: true }]],
    [[40, 'Oct 6'], [100, 'WIRE IN NORTHWELL ANALYTICS INVOICE 2231'], [500, '5,000.00', { r: true }], [572, '7,500.00', { r: true }]],
    [[40, 'Oct 9'], [100, 'GUSTO NET 895496702'], [430, '1,500.00', { r: true }], [572, '6,000.00', { r: true }]],
    [[40, 'Oct 12'], [100, 'SLACK PURCHASE 8812'], [430, '400.00', { r: true }], [572, '5,600.00', { r: true }]],
  ]];
  it('the summary reads as a summary and the box as each side\'s breakdown: parsed', async () => {
    expect(figures(await read(make('400.00')))).toMatchObject({ deposits_total: 6500, deposit_count: 3, ending_balance: 5600 });
  });
  it('a column of the box that does not make its side fails', async () => {
    failed(await read(make('500.00')), 'does_not_reconcile');
  });
});

describe('a checks total against the check lines of a register without a check column, never the bank\'s fee naming a check (blind-30)', () => {
  // "CHECK 1041" lines in one register, and the bank's "PAID ITEM OVERDRAFT CHARGE ON CHECK 1042"
  // line for one of them: the "2 checks totaling" line below is the checks, not the charge with them.
  const make = (total: string): PageSpec[] => [[
    'Tidewater Savings Bank', 'Statement Period 10/01/2026 - 10/31/2026', [[50, 'Beginning Balance'], [300, '$1,000.00', { r: true }]], HEAD,
    AMT('10/02', 'CARD SETTLEMENT VISA', '5,000.00', '6,000.00'),
    AMT('10/05', 'CHECK 1041', '-400.00', '5,600.00'),
    AMT('10/06', 'CHECK 1042', '-300.00', '5,300.00'),
    AMT('10/07', 'PAID ITEM OVERDRAFT CHARGE ON CHECK 1042', '-35.00', '5,265.00'),
    [[50, 'Ending Balance'], [300, '$5,265.00', { r: true }]],
    [[50, `2 checks totaling ${total}`]],
  ]];
  it('the two check lines make the total: parsed', async () => {
    expect(figures(await read(make('700.00')))).toMatchObject({ deposits_total: 5000, ending_balance: 5265 });
  });
  it('a total the check lines do not make fails', async () => {
    failed(await read(make('710.00')), 'does_not_reconcile');
  });
});

describe('a price quoted in a notice ("$25.00 per wire") is a rate, never a total (blind-30)', () => {
  // A notice beside the address quoting the bank's price for a service: its words read like a fee
  // total ("... outgoing wire fee is"), the amount followed by "per wire" / "each" says it is a price.
  const make = (notice: string): PageSpec[] => [[
    'Koa Harbor Bank', 'Statement Period 10/01/2026 - 10/31/2026',
    [[50, 'MAKANI SURF SUPPLY LLC'], [330, 'PLEASE NOTE: FROM NOV 1 THE OUTGOING']],
    [[50, '88 ALA MOANA BLVD'], [330, notice]],
    [[50, 'Beginning Balance'], [300, '$1,000.00', { r: true }]], HEAD,
    AMT('10/02', 'CARD SETTLEMENT VISA', '5,000.00', '6,000.00'),
    AMT('10/05', 'ACH DEBIT HAWAIIAN ELEC', '-400.00', '5,600.00'),
    [[50, 'Ending Balance'], [300, '$5,600.00', { r: true }]],
  ]];
  it('"... WIRE FEE IS $25.00 PER WIRE." and "... $25.00 EACH." are passed over: parsed', async () => {
    expect(figures(await read(make('DOMESTIC WIRE FEE IS $25.00 PER WIRE.')))).toMatchObject({ deposits_total: 5000, ending_balance: 5600 });
    expect(figures(await read(make('DOMESTIC WIRE FEE IS $25.00 EACH.')))).toMatchObject({ deposits_total: 5000, ending_balance: 5600 });
  });
  it('the same words with no rate after the amount are a fee total the rows must make', async () => {
    failed(await read(make('DOMESTIC WIRE FEES $25.00')), 'does_not_reconcile');
  });
});

describe('"Previous statement: Sep 30, 2026" / "This statement: Oct 31, 2026" is the period (blind-30)', () => {
  // A header giving the last statement's date and this one's, no range: the period runs from the
  // day after the last statement to this one.
  const make = (head: string): PageSpec[] => [[
    [[50, 'Red Mesa Bank'], [380, 'Previous statement:  Sep 30, 2026']], [[380, head]], [[380, 'Days in statement period:  31']],
    [[50, 'Beginning balance'], [220, '1,000.00', { r: true }], [300, 'Low balance'], [420, '950.00', { r: true }]],
    [[50, 'Ending balance'], [220, '5,600.00', { r: true }], [300, 'Average balance'], [420, '3,000.00', { r: true }]],
    HEAD,
    AMT('10/02', 'CARD SETTLEMENT VISA', '5,000.00', '6,000.00'),
    AMT('10/05', 'ACH DEBIT NV ENERGY', '-400.00', '5,600.00'),
  ]];
  it('is read as Oct 1 - Oct 31, 2026: parsed', async () => {
    expect(figures(await read(make('This statement:  Oct 31, 2026')))).toMatchObject({ period_start: '2026-10-01', period_end: '2026-10-31', deposits_total: 5000, ending_balance: 5600 });
  });
});

// blind-29: an online account's register (a Wise Business-style "USD statement") has no date column:
// each transaction is a sentence with its signed amount and balance, its date on a grey line BELOW it
// ("30 October 2026 | Transaction: DIRECT_DEBIT-..."), newest first. Read as a label and a total per
// sentence, 3 rows of 88 were read and the statement was refused. Here another wording: a date with
// the month first and a dot between it and the channel, a sentence wrapped onto a second line.
describe('rows whose date is printed below the description, newest first', () => {
  const DH: PageSpec[number] = [[50, 'Description', { b: true }], [420, 'Amount', { b: true, r: true }], [540, 'Balance', { b: true, r: true }]];
  const ROW = (desc: string, amount: string, balance: string): PageSpec[number] => [[50, desc], [420, amount, { r: true }], [540, balance, { r: true }]];
  const make = (lastBal: string): PageSpec[] => [[
    'Larkspur Business Account', 'Statement period: Oct 1, 2026 - Oct 31, 2026',
    [[50, 'Beginning Balance'], [300, '$1,000.00', { r: true }]], [[50, 'Ending Balance'], [300, '$1,630.00', { r: true }]],
    DH,
    ROW('Card purchase at OFFICE DEPOT 1182', '-120.00', '1,630.00'),
    [[50, 'Oct 28, 2026 \u00b7 Card', { size: 7 }]],
    ROW('Card settlement from SQUARE INC for', '750.00', '1,750.00'),
    'sales of the week',
    [[50, 'Oct 15, 2026 \u00b7 ACH', { size: 7 }]],
    ROW('Utility payment to XCEL ENERGY', '-300.00', '1,000.00'),
    [[50, 'Oct 9, 2026 \u00b7 ACH', { size: 7 }]],
    ROW('Payout from SQUARE INC', '300.00', lastBal),
    [[50, 'Oct 3, 2026 \u00b7 ACH', { size: 7 }]],
  ]];
  it('each row takes the date below it (the daily balances prove it): parsed and reconciled', async () => {
    expect(figures(await read(make('1,300.00')))).toMatchObject({
      beginning_balance: 1000, ending_balance: 1630, deposits_total: 1050, deposit_count: 2, true_revenue: 1050,
      average_daily_balance: Math.round(((1000 * 2 + 1300 * 6 + 1000 * 6 + 1750 * 13 + 1630 * 4) / 31) * 100) / 100,
    });
  });
  it('a running balance that does not follow is still refused', async () => {
    failed(await read(make('1,310.00')), 'does_not_reconcile');
  });
});

// A register printed newest first: its transactions are handed on in the order they happened (what
// follows "after" another, a funder's pull after its funding, is read in that order).
describe('a newest-first register handed on oldest first', () => {
  const row = (d: number, description: string, cents: number, balance: number | null) => ({ md: [11, d, 2026] as [number, number, number], description, cents: Math.abs(cents), sign: (cents < 0 ? -1 : 1) as 1 | -1, marker: null, balance, section: 0 });
  const reading = (balances: boolean) => ({
    bankName: null, period: { start: '2026-11-01', end: '2026-11-30' }, opening: 10000, closing: 14000, closings: [], totals: [], daily: [],
    sections: [{ kind: 'mixed' as const, category: 'mixed', heading: '' }],
    rows: [row(20, 'ACH DEBIT PAYROLL', -1000, balances ? 14000 : null), row(12, 'STRIPE TRANSFER', 3000, balances ? 15000 : null), row(3, 'SQUARE INC DEPOSIT', 2000, balances ? 12000 : null)],
  });
  it('by its running balances, or without them by its dates going back', () => {
    for (const b of [true, false]) {
      const c = reconcile(reading(b));
      expect(c.ok && c.txns.map((t) => t.date)).toEqual(['2026-11-03', '2026-11-12', '2026-11-20']);
    }
  });
});

// A summary's ending balance and the register's own "Ending Balance" row disagreeing: the rows reach
// the register's, but a page's own ending balance (reached by the rows above it) is the only kind of
// earlier closing balance the reader may pass over. Two closing balances for one account: refused.
describe('a summary\'s ending balance against the register\'s Ending Balance row', () => {
  const make = (summaryEnding: string): PageSpec[] => [[
    'Quarry Hill Savings Bank', 'Statement Period 10/01/2026 - 10/31/2026',
    [[50, 'Opening Balance'], [300, '1,000.00', { r: true }]], [[50, 'Closing Balance'], [300, summaryEnding, { r: true }]],
    HEAD, AMT('10/02', 'DEPOSIT SQUARE', '500.00', '1,500.00'), AMT('10/20', 'DEPOSIT SQUARE', '500.00', '2,000.00'),
    [[50, 'Closing Balance'], [300, '2,000.00', { r: true }]],
  ]];
  it('the same: parsed; different: does_not_reconcile', async () => {
    expect(figures(await read(make('2,000.00')))).toMatchObject({ ending_balance: 2000 });
    failed(await read(make('2,100.00')), 'does_not_reconcile');
  });
});

// blind-32, a Symitar-style credit union: a "Balance Summary" box of Previous / New Balance (read as
// a daily-balance heading) right above the register. The register's header, a description and an
// amount column, opens the register; before, its rows were taken for daily balances.
describe('a register under a "Balance Summary" box of the previous and new balance', () => {
  const stmt = (fee: string): PageSpec[] => [[
    'Mesquite Valley Federal Credit Union', 'Statement Period 06/01/26 - 06/30/26',
    [[50, 'Balance Summary', { b: true }]],
    [[50, 'Account', { b: true }], [300, 'Previous Balance', { b: true, r: true }], [540, 'New Balance', { b: true, r: true }]],
    [[50, 'Business Share Draft ****4410'], [300, '1,000.00', { r: true }], [540, '2,371.00', { r: true }]],
    HEAD,
    [[50, '06-01'], [100, 'Previous Balance'], [540, '1,000.00', { r: true }]],
    AMT('06-03', 'Deposit ACH SQUARE INC', '1,500.00', '2,500.00'),
    [[110, 'Type: PAYOUT  Co: SQUARE INC']],
    AMT('06-10', 'Withdrawal ACH PECAN STREET PROP', '-100.00', '2,400.00'),
    [[110, 'Type: RENT  Co: PECAN STREET PROP']],
    AMT('06-12', 'Fee Courtesy Pay', '-29.00', '2,371.00'),
    [[110, 'Item: Withdrawal ACH PECAN STREET PROP']],
    [[50, '06-30'], [100, 'New Balance'], [540, '2,371.00', { r: true }]],
    [[50, 'Fees', { b: true }], [420, 'Total For This Period', { b: true, r: true }], [540, 'Total Year-to-Date', { b: true, r: true }]],
    [[60, 'Total Courtesy Pay Fees'], [420, fee, { r: true }], [540, '87.00', { r: true }]],
  ]];
  it('its rows are read as the account\'s transactions, and the fee total binds', async () => {
    expect(figures(await read(stmt('$29.00')))).toMatchObject({ beginning_balance: 1000, ending_balance: 2371, deposits_total: 1500, deposit_count: 1 });
    failed(await read(stmt('$58.00')), 'does_not_reconcile');
  });
});

// blind-45: a credit union's register flowing in two newspaper columns (the left column down the page,
// then the right one), each "Date | Transaction Description | Amount" with NO balance column, each row's
// reference wrapped under it: the rows of the two columns stand on baselines of their own. Read row
// by row across, a row's reference line was read beside the other column's next row (as a label with
// an amount): does_not_reconcile.
describe('a register in two newspaper columns without a balance column, rows on baselines of their own (blind-45)', () => {
  const R = 310;
  const head = (x: number): readonly Cell[] => [[x, 'Date', { b: true }], [x + 45, 'Transaction Description', { b: true }], [x + 255, 'Amount', { b: true, r: true }]];
  const row = (x: number, d: string, desc: string, amt: string): readonly Cell[] => [[x, d], [x + 45, desc], [x + 255, amt, { r: true }]];
  const ref = (x: number, r: string): readonly Cell[] => [[x + 45, r]];
  const make = (deposits: string): PageSpec[] => [[
    'Saguaro Test Credit Union', 'Statement Period Jun 01, 2026 to Jun 30, 2026',
    [[50, 'Previous Balance'], [180, 'Deposits (4)'], [310, 'Withdrawals (4)'], [440, 'New Balance']],
    [[120, '1,000.00', { r: true }], [250, deposits, { r: true }], [380, '-800.00', { r: true }], [510, '2,200.00', { r: true }]],
    [...head(40), ...head(R)],
    [...row(40, 'Jun 01', 'ACH Deposit TOAST INC DEP', '1,000.00'), ...row(R, 'Jun 15', 'ACH Withdrawal ACME SUPPLY', '-300.00')],
    [...ref(40, '883887406'), ...row(R, 'Jun 16', 'ACH Deposit DOORDASH PAYOUT', '250.00')],
    [...row(40, 'Jun 02', 'ACH Withdrawal XCEL ENERGY', '-200.00'), ...ref(R, '330988995')],
    [...ref(40, '271907565'), ...row(R, 'Jun 20', 'Visa Debit HOME DEPOT 4410', '-100.00')],
    [...row(40, 'Jun 05', 'Deposit Branch Main St', '500.00')],
    [...row(R, 'Jun 22', 'ACH Deposit TOAST INC DEP', '250.00')],
    [...row(40, 'Jun 08', 'Draft 1042', '-200.00')],
    'Continued on next page',
  ]];
  it('down the left column, then down the right: parsed and reconciled', async () => {
    expect(figures(await read(make('2,000.00')))).toMatchObject({ period_start: '2026-06-01', beginning_balance: 1000, ending_balance: 2200, deposits_total: 2000, deposit_count: 4 });
  });
  it('a printed total the rows do not make is still refused', async () => {
    failed(await read(make('2,100.00')), 'does_not_reconcile');
  });
  // No line holding both columns: the right column's rows half a line below the left's (lines built
  // 6.5 pt apart, each column's lines 13 pt apart). A row of the right column alone with a row of the
  // left column under it: read across, the right row's wrapped line ("FOODS ACH ...") came after the
  // next left row and was read as a heading (electronic debits), signing the deposits below it.
  const offset = (deposits: string): PageSpec[] => [[
    'Saguaro Test Credit Union', '', 'Statement Period Jun 01, 2026 to Jun 30, 2026', '',
    [[50, 'Previous Balance'], [180, 'Deposits (4)'], [310, 'Withdrawals (4)'], [440, 'New Balance']], '',
    [[120, '1,000.00', { r: true }], [250, deposits, { r: true }], [380, '-800.00', { r: true }], [510, '2,200.00', { r: true }]], '',
    [...head(40), ...head(R)], '',
    row(40, 'Jun 01', 'ACH Deposit TOAST INC DEP', '1,000.00'),
    row(R, 'Jun 15', 'ACH Withdrawal ACME SUPPLY', '-300.00'),
    ref(40, '883887406'),
    ref(R, 'PAYMENT 44120'),
    row(40, 'Jun 02', 'ACH Withdrawal XCEL ENERGY', '-200.00'),
    row(R, 'Jun 16', 'Courtesy Pay Fee ACH SHAMROCK', '-100.00'),
    row(40, 'Jun 05', 'Deposit Branch Main St', '500.00'),
    ref(R, 'FOODS ACH 538975302'),
    row(40, 'Jun 08', 'ACH Deposit DOORDASH PAYOUT', '250.00'),
    row(R, 'Jun 22', 'ACH Deposit TOAST INC DEP', '250.00'),
    '',
    row(R, 'Jun 23', 'Draft 1042', '-200.00'),
  ]];
  it('the columns\' rows half a line apart, no line holding both: down the left column, then down the right', async () => {
    const pdf = async (d: string) => analyzeStatementPdf(await statementPdf(offset(d), { lineGap: 6.5 }));
    expect(figures(await pdf('2,000.00'))).toMatchObject({ beginning_balance: 1000, ending_balance: 2200, deposits_total: 2000, deposit_count: 4, nsf_count: 1 });
    failed(await pdf('2,100.00'), 'does_not_reconcile');
  });
});

// blind-45: a day-grouped register (a day's heading, its rows under Deposits / Withdrawals / Balance,
// "Ending balance" closing the day) prints "n checks paid - see Checks Paid" under a day whose checks
// are in a register of their own. At the top of a page, before the next day's heading, that note was
// read as a Checks Paid heading: the page's deposits were signed as withdrawals (does_not_reconcile).
describe('a cross-reference to the checks register at the top of a day-grouped page is no heading (blind-45)', () => {
  const head: PageSpec[number] = [[60, 'Description', { b: true }], [400, 'Deposits', { b: true, r: true }], [480, 'Withdrawals', { b: true, r: true }], [560, 'Balance', { b: true, r: true }]];
  const make = (close: string): PageSpec[] => [
    [
      'Licking Test National Bank', 'March 1, 2026 - March 31, 2026',
      [[50, 'Balance last statement'], [300, '1,000.00', { r: true }]],
      [[50, '2 Deposits and other credits'], [300, '700.00', { r: true }]],
      [[50, '1 Checks paid'], [300, '100.00', { r: true }]],
      [[50, '2 Other withdrawals and debits'], [300, '250.00', { r: true }]],
      [[50, 'Balance this statement'], [300, close, { r: true }]],
      'Daily Activity', head,
      [[40, 'Monday, March 2', { b: true }]],
      [[60, 'PREAUTHORIZED CREDIT ELAVON MERCH SETTLE 5352'], [400, '500.00', { r: true }]],
      [[60, 'PREAUTHORIZED DEBIT AEP OHIO 4471'], [480, '150.00', { r: true }]],
    ],
    [
      'Daily Activity - continued', head,
      [[60, '1 check paid - see Checks Paid']],
      [[60, 'Ending balance'], [560, '1,250.00', { r: true }]],
      [[40, 'Tuesday, March 3', { b: true }]],
      [[60, 'MOBILE DEPOSIT 0639'], [400, '200.00', { r: true }]],
      [[60, 'POS DEBIT LOWES 1736'], [480, '100.00', { r: true }]],
      [[60, 'Ending balance'], [560, close, { r: true }]],
      'Checks Paid',
      [[50, 'Number', { b: true }], [110, 'Date', { b: true }], [200, 'Amount', { b: true, r: true }]],
      [[50, '6620'], [110, '03/02'], [200, '100.00', { r: true }]],
      [[50, 'Total checks paid'], [200, '100.00', { r: true }]],
    ],
  ];
  it('the note names the checks register and opens no section: the next day\'s deposits stay deposits', async () => {
    expect(figures(await read(make('1,350.00')))).toMatchObject({ period_start: '2026-03-01', beginning_balance: 1000, ending_balance: 1350, deposits_total: 700, deposit_count: 2 });
  });
  it('a day\'s balance the rows do not reach is still refused', async () => {
    failed(await read(make('1,340.00')), 'does_not_reconcile');
  });
});
