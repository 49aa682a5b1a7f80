import { minutesSections, splitCells } from './text';
import * as V from '../vocabulary';

/** (holdout28) The broker's own side (vocabulary.ts BROKER_SIDE): the closer, the comp sheet, the ISO's agreement or W-9. */
export const BROKER_SIDE_RE = new RegExp(`\\b(?:${V.BROKER_SIDE.join('|')})\\b`, 'i');

// ---------------------------------------------------------------- requested items

// (rfix7) the shorthand of a phone: "a voided chk", "a pic of the storefront"
// (rfix11) ... and a statement asked by its place in the run: "the 4th month", "a fourth month"
// (rfix10) words, not parts of words: "please" holds no lease, "above-referenced" no references
// (rfix12) a contractor's schedule of its jobs: "their WIP schedule", "a work-in-progress report", "the backlog report"
export const DOC_WORDS =
  /statement|\bmtd\b|month[- ]to[- ]date|voided? (?:business |bank |company |operating )?(?:check|chk|cheque)|\bvoid\b|\bvc\b|driver'?s?'? licen[cs]e|\bdl\b|photo id|\bid\b|passport|\bssn\b|social security|landlord|\bleases?\b|mortgage|tax returns?|tax rtns?|\bp&l\b|profit (and|&) loss|balance sheet|application|\bapp\b|ownership|articles|\bk-1\b|\bein\b|\bw-?9\b|\bss-?4\b|processing|payoff|zero balance|paid[- ]in[- ]full|(?:satisfaction|release) letter|verification|bank login|decision ?logic|plaid|photos?|pictures?|\bpics?\b|inspection|\breferences?\b|invoices?|\ba\/r\b|receivables|aging|licen[cs]e|utility bill|insurance|debt schedule|balance|contact|phone number|interview|form\b|signature|signed|attachment|package|\bfile\b|\bdocs\b|\bdob\b|proof of|\bstmts?\b|receipts|\b(last|past|most recent) \d{1,2} months\b|^\d{1,2} (more )?months\b|password|unlocked|unprotected|login credentials|\b(january|february|march|april|june|july|august|september|october|november|december|jan|feb|apr|jun|jul|aug|sept?|oct|nov|dec)\b|\bauthority\b|\bauthori[sz]ation\b|\bvins?\b|equipment (list|schedule)|\bwip\b|work[- ]in[- ]progress (?:schedule|report)|\bbacklog (?:schedule|report)\b|\b(?:job|jobs|contracts?) schedule\b|\bifta\b|\breturns\b|\bquarters?\b|\btitles?\b|\bregistrations?\b|\bpermits?\b|\bcertificates?\b|\bcoi\b|\b(?:irs )?(?:form )?(?:8821|4506-?[ct]?)\b|\btax ?guard\b|\btax transcripts?\b|\bletters? of explanation\b|\bloe\b|\bexplanation (?:of|for)\b|\bdocumentation\b|\b(?:brewer'?s|tax|lien|levy|irs|state|licen[cs]e) notices?\b|\b(mc|dot|usdot) (number|#|authority)|\b(?:\d(?:st|nd|rd|th)|third|fourth|fifth|sixth) months?\b/i;

/** (rfix10) Words that do not tell one item from another. */
const SAME_ITEM_STOP = new Set(['the', 'a', 'an', 'of', 'copy', 'for', 'from', 'on', 'to', 'please', 'send', 'us', 'me', 'your', 'their', 'his', 'her', 'our', 'full', 'complete', 'current', 'most', 'recent']);

/** (rfix10) Why an item is asked, after it: "now that it has closed", "to see if it has cleaned up", "since the app is old". */
// (rfix14) ... a phone's "bc" / "b/c" / "cuz" too: "the last 2 square stmts bc half the sales r card"; and where the lender goes on
// to ask something else ("the October statement and please confirm whether ..."; what to confirm is read on its own)
const WHY_AFTER = /\s+(?:now that|to see|to (?:confirm|verify|make sure|check)|since|because|bc|b\/c|cuz|cause|(?:and )?(?:please|pls|kindly) (?:also )?(?:confirm|advise|let (?:me|us) know|tell (?:me|us)))\b.*$/i;

/**
 * (rfix10) Another funder's contract or agreement, named by the funder ("the Fundworks contract", "their Bitty agreement"):
 * a document of the file. The lender's own "contract request" or "the contract" to sign is a closing step, no stip asked.
 */
const FUNDER_CONTRACT = /(?:^|\s)(?:the |their |his |her |its )?(?!(?:The|Their|His|Her|Its|Our|Your|Signed|Executed|Final|Funding|Purchase|Operating|ISO|Merchant|Sales?|Receivables?|Revenue|Loan|Security|Guaranty|Guarantee|Master|ACH|Renewal|Financing|Advance|MCA|Lease|Services?|Participation|Broker|Referral|Partnership|Shareholder|Franchise)\b)[A-Z][\w&'-]+ (?:contract|agreement)s?\b(?! request)/;

/** (holdout23) A letter explaining a deposit names its amount: "a letter of explanation for the $48k transfer" is still an item. */
// (revE) ... and a payoff letter names the balance it pays off: "the $12,500 payoff letter from Kapitus", "payoff for the $12,000
// OnDeck balance" (a balance to clear, never an offer's figure)
const EXPLAINS_AMOUNT = /^(?:an? |the )?(?:signed |written )?(?:letters? of explanation|loe|explanation)\b|^(?:an? |the )?(?:current |updated |signed )?(?:\$[\d,.]+k? )?payoff (?:letters?|statements?|quotes?)\b|^(?:an? |the )?payoff (?:letters? )?(?:for|on) (?:the |their |its |his |her )?\$[\d,.]+k? [\w&'-]+(?: [\w&'-]+)? (?:balance|advance|position|loan)\b/i;

// (rfix8) a formal letter numbers its requests in roman numerals: "(i) the month-to-date statement; (ii) ..."
const BULLET = /^\s*(?:[-*\u2022\u00b7\u25aa\u25ba>o]|\d{1,2}[.)]|\(\d{1,2}\)|\(?[a-h][.)]|\((?:i{1,3}|iv|vi{0,3}|ix|x)\)|(?:i{1,3}|iv|vi{0,3}|ix|x)\))\s+(.+)$/;
/** (rfix25) A count of months and nothing else: "3 mos", "the last 4 months", "6 mths" (see requestedItems). */
const BARE_MONTHS = /^\s*(?:the )?(?:last |latest |most recent |recent |prior |previous )?\d{1,2}\s*(?:mos?|months?|mths?)\.?\s*$/i;
const LIST_TRIGGER = /\b(need|needs|needed|send|provide|missing|stips?|stipulations|required|requires|following|items|outstanding|conditions|before|requested|please|things|docs|documents|first|necesit\w*|faltan?|pendientes?|documentos|siguientes?|requisitos)\b/i;

/** A checklist line: "[ ] Voided check", "- [x] Signed app", "☐ Lease", "☑ Bank statements" (group 1 blank when open). */
// (holdout42) ... its box in a table cell of its own ("☐ | Voided business check", "☐: Voided business check" once joined)
const CHECKBOX = /^\s*(?:[-*]\s+)?(\[ ?\]|☐|\[[xX✓✔]\]|[☑☒✅])\s*(?:[:|]\s*)?\s(.+)$/;
/** (rfix10) A list entry explaining, then asking in its last sentence: "X only has Y. Can you send Z?", "... Please send Z." */
const ENTRY_ASKS_LAST = /[a-z0-9)"'][.!]\s+(?:(?:can|could|would) you (?:please )?|please )(?:send|get|provide|forward|upload|resend)(?: (?:me|us|over))? ([^.!?]+?)[.!?]?\s*$/i;
/** (rfix10) A numbered row label of a stip card, alone on its line: "Condition 1", "Stip 2:", "Outstanding 3", "Item #4". */
const ROW_LABEL_ALONE = /^\s*(?:stip|stipulation|item|condition|requirement|doc(?:ument)?|outstanding|required|missing)\s*#?\s*\d{1,2}\s*:?\s*$/i;
/**
 * (rfix10) A stip's status as lenders' lists and portals write it: still open ("Requested", "Awaiting", "Still needed", "Due by
 * Friday", "Not yet received") or already in ("Uploaded", "Verified", "Accepted", "Provided", "N/A").
 */
const OPEN_STATUS = String.raw`(?:outstanding|missing|(?:still )?needed|required|open|pending|not (?:yet )?received|requested|awaiting|waiting|due|to follow|not provided|incomplete)(?:\s+(?:by|on|before)\b[^)|]*)?`;
const IN_STATUS = String.raw`(?:received|cleared|satisfied|waived|complete[d]?|on file|in file|done|rec'?d|approved|verified|accepted|uploaded|provided|in hand|n\/a|not needed|not required)`;
const STILL_OPEN = new RegExp(`^${OPEN_STATUS}$`, 'i');
/** (rfix10) A line of a stip status list that is no table: "Voided check - Requested", "Signed app: Received", "MTD (awaiting)". */
const STATUS_LINE = new RegExp(`^\\s*(?:(?:[-*\u2022]|\\d{1,2}[.)])\\s+)?(\\S.{1,80}?)(?:\\s+[-\u2013\u2014]\\s+|\\s*:\\s+|\\s*\\(\\s*)(?:(${OPEN_STATUS})|(${IN_STATUS})\\b(?:\\s+\\d{1,2}\\/\\d{1,2}(?:\\/\\d{2,4})?)?)\\s*\\)?[.;]?\\s*$`, 'i');

/**
 * (rfix23) A bilingual rep's item, Spanish with its English after it in brackets ("estados de cuenta de octubre (October bank
 * statements)", "copia de la identificación del dueño (owner's ID, front and back)"): the English is the item as the broker
 * files it. Only Spanish before the brackets and none inside: an English item's aside stays as it was.
 */
const SPANISH_WORDS = /(?:^|[\s(])(?:de|del|la|las|los|el|una?|y|copia|copias|estados?|cuenta|cuentas|identificaci[o\u00f3]n|due\u00f1[oa]|recibos?|facturas?|contratos?|cheque|anulado|meses|mes|[\w]*ci[o\u00f3]n)(?=[\s,.)]|$)|[\u00e1\u00e9\u00ed\u00f3\u00fa\u00f1]/i;
const GLOSSED = /^(.+?)\s*\(([^()]{3,80})\)[\s.;,:!]*$/;
function englishGloss(s: string): string {
  const m = GLOSSED.exec(s);
  if (!m || !SPANISH_WORDS.test(m[1]) || SPANISH_WORDS.test(m[2]) || !/[a-z]{2}/i.test(m[2])) return s;
  return m[2];
}

function cleanItem(s: string): string {
  return englishGloss(s)
    // (rfix14) a phone's "n" is its "and" ("dl front n back, n the last 2 square stmts")
    .replace(/^\s*(?:and|also|plus|then|either|n)\s+/i, '')
    .replace(/^\s*(?:the|a|an|us|me|over|your|their|its|all)\s+/i, '')
    // (rfix21) Spanish around the trade's English word: a photo or copy of a document is the document ("foto del driver's
    // license"), the owner's named after it ("driver's license del dueño" is the owner's driver's license)
    .replace(/^\s*(?:el|los|las|una?)\s+(?=\S)/i, '')
    .replace(/^\s*(?:foto|fotos|copia|copias|fotocopia|imagen|scan)\s+(?:de(?:l| la| los| las)?)\s+/i, '')
    .replace(/^(.+?)\s+(?:del|de la)\s+(?:due\u00f1[oa]|duen[oa]|propietari[oa]|owner)\s*$/i, "owner's $1")
    .replace(/^\s*(?:the|a|an)\s+/i, '')
    // (holdout28) an explanation in brackets after the item is no part of it: "copy of the shop lease (they list a landlord
    // but the app shows the owner's home address)", "July bank statement (package only has Aug-Oct)"
    // (rfix8) ... but the sides of an ID are part of it: "driving license (front and back side)"
    .replace(/\s*\((?!front\b)(?:[^()\s]+\s+){3,}[^()]*\)[\s.;,:!]*$/, '')
    // (rfix14) ... nor a dash left where the lender went on ("an explanation for the $40,000 deposit on 9/14 - if it is a loan ...")
    .replace(/[\s.;,:!]+$/, '')
    .replace(/\s+[-\u2013\u2014]$/, '')
    // (holdout12) "the July statement as well": an item's trailing "as well", "too", "also" is no part of it
    // (rfix10) ... nor a trailing "pls", "please", "asap" ("an MTD pls")
    .replace(/,?\s+(?:as well|too|also|pls|plz|please|asap|thx|thanks)$/i, '')
    .trim();
}

function splitList(s: string): string[] {
  // (holdout23) a comma between digits is a thousands separator, no list break: "an LOE for the $22,500 wire"
  // numbered inline: "(1) voided check (2) 3 months statements (3) DL", "1) signed app 2) voided check"
  const numbered = s.split(/(?:^|\s+)\(?\d{1,2}[).]\s+/);
  // (holdout36) an explanation in brackets inside the list is no part of any item, and "and either X or Y" starts the next
  // item, X or Y one item: "proof of ownership (articles or a K-1 showing 51%+) and either a landlord letter or a mortgage statement"
  s = s.replace(/\s*\((?:[^()\s]+\s+){2,}[^()]*\)(?=\s+(?:and|plus|&)\s)/g, '').replace(/\s+and\s+either\s+/gi, ', ');
  if (numbered.length >= 3) return numbered.map(cleanItem).filter((p) => p.length > 1);
  // (rfix10) ", or a signed consent" offers another way to the same item, no item of its own; "and their last 2 months"
  // starts the next item as "and the" does, as does "as well as"; a phone's "n" is its "and" ("copy of dl n a voided", "stmts n
  // mtd thru fri")
  // (rfix15) ... and so does "and" before a document's shorthand ("need MTD and landlord ltr")
  const raw = s.includes(';') ? s.split(/\s*;\s*/) : s.split(/\s*,(?!(?<=\d,)\d{3}(?!\d))(?!\s*(?:or|alternatively)\b)\s*(?:and\s+)?|\s+and\s+(?:also\s+)?(?=(?:a|an|the|their|his|her|your|its|copy|signed|last|most|current|payoff|proof|mtd|dl|landlord|voided|lease|\d)\b)|\s+n\s+(?=(?:a|an|the|\w+ (?:of|for)|mtd|dl|vc|app|voided|signed|last|\d)\b)|\s+&\s+|\s+\+\s+|\s+plus\s+|,?\s+as well as\s+|\s+y\s+(?=\S)/i);
  // (holdout28) a bare year shares the item after it: "24 + 25 biz tax returns", "2024 and 2025 business tax returns"
  const parts: string[] = [];
  for (let i = 0; i < raw.length; i++) {
    if (/^\s*(?:'?\d{2}|\d{4})\s*$/.test(raw[i]) && /^\s*(?:'?\d{2}|\d{4})\s+\D/.test(raw[i + 1] ?? '')) parts.push(`${raw[i].trim()} + ${raw[++i].trim()}`);
    else parts.push(raw[i]);
  }
  return parts.map(cleanItem).filter((p) => p.length > 1);
}

// (rfix8) A status beside an item in a stip list or table ("Signed application - RECEIVED", "Voided check: Cleared"):
// the ones already in are no request; the open ones are asked for, their status no part of the item.
// (rfix14) ... also in square brackets, as a portal's checklist prints it ("Voided business check [OUTSTANDING]", "Bank statements [RECEIVED]")
const STATUS_IN = new RegExp(`\\s*(?:[-\u2013\u2014:|]\\s*|[([]\\s*)${IN_STATUS}\\b(?:\\s+\\d{1,2}\\/\\d{1,2}(?:\\/\\d{2,4})?)?\\s*[)\\]]?\\s*$`, 'i');
const STATUS_OPEN = new RegExp(`\\s*(?:[-\u2013\u2014:|]\\s*|[([]\\s*)${OPEN_STATUS}\\s*[)\\]]?\\s*$`, 'i');
/** (rfix8) An item that only points at a list written elsewhere ("provide below documents", "the same", "the needful"). */
const POINTER_ITEM = /^(?:the\s+)?(?:below|above|said|same|needful|aforementioned|mentioned)\b/i;
/**
 * (rfix10) The documents as a whole, where they go or come from: a portal's "Upload documents to the file in the portal",
 * "Upload items in the broker desk under the file", "documents from the application page", or the package the list that
 * follows makes up ("I'll need the full-doc package:", "from a complete package"): no item of its own.
 */
const GENERIC_ITEM = /^(?:(?:the|all|any|your|these|those|remaining|outstanding|requested|missing|required|open|pending|needed|full(?:[- ]doc)?|complete|whole|entire|additional|further|more|supporting)\s+)*(?:documents?|docs|documentation|items|stips|stipulations|conditions|paperwork|files?|package|info(?:rmation)?)(?:\s+(?:to|in|into|on|onto|from|under|via|through|at|with|for)\b.*)?$/i;
/** (rfix10) A clause, not a thing: "the file will return to the underwriting queue automatically" (a subject and what it will do). */
const CLAUSE_ITEM = /^(?:the |this |your |our )?(?:file|deal|merchant|application|it|we|you|they|he|she|underwriting|uw)\s+(?:will|would|shall|can|could|should|must|may|might|gets?|goes|returns?|moves?)\b/i;

/**
 * (rfix8) An item as an underwriter logs it: the row label of a stip table or list is no part of it ("Stip 3 - Bank
 * verification", "Condition 2: Lease"), nor is its open status ("Voided check - OPEN"); a term spelled out before its
 * abbreviation is the abbreviation ("Month to date (MTD) statement"); "front and back side" of an ID is its front and back;
 * the British "driving licence" is a driver's license; one item naming two documents names
 * its article once ("the permit and the license"); and the "and" that joins the next list entry is no part of this one ("a current payoff letter; and").
 */
export function plainItem(s: string): string {
  return s
    .replace(/^\s*(?:stip|stipulation|item|condition|requirement|doc(?:ument)?|outstanding|open|pending|missing|required)\s*#?\s*\d{1,2}\s*[-\u2013\u2014:.)]\s*/i, '')
    .replace(STATUS_OPEN, '')
    .replace(/\b((?:[a-z][a-z'&]*[\s-]+){1,4}[a-z][a-z'&]*)\s*\(([A-Za-z&]{2,6})\)/gi, (all, words: string, abbr: string) => {
      const ws = words.toLowerCase().split(/[\s-]+/);
      const want = abbr.toLowerCase().replace(/&/g, '');
      const initials = (list: string[]) => list.map((w) => w[0]).join('');
      return initials(ws) === want || initials(ws.filter((w) => !/^(?:and|of|&)$/.test(w))) === want ? abbr : all;
    })
    .replace(/\bfront and back sides?\b/gi, 'front and back')
    // (rfix15) a phone's shorthand for a letter: "landlord ltr", "payoff ltr"
    .replace(/\bltr\b/gi, 'letter')
    .replace(/\bdriving licen[cs]e\b/gi, "driver's license")
    .replace(/(\w) and the (?=\w)/g, '$1 and ')
    .replace(/[\s,;]+(?:and|or)$/i, '')
    .trim();
}

/**
 * (rfix13) Whether an item of a growing list names a word the way `\bword\b` (case aside) finds it: a word of letters and
 * digits is one of an item's runs of word characters, read once per item into a set; a word with an apostrophe ("owner's") is
 * looked for in each item once, its answer kept (the list only grows, so a word once found stays found).
 */
function wordsNamed(items: string[]): { has(word: string): boolean } {
  const runs = new Set<string>();
  let read = 0;
  const other = new Map<string, { read: number; found: boolean }>();
  return {
    has(word: string): boolean {
      if (/^[a-z0-9]+$/.test(word)) {
        for (; read < items.length; read++) for (const r of items[read].match(/\w+/g) ?? []) runs.add(r.toLowerCase());
        return runs.has(word);
      }
      const o = other.get(word) ?? { read: 0, found: false };
      other.set(word, o);
      if (!o.found) {
        const re = new RegExp(`\\b${word}\\b`, 'i');
        for (; o.read < items.length && !o.found; o.read++) o.found = re.test(items[o.read]);
      }
      return o.found;
    },
  };
}

/**
 * (rfix13) The word sets of the items kept, asked whether a new item's words lie within one of them or one of them within the
 * new item's. An item found within a kept one shares its rarest word, so only the kept items holding that word are looked at;
 * a kept item within the new one has its own chosen word among the new one's, so each kept item is filed under one word of
 * its own (its rarest when filed) and only the files of the new item's words are looked at. A kept item of no words lies
 * within every item.
 */
function keptItems(): { add(w: Set<string>): void; within(w: Set<string>): boolean } {
  const holding = new Map<string, Array<Set<string>>>();
  const filed = new Map<string, Array<Set<string>>>();
  let empty = false;
  const push = (m: Map<string, Array<Set<string>>>, x: string, w: Set<string>) => {
    const l = m.get(x);
    if (l) l.push(w);
    else m.set(x, [w]);
  };
  const sub = (a: Set<string>, b: Set<string>) => {
    for (const x of a) if (!b.has(x)) return false;
    return true;
  };
  const rarest = (w: Set<string>) => {
    let best = '';
    let n = Infinity;
    for (const x of w) {
      const c = holding.get(x)?.length ?? 0;
      if (c < n) [best, n] = [x, c];
    }
    return best;
  };
  return {
    add(w) {
      if (!w.size) {
        empty = true;
        return;
      }
      push(filed, rarest(w), w);
      for (const x of w) push(holding, x, w);
    },
    within(w) {
      if (empty) return true;
      if ((holding.get(rarest(w)) ?? []).some((k) => sub(w, k))) return true;
      for (const x of w) if ((filed.get(x) ?? []).some((k) => sub(k, w))) return true;
      return false;
    },
  };
}

/**
 * (rfix22) An inline numbered list inside a sentence ("we need the merchant to (1) connect their operating account through Plaid
 * and (2) upload the 2025 business tax return"), hard-wrapped so a later number may open a line: one sentence again, the numbers
 * dropped after a joining word or a mark ("to", "and", "or", a colon, a table's bar) and read as a comma elsewhere ("need: (1) voided check (2) DL"), so the
 * verbs and the commas split its items. Read only when "(1)" stands inside a line; a list whose numbers open its lines stays one.
 */
function unnumberInline(own: string): string {
  if (!/\S[ \t]+\(1\)[ \t]+\S/.test(own)) return own;
  // (a table's cell gap before the number, a tab or spaces, is kept: "Items Needed\t(1) July statement; (2) ...")
  return own.replace(/(\w+|[^\w\s])([ \t]*(?:\n[ \t]*)?)\(\d{1,2}\)[ \t]+(?=\S)/g, (_all, prev: string, gap: string) => {
    const g = gap.includes('\n') ? ' ' : gap || ' ';
    // (revE) ... or after the verb asking for them: "need (1) 40k payoff letter (2) 3 months statements" asks for both
    return /^(?:to|and|or|[^\w\s]|needs?|needed|send|provide|upload|submit|forward|require[sd]?|missing)$/i.test(prev) || /\t| {2,}/.test(gap) ? `${prev}${g}` : `${prev},${g}`;
  });
}

/** (rfix22) A note asked on something ("a line on the 10/22 wire", "a quick word about the March dip"): an explanation of it. */
const NOTE_ON = /^(?:an? |the )?(?:quick |short |brief |one )?(?:line|word|note|sentence|couple (?:of )?lines|few lines) (?:on|about|re|regarding|explaining) (?=\S)/i;

export function requestedItems(own0: string): { items: string[]; hits: string[]; brokerSide: string[] } {
  const own = unnumberInline(own0);
  const rawLines = own.split('\n');
  const lines = rawLines.map((l) => {
    const c = splitCells(l);
    // (holdout42) a label cell keeps its own colon once ("Stip 1: | October statement" is "Stip 1: October statement")
    return c.length === 2 && c[0] && c[1] ? `${c[0].replace(/\s*:\s*$/, '')}: ${c[1]}` : l;
  });
  const items: string[] = [];
  const hits: string[] = [];
  const inList = new Set<number>();
  // 0. a stip table with a status column: the rows still outstanding ("2 | Driver's license | Outstanding")
  for (let i = 0; i < lines.length; i++) {
    const c = splitCells(rawLines[i] ?? '');
    if (c.length < 2 || !c.some((x) => STILL_OPEN.test(x))) continue;
    const doc = c.find((x) => !STILL_OPEN.test(x) && !/^#?\d{0,3}$/.test(x) && DOC_WORDS.test(x));
    if (!doc) continue;
    inList.add(i);
    items.push(cleanItem(doc));
    hits.push(`open row "${doc}"`);
  }
  // 0a. (rfix10) a stip status list written as lines, no table ("Signed application - Received", "Voided check - Requested",
  // "MTD statement (awaiting)"): two or more such lines; the open ones are asked for, the ones in are no request
  const statusLines = lines.map((l, i) => (inList.has(i) ? null : STATUS_LINE.exec(l))).map((m) => (m && DOC_WORDS.test(m[1]) ? m : null));
  if (statusLines.filter(Boolean).length >= 2) {
    statusLines.forEach((m, i) => {
      if (!m) return;
      inList.add(i);
      if (!m[2]) return;
      items.push(cleanItem(m[1]));
      hits.push(`open row "${m[1].trim()}"`);
    });
  }
  // 0b. (holdout29) a pasted checklist ("[x] Signed application", "[ ] Voided business check", "☐ Lease"): the boxes
  // still open are what is asked for, the ticked ones are in; read only with a document among the open boxes
  const boxes = lines.map((l) => CHECKBOX.exec(l));
  const open = boxes.map((m, i) => (m && /^(?:\[ ?\]|☐)$/.test(m[1]) ? i : -1)).filter((i) => i >= 0 && !inList.has(i));
  if (open.some((i) => DOC_WORDS.test(boxes[i]![2]))) {
    boxes.forEach((m, i) => m && inList.add(i));
    for (const i of open) items.push(cleanItem(boxes[i]![2]));
    hits.push(`checklist: ${open.length} open box${open.length > 1 ? 'es' : ''}`);
  }
  // 0c. (rfix10) a portal card: a numbered row label alone on its line ("Condition 1", "Stip 2:", "Outstanding 3"), the
  // document on the next line written ("Condition 1\n\nBank login via Plaid")
  for (let i = 0; i < lines.length; i++) {
    if (inList.has(i) || !ROW_LABEL_ALONE.test(lines[i])) continue;
    let j = i + 1;
    while (j < lines.length && !lines[j].trim()) j++;
    if (j >= lines.length || inList.has(j) || ROW_LABEL_ALONE.test(lines[j]) || !DOC_WORDS.test(lines[j])) continue;
    inList.add(i);
    inList.add(j);
    items.push(cleanItem(lines[j]));
    hits.push(`card "${lines[i].trim()}"`);
  }
  // (rfix30) meeting minutes: the agenda's and the discussion's bullets are what was said, not asked; elsewhere in the minutes an
  // entry is an item only when it names a document (never a task for the lender's own people, "Kelsey: follow up with ISO
  // Friday", a lead-in to the items under it, "ISO to provide:", nor a pointer to them, "No decision until docs below are in")
  const sections = minutesSections(lines);
  const minutesItem = (e: string) => (DOC_WORDS.test(e) || !/^[A-Z][\w.'-]*(?: [A-Z][\w.'-]*)?\s*[:-]\s/.test(e)) && !/:\s*$/.test(e) && !/\b(?:docs|documents|items|stips|paperwork) (?:below|above|listed)\b/i.test(e);
  // 1. bulleted / numbered lists, introduced by a request or made of documents
  for (let i = 0; i < lines.length; i++) {
    if (!BULLET.test(lines[i]) || inList.has(i)) continue;
    const block: number[] = [];
    let j = i;
    while (j < lines.length) {
      if (BULLET.test(lines[j])) block.push(j++);
      else if (!lines[j].trim() && j + 1 < lines.length && BULLET.test(lines[j + 1])) j++; // one blank line between items
      else break;
    }
    let k = i - 1;
    while (k >= 0 && !lines[k].trim()) k--;
    const intro = k >= 0 ? lines[k] : '';
    const entries = block.map((n) => (BULLET.exec(lines[n])?.[1] ?? '').trim()).filter((e) => !sections || minutesItem(e));
    if (sections && (sections[i] === 'talk' || !entries.length)) {
      for (const n of block) inList.add(n);
      i = j - 1;
      continue;
    }
    const docs = entries.filter((e) => DOC_WORDS.test(e)).length;
    const looksLikeTerms = entries.filter((e) => /\$\s?\d|\b1\.\d{2}\b/.test(e)).length > entries.length / 2;
    // (rfix24) a letter's numbered paragraphs ("1. We acknowledge receipt of the above-referenced submission ... 2. Pursuant to
    // our guidelines, W&T does not purchase ..."), no request introducing them: prose, each a sentence or more, not a stip list
    // (a paragraph that asks is still read by the rules below, its own lettered clauses or sentence)
    const paragraphs = entries.filter((e) => e.split(/\s+/).length >= 14 && /[.;]["')\]]?$/.test(e) && /^(?:we|i|our|the|this|it|in|pursuant|having|without|upon|accordingly|subject|nothing|for|as|w&t|[a-z&]+ (?:is|has|shall|will|must|would|does|acknowledges?|writes?))\b/i.test(e)).length;
    const letterParagraphs = !(LIST_TRIGGER.test(intro) && /[:-]\s*$|need|following/i.test(intro)) && entries.length >= 2 && paragraphs * 2 > entries.length;
    if (!looksLikeTerms && !letterParagraphs && ((LIST_TRIGGER.test(intro) && /[:-]\s*$|need|following/i.test(intro)) || docs * 2 >= entries.length)) {
      for (const n of block) inList.add(n);
      // (rfix10) an entry that explains and then asks for a document ("- The package only has September and October
      // statements. Can you send July and August?"): the item is what it asks for, not the whole entry
      for (const e of entries) items.push(cleanItem(ENTRY_ASKS_LAST.exec(e)?.[1] ?? e));
      hits.push(`list of ${entries.length} after "${intro.trim().slice(0, 60)}"`);
    }
    i = j - 1;
  }
  // 1b. (rfix24) a request heading alone on its line ("Please upload", "Documents required", "Still needed:"), the documents on the
  // lines under it with no bullets (a table's rows flattened, one a line): each line an item, up to a blank line. Every line must
  // name a document and be short (a line of prose ends the block and nothing is read)
  const HEADING_ALONE = /^\s*(?:please (?:upload|send|provide|submit|forward|email)(?: (?:us|me|the following|over))?|(?:additional |outstanding |open |remaining |missing )?(?:documents|docs|items|stips|stipulations|conditions) (?:required|needed|requested|outstanding|to upload|to send)|(?:still )?(?:needed|required|outstanding|missing)|(?:stips|items|documents|docs) (?:still )?(?:open|outstanding|pending))\s*:?\s*$/i;
  for (let i = 0; i < lines.length; i++) {
    if (inList.has(i) || !HEADING_ALONE.test(lines[i])) continue;
    const block: number[] = [];
    for (let j = i + 1; j < lines.length && lines[j].trim() && !inList.has(j) && !BULLET.test(lines[j]); j++) block.push(j);
    const ok = block.length >= 2 && block.every((n) => DOC_WORDS.test(lines[n]) && lines[n].trim().split(/\s+/).length <= 12 && !/[.!?]\s*\S/.test(lines[n].trim()) && !/\$\s?\d/.test(lines[n]));
    if (!ok) continue;
    inList.add(i);
    for (const n of block) {
      inList.add(n);
      items.push(cleanItem(lines[n]));
    }
    hits.push(`lines under "${lines[i].trim()}"`);
    i = block[block.length - 1];
  }
  // 2. "Items requested: a; b; c" / "Stips: a, b, c" on one line
  // (rfix27) ... and the main ones of a stip list kept elsewhere: "Screenshot of the full stip list is attached. Main ones: the TTB
  // permit and a year-end P&L", "conditions are in the portal, the big ones: ..."
  const inlineRe = /\b((?:stips?|stipulations|conditions|items|documents|docs)\b[^:\n]{0,60}?\b(?:main|key|big|biggest|important|major|top|critical) (?:ones|items|stips|things|docs|documents)|items? (?:requested|needed|required)|stips?(?: needed| required| to fund| outstanding)?|stipulations|missing(?: items)?|need(?:ed)?(?: \w+)?|item \d{1,2}|(?:condition|stip|requirement|document|doc|outstanding|open|pending|missing) #?\d{1,2}|required(?: \d{1,2}| documents)?|conditions(?: prior to funding)?|pending(?: the following| receipt of)?|awaiting(?: the following| receipt of)?|before (?:we|i) (?:can )?(?:price|fund|approve|decide|move|go|issue|send)(?: it| this| that| the (?:file|deal|offer|contracts?))?)\s*:\s*(\S.+)$/i;
  // (holdout11) a request sentence ending in a colon before the items: "UW wants two things before they will give me a
  // number: a payoff letter on the Rapid position, and the last 2 months of Square reports (she runs ...)"
  // (holdout13) or counting them: "a couple things before UW will open it up: landlord info (...), last 3 months of ..."
  const askColonRe = /\b((?:needs?|wants?|requires?|asking for|is missing|are missing|provide|send|upload|submit|forward|share|(?:pending|open|outstanding|remaining|missing) (?:items|stips|conditions|documents|docs)|(?:a )?(?:couple(?: of)?|few|two|three|four|several) (?:more )?(?:things|items|docs|documents|pieces|stips))\b[^:\n]{0,60}?)\s*:\s*(\S.+)$/i;
  for (let i = 0; i < lines.length; i++) {
    if (inList.has(i)) continue;
    const m = inlineRe.exec(lines[i]) ?? askColonRe.exec(lines[i]);
    if (!m) continue;
    // (holdout43) a list hard-wrapped inside its sentence goes on to the next line ("two things: a payoff letter from Kapitus,
    // and a written\nexplanation from the owner for ..."): a line ending with no stop, the next opening in lower case
    let tail = m[2];
    for (let k = i + 1; k < Math.min(lines.length, i + 3) && !/[.!?:;]\s*$/.test(tail) && /^[ \t]*[a-z]/.test(lines[k]) && !inList.has(k); k++) tail = `${tail.trimEnd()} ${lines[k].trim()}`;
    // the list ends with its sentence ("... and an A/R aging report. Thx")
    // (rfix10) ... a letter explaining an amount named in it ("a letter of explanation for the $48,000 deposit") is an item there too
    const parts = splitList(tail.split(/(?<![A-Z]\.?[A-Z]?)[.!?](?:\s+(?=[A-Z])|\s*$)/)[0].replace(/\s*\((?:[^()\s]+\s+){3,}[^()]*\)\s*/g, ' ').trim()).filter((p) => DOC_WORDS.test(p) && (!/\$\s?\d/.test(p) || EXPLAINS_AMOUNT.test(p)));
    if (parts.length) {
      inList.add(i);
      items.push(...parts);
      hits.push(`inline list after "${m[1]}:"`);
    }
  }
  // 2b. (rfix24) a letter's lettered clauses after a request and its colon, inside one paragraph: "until it has received each of the
  // following: (a) a fully executed application; (b) bank statements for August through October; and (c) a copy of the lease."
  // (never clauses with no request before them: "Funding is conditioned upon (i) ..., (ii) ...", an approval's conditions)
  const letteredRe = /\b(?:receive[ds]?|provide[ds]?|furnish(?:ed)?|submit(?:ted)?|deliver(?:ed)?|require[ds]?|need(?:s|ed)?|request(?:s|ed)?|the following)\b[^:\n]{0,80}:\s*\(a\)\s*(\S.+)$/i;
  for (let i = 0; i < lines.length; i++) {
    const m = letteredRe.exec(lines[i]);
    if (!m) continue;
    const body = m[1].split(/(?<![A-Z]\.?[A-Z]?)[.!?](?:\s+(?=[A-Z])|\s*$)/)[0];
    const parts = body.split(/\s*[;,]?\s*(?:and |or )?\([b-h]\)\s*/).map((p) => p.replace(/[;,.\s]+$/, '').trim()).filter((p) => p && DOC_WORDS.test(p) && !/\$\s?\d/.test(p));
    if (parts.length >= 2) {
      inList.add(i);
      items.push(...parts);
      hits.push(`lettered clauses after "${lines[i].slice(Math.max(0, m.index), m.index + 40)}"`);
    }
  }
  // 3. prose: "can you send over the MTD and a signed app", "also need a payoff letter for ..."
  // (holdout18) a sentence opened by a lower-case "and" / "plus" / "also" after a request goes on with its list: "need the
  // renewal application. and 4 months not 3"
  // (holdout41) a line wrapped inside a sentence on its connector goes on with its list: "I need a current Kapitus balance
  // letter and the\nNovember MTD" (a hard-wrapped forward, a blank line between in its HTML): a break after "and the" ends no request
  // (rfix15) ... also when it opens on a document's shorthand: "need MTD. also DL front n back"
  const prose = lines
    .filter((_, i) => !inList.has(i))
    .join('\n')
    .replace(/([a-z0-9)])[.?]\s+(?=(?:and|plus|also|And|Plus|Also) (?:\d|the|a|an|last|most|current|signed|your|their|mtd|MTD|dl|DL|landlord|voided|lease)\b)/g, '$1, ')
    .replace(/(\b(?:and|plus|or)(?: (?:the|a|an|your|their|his|her))?|[,&+])[ \t]*\n(?:[ \t]*\n)?[ \t]*(?=[A-Za-z0-9])/g, '$1 ')
    .replace(/(\b(?:the|a|an|of|for|from|your|their|his|her|its|[a-z]+'s))[ \t]*\n(?:[ \t]*\n)?[ \t]*(?=[A-Za-z0-9])/g, '$1 ')
    // (rfix16) ... and a long line of prose hard-wrapped mid-sentence, on any word, the next line going on in lower case ("a payoff
    // letter from Kalamata good\nthrough November 20, and a copy of the lease"), a blank line between in its HTML: one sentence (never a
    // short line, a note of its own)
    .replace(/^([^\n]{60,}[a-z0-9,)])[ \t]*\n(?:[ \t]*\n)?(?=[ \t]*[a-z])/gm, '$1 ');
  // (rfix10) ... and so does a sentence opened by a capital "Also", after a request or a question asking ("Need October. Also
  // the app signed and dated, and a voided check.", "Can you get me the Bitty contract? Also a signed 8821"), and a line ending on a word no sentence ends on, an article, a preposition or a possessive ("the owner's\nDL")
  // (holdout43) ... the underwriter named by a pronoun ("until he sees the payoff letter"); and the shorthand "b4" ends the item as "before" does ("need MTD + the lease on the new location b4 i can firm it up")
  // (after holdout11: "requires", "without", "share", "connect", "sign")
  // (holdout24) "can't price it until I see the MTD activity and ...": what the lender waits to see
  // (rfix11) "can you grab the last 3 months of Square statements + a MTD bank printout?": a salesman's verb for asking
  // (rfix10) what "they want to see" or "want to run" ("want to run a bank verification through DecisionLogic"), what to
  // "grab me", "furnish", "supply", what they are "looking for", what is "outstanding" / "left" ("the only thing outstanding is
  // the landlord letter"); the item ends where the lender goes on ("... and they want to run", "... and I'll firm it up", "... and docs go out
  // today"), and why it is
  // asked is no part of it (WHY_AFTER: "the full November statement now that it has closed", "the October statement to see
  // if it has cleaned up")
  const verbRe = /\b(?:(?:until|till) (?:i|we|he|she|they|uw|credit|underwriting|the underwriter) (?:see|sees|get|gets|have|has|receive|receives)|(?:still )?waiting (?:on|for)|need(?:s|ed)?|requires?|without|send(?: over| us| me)?|resend|provide|upload|forward|complete|connect|share|sign|get (?:us|me)|email us|submit|missing|asking for|requesting|wants? to (?:see|run|get|review)|would like to see|grab(?: us| me)?|(?:can|could) you pull|furnish|supply|return(?= (?:the|a|an|your|signed|executed)\b)|looking for|(?:outstanding|left|remaining|open)(?: now| still)? (?:is|are)|necesit(?:o|amos|an?)|(?:me|nos) falta(?:n)?|hace(?:n)? falta)(?:[ \t]+|[ \t]*\n[ \t]*(?=[a-z]))(.+?)(?=[.?!\n:]|\s+(?:before|b4|once|so that|so (?:we|i|uw|they|credit) can|so (?:what|here's what|heres what|here is what)|in order|to complete|and (?:we|i|then|i'll|ill|we'll|i'd|they|he|she|uw|credit)|and (?:the )?(?:docs|contracts?|paperwork|funding|file|deal|it|this) (?:go|goes|will|can|should|gets?)|and (?:also )?(?=(?:send|upload|provide|sign|forward|submit|complete|connect|email|get|grab|share|furnish)\b)|if)\b|$)/gi;
  let m: RegExpExecArray | null;
  while ((m = verbRe.exec(prose))) {
    // (rfix10) "need the merchant to sign the 8821 and upload a voided check", "sign and return the application": what the
    // merchant is to do, the next verb, holds the items, read by its own verbs; "need to see the payoff letter", "all we need now is the voided check": the item after them
    const party = /^(?:(?:the |your |their )?(?:merchant|owner|client|customer|business owner|guarantor|him|her|them|they) to |(?:and|or|&) (?=(?:send|upload|provide|sign|forward|submit|return|email)\b))/i.exec(m[1]);
    if (party) {
      verbRe.lastIndex = m.index + m[0].length - m[1].length + party[0].length;
      continue;
    }
    // (rfix16) a verb in the lender's own purpose clause asks for nothing: "a copy of the lease so that we can complete a landlord
    // verification", "in order to complete the site visit" (what the lender will do with an item, not another item)
    if (/\b(?:so(?: that)?|in order) (?:(?:we|i|uw|they|he|she|underwriting|credit)(?: can| could| may| will|'ll) |to )(?:be able to )?$/i.test(prose.slice(Math.max(0, m.index - 40), m.index))) continue;
    // (rfix21) nor a verb the lender forbids: "Do not send account numbers or Social Security numbers by unencrypted email",
    // "please never email SSNs" (a warning in a footer, no item asked)
    if (/\b(?:do not|don't|dont|never|please do not|please don't|not to|no)\s+(?:ever\s+)?$/i.test(prose.slice(Math.max(0, m.index - 30), m.index))) continue;
    // (rfix24) ... and a spoken "what I need from you is the MTD and ..." (a voicemail transcript)
    const lead = /^(?:(?:from (?:you|u|your end|your side) )(?:now |still )?(?:is|are) |to (?:see|have|get|review|receive) |(?:now |still )?(?:is|are) )/i.exec(m[1]);
    if (lead) m[1] = m[1].slice(lead[0].length);
    // (rfix10) a verb's object is on its line (a heading "ITEMS NEEDED" asks for nothing on the line under it), and a verb in
    // capitals after a word in capitals is a name's word ("Titletown Sign & Awning can go to underwriting"), asking for nothing
    if (/^[A-Z]/.test(m[0]) && /(?:^|[^\w'])(?!I\b)[A-Z][\w'&-]*[ \t]+$/.test(prose.slice(Math.max(0, m.index - 40), m.index))) {
      verbRe.lastIndex = m.index + 1;
      continue;
    }
    // an explanation in brackets after the item ("... account (the one the lease payments come out of)") is not part of it
    // (holdout18) "the renewal application not the new deal app", "4 months not 3": the item is what is asked, not what it replaces
    // (holdout42) ... and an aside in brackets the line break cut short ("statements for the second account (the one")
    const parts = splitList(m[1]);
    // (rfix25) a bare count of months asked beside the month-to-date or the statements ("need 3 mos + mtd", "need last 4 months
    // and the mtd"): months of statements, in a phone's shorthand (alone, "we need 12 months", it is a floor or a term)
    const monthsOfStatements = parts.length > 1 && parts.some((x) => /\bmtd\b|month[- ]to[- ]date|statement|\bstmts?\b/i.test(x));
    for (const p of parts.map((x) => x.replace(NOTE_ON, 'explanation of ').replace(/\s*\((?:[^()\s]+\s+){3,}[^()]*\)?\s*$/, '').replace(/\s*\([^()]*$/, '').replace(/\s+(?:not|instead of|rather than) (?:the |a |an |just )?[\w/&' -]{1,40}$/i, '').replace(WHY_AFTER, ''))) {
      // what the lender already has is no request: "we only got aug/sep/oct"
      // (rfix7) ... its subject left out in shorthand: "only got jul aug sept", "already have the app"
      // (rfix10) ... or what the broker sent: "what you sent stops at September"
      if (/^(?:(?:what |which |all )?(?:we|i|they|uw|you)\b[^,]{0,12}|(?:only|already|just) )\b(?:got|have|had|received|sent|see)\b/i.test(p)) continue;
      // (not an explanation beside the item: "a signed authorization, the app in the package isn't signed"; nor where a
      // document is missing from: "... is missing from the package", rfix10)
      if ((DOC_WORDS.test(p) || FUNDER_CONTRACT.test(p) || (monthsOfStatements && BARE_MONTHS.test(p))) && !/^(following|these|them|it|this|that|everything|anything|from|out of)\b/i.test(p) && (!/\$\s?\d/.test(p) || EXPLAINS_AMOUNT.test(p)) && p.split(/\s+/).length <= 12 && !/\b(isn't|wasn't|aren't|weren't|didn't|doesn't|don't|is not|was not|are not|did not|does not)\b/i.test(p)) {
        items.push(p);
        hits.push(`asked for "${p}"`);
      }
    }
  }
  // (rfix18) a document asked in a sentence of its own with only "please" for its verb, after a request ("We need a payoff letter
  // ... Second member's signed app too, please.", "The voided check as well, pls."): a document of eight words or fewer, nothing else
  if (items.length) {
    const pleaseRe = /(?:^|[.!?]\s+|\n\s*)((?:[\w'\u2019/&-]+ ){0,7}?[\w'\u2019/&-]+)(?:,? (?:too|as well|also))?,? (?:please|pls|plz)\s*(?:[.!]|$)/gim;
    while ((m = pleaseRe.exec(prose))) {
      const p = m[1].trim();
      if (!DOC_WORDS.test(p) || /\b(?:thanks?|thank you|let|call|confirm|advise|reply|note|hi|hello|dear)\b/i.test(p)) continue;
      items.push(p);
      hits.push(`asked with "please" alone "${p}"`);
    }
  }
  // (rfix20) ... and one added on a line or in a sentence of its own opened by "also" or "plus", no verb of its own, after a
  // request ("need the MTD and a voided check\n... also a letter explaining the March dip. ..."): a document of ten words or fewer
  if (items.length) {
    const alsoRe = /(?:^|[.!?]\s+|\n\s*)(?:also|plus|and also),?\s+((?:an?|the|your|their|his|her)\s+(?:[\w'\u2019/&-]+ ){0,8}?[\w'\u2019/&-]+)\s*(?=[.!?](?:\s|$)|\n|$)/gim;
    while ((m = alsoRe.exec(prose))) {
      const p = cleanItem(m[1]);
      if (!DOC_WORDS.test(p) || /\b(?:is|are|was|were|will|would|can|could|should|has|have|had|looks?|seems?|came|comes|shows?|isn't|aren't|wasn't|doesn't|don't|didn't)\b/i.test(p)) continue;
      items.push(p);
      hits.push(`added with "also" "${p}"`);
    }
  }
  // (holdout28) a document said to be unsigned, in a sentence of its own: "also app isnt signed. send both" asks for it signed
  // (never an explanation after a comma: "need a signed credit authorization, the app in the package isn't signed")
  const unsignedRe = /(?:^|[.!?]\s+|\n\s*)(?:also,? |and |plus |oh and )?(?:the |your )?(app|application|contract|contracts|authorization|credit authorization|8821|4506-?[ct]?|ach form|agreement)(?: in the package| you sent)? (?:isn'?t|is not|wasn'?t|was not|aren'?t|are not|not) (?:signed|executed)\b/gi;
  while ((m = unsignedRe.exec(prose))) {
    items.push(`signed ${m[1]}`);
    hits.push(`unsigned "${m[0].trim()}"`);
  }
  // (rfix10) a document said to be missing, in a sentence of its own or after "but": "the sept statement is missing from the
  // pkg" asks for it (never what a document is missing: "the Oct stmt is missing pgs 2-4")
  const missingRe = /(?:^|[.!?;]\s+|\n\s*|\bbut |\band |\balso,? )(?:the |your |their |his |her )?((?:[\w'/&-]+ ){0,4}?[\w'/&-]+) (?:is|are) (?:still )?missing\b(?! (?:the|a|an|pages?|pgs?|pg|page|\d|signatures?|sig|dates?))/gi;
  while ((m = missingRe.exec(prose))) {
    if (!DOC_WORDS.test(m[1]) || /^(?:it|this|that|what|which|nothing|something)$/i.test(m[1])) continue;
    items.push(m[1]);
    hits.push(`said to be missing "${m[1]}"`);
  }
  // (holdout41) a party asked after with its contact, no question mark: "who is the landlord, need name/# for the LV", "who's
  // their CPA - need name and number": the party's contact is the item
  const partyRe = /\bwho(?:'s| is| are)\s+(?:the |their |his |her |your )?(landlord|property manager|accountant|cpa|bookkeeper|guarantor|partner|co-?owner|other owner|processor|contact)\b[ \t]*[,;:\-\u2013]?[ \t]*(?:(?:i|we|uw) )?(?:need|needs|want|send)(?: (?:their|his|her|the))? (name(?:[ \t]*(?:\/|and|&|\+|n)[ \t]*(?:#|number|phone(?: number)?|contact|email))?|contact(?: info(?:rmation)?)?|number|phone(?: number)?|info(?:rmation)?)/gi;
  while ((m = partyRe.exec(prose))) {
    const p = `${m[1]} ${m[2]}`;
    items.push(p);
    hits.push(`the party asked after "${m[0].trim()}"`);
  }
  // 4. questions: "What's the merchant's current balance with Mantis?"
  // (rfix13) whether an item already asked names a word, kept as the items grow: one look per item, not one per question and item
  const named = wordsNamed(items);
  const qRe = /\b(?:what(?:'s| is| are)|who(?:'s| is)|how much is|can you confirm|((?:is|are|does|do|did|has|have) (?:the |this |that |your )?(?:merchant|owner|business|client|customer|he|she|they)\b))\s+(?:the\s+)?([^?\n]{3,100})\?/gi;
  while ((m = qRe.exec(prose))) {
    const p = cleanItem(m[1] ? `${m[1]} ${m[2]}` : m[2]);
    // "Who's the landlord? Need landlord name and phone": the question names an item already asked for
    const head = p.toLowerCase().split(/[^a-z0-9']+/)[0] ?? '';
    if (!m[1] && head.length >= 4 && named.has(head)) continue;
    // (rfix10) when someone can be reached is a call to set up, no item: "Is the owner around tomorrow between 10 and 2?"
    if (/\b(?:around|available|free|reachable|in the office)\b/i.test(p)) continue;
    if (p) {
      items.push(p);
      hits.push(`question "${p}"`);
    }
  }
  // (rfix14) a month asked after as missing from the package, by its name alone: "where is October?", "where's the September
  // statement?", "wheres oct" (the month's statement is the item); and what to confirm, asked outright: "please confirm whether the
  // business is seasonal", "confirm if the owner is on the lease" (what is to be confirmed is the item, as a question's is)
  const monthRe = /\bwhere(?:'s| is|s| are)\s+(?:the\s+)?((?:jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?|sept?(?:ember)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?)(?:\s+(?:statement|stmt|bank statement)s?)?)\b\s*[?.!]/gi;
  while ((m = monthRe.exec(prose))) {
    items.push(m[1]);
    hits.push(`a month asked after "${m[0].trim()}"`);
  }
  const confirmRe = /\b(?:please|pls|can you|could you|also)\s+(?:also\s+)?confirm\s+((?:whether|if)\s+[^.?!;\n]{3,100})/gi;
  while ((m = confirmRe.exec(prose))) {
    const p = cleanItem(m[1].replace(/^if\s+/i, 'whether '));
    items.push(p);
    hits.push(`asked to confirm "${p}"`);
  }
  const seen = new Set<string>();
  const out: string[] = [];
  // (rfix10) the same item asked twice in other words, a stip list and the sentence around it ("Outstanding items: October
  // bank statement ..." and "please send the October bank statement"; "Driver's license (owner)" and "a copy of the owner's
  // driver's license"; "the October statement to see if ..."): one item, the first one written. Words of one within the other's.
  const words = (x: string) => new Set(x.toLowerCase().replace(/['\u2019]s\b/g, '').split(/[^a-z0-9]+/).filter((w) => w && !SAME_ITEM_STOP.has(w)));
  const kept = keptItems();
  const sameItem = (w: Set<string>) => w.size > 0 && kept.within(w);
  const brokerSide: string[] = [];
  for (const raw of items) {
    if (STATUS_IN.test(raw)) {
      hits.push(`already in: "${raw}"`);
      continue;
    }
    const it = plainItem(raw);
    if (POINTER_ITEM.test(it) || GENERIC_ITEM.test(it) || CLAUSE_ITEM.test(it)) continue;
    const key = it.toLowerCase().replace(/[^a-z0-9]+/g, ' ').trim();
    if (!key || seen.has(key)) continue;
    // (holdout28) an item about the broker's own side ("closer on snake river, u or tyler", "your ISO agreement") is no stip
    if (BROKER_SIDE_RE.test(it)) {
      brokerSide.push(it);
      hits.push(`the broker's own side, not the deal's: "${it}"`);
      continue;
    }
    const w = words(it);
    if (sameItem(w)) {
      hits.push(`asked again: "${it}"`);
      continue;
    }
    seen.add(key);
    kept.add(w);
    out.push(it.slice(0, 500));
  }
  return { items: out.slice(0, 50), hits, brokerSide };
}
