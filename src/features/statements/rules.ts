import { builtInUnless, classOf, RULE_CLASSES, type RuleClass, type RuleRow } from './rule-table';
import { ORGANISATION_STRICT as ORGANISATION } from './sender';

export { achCut, isTradeWord, loadStatementRulesFile, RULE_CLASSES, rowProblems, setOperatorRules, statementRules, validateRows } from './rule-table';
export type { RuleClass, RuleRow } from './rule-table';

// The questions the statement reader asks of a transaction's description (what a credit is, whether
// a debit is a funder's payment, an NSF fee, recovery activity, whether a credit's category is in
// doubt), answered from the trade's knowledge table (./rule-table.ts, ./knowledge.json) and a few
// patterns of how banks word these lines.

// ------------------------------------------------------------------------------------ questions

export type DepositKind = 'revenue' | 'transfer' | 'loan' | 'refund' | 'interest';

/**
 * The bank's own interest on the account ("Interest Earned", "Interest paid", "INT CREDIT", "Credit
 * Interest", a Type column's "Interest" before "Interest paid"): money the bank pays for the balance,
 * not a sale, so not revenue (blind-24). "INTEREST" alone is not enough (a customer named "Self
 * Interest LLC", "INTEREST INCOME FUND"): the word must say the interest is credited. A credit
 * union's dividend on a share IS its interest ("Deposit Dividend Annual Percentage Yield Earned 0.05%",
 * blind-29; "DIVIDEND DEPOSIT  APY EARNED 0.15%", blind-53: the yield earned is the account's own), said by
 * the same words at the start of the line; a "DIVIDEND PAYMENT VANGUARD" (a
 * stock's dividend, money from an investment) is not the account's interest and is left alone.
 * The dividend on the account's own share said by the account's kind ("SHARE DIVIDEND", "SHARE DRAFT
 * DIVIDEND", "SAVINGS DIVIDEND"), or the word alone with no payer ("DIVIDEND"), is the same (review
 * revD: such a credit was counted as sales on a parsed credit union statement). A register whose
 * type column and details both name it ("Dividend | Dividend Earned", blind-62's Calc-printed credit
 * union) reads "DIVIDEND DIVIDEND EARNED": the same dividend of the account; so does a type "Dividend
 * Deposit" before "Share Draft Dividend" (blind-62's Writer-printed credit union).
 */
const BANK_INTEREST = /^\s*(DIVIDENDS?\s+(DEPOSIT|CREDIT)\s+)?((REGULAR|PRIMARY|BUSINESS|MEMBER)\s+)?(SHARES?|SHARE\s+DRAFT|SAVINGS|SAV|CHECKING|CHK|DRAFT|MONEY\s+MARKET|CERTIFICATE)\s+DIVIDENDS?\b|^\s*DIVIDENDS?\s*$|^\s*(INTEREST\s+)?(INTEREST|INT)\s+(PAID|EARNED|CREDIT(ED)?|PAYMENT|PMT|DEPOSIT)\b|\bCREDIT\s+INTEREST\b|\bINTEREST\s+(EARNED|PAID)\b|^\s*(DEPOSIT\s+|DIVIDENDS?\s+)?DIVIDENDS?\s+(EARNED|PAID|CREDIT(ED)?|ANNUAL\s+PERCENTAGE\s+YIELD|APY)\b|\b(ANNUAL\s+PERCENTAGE\s+YIELD|APY)\s+EARNED\b/;

/** An account number printed masked ("XX1234", "\u2022\u20224411", "**2290", "...4411") and what follows it. */
const MASKED_THEN = /(?:\bX{2,}|\bX|\u2022+|\*{2,}|\.{2,})\d{3,}\b(.*)$/;
/** Words a bank prints after its own customer's masked account in a transfer: the transfer's and the account's words, and references. */
const AFTER_OWN_MASK = /^(TRANSFERS?|XFER|TRF|TFR|TRSF|TRNSFR|IN|FROM|FR|FRM|TO|ON|ONLINE|MOBILE|INTERNAL|ACCOUNTS?|ACCT|SAV\w*|CHECKING|CHKG?|CK|SHARES?|DDA|MMA|MMDA|MONEY|MARKET|TREASURY|RESERVE|OPERATING|SWEEP|OWN|TAX|SET|ASIDE|BETWEEN|WITHDRAWAL|REDEMPTION|REF|REFERENCE|CONF|CONFIRMATION|TRANSACTION|TRN|TRACE|ID|NO|NUMBER|DATE|BUSINESS|BANKING|INTERNET|BOOK|LINKED|CREDIT|CR|YOUR|\w*\d\w*)$/;
/** The kind of the merchant's account a transfer names (its savings, checking, money market, reserve, treasury, tax set-aside). */
const OWN_ACCOUNT_KIND = /\b(SAV\w*|CHECKING|CHKG?|MONEY\s+(MARKET|MKT)|MMA|MMDA|DDA|TREASURY|RESERVE|OPERATING|SHARES?|SWEEP|TAX|INTERNAL|OWN|OWNERS?|PERSONAL)\b/;
/**
 * A transfer from a masked account with a party's words after the number ("Transfer from XX1234 Baker
 * Dental invoice 1043", "Transfer from \u2022\u20229921 Lina Ortega"), no kind of account named: a bank masks every account
 * number it prints, a customer's or another party's too, so the mask alone does not make the money the
 * merchant's own (revG). Such a credit is not taken out of revenue by the mask; creditDoubt doubts it.
 */
export function strangerAfterMask(description: string): boolean {
  const d = description.toUpperCase();
  const m = MASKED_THEN.exec(d);
  // A line naming which of its accounts ("Transfer From Personal Checking ...2261 D MARQUEZ", the
  // owner's) is left to the rules that name it.
  if (!m || OWN_ACCOUNT_KIND.test(d)) return false;
  return m[1].split(/[^A-Z0-9]+/).filter(Boolean).some((w) => !AFTER_OWN_MASK.test(w));
}

/** The knowledge table's row of generic loan words, and the head of its consumer-financing programs' row's name. */
const GENERIC_LOAN_ROW = 'Loan proceeds';
const CONSUMER_FINANCING_ROW = 'Consumer financing programs';
/** Words that make a loan the business's own, never its customer's (depositKind). */
const OWN_LOAN_WORDS = /\b(BUSINESS|COMMERCIAL|TERM|WORKING\s+CAP\w*|CAPITAL|EQUIPMENT|EQUIP)\b/i;
/** What a credit is. */
export function depositKind(description: string): DepositKind {
  const c = classOf(description);
  if (c.nsf_reversal || c.refund || c.nsf) return 'refund';
  // A consumer-financing program's payout worded as its loan's funding ("GOODLEAP LLC Loan Funding
  // Settlement"): the customer's loan paying the merchant for the job, sales (blind-63 N01); only the
  // generic loan words, never a funder's or an SBA row.
  // Not when the credit calls itself the business's own loan ("AFFIRM BUSINESS LOAN FUNDING", a term
  // loan, working capital, equipment): that stays loan proceeds, doubted when it recurs (review j).
  if (c.loan && !c.mca_funder && c.loan.name === GENERIC_LOAN_ROW && c.processor?.name?.startsWith(CONSUMER_FINANCING_ROW) && !OWN_LOAN_WORDS.test(description)) return 'revenue';
  if (c.mca_funder || c.loan) return 'loan';
  if (c.processor) return 'revenue';
  if (!c.own_transfer && !c.revenue && BANK_INTEREST.test(description.toUpperCase())) return 'interest';
  // An own-account transfer's words outweigh a customer payment's ("TRANSFER FROM SAVINGS FOR PAYMENTS").
  if (c.own_transfer && !strangerAfterMask(description)) return 'transfer';
  return 'revenue';
}

// ------------------------------------------------------------------------------------ doubt

// What a reconciled statement's figures may still get wrong is a CATEGORY: a funder's wire counted
// as sales, a transfer from the merchant's own account counted as sales, a fee for a returned
// payment not counted as an NSF, an unknown funder's daily debits not counted as a position.
// Reconciliation cannot see any of these, so the reader asks, of each line the table does not
// settle, whether it LOOKS like one of them; analyze.ts refuses such a statement
// (`uncertain_categories`) rather than report a figure that may be wrong.

/** Words of the funding trade in a counterparty ("... CAPITAL GROUP", "... FINANCIAL SERVICES LLC", "... FUNDING"). */
const FUNDING_LOOK =
  /\b(FUNDING|FUNDERS?|FINANCIAL(?!\s+(AID|CENTER|CENTRE|CTR)\b)|(?<!(DEPT|DEPARTMENT|OFFICE|BUREAU) OF )FINANCE(?!\s+(DEPT|DEPARTMENT|OFFICE|DIV|DIVISION|BUREAU)\b)|FINANCING|FINL|LENDING|LENDERS?|LOANS?|ADVANCES?|FACTORING|FACTORS|CAPI|CAPITAL(?!\s+(ONE|CITY|AREA|REGION|DISTRICT|BLVD|AVE|AVENUE|ST|STREET|GRILLE?|CAFE|DINER|BREWING|BLUE|BLUECROSS|HEALTH|METRO)\b))\b/;
/** A transfer naming an account of the merchant's: an account mask, or the account's kind. */
const TRANSFER_LOOK = /\b(TRANSFER|XFER|TRSF|TFR|TRF|TRNSFR|SWEEP|FROM|FR|FRM)\b.*(\bX+\d{3,}\b|[*.\u2022]+\d{3,}\b|\b(SAVINGS|SAV|SV|CHECKING|CHK|CHKG|DDA|MMA|ACCOUNT|ACCT|RESERVE|TREASURY|OPERATING|VAULT|POCKET|ENVELOPES?|POCKETS|BUCKETS?|SUB-?ACCOUNTS?|SUBACCTS?)\b)/;
/**
 * A fintech account's sub-account (North One's envelopes, a pocket, a bucket, a sub-account: money
 * set aside inside the same account) named anywhere on a line that says it is a transfer, in either
 * order: "Truck Repair envelope  Transfer from envelope", "Rainy Day pocket  Transfer in". The
 * merchant's own money moved, never sales (blind-36: such a credit, no row knowing the envelope's
 * wording, was counted as sales and not doubted: the kind came before the transfer's words and no
 * account mask followed it).
 */
const SUB_ACCOUNT_TRANSFER = /^(?=.*\b(TRANSFER|XFER|TRSF|TFR|TRF|TRNSFR|MOVED?)\b)(?=.*\b(ENVELOPES?|POCKETS?|BUCKETS?|SUB-?ACCOUNTS?|SUBACCTS?)\b)/;
/**
 * The same with the account named first: "Kestrel Reserve ending 2290  Transfer in" (an online
 * bank's own sub-account, its kind and its last digits, then the transfer's words).
 */
const ACCOUNT_THEN_TRANSFER = /\b(SAVINGS|SAV|CHECKING|CHK|CHKG|DDA|MMA|ACCOUNT|ACCT|RESERVE|TREASURY|OPERATING|VAULT|POCKET)\b.{0,24}?(\bENDING( IN)?\s*\d{3,}\b|\bX+\d{3,}\b|[*.\u2022]+\d{3,}\b).*\b(TRANSFER|XFER|TRSF|TFR|TRF|TRNSFR|SWEEP)\b/;
/** A fee charged for a returned, unpaid or overdrawing item. */
const FEE_WORD = /\b(FEES?|CHARGES?|CHG|CHRG|SVC CHG)\b/;
const RETURN_WORD = /\b(RETURN(S|ED)?|RTN|RET|NSF|INSUFF\w*|OVERDRAFT|OVERDRAWN|OD|UNPAID|BOUNCED?|DISHONOU?RED|REJECTED|UNCOLLECTED|PAID ITEMS?|ITEMS? PAID)\b/;
/** The merchant's own debit card (a credit on it is a purchase returned, never a sale). */
const OWN_CARD = /\b(DEBIT|DBT|DB|CHECK|CHK)\s*(CARD|CRD)\b|\bCHECKCARD\b|\bPOS\b/;
/**
 * A supplier's credit for goods sent back under a return merchandise authorisation ("IVOCLAR VIVADENT
 * TYPE: RMA CREDIT", "RMA CR 88213", "RMA #4471 REFUND"): the seller gives the buyer back what it
 * paid, so the merchant receiving it is the buyer, never a sale (blind-37: a dental lab's supplier's
 * RMA credit, the supplier paid by card all month, was doubted as a credit from a payee). The RMA
 * words, not RMA alone (a company named RMA paying an invoice is a customer).
 */
const RMA = /\bRMA\s*(#\s*\d|NO\.?\s*\d|(CREDIT|CR|REFUND|RFND|RETURN)\b)/;
/**
 * A credit that gives money back: a return, reversal, refund or chargeback of something paid out; a
 * seller's credit memo or billing credit, cash back on purchases, a vendor's overbilling or overcharge credited back
 * (rebates and corrections are refund rows).
 */
const GIVEN_BACK = new RegExp(`\\b(RETURN(S|ED)?|RTN|RET|REVERS\\w*|REFUND\\w*|RFND|REIMB\\w*|CHARGEBACK|CHGBK|VOID(ED)?|CANCEL\\w*|CREDIT VOUCHER|ADJ(USTMENT)?|CREDIT MEMO|CR MEMO|MEMO CREDIT|BILL(ING)? CREDIT|CASH ?BACK|OVER ?BILL\\w*|OVER ?CHARG\\w*|OVERPAID|OVERPAYMENTS?|OVERPMT)\\b|${RMA.source}`);

/**
 * A rebate or incentive no row settles: a supplier's purchase rebate is a refund row, but a rebate or
 * incentive PROGRAM (a utility's energy-efficiency rebates) pays whoever it names, the owner who
 * bought the equipment (money back) or the contractor who installed it (part of the job's price):
 * the line cannot say which (blind-10: "DOMINION ENERGY REBATE PGM" paid to an HVAC contractor is
 * revenue; blind-8/9: a tire maker's and a home centre's rebates to their buyers are not).
 */
const REBATE_LOOK = /\b(REBATES?|INCENTIVES?)\b/;

/**
 * "PROCEEDS" alone says money from a sale or a loan, not which: "LOAN PROCEEDS", "NOTE PROCEEDS"
 * are loan rows; "MANHEIM AUCTION PROCEEDS" (a used-car dealer's sales), "CLAIM PROCEEDS" (a body
 * shop's insurer) or "AMEX SETTLEMENT PROCEEDS" (a processor's payout) are not loans. Such a credit
 * no row settles is doubted.
 */
const PROCEEDS_LOOK = /\bPROCEEDS\b/;
/**
 * The proceeds of a SALE OF THE MERCHANT'S GOODS: a sale barn or livestock market paying a rancher
 * for cattle ("ACH CREDIT SALINA LIVESTOCK PROCEEDS", blind-65), an elevator for grain, a mill for
 * timber, a produce house, an auction: the customer's price for what the merchant raised or made, sales.
 * The line names such goods or such a market (SALE_GOODS) and nothing of a loan, a line, a note, a
 * government program or loan (SBA, EIDL, CCC, FSA, USDA, Farm Credit), an insurer (crop insurance's
 * indemnity is no sale), a grant or relief, or an ASSET sold (equipment, machinery, land, a vehicle:
 * the business selling what it owns is no sales): generic "PROCEEDS" stays doubted. A market's name
 * cut at 16 characters cuts its goods word too ("RUSSELL LIVESTOC PROCEEDS", blind-65).
 */
const SALE_GOODS = /\b(LIVEST\w*|LVSTK|LIVESTK|CATTLE|CALF|CALVES|STEERS?|HEIFERS?|FEEDERS?|HOGS?|SWINE|PIGS?|SHEEP|LAMBS?|GOATS?|POULTRY|BROILERS?|EGGS?|MILK|GRAIN|CORN|WHEAT|SOYBEANS?|SOY|OATS|BARLEY|SORGHUM|MILO|RICE|HAY|COTTON|PEANUTS?|PECANS?|ALMONDS?|CROPS?|HARVEST|PRODUCE|FRUITS?|VEGETABLES?|TIMBER|LOGS|PULPWOOD|STUMPAGE|WOOL|TOBACCO|COMMOD\w*|AUCT\w*|SALE\s*BARN|SALES\s*BARN|STOCK\s*YARDS?|STOCKYARDS?|ELEVATORS?)\b/;
const NOT_A_SALE_PROCEEDS = /\b(LOANS?|LN|NOTES?|MORTGAGE|MTG|LINES?\s+OF\s+CREDIT|CREDIT\s+LINE|LOC|DRAWS?|DISB\w*|SBA|EIDL|PPP|CCC|CREDIT\s+CORP\w*|FARM\s+CREDIT|AG\s*CREDIT|FSA|USDA|FARM\s+SERVICE|INS|INSUR\w*|CLAIMS?|INDEMNITY|ASSURANCE|CASUALTY|GRANTS?|RELIEF|DISASTER|SUBSIDY|PROGRAM|PGM|SETTLE\w*|ESTATE|TRUST|TAX|EQUIP\w*|MACHINERY|TRACTORS?|VEHICLES?|TRUCKS?|LAND|PROPERTY|REAL\s+ESTATE|ASSETS?|REFUND\w*|RETURN\w*)\b/;
const saleProceeds = (d: string): boolean => SALE_GOODS.test(d) && !NOT_A_SALE_PROCEEDS.test(d);
/** A credit worded as the proceeds of a sale of the merchant's goods, no row saying otherwise. */
const saleProceedsCredit = (description: string): boolean => {
  const d = beforeReceiver(description);
  return PROCEEDS_LOOK.test(d) && saleProceeds(d) && depositKind(description) === 'revenue' && !FUNDING_LOOK.test(d) && !OWNER_LOOK.test(d);
};
/** A capital management company (a property or asset manager), and a payer's entry saying it pays a vendor (creditDoubt). */
const CAPITAL_MANAGER = /\bCAPITAL\s+(MGMT|MGT|MANAGEMENT)\b/;
const VENDOR_PAYMENT = /\b(VENDOR|SUPPLIER)\s+(PAYMENTS?|PAY|PMT|PYMT)\b|\bAP\s+(PAYMENT|PMT|PYMT)\b|\bACCOUNTS\s+PAYABLE\b/;

/**
 * The owner's own money put in, in words no row settles ("OWNER DEP J PRUITT", "SHAREHOLDER
 * ADVANCE", "CAPITAL INFUSION FROM MEMBER"): an owner's (shareholder's, member's, partner's)
 * contribution, injection or infusion of equity or personal funds is never sales, however it
 * arrives (cash at the teller, a check, a wire). A branch deposit's words do not settle it, since
 * the owner deposits his money the way customers' checks are deposited (blind-17: "DEPOSIT OWNER
 * CONTRIBUTION R GARZA", under a tenth of the credits and in no trade word, was counted as sales).
 * Not HOMEOWNER, nor an insurer's name such as AUTO-OWNERS.
 */
const OWNER_LOOK = /(?<![-\w])(OWNERS?|OWNER'S|SHAREHOLDERS?|STOCKHOLDERS?|CONTRIBUTIONS?|CONTRIB|INJECTION|INFUSION|PERSONAL FUNDS?|EQUITY INVESTMENT)\b/;

/**
 * Money given back by a named counterparty, in words that say so ("Credit Memo GRAYBAR ELECTRIC",
 * "HENRY SCHEIN CREDIT MEMO", "ACH returned: GUSTO"): settled as a refund (not revenue) only by the
 * statement it is on, when the merchant paid that counterparty at least as much in the period
 * (analyze.ts `paidBack`). Not a rebate (a program pays contractors too), not a reimbursement (an
 * insurer the merchant pays premiums to also pays claims), not an adjustment (a processor's batch
 * correction is sales), not a processor's line. A BILLING CREDIT is a supplier's credit against its
 * own bills (blind-42: "ACH SHIPBOB INC Billing credit" beside the fulfilment invoices it debits),
 * settled as money back only when the period's debits paid that supplier at least as much.
 */
const MONEY_BACK = new RegExp(`\\b(CREDIT MEMO|CR MEMO|MEMO CREDIT|CREDIT VOUCHER|BILL(ING)? CREDIT|RETURN(S|ED)?|RTN|REFUND\\w*|RFND|REVERS\\w*|VOID(ED)?|CANCEL\\w*)\\b|${RMA.source}`);
/** Words that name no counterparty: channel boilerplate (CR and DR: "ACH CR FLEETPRIDE CREDIT MEMO" beside "ACH DR FLEETPRIDE INVOICE", blind-38), money-back words (RMA: a return authorisation), company suffixes, field labels (TYPE). */
const NOT_A_NAME = new Set(['CORPORATE', 'RMA', 'TYPE', 'CORP', 'INC', 'LLC', 'LTD', 'COMPANY', 'CUSTOMER', 'MEMO', 'VOUCHER', 'CR', 'DR', 'CREDITED', 'RETURNS', 'VOID', 'VOIDED', 'AP', 'AR', 'VENDOR', 'PAY', 'PAYMENTS', 'PYMT', 'PYMNT', 'BANKING', 'INTERNET', 'MOBILE', 'BILL', 'BILLING', 'BILLPAY', 'REF', 'INVOICE', 'INV', 'ACCT', 'ACCOUNT', 'NO', 'NUMBER', 'DATE', 'SEC', 'IND', 'TRACE', 'EDI', 'WEB', 'TEL', 'CCD', 'PPD']);
/**
 * The words of a description that can name a counterparty, in order. A slash between two words of
 * letters parts them: some banks print an ACH line as "<company>/<entry>" ("ELECTRONIC DEPOSIT SYSCO
 * CONNECTICU/CREDIT MEMO", the debits "SYSCO CONNECTICU/INVOICE", blind-38), the company's name
 * ending at the slash; a slash between single letters ("B/O", "A/P") stays inside its word.
 */
export function nameWords(description: string): string[] {
  return description
    .toUpperCase()
    .split(/[\s:;,]+|(?<=[A-Z]{2})\/(?=[A-Z]{2})/)
    .filter((w) => !/\d/.test(w))
    .map((w) => w.replace(/[^A-Z&]/g, ''))
    .filter((w) => w.length > 1 && !CHANNEL.has(w) && !NOT_A_NAME.has(w) && !/^(REFUND|REVERS|CANCEL)/.test(w));
}

/**
 * Whether a credit says it is money given back by a named counterparty (MONEY_BACK words, no
 * processor, no rebate or reimbursement) and the counterparty it names, as name words; null otherwise.
 */
export function moneyBackFrom(description: string): string[] | null {
  const d = description.toUpperCase();
  if (!MONEY_BACK.test(d) || REBATE_LOOK.test(d) || /\bREIMB/.test(d) || classOf(description).processor) return null;
  const w = nameWords(description);
  return w.length ? w : null;
}

/** A card purchase's words. */
const CARD_LINE = /\b(POS|CARD|CHECKCARD|PURCHASE)\b/;
/**
 * Whether a debit pays the counterparty a money-back credit names: the credit's first two name words
 * are two consecutive name words of the debit ("GRAYBAR ELECTRIC"), or, when the credit names one
 * word only, it is the debit's first and has 5 letters or more ("GUSTO").
 */
export function paysCounterparty(debitDescription: string, creditName: string[]): boolean {
  const d = nameWords(debitDescription);
  if (creditName.length === 1) return creditName[0].length >= 5 && d[0] === creditName[0];
  // A card purchase names a chain's store by one word and its store number ("POS DEBIT FERGUSON
  // #2211 GREEN BAY WI"; the rest is where): the same counterparty as the company's credit memo
  // whose name begins with that word ("FERGUSON ENTERPRIS CR MEMO"), when the word has 5 letters
  // or more.
  // The store's number may print without its # ("POS PURCHASE SITEONE 0417 PEORIA IL TERM 360035",
  // a Jack Henry-style card line, blind-48: storeWords reads the name before it), on a card purchase.
  const store = /^(.*?)\s#\s?\d+\b/.exec(debitDescription.toUpperCase());
  const storeName = store ? nameWords(store[1]) : CARD_LINE.test(debitDescription.toUpperCase()) ? (storeWords(debitDescription) ?? []) : [];
  if (storeName.length === 1 && storeName[0].length >= 5 && storeName[0] === creditName[0]) return true;
  for (let i = 0; i + 1 < d.length; i++) if (d[i] === creditName[0] && d[i + 1] === creditName[1]) return true;
  // The credit's ACH company name cut at 16 characters ("JOHNSTONE SUPPL CREDIT MEMO", the card
  // purchases naming "JOHNSTONE SUPPLY" whole, blind-28): as `namesPayee` reads a cut name.
  for (let i = 0; i < d.length; i++) if (d[i] === creditName[0] && namesPayee(creditName, d.slice(i))) return true;
  return false;
}

/**
 * Credits the trade itself reads either way, whatever a row says, so doubted, never settled:
 * - a FACTORING company's ADVANCE (a fuel advance, a loan, a reserve released: `factoringSale`
 *   says which of its credits are its payment for the merchant's invoices, sales): brokers who count
 *   it as revenue (it replaces the customers' payments) or underwriters who count it as financing;
 * - an insurance CLAIM that names a loss or damage: the business's own loss reimbursed (not sales:
 *   "PROGRESSIVE COMMERCIAL CLAIM ... TRAILER DAMAGE", "INS CLAIM ... FREEZER LOSS") or an insurer
 *   paying a contractor for a customer's loss (sales: a roofer's "CLAIM PMT HAIL DAMAGE"); a plain
 *   insurer's claim payment without a loss named ("GEICO CLAIM PMT") stays a customer payment;
 * - a manufacturer's WARRANTY credit: parts credited back (money back) or the contractor's warranty
 *   labour paid (sales).
 * (blind-11: a factoring advance settled as a loan, and loss claims and a warranty credit settled
 * as sales, each gave a statement parsed with a wrong true revenue.)
 */
const FACTORING_LOOK = /\bFACTOR(ING|S|ED)?\b/;
const CLAIM_LOOK = /\b(CLAIMS?|CLM|INS|INSUR\w*|ASSURANCE|CASUALTY|CASU)\b/;
const LOSS_LOOK = /\b(THEFT|STOLEN|BURGLA\w*|BREAK IN|VANDAL\w*|LOSS|LOSSES|DAMAGED?|FIRE|FLOOD\w*|HAIL|STORM|WIND|SPOILAGE|COLLISION|ACCIDENT|INTERRUPTION)\b/;
const WARRANTY_LOOK = /\b(WARRANTY|WARR|WRNTY)\b/;
/**
 * FIRE in an insurer's name: fire is the old name of property insurance ("State Farm Fire and
 * Casualty", "Fire Insurance Exchange", "... Fire & Marine"), so FIRE before the claim's own word
 * ("ACH CREDIT STATE FARM FIRE CLAIM PMT", the company name cut at 16 characters) or before the
 * insurer's words names the payer, not the claim's loss; the loss is in the entry after its claim word
 * ("CLAIM PMT FIRE LOSS", "INS CLAIM ... FREEZER LOSS"). (blind-46: a roofer's insurers' claim
 * payments, sales by its truth, refused as a loss named.)
 */
const INSURER_FIRE = /\bFIRE(?=\s+(AND\s+|&\s*)?(CAS\w*|INS\w*|INDEM\w*|MARINE|EXCH\w*)\b)/g;
/** An insurer's own word, or a company's: a name that has ended before the next word. */
const INSURER_WORD = /^(INS|INSUR\w*|ASSURANCE|CASUALTY|CASU|CO|COMPANY|CORP|INC|LLC)$/;
const lossWords = (d: string): string => {
  const named = d.replace(INSURER_FIRE, ' ');
  // FIRE right before the claim word is the insurer's name only right after the rest of that name:
  // one or two words after the channel's ("STATE FARM FIRE CLAIM PMT", "LIBERTY MUTUAL FIRE CLAIM"),
  // none of them an insurer's or a company's word. After "ERIE INSURANCE", "HARTFORD INS CO",
  // "... INS KITCHEN" or three name words, FIRE is the loss the claim pays (review v: such claims
  // were counted as sales).
  const fire = /\bFIRE\s+(CLAIMS?|CLM)\b/.exec(named);
  if (!fire) return named;
  const before = named.slice(0, fire.index).split(/\s+/).filter((w) => w && !/\d/.test(w));
  const name = before.slice(channelLead(before));
  return name.length >= 1 && name.length <= 2 && !name.some((w) => INSURER_WORD.test(w)) ? named.slice(0, fire.index) + named.slice(fire.index + 4) : named;
};
export function debatableCredit(description: string): boolean {
  const d = description.toUpperCase();
  // A factoring company the table knows (class factor) by its name alone ("TAFS INC"), or a credit
  // worded as factoring: debatable unless it is the factor paying for the merchant's invoices
  // (`factoringSale`, sales); its ADVANCE, a fuel advance or a loan stays debatable.
  return ((FACTORING_LOOK.test(d) || !!classOf(description).factor) && !factoringSale(description)) || (WARRANTY_LOOK.test(d) && !warrantyCompanyPaysVendor(d)) || (CLAIM_LOOK.test(d) && LOSS_LOOK.test(lossWords(d)));
}

/**
 * A factoring company PAYING FOR THE MERCHANT'S INVOICES it bought: sales, the way a card processor's
 * payout of card sales is (the customer's payment for the merchant's work, collected through a third
 * party, less a fee). Three blind batches written from the trade (blind-62 "RTS FINANCIAL ... ENTRY
 * DESCR:FACTORING", blind-64 "TRIUMPH PAY FACTORING", blind-66 "ACH CR RTS FINANCIAL FACTORING") and
 * blind-26's "RTS Financial freight payment" label it so. The payer is a factoring company the table
 * knows (a factor row, in the payee's words), or the line says FACTORING or an INVOICE PURCHASE.
 * Not when the line (the receiver's field, the merchant's own name, aside) says anything else the
 * factor pays: an ADVANCE (ADV, "FACTORING ADVANCE": blind-37 labels it a loan, blind-30 and -60
 * sales), a FUEL advance, a loan, a line, a draw, a note, proceeds, a reserve or rebate released, a
 * recourse chargeback, a refund or a fee, the owner's money, receivables bought (a merchant cash
 * advance buys FUTURE RECEIVABLES): those stay doubted. Nor when a funder's or a loan's row names
 * the line too (a funder that calls its advance factoring is still a funder): never settled either
 * way, doubted.
 */
const INVOICE_PURCHASE = /\bINVOICES?\s+(PURCHASED?|PURCH|PURCHASES|SOLD)\b|\bPURCHASED\s+INVOICES?\b/;
const FACTOR_PAYS_OTHERWISE = /\b(ADV\w*|FUEL|LOANS?|LN|LOC|LINES?\s+OF\s+CREDIT|CREDIT\s+LINE|DRAWS?|DRAWDOWN|DISB\w*|NOTES?|PROCEEDS|RESERVES?|REBATES?|RELEASE\w*|RECOURSE|CHARGEBACKS?|CHGBK|REFUND\w*|RFND|RETURN\w*|REVERS\w*|FEES?|SBA|EIDL|PPP|MCA|RTR|RECEIVABLES?|FUTURE|SPLIT|HOLDBACK|PREPAY\w*|EARLY\s+PAY\w*|BRIDGE|INVEST\w*|OWNERS?|SHAREHOLDERS?|CONTRIB\w*|INJECTION|INFUSION|CLAIMS?|WARRANTY|WARR)\b/;
export function factoringSale(description: string): boolean {
  const own = beforeReceiver(description);
  if (!(factorOf(description) || FACTORING_LOOK.test(own) || INVOICE_PURCHASE.test(own))) return false;
  const c = classOf(description);
  if (c.mca_funder || c.loan || c.nsf || c.nsf_reversal || c.refund || c.own_transfer || c.recovery) return false;
  return !FACTOR_PAYS_OTHERWISE.test(own);
}

/**
 * A company whose NAME carries the warranty word paying the merchant as its VENDOR ("ACH CREDIT
 * <name> HOME WARR  VENDOR PMT", an AP PAYMENT, ACCOUNTS PAYABLE): a home-warranty or service-plan
 * company paying the tradesman it sent to a service call, a third party paying for the customer's
 * job, as an insurer's plain claim payment is (blind-54: a plumber's home-warranty company, refused as
 * a possible warranty credit). A manufacturer crediting a dealer's parts says CREDIT or CR after the
 * warranty word (`warrantyCreditFrom`), a warranty's claim says CLAIM: neither is a vendor's payment.
 * Only when the warranty word comes before the vendor-payment words (in the payer's name), and no
 * word after it says a credit, parts, a claim, a loss, labour reimbursed, a refund or a factor.
 */
function warrantyCompanyPaysVendor(d: string): boolean {
  const w = WARRANTY_LOOK.exec(d);
  const v = VENDOR_PAYMENT.exec(d);
  if (!w || !v || v.index < w.index) return false;
  const after = d.slice(w.index + w[0].length);
  // (revB: and what follows the vendor-payment words is only the entry's references, "CCD 0419117", no
  // word saying what the money is: a warranty company pays a homeowner's cash in lieu of a repair, a
  // plan's prorated refund or a settlement through the same payables run, "... AP PMT CASH IN LIEU".)
  return !/\b(CREDIT|CR|CREDITS|PARTS?|CLAIMS?|CLM|LABOU?R|REIMB\w*|REFUND\w*|RFND|RETURN\w*|REVERS\w*|CHARGEBACK|ADJ\w*|MEMO)\b/.test(after) && !NO_PRICE.test(after) && onlyReferences(d.slice(v.index + v[0].length)) && !FACTORING_LOOK.test(d) && !CLAIM_LOOK.test(d) && !LOSS_LOOK.test(lossWords(d));
}

/**
 * Whether the words are only an entry's references: numbers and codes (a token with a digit), the ACH
 * standard entry classes (CCD, PPD, CTX, WEB), and the words naming a reference (REF, ID, NO, TRN,
 * FED, INV, INVOICE, VOUCHER, PMT, PAYMENT): no word saying what the money is for.
 */
function onlyReferences(words: string): boolean {
  return words
    .split(/[\s:#/.,=-]+/)
    .filter(Boolean)
    .every((w) => /\d/.test(w) || /^(CCD|PPD|CTX|WEB|TEL|IAT|REF|REFERENCE|ID|NO|NBR|NUM|TRN|TRACE|FED|IMAD|OMAD|INV|INVOICE|VOUCHER|VCHR|PMT|PAYMENT|PYMT|JOB|PROJ|PROJECT)$/.test(w));
}

/**
 * The counterparty of a credit worded as that counterparty's WARRANTY CREDIT ("ACH CREDIT JOHNSTONE
 * SUPPLY WARRANTY CREDIT REF 7604...": the name, the warranty word, then CREDIT or CR, then nothing
 * but numbers), as name words; null for any other credit: a claim, a loss, labour, a payment or
 * reimbursement, a factoring advance (the contractor's warranty labour is paid as a claim, not
 * credited). A supplier crediting parts it sold is money back only when the merchant paid it in the
 * period (doubt.ts paidBack); otherwise the credit stays doubted.
 */
export function warrantyCreditFrom(description: string): string[] | null {
  const d = description.toUpperCase();
  if (!WARRANTY_LOOK.test(d) || FACTORING_LOOK.test(d) || CLAIM_LOOK.test(d) || LOSS_LOOK.test(d) || /\b(LABOU?R|PMT|PYMT|PAYMENT|PAY|REIMB\w*|SERVICE|CLAIMS?)\b/.test(d)) return null;
  // The warranty word between the name and CREDIT ("... SUPPLY WARRANTY CREDIT"), and only there;
  // PARTS between them says what is credited, the parts it sold ("MERCURY MARINE WARRANTY PARTS CR",
  // blind-47: a marine dealer's engine maker, its parts bought all month).
  const m = /^(.*\S)\s+(?:WARRANTY|WARR|WRNTY)\s+(?:PARTS?\s+)?(CREDIT|CR)\b(.*)$/.exec(d);
  if (!m || WARRANTY_LOOK.test(m[1]) || WARRANTY_LOOK.test(m[3])) return null;
  return supplierCreditFrom(`${m[1]} ${m[2]}${m[3]}`);
}

/**
 * A company's legal name without the words that only say it is an entity of a group ("TA OPERATING
 * LLC" -> TA, the company its TA truck service centres sell under; "X HOLDINGS"), when there are
 * such words and a name is left; null otherwise. Used only for a warranty credit from a seller the
 * merchant buys from by card (doubt.ts paidBack), never to name a payee in general.
 */
const ENTITY_WORDS = new Set(['OPERATING', 'OPERATIONS', 'HOLDING', 'HOLDINGS', 'ENTERPRISES']);
export function legalNameStem(name: string[]): string[] | null {
  let k = name.length;
  while (k > 0 && ENTITY_WORDS.has(name[k - 1])) k--;
  return k > 0 && k < name.length ? name.slice(0, k) : null;
}

/**
 * Whether a card purchase's payee words are a company's name words as a card network prints them:
 * the same words in the same order, the first word whole (4 letters or more), each other word whole
 * or ABBREVIATED the way a merchant descriptor's few characters force ("CTR" for CENTERS, "SVC" for
 * SERVICE, "SUPP" for SUPPLY: the word's first letter, then some of its letters in order, 3 letters
 * or more, shorter than the word). Two words or more. Used only for a warranty credit from a seller
 * the merchant buys from by card, no more than it was paid (doubt.ts paidBack), never to name a
 * payee in general.
 */
export function abbreviatedName(name: string[], payee: string[]): boolean {
  if (name.length < 2 || payee.length !== name.length || name[0] !== payee[0] || name[0].length < 4) return false;
  const abbreviates = (full: string, short: string) => {
    if (short.length < 3 || short.length >= full.length || short[0] !== full[0]) return false;
    let k = 0;
    for (const ch of full) if (ch === short[k]) k++;
    return k === short.length;
  };
  return name.every((w, i) => w === payee[i] || abbreviates(w, payee[i]));
}

/**
 * Whether any row of the table settles what a credit is (not the default "revenue"); a factoring
 * company's payment for the merchant's invoices (`factoringSale`) is settled as a processor's payout
 * is: sales, however large, from a company the merchant also pays fees to. So are the proceeds of a
 * sale of the merchant's goods (`saleProceeds`: a rancher's one cattle sale of the month is most of
 * its credits).
 */
export function creditSettled(description: string): boolean {
  const c = classOf(description);
  return !!(c.nsf_reversal || c.refund || c.nsf || c.mca_funder || c.loan || c.processor || c.revenue || c.own_transfer) || factoringSale(description) || saleProceedsCredit(description);
}

/**
 * Why a credit counted as revenue may not be revenue: it carries the funding trade's words
 * (`funding`), names an account of the merchant's (`transfer`) or the owner's money put in
 * (`owner`), and no processor row settles it.
 * Null for any other credit.
 */
export function creditDoubt(description: string): 'funding' | 'transfer' | 'owner' | 'return' | 'rebate' | 'debatable' | null {
  // Before any row: a row settling a factoring advance as a loan is as wrong as one settling it as sales.
  if (debatableCredit(description)) return 'debatable';
  if (depositKind(description) !== 'revenue') return null;
  const c = classOf(description);
  const d = description.toUpperCase();
  // Money given back is no sale, a processor's too ("SHOPIFY CB REVERSAL", "Amazon Mktpl refund"),
  // and a credit on the merchant's own debit card is a purchase returned.
  if (GIVEN_BACK.test(d) || OWN_CARD.test(d)) return 'return';
  // A company's own ACH entry saying CREDIT MEMO ("ENTRY DESCR: CREDIT MEMO"): the seller's credit to
  // its buyer, money back, settled only by what the period paid that company (doubt.ts paidBack).
  if (companyCreditMemoFrom(description)) return 'return';
  // (A factoring company paying for the merchant's invoices is sales, as a processor's payout is.)
  if (c.processor || factoringSale(description)) return null;
  // The owner's own money, deposited like a customer's check or wired like a funder's.
  if (OWNER_LOOK.test(d)) return 'owner';
  // Proceeds of what? A loan's, or a sale's (a dealer's auction proceeds, an insurer's claim proceeds).
  // A capital management company (a property or asset manager) paying the merchant as its vendor
  // (its ACH entry VENDOR PMT, AP PAYMENT: blind-42's "WALNUT CAPITAL MGMT VENDOR PMT" to a plumber)
  // is a customer: a funder's or lender's disbursement is never entered as paying a vendor. Only
  // with both: "CAPITAL MGMT" alone, or with any other funding word, stays doubted.
  const manager = CAPITAL_MANAGER.test(d) && VENDOR_PAYMENT.test(d) ? d.replace(CAPITAL_MANAGER, ' ') : d;
  // (A sale's proceeds, the merchant's goods named and no loan's or asset's word: `saleProceeds`.)
  if (FUNDING_LOOK.test(manager) || (PROCEEDS_LOOK.test(d) && !saleProceeds(beforeReceiver(d)))) return 'funding';
  // A rebate or incentive no row settles as a purchase rebate: money back or a contractor's pay.
  if (REBATE_LOOK.test(d)) return 'rebate';
  // (The United States Treasury disbursing a federal department's payment under its contract or task
  // order names the government's treasury, no account of the merchant's: `treasuryPaysOrder`.)
  const own = treasuryPaysOrder(d) ? d.replace(US_TREASURY, ' ') : d;
  if (TRANSFER_LOOK.test(own) || ACCOUNT_THEN_TRANSFER.test(own) || SUB_ACCOUNT_TRANSFER.test(own)) return 'transfer';
  return null;
}

/** The United States Treasury as a payer (the disbursing office and its agency code: "US TREASURY 310", "U.S. TREAS 303"). */
const US_TREASURY = /\b(US|U\.?\s?S\.?|UNITED\s+STATES)\s+TREAS(URY)?\b(\s+\d{3}\b)?/g;
/**
 * A federal payment the Treasury disburses for a department under a procurement instrument: the line
 * names the US Treasury, a public body ("DEPT OF VETERANS AFFAIRS") and its CONTRACT, TASK ORDER or
 * DELIVERY ORDER, and no word of money that is no price (`publicContract`: a tax refund, a benefit,
 * a grant, a loan, relief, a refund, a reimbursement). The Treasury also pays tax refunds and
 * benefits under the same name ("IRS TREAS 310 TAX REF"): those name no order, so stay as they are
 * (blind-54: a federal IT contractor's task-order payment by wire, refused as a transfer from a
 * "treasury" account).
 */
export function treasuryPaysOrder(d: string): boolean {
  const u = d.toUpperCase();
  US_TREASURY.lastIndex = 0;
  if (!US_TREASURY.test(u)) return false;
  const rest = u.replace(US_TREASURY, ' ');
  // (revB: the order's number ends the entry, or references only follow it: "TASK ORDER 36C10B
  // CREDIT", "... INTEREST PENALTY", "... OVERPAYMENT OFFSET" say money that is no order's price.)
  const orders = [...rest.matchAll(/\b(CONTRACT|TASK\s+ORDER|DELIVERY\s+ORDER)\b/g)];
  const last = orders[orders.length - 1];
  const tail = last ? rest.slice(last.index! + last[0].length) : '';
  return publicContract(rest) && !NO_PRICE.test(rest) && !LENDER_OR_INVESTOR.test(rest) && onlyReferences(tail);
}

/** A month, a fiscal span or a tax form after a year: a period's or a return's words, no model's. */
const MONTH_OR_SPAN = /(JAN|JANUARY|FEB|FEBRUARY|MAR|MARCH|APR|APRIL|MAY|JUN|JUNE|JUL|JULY|AUG|AUGUST|SEP|SEPT|SEPTEMBER|OCT|OCTOBER|NOV|NOVEMBER|DEC|DECEMBER|FY|YEAR|YR|QTR|QUARTER|TAX|FORM)\b/;
/** A model year, the make or model (one to three words) and the model's number: a unit bought. */
const MODEL_YEAR_UNIT = new RegExp(String.raw`\b(19[5-9]\d|20[0-4]\d)\s+(?!${MONTH_OR_SPAN.source})[A-Z][A-Z&'-]+(\s+[A-Z][A-Z&'-]+){0,2}\s+[A-Z]{0,4}-?\d{2,}[A-Z0-9-]*\b`);
const VIN = /\bVIN\s*(#|NO\.?|:)?\s*[A-HJ-NPR-Z0-9]{6,17}\b/;
const FREIGHT_HAULED = /\bDEDICATED\s+(LANES?|FLEET|CAPACITY|RUNS?|ROUTES?)\b|\bLANES?\s*(#|NO\.?)?\s*\d{2,}\b|\bLOADS?\s*(#|NO\.?)?\s*\d{3,}\b|\bLINE\s?HAUL\b|\bDRAYAGE\b/;
/** A sender who may lend, invest, grant, insure or hold the money for another, or money that is no price. */
const LENDER_OR_INVESTOR = /\b(\w*BANK|\w*BANC\w*|CREDIT\s+UNION|FCU|CU|FEDERAL|ACCEPTANCE|CREDIT\s+(CORP|CO|COMPANY)|FLOOR\s?PLAN|FLOOR\w*|CDF|REFI\w*|LEASEBACK|LIENS?|LIENHOLDER|LOSS|CLAIMS?|SALVAGE|SETTLE\w*|LAWSUIT|LITIGATION|JUDG(E)?MENT|ASSETS?|RESERVE|SCHED\w*|FACTOR\w*|CURTAIL\w*|LEASING|LEASE|MORTGAGE|TRUST|TRUSTEE|ESTATE|HOLDINGS?|PARTNERS|PARTNERSHIP|L\.?P|LLP|VENTURES?|EQUITY|FUNDS?|INVEST\w*|SBA|TREAS\w*|GRANTS?|ASSOCIATION|ASSN|ASSOC|COOP|CO-OP|COOPERATIVE|AUTHORITY|FOUNDATION|INSURANCE|INS|ASSURANCE|CASUALTY|MUTUAL|INDEMNITY|ESCROW|TITLE|SETTLEMENT|DISTRIBUTION|DISTRIB|DIVIDENDS?|PAYROLL|TAX|REFUND\w*|ROYALT\w*|PAY\s?OFF|PAYOFF)\b/;
/** A wire's own words, no sender's: the sender's first name word is the first name word that is none of them. */
const WIRE_WORD = new Set(['WIRE', 'WIRES', 'WT', 'FEDWIRE', 'FED', 'IN', 'RTP', 'FEDNOW', 'BOOK', 'TRANSFER', 'CR', 'RECEIVED', 'RCVD', 'INCOMING']);
/**
 * A wire whose sender wrote what it pays for, in words only a buyer writes (the wire's memo, its
 * originator-to-beneficiary text):
 * - a unit bought: a model year, the make or model, and the model's number ("2024 PATHFINDER 2600
 *   HPS", "2021 KUBOTA SVL75", "2019 FORD F150"), or a vehicle identification number (VIN);
 * - freight hauled: a shipper's dedicated lane or fleet ("DEDICATED LANE DEC"), a numbered lane or
 *   load ("LOAD 88213"), linehaul, drayage.
 * A customer paying for a boat, a truck or a month's hauling (blind-47: a marine dealer's $48,500
 * wire for a named boat, a shipper's wire for a trucker's dedicated lane). An owner putting money in,
 * a lender, an investor or a funder names no model and no load. Not when any word says the sender may
 * be one of them or the money something else (LENDER_OR_INVESTOR: a bank, a credit union, an
 * acceptance or credit company, a floor plan, a lease, a trust, an estate, holdings, partners, an
 * LP, ventures, equity, a fund, investment; an association, a cooperative, an authority or a
 * foundation, which grant and lend too; an insurer; escrow, title, a settlement, a distribution, a
 * dividend, payroll, tax, a refund, a royalty, a payoff; review revx: a bank spelled as one word
 * (KEYBANK, TRUIST's aside), FEDERAL (a credit union's), a floor plan's FLOORING or CDF, a refinance,
 * a sale-leaseback, a lien, an insurer's loss, claim or salvage, a settlement, a lawsuit or judgment,
 * a sale of assets, a factor's reserve or schedule), nor when creditDoubt has a doubt of its own
 * (the funding trade's words, the owner's, a transfer's, money given back). Only what doubt.ts
 * `categoryDoubt` asks of a large one-off credit of no known kind, and only with its guard that the
 * period's debits pay no counterparty of the sender's name (a floor plan lender or the merchant's own
 * account paid back).
 */
export function paidForByWire(description: string): { sender: string; unit: boolean } | null {
  const d = description.toUpperCase();
  // (Nor from a payee a not_funder row names: a lessor's or a lender's wire for a unit may finance it.)
  if (!/\b(WIRE|WT|FEDWIRE|FED ?WIRE|WIRE ?IN|INCOMING WIRE)\b/.test(d) || creditDoubt(description) !== null || creditSettled(description) || notFunderOf(description) || classOf(description).factor) return null;
  // A Fedwire line's originator field ("WT Fed#03417 Bank of America, N /Org=Granite Ridge ..."):
  // what precedes it is the wire's route (the sending bank), no word of the sender's; the sender
  // is the originator's first word. Without the field, the whole line is asked.
  const org = ORIGINATOR.exec(d);
  const routed = org ? d.slice(org.index + org[0].length) : d;
  // (The US Treasury disbursing a department's order is the route, not a sender that lends: treasuryPaysOrder.)
  const own = treasuryPaysOrder(routed) ? routed.replace(US_TREASURY, ' ') : routed;
  if (LENDER_OR_INVESTOR.test(own)) return null;
  if (!(MODEL_YEAR_UNIT.test(own) || VIN.test(own) || FREIGHT_HAULED.test(own) || workBilled(own))) return null;
  // (A state's postal code before its department, "VA DEPT OF TRANSPORTATION", is no name: the department's word is the sender's.)
  const sender = org ? own.split(/[^A-Z&]+/).find(Boolean) : nameWords(description).find((w, i, ws) => !WIRE_WORD.has(w) && !(w.length === 2 && /^(DEPT|DEPARTMENT)$/.test(ws[i + 1] ?? '')));
  // `unit`: what it buys is a unit only (no freight, no work billed): a dealer's sale, or the merchant selling its own
  // truck or machine (no revenue); doubt.ts `customerWire` asks the period for a dealer's signs before it trusts one.
  const unit = !(FREIGHT_HAULED.test(own) || workBilled(own));
  return sender && sender.length >= 4 ? { sender, unit } : null;
}

/**
 * A dealer's sign on a line of the period: a floor plan (FLOOR PLAN, FLOORPLAN, FLOORING, a curtailment,
 * NEXTGEAR, CDF) or another unit named the way a buyer names it. A merchant selling its own truck has
 * neither; a boat, car or equipment dealer carries its units on a floor plan or sells more than one.
 */
export function dealerSign(description: string): boolean {
  const d = description.toUpperCase();
  return /\b(FLOOR\s?PLAN\w*|FLRPLN|FLOORING|CURTAIL\w*|NEXTGEAR|CDF)\b/.test(d) || MODEL_YEAR_UNIT.test(d) || VIN.test(d);
}

/** A wire's originator field: ORG: / /Org= / ORIGINATOR:, the sender's name after it. */
// (Or ORG with no colon before a public body's style, "ORG DEPT OF VETERANS AFFAIRS": blind-54's wire.)
const ORIGINATOR = /(?:^|[\s\/])(?:ORG|ORIGINATOR)\s*[:=]\s*|(?:^|\s)ORG\s+(?=(?:DEPT|DEPARTMENT)\s+OF\b)/;
/** A billing document a contractor or vendor sends its customer: an invoice, a pay application, a progress billing, retainage, a purchase order. */
const BILLING_DOC = /\b(PROGRESS\s+(BILLING|BILL|PAYMENT|PMT)|PAY\s?APP(LICATION)?\s*(#|NO\.?)?\s*\d+|RETAINAGE|INV(OICE)?S?\s*(#|NO\.?)?\s*\d[\d-]*|P\.?O\.?\s*(#|NO\.?)\s*\d+|PO\s*\d{3,})\b/;
/**
 * A credit whose entry names a billing document a contractor sends its customer (a progress payment,
 * a pay application, retainage, an invoice or PO number: BILLING_DOC), no word of money that is no
 * price (NO_PRICE) or of a sender that lends, invests or insures (LENDER_OR_INVESTOR), and no doubt
 * of its own (creditDoubt). Only what doubt.ts asks of a large one-off credit from a counterparty
 * that pays the merchant otherwise in the period as a customer (`billedByItsCustomer`).
 */
export function billingEntry(description: string): boolean {
  // (After the channel's words: "ACH DEPOSIT" is the channel, no deposit held.)
  const words = description.toUpperCase().split(/\s+/).filter(Boolean);
  const d = words.slice(channelLead(words)).join(' ');
  // (revB: and only the entry's references after the document's words: "PROGRESS BILLING 7 BOND
  // RELEASE", "... SURETY", "... CONSTRUCTION DISB" say what the money is, no billing paid.)
  const docs = [...d.matchAll(new RegExp(BILLING_DOC.source, 'g'))];
  const last = docs[docs.length - 1];
  if (!last || !onlyReferences(d.slice(last.index! + last[0].length))) return false;
  return !NO_PRICE.test(d) && !LENDER_OR_INVESTOR.test(d) && creditDoubt(description) === null && !creditSettled(description);
}

/** A contract or a service, and the period it was performed in (a month, a quarter, a season). */
const SERVICE = /\b(CONTRACT|CONTRACTED|SERVICES?)\b/;
const SERVICE_PERIOD = /\b(JAN|JANUARY|FEB|FEBRUARY|MAR|MARCH|APR|APRIL|MAY|JUN|JUNE|JUL|JULY|AUG|AUGUST|SEP|SEPT|SEPTEMBER|OCT|OCTOBER|NOV|NOVEMBER|DEC|DECEMBER|Q[1-4]|QTR|QUARTER|WINTER|SPRING|SUMMER|FALL|SEASON)\b(?!\s+IRA\b)/;
/** Money that is no price of work done, whoever sends it: a loan or its draw, capital, a grant, a claim, a deposit or retainer held, a reimbursement, an award. */
const NO_PRICE = /\b(LOANS?|DRAWS?|ADVANCES?|CAPITAL|CONTRIBUTIONS?|INJECTION|GRANTS?|CLAIMS?|PROCEEDS|DEPOSITS?|RETAINERS?|DONATIONS?|GIFTS?|REIMB\w*|SUBSIDY|AWARDS?|JUDG(E)?MENT|SETTLE\w*|PREMIUMS?|RECOVERY|RELIEF|STIPEND|SALARY|WAGES?|COMMISSIONS?|BONUS|RENT|LEASE|ESCROW|INVEST\w*)\b/;
/**
 * Work billed to a customer, as an underwriter reads a wire's memo: a billing document (an invoice
 * or PO number, a pay application, a progress billing, retainage) or a contract or service and the
 * period it was performed in ("SNOW CONTRACT Q4", "Contract Therapy Services Sep"), from an
 * organisation (LLC, INC, a university, a hospital or health system, a county, a city, a school
 * district). Not when any word says the money is no price (NO_PRICE: a loan or a draw, capital, a
 * contribution, a grant, a claim, a deposit or retainer, a reimbursement, a settlement, escrow, an
 * investment): blind-48's customers' wires for a snow contract, therapy services and a progress billing.
 */
function workBilled(own: string): boolean {
  if (NO_PRICE.test(own) || !ORGANISATION.test(own)) return false;
  return BILLING_DOC.test(own) || (SERVICE.test(own) && SERVICE_PERIOD.test(own)) || publicContract(own);
}

/** A government's department or a local government by its style: "VA DEPT OF TRANSPORTATION", "DEPARTMENT OF PUBLIC WORKS", "CITY OF SALEM", "COUNTY OF ...", "STATE OF ...". */
// (Not "STATE OF THE ART ROOFING", "CITY OF LIGHTS EVENTS INC": a company's name begun so, review revq;
// THE after OF, or a company's legal form within the name's next three words, says so. The
// beneficiary's name later on a wire line, the merchant's own LLC, is no sign.)
const PUBLIC_BODY = /\b(DEPT|DEPARTMENT)\s+OF\b|\b(CITY|COUNTY|STATE|TOWN|VILLAGE|TOWNSHIP|COMMONWEALTH)\s+OF\s+(?!THE\b)/;
const COMPANY_FORM = /\b(CITY|COUNTY|STATE|TOWN|VILLAGE|TOWNSHIP|COMMONWEALTH)\s+OF(\s+(?!CONTRACT\b)[A-Z&'.-]+){1,3}\s+(LLC|L\.L\.C\.?|INC|CORP|CORPORATION|LTD|PLLC|COMPANY)\b/;
/**
 * What a government pays that is no price of work: land or a right of way taken, a business moved out of its way, a tax, a benefit;
 * (review revq) a grant or relief money passed on under a subrecipient contract, named by its program or its form (CDBG, ARPA,
 * SLFRF, CARES, COVID, PPP, EIDL, a subaward, a subgrant, a cost share, a forgivable loan, an incentive for jobs created, an
 * economic development body's, a named PROGRAM's) and damages or compensation paid under a contract. The words are one
 * list, the `unless` phrases of knowledge.json's "Public bodies paying on a contract" row (the row that settles a city's
 * ACH under a numbered contract), read here for a public body's wire under a CONTRACT too (a deposit returned is
 * NO_PRICE's, asked first: the row's own descriptions are "Direct Deposit").
 */
const PUBLIC_NO_PRICE = builtInUnless('Public bodies paying on a contract');
/**
 * A public body's wire under a CONTRACT, whatever month it names ("INCOMING WIRE VA DEPT OF
 * TRANSPORTATION INCIDENT CLEARANCE CONTRACT", blind-50: a state's towing contract): a government
 * buys work or goods by contract (procurement); it does not lend to, invest in or fund an advance for
 * a merchant under that word, and its grants, loans, claims, refunds and benefits are named so
 * (NO_PRICE, LENDER_OR_INVESTOR, and PUBLIC_NO_PRICE: land or a right of way bought, relocation
 * paid, tax, benefits, aid, a bond or deposit returned). A CONTRACT from any other organisation still
 * needs the period the work was done in (a contract's sale, deposit or buy-out says no month).
 */
function publicContract(own: string): boolean {
  // (A federal contract's TASK ORDER or DELIVERY ORDER is an order placed under it: blind-54.)
  return /\b(CONTRACT|TASK\s+ORDER|DELIVERY\s+ORDER)\b/.test(own) && PUBLIC_BODY.test(own) && !COMPANY_FORM.test(own) && !PUBLIC_NO_PRICE(own);
}

/**
 * How many of a description's first words are channel boilerplate (CHANNEL), counting a direction
 * abbreviation CR or DR right after ACH or EFT as one ("ACH CR JFC INTERNATIONA CREDIT", "ACH DR
 * JFC INTERNATIONA INV PMT": a bank's short form of ACH CREDIT / ACH DEBIT, blind-23). Elsewhere CR
 * and DR may begin a name or close one ("DR K NAKAMURA", "GRAINGER CR"), so they stay words there.
 */
function channelLead(words: string[], stopAt?: string): number {
  let i = 0;
  // CHECK before CARD is the channel's ("CHECK CARD PURCHASE TA TRUCK SERVICE", blind-39), and CR after
  // ELECTRONIC ("ELECTRONIC CR TA OPERATING LLC", a Commerce-style bank's ACH credit, as ACH CR).
  while (i < words.length && words[i] !== stopAt && (CHANNEL.has(words[i]) || (words[i] === 'CHECK' && words[i + 1] === 'CARD') || (i > 0 && /^(CR|DR)$/.test(words[i]) && /^(ACH|EFT|ELECTRONIC|ELEC)$/.test(words[i - 1])))) i++;
  return i;
}

/**
 * The purchase date a card line prints before the merchant ("Debit Purchase - VISA On 0812 NAPA AUTO
 * 4410 MPLS MN", "ON 08/12"): ON and a month and day, no part of the counterparty (blind-28).
 */
const CARD_DATE = /\bON\s+\d{2}\/?\d{2}\b/g;
/** The words banks put before the counterparty: channel, direction, card and ACH boilerplate. */
const CHANNEL = new Set(['ACH', 'DEBIT', 'DEBITS', 'CREDIT', 'CREDITS', 'ELECTRONIC', 'ELEC', 'EFT', 'PREAUTHORIZED', 'PREAUTH', 'PRE', 'AUTH', 'AUTHORIZED', 'AUTOMATIC', 'AUTO', 'RECURRING', 'ONLINE', 'WEB', 'PPD', 'CCD', 'WITHDRAWAL', 'WITHDRAW', 'WD', 'DEPOSIT', 'DEP', 'PAYMENT', 'PMT', 'TO', 'FROM', 'FR', 'THE', 'OF', 'CARD', 'PURCHASE', 'POS', 'VISA', 'MASTERCARD', 'MC', 'RETURN', 'RETURNED', 'RTN', 'REVERSAL', 'REFUND', 'ITEM', 'CHECKCARD', 'DBT', 'DB', 'CRD', 'ORIG', 'CO', 'NAME', 'ID', 'ENTRY', 'DESCR', 'EXTERNAL', 'OUTGOING', 'INCOMING', 'BUSINESS', 'ORIGINATOR']);
/** The NACHA originator's field of an ACH line ("ORIG CO NAME:X CO ENTRY DESCR:..."): X. */
const ORIGINATOR_FIELD = /\bORIG(?:INATOR)?\s*CO(?:MPANY)?\s*NAME\s*:?\s*(.+?)\s*(?:\bCO\s*ENTRY\b|\bORIG\s*ID\b|\bENTRY\s*DESCR\b|\bSEC\s*:|\bDESC\s*DATE\b|\bTRACE\b|$)/;
/**
 * Who a line is paid to or from, whatever the bank's wording: the NACHA originator ("ORIG CO
 * NAME:X CO ENTRY DESCR:..."), else the first words left after the channel boilerplate ("Withdrawal
 * to", "ACH DEBIT", "Debit Card Purchase -", "Debit Return - Visa") and without digits (dates,
 * trace and ID numbers vary by line). Empty when nothing is left.
 */
export function counterparty(description: string): string {
  const d = description.toUpperCase().replace(CARD_DATE, ' ');
  const orig = ORIGINATOR_FIELD.exec(d);
  const words = (orig ? orig[1] : d).split(/\s+/).filter((w) => !/\d/.test(w)).map((w) => w.replace(/[^A-Z&]/g, '')).filter((w) => w.length > 1);
  const i = orig ? 0 : channelLead(words);
  return words.slice(i, i + 3).join(' ');
}

/**
 * The counterparty of a credit worded as that counterparty's CREDIT ("Preauthorized Credit MSC
 * INDUSTRIAL CREDIT 2444...": the name, then CREDIT or CR, then nothing but numbers), as name
 * words; null for any other credit. A supplier's credit to its customer is worded so; a customer
 * paying the merchant is not (blind-14: a tool shop's MSC Industrial credit, the supplier it pays
 * by card, was counted as sales).
 */
export function creditOfCounterparty(description: string): string[] | null {
  const cp = counterparty(description.replace(/\s+\S*\d\S*(\s+\S*\d\S*)*\s*$/, ''));
  const w = cp.split(' ').filter(Boolean);
  if (w.length < 2 || !/^(CREDIT|CR)$/.test(w[w.length - 1])) return null;
  const name = w.slice(0, -1);
  return name.some((x) => x.length >= 4) && !name.some((x) => CHANNEL.has(x)) ? name : null;
}

/** Field labels of an ACH line that name nothing ("TYPE: CREDIT ID: 7409888165", "IND ID", "CO ENTRY DESCR"). */
// (TRN: a transaction reference's label, "WARRANTY CR TRN 9328183966", a Commerce-style bank's ACH line, blind-39.)
const FIELD_LABEL = new Set(['TYPE', 'ID', 'IND', 'CO', 'ENTRY', 'DESCR', 'DESC', 'SEC', 'REF', 'TRACE', 'TRN', 'NAME', 'ORIG']);
/**
 * The counterparty of a credit whose ACH entry says it is that counterparty's CREDIT, whatever else
 * the line carries: the name, then CREDIT or CR (or "TYPE: CREDIT"), then nothing but numbers and
 * field labels ("Preauthorized Credit MSC INDUSTRIAL CREDIT 2444...", "PREAUTHORIZED CREDIT POOLCORP
 * SCP DIST CREDIT 4301...", "Deposit ACH CAFE VITA ROASTING TYPE: CREDIT ID: 7409888165"), as name
 * words; null for any other credit. A supplier's credit to its customer is worded so; a customer
 * paying the merchant names a payment ("AP PMT", "INV PAYMENT", "TYPE: INVOICE").
 */
export function supplierCreditFrom(description: string): string[] | null {
  if (classOf(description).processor) return null;
  // (Nor the ACH entry's SEC code after it: "ACH CREDIT SYSCO LOUISVILLE CREDIT ID 8605405212 CCD", blind-28.)
  // (Nor the company-name field closing the line, the name said again: "Deposit ACH SITEONE LANDSCAP
  // TYPE: CREDIT ID: 5263657755 CO: SITEONE LANDSCAP", a credit union's ACH line, blind-29.)
  // (In either order with the trace's ID field: "... TYPE: CREDIT  CO: CARRIER ENTERPRI ID: 2617164170", blind-32.)
  // (Nor the bank's channel and trace closing the line: "SHIPBOB INC - CREDIT  ACH credit  Trace 5499...", an online bank's line.)
  // (Nor the bank's batch number after the entry's word: "ACH CREDIT GORDON FOOD SERVI CREDIT BATCH 4460
  // CO ID 1381544505 CCD TRACE 5524...", an Independent Bank-style line whose debits read "... INVOICE
  // BATCH 5522 ...", blind-50: BATCH and its number are the bank's, as TRACE and its number are.)
  const words = description.toUpperCase().replace(/\s+BATCH\s*(NO\.?|#|:)?\s*\d+\b/g, ' ').replace(/\s+(ACH\s+(CREDIT|DEBIT)\s+)?TRACE\s*(NO\.?|#|:)?\s*\d+\s*$/, '').replace(/\s+ID\s*:\s*\d+\s*$/, '').replace(/\s+CO(?:MPANY)?\s*:\s*[A-Z&.,' -]*$/, '').split(/\s+/).filter((w) => !/\d/.test(w)).map((w) => w.replace(/[^A-Z&]/g, '')).filter((w) => w.length > 1 && !FIELD_LABEL.has(w) && !SEC_CODE.has(w));
  const rest = words.slice(channelLead(words));
  if (rest.length < 2 || !/^(CREDIT|CR)$/.test(rest[rest.length - 1])) return null;
  const name = rest.slice(0, -1);
  // The company's suffix ends its name, no word of it ("ROYAL COFFEE INC CREDIT", blind-28).
  while (name.length > 1 && ['INC', 'LLC', 'LTD', 'CORP', 'CO', 'COMPANY'].includes(name[name.length - 1])) name.pop();
  // AUTO after a name word is the name's ("NAPA AUTO PARTS", "ADVANCE AUTO PARTS"), not "automatic" (blind-28).
  return name.some((x) => x.length >= 4) && !name.some((x, i) => (CHANNEL.has(x) && !(x === 'AUTO' && i > 0)) || NOT_A_NAME.has(x)) ? name : null;
}

/**
 * Whether a credit's counterparty, as name words, names the payee a debit pays (its payee words):
 * word for word from the first; or the credit's name cut short where an ACH entry's company-name
 * field ends (16 characters; some banks print it a character or two short, so 14 to 16 letters and
 * spaces), its cut last word (3 letters or more) the beginning of the payee's word there: "ACH CREDIT
 * WESTLAKE HARDWA CREDIT" is the credit of the "WESTLAKE HARDWARE" a card purchase pays, whose
 * name the card network prints whole (blind-25: such a supplier's credit, its name cut, was matched
 * to no payee and counted as sales).
 */
export function namesPayee(name: string[], payee: string[]): boolean {
  if (!name.length || payee.length < name.length) return false;
  const k = name.length - 1;
  if (!name.slice(0, k).every((w, i) => payee[i] === w)) return false;
  if (payee[k] === name[k]) return true;
  const len = name.join(' ').length;
  return len >= 14 && len <= 16 && name[k].length >= 3 && payee[k].length > name[k].length && payee[k].startsWith(name[k]);
}

/**
 * The store a debit names by its words and then its number ("Debit Purchase - VISA On 0812 NAPA AUTO
 * 4410 MPLS MN" -> NAPA AUTO, "POS DEBIT FERGUSON #2211 GREEN BAY WI" -> FERGUSON): the name words
 * after the channel words (and numbers before the name), up to the first number; null when no
 * number follows them. A card network prints a chain's store under a cut name before the store's
 * number and city.
 */
export function storeWords(description: string): string[] | null {
  const toks = description.toUpperCase().replace(CARD_DATE, ' ').split(/\s+/).filter(Boolean);
  let i = 0;
  // Channel words, punctuation, and numbers before the name (a reference, a date: "DEBIT CARD PURCHASE 0412 WESTLAKE ...").
  while (i < toks.length && (/^#?[\d/-]+$/.test(toks[i]) || (!/\d/.test(toks[i]) && (ONLY_LETTERS(toks[i]).length === 0 || CHANNEL.has(ONLY_LETTERS(toks[i])))))) i++;
  const name: string[] = [];
  for (; i < toks.length; i++) {
    if (/^#?\d{2,}$/.test(toks[i])) return name.length ? name : null;
    if (/\d/.test(toks[i])) return null;
    const w = ONLY_LETTERS(toks[i]);
    if (w.length > 1) name.push(w);
  }
  return null;
}

/**
 * Whether a supplier's credit, as name words ("NAPA AUTO PARTS" of "... NAPA AUTO PARTS ... CREDIT"),
 * comes from the store a debit names (`storeWords`): the store's words are the credit's first words,
 * two words or more, or one of 5 letters or more (as `paysCounterparty`'s store). The card network
 * cuts the chain's name the ACH entry prints whole (blind-28: a parts store's credit, paid by card
 * as "NAPA AUTO 4410 MPLS MN", matched no payee and was counted as sales).
 */
export function namesStore(name: string[], store: string[] | null): boolean {
  if (!store || !store.length || store.length > name.length || !store.every((w, i) => name[i] === w)) return false;
  return store.length >= 2 ? store.some((w) => w.length >= 4) : store[0].length >= 5;
}

/** The words of a debit's payee without the channel words a bank prints after the name ("Debit Card Purchase MSC INDUSTRIAL Card 5836" -> MSC INDUSTRIAL). */
export function payeeWords(description: string): string[] {
  const w = counterparty(description).split(' ').filter(Boolean);
  while (w.length > 1 && CHANNEL.has(w[w.length - 1])) w.pop();
  return w;
}

/** A debit that reads like a returned-item, NSF or overdraft fee that no row counts (nor reverses). */
export function looksLikeNsfFee(description: string): boolean {
  const c = classOf(description);
  if (c.nsf || c.nsf_reversal || c.deposited_return) return false;
  const d = description.toUpperCase();
  return FEE_WORD.test(d) && RETURN_WORD.test(d);
}

/**
 * The words an ACH line names its payee (or payer) by: the originator's field ("ORIG CO NAME:X ORIG
 * ID:..."), else the line's words up to its first field (a word with a colon, "DES:", "INDN:",
 * "TYPE:"; a field label, IND, NAME, CO) or its first word with a digit (a date, an ID, a trace)
 * after a name word; at most eight words. What follows is the entry's fields, among them the
 * receiver's name, which is the merchant's own on every line ("... INDN:GUSTO TRATTORIA LLC CO ID:",
 * "... IND NAME:UPSTART BREWING CO", Wells Fargo's "... 260302 7YFH4K TRANSAMERICA TRUCKING LLC").
 */
export function payeeText(description: string): string {
  const d = description.toUpperCase().replace(CARD_DATE, ' ');
  const orig = ORIGINATOR_FIELD.exec(d);
  const out: string[] = [];
  let named = false;
  for (const w of (orig ? orig[1] : d).split(/\s+/)) {
    if (!w) continue;
    const letters = w.replace(/[^A-Z&]/g, '');
    const field = /[:#=]/.test(w) || FIELD_LABEL.has(letters) || letters === 'INDN' || letters === 'DES';
    if (field || /\d/.test(w)) {
      if (named) break;
      continue;
    }
    out.push(w);
    if (letters && !CHANNEL.has(letters)) named = true;
    if (out.length >= 8) break;
  }
  return out.join(' ');
}

/**
 * The not_funder row naming a debit's payee (or a credit's payer), if any: its phrase in the words
 * that name the payee (`payeeText`), not anywhere in the line. A phrase in the entry's other fields
 * names someone else, most often the merchant itself as the receiver: a restaurant called "Gusto
 * Trattoria" (a payroll company's name), a trucker called "Transamerica Trucking" (an insurer's),
 * whose funder's weekly pulls were read as that payee's and never counted as a position (review v).
 */
export function notFunderOf(description: string): RuleRow | null {
  if (!classOf(description).not_funder) return null;
  return classOf(payeeText(description)).not_funder;
}

/** An ACH line's receiver field, the merchant's own name, to the line's end ("INDN:...", "IND NAME:...", "RECEIVER NAME:..."). */
const RECEIVER_FIELD = /\b(INDN|IND\s*NAME|INDIVIDUAL\s*NAME|RECEIVER(\s*NAME)?|RCVR(\s*NAME)?)\s*:.*$/;
/**
 * The factor row naming a debit's payee, if any: its phrase in the line before the receiver's
 * field. An ACH debit also prints the receiver's name, the merchant's own ("... INDN:TRIUMPH
 * FREIGHT LLC": TRIUMPH alone is a factor's phrase), which names no factor: its funder's pulls were
 * read as a factor's, no position (review revy). Only the labelled field is left out: a line whose
 * payee the bank prints after a date ("DIRECT WITHDRAWAL 0302 TRIUMPH BUS CAP") still names its
 * factor, and a line printing the receiver unlabelled still names one too (doubted, never counted).
 * A credit is asked of the whole line (`debatableCredit`, `paidForByWire`).
 */
export function factorOf(description: string): RuleRow | null {
  if (!classOf(description).factor) return null;
  return classOf(beforeReceiver(description)).factor;
}
/** A line's words before its receiver's field (the merchant's own name: "... INDN:HALLORAN AUTO REPAIR LLC"), upper-cased. */
export const beforeReceiver = (description: string): string => description.toUpperCase().replace(RECEIVER_FIELD, '');

/** Whether any row settles what a debit is (a position, a fee or its reversal, a refund, a collection, a transfer, a payee that is no funder). */
export function debitSettled(description: string): boolean {
  const c = classOf(description);
  return !!(c.mca_funder || c.nsf || c.nsf_reversal || c.refund || c.recovery || c.own_transfer || c.loan || c.deposited_return || notFunderOf(description));
}

/**
 * A payment on an EQUIPMENT LEASE ("TOAST CAPITAL EQUIP LEASE", "NATIONAL FUNDING EQUIPMENT LEASE
 * PMT"): funders also lease equipment, and a lease is debt service on the equipment at a fixed sum,
 * never a merchant cash advance's pull, as a line of credit's payment is not (blind-52: a Toast
 * Capital equipment lease, named both by Toast Capital's funder row and by the lessors' row's
 * "EQUIP LEAS*", refused its statement).
 */
const EQUIPMENT_LEASE = /\bEQUIP(MENT)?\W+LEAS(E|ES|ING)\b/;
const EQUIPMENT_LEASE_ALL = new RegExp(EQUIPMENT_LEASE.source, 'g');

/** A debit a funder row and a not_funder row (or a factor row) both name: which it is, no rule says (categoryDoubt refuses it). */
export function funderRowsDisagree(description: string): boolean {
  const c = classOf(description);
  if (!c.mca_funder) return false;
  if (factorOf(description)) return true;
  if (!notFunderOf(description)) return false;
  // A funder's line worded as an equipment lease's payment, whose only not_funder phrase is that
  // wording (the lessors' row's "EQUIP LEAS*"): the line says what it pays, a lease (`mcaFunder`).
  const d = description.toUpperCase();
  return !(EQUIPMENT_LEASE.test(d) && !notFunderOf(d.replace(EQUIPMENT_LEASE_ALL, ' ')));
}

/** A debit to a counterparty with the funding trade's words that no funder row knows (nor a loan, fee or collection, nor a payee known to be no funder). */
export function looksLikeFunderDebit(description: string): boolean {
  const c = classOf(description);
  if (c.mca_funder || c.nsf || c.nsf_reversal || c.refund || c.recovery || c.own_transfer || notFunderOf(description)) return false;
  return FUNDING_LOOK.test(description.toUpperCase());
}

/** An NSF, returned-item or overdraft (paid item) event; its reversal or refund is not. */
export function isNsf(description: string): boolean {
  const c = classOf(description);
  return !!c.nsf && !c.nsf_reversal && !c.deposited_return;
}

export const isRecovery = (description: string): boolean => !!classOf(description).recovery;

/**
 * A fee a lender or funder takes once, when it funds (origination, closing, underwriting,
 * documentation, UCC filing): no payment on a position ("ONDECK CAPITAL ENTRY DESCR: ORIG FEE").
 */
const ONE_OFF_FEE = /\b(ORIG(INATION)?|ORGINATION|CLOSING|UNDERWRITING|APPLICATION|DOCUMENTATION|DOC|UCC|FILING|BROKER)\W+(FEES?|CHG|CHARGES?)\b/;

/**
 * A debit paying off what is owed ("Outgoing Wire Cfg Merchant Solutions Payoff Balance", "LOAN
 * PAYOFF"): the position closed in one sum (a renewal or another funder buying it out), not one
 * of its payments; neither an open position nor withheld from revenue.
 */
const PAYOFF = /\bPAY\s?-?OFFS?\b|\bPAYOFF\w*/;

/**
 * A payment on a revolving LINE OF CREDIT ("IDEA FINANCIAL LOC PMT", "BLUEVINE LINE OF CREDIT
 * PAYMENT"): many funders also lend on credit lines, and a line is a loan the merchant draws and
 * repays, never a merchant cash advance (a purchase of receivables has no line to pay); its
 * payment is debt service, not an MCA position or withhold (blind-14: an Idea Financial LOC
 * payment counted as a second position).
 */
const LINE_OF_CREDIT = /\bLINE\s+OF\s+CREDIT\b|\bCREDIT\s+LINE\b|\bLOC\s*(PMT|PYMT|PAYMT|PAYMENT|PAY|REPAY\w*|AUTOPAY|INT\w*|DEBIT)\b/;

/**
 * The known funder a debit pays, if any (an NSF fee, a reversal, a collection, a one-off funding fee, a
 * payoff or a line-of-credit payment naming one is not a position, nor a debit a not_funder or a factor
 * row names: with a funder row too, categoryDoubt refuses it).
 */
export function mcaFunder(description: string): string | null {
  const c = classOf(description);
  if (c.nsf || c.nsf_reversal || c.refund || c.recovery || c.deposited_return || factorOf(description) || notFunderOf(description)) return null;
  const d = description.toUpperCase();
  if (c.mca_funder && (ONE_OFF_FEE.test(d) || PAYOFF.test(d) || LINE_OF_CREDIT.test(d))) return null;
  return c.mca_funder?.name ?? null;
}

/** The card processor or marketplace a payout comes from, if any. */
export function processorOf(description: string): string | null {
  return classOf(description).processor?.name ?? null;
}

/** Every class a description matches, with the row's name (diagnostics, the operator's checks). */
export function classify(description: string): Array<{ class: RuleClass; name: string | null }> {
  const c = classOf(description);
  return RULE_CLASSES.flatMap((k) => (c[k] ? [{ class: k, name: c[k]!.name ?? null }] : []));
}

// ---------------------------------------------------------------- a company's own credit (blind-20)

/** SEC codes an ACH line carries after its entry ("CCD", "PPD"): they name nothing. */
const SEC_CODE = new Set(['CCD', 'PPD', 'CTX', 'WEB', 'TEL', 'IAT']);
/** Words that make a "credit memo" something other than a company's credit to its customer: a chargeback, a dispute, the bank's adjustment or correction. */
const NOT_A_COMPANY_CREDIT = /\b(CHARGE ?BACKS?|CHGBK|CB|DISPUTES?|ADJ|ADJUSTMENTS?|CORRECTIONS?|CORR|DEPOSITS?|DEP|BANK|INTEREST|FEES?|REBATES?|REIMB\w*|CLAIMS?|WIRES?|WT|TRANSFERS?|XFER|TRF|RTP|FEDNOW|ZELLE|SETTLEMENTS?|SETTLE|PAYOUTS?|SALES?)\b/;
const ONLY_LETTERS = (w: string) => w.replace(/[^A-Z&]/g, '');
/** An ACH entry's marks: the company wrote its words, not the bank. */
const ACH_ENTRY = /\b(ACH|PREAUTHORIZED|PREAUTH|CCD|PPD|CTX|CO ID|ORIG CO NAME|ENTRY DESCR|CO:)(?=\s|:|$)/;

/**
 * A NACHA entry's company entry description, as words without digits: "CO ENTRY DESCR:CREDIT
 * SEC:CCD" -> CREDIT, "ENTRY DESCR: CREDIT MEMO SEC: CCD" -> CREDIT MEMO, "ENTRY: CREDIT MEMO IND
 * ID:" -> CREDIT MEMO; null when the line carries no entry description.
 */
export function entryDescription(description: string): string[] | null {
  const m = /\b(?:CO\s*)?ENTRY(?:\s*DESCR?)?\s*:\s*(.*?)\s*(?=\bSEC\s*:|\bTRACE\b|\bIND\s*(?:NAME|ID)\b|\bORIG\b|\bCO\s*ID\b|\bDESC\s*DATE\b|$)/.exec(description.toUpperCase());
  if (!m) return null;
  return m[1].split(/\s+/).filter((w) => !/\d/.test(w)).map(ONLY_LETTERS).filter(Boolean);
}

/**
 * The company whose ACH credit's entry description is CREDIT (or CR) and nothing else ("ACH CREDIT
 * ORIG CO NAME:COUNTRY MALT GRP ... CO ENTRY DESCR:CREDIT SEC:CCD ..."), as its payee words (the
 * words `payeeWords` gives the debits that pay it); null for any other credit. The entry description
 * is the originator's own word for what the entry is: a supplier's credit to its customer says
 * CREDIT, a customer paying the merchant says what it pays ("INVOICES", "AP PMT"). The NACHA form of
 * `supplierCreditFrom`'s "<name> CREDIT" / "TYPE: CREDIT" (blind-20: a brewery's Country Malt credit).
 */
export function entryCreditFrom(description: string): string[] | null {
  if (classOf(description).processor) return null;
  const e = entryDescription(description);
  if (!e || e.length !== 1 || !/^(CREDIT|CR)$/.test(e[0])) return null;
  const name = payeeWords(description);
  return name.some((x) => x.length >= 4) && !name.some((x) => NOT_A_COMPANY_CREDIT.test(x)) ? name : null;
}

/**
 * The company whose ACH credit says it is that company's CREDIT MEMO (or CR MEMO) and nothing else,
 * as name words; null for any other credit. Two wordings: the NACHA entry description is CREDIT MEMO
 * ("CO: JOHNSTONE SUPPLY ENTRY DESCR: CREDIT MEMO SEC: CCD"), or the name follows the channel words
 * and CREDIT MEMO follows the name, then only numbers, field labels and SEC codes ("ACH CREDIT BEACON
 * BUILDING CREDIT MEMO CO ID 2840942655 CCD", "PREAUTHORIZED CREDIT AMERICAN TIRE DI CREDIT MEMO
 * 05930519"). A credit memo is the seller's document to its buyer: a company sending one is the
 * merchant's supplier giving money back, never a customer paying (every CREDIT MEMO credit in the
 * twenty corpora, 23, is a supplier's: vendor_refund). Only an ACH entry (ACH, PREAUTHORIZED, CO ID,
 * CCD, NACHA fields: words the company wrote, not the bank); not when CREDIT MEMO comes first (some
 * banks' code for any credit they post: "CREDIT MEMO WIRE FROM ..."), when anything else is said (a
 * payment, an invoice, a deposit, a wire, a chargeback, an adjustment, a rebate), or a processor's.
 */
export function companyCreditMemoFrom(description: string): string[] | null {
  const d = description.toUpperCase();
  if (!/\b(CREDIT|CR) MEMO\b/.test(d) || !ACH_ENTRY.test(d) || moneyBackFrom(description) === null || classOf(description).processor) return null;
  const e = entryDescription(description);
  let name: string[];
  if (e) {
    if (e.join(' ') !== 'CREDIT MEMO' && e.join(' ') !== 'CR MEMO') return null;
    const orig = /\bORIG(?:INATOR)?\s*CO(?:MPANY)?\s*NAME\s*:?\s*(.+?)\s*(?=\bORIG\s*ID\b|\bCO\s*ENTRY\b|\bENTRY\b|$)|\bCO\s*:\s*(.+?)\s*(?=\bENTRY\b|$)/.exec(d);
    if (!orig) return null;
    name = (orig[1] ?? orig[2]).split(/\s+/).filter((w) => !/\d/.test(w)).map(ONLY_LETTERS).filter((w) => w.length > 1);
  } else {
    const words = d.split(/\s+/).filter((w) => !/\d/.test(w)).map(ONLY_LETTERS).filter((w) => w.length > 1);
    const i = channelLead(words, 'CO');
    const at = words.findIndex((w, k) => k >= i && (w === 'CREDIT' || w === 'CR') && words[k + 1] === 'MEMO');
    if (at < 0) return null;
    name = words.slice(i, at);
    if (!words.slice(at + 2).every((w) => FIELD_LABEL.has(w) || SEC_CODE.has(w))) return null;
  }
  const named = name.filter((w) => !['INC', 'LLC', 'LTD', 'CORP', 'CO', 'COMPANY'].includes(w));
  if (!named.some((x) => x.length >= 4) || named.some((x) => CHANNEL.has(x) || NOT_A_NAME.has(x) || NOT_A_COMPANY_CREDIT.test(x) || GIVEN_BACK.test(x))) return null;
  return named;
}
