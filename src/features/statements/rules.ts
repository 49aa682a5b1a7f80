// What a bank statement's transaction descriptions mean for underwriting. Deposits that are not
// business revenue (transfers between the merchant's own accounts, loan and advance fundings,
// refunds and reversals), NSF and returned-item events, debits by known merchant-cash-advance
// funders (existing positions), and collection or recovery activity.

/** Known merchant-cash-advance funders, as they appear in ACH descriptions (upper case). */
export const MCA_FUNDERS: Array<{ name: string; pattern: RegExp }> = [
  ['Cobalt Merchant Funding', /COBALT\s+MERCHANT/],
  ['Rapid Finance', /RAPID\s+(FINANCE|ADVANCE|CAPITAL)/],
  ['Pearl Capital', /PEARL\s+(CAPITAL|BUSINESS\s+FUNDING)/],
  ['Yellowstone Capital', /YELLOWSTONE\s+CAP/],
  ['Libertas Funding', /LIBERTAS\s+FUND/],
  ['Forward Financing', /FORWARD\s+FINANC/],
  ['CAN Capital', /\bCAN\s+CAPITAL\b/],
  ['OnDeck', /\bON\s?DECK\b/],
  ['Kapitus', /\bKAPITUS\b/],
  ['Credibly', /\bCREDIBLY\b/],
  ['Everest Business Funding', /EVEREST\s+BUSINESS/],
  ['Fox Capital', /\bFOX\s+CAPITAL\b/],
  ['Mantis Funding', /\bMANTIS\s+FUND/],
  ['Greenbox Capital', /GREENBOX\s+CAP/],
  ['Vox Funding', /\bVOX\s+FUND/],
  ['Fundkite', /\bFUNDKITE\b/],
  ['Bizfund', /\bBIZFUND\b/],
  ['CFG Merchant Solutions', /\bCFG\s+MERCHANT/],
  ['Itria Ventures', /\bITRIA\b/],
  ['Lendini', /\bLENDINI\b/],
].map(([name, pattern]) => ({ name: name as string, pattern: pattern as RegExp }));

const TRANSFER = /\b(TRANSFER|XFER|TRNSFR)\b.*\bFROM\b|\bFROM\s+(CHK|CHECKING|SAV|SAVINGS|ACCT|ACCOUNT)\b|\bINTERNAL\s+TRANSFER\b|\bONLINE\s+TRANSFER\b|\bBOOK\s+TRANSFER\b/;
const LOAN = /\bLOAN\b|\bSBA\b|\bLINE\s+OF\s+CREDIT\b|\bLOC\s+(ADVANCE|DRAW)\b|\bADVANCE\s+(FUNDING|PROCEEDS)\b|\bFUNDING\s+(PROCEEDS|DEPOSIT)\b|\bPROCEEDS\b/;
const REFUND = /\bREFUND\b|\bREVERSAL\b|\bREVERSED\b|\bCHARGEBACK\b|\bRETURN(ED)?\s+(ITEM\s+)?CREDIT\b|\bADJUSTMENT\s+CREDIT\b|\bREBATE\b/;
const NSF = /\bNSF\b|NON[-\s]?SUFFICIENT|INSUFFICIENT\s+FUNDS|\bRETURN(ED)?\s+ITEM\b(?!\s+CREDIT)|\bUNPAID\s+ITEM\b/;
const RECOVERY = /\bRECOVERY\b|\bCOLLECTIONS?\b|\bDEFAULT\b/;

export type DepositKind = 'revenue' | 'transfer' | 'loan' | 'refund';

export function depositKind(description: string): DepositKind {
  const d = description.toUpperCase();
  if (REFUND.test(d)) return 'refund';
  if (TRANSFER.test(d)) return 'transfer';
  // A deposit from a known funder is an advance's proceeds.
  if (LOAN.test(d) || MCA_FUNDERS.some((f) => f.pattern.test(d))) return 'loan';
  return 'revenue';
}

export const isNsf = (description: string) => NSF.test(description.toUpperCase());
export const isRecovery = (description: string) => RECOVERY.test(description.toUpperCase());

/** The known funder a debit pays, if any (collections by a recovery agency are not a position). */
export function mcaFunder(description: string): string | null {
  const d = description.toUpperCase();
  if (RECOVERY.test(d)) return null;
  return MCA_FUNDERS.find((f) => f.pattern.test(d))?.name ?? null;
}
