import { describe, expect, it } from 'vitest';
import type { Col } from '../../src/features/statements/columns';
import type { Item } from '../../src/features/statements/extract';
import { linesOf } from '../../src/features/statements/lines';
import { rowOf } from '../../src/features/statements/rows';
import { creditSettled, depositKind } from '../../src/features/statements/rules';
import { headingOf, unspaced } from '../../src/features/statements/sections';
import { tokens } from '../../src/features/statements/tokens';
import { figures, R, readPdf } from '../support/statement-read';
import type { PageSpec } from '../support/statement-builder';

// blind-60 (sf60): the first batch of PostScript programs converted by Ghostscript (line-printer
// pages: every word shown alone, bold by double striking, a 132-column register with CR / DR
// suffixes and a sequence number after the balance, letter-spaced headings between rules of
// dashes) and of groff documents. The cases here are statements and lines of our own (other names,
// numbers and words than the fixtures'). Each test fails without its rule.

const page = (items: Item[]) => linesOf([{ width: 612, height: 792, items }]);

describe('1. bold by double striking: a word shown again over itself is one word', () => {
  // Courier 8 pt: 4.8 wide per character; the second strike 0.45 pt to the right.
  const word = (x: number, y: number, s: string): Item => ({ x, y, w: s.length * 4.8, h: 8, s });
  it('"SUMMARY" struck twice, each word of the heading apart, reads "ACCOUNT SUMMARY"', () => {
    const items = [word(40, 100, 'ACCOUNT'), word(40.45, 100, 'ACCOUNT'), word(78.4, 100, 'SUMMARY'), word(78.85, 100, 'SUMMARY')];
    expect(page(items).map((l) => l.text)).toEqual(['ACCOUNT SUMMARY']);
  });
  it('a composer that joins the second strike with the next word ("Fees" then "Fees Charged") still reads each word once', () => {
    const items = [word(40, 100, 'Fees'), { x: 40.45, y: 100, w: 12 * 4.8, h: 8, s: 'Fees Charged' }, word(64.45, 100, 'Charged')];
    expect(page(items).map((l) => l.text)).toEqual(['Fees Charged']);
  });
  it('near miss: the same word twice a word apart ("WALLA WALLA") is two words', () => {
    const items = [word(40, 100, 'WALLA'), word(68.8, 100, 'WALLA'), word(97.6, 100, 'DRUG')];
    expect(page(items)[0].text).toBe('WALLA WALLA DRUG');
  });
  it('near miss: another word over a word is not dropped', () => {
    const items = [word(40, 100, 'PAID'), word(40.45, 100, 'PAYS')];
    expect(page(items)[0].text).toContain('PAYS');
  });
});

describe('2. a heading set letter by letter between rules of dashes', () => {
  it('"- - -  R E T U R N E D  I T E M S  - - -" and "S E R V I C E  F E E S" are the headings they spell', () => {
    expect(unspaced('- - -  R E T U R N E D  I T E M S  - - -')).toBe('- - -  RETURNED  ITEMS  - - -');
    expect(headingOf('- - - -  C H E C K S  C L E A R E D  - - - -')?.kind).toBe('checks');
    expect(headingOf('- -  D A I L Y  L E D G E R  B A L A N C E S  - -')?.kind).toBe('daily');
  });
  it('near miss: initials and short words are left as they are ("A B C SUPPLY", "U S  BANK", "J & R")', () => {
    expect(unspaced('A B C SUPPLY  1,204.00')).toBe('A B C SUPPLY  1,204.00');
    expect(unspaced('U S  BANK')).toBe('U S  BANK');
    expect(unspaced('J & R TIRE')).toBe('J & R TIRE');
  });
});

describe('3. a sequence-number column after the balance', () => {
  const cols: Col[] = [
    { kind: 'date', x0: 40, x1: 60 },
    { kind: 'other', x0: 70, x1: 90 },
    { kind: 'desc', x0: 100, x1: 160 },
    { kind: 'amount', x0: 380, x1: 420 },
    { kind: 'balance', x0: 450, x1: 490 },
    { kind: 'other', x0: 510, x1: 525 },
  ];
  const tk = (cells: Array<[number, string]>) => tokens(cells.flatMap(([x, t], cell) => t.split(' ').map((s, k) => ({ x0: x + k * 30, x1: x + k * 30 + s.length * 4.8, t: s, cell }))));
  it('"12,410.00DR  3,118.52  88214": the amount and the balance, the item number kept in the description', () => {
    const row = rowOf(tk([[40, '06/04'], [72, '174'], [100, 'ACH DEBIT GUSTO'], [375, '2,410.00DR'], [445, '3,118.52'], [510, '88214']]), cols, 0, 'mixed');
    expect(row).not.toBeNull();
    if (!row || row === 'balance') throw new Error('no row');
    expect(row.row).toMatchObject({ cents: 241000, sign: -1, balance: 311852 });
    expect(row.row.description).toContain('88214');
  });
  it('near miss: without such a column a number ending the row is no reason to pass over it', () => {
    const row = rowOf(tk([[40, '06/04'], [72, '174'], [100, 'ACH DEBIT GUSTO'], [375, '2,410.00DR'], [445, '3,118.52'], [510, '88214']]), cols.slice(0, 5), 0, 'mixed');
    expect(row).toBeNull();
  });
});

describe('4. an old-core line-printer statement: one register, CR / DR suffixes, trailing minus, a checks list that repeats the register', () => {
  // A letter-spaced heading: each word its own cell between rules of dashes, as a line printer's columns give them.
  const spaced = (...words: string[]) => [[50, '- - - - -'], ...words.map((w, k) => [110 + k * 90, w.split('').join(' ')] as const), [110 + words.length * 90, '- - - - -']] as const;
  const register = (seqCol: boolean, checksHeading: readonly (readonly [number, string])[]): PageSpec => [
    [[50, 'CUMBERLAND RIVER BANK'], [330, 'ACCT 5512093'], [420, '05/01/26 THRU 05/31/26'], [540, 'PAGE 1 OF 1']],
    [[50, 'RIVERBEND TIRE & LUBE LLC']],
    [[50, 'BUSINESS CHECKING'], [250, 'ACCOUNT NUMBER'], [330, '5512093'], [420, 'STATEMENT DATE 05/31/26']],
    [[50, 'PREVIOUS BALANCE'], [150, '3 DEPOSITS/CREDITS'], [250, '2 CHECKS'], [330, '4 OTHER DEBITS'], [420, 'SERVICE CHARGE'], [510, 'ENDING BALANCE']],
    [R(110, '10,000.00'), R(210, '7,000.00'), R(290, '7,300.00-'), R(390, '6,262.00-'), R(470, '12.00'), R(560, '3,438.00')],
    spaced('ACCOUNT', 'ACTIVITY'),
    [[50, 'POST'], [85, 'TRAN'], [120, 'DESCRIPTION'], [380, 'AMOUNT'], [450, 'BALANCE'], ...(seqCol ? ([[520, 'SEQ']] as const) : [])],
    [[50, 'DATE'], [85, 'CODE']],
    [[50, '05/01'], [120, 'BALANCE FORWARD'], R(490, '10,000.00')],
    [[50, '05/04'], [85, '164'], [120, 'ACH DEPOSIT STRIPE TRANSFER 8812'], R(420, '2,500.00CR'), R(490, '12,500.00'), [520, '70011']],
    [[50, '05/05'], [85, '100'], [120, 'CHECK 4410'], R(420, '1,200.00DR'), R(490, '11,300.00'), [520, '70014']],
    [[50, '05/06'], [85, '174'], [120, 'ACH DEBIT GUSTO PAYROLL 5521'], R(420, '6,000.00DR'), R(490, '5,300.00'), [520, '70020']],
    [[50, '05/07'], [85, '100'], [120, 'CHECK 4411'], R(420, '6,100.00DR'), R(490, '800.00-'), [520, '70026']],
    [[50, '05/08'], [85, '118'], [120, 'OD ITEM FEE CHECK 4411'], R(420, '36.00DR'), R(490, '836.00-'), [520, '70031']],
    [[50, '05/12'], [85, '164'], [120, 'ACH DEPOSIT STRIPE TRANSFER 8813'], R(420, '3,000.00CR'), R(490, '2,164.00'), [520, '70035']],
    [[50, '05/20'], [85, '101'], [120, 'BRANCH DEPOSIT 5531'], R(420, '1,500.00CR'), R(490, '3,664.00'), [520, '70040']],
    [[50, '05/29'], [85, '174'], [120, 'ACH DEBIT COMCAST BUSINESS 7719'], R(420, '214.00DR'), R(490, '3,450.00'), [520, '70044']],
    [[50, '05/31'], [85, '118'], [120, 'SERVICE CHARGE'], R(420, '12.00DR'), R(490, '3,438.00'), [520, '70049']],
    [[50, '05/31'], [120, 'ENDING BALANCE'], R(490, '3,438.00')],
    [[120, '** TOTAL CREDITS (3)'], R(420, '7,000.00CR')],
    [[120, '** TOTAL DEBITS (6)'], R(420, '13,562.00DR')],
    checksHeading,
    [[50, 'CHECK NO'], [110, 'DATE'], [170, 'AMOUNT'], [250, 'CHECK NO'], [310, 'DATE'], [370, 'AMOUNT']],
    [[50, '4410'], [110, '05/05'], R(200, '1,200.00'), [250, '4411'], [310, '05/07'], R(400, '6,100.00')],
    [[50, '** 2 CHECKS TOTALING 7,300.00']],
    spaced('DAILY', 'BALANCES'),
    [[50, '05/04'], R(140, '12,500.00'), [160, '05/05'], R(250, '11,300.00'), [270, '05/06'], R(360, '5,300.00'), [380, '05/07'], R(470, '800.00-')],
    [[50, '05/08'], R(140, '836.00-'), [160, '05/12'], R(250, '2,164.00'), [270, '05/20'], R(360, '3,664.00'), [380, '05/29'], R(470, '3,450.00')],
    [[50, '05/31'], R(140, '3,438.00')],
  ];
  it('reads: the checks listed again are counted once, the fee for a check stays with the other debits beside a service charge the summary also shows apart', async () => {
    const f = figures(await readPdf([register(true, spaced('CHECKS', 'PAID'))]));
    expect(f).toMatchObject({ period_start: '2026-05-01', period_end: '2026-05-31', beginning_balance: 10000, ending_balance: 3438, deposits_total: 7000, deposit_count: 3, nsf_count: 1 });
  });
  it('near miss: the same register with no SEQ title over its numbers is refused, never read with them as amounts', async () => {
    const r = await readPdf([register(false, spaced('CHECKS', 'PAID'))]);
    expect(r.ok).toBe(false);
  });
});

describe('5. a company\'s corporate ACH credit worded PAYMENT is a customer\'s payment', () => {
  it('"<company> PAYMENT <id> CCD" and a facilities department\'s payment settle as sales', () => {
    expect(creditSettled('LAKESIDE SCHOOL DIST PAYMENT 0417733 CCD')).toBe(true);
    expect(creditSettled('COUNTY OF ERIE PMT CCD')).toBe(true);
    expect(creditSettled('MERCY HEALTH FACILITIES PAYMENT 55120')).toBe(true);
  });
  it('near misses: the same words without the corporate entry code, or with another code, stay unknown', () => {
    expect(creditSettled('HARBOR FREIGHT CO PAYMENT 0417733 PPD')).toBe(false);
    expect(creditSettled('HARBOR FREIGHT CO PAYMENT 0417733')).toBe(false);
    expect(creditSettled('CREDIT FACILITY DRAW 7781')).toBe(false);
  });
});

describe('6. "RETURN OF ACH <payee> R01": the merchant\'s debit returned, money given back', () => {
  it('a returned pull of a funder is a return, not the funder\'s funding', () => {
    expect(depositKind('RETURN OF ACH KEYSTONE FUNDING R01 5521')).toBe('refund');
    expect(depositKind('RETURN OF ACH GREENLINE CAP R09 88120')).toBe('refund');
  });
  it('near miss: the funder\'s own credit stays its funding', () => {
    expect(depositKind('KEYSTONE FUNDING ACH CREDIT 5521')).not.toBe('refund');
  });
});
