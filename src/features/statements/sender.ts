// Who sent a credit, as far as its words say: an organisation (a company by its legal form, a public
// body, a university or a hospital) or a person. Asked by the knowledge table of a row that settles a
// credit by what it cites (an invoice, a pay application: the "Customer payments" row, `"sender":
// "organisation"` in rule-table.ts) and by rules.ts `paidForByWire` (work billed).

/** An organisation's words: a company's legal form, a university, a hospital or health system, a public body. */
export const ORGANISATION = /\b(LLC|L\.L\.C|INC|INCORPORATED|CORP|CORPORATION|COMPANY|CO|LTD|LP|LLP|PLLC|PC|UNIVERSITY|UNIV|COLLEGE|HOSPITALS?|HEALTH|MEDICAL\s+CENTER|CLINIC|COUNTY|CITY|TOWN|VILLAGE|TOWNSHIP|STATE|SCHOOL|DISTRICT|DIST|ISD|USD|DEPT|DEPARTMENT|AUTHORITY|AGENCY|GOVT|GOVERNMENT|TREASURY|HOA|ASSOCIATION|ASSN)\b/;
/** ORGANISATION without the short words a wire's memo also writes for other things (CO, LP, PC, DIST, an HOA): for a wire's work billed (rules.ts `workBilled`). */
export const ORGANISATION_STRICT = /\b(LLC|L\.L\.C|INC|INCORPORATED|CORP|CORPORATION|COMPANY|LTD|PLLC|UNIVERSITY|COLLEGE|HOSPITALS?|HEALTH|MEDICAL\s+CENTER|CLINIC|COUNTY|CITY|TOWN|VILLAGE|TOWNSHIP|STATE|SCHOOL|DISTRICT|ISD|USD|DEPT|DEPARTMENT)\b/;

/** A person-to-person payment's channel: what a person pays a person with (a business's own name must say it is one). */
const P2P = /\b(ZELLE|VENMO|CASH\s?APP|SQUARE\s?CASH|SQC|APPLE\s?CASH|POPMONEY|P2P|PERSON\s?TO\s?PERSON)\b/;
/** A wire's, an instant payment's or a transfer's sender field: FROM, ORG:, B/O (by order of), ORIGINATOR. */
const SENDER_FIELD = /(?:\bFROM\b|\bFRM\b|\bB\/O\b|\bBY ORDER OF\b|(?:^|[\s\/])(?:ORG|ORIGINATOR)\s*[:=])\s*(.*)$/;
/** A wire's, an instant payment's or a transfer's channel: a person can send one as easily as a company. */
const PERSON_CHANNEL = /\b(WIRE|WT|FEDWIRE|RTP|FEDNOW|INSTANT\s+PAYMENT|TRANSFER|XFER|TFR)\b/;
/** What follows a sender's name in such a line: its reference fields, a billing document, the bank's words. */
const AFTER_NAME = /\b(INV\w*|INVOICE\w*|PAY\s?APP\w*|P\.?O\.?|PO|REF\w*|MEMO|OBI|BNF|CONF\w*|ID|TRN|IMAD|OMAD|FOR|RE|PMT|PAYMENT|PAYMT|PYMT|ON|VIA|TO|ACCT|ACCOUNT)\b|\d|[#:|;]/;

/**
 * Whether a credit's sender is plainly a person: a person-to-person channel (Zelle, Venmo, Cash App,
 * Apple Cash: "ZELLE FROM JOHN SMITH INV 1142"), or a wire, instant payment or transfer from a name
 * written as an individual's (two to four words, one of them an initial: "WIRE FROM JOHN A SMITH",
 * "RTP FROM SMITH J"), in either case with no organisation's word in the line (ORGANISATION: LLC,
 * INC, CORP, CO, a public body, a university, a hospital). A sender no line calls either (an ACH
 * company entry, a card payout) is not a person: an ACH credit's originator is a company.
 */
export function personSender(description: string): boolean {
  const d = description.toUpperCase();
  if (ORGANISATION.test(d)) return false;
  if (P2P.test(d)) return true;
  if (!PERSON_CHANNEL.test(d)) return false;
  const from = SENDER_FIELD.exec(d);
  if (!from) return false;
  const cut = AFTER_NAME.exec(from[1]);
  const name = (cut ? from[1].slice(0, cut.index) : from[1]).split(/[\s,.]+/).filter(Boolean);
  return name.length >= 2 && name.length <= 4 && name.every((w) => /^[A-Z'-]+$/.test(w)) && name.some((w) => w.length === 1) && name.some((w) => w.length >= 3);
}
