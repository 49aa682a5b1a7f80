import { findTraceCodes } from '../../submissions/trace-code';
import { normalizeText } from '../reply-text';
import * as V from '../vocabulary';
import type { ReplyContext } from './types';

/** One reply answering several files: decision lines that name different businesses. */
// (holdout36) ... or its status: "Cortland Outfitters - still with UW", "Red Oak: pending", "Harbor Bakery - in underwriting"
// (rfix12) ... also numbered, one file to a line ("1) Ontario Airport Freight - APROBADO $85K ...", "2. Red Oak - declined"), and
// its decision in Spanish, as bilingual reps write it ("aprobado", "negado", "no se puede", "pendiente")
const DEAL_LINE = /^\s*(?:\d{1,2}[.)]\s+)?([A-Z][\w&'.]*(?:\s+[A-Z&][\w&'.,]*){0,5})\s+[-:\u2013\u2014]\s+(approved|approval|declined?|decl|pass|counter(ed)?|need|needs|missing|stips|pending|still (?:with|in|under|at|pending|waiting|working)|in (?:review|underwriting|uw|credit)|with (?:uw|underwriting|credit|committee)|aprobad[oa]|negad[oa]|rechazad[oa]|declinad[oa]|no se puede|no califica|pendiente)(?![\w\u00e0-\u00ff])/i;
/** The reply saying it answers several files at once: "both of your files", "answering your two from Tuesday", "in one shot". */
// (rfix17) ... with a word for their state between: "both of your open files", "all three pending deals"
const SEVERAL_FILES = /\b(both|all|each) (of )?(your|these|the|two|three) (?:(?:open|pending|active|current|recent|live|outstanding) )?(files|deals|submissions)\b|\banswering (both|all)\b|\b(?:answering|replying|responding|getting back to you|update|updates)\b[^.!?\n]{0,20}\byour (?:two|three|2|3)\b(?! (?:statements?|months?|weeks?|days?|positions?|owners?|accounts?|locations?|questions?|emails?))|\b(?:both|all|your (?:two|three)) (?:files|deals|submissions)? ?in one (?:shot|go|email|reply|note)\b/i;

/**
 * (rfix17) A numbered entry headed by a file's name, whatever follows its dash ("2) Harbor Bakery - underwriting needs the tax
 * return"): in a reply that says it answers several files, each entry is one file's answer.
 */
const NUMBERED_DEAL = /^\s*\d{1,2}[.)]\s+([A-Z][\w&'.]*(?:\s+[A-Z&][\w&'.,]*){0,5})\s+[-:\u2013\u2014]\s+\S/;

/**
 * (rfix23) A file's name alone on its line with its terms on the next ("Zapata Highway Truck Stop LLC" over "  Advance: $60,000 |
 * Factor 1.38 | ..."): a block of terms headed by a business, as a table of several files is laid out. Never a heading of the
 * trade's own words ("Option A", "Renewal Offer", "Final Terms"), a greeting or a sign-off.
 */
const NAME_ALONE = /^[ \t]*(?:\d{1,2}[.)][ \t]+)?([A-Z][\w&'.-]*(?:[ \t]+(?:&|and|of|de|del|la|las|los|el|[A-Z][\w&'.,-]*)){1,6})[ \t]*:?[ \t]*$/;
const NOT_A_HEADING = /\b(?:option|options|payments?|daily|weekly|monthly|rate|rates|factor|amount|amounts|total|fees?|net|gross|funded|buy|sell|max|min|scenario|scenarios|alternative|alternatives|choice|choices|version|tier|tiers|offer|offers|terms|term|structure|plan|program|renewal|approval|approved|declined?|counter|pricing|summary|details|decision|status|update|stips?|conditions|requirements|notes?|position|positions|deal|file|submission|merchant|regards|thanks|thank|best|cheers|sincerely|saludos|gracias|hi|hello|hey|dear|dana|re|fw|fwd|subject|from|to|sent|date|cc|underwriting|underwriter|senior|manager|funding|capital|advance|receivables)\b/i;
const TERMS_BELOW = /\$\s?\d|\b\d[\d,.]*\s?k\b|\b(?:factor|rtr|payback|advance|holdback)\b[^\n]*\d/i;
/** A Spanish rep's "both of them": "aprobados los dos que me mandaste", "ambos expedientes" (never "los dos estados de cuenta"). */
const SEVERAL_FILES_ES = /\b(?:l[oa]s (?:dos|tres)|ambos|ambas|tod[oa]s l[oa]s) (?:que (?:me )?(?:mandaste|enviaste|mandaron|enviaron|sometiste)|archivos|expedientes|solicitudes|negocios|deals|files)\b/i;

function headedBlocks(lines: string[]): Array<{ i: number; m: RegExpExecArray }> {
  const out: Array<{ i: number; m: RegExpExecArray }> = [];
  for (let i = 0; i + 1 < lines.length; i++) {
    const m = NAME_ALONE.exec(lines[i]);
    if (!m || NOT_A_HEADING.test(m[1]) || !TERMS_BELOW.test(lines[i + 1])) continue;
    out.push({ i, m });
  }
  return out;
}

// ---------------------------------------------------------------- a digest of several files' entries

/** (rfix27) A rule between a digest's entries: a line of dashes, equals signs, underscores, stars, tildes or dots alone. */
const ENTRY_RULE = /^[ \t]*(?:[-=_*~#\u2500\u2550\u2014]{4,}|(?:[.\u2022\u00b7][ \t]*){3,})[ \t]*$/;
/**
 * (rfix27) The file an entry of a notification is about: a business named with its reference on the same line ("Harbor Point
 * Bakery (ref PC-10442)", "Red Oak Diner - File #55120", "Acme Tile | Deal ID 7781", "Acme Tile - SVC-7K3M-9Q2P"), or a field naming the merchant ("Merchant:
 * Harbor Point Bakery", "Business name: ...").
 */
const ENTRY_REF = /(?:ref|reference|file|deal|app|application|submission|case|loan|id|ticket)\.?(?:[ \t]*(?:#|no\.?|id|number|code))?[ \t]*[:#]?[ \t]*((?=[A-Z0-9-]*\d)[A-Z0-9][A-Z0-9-]{2,})\b/i;
const ENTRY_NAME_WITH_REF = /^[ \t]*(?:\d{1,2}[.)][ \t]+)?([A-Z][\w&'.,-]*(?:[ \t]+(?:&|and|of|de|the|[A-Z0-9][\w&'.,-]*)){0,7})[ \t]*(?:\([ \t]*|[-\u2013\u2014|][ \t]*|[ \t]{2,})(?=(?:ref|reference|file|deal|app|application|submission|case|loan|id)\b|[A-Z]{2,6}-[A-Z0-9]*\d[A-Z0-9-]*\b)/i;
const ENTRY_FIELD = /^[ \t]*(?:merchant|business|business name|legal name|dba|company|client|account name)[ \t]*:[ \t]*([A-Z][^\n]{2,80})$/im;

interface DigestEntry {
  lines: string[];
  ref: string | null;
  name: string | null;
}

function entryOf(lines: string[]): DigestEntry {
  let ref: string | null = null;
  let name: string | null = null;
  for (const l of lines) {
    const n = ENTRY_NAME_WITH_REF.exec(l);
    if (n && !name) {
      name = n[1].trim();
      const rest = l.slice(n[0].length);
      ref = (ENTRY_REF.exec(rest)?.[1] ?? findTraceCodes(rest)[0] ?? /^[A-Z]{2,6}-[A-Z0-9-]+/i.exec(rest)?.[0] ?? null)?.toUpperCase() ?? null;
    }
  }
  const field = ENTRY_FIELD.exec(lines.join('\n'));
  if (!name && field) name = field[1].trim();
  if (!ref) for (const l of lines) if (!ref && (findTraceCodes(l)[0] ?? null)) ref = findTraceCodes(l)[0];
  return { lines, ref, name };
}

/**
 * (rfix27) A digest or activity notification listing several files, one entry each (a partner hub's "3 updates since your last
 * digest", a portal's daily summary): entries set apart by rules (two at least), two or more of them each naming a
 * file (a business with its reference, or a merchant field), and naming different businesses. Only the entry naming this deal (its
 * trace code, or its business by a name that is no near name of another) is this deal's answer; when none does, no entry is
 * read as ours (`none`). Null when the message is no such digest.
 */
export function digestEntries(own: string, ctx?: ReplyContext): { own: string; ours: boolean } | null {
  const lines = normalizeText(own).split('\n');
  if (lines.filter((l) => ENTRY_RULE.test(l)).length < 2) return null;
  const blocks: string[][] = [[]];
  for (const l of lines) {
    if (ENTRY_RULE.test(l)) blocks.push([]);
    else blocks[blocks.length - 1].push(l);
  }
  const entries = blocks.filter((b) => b.some((l) => l.trim())).map(entryOf).filter((e) => e.name !== null);
  if (entries.length < 2) return null;
  // two files at least: names that are not one business written twice
  const words = entries.map((e) => nameWords(e.name!));
  if (!words.some((w, i) => words.some((v, j) => j > i && !sameBusiness(w, v)))) return null;
  const business = nameWords(ctx?.business_name ?? '');
  const trace = ctx?.trace_code?.toUpperCase() ?? null;
  const ours = entries.filter((e) => (trace !== null && e.ref !== null && findTraceCodes(e.ref)[0] === trace) || (business.length > 0 && e.name !== null && sameBusiness(nameWords(e.name), business)));
  // an entry naming this deal beside one naming it by another reference: not one file's entry, no entry is read as ours
  if (!ours.length || ours.some((e) => trace !== null && e.ref !== null && /^SVC/i.test(e.ref) && findTraceCodes(e.ref)[0] !== trace)) return { own: '', ours: false };
  return { own: ours.map((e) => e.lines.join('\n')).join('\n\n'), ours: true };
}

export function splitDeals(own: string, ctx?: ReplyContext): { own: string; multiple: boolean; picked: boolean; digest?: 'ours' | 'none' } {
  // (rfix27) a digest of several files' entries: only the entry naming this deal is read, alone (it answers this deal by its name
  // or reference, no doubt which file it is); none naming it, nothing is read as this deal's
  const digest = digestEntries(own, ctx);
  if (digest) return { own: digest.own, multiple: false, picked: digest.ours, digest: digest.ours ? 'ours' : 'none' };
  const lines = normalizeText(own).split('\n');
  const several = SEVERAL_FILES.test(own) || SEVERAL_FILES_ES.test(own);
  let heads = lines.map((l, i) => ({ i, m: DEAL_LINE.exec(l) ?? (several ? NUMBERED_DEAL.exec(l) : null) })).filter((h) => h.m && /^[A-Z]/.test(h.m[1]));
  // (rfix23) blocks of terms each headed by a business: read as one file's line each when the reply says it answers several, or
  // when two or more such blocks name different businesses (a table of several files' terms)
  const blocks = headedBlocks(lines).filter((b) => !heads.some((h) => h.i === b.i));
  const byBlocks = blocks.length > 0 && (several || new Set(blocks.map((b) => b.m[1].toLowerCase())).size + heads.length >= 2);
  if (byBlocks) heads = [...heads, ...blocks].sort((a, b) => a.i - b.i);
  const names = new Set(heads.map((h) => h.m![1].toLowerCase()));
  const both = several;
  if (names.size < 2 && !(both && names.size >= 1)) return splitDealSentences(own, ctx);
  const key = (ctx?.business_name ?? '').toLowerCase().split(/[^a-z0-9]+/).find((w) => w.length >= 3 && !['the', 'and', 'llc', 'inc'].includes(w));
  const mine = key ? heads.filter((h) => h.m![1].toLowerCase().includes(key)) : [];
  if (!mine.length) return { own, multiple: true, picked: false };
  const keep = new Set<number>();
  // (rfix23) a block of terms carries no decision of its own: the lines above the first file's block say what they are
  if (byBlocks) for (let j = 0; j < heads[0].i; j++) keep.add(j);
  for (const h of mine) {
    keep.add(h.i);
    // the lines under it, up to the next file's line or a blank line
    for (let j = h.i + 1; j < lines.length && lines[j].trim() && !heads.some((x) => x.i === j); j++) keep.add(j);
  }
  return { own: lines.filter((_, i) => keep.has(i)).join('\n'), multiple: true, picked: true };
}

// ---------------------------------------------------------------- another deal named

/**
 * Words that name no business in the places a decision names one ("Status: approved", "Update on
 * Friday"): the trade's own nouns, pronouns, days and months, greetings.
 */
const NOT_A_NAME = new Set(
  ('the this that these those your our my their his her its it we you they he she i a an re fwd fw update status decision approved approval declined ' +
    'decline counter offer offers funded final file deal deals submission merchant client owner business good great news hi hello hey thanks thank ' +
    'monday tuesday wednesday thursday friday saturday sunday today tomorrow january february march april may june july august september october ' +
    'november december jan feb mar apr jun jul aug sep sept oct nov dec summary terms term option options note notes stips stip items item portal ' +
    'credit underwriting committee please per new renewal amount factor rate payback payment tier level grade paper program pricing ' +
    'thanksgiving christmas holiday holidays easter memorial labor independence vacation pto ' +
    'docusign plaid decisionlogic ocrolus moneythumb wire ach contracts contract funding ' +
    // (rfix17) the trade's own words for what a file is declined on ("Declined on the NSFs", "passing on the negatives")
    'nsf nsfs negs negatives overdrafts ods positions position stacking stack revenue deposits statements balances balance volume') .split(/\s+/),
);
/** (rfix28) A form's field label before its value ("Underwriter Comments: Approved at the amount requested"), never a business. */
const FORM_LABEL_WORDS = new Set(['comments', 'comment', 'remarks', 'remark', 'notes', 'underwriter', 'underwriters', 'analyst', 'reviewer', 'officer']);
/** Words that name a funder, not a merchant: "Azure Cove Funding", "Seabright Merchant Partners". */
/** Words of a decision heading ("Final Decision - Approved"), never a business name on their own. */
const HEADING_WORDS = new Set(['final', 'decision', 'decisions', 'credit', 'status', 'update', 'updated', 'result', 'results', 'outcome', 'file', 'deal', 'submission', 'application', 'review', 'uw', 'underwriting', 'committee', 're', 'fw', 'fwd', 'subject', 'new', 'your', 'our', 'the', 'this', 'loan', 'request', 'offer', 'terms']);
const LENDER_WORDS = new Set(['funding', 'funders', 'funder', 'capital', 'lending', 'lender', 'lenders', 'finance', 'financial', 'advance', 'advances', 'partners', 'merchant', 'bank', 'portal', 'underwriting']);
/** Words of a legal name that say nothing about which business it is. */
const NAME_FILLER = new Set(['llc', 'inc', 'co', 'corp', 'corporation', 'company', 'ltd', 'pllc', 'pc', 'pa', 'lp', 'llp', 'dba', 'and', 'of', 'the']);
/** A run of capitalised words (a business as written): "Dixon Auto Glass", "Magnolia Row Boutique", "Tin Cup Diner & Grill". */
const CAP_RUN = "[A-Z][\\w&'.-]*(?:[ \\t]+(?:&|and|of|[A-Z][\\w&'.-]*)){0,5}";
/** (rfix29) Lower-case words after a capitalised one that are a file's papers or the trade's words, never a business's trade. */
// (revL) ... nor a tool's or a step's: "the DocuSign envelope file", "the Plaid login file", "the Kapitus payoff letter file"
const LOWER_NOT_TRADE = 'bank|statements?|tax|returns?|lease|contracts?|docs?|documents?|paperwork|renewal|funding|credit|new|old|other|same|first|second|last|next|revised|updated|pending|declined|approved|merchant|client|stips?|application|app|signed|envelopes?|packets?|folders?|portal|uploads?|login|logins|payoff|letters?|verification|verified|report|reports|closing|pdfs?|attachments?|scans?';
/** Where a reply names the business a decision is about. */
const NAMED_BUSINESS: RegExp[] = [
  // "Approved on Dixon Auto Glass", "declining Magnolia Row", "passing on Harbor Bakery", "counter for Red Oak"
  // (rfix31) ... and the broker's file so named: "good news on your Seneca Lake winery"
  new RegExp(`\\b(?:[Aa]pproved|APPROVED|[Aa]pproval|[Dd]eclined?|DECLINED|[Dd]eclining|[Pp]ass(?:ing)?|[Cc]ounter(?:ed)?|[Ff]unded|[Dd]ecision|[Ss]tips|[Uu]pdate|[Nn]ews|[Bb]ow(?:ing)? out|[Ss]tep(?:ping)? (?:back|aside)|[Rr]eviewed|[Ll]ooked at|[Tt]houghts|us)[ \\t]+(?:on|for|re:?|regarding)[ \\t]+(?:(?:the|your)[ \\t]+)?(${CAP_RUN})`, 'g'),
  // (holdout41) the decision's verb right before the business it names and its terms: "Approved Pend Oreille Log Homes for 30k",
  // "Declining Harbor Bakery at 45k" (a name, then "for"/"at" and a figure)
  new RegExp(`\\b(?:[Aa]pproved|APPROVED|[Aa]pproving|[Dd]eclined|DECLINED|[Dd]eclining|[Cc]ountered|[Cc]ountering|[Ff]unded)[ \\t]+(?:the[ \\t]+)?(${CAP_RUN})[ \\t]+(?:for|at)[ \\t]+\\$?\\d`, 'g'),
  // "We reviewed Sprout & Sprig Florals", "We looked at Copperline"
  new RegExp(`\\b(?:[Ww]e|I)[ \\t]+(?:reviewed|looked at|ran|went through|underwrote)[ \\t]+(?:the[ \\t]+)?(${CAP_RUN})`, 'g'),
  // "The Magnolia Row Boutique file", "your Dixon deal", (holdout20) "the Gastonia one you sent"
  new RegExp(`\\b(?:[Tt]he|[Yy]our|[Tt]hat)[ \\t]+(${CAP_RUN})[ \\t]+(?:file|deal|submission|app|application|one)\\b`, 'g'),
  // "Dixon Auto Glass is approved" at the start of a sentence or line
  // "Dixon Auto Glass looks good": two words at least ("Everything looks good")
  new RegExp(`(?:^|[.!?,][ \\t]+|\\n)[ \\t]*([A-Z][\\w&'.]*(?:[ \\t]+(?:&|and|of|[A-Z][\\w&'.-]*)){1,5})[ \\t]+(?:looks|came in|checks out)[ \\t]+(?:good|great|fine|solid|clean|strong|approvable)\\b`, 'g'),
  // (holdout31) also after a colon, and with an aside between the name and its decision: "Also, since I have you: Paintsville
  // Diner (the one you sent Friday) is approved for ..."
  new RegExp(`(?:^|[.!?,:][ \\t]+|\\n)[ \\t]*(${CAP_RUN})(?:[ \\t]+\\([^)\\n]{1,60}\\))?[ \\t]+(?:is|was|has been|got|came back)[ \\t]+(?:[Aa]pproved|APPROVED|[Dd]eclined|DECLINED|a go|a pass|a no|a non-starter|a decline|an approval|[Ff]unded|good to go|cleared|reviewed|approvable|declinable)\\b`, 'g'),
  // "Dixon Auto Glass - APPROVED", "Dixon Auto: declined": two words at least ("Dana - approved" greets the broker);
  // (rfix) also with nothing between the name and its decision, in shorthand: "Dixon Auto Glass approved 25k @ 1.4"
  new RegExp(`(?:^|[.!?][ \\t]+|\\n)[ \\t]*([A-Z][\\w&'.]*(?:[ \\t]+(?:&|and|of|[A-Z][\\w&'.-]*)){1,5})(?:[ \\t]*:[ \\t]*|[ \\t]+[-\\u2013\\u2014][ \\t]+|[ \\t]+)(?:[Aa]pproved|APPROVED|[Dd]eclined|DECLINED|[Ff]unded|FUNDED)\\b`, 'g'),
  // a line opening on the file it answers: "For Dixon Auto Glass: ...", "Re Dixon Auto Glass - ..."
  // (holdout29) also after a turn to the next matter: "Also, on Flint Hills Bookbindery: ...", "Separately, for Red Oak - ..."
  // (holdout36) ... also after the greeting on the same line: "Dana - on Harbor Bakery, I need ...", "Hi Dana, for Red Oak: ..."
  new RegExp(`(?:^|\\n|[.!?][ \\t]+)[ \\t]*(?:(?:[Hh]i|[Hh]ello|[Hh]ey)?[ \\t]*[A-Z][a-z]+[ \\t]*(?:,|[ \\t][-\\u2013\\u2014])[ \\t]+)?(?:(?:[Aa]lso|ALSO|[Aa]nd|[Pp]lus|[Ss]eparately|[Mm]eanwhile|[Oo]ne more thing)[ \\t]*,?[ \\t]+)?(?:[Ff]or|[Rr]e|RE|[Rr]egarding|[Oo]n)[ \\t]*:?[ \\t]+(?:the[ \\t]+)?(${CAP_RUN})[ \\t]*(?::|,|[ \\t][-\\u2013\\u2014][ \\t])`, 'g'),
  // a portal's grid: "Merchant: Dixon Auto Glass", "Business Name | Dixon Auto Glass"
  new RegExp(`\\b(?:[Mm]erchant|[Bb]usiness|DBA|[Ll]egal [Nn]ame|[Cc]ompany)(?:[ \\t]+[Nn]ame)?[ \\t]*[:|][ \\t]*(${CAP_RUN})`, 'g'),  // (rfix29) a file named by its town or first word and its trade in lower case, as reps shorten a name they say often: "on the
  // Mobile oyster house file", "your Tupelo upholstery deal" (the capitalised word a distinctive one, never a month or the trade's
  // noun; the lower-case words no paper of the file: "the October bank statement file" names none)
  new RegExp(`\\b(?:[Tt]he|[Yy]our|[Tt]hat)[ \\t]+([A-Z][a-z][\\w&'-]*(?:[ \\t]+(?!(?:${LOWER_NOT_TRADE})\\b)[a-z][\\w&'-]*){1,3})[ \\t]+(?:file|deal|submission|app|application)\\b`, 'g'),
  // (rfix30) a file named with no article, as a writer whose first language has none says it, and tied to the broker's sending:
  // "Lake Charles Limo file that you send yesterday", "Harbor Bakery deal you submitted Monday" (two capitalised words at least)
  // (revM) a file named with no article opening a line or a postscript, its news after a dash or a colon: "P.S. Bayou Roofing deal
  // - we sent contracts this morning", "Bayou Roofing file: declined" (two capitalised words at least)
  new RegExp(`(?:^|\\n|[.!?][ \\t]+)[ \\t]*(?:(?:P\\.[ \\t]?S\\.?|PS|[Aa]lso|ALSO|[Ss]eparately|[Mm]eanwhile)[ \\t]*[,:-]?[ \\t]+)?(?!P\\.)([A-Z][\\w&'.-]*(?:[ \\t]+(?:&|and|of|[A-Z][\\w&'.-]*)){1,5})[ \\t]+(?:file|deal)[ \\t]*(?:[-\\u2013\\u2014:])[ \\t]+`, 'g'),
  // (revM) ... sent by someone of the broker's or said as from the broker: "Bayou Roofing file your guy sent Tuesday", "Bayou
  // Roofing submission from you last week"
  new RegExp(`(?:^|[-\\u2013\\u2014:,.!?][ \\t]+|\\n)[ \\t]*([A-Z][\\w&'.-]*(?:[ \\t]+(?:&|and|of|[A-Z][\\w&'.-]*)){1,5})[ \\t]+(?:file|deal|submission|app|application)[ \\t]+(?:(?:that|which)[ \\t]+)?(?:(?:you|your (?:team|guy|gal|rep|office|shop|people|processor|colleague|partner|agent|iso|closer))[ \\t]+(?:send|sent|submit|submitted|shopped|brought|put in|uploaded)|(?:(?:sent|submitted|shopped|uploaded)[ \\t]+)?(?:from|by)[ \\t]+(?:you|your (?:team|guy|gal|rep|office|shop|people|processor|colleague|partner|agent|iso|closer)))\\b`, 'g'),
];

/** The patterns above whose name comes right before its decision ("looks good", "is approved", "- APPROVED"). */
const NAME_FIRST = new Set(NAMED_BUSINESS.slice(4, 7));
const nameAsWritten = (re: RegExp, raw: string) => (NAME_FIRST.has(re) ? nameBeforeDecision(raw) : asWritten(raw));

/** (rfix2) A run of lower-case words right before its decision at the start of a line or sentence: "federal hill bakery approved 28k". */
const LOWER_NAMED = /(?:^|[.!?][ \t]+|\n)[ \t]*([a-z][\w&'.-]*(?:[ \t]+(?:&|[a-z][\w&'.-]*)){1,5})(?:[ \t]*:[ \t]*|[ \t]+[-\u2013\u2014][ \t]+|[ \t]+)(?:(?:is|was|has been|got)[ \t]+)?(?:approved|declined|funded|cleared)\b/g;

/** The distinctive words of a business name (lower case): not legal filler, not the trade's nouns, not an all-caps acronym. */
function nameWords(name: string): string[] {
  return name
    .split(/[^A-Za-z0-9]+/)
    .filter((w) => w.length >= 3 && !(w.length <= 5 && /^[A-Z0-9]+$/.test(w)))
    .map((w) => w.toLowerCase())
    .filter((w) => !NAME_FILLER.has(w) && !NOT_A_NAME.has(w));
}

/** A name as matched, up to the end of its sentence ("Summit Signs. Statements are short" names "Summit Signs"). */
const asWritten = (name: string) => name.split(/(?<=[a-z]{3})[.!?,;:](?=[ \t]|$)/)[0].trim();
/**
 * (rfix17) A name read right before its decision ("X is approved", "X - DECLINED"): only the words after the last sentence end
 * in the run, none when the run ends on one ("... BEHIND THREE. DECLINED." is a decision standing alone, naming no file).
 */
const nameBeforeDecision = (name: string) => name.split(/(?<=[A-Za-z]{3})[.!?;:](?=[ \t]|$)/).pop()!.trim();

/** A short word written for a longer one: "Vet" for Veterinary, "Mtn" for Mountain (its letters in order, the first the same). */
function abbreviates(short: string, long: string): boolean {
  if (short.length > 4 || short.length >= long.length || short[0] !== long[0]) return false;
  let i = 0;
  for (const ch of long) if (ch === short[i]) i++;
  return i === short.length;
}

/** Two distinctive words the same as written: equal, or one a shortening of the other ("Chiro"). */
const sameWord = (t: string, u: string) => t === u || (t.length >= 4 && u.startsWith(t)) || (u.length >= 4 && t.startsWith(u));

/**
 * (rfix, issue 26) A near name: a name that shares a distinctive word with the business but, beside that word, puts another
 * word where the business has one of its own ("Sioux City Auto Glass" against "Sioux Falls Auto Glass", "Bayou Country
 * Seafood" against "Cajun Country Funding"). Towns, owners and trades repeat across businesses, so one shared word does not
 * make the same business when the words next to it disagree. A shortened name ("Harbor Bakery" for "Harbor Point Bakery"), a
 * longer one ("Dixon Auto Glass Repair") or a person beside the name ("Mike Dixon") puts no word in the place of another.
 */
export function nearName(written: string[], business: string[]): boolean {
  for (let i = 0; i < written.length; i++) {
    for (let j = 0; j < business.length; j++) {
      if (!sameWord(written[i], business[j])) continue;
      for (const k of [-1, 1]) {
        const w = written[i + k];
        const b = business[j + k];
        const akin = (x: string, y: string) => sameWord(x, y) || abbreviates(x, y) || abbreviates(y, x);
        if (w !== undefined && b !== undefined && !business.some((u) => akin(w, u)) && !written.some((t) => akin(t, b))) return true;
      }
    }
  }
  return false;
}

/** A name as written against the deal's business: the same when a distinctive word is shared (or one starts the other: "Chiro"), and it is no near name. */
function sameBusiness(written: string[], business: string[]): boolean {
  return written.some((t) => business.some((u) => sameWord(t, u))) && !nearName(written, business);
}

/** An aside to the reply ("P.S.", "Separately", "Unrelated") about another file than this one. */
const ASIDE_START = /^\s*(?:p\.?\s?p?\.?s\.?(?=[\s:,-])|separately\b|unrelated\b|on (?:a |an )?(?:separate|different|unrelated) (?:note|file|deal)\b|on another (?:note|file|deal)\b|also,? on (?:the )?other\b)/i;
/** (rfix32) "the Bethlehem brewpub", "your Ogden bakery": an article, one capitalised word and a lower-case noun after it (an aside's file). */
const ASIDE_TOWN_TRADE = /\b(?:[Tt]he|[Yy]our|[Tt]hat)[ \t]+([A-Z][a-z][\w'-]*)[ \t]+([a-z][a-z-]{2,})\b/g;
/** (rfix32) Lower-case nouns after a capitalised word that name a paper, a lender's position or an account, never a merchant's trade. */
const NOT_TRADE_NOUN = new Set([
  ...LOWER_NOT_TRADE.split('|').flatMap((w) => (w.endsWith('s?') ? [w.slice(0, -2), w.slice(0, -2) + 's'] : [w])),
  'account', 'accounts', 'loan', 'loans', 'line', 'card', 'cards', 'advance', 'advances', 'lien', 'liens', 'judgment', 'filing', 'filings',
  'ucc', 'guarantor', 'owner', 'owners', 'landlord', 'property', 'deposit', 'deposits', 'checking', 'savings', 'team', 'desk', 'office',
  'rep', 'underwriter', 'broker', 'isos', 'iso', 'guidelines', 'program', 'box', 'link', 'email', 'thread', 'call', 'meeting', 'is', 'was',
  'has', 'had', 'will', 'would', 'should', 'can', 'could', 'may', 'might', 'did', 'does', 'are', 'were', 'and', 'or', 'for', 'to', 'of', 'on',
  'in', 'at', 'with', 'from', 'by', 'as', 'but', 'if', 'so', 'it', 'looks', 'look', 'came', 'went', 'got', 'says', 'said',
]);
const OTHER_FILE = /\b(?:the|your|that) other (?:file|deal|submission|merchant)\b|\banother (?:file|deal|submission) (?:you|of yours)\b/i;

/**
 * The parts of a reply about another deal than the one it answers (holdout8): a decision that names a
 * business that is not this deal's ("Approved on Dixon Auto Glass" on the Windward thread), another
 * submission's trace code, or an aside ("P.S. the Magnolia file ... we'll let that one go"). A
 * paragraph that names another business and never this one is cut; `mine` says whether the reply
 * names this deal anywhere. Without the deal's business name nothing is compared.
 */
export function otherDeals(own: string, ctx?: ReplyContext): { own: string; names: string[]; mine: boolean; near: string[]; cut: boolean } | null {
  const business = nameWords(ctx?.business_name ?? '');
  if (!business.length && !ctx?.trace_code) return null;
  const text = normalizeText(own);
  // paragraphs, a P.S. line starting one of its own
  const paras = text.split(/\n\s*\n/).flatMap((p) => p.split(/\n(?=\s*(?:p\.?\s?p?\.?s\.?)[\s:,-])/i));
  const names: string[] = [];
  const near: string[] = [];
  let mine = business.length > 0 && nameRe(business).test(text);
  const ours = ctx?.trace_code ?? null;
  // the sender's firm as it signs (the last lines of its text)
  const blocks = text.trim().split(/\n\s*\n/);
  const last = blocks.length >= 2 ? blocks[blocks.length - 1] : '';
  const signs = last.split('\n').length <= 4 && !/\d/.test(last) && !ASIDE_START.test(last) && last.split('\n').every((l) => l.trim().split(/\s+/).length <= 6);
  const signature = signs ? nameWords(last).filter((w) => !business.includes(w)) : [];
  const keep: string[] = [];
  let cut = false;
  for (const p of paras) {
    let other = 0;
    let self = 0;
    for (const re of NAMED_BUSINESS) {
      re.lastIndex = 0;
      let m: RegExpExecArray | null;
      while ((m = re.exec(p))) {
        const words = nameWords(nameAsWritten(re, m[1]));
        if (!words.length || !business.length) continue;
        if (sameBusiness(words, business)) self++;
        // the lender naming itself ("Azure Cove Funding - Approved", the firm in its signature): no other deal
        else if (m[1].toLowerCase().split(/[^a-z]+/).some((w) => LENDER_WORDS.has(w) || FORM_LABEL_WORDS.has(w)) || sameBusiness(words, signature)) continue;
        // (rfix) a near name of this deal's business: maybe this deal mistyped, maybe another file; nothing is cut, a person decides
        else if (nearName(words, business)) near.push(nameAsWritten(re, m[1]));
        else {
          other++;
          names.push(m[1].trim());
        }
      }
    }
    for (const code of findTraceCodes(p)) {
      if (ours && code === ours) self++;
      else if (ours) {
        other++;
        names.push(code);
      }
    }
    // (rfix32) an aside naming a file by its town and its trade in lower case, no "file" or "deal" after it ("P.S. The Bethlehem
    // brewpub looks lovely though, terms to follow separately"): another file when the capitalised word is none of this deal's
    if (!self && ASIDE_START.test(p) && business.length) {
      for (const m of p.matchAll(ASIDE_TOWN_TRADE)) {
        const town = nameWords(m[1]);
        const trade = m[2].toLowerCase();
        if (town.length !== 1 || NOT_A_NAME.has(trade) || NOT_TRADE_NOUN.has(trade) || business.includes(trade)) continue;
        if (LENDER_WORDS.has(town[0]) || signature.includes(town[0])) continue;
        if (sameBusiness(town, business)) self++;
        else {
          other++;
          names.push(`${m[1]} ${m[2]}`);
        }
      }
    }
    if (self) mine = true;
    const aside = ASIDE_START.test(p) && OTHER_FILE.test(p);
    // (holdout20) a paragraph that answers this deal by its name and, in a sentence of its own, another file ("Asheville
    // Glass ok at 30k ... and the Gastonia one you sent thurs is a pass"): only the sentences naming the other file are cut
    // (holdout29) also when the paragraph answers this deal by a decision naming it ("Cedar Hollow is a pass. Separately, for Brightwater ...")
    if (other > 0 && !aside && business.length && nameRe(business).test(p)) {
      const sentences = p.split(/(?<=[.!?])\s+/);
      const own = sentences.filter((x) => !namesOther(x, business, signature));
      if (own.length && own.length < sentences.length && own.some((x) => nameRe(business).test(x))) {
        cut = true;
        keep.push(own.join(' '));
        continue;
      }
    }
    if ((other > 0 && self === 0) || aside) {
      if (aside && !other) names.push('another file');
      cut = true;
      continue;
    }
    keep.push(p);
  }
  // (rfix2) a name typed in lower case, shorthand ("federal hill pastry shop approved 28k"): no capitals mark it, so it is
  // only compared with this deal's business, never taken for another deal; sharing a word but putting another in the place
  // of one of the deal's own, it is a near name
  if (business.length) {
    LOWER_NAMED.lastIndex = 0;
    let m: RegExpExecArray | null;
    while ((m = LOWER_NAMED.exec(text))) {
      const words = nameWords(m[1]);
      if (words.length >= 2 && nearName(words, business)) near.push(m[1].trim());
    }
  }
  if (!cut && !near.length) return null;
  return { own: cut ? keep.join('\n\n') : own, names: [...new Set(names)], mine, near: [...new Set(near)], cut };
}

/** The deal's business named by one of its distinctive words. */
const nameRe = (business: string[]) => new RegExp(`\\b(?:${business.map((w) => w.replace(/[^a-z0-9]/g, '')).join('|')})`, 'i');

/** A sentence naming a business that is neither this deal's nor the lender's own (see otherDeals). */
function namesOther(sentence: string, business: string[], signature: string[]): boolean {
  for (const re of NAMED_BUSINESS) {
    re.lastIndex = 0;
    let m: RegExpExecArray | null;
    while ((m = re.exec(sentence))) {
      const words = nameWords(nameAsWritten(re, m[1]));
      if (!words.length || sameBusiness(words, business)) continue;
      if (m[1].toLowerCase().split(/[^a-z]+/).some((w) => LENDER_WORDS.has(w)) || sameBusiness(words, signature)) continue;
      return true;
    }
  }
  return false;
}

/** A decision sentence naming its file: "Approved 60k ... for Pinecrest", "Lakeside is declined" (a name never spans a line break:
 * a portal banner's "APPROVED - MODIFIED TERMS" over "This file is approved" names no file; holdout23). */
const DECISION_FOR = /\b(?:approved|approval|declined?|decline|pass(?:ing)?|counter(?:ed)?|denied|(?:revised|updated|new|amended) (?:numbers|terms|offer|pricing|quote))\b(?:[^.!?\n]|\.(?=\d)){0,60}?\b(?:for|on)\s+([A-Z][\w&'-]*(?:[ \t]+(?:[A-Z][\w&'-]*|&)){0,3})|\b([A-Z][\w&'-]*(?:[ \t]+(?:[A-Z][\w&'-]*|&)){0,3})\s+(?:is|was|got|has been)\s+(?:approved|declined|denied|countered)\b/gi;
/** (holdout42) A line headed by a name and its decision ("Poplar Bluff Wrecker Service LLC - DECLINE.", a credit note's first line).
 * Case-sensitive: a name is capitalised words ("Spoke with credit - approved" names no business). (revF) Never a greeting or
 * thanks to the broker ("Thanks Dana - Approved Pinecrest at 60k"). */
const NAME_DASH_DECISION = /^[ \t]*(?!(?:Hi|Hello|Hey|Dear|Thanks|Thank|Congrats|Congratulations)\b)([A-Z][\w&'.-]*(?:[ \t]+(?:[A-Z][\w&'.-]*|&)){1,5})[ \t]+[-–—][ \t]+(?:[Aa]pproved|APPROVED|[Dd]eclined?|DECLINED?|[Dd]enied|DENIED|[Cc]ountered|COUNTERED)\b/gm;
/**
 * (rfix14) A line opening on a business and its terms, a comma between ("Queens Boulevard Optical, 35,000 at 1.35, 140 days"): the
 * decision's file named by the lender. Case-sensitive, two words at least; never a greeting ("Hi Dana, 35k at ...").
 * (revz) ... nor an opener that names no business: "Congrats Dana,", "Per UW,"; and two words opened by a word of the trade's
 * openers ("Happy Friday,", "Top Line,", "Final Offer,", "Sounds Good,"), while "Happy Paws Grooming," still names a business.
 */
const NAME_THEN_TERMS = /^[ \t]*(?!(?:Hi|Hello|Hey|Yo|Dear|Good|Congrats|Congratulations|Thanks|Thank|Morning|Afternoon|Evening|Ok|Okay|So|Also|And|But|Per|Attn)\b)(?!(?:Great|Happy|Sounds|Sure|Yes|Yep|Top|Final|Counter|Revised|Updated)[ \t]+[A-Z][\w&'.-]*,)([A-Z][\w&'.-]*(?:[ \t]+(?:&|and|of|[A-Z][\w&'.-]*)){1,5}),[ \t]+\$?\d[\d,.]*[ \t]?k?(?=[ \t]*(?:,|\/|@|at\b|x\b|for\b))/gm;
/**
 * (rcond) The decision's word right before the file it names, no "for" between, the name closing its clause: "Approved Harbor
 * Bakery.", "DECLINED - Harbor Bakery", "Approval: Harbor Bakery, 60k at 1.38", "Approved Harbor Bakery - 60k / 1.38" (a subject-
 * like opener at the head of a line or sentence). Two capitalised words at least (one is as often the broker greeted, "Approved
 * Dana!"), each a word in title case; never an adverb, a preposition or a label read as a name ("Approved As Submitted", "Approved In Full",
 * a table's "Approval Valid Through"); the noun ("Approval", "Decline") only with a colon or dash before the name.
 * (revF) Also after a dash opener ("Good news - Approved Harbor Bakery."), the name closed by a parenthesis or a legal suffix
 * ("Approved Harbor Bakery LLC 60k"); never a holiday greeted ("Approved Happy Thanksgiving!") nor the submitting ISO (foreignDecision).
 */
const DECISION_THEN_NAME = /(?:^|[.!?][ \t]+|[ \t][-\u2013\u2014][ \t]+)[ \t]*(?:(?:[Aa]pproved|APPROVED|[Dd]eclined|DECLINED|[Dd]enied|DENIED|[Cc]ountered|COUNTERED)[ \t]*(?:[-:|\u2013\u2014][ \t]*|[ \t])|(?:[Aa]pproval|APPROVAL|[Dd]ecline|DECLINE)[ \t]*[-:|\u2013\u2014][ \t]*)(?:the[ \t]+)?(?!(?:Valid|Expires|Expiring|Expiration|Expiry|Effective|Through|Until|Date|Status|Type|Amount|Number|Code|Letter|Notice|Summary|Details|Conditions|Requirements|Level|Tier|Rate|Decision|Period|Window|Reference|Funding|As|In|With|Per|At|For|On|By|To|Subject|Pending|Upon|Once|If|But|And|So|Or|Conditionally|Today|Now|Again|Here|See|Please|Attached|Below|Above|Congrats|Congratulations|Thanks|Thank|Hi|Hello|Hey|Dear|Yes|Yep|Sure|Great|Good|Full|Fully|Final|Officially|Contingent|Conditional|Both|All|Everything|Terms|Offer|Deal|File|Submission|Merchant|Client|Same|Standard|New|Revised|Updated|Buy|Sell|Max|Min|Net|Gross)\b)(?!(?:Happy|Merry)[ \t]+[A-Z][\w&'.-]*[ \t]*[!,])([A-Z][a-z][\w&'.-]*(?:[ \t]+(?:&|and|of|[A-Z][a-z][\w&'.-]*)){1,4})[ \t]*(?=[.!,:;(\u2013\u2014|]|[ \t]+-|[ \t]*$|[ \t]+(?:for|at|with|@)[ \t]+\$?\d|(?:LLC|L\.L\.C\.|Inc|Corp|Co|Ltd|LLP|PLLC|PC|DBA|dba)\b)/gm;
/** Capitalised words after "for"/"on" that name no file: time, states, the lender's own words. */
const NOT_A_FILE = new RegExp(`^(?:${['the', 'a', 'an', 'this', 'that', 'it', 'us', 'you', 'me', 'them', 'him', 'her', 'monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday', 'january', 'february', 'march', 'april', 'may', 'june', 'july', 'august', 'september', 'october', 'november', 'december', 'jan', 'feb', 'mar', 'apr', 'jun', 'jul', 'aug', 'sep', 'sept', 'oct', 'nov', 'dec', 'q1', 'q2', 'q3', 'q4', 'iso', 'isos', 'funding', 'approval', 'approved', 'decline', 'declined', 'we', 'i', 'our', 'your', 'uw', 'credit', 'committee', ...V.STATES.flat()].join('|')})$`, 'i');

/**
 * (rfix22) The papers named for a business by its legal name, in the subject or the body ("Please DocuSign: Revenue Purchase
 * Agreement - Corcoran Tractor & Tire Inc", "Contracts for Harbor Bakery LLC attached"): a name ending in a company's suffix that
 * is not the deal's business is another merchant's contract, whichever thread it came on (a person checks which file it is for).
 * Only with the deal's business known; the deal's own name, shortened or in full, is no other business.
 */
const PAPERS_FOR = /\b(?:[Aa]greements?|AGREEMENTS?|[Cc]ontracts?|CONTRACTS?|[Dd]ocs|DOCS|[Dd]ocuments|[Ee]nvelope|[Cc]losing [Pp]ackage|[Oo]ffer [Ll]etter)\s*(?:[-\u2013\u2014:|]|\bfor\b|\bre:?)\s*((?:[A-Z][\w'&.-]*[ \t]+|&[ \t]+|(?:of|and|the)[ \t]+){1,6}(?:Inc|LLC|L\.L\.C|Co|Corp|Corporation|Ltd|Company|LP|LLP|PLLC)\b\.?)/;
export function papersForOther(text: string, ctx?: ReplyContext): string | null {
  const business = nameWords(ctx?.business_name ?? '');
  if (!business.length) return null;
  const m = PAPERS_FOR.exec(normalizeText(text));
  if (m) {
    const named = nameWords(m[1]);
    return named.length && !sameBusiness(named, business) ? m[1].trim() : null;
  }
  // (revE) ... or by its name in capitals without the suffix ("Contracts attached for Harbor Bakery", "Re: Contracts - Harbor
  // Bakery"): two capitalised words or more, never a day, a month, the lender's words or a heading ("Contracts for Final Review")
  const n = PAPERS_NAMED.exec(normalizeText(text));
  if (!n) return null;
  const name = n[1].trim();
  const lower = name.toLowerCase().split(/[^a-z]+/).filter(Boolean);
  if (NOT_A_FILE.test(lower[0]) || lower.some((w) => LENDER_WORDS.has(w) || HEADING_WORDS.has(w) || PAPER_WORDS.has(w))) return null;
  const named = nameWords(name);
  return named.length && !sameBusiness(named, business) && !nearName(named, business) ? name : null;
}
const PAPERS_NAMED = /\b(?:[Aa]greements?|AGREEMENTS?|[Cc]ontracts?|CONTRACTS?|[Dd]ocs|DOCS|[Dd]ocuments|[Ee]nvelope|[Pp]aperwork)(?:[ \t]+(?:are[ \t]+|is[ \t]+)?(?:attached|enclosed|sent|out|ready|going out))?[ \t]*(?:[-\u2013\u2014:|]|\bfor\b|\bon\b)[ \t]*([A-Z][\w&'-]*(?:[ \t]+(?:[A-Z][\w&'-]*|&)){1,3})\b(?![ \t]*[A-Za-z&'-]*[ \t]*(?:Inc|LLC)\b|[ \t]+to\b|[ \t]+[A-Za-z&'-]+[ \t]+to\b)/;
const PAPER_WORDS = new Set(['revenue', 'purchase', 'agreement', 'agreements', 'contract', 'contracts', 'docusign', 'signature', 'signing', 'future', 'receivables', 'sale', 'rpa', 'mca', 'closing', 'package', 'please', 'sign', 'review', 'attached', 'approved']);

/**
 * A decision sentence that names another business than the deal's (a name after "approved ... for", or "X is approved"),
 * (revC) or revised terms named for one ("Updated numbers on Harbor Bakery", read as new terms by the rfix21 revision rule),
 * a line headed by a name and its decision ("X LLC - DECLINE."), or "your other deal / the other file": the name, or null.
 * Only with the deal's business known; the lender's own name, days, months, states and the trade's words are not businesses.
 */
export function foreignDecision(own: string, ctx?: ReplyContext): string | null {
  const business = nameWords(ctx?.business_name ?? '');
  if (!business.length) return null;
  const text = normalizeText(own);
  if (OTHER_FILE.test(text) || /\b(?:your|the|that) other (?:deal|file|submission|merchant|one)\b/i.test(text)) return 'another file';
  // (rfix17) the lender saying its answer belongs to another file than the thread's: "this is about Harbor Marine, not <this
  // deal>", "replying here, I lost the other thread", "wrong thread": whatever it asks or decides, a person files it
  const about = ABOUT_NOT.exec(text);
  if (about && (sameBusiness(nameWords(about[2]), business) || !sameBusiness(nameWords(about[1]), business))) return asWritten(about[1]) || 'another file';
  if (misdirected(text, ctx?.business_name ?? '', business)) return 'another file';
  // (revs) a decision for a business described by its trade, not named ("Approved for the pizza shop" on a veterinary clinic's
  // thread): a trade word the deal's name neither has nor shortens is another file's, a person files it
  // (rfix19) ... and so is a decline or a counter told the same way, whichever place the trade takes in the sentence: "The nail
  // salon is declined", "we are declining the nail salon", "Nail salon - DECLINED", "For the nail salon we can do 60k"
  const full = (ctx?.business_name ?? '').toLowerCase().split(/[^a-z0-9]+/).filter((w) => w.length >= 3);
  // (revA) a word of the deal's own trade told another way is kin too: "the dental office" for "... Family Dentistry", "the
  // restaurant" for "Rosa's Taqueria", "the animal clinic" for "... Veterinary Clinic"
  const kin = (x: string) => full.some((u) => sameWord(x, u) || abbreviates(x, u) || abbreviates(u, x)) || sameTrade(x, full);
  for (const re of TRADE_DECISIONS) {
    re.lastIndex = 0;
    let trade: RegExpExecArray | null;
    while ((trade = re.exec(text))) {
      const noun = trade[2].toLowerCase();
      const quals = (trade[1] ?? '').toLowerCase().split(/\s+/).filter((w) => w && !TRADE_GENERIC.has(w));
      if (quals.length && !quals.some(kin)) return `the ${(trade[1] ?? '').toLowerCase()} ${noun}`;
      // (revA) ... and so is a bare trade ("The bakery is declined", "Approved for the salon") on the thread of a deal whose name
      // tells another trade (a veterinary clinic's): a noun that tells no trade ("the shop", "the office") or a name that tells
      // none ("JMT Holdings") leaves it this deal's
      if (!quals.length && !TRADE_GENERIC_NOUN.has(noun) && tellsTrade(full) && !kin(noun)) return `the ${noun}`;
    }
  }
  let m: RegExpExecArray | null;
  for (const re of [DECISION_FOR, NAME_DASH_DECISION, NAME_THEN_TERMS, DECISION_THEN_NAME]) {
    re.lastIndex = 0;
    while ((m = re.exec(text))) {
      // the name as capitalised (the match itself ignores case): "DocuSign delivery" is "DocuSign"
      const parts = (m[1] ?? m[2]).trim().split(/\s+/);
      const cut = parts.findIndex((w) => !/^[A-Z&]/.test(w));
      const name = parts.slice(0, cut < 0 ? parts.length : cut).join(' ');
      const first = parts[0];
      if (!name || !/^[A-Z]/.test(first) || NOT_A_FILE.test(first)) continue;
      const words = nameWords(name);
      if (!words.length || sameBusiness(words, business)) continue;
      // (revF) ... nor the submitting ISO greeted after the decision word ("Approved Summit Valley!" to Summit Valley Capital)
      if (re === DECISION_THEN_NAME && (ctx?.iso?.names ?? []).some((n) => { const iso = nameWords(n); return iso.length > 0 && (sameBusiness(words, iso) || words.every((w) => iso.includes(w))); })) continue;
      if (name.toLowerCase().split(/[^a-z]+/).some((w) => LENDER_WORDS.has(w))) continue;
      // (review) a heading of the decision itself, not a business: "Final Decision - Approved", "Credit Status - Declined"
      if (name.toLowerCase().split(/[^a-z]+/).filter(Boolean).every((w) => HEADING_WORDS.has(w))) continue;
      // the lender naming itself ("Approved on Harbor Point ... Kim, Harbor Point Commercial"): its name in the sign-off
      const blocks = text.trim().split(/\n\s*\n/);
      const last = blocks.length >= 2 ? blocks[blocks.length - 1] : '';
      // (revz) ... never the block the name was found in: a reply ending on "Millbrook Hardware Supply, 45,000 at 1.36, ..." names that file
      if (last.split('\n').length <= 4 && !last.includes(m[0].trim()) && sameBusiness(words, nameWords(last))) continue;
      return name;
    }
  }
  // (rfix15) the file the reply says it takes up, by its name after the word for a file: "Following up on the referral for
  // Moorfield Boat & RV LLC.", "Regarding the application for Cedar Row Bakery:" (a decision below it is that file's)
  FILE_TAKEN_UP.lastIndex = 0;
  while ((m = FILE_TAKEN_UP.exec(text))) {
    const words = nameWords(asWritten(m[1]));
    if (!words.length || sameBusiness(words, business) || nearName(words, business)) continue;
    // (revz) a legal name with the deal's own trade name after it: "the application for Northside Animal Care LLC dba Pinecrest
    // Veterinary Clinic" takes up this deal's file
    const dba = DBA_AFTER.exec(text.slice(m.index + m[0].length));
    if (dba) {
      const trade = nameWords(asWritten(dba[1]));
      if (trade.length && (sameBusiness(trade, business) || nearName(trade, business))) continue;
    }
    if (m[1].toLowerCase().split(/[^a-z]+/).some((w) => LENDER_WORDS.has(w) || HEADING_WORDS.has(w))) continue;
    return asWritten(m[1]);
  }
  return null;
}

/** (rfix17) "This is about X, not Y" / "these answers are for X, not Y": the reply names the file it is about against another. */
const ABOUT_NOT = /\b(?:this|it|these|my)(?:[ \t]+(?:reply|note|notes|answers?|questions?|email|comments?|requests?))?(?:'s|[ \t]+is|[ \t]+are)?[ \t]+(?:(?:all|only)[ \t]+)?(?:about|for|re:?|regarding|on)[ \t]+([^.!?\n,]{2,60}?),?[ \t]+not[ \t]+(?:for[ \t]+|about[ \t]+|on[ \t]+)?(?:the[ \t]+)?([^.!?\n,]{2,60})/i;
/** (revs) A decision for a business told by its trade: "approved for the pizza shop", "declined on the nail salon". */
const TRADE_NOUN = '(shop|office|salon|restaurant|store|clinic|practice|bakery|garage|gym|spa|cafe|bar|diner|pharmacy|dealership|daycare|studio)';
// (revA) the trade's words before its noun may be none: "the bakery", "the salon"
const TRADE_QUALS = '(?:([a-z]+(?:[ \\t][a-z]+)?)[ \\t]+)?';
const TRADE_DECISION = new RegExp(`\\b(?:[Aa]pproved|[Aa]pproval|[Dd]eclined?|[Pp]assing|[Pp]assed|[Ff]unded|[Cc]ounter(?:ed|ing)?)[ \\t]+(?:for|on)[ \\t]+the[ \\t]+${TRADE_QUALS}${TRADE_NOUN}\\b`, 'g');
/**
 * (rfix19) The same decision with the trade in other places: its subject ("the nail salon is declined", "the pizza shop got
 * countered"), its object ("declining the nail salon", "we'll counter the pizza shop"), a line headed by it ("Nail salon -
 * DECLINED") or a sentence opened on it ("For the nail salon we can do 60k ..."). The trade's words are read in lower case;
 * a line's head may be capitalised.
 */
const TRADE_DECISIONS = [
  TRADE_DECISION,
  new RegExp(`\\b[Tt]he[ \\t]+${TRADE_QUALS}${TRADE_NOUN}(?:'s[ \\t]+(?:file|deal|application|submission))?[ \\t]+(?:is|was|has been|got|gets|will be|is getting)[ \\t]+(?:a[ \\t]+)?(?:approved|declined|denied|countered|funded|pass|no|decline|passed on)\\b`, 'g'),
  new RegExp(`\\b(?:[Dd]eclin(?:e|ed|ing)|[Dd]en(?:y|ied|ying)|[Cc]ounter(?:ed|ing)?|[Aa]pprov(?:e|ed|ing)|[Pp]ass(?:ed|ing)?[ \\t]+on|[Ff]und(?:ed|ing)?|[Tt]urn(?:ed|ing)?[ \\t]+down)[ \\t]+the[ \\t]+${TRADE_QUALS}${TRADE_NOUN}\\b`, 'g'),
  new RegExp(`(?:^|\\n)[ \\t]*(?:[Tt]he[ \\t]+)?([A-Za-z]+(?:[ \\t][A-Za-z]+)?)[ \\t]+(Shop|Office|Salon|Restaurant|Store|Clinic|Practice|Bakery|Garage|Gym|Spa|Cafe|Bar|Diner|Pharmacy|Dealership|Daycare|Studio|${TRADE_NOUN.slice(1, -1)})[ \\t]*[-\u2013\u2014:][ \\t]*(?:approved|declined?|denied|pass|countered|counter|APPROVED|DECLINED?|DENIED|PASS|COUNTERED|COUNTER|Approved|Declined?|Denied|Pass|Countered|Counter)\\b`, 'g'),
  new RegExp(`(?:^|[.!?\\n][ \\t]*)(?:[Ff]or|[Aa]s for|[Rr]e:?|[Rr]egarding|[Oo]n)[ \\t]+the[ \\t]+${TRADE_QUALS}${TRADE_NOUN}\\b`, 'g'),
];
/** (revA) A trade's noun that tells no trade by itself: "the shop is declined" may be any deal's. */
const TRADE_GENERIC_NOUN = new Set(['shop', 'office', 'store', 'practice', 'studio']);
/**
 * (revA) Words that tell one trade, however it is said: a restaurant is a taqueria, a grill or a pizzeria; a veterinary clinic an
 * animal hospital or a vet; a dentistry a dental office. A word sharing a family with a word of the deal's name is the deal's trade.
 */
const TRADE_FAMILIES: string[][] = [
  'restaurant diner cafe bar grill kitchen bistro eatery taqueria pizzeria cantina tavern pub deli bbq barbecue steakhouse sushi taco tacos pizza burger burgers catering brewery trattoria ristorante mexican italian chinese thai food foods'.split(' '),
  'bakery bakeshop bake bakes cake cakes pastry pastries bread donut donuts doughnut doughnuts cupcake cupcakes cafe'.split(' '),
  'veterinary vet vets animal animals pet pets clinic hospital'.split(' '),
  'dental dentist dentists dentistry orthodontic orthodontics orthodontist clinic office'.split(' '),
  'medical medicine health chiropractic chiropractor chiro physician physicians clinic urgent'.split(' '),
  'salon spa nail nails hair beauty barber barbers barbershop lash lashes brow brows wax waxing cosmetology'.split(' '),
  'garage auto automotive collision body tire tires mechanic mechanics motors repair dealership cars car'.split(' '),
  'gym fitness crossfit yoga pilates training boxing martial'.split(' '),
  'pharmacy drug drugs rx apothecary'.split(' '),
  'daycare childcare child children kids learning preschool montessori'.split(' '),
];
// a word as written or its plural, never a prefix ("Carson" is no "cars")
const inFamily = (x: string, f: string[]) => f.includes(x) || (x.endsWith('s') && f.includes(x.slice(0, -1)));
/** (revA) Kinds within a trade that are not one another: a sushi bar is no taqueria, though both are restaurants. */
const TRADE_KINDS = new Set('taqueria pizzeria cantina tavern pub deli bbq barbecue steakhouse sushi taco tacos pizza burger burgers catering brewery trattoria ristorante mexican italian chinese thai'.split(' '));
const isTradeNoun = (w: string) => new RegExp(`^${TRADE_NOUN}$`).test(w) || w === 'hospital';
/**
 * (revA) Whether a word tells the same trade as a word of the deal's name: a word that tells the deal's own trade ("the
 * restaurant" for "Rosa's Taqueria", "the dental office" for "... Dentistry"), never a noun many trades share (a veterinary
 * clinic's "clinic" makes no "dental clinic" its own) nor another kind of the same trade ("the sushi bar" on a taqueria's thread).
 */
const sameTrade = (x: string, full: string[]) =>
  TRADE_FAMILIES.some((f) => inFamily(x, f) && full.some((u) => inFamily(u, f) && !isTradeNoun(u) && !(TRADE_KINDS.has(x) && TRADE_KINDS.has(u) && x !== u)));
/** (revA) Whether the deal's name tells a trade at all ("Pinecrest Veterinary Clinic" does, "JMT Holdings" does not). */
const tellsTrade = (full: string[]) => full.some((u) => TRADE_FAMILIES.some((f) => inFamily(u, f)) || new RegExp(`^${TRADE_NOUN}$`).test(u));
/** Words before a trade's noun that tell no trade: "the new store", "the main office". */
const TRADE_GENERIC = new Set('new main first second third whole same existing current old local little big front back home the a an this that your our their his her my'.split(' '));
/** (rfix17) A reply written into a thread it does not belong to: "I lost the other thread", "wrong thread", "couldn't find your email on it". */
const OTHER_THREAD = /\b(?:lost|can'?t find|couldn'?t find|misplaced|deleted)[ \t]+(?:the|your|our|that)[ \t]+(?:other|right|original|correct)[ \t]+(?:thread|email|chain)\b|\b(?:wrong|another|a different|the wrong)[ \t]+(?:thread|email chain|chain)\b/i;

/**
 * (rfix19) Whether the reply says it was written into the wrong thread. A thread named as not the wrong one ("not the wrong
 * thread", "this isn't the wrong thread") says nothing of the kind; one named only as a possibility ("sorry if this lands in
 * the wrong thread, but for <this deal>: ...", "in case this ends up in the wrong thread") is misdirection only when the reply
 * does not go on to name this deal's business (by a distinctive word of its name, or its trade: "for the bakery"). "Oops,
 * wrong thread" or "I lost the other thread" stays misdirection whatever the reply names.
 */
function misdirected(text: string, businessName: string, business: string[]): boolean {
  const re = new RegExp(OTHER_THREAD.source, 'gi');
  let m: RegExpExecArray | null;
  while ((m = re.exec(text))) {
    const start = Math.max(text.slice(0, m.index).search(/[^.!?\n]*$/), 0);
    const before = text.slice(start, m.index).toLowerCase();
    if (THREAD_NOT_WRONG.test(before)) continue;
    if (THREAD_MAYBE_WRONG.test(before) && namesThisDeal(text.slice(m.index + m[0].length), businessName, business)) continue;
    return true;
  }
  return false;
}
/** The deal's business named: a distinctive word of its name, or "the <trade>" a word of its full name ("for the bakery"). */
function namesThisDeal(text: string, businessName: string, business: string[]): boolean {
  // (revA) a word of the name that tells a trade ("bakery", "clinic") names any business of that trade: it counts only as "the
  // <trade>" below, never wherever it stands ("the bakery on 5th - Golden Loaf - approved" names another bakery)
  const distinct = business.filter((w) => !tradeWord(w));
  if (distinct.length && nameRe(distinct).test(text)) return true;
  const full = businessName.toLowerCase().split(/[^a-z0-9]+/).filter((w) => w.length >= 4 && !NAME_FILLER.has(w));
  return full.some((w) => {
    const re = new RegExp(`\\b(?:the|this|your)[ \\t]+${w}\\b`, 'gi');
    let m: RegExpExecArray | null;
    while ((m = re.exec(text))) if (!TRADE_SET_APART.test(text.slice(m.index + m[0].length))) return true;
    return false;
  });
}
/**
 * (revA) A trade told apart by a place or a name of its own: "the clinic in Tampa", "the bakery on 5th", "the clinic (Bayside
 * Animal Hospital)", "the bakery - Golden Loaf": one of several businesses of that trade, not this deal named.
 */
const TRADE_SET_APART = /^(?:[ \t]+(?:in|on|at|near|by|off|over|across|down|up|from|of)\b|[ \t]*(?:\(|[-\u2013\u2014,:][ \t]*(?:the[ \t]+)?[A-Z][a-z]+[ \t]+[A-Z]))/;
/** (revA) A word that tells a trade: a trade's noun or a word of a trade family. */
const tradeWord = (w: string) => new RegExp(`^${TRADE_NOUN}$`).test(w) || TRADE_FAMILIES.some((f) => inFamily(w, f));
/** Words before "wrong thread" that deny it: "not the wrong thread", "this isn't the wrong thread", "no wrong thread". */
const THREAD_NOT_WRONG = /\b(?:not|isn't|is not|wasn't|was not|no|never)(?:[ \t]+(?:on|in|to|into))?(?:[ \t]+(?:the|a))?[ \t]*$/;
/** Words before "wrong thread" that only allow for it: "sorry if this lands in", "in case this ends up on", "this may be". */
const THREAD_MAYBE_WRONG = /\b(?:if|in case|may|might|could|possibly|perhaps|maybe|not sure|unsure|whether)\b/;

/** (revz) A trade name written after a legal one: ", dba Pinecrest Veterinary Clinic", " (d/b/a Pinecrest Vet)". */
const DBA_AFTER = new RegExp(`^[ \\t]*,?[ \\t]*\\(?[ \\t]*(?:[Dd]\\.?\\/?[Bb]\\.?\\/?[Aa]\\.?|DBA|[Dd]oing [Bb]usiness [Aa]s|[Aa]\\/[Kk]\\/[Aa]|AKA|aka)[ \\t]+(${CAP_RUN})`);
/**
 * (rfix15) A file named after the word for it, where a reply says what it takes up: "the referral for X", "your application from X".
 * (revz) A referral, a submission, a package or a file comes "from" the broker who sent it ("the package from Dana Whitfield"):
 * only an application or a request names its merchant after "from".
 */
const FILE_TAKEN_UP = new RegExp(`\\b(?:[Ff]ollowing up|[Ff]ollow(?:ing)?-up|[Ww]riting|[Rr]eaching out|[Gg]etting back to you|[Rr]egarding|[Aa]s to|[Aa]s for|[Aa]bout)[ \\t]+(?:on[ \\t]+|about[ \\t]+|regarding[ \\t]+)?(?:the|your|this)[ \\t]+(?:(?:referral|application|loan request|credit request|request|submission|file|package)[ \\t]+(?:for|on)|(?:application|loan request|credit request)[ \\t]+from)[ \\t]+(${CAP_RUN})`, 'g');

/**
 * One reply answering several files in running prose ("Approved 60k ... for Pinecrest. Approved 40k ...
 * for Lakeside."): decision sentences naming two different files. The sentences naming the deal's
 * business are read when it is known; otherwise the whole reply, for a person (multiple_deals).
 */
function splitDealSentences(own: string, ctx?: ReplyContext): { own: string; multiple: boolean; picked: boolean } {
  const text = normalizeText(own);
  const sentences = text.split(/(?<=[.!?])\s+|\n+/).filter((x) => x.trim());
  const named = sentences.map((sentence) => {
    const found = new Set<string>();
    DECISION_FOR.lastIndex = 0;
    let m: RegExpExecArray | null;
    while ((m = DECISION_FOR.exec(sentence))) {
      const name = (m[1] ?? m[2]).trim();
      const first = name.split(/\s+/)[0];
      // a name is capitalised as written (the match itself ignores case)
      if (/^[A-Z]/.test(first) && !NOT_A_FILE.test(first)) found.add(first.toLowerCase());
    }
    return { sentence, found };
  });
  const names = new Set(named.flatMap((n) => [...n.found]));
  if (names.size < 2) return { own, multiple: false, picked: false };
  const words = (ctx?.business_name ?? '').toLowerCase().split(/[^a-z0-9]+/).filter((w) => w.length >= 3 && !['the', 'and', 'llc', 'inc'].includes(w));
  const mine = named.filter((n) => [...n.found].some((f) => words.includes(f)));
  if (!mine.length) return { own, multiple: true, picked: false };
  return { own: mine.map((n) => n.sentence).join('\n'), multiple: true, picked: true };
}
