import { addDays } from './period';
import { money, sumOf, type Txn } from './reconcile';
import { classOf } from './rule-table';
import { abbreviatedName, beforeReceiver, billingEntry, companyCreditMemoFrom, legalNameStem, counterparty, creditDoubt, creditOfCounterparty, entryCreditFrom, nameWords, payeeWords, creditSettled, debitSettled, depositKind, funderRowsDisagree, looksLikeFunderDebit, looksLikeNsfFee, dealerSign, factorOf, mcaFunder, moneyBackFrom, notFunderOf, namesPayee, namesStore, paidForByWire, payeeText, paysCounterparty, storeWords, supplierCreditFrom, warrantyCreditFrom } from './rules';

// Doubt: the lines the figures depend on whose category no rule settles (a credit that reads like
// funding or an own-account transfer, money given back, an unknown funder's repeated debits).
/** An incoming wire (the channel funders and own-account moves use for large round sums). */
/**
 * Debits that recur by nature and are no funder's pull: transfers to the merchant's other accounts,
 * checks, card purchases and cash, payments the merchant pushes (bill pay, Zelle, Venmo).
 */
// (Not WITHDRAWAL: "Withdrawal to <originator>" is how some banks word every ACH debit, a funder's too.)
const OWN_OR_CHECK_WORDS = /\b(TRANSFER|XFER|TRF|TFR|SWEEP|CHECK|CHK|CHEQUE|POS|PURCHASE|CARD|CHECKCARD|ATM|CASH|BILL ?PAY|ZELLE|VENMO|PAYPAL)\b/i;
/**
 * A register's cross-reference note printed under a day's last entry and read into it ("1 check
 * paid - see Checks Paid", "see Checks Paid"): the day's checks are in another register, and the
 * note is no word of the entry's (blind-45: a funder's weekly pull read as a check by that note and
 * neither counted nor doubted).
 */
const XREF_NOTE = /\s*\b\d+\s+(checks?|items?|drafts?)\s+(paid|posted|cleared)\b.*$|\s*\bsee\s+(checks?|items?|drafts?)\b.*$/i;
/** An entry's own words: without a cross-reference note read into it. */
export const entryWordsOf = (d: string): string => d.replace(XREF_NOTE, '');
const OWN_OR_CHECK = { test: (d: string): boolean => OWN_OR_CHECK_WORDS.test(entryWordsOf(d)) };
/** A line naming an account of the merchant's (a mask or the account's kind after TO/FROM). */
const OWN_ACCOUNT = /\b(TO|FROM|FR)\b.{0,12}(\bX+\d{3,}\b|[*.\u2022]+\d{3,}\b|\b(SAVINGS|SAV|SV|CHECKING|CHK|DDA|MMA|RESERVE|TREASURY)\b)/i;
/**
 * A debit worded as an insurance premium ("PROGRESSIVE COMM INS PREM", "HARTFORD INSURANCE PREMIUM",
 * "INS PMT"): a policy's weekly or monthly installment, a fixed sum like an advance's pull but no
 * funder's (blind-35: a trucker's commercial auto premium, $2,400.00 every Monday). A line with the
 * funding trade's words is still read as a funder's (looksLikeFunderDebit), whatever else it says.
 */
const INSURANCE_PREMIUM = /\bINS(UR\w*)?\.?\s+(PREM(IUM)?S?|PMT|PYMT|PAYMENT)\b|\bINSURANCE\b/i;
/** A debit worded as a loan's payment ("ONDECK CAPITAL LOAN PMT", "IOU LOAN", "LN PMT"). */
const LOAN_WORDED = /\b(LOANS?|LN)\b/i;
/** A credit worded as a line of credit's draw ("ACH CREDIT FUNDBOX LINE DRAW", "... with reference DRAW 2231"). */
const LINE_DRAW = /\b(DRAW|DRAWDOWN|LOC|LINE\s+OF\s+CREDIT|CREDIT\s+LINE)\b/i;
const WIRE = /\b(WIRE|WT|FEDWIRE|FED ?WIRE|WIRE ?IN|INCOMING WIRE|BOOK TRANSFER|RTP|FEDNOW)\b/i;

// The patterns and word sets above and in rules.ts are built once, at module load; the knowledge
// table is compiled once too (rule-table.ts), again only when the operator's rows are set
// (STATEMENT_RULES_FILE at start, or setOperatorRules), and classOf keeps each description's answer.
// What the functions below build per call is the statement's own words: each debit's words are read
// once per statement (`debitWords`, shared by paidBack, givenBackByEntry and fromPaidCounterparty
// when categoryDoubt asks), not once per credit asking about them.

/** A statement's debit and its words, read once: name words (rules.ts `nameWords`), payee (`payeeWords`), store (`storeWords`), counterparty (`counterparty`). */
type DebitWords = { x: Txn; names: ReadonlySet<string>; payee: string[]; store: string[] | null; counterparty: string[] };
const debitWords = (txns: Txn[]): DebitWords[] =>
  txns
    .filter((t) => t.cents < 0)
    .map((x) => ({ x, names: new Set(nameWords(x.description)), payee: payeeWords(x.description), store: storeWords(x.description), counterparty: counterparty(x.description).split(' ') }));

/** A check's own words, which name no payee ("Check 5120", "CHK 1043", "SHARE DRAFT 211", "CHECK PAID 1043"). */
const CHECK_WORDS = new Set(['CHECK', 'CHECKS', 'CHK', 'CK', 'DRAFT', 'SHARE', 'PAID', 'CLEARED', 'CASHED', 'NO', 'NUM', 'NUMBER']);
/** A check the merchant deposits: deposit wording, then the check ("Deposit Check 1043 <payer>", "MOBILE DEPOSIT CHECK", "DEP CHK"). */
const DEPOSITED_CHECK = /\b(DEPOSIT|DEP)\b\W*(\w+\W+)?(CHECKS?|CHK)\b/;
/** The words a bank prints after a card purchase's merchant ("Card purchase x7310", "POS", "Checkcard"). */
const CARD_WORDS = new Set(['CARD', 'PURCHASE', 'POS', 'CHECKCARD', 'CRD']);
/** Whether a debit's counterparty is its payee's name and then a card purchase's words. */
/** Whether a debit is a card purchase ("CHECK CARD PURCHASE <store>", "<store> Card purchase x7310"). */
const cardPurchase = (d: DebitWords) => /\b(CARD|CHECKCARD|POS)\b/.test(d.x.description.toUpperCase());
const cardAfterName = (d: DebitWords) => d.payee.length >= 1 && d.payee.length < d.counterparty.length && d.counterparty.slice(d.payee.length).some((w) => CARD_WORDS.has(w));

/**
 * rules.ts `paysCounterparty`, asked only of the debits whose name words hold the credit's first
 * name word: every way it matches (the first word alone, two words in a row, a store's name, a cut
 * name) begins with that word among the debit's name words, so the others cannot match (the unit
 * test "a debit paysCounterparty matches holds the credit's first name word" keeps this true).
 */
const paysNamed = (name: string[]) => (d: DebitWords) => d.names.has(name[0]) && paysCounterparty(d.x.description, name);

/**
 * The one guard every supplier's credit settled as money given back passes (a credit memo, an RMA or
 * a return, a warranty credit, a "<name> CREDIT", a NACHA CREDIT entry): the debits of the period
 * that pay its counterparty (`pays`) paid it at least as much. A seller gives back at most what it
 * was paid; a credit from a counterparty not paid in the period, or larger than it was paid, stays
 * doubted.
 */
const paidAtLeast = (t: Txn, debits: DebitWords[], pays: (d: DebitWords) => boolean): boolean => {
  const paid = debits.filter(pays).reduce((a, d) => a - d.x.cents, 0);
  return paid > 0 && t.cents <= paid;
};

/**
 * The credits that are money given back by a counterparty the merchant paid in the same period:
 * worded as money back ("Credit Memo GRAYBAR ELECTRIC", "HENRY SCHEIN CREDIT MEMO", rules.ts
 * `moneyBackFrom`), naming a counterparty that debits of the period pay (rules.ts
 * `paysCounterparty`), and no more than those debits paid it (a supplier gives back at most what it
 * was paid); and a supplier's credit worded as its CREDIT ("MSC INDUSTRIAL CREDIT", "TYPE: CREDIT",
 * rules.ts `supplierCreditFrom`) from a payee the period's debits pay under the same name, no more
 * than they paid it. Not revenue. Any other money-back credit no row settles is still doubted.
 */
export function paidBack(txns: Txn[], debits: DebitWords[] = debitWords(txns)): Set<Txn> {
  const out = new Set<Txn>();
  for (const t of txns) {
    if (t.cents <= 0) continue;
    const doubt = creditDoubt(t.description);
    if (doubt === 'return') {
      const name = moneyBackFrom(t.description);
      if (name && paidAtLeast(t, debits, paysNamed(name))) out.add(t);
      continue;
    }
    // A supplier's WARRANTY CREDIT ("JOHNSTONE SUPPLY WARRANTY CREDIT") from a counterparty the
    // merchant pays in the period under the same name, no more than it was paid: parts it sold
    // credited back, money given back (blind-35: an HVAC contractor's supply house, bought from by
    // card all month). Any other warranty credit (a claim, labour, a payee not paid) stays doubted.
    if (doubt === 'debatable') {
      const name = warrantyCreditFrom(t.description);
      if (!name) continue;
      // The seller under its legal name ("TA OPERATING LLC WARRANTY CR") and its stores under the
      // name they trade as ("CHECK CARD PURCHASE TA TRUCK SERVICE", blind-39): a card purchase whose
      // payee begins with the name left without the entity's words (rules.ts legalNameStem) is the
      // same seller's. Card purchases only: a manufacturer's finance arm is paid by ACH, not by card.
      const stem = legalNameStem(name);
      const bought = (p: DebitWords) => !!stem && cardPurchase(p) && stem.every((w, i) => p.payee[i] === w) && p.payee.length > stem.length;
      // (Its stores under the name the card network prints short, "RUSH TRUCK CTR" for RUSH TRUCK
      // CENTERS: rules.ts abbreviatedName, card purchases only.)
      const abbreviated = (p: DebitWords) => cardPurchase(p) && abbreviatedName(name, p.payee);
      if (paidAtLeast(t, debits, (p) => namesPayee(name, p.payee) || namesStore(name, p.store) || bought(p) || abbreviated(p))) out.add(t);
      continue;
    }
    // A supplier's CREDIT ("MSC INDUSTRIAL CREDIT", "TYPE: CREDIT") from a counterparty the merchant
    // pays in the period under the same name, no more than it was paid: money given back, as a
    // credit memo is (blind-13/14/18: each such credit refused was a supplier's).
    if (doubt !== null || creditSettled(t.description)) continue;
    const name = supplierCreditFrom(t.description);
    if (name && paidAtLeast(t, debits, (p) => namesPayee(name, p.payee) || namesStore(name, p.store))) out.add(t);
  }
  for (const t of givenBackByEntry(txns, debits)) out.add(t);
  return out;
}

/**
 * Credits a company's ACH entry itself says are its credit to the merchant (blind-20), not revenue:
 * - (a company's CREDIT MEMO in its ACH entry, rules.ts `companyCreditMemoFrom`, is paidBack's bound
 *   alone: money back when the period paid that company at least as much, else doubted, whether the
 *   period paid it less or nothing; sfix19: settling one from a company paid nothing, under a tenth of
 *   the credits, while one from a company paid a little stayed doubted, was the less cautious way);
 * - a NACHA entry described CREDIT (rules.ts `entryCreditFrom`) from a company the merchant pays in
 *   the period under the same name, no more than it was paid (as paidBack's "<name> CREDIT").
 */
export function givenBackByEntry(txns: Txn[], debits: DebitWords[] = debitWords(txns)): Set<Txn> {
  const credits = txns.filter((t) => t.cents > 0);
  const out = new Set<Txn>();
  for (const t of credits) {
    if (creditSettled(t.description)) continue;
    // A company's own ACH CREDIT MEMO is paidBack's alone: money back when the period paid that company
    // at least as much; paid less, or paid nothing in the period, it stays doubted (a seller gives back
    // at most what it was paid, and a company the period did not pay is no more proven a seller than
    // one it paid a little: an older invoice's credit, a rebate or a customer's payment the line cannot tell).
    if (companyCreditMemoFrom(t.description)) continue;
    const name = entryCreditFrom(t.description);
    if (name && paidAtLeast(t, debits, (p) => namesPayee(name, p.payee))) out.add(t);
  }
  return out;
}

/**
 * The credits that come from a counterparty the merchant pays in the period and that no row
 * settles, and are not settled as money given back (`paidBack`): a card purchase returned, a debit
 * reversed, or a customer who is also a supplier; the line cannot say which, so they are doubted.
 * A counterparty is the same when one's words begin the other's ("GRAINGER" paid, "GRAINGER CR"
 * credited), with a word of 4 letters or more in common. `debits` and `givenBack`: the statement's
 * debitWords and paidBack, when the caller has them already.
 */
export function fromPaidCounterparty(txns: Txn[], debits: DebitWords[] = debitWords(txns), givenBack: ReadonlySet<Txn> = paidBack(txns, debits)): Set<Txn> {
  // A debit's counterparty, and, for a card purchase the bank prints as the merchant's name and then
  // the card's words ("Suburban Propane  Card purchase x7310"), the name without them (SUBURBAN
  // PROPANE, not SUBURBAN PROPANE CARD), so a credit from that vendor ("Suburban Propane  Overbill
  // credit - ACH ...") is seen as from a payee (blind-36: an online bank printing the channel after
  // the name hid the vendor's credit). Only the card's words: a name cut before other channel words
  // ("ZELLE Payment To", "ABC FITNESS RETURNED") is no payee's whole name.
  const paidTo = debits.flatMap((d) => [d.counterparty, ...(cardAfterName(d) ? [d.payee] : [])]).filter((w) => w[0]);
  // A paid check's counterparty is its instrument's words alone ("Check 5120": CHECK), its payee
  // unprinted: it names no one, so a check the merchant DEPOSITS ("Deposit Check 1043 <payer>") is
  // not from a payee for it, unless it carries a paid check's number (blind-52: any paid check made
  // a customer's deposited check a payee's credit). Any other credit worded CHECK ("CHECK 5121",
  // "CHECK CORRECTION 5121", a stop payment's credit) may be the merchant's own check come back: doubted.
  const checkOnly = (w: string[]) => w.every((x) => CHECK_WORDS.has(x));
  const paidCheckNumbers = new Set(debits.filter((d) => checkOnly(d.counterparty)).flatMap((d) => d.x.description.match(/\d+/g) ?? []).map(Number));
  const depositedCheck = (description: string) => DEPOSITED_CHECK.test(description.toUpperCase()) && !(description.match(/\d+/g) ?? []).some((n) => paidCheckNumbers.has(Number(n)));
  // A supplier's credit ("<name> CREDIT") and the card purchases or debits that pay it ("Debit Card Purchase <name> Card 5836").
  const paysName = (name: string[]) => debits.some((d) => namesPayee(name, d.payee)) || debits.some((d) => namesStore(name, d.store));
  const samePayee = (a: string[], b: string[]) => {
    const n = Math.min(a.length, b.length);
    return n > 0 && a.slice(0, n).join(' ') === b.slice(0, n).join(' ') && a.slice(0, n).some((w) => w.length >= 4);
  };
  const out = new Set<Txn>();
  for (const t of txns) {
    if (t.cents <= 0 || givenBack.has(t) || creditSettled(t.description)) continue;
    const cp = counterparty(t.description);
    const cpWords = cp.split(' ');
    if (cp && paidTo.some((w) => samePayee(w, cpWords) && !(checkOnly(w) && depositedCheck(t.description)))) out.add(t);
    const supplier = creditOfCounterparty(t.description) ?? supplierCreditFrom(t.description);
    if (supplier && paysName(supplier)) out.add(t);
  }
  return out;
}

/**
 * The debits that are a known funder's only debit of the period and are worded as a loan's payment
 * ("ONDECK CAPITAL LOAN PMT"), or follow the same funder's credit worded as a line of credit's draw
 * (blind-29: "Received money from FUNDBOX with reference DRAW 2231", then one "Direct debit payment to
 * FUNDBOX"): a term loan's installment or a line's repayment, or an advance's first pull (categoryDoubt).
 * Fundbox lends both ways; other truths count its recurring pulls as an advance's, so the row stays.
 */
/** A credit worded as a loan's or a line's funding ("PAYPAL - LOAN DISBURSE", "FUNDBOX with reference DRAW 2231"). */
const LOAN_FUNDED = /\b(LOANS?|LN|DISBURSE(MENT|D)?|DRAW|DRAWDOWN|LOC|LINE\s+OF\s+CREDIT|CREDIT\s+LINE)\b/i;
/**
 * A debit worded as paying a debt back ("FUNDBOX INC REPAYMENT", "REPAY"): a loan's or a line's
 * word. An advance's pulls are entered as debits or remittances; a funder's recurring pulls worded
 * REPAYMENT are still its position (only the funder's ONLY debit of the period is read here).
 */
const REPAID = /\bREPAY(MENT|MT|MNT|S|ING)?\b/i;
/**
 * Days between a funding and the funder's only debit after which that debit is no advance's pull:
 * an advance is pulled every business day or every week from a few days after its funding, so a
 * week and more without a pull and then a single one worded as a repayment is a loan's or a line's
 * installment (blind-43: a lender's "ADVANCE" credit, then one "REPAYMENT" two weeks later).
 */
const UNSCHEDULED_GAP = 8;
const gapDays = (a: string, b: string): number => (Date.parse(`${b}T00:00:00Z`) - Date.parse(`${a}T00:00:00Z`)) / 86_400_000;
/** A payment closing a debt ("PAYOFF", "FINAL PMT"): an advance's last pull as much as a loan's. */
const PAYOFF = /\b(PAY ?OFF|FINAL|BALANCE)\b/i;

/**
 * The debits that are a loan's or a line's payment, not an advance's pull, though a known funder
 * makes them: the funder's only debit of the period, when its credits in the period are all worded
 * as a loan's or a line's funding (a LOAN DISBURSE, a line's DRAW: what is paid back is that loan or
 * line), or, with no credit from it in the period, when the debit is worded as a loan's payment
 * (an advance is funded and then pulled daily or weekly; one LOAN PMT a month with no funding
 * beside it is a term loan's installment). A debit worded as a payoff or a final payment stays
 * doubted (an advance's last pull reads the same). Not an MCA position (figures.ts).
 */
export function loanInstallments(txns: Txn[]): Set<Txn> {
  const debits = new Map<string, Txn[]>();
  const credits = new Map<string, Txn[]>();
  for (const t of txns) {
    const f = mcaFunder(t.description);
    if (!f) continue;
    const m = t.cents < 0 ? debits : credits;
    append(m, f, t);
  }
  const out = new Set<Txn>();
  for (const [f, ds] of debits) {
    if (ds.length !== 1 || PAYOFF.test(ds[0].description)) continue;
    const cs = credits.get(f) ?? [];
    const d = ds[0];
    if (cs.length === 0 ? LOAN_WORDED.test(d.description) : cs.every((c) => c.date <= d.date && (LOAN_FUNDED.test(c.description) || (REPAID.test(d.description) && gapDays(c.date, d.date) >= UNSCHEDULED_GAP)))) out.add(d);
  }
  return out;
}

export function loanWordedSinglePulls(txns: Txn[]): Set<Txn> {
  const byFunder = new Map<string, Txn[]>();
  const drawnFrom = new Set<string>();
  for (const t of txns) {
    const f = mcaFunder(t.description);
    if (f && t.cents < 0) append(byFunder, f, t);
    if (f && t.cents > 0 && LINE_DRAW.test(t.description)) drawnFrom.add(f);
  }
  const out = new Set<Txn>();
  const settled = loanInstallments(txns);
  for (const [f, ds] of byFunder) if (ds.length === 1 && !settled.has(ds[0]) && (LOAN_WORDED.test(ds[0].description) || REPAID.test(ds[0].description) || drawnFrom.has(f))) out.add(ds[0]);
  return out;
}

/** A debit's payee: the counterparty whatever the bank's wording (rules.ts counterparty), else its letters. */
const payeeOf = (raw: string): string => {
  const d = entryWordsOf(raw);
  return counterparty(d) || d.toUpperCase().replace(/[^A-Z]+/g, ' ').trim();
};

/** The remittance schedule an advance's ACH entry names ("ALPINE FUNDING P WEEKLY", "... DAILY PMT"). */
const CADENCE = /\b(DAILY|DLY|WEEKLY|WKLY)\b/i;
/** What a funder-worded debit may pay besides an advance: a loan, a line, a lease, a policy, a payoff. */
const NOT_AN_ADVANCE = /\b(LOANS?|LN|NOTE|MORTGAGE|MTG|LOC|LINE|LEASE|LEASING|EQUIP\w*|TRUCK|VEHICLE|INS(UR\w*)?|PREM(IUM)?|RENT|PAY ?OFF|PAYOFF|FINAL|SBA)\b/i;
/**
 * A word that names the payee a funder of advances, whole or cut where an ACH company name ends (16
 * characters): FUNDING (FUNDIN, FUNDI, FUND, FDG, FNDG), FUNDERS, ADVANCE(S) (ADVANC, ADVAN), or
 * CAPITAL as a group's name (CAPITAL GRP / GROUP / PARTNERS). A bare CAPITAL (CAP, CAPI, ...),
 * FINANCIAL or FINANCE names vendors, payroll services and credit unions as often as funders
 * (review: "CAPITAL WASTE SERVICES", "FIRST FINANCIAL FCU"), so their pulls stay doubted unless the
 * entry says it remits an advance (FUNDER_WEAK with REMITTANCE).
 */
// (Not FUND: cut there or not, a FUND is as often a union's benefit fund, a franchise's ad or brand
// fund, a state's compensation fund, a mutual fund or a charity's, pulled weekly for the same sum;
// review rev-u. Its pulls stay doubted, unknownFunderPulls.)
const FUNDER_NAMED = /\b(FUNDING|FUNDIN|FUNDI|FDG|FNDG|FUNDERS?|ADVANCES?|ADVANC|ADVAN|CAPITAL (GRP|GROUP|PARTNERS))\b/i;
/** A payee word that names a funder only beside an advance's remittance words: a bare CAPITAL (and its cuts), ADV (also advertising). */
const FUNDER_WEAK = /\b(CAPITAL|CAPITA|CAPIT|CAPI|CAP|ADV)\b/i;
/** ADV only beside the trade's receivable words: advertising is remitted too ("YELP ADV REMIT WEEKLY", review rev-u). */
const ADV_ONLY = /\bADV\b/i;
const RECEIVABLE_WORD = /\b(RCVBLS?|RECEIVABLES?)\b/i;
/** MERCHANT (MERCHAN cut) after a name word ("TARHEEL MERCHANT"): a merchant funder's name; first, it is a processor's channel ("MERCHANT DEPOSIT", "MERCHANT BANKCARD"). */
// (Nor MERCHANT before a processor's words, "ABC MERCHANT SOLUTIONS", "... MERCHANT PROCESSING": a processor's fees or lease; review rev-u.)
const MERCHANT_NAME = /^\S+\s+(\S+\s+)?(MERCHANT|MERCHAN)\b(?!\s+(SOLUTIONS?|SOLS?|PROCESSING|PROC|PAYMENTS?|PMTS|SYSTEMS?|SYS|BANKCARD|CARD|TERMINALS?|EQUIP\w*|LEASING|LEASE|FEES?|DISCOUNT|DISC)\b)/i;
/**
 * The words an advance's remittance is entered under: RTR (the receivables the funder bought, "right
 * to receive"), RCVBL / RECEIVABLE(S), REMIT(TANCE). RTR is the trade's own and names a funder's
 * pull by itself (MCA_WORD); the receivable words are also a vendor's receivables department and
 * REMIT a tax's or a vendor's word, so they are only a schedule's witness (with the debits' dates)
 * or a bare CAPITAL's funder sign.
 */
const REMITTANCE = /\b(REMIT\w*|RTR|RCVBLS?|RECEIVABLES?)\b/i;
// Only RTR names a funder by itself, and not as the payee's first word ("RTR TRANSPORT": a company's
// initials). RECEIVABLE(S) / RCVBL is also a vendor's or an insurer's receivables department
// ("SYSCO RECEIVABLES", "REYES RECEIVABLES REMIT", "HARTFORD RECEIVABLES"), pulled weekly for one
// sum as often: a schedule's witness and a bare CAPITAL's funder sign only (review rev-u).
const MCA_WORD = /\bRTR\b/i;
/** Adds a value to its key's group and returns the group (one array per key, grown in place). */
function append<K, V>(groups: Map<K, V[]>, key: K, value: V): V[] {
  const group = groups.get(key);
  if (group) group.push(value);
  else groups.set(key, [value]);
  return group ?? groups.get(key)!;
}

/**
 * The words a split-withholding advance's pull is entered under: SPLIT or HOLDBACK, the share of the
 * day's sales the funder takes ("QUARRY LANE CAPITAL LLC SPLIT 11%", "CAN CAPITAL Merchant Split"),
 * so the sum differs every day. A remittance word of the trade (a bare CAPITAL's funder sign, as
 * REMITTANCE is), never a vendor's (a bill is not split off the merchant's sales).
 */
const SPLIT_WORD = /\b(SPLIT|HOLDBACK|HOLD\s+BACK)\b/i;
/** A split's words or a share of sales ("11%", "8.5 PCT"): what a percentage-of-sales pull may print. */
const SHARE_OF_SALES = new RegExp(`${SPLIT_WORD.source}|\\b\\d{1,2}(\\.\\d{1,2})?\\s?(%|PCT\\b|PERCENT\\b)`, 'i');
/** A vendor's, a staffing or payroll service's, a bank's or a credit union's words, or a fee (a processor's "MERCHANT SPLIT FEE", rev-v): no funder's pull. */
const NOT_A_FUNDER = /\b(SERVICES?|SVCS?|SVC|STAFFING|STAFF|PAYROLL|PAYRL|WAGES?|INVOICES?|INV|PICKUP|WASTE|DISPOSAL|SANITATION|SUPPLY|SUPPLIES|PARTS|AUTO|RENTALS?|FCU|CU|CREDIT UNION|BANK|BANCORP|SAVINGS|FEDERAL|TRUST|401K|RETIREMENT|PENSION|TAX|FEES?)\b/i;

/**
 * MERCHANT cut to MERCHA where the ACH company name's 16 characters end ("HALVORSEN MERCHA", a name of
 * 14 to 16 characters with it, after one or two name words): the same word as MERCHAN, cut one letter
 * sooner (blind-46: "ACH WITHDRAWAL HALVORSEN MERCHA WEEKLY", one sum every week, refused). Only at
 * the field's end: MERCHA elsewhere is no cut.
 */
const cutMerchant = (payee: string): boolean => {
  const w = payee.split(' ');
  const i = w.indexOf('MERCHA');
  const name = w.slice(0, i + 1).join(' ');
  return (i === 1 || i === 2) && name.length >= 14 && name.length <= 16;
};

/** Whether a debit's words name its payee a funder of advances (see unknownFunderPositions). */
export function namesFunder(description: string): boolean {
  const payee = payeeOf(description);
  if (cutMerchant(payee)) return true;
  // A bare CAPITAL or CAP, or RTR, that begins the payee's name names a place, a brand or initials
  // ("CAPITAL DISTRIBUTORS REMIT", "CAP CITY BEVERAGE REMIT", "CAPITAL ONE REMIT", "RTR TRANSPORT"), no funder (review rev-u).
  const first = payee.split(' ')[0] ?? '';
  const rest = description.toUpperCase().replace(new RegExp(`\\b${first}\\b`), ' ');
  return FUNDER_NAMED.test(description) || MERCHANT_NAME.test(payee) || MCA_WORD.test(rest) || (FUNDER_WEAK.test(rest) && (REMITTANCE.test(description) || SPLIT_WORD.test(description)) && (!ADV_ONLY.test(rest) || /\b(CAPITAL|CAPITA|CAPIT|CAPI|CAP)\b/i.test(rest) || RECEIVABLE_WORD.test(description)));
}

/**
 * Whether debits fall on an advance's schedule by their dates: every business day (each gap 1 to 4
 * days, weekends and holidays between) or every week (each gap 6 to 8 days), three or more of them.
 */
export function onSchedule(dates: string[]): boolean {
  const at = [...dates].sort().map((d) => Date.parse(`${d}T00:00:00Z`) / 86_400_000);
  if (at.length < 3) return false;
  const gaps = at.slice(1).map((x, i) => x - at[i]);
  return gaps.every((g) => g >= 1 && g <= 4) || gaps.every((g) => g >= 6 && g <= 8);
}

/**
 * The debits that are an advance's payments to a funder no row knows, and the payee that names the
 * position: debits to one payee (the first two words of its name) each naming the payee a funder
 * (`namesFunder`: FUNDER_NAMED whole or cut at 16 characters, "HARBORLINE FUNDI", "PACIFIC TIDE
 * FDG"; MERCHANT after a name, "TARHEEL MERCHANT", not before a processor's words; the trade's RTR,
 * not beginning the name; a bare CAPITAL only with a remittance word and not beginning the name,
 * "OAKLINE CAPITAL WEEKLY REMIT"; never FUND nor RECEIVABLES alone, review rev-u), three or more of them of one amount, on the
 * advance's schedule: every debit names it (DAILY, WEEKLY), or every debit is entered as a
 * remittance (REMIT, RTR, RCVBL) and the debits of that amount fall every business day or every week
 * (`onSchedule`: "BLUE HARBOR ADVANCE RTR REMIT" each weekday); no debit to that payee worded as a
 * loan's, a line's, a lease's, a policy's or a payoff, or as a vendor's, a payroll or staffing
 * service's, a bank's or a credit union's (NOT_A_FUNDER), no processor's, and no credit from it
 * worded as a loan's or a line's funding. The position is every such debit to the payee, of any
 * amount (a renewal changes the sum). A funder's fixed daily or weekly pull is what the table counts
 * as a position for every funder it knows, lender or not (OnDeck, Credibly), and every such debit in
 * every corpus's truth (over 3,000) is an advance's payment (blind-26's "NEWTEK MERCHANT WEEKLY
 * DEBIT" too); a payee without a funder's name or with a vendor's words (review: "CAPITAL WASTE
 * SERVICES WEEKLY PICKUP", "ADVANCE STAFFING WEEKLY INVOICE", "CAPITAL PAYROLL WEEKLY", "FIRST
 * FINANCIAL FCU WEEKLY", "KESTREL CAPITAL DAILY PMT"), without a schedule, or pulling different sums
 * stays doubted (`unknownFunderPulls`): a wrong position costs a broker money, a doubt only a
 * person's look. (blind-40: "ACH DEBIT ALPINE FUNDING P WEEKLY", $980.00 every week; blind-44:
 * six statements refused on such pulls, names cut at 16 characters or entered as RTR remittances.)
 */
export function unknownFunderPositions(txns: Txn[]): Map<Txn, string> {
  const byPayee = new Map<string, Txn[]>();
  const vetoed = new Set<string>();
  for (const t of txns) {
    const p = payeeKey(t.description);
    if (t.cents > 0) {
      if (LOAN_FUNDED.test(t.description)) vetoed.add(p);
      continue;
    }
    const c = classOf(t.description);
    // A payee the table knows is no funder (payroll or HSA funding, a lessor, a consumer lender, a
    // premium finance company: a not_funder row), asked before the funder words: none of its pulls is
    // an advance's, whatever its name says ("GUSTO FUNDING WEEKLY", "DLL FUNDING WEEKLY"). The key's
    // other debits too when the key is that payee's name; a key of the bank's own words ("DIRECT
    // WITHDRAWAL", "ACH CORP": every payee's line opens with them) is no payee's, and a payroll
    // pull under it vetoed an unknown funder's pulls beside it (review v).
    if (notFunderOf(t.description)) {
      if (classOf(p).not_funder) vetoed.add(p);
      continue;
    }
    if (c.mca_funder || c.nsf || c.nsf_reversal || c.refund || c.recovery || c.own_transfer || c.deposited_return) continue;
    // A factoring company (a factor row, asked of the payee's words: rules.ts `factorOf`) advances on
    // invoices, no MCA: its pulls are no position, still doubted.
    if (factorOf(t.description)) {
      vetoed.add(p);
      continue;
    }
    const named = namesFunder(t.description);
    if (!(named || looksLikeFunderDebit(t.description)) || OWN_OR_CHECK.test(t.description) || OWN_ACCOUNT.test(t.description)) continue;
    // A vendor's or a loan's words asked before the receiver's field: the merchant's own name there
    // ("INDN:HALLORAN AUTO REPAIR LLC") names no payee, and vetoed its funder's pulls (review revy).
    const own = beforeReceiver(t.description);
    if (NOT_AN_ADVANCE.test(own) || NOT_A_FUNDER.test(own) || c.processor || !named || !(CADENCE.test(t.description) || REMITTANCE.test(t.description) || SPLIT_WORD.test(t.description))) {
      vetoed.add(p);
      continue;
    }
    const list = byPayee.get(p);
    if (list) list.push(t);
    else byPayee.set(p, [t]);
  }
  const out = new Map<Txn, string>();
  for (const [p, ds] of byPayee) {
    if (vetoed.has(p)) continue;
    const same = new Map<number, Txn[]>();
    for (const d of ds) {
      const group = same.get(d.cents);
      if (group) group.push(d);
      else same.set(d.cents, [d]);
    }
    const most = [...same.values()].reduce((a, b) => (b.length > a.length ? b : a));
    // A split: every pull entered as the funder's SPLIT or HOLDBACK, a different sum each day (the
    // share of that day's sales), on the advance's schedule by their dates (`onSchedule`).
    const split = ds.every((d) => SPLIT_WORD.test(d.description)) && onSchedule(ds.map((d) => d.date));
    if (most.length < 3 && !split) continue;
    const scheduled = split || ds.every((d) => CADENCE.test(d.description)) || onSchedule(most.map((d) => d.date));
    if (scheduled) for (const d of ds) out.set(d, p);
  }
  for (const [t, p] of dailyPulls(txns)) if (!out.has(t)) out.set(t, p);
  return out;
}

/**
 * A US bank holiday: a day the Federal Reserve's ACH does not settle (New Year's Day, Martin Luther
 * King Jr. Day, Washington's Birthday, Memorial Day, Juneteenth, Independence Day, Labor Day, Columbus
 * Day, Veterans Day, Thanksgiving, Christmas; a Sunday's observed on the Monday after).
 */
export function bankHoliday(iso: string): boolean {
  const at = new Date(`${iso}T00:00:00Z`);
  const [y, m, d, wd] = [at.getUTCFullYear(), at.getUTCMonth() + 1, at.getUTCDate(), at.getUTCDay()];
  const fixed = (mm: number, dd: number) => m === mm && (d === dd || (wd === 1 && d === dd + 1));
  const monday = (mm: number, from: number, to: number) => m === mm && wd === 1 && d >= from && d <= to;
  return (
    fixed(1, 1) || monday(1, 15, 21) || monday(2, 15, 21) || monday(5, 25, 31) || (y >= 2022 && fixed(6, 19)) || fixed(7, 4) ||
    monday(9, 1, 7) || monday(10, 8, 14) || fixed(11, 11) || (m === 11 && wd === 4 && d >= 22 && d <= 28) || fixed(12, 25)
  );
}
const businessDay = (iso: string): boolean => {
  const wd = new Date(`${iso}T00:00:00Z`).getUTCDay();
  return wd >= 1 && wd <= 5 && !bankHoliday(iso);
};
/** Pulls of one sum on every business day of the span they cover, this many or more: an advance's daily schedule. */
const DAILY_PULLS = 8;
/**
 * A payee's words that name what else takes a fixed sum every business day (review revx): a state
 * lottery's sweep, a franchisor's royalty or ad (brand, marketing) fund, a fuel or fleet card's prefunding,
 * an armored car's cash logistics, a tax agency (IRS, EFTPS, a department of revenue, a comptroller),
 * a floor plan's curtailments or a factor, an investment or brokerage account's recurring buy, a card
 * bill's e-payment or autopay, the owner's draw, a support order or garnishment, a reserve or escrow,
 * a debt settlement program, a bank spelled as one word (KEYBANK, WEBBANK). A daily advance is no
 * such payee's; its pulls stay doubted (`unknownFunderPulls`), never a position by their dates alone.
 * (Not a bare FUND: a funder's FUNDING cut at 16 characters, blind-45's "MESA RIDGE FUND DAILY DEBIT".)
 */
const DAILY_NOT_AN_ADVANCE = /\b(LOTTERY|LOTTO|ROYALT\w*|FRANCHIS\w*|(AD|ADVERTISING|BRAND|MARKETING|MKTG)\s+FUNDS?|FUEL|FLEET|ARMORED|ARMOURED|BRINKS|LOOMIS|GARDA|IRS|USATAXPYMT|EFTPS|COMPTROLLER|DTF|DOR|FLOOR\w*|CURTAIL\w*|FACTOR\w*|INVEST\w*|BROKERAGE|SECURITIES|MONEYLINK|MONEYLINE|CRYPTO|BITCOIN|E-?PAY\w*|AUTO\s?PAY|OWNER|DRAW|SUPPORT|GARNISH\w*|LEVY|RESERVE|ESCROW|DEBT|PREFUND\w*|CONCENTRATION|CRD|\w+BANK|\w*BANC\w*)\b|\bDEP(T|ARTMENT)?\.?\s+(OF\s+)?REV(ENUE)?\b/i;
/**
 * A payee's own words (rules.ts `payeeText`, never the receiver's name an ACH line also prints) that
 * say it sells the merchant goods or a service it settles every business day: a distributor or
 * wholesaler (DIST, DISTRIBUTING, WHOLESALE, WHSE, JOBBER), what a distributor sells (FOODS,
 * PRODUCE, MEATS, SEAFOOD, DAIRY, BAKERY, BAKING, BEVERAGE, BOTTLING, BEER, WINE, SPIRITS, LIQUOR, TOBACCO,
 * CIGARS, CANDY, GROCERS, SNACKS), fuel (FUELS, PETROLEUM, OIL, PROPANE, DIESEL), a card processor's
 * words (PROCESSING, BANKCARD, BANCARD, DISCOUNT, INTERCHANGE), a PEO; and the trade's brands that
 * print no such word: fuel and fleet cards (COMDATA, WEX, FLEETCOR and its name since 2024, CORPAY,
 * FLEETONE, EFS, FUELMAN),
 * foodservice distributors (SYSCO, US FOODS, PFG, GFS, BEN E KEITH), convenience and tobacco
 * wholesalers (MCLANE, CORE-MARK, EBY-BROWN, HT HACKNEY), beer, wine and soft-drink distributors
 * (REYES, SOUTHERN GLAZER'S, BREAKTHRU, RNDC, COCA-COLA, PEPSI, FRITO-LAY, BIMBO, KEURIG, ANHEUSER).
 * WHOLESALE, BEVERAGE and PETROLEUM also as an ACH company name cuts them at 16 characters
 * ("SUNSHINE WHOLESA", "HALLORAN BEVERAG": review revy).
 * Such a payee takes a fixed sum every business day as a standing order, a daily settlement or a
 * payment plan on its account, no advance: its pulls are no position by their dates alone, and stay
 * doubted (`unknownFunderPulls`) unless a row settles them. (A payroll service, a processor the table
 * knows, a lessor: their rows already keep them out, any class.)
 */
const DAILY_TRADE_PAYEE = /\b(DIST|DISTR|DISTRIB\w*|DISTRIBUT\w*|DSTRBTN|WHOLESA\w*|WHSL\w*|WHLSL|WHSE|JOBBERS?|FOODS?|FOODSERVICE|PRODUCE|MEATS?|SEAFOODS?|POULTRY|DAIRY|DAIRIES|BAKERY|BAKERIES|BAKING|BAKERS?|BREAD|BEVERA\w*|BEV|BEVG|BOTTLING|BOTTLERS?|BEERS?|WINES?|SPIRITS|LIQUORS?|VINTNERS?|TOBACCO|CIGARS?|CIGARETTES?|CANDY|CONFECTION\w*|GROCERS?|GROCERY|SNACKS?|FUELS|PETROLE\w*|PETRO|OIL|OILS|PROPANE|DIESEL|PROCESSING|BANKCARD|BANCARD|DISCOUNT|INTERCHANGE|PEO|COMDATA|WEX|FLEETCOR|CORPAY|FLEETONE|EFS|FUELMAN|SYSCO|USFOODS|PFG|GFS|BEN\s+E\s+KEITH|MCLANE|CORE[\s-]?MARK|EBY[\s-]?BROWN|HACKNEY|REYES|GLAZER\W?S?|BREAKTHRU|RNDC|COCA[\s-]?COLA|PEPSI\w*|FRITO[\s-]?LAY|BIMBO|KEURIG|ANHEUSER\w*)\b/;
/** A credit returning a payee's debit ("ACH RETURN <payee> R01 INSUFF FUNDS"): a day its funder may skip. */
const RETURNED = /\b(RETURN(ED)?|RTN|R0\d|NSF|INSUFF\w*|REVERS\w*)\b/i;

/**
 * The debits that are an advance's daily pulls whatever their payee's name: one sum ($50 or more) to
 * one payee on every business day of the span they cover (weekends and bank holidays aside, and as
 * many more days as that payee's pulls were returned: a funder may skip the day after a return),
 * eight or more of them, and no debit to that payee known otherwise (a row of any class, a loan's,
 * a line's, a lease's, a policy's, rent, a payoff; a vendor's, payroll's, tax's, a bank's or a credit
 * union's words; a transfer, a check, a card purchase; an insurance premium) nor a credit from it
 * worded as a loan's or a line's funding, and the same sum debited to no other payee before or after
 * those pulls (a funder renamed or another advance after it: one position or two, doubted). An underwriter reads a fixed sum taken every business day
 * as an advance's (or a daily-pay loan's, which stacks the same): no vendor, payroll, lease or tax
 * is billed every business day for one sum. Every such group in every corpus's truth is an advance's
 * (blind-46: "BLUESTEM RIDGE A DAILY", ADVANCE cut to its first letter; "NORTHGATE REVENU ... DAILY
 * REMIT", each weekday of a month, refused). Weekly pulls of one sum stay doubted without a funder's
 * name (`unknownFunderPositions`): payroll, vendors, leases and royalties are weekly too. The
 * position is every debit to the payee not known otherwise, of any sum (a renewal changes it).
 */
export function dailyPulls(txns: Txn[]): Map<Txn, string> {
  const byPayee = new Map<string, Txn[]>();
  const vetoed = new Set<string>();
  const returned = new Map<string, number>();
  for (const t of txns) {
    const p = payeeKey(t.description);
    if (t.cents > 0) {
      if (LOAN_FUNDED.test(t.description)) vetoed.add(p);
      if (RETURNED.test(t.description)) for (const q of byPayee.keys()) if (creditNames(` ${t.description.toUpperCase().replace(/[^A-Z]+/g, ' ').trim()} `, q)) returned.set(q, (returned.get(q) ?? 0) + 1);
      continue;
    }
    const c = classOf(t.description);
    if (c.nsf || c.nsf_reversal || c.deposited_return || looksLikeNsfFee(t.description)) continue;
    // Known otherwise: a row of any class, a not_funder row's payee (payroll, a lessor, a lender) among them.
    // (The not_funder row asked of the payee's words only, as notFunderOf does: a merchant named GUSTO TRATTORIA pulls nothing for payroll.)
    // (A factor row too: the merchant's own name on the line, "INDN:TRIUMPH FREIGHT LLC", names no factor.)
    const known = Object.entries(c).some(([k, v]) => v && k !== 'not_funder' && k !== 'factor') || notFunderOf(t.description) !== null || factorOf(t.description) !== null;
    if (known || NOT_AN_ADVANCE.test(t.description) || NOT_A_FUNDER.test(t.description) || DAILY_NOT_AN_ADVANCE.test(t.description) || DAILY_TRADE_PAYEE.test(payeeText(entryWordsOf(t.description))) || INSURANCE_PREMIUM.test(t.description) || OWN_OR_CHECK.test(t.description) || OWN_ACCOUNT.test(t.description)) {
      vetoed.add(p);
      continue;
    }
    append(byPayee, p, t);
  }
  // A known funder's pulls, first and last day: a funder whose pulls all end before these begin, or
  // begin after these end, may be these pulls' own funder renamed with a renewal's new sum (one
  // position, or a payoff and a new advance: two), and no rule can say which (review revx).
  const known = new Map<string, [string, string]>();
  for (const t of txns) {
    const f = t.cents < 0 ? mcaFunder(t.description) : null;
    if (!f) continue;
    const span = known.get(f);
    known.set(f, span ? [span[0] < t.date ? span[0] : t.date, span[1] > t.date ? span[1] : t.date] : [t.date, t.date]);
  }
  const out = new Map<Txn, string>();
  for (const [p, ds] of byPayee) {
    if (vetoed.has(p)) continue;
    const same = new Map<number, Set<string>>();
    for (const d of ds) if (d.cents <= -5_000) same.set(d.cents, (same.get(d.cents) ?? new Set()).add(d.date));
    const daily = [...same].some(([cents, dates]) => {
      const at = [...dates].sort();
      if (at.length < DAILY_PULLS || !at.every(businessDay)) return false;
      let missed = 0;
      for (let day = at[0]; day <= at[at.length - 1]; day = addDays(day, 1)) if (businessDay(day) && !dates.has(day)) missed++;
      // The same sum taken under another payee's name before or after these pulls: the same funder
      // renamed (a servicer's descriptor from one day on, blind-45: "HARBORSTONE CAP DAILY PMT" then
      // "HSC SERVICING HARBORSTONE ADV", $418 every business day) or another advance after it, and no
      // rule can say which (one position or two): doubted.
      const elsewhere = txns.some((x) => x.cents === cents && (x.date < at[0] || x.date > at[at.length - 1]) && payeeKey(x.description) !== p && !OWN_OR_CHECK.test(x.description));
      const handedOver = [...known.values()].some(([lo, hi]) => hi < at[0] || lo > at[at.length - 1]);
      return missed <= (returned.get(p) ?? 0) && !elsewhere && !handedOver;
    });
    if (daily) for (const d of ds) out.set(d, p);
  }
  return out;
}

/** A funder word whole or cut (FUNDING, FDG, CAPITAL, MERCHANT ...): the same funder names itself by any of them. */
const FUNDER_WORD = new RegExp(`^(?:${FUNDER_NAMED.source}|${FUNDER_WEAK.source}|\\b(MERCHANT|MERCHAN|MERCHA)\\b)$`, 'i');
/**
 * Whether a credit's letters (" ACH DEPOSIT PACIFIC TIDE FUNDING LLC ") name a position's payee
 * ("PACIFIC TIDE"): its two words in a row, or, when its second word is a funder word ("CEDARVALE
 * FDG"), its first word (5 letters or more) and then any funder word ("CEDARVALE FUNDING").
 */
function creditNames(words: string, payee: string): boolean {
  const name = payee.split(' ');
  if (name.length < 2 || !name.some((w) => w.length >= 4)) return false;
  if (words.includes(` ${payee} `)) return true;
  if (name[0].length < 5 || !FUNDER_WORD.test(name[1])) return false;
  const w = words.trim().split(' ');
  return w.some((x, i) => x === name[0] && i + 1 < w.length && FUNDER_WORD.test(w[i + 1]));
}

/** What a credit worded as funding may be besides an advance's or a loan's: a factor's, an escrow's or a title company's disbursement, a grant, a payroll service's, a claim, a customer paying an invoice, a draw, proceeds. */
const NOT_A_FUNDING = /\b(FACTOR\w*|ESCROW|TITLE|GRANTS?|PAYROLL|PAYRL|CLAIMS?|INVOICES?|INV|PAYMENTS?|PMT|PYMT|DRAW|DRAWDOWN|PROCEEDS|SETTLEMENT|REFUND\w*|RETURN\w*|REVERS\w*)\b/i;
/**
 * A credit that says it is an advance's funding: the payee named a funder (FUNDER_NAMED, whole or
 * cut, or MERCHANT after a name) and then, after that word, the entry's FUNDING or ADVANCE ("ACH
 * DEPOSIT OSPREY MERCHAN FUNDING ADVANCE", "Incoming Wire OSPREY FUNDING LLC ... Funding Advance"),
 * read as funding by the doubt words (rules.ts creditDoubt), with no word of another disbursement
 * (NOT_A_FUNDING) nor a vendor's, a payroll service's or a bank's (NOT_A_FUNDER). An advance's or a
 * loan's funding either way, never sales (every such credit in every corpus's truth, 22, is an
 * advance's funding): not revenue, and no position (no debit is read from it).
 */
export function fundingCredit(description: string): boolean {
  const d = description.toUpperCase();
  // (A payee known to be no funder, a not_funder row, funds no advance: its credit stays doubted.)
  if (creditDoubt(description) !== 'funding' || NOT_A_FUNDING.test(d) || NOT_A_FUNDER.test(d) || notFunderOf(description)) return false;
  const m = FUNDER_NAMED.exec(d) ?? /\b(MERCHANT|MERCHAN)\b/.exec(MERCHANT_NAME.test(payeeOf(d)) ? d : '');
  return !!m && /\b(FUNDING|ADVANCE)\b/.test(d.slice(m.index + m[0].length));
}

/** A payee by the first two words of its name, so its other lines (a loan's payment, a funding credit) are the same payee's whatever follows the name. */
const payeeKey = (d: string) => payeeOf(d).split(' ').slice(0, 2).join(' ');

/**
 * The credits that fund an advance no row knows (`unknownFunderPositions`): from the position's
 * payee (its two name words, in a row, anywhere in the credit: "Incoming Wire PACIFIC TIDE FUNDING
 * LLC ..." for the "PACIFIC TIDE FDG WEEKLY" pulls), five times its usual pull or more, with two or
 * more of its pulls on or after the credit's date, and not worded as money given back (a returned
 * pull credited back is a refund). A funder that then pulls on the advance's schedule funded it:
 * the advance's funding, not sales (blind-44: "ACH DEPOSIT SEACOAST MERCHAN FUNDING ADVANCE"
 * $45,000, then $415 every business day). Funding before the period's pulls begin or from another
 * name stays doubted.
 */
export function unknownFunderFundings(txns: Txn[], positions: Map<Txn, string> = unknownFunderPositions(txns)): Set<Txn> {
  const pulls = new Map<string, Txn[]>();
  for (const [t, p] of positions) append(pulls, p, t);
  const out = new Set<Txn>();
  if (!pulls.size) return out;
  // Every credit naming each payee (a pull given back aside): a payee that credits more than once in
  // the period is a customer or a processor paying (its payouts are 5x a weekly fee as easily), not
  // a funding, an event; those stay doubted or revenue as before (review rev-u).
  const from = new Map<string, number>();
  const found: Array<[Txn, string]> = [];
  for (const t of txns) {
    if (t.cents <= 0) continue;
    const c = classOf(t.description);
    if (c.refund || c.nsf || c.nsf_reversal || c.processor || c.own_transfer || creditDoubt(t.description) === 'return') continue;
    const words = ` ${t.description.toUpperCase().replace(/[^A-Z]+/g, ' ').trim()} `;
    for (const p of pulls.keys()) {
      if (!creditNames(words, p)) continue;
      from.set(p, (from.get(p) ?? 0) + 1);
      found.push([t, p]);
    }
  }
  for (const [t, p] of found) {
    if (from.get(p) !== 1) continue;
    const ds = pulls.get(p) ?? [];
    const usual = [...ds].sort((a, b) => a.cents - b.cents)[Math.floor(ds.length / 2)];
    if (t.cents >= 5 * -usual.cents && ds.filter((d) => d.date >= t.date).length >= 2) out.add(t);
  }
  return out;
}

/**
 * Debits no row settles that recur like the payments of an advance no funder row knows: four or more
 * of one amount ($50 or more) to one payee (not a transfer, a check, a card purchase, cash or a
 * payment the merchant pushes), or three or more of one amount to a payee with the funding trade's
 * words. A payee is the counterparty whatever the bank's wording (rules.ts `counterparty`). `debits`:
 * every debit of such a group (each is a position's payment or not, and no rule says which);
 * `triggers`: the debit that completes each group, in the order of the statement, with why.
 * (blind-26: "NEWTEK MERCHANT WEEKLY DEBIT", $412.00 every Monday, from a lender and processor no
 * funder row lists, was refused here until MERCHANT after a name was read as a funder's name,
 * sfix7: its truth counts it an advance's pulls. "KESTREL CAPITAL DAILY PMT", a bare CAPITAL with
 * no remittance word, stays here.)
 * And three or more debits of differing amounts to one payee with the funding trade's words (or a
 * funder's name without a vendor's words, or a share of sales: SPLIT, HOLDBACK, "11%") on an
 * advance's schedule by their dates
 * (`onSchedule`): a split advance takes a share of each day's sales, a different sum every day, so
 * no two of its pulls need be equal (blind-46: "QUARRY LANE CAPITAL LLC SPLIT 11%", 22 pulls of 22
 * sums, neither counted nor doubted, gave a parsed statement with one position and the withholding
 * of the other only).
 */
export function unknownFunderPulls(txns: Txn[]): { debits: Set<Txn>; triggers: Map<Txn, string> } {
  const funderLike = new Map<string, Txn[]>();
  const recurring = new Map<string, Txn[]>();
  const debits = new Set<Txn>();
  const triggers = new Map<Txn, string>();
  // An unknown funder's schedule-worded pulls are a position (unknownFunderPositions), not in doubt.
  const positions = unknownFunderPositions(txns);
  for (const t of txns) {
    if (t.cents >= 0 || positions.has(t)) continue;
    if (t.cents <= -5_000 && !debitSettled(t.description) && !OWN_OR_CHECK.test(t.description) && !OWN_ACCOUNT.test(t.description) && !INSURANCE_PREMIUM.test(t.description)) {
      const key = `${t.cents}|${payeeOf(t.description)}`;
      const same = append(recurring, key, t);
      if (same.length >= 4) {
        for (const x of same) debits.add(x);
        if (same.length === 4 && !triggers.has(t)) triggers.set(t, `${same.length} debits of ${money(-t.cents)} to one payee (the first on ${same[0].date}) recur like an advance's payments, and no rule knows the payee, so the MCA figures cannot be trusted`);
      }
    }
    if (looksLikeFunderDebit(t.description) && !OWN_OR_CHECK.test(t.description)) {
      const key = `${t.cents}|${payeeOf(t.description)}`;
      const same = append(funderLike, key, t);
      if (same.length >= 3) {
        for (const x of same) debits.add(x);
        if (same.length === 3 && !triggers.has(t)) triggers.set(t, `${same.length} debits of ${money(-t.cents)} (the first on ${same[0].date}) read like an advance's payments to a funder no rule knows, so the MCA figures cannot be trusted`);
      }
    }
  }
  // Pulls of differing sums (a split of sales) to a payee with a funder's words, on a schedule.
  const splitLike = new Map<string, Txn[]>();
  for (const t of txns) {
    if (t.cents >= 0 || positions.has(t) || debitSettled(t.description) || OWN_OR_CHECK.test(t.description) || OWN_ACCOUNT.test(t.description)) continue;
    // (A funder's name beside a vendor's words, "KESTREL MERCHANT SVCS", is a processor's or a vendor's bill of varying sums.)
    if (!(looksLikeFunderDebit(t.description) || (namesFunder(t.description) && !NOT_A_FUNDER.test(t.description)) || SHARE_OF_SALES.test(entryWordsOf(t.description)))) continue;
    const p = payeeOf(t.description);
    append(splitLike, p, t);
  }
  for (const ds of splitLike.values()) {
    // (One sum throughout: the groups above decide, by their count.)
    if (ds.length < 3 || new Set(ds.map((d) => d.cents)).size === 1 || !onSchedule(ds.map((d) => d.date))) continue;
    for (const x of ds) debits.add(x);
    if (!triggers.has(ds[2])) triggers.set(ds[2], `${ds.length} debits to one payee with a funder's words or a share of sales (the first on ${ds[0].date}) recur on an advance's schedule, in amounts that may differ every day as a split advance's do, and no rule knows the payee, so the MCA figures cannot be trusted`);
  }
  return { debits, triggers };
}

/**
 * A wire whose sender wrote what it buys (rules.ts `paidForByWire`: a model year, make and model
 * number or a VIN; a dedicated lane, a numbered load, linehaul), from a sender no debit of the period
 * pays: a customer's payment, however large (blind-47: a boat dealer's customer's wire for a named
 * boat, a shipper's for a trucker's dedicated lane). A sender the merchant also pays (its first name
 * word among a debit's name words: a floor plan lender's curtailments, the merchant's own account at
 * another bank) stays doubted.
 */
/**
 * A large one-off credit worded as a billing document's payment (rules.ts `billingEntry`: "PROGRESS
 * PMT 3", a pay application, retainage, an invoice number) from a counterparty that pays the merchant
 * otherwise in the period in words a row settles as a customer's payment ("<name> AP PAYMENT"): the
 * same customer paying one of its bills, as a general contractor pays its subcontractor's progress
 * billing beside its invoices (blind-54: a masonry subcontractor's progress payment refused as of no
 * known kind, the same contractor's AP payments beside it). The counterparty is the same when the
 * first two name words after the channel's are (rules.ts `counterparty`), the first of 4 letters or
 * more; the other credit must be a row's customer payment with no doubt of its own, never the
 * merchant's own money, a funder's or a processor's. Not from a counterparty the period's debits pay.
 */
function billedByItsCustomer(t: Txn, credits: Txn[], debits: DebitWords[]): boolean {
  if (!billingEntry(t.description)) return false;
  const name = counterparty(t.description).split(' ').slice(0, 2);
  if (name.length < 2 || name[0].length < 4 || debits.some((d) => d.names.has(name[0]))) return false;
  const same = (x: Txn) => counterparty(x.description).split(' ').slice(0, 2).join(' ') === name.join(' ');
  return credits.some((x) => x !== t && same(x) && !!classOf(x.description).revenue && creditDoubt(x.description) === null && !billingEntry(x.description));
}

function customerWire(t: Txn, debits: DebitWords[], txns: Txn[]): boolean {
  const w = paidForByWire(t.description);
  if (!w || debits.some((d) => d.names.has(w.sender))) return false;
  // A unit bought is a dealer's sale only where the period shows a dealer (a floor plan, another unit):
  // for any other merchant it may be its own truck or machine sold, no revenue (review: a trucker's
  // "2019 FREIGHTLINER CASCADIA" wire).
  return !w.unit || txns.some((x) => x !== t && dealerSign(x.description));
}

/**
 * A draw on a line of credit the count leaves aside: worded as the line's (LOC, LINE OF CREDIT,
 * CREDIT LINE), or a bare DRAW from a funder a row knows (Bluevine's, Fundbox's line). A bare
 * "LOAN DRAW" from a lender no row knows is not: a consumer-financing lender pays an installer by
 * milestone draws ("BRIGHTPATH SOLAR LOAN DRAW M2"), so it counts (review j).
 */
const LINE_WORDED = /\b(LOC|LINE\s+OF\s+CREDIT|CREDIT\s+LINE|LINE\s+(ADV\w*|DRAW))\b/i;
const lineDraw = (d: string) => LINE_WORDED.test(d) || (LINE_DRAW.test(d) && !!mcaFunder(d));
/** A loan payment of the business's own given back ("RETURNED LOAN PAYMENT", "LOAN PMT RETURN"): money back, no loan's proceeds, not counted (review j). */
const paymentReturned = (d: string) => /\b(RETURN\w*|RTN|REVERS\w*)\b/i.test(d) && /\b(PAYMENTS?|PMT|PYMT)\b/i.test(d);
/** How many credits settled as loan or advance proceeds a period may hold before they are doubted. */
export const MAX_LOAN_CREDITS = 2;
/**
 * Credits the statement would settle as loan or advance proceeds, not sales (rules.ts depositKind
 * 'loan': a loan, SBA or funder row, or a credit worded as an advance's funding, fundingCredit),
 * more than MAX_LOAN_CREDITS of them in one statement, a draw on a line of credit aside (lineDraw: drawn as often as the business needs), a loan payment given back (paymentReturned) and a known funder's funding (its mca_funder row: stacked advances) aside. A business
 * takes a loan or an advance once or twice in a period; loan-worded credits that RECUR are more
 * likely a lender paying the business for its customers' purchases (a consumer-financing program
 * paying an installer: "ACH Credit MOSAIC SOLAR Loan Funding Settlement", thirteen times in a
 * month, three quarters of the credits, blind-63 N01), which is sales. No statement of any corpus
 * holds more than two; every one that does is doubted, never a confident low true revenue. Returns
 * those credits (empty when there are too few to doubt).
 */
export function recurringLoanCredits(txns: Txn[], givenBack: ReadonlySet<Txn> = new Set()): Txn[] {
  // A funder the table knows (its mca_funder row) funds an advance: three in a period are stacked advances (the MCA trade's
  // commonest shape), never a consumer program paying for customers' purchases; the table settles them as funding.
  const loans = txns.filter((t) => t.cents > 0 && !givenBack.has(t) && !lineDraw(t.description) && !paymentReturned(t.description) && !classOf(t.description).mca_funder && (depositKind(t.description) === 'loan' || fundingCredit(t.description)));
  return loans.length > MAX_LOAN_CREDITS ? loans : [];
}

/**
 * A debit no rule names a funder of, while the same words with other spacing name one on another
 * debit of the period ("KALAMATACAPITAL DAILY" beside "KALAMATA CAPITAL DAILY": an OCR layer's words
 * read together, a composer's lost space): the same payee read two ways, one of them missed, so the
 * MCA figures may count only part of its pulls.
 */
export function spacingTwin(txns: Txn[]): Txn | null {
  const key = (d: string) => d.toUpperCase().replace(/[^A-Z]/g, '');
  const named = new Map<string, string>();
  for (const t of txns) {
    const f = t.cents < 0 ? mcaFunder(t.description) : null;
    if (f) named.set(key(t.description), f);
  }
  if (!named.size) return null;
  for (const t of txns) if (t.cents < 0 && !mcaFunder(t.description) && named.has(key(t.description))) return t;
  return null;
}

/**
 * Why a reconciled statement's category figures cannot be trusted, naming the line (by date and
 * amount, never its description), or null when every line they depend on is settled:
 * - a credit counted as revenue that reads like a loan or an advance's funding (the funding trade's
 *   words: FUNDING, FINANCIAL, CAPITAL GROUP, LENDING, ADVANCE...) or like a transfer from another
 *   account of the merchant's (an account mask or kind: x6652, ...1234, SAVINGS, TREASURY) or like
 *   the owner's own money put in (OWNER, SHAREHOLDER, CONTRIBUTION, INJECTION), and no
 *   processor row settles it; or like money given back (a return, reversal or refund), or comes
 *   from a counterparty the merchant pays in the period (a card purchase returned, a debit reversed);
 * - a credit no row settles at all (not a processor's payout, a deposit, a customer's payment, a
 *   refund, a transfer or funding), from a source that pays once in the period (a customer or a
 *   processor pays again; funding is an event), that is large: a tenth or more of the period's
 *   credits, or a round $5,000 or more by wire;
 * - a debit that reads like a returned-item, NSF or overdraft fee that no row counts;
 * - three or more debits of one amount to one counterparty with the funding trade's words that no
 *   funder row knows, or four or more of $50 or more to any payee no row knows (not a transfer, a
 *   check, a card purchase, cash or a payment the merchant pushes): an unknown advance's daily or
 *   weekly payments. A payee is the counterparty whatever the bank's wording (rules.ts
 *   `counterparty`: the NACHA "ORIG CO NAME:", else the words after "Withdrawal to", "ACH DEBIT"...);
 * - a known funder's only debit of the period worded as a LOAN payment: many funders also make term
 *   loans, and one loan payment in a period is a term loan's monthly installment (debt service, no
 *   position) or the first pull of a new advance, and the line cannot say which. Repeated loan-worded
 *   pulls (daily or weekly: "RAPID FINANCE LOAN PMT", "IOU LOAN", "SQ LOAN PMT") are a position as
 *   the table says (blind-18: one "ONDECK CAPITAL LOAN PMT" in July, a term loan's installment,
 *   was counted as a third position);
 * - a debit a funder row and a not_funder row both name (rules.ts `funderRowsDisagree`): the table
 *   says it is a position and that it is none;
 * - a debit naming no funder whose words, spaced otherwise, are a known funder's debit of the period
 *   (`spacingTwin`, checked first).
 */
export function categoryDoubt(txns: Txn[]): string | null {
  const twin = spacingTwin(txns);
  if (twin) return `The debit of ${money(-twin.cents)} on ${twin.date} reads as a known funder's payment on other lines of the statement but, as read here, names no funder, so the MCA figures cannot be trusted`;
  const credits = txns.filter((t) => t.cents > 0);
  const total = sumOf(credits);
  // A source that pays more than once in the period is a customer or a processor; funding is an event.
  const source = (d: string) => d.toUpperCase().split(/\s+/).filter((w) => !/\d/.test(w)).map((w) => w.replace(/[^A-Z&]/g, '')).filter(Boolean).join(' ');
  const times = new Map<string, number>();
  for (const t of credits) times.set(source(t.description), (times.get(source(t.description)) ?? 0) + 1);
  const debits = debitWords(txns);
  const givenBack = paidBack(txns, debits);
  const fromPaid = fromPaidCounterparty(txns, debits, givenBack);
  const loans = recurringLoanCredits(txns, givenBack);
  if (loans.length) return `${loans.length} credits (${money(sumOf(loans))}, ${Math.round((sumOf(loans) / total) * 100)}% of the credits) are worded as loan or advance proceeds; a business draws a loan or an advance once or twice in a period, so credits that recur so worded may be a lender paying it for its customers' purchases (sales), and no rule says which, so true revenue cannot be trusted`;
  // An unknown funder's funding, its pulls following on the advance's schedule: not sales, settled.
  const funded = unknownFunderFundings(txns);
  for (const t of credits) if (fundingCredit(t.description)) funded.add(t);
  for (const t of credits) {
    if (givenBack.has(t) || funded.has(t)) continue;
    const why = creditDoubt(t.description);
    if (why === 'funding') return `The credit of ${money(t.cents)} on ${t.date} reads like a loan or an advance's funding, not sales, and no rule says which, so true revenue cannot be trusted`;
    if (why === 'transfer') return `The credit of ${money(t.cents)} on ${t.date} reads like a transfer from another account of the merchant's, not sales, and no rule says which, so true revenue cannot be trusted`;
    if (why === 'owner') return `The credit of ${money(t.cents)} on ${t.date} reads like the owner's own money put into the business, not sales, and no rule says which, so true revenue cannot be trusted`;
    if (why === 'return') return `The credit of ${money(t.cents)} on ${t.date} reads like a return, reversal or refund, not sales, and no rule says which, so true revenue cannot be trusted`;
    if (why === 'debatable') return `The credit of ${money(t.cents)} on ${t.date} reads like a factoring advance, an insurance claim for a loss or a warranty credit, which the trade counts as sales for some businesses and not for others, and no rule says which, so true revenue cannot be trusted`;
    if (why === 'rebate') return `The credit of ${money(t.cents)} on ${t.date} reads like a rebate or incentive program's payment, which is money back to the buyer but pay to the contractor who installed, and no rule says which, so true revenue cannot be trusted`;
    // Money back from a counterparty the merchant pays (a card purchase returned, a debit reversed).
    if (fromPaid.has(t)) return `The credit of ${money(t.cents)} on ${t.date} comes from a counterparty the merchant pays in the period, so it may be a return of the merchant's own payment, not sales, and no rule says which, so true revenue cannot be trusted`;
    if (!creditSettled(t.description) && times.get(source(t.description)) === 1 && (t.cents * 10 >= total || (t.cents >= 500_000 && t.cents % 10_000 === 0 && WIRE.test(t.description))) && !customerWire(t, debits, txns) && !billedByItsCustomer(t, credits, debits)) {
      return `The credit of ${money(t.cents)} on ${t.date} (${Math.round((t.cents / total) * 100)}% of the credits) is of a kind no rule knows (not a card payout, a deposit or a customer's payment), so true revenue cannot be trusted`;
    }
  }
  for (const t of loanWordedSinglePulls(txns)) {
    return `The only debit of ${money(-t.cents)} on ${t.date} to a funder is worded as a loan payment or follows a line-of-credit draw from it: a loan's or a line's payment or an advance's first payment, and no rule says which, so the MCA figures cannot be trusted`;
  }
  const pulls = unknownFunderPulls(txns);
  for (const t of txns) {
    if (t.cents >= 0) continue;
    if (funderRowsDisagree(t.description)) return `The debit of ${money(-t.cents)} on ${t.date} is named by a funder's row and by a row of payees that are no funder, so whether it is an MCA position no rule says, and the MCA figures cannot be trusted`;
    const why = pulls.triggers.get(t);
    if (why) return why;
    if (!t.feeCounted && looksLikeNsfFee(t.description)) return `The debit of ${money(-t.cents)} on ${t.date} reads like a returned-item or overdraft fee that no rule counts, so the NSF count cannot be trusted`;
  }
  return null;
}
