import { normalizeText } from '../reply-text';
import * as V from '../vocabulary';
import type { ClassifierReviewReason, ExtractedOffer, PaymentFrequency, ReplyContext, ReplyType, TermUnit } from './types';
import { blankBoilerplate, minutesSections, offerText, prepare, round2, wordsToDigits } from './text';
import { APPROVED_CUES, AUTO_CUES, AUTO_SUBJECT, CEILING_CUES, CLOSING_CUES, CORRECTION_CUES, COUNTER_CUES, DECLINED_CUES, type Fired, HOLD_CUES, MARKETING_CUES, NEEDS_CUES, PENDING_CUES, PRODUCT_CUES, RELAYED_CUES, SCHEDULE_CUES, STRUCTURE_CUES, TENTATIVE_CUES, WITHDRAWAL_CUES, add, score } from './cues';
import { blankBusinessName, declineCategory } from './decline-category';
import { BROKER_SIDE_RE, DOC_WORDS, requestedItems } from './requested-items';
import { TERM_CAP_RE, askedFrequency, askedTerm, termDiffers } from './money';
import { extractOffers, floatedAmounts } from './offers';
import { NO_AMOUNT, refusedAskByName } from './ask';

// ---------------------------------------------------------------- the classifier

/**
 * (rfix19) A sentence asking that a lien, a judgment or taxes owed be paid off, cleared or released (before funding, at
 * funding, first): a condition the merchant meets before the approved terms fund, not a payoff of another funder's position.
 * A sentence naming a position, an advance, a balance owed to a funder or a funder's payoff is left as it is.
 */
const LIEN_DEBT = String.raw`(?:(?:tax|irs|state|federal|mechanic'?s|judgment) liens?|liens?|judgments?|back taxes|(?:payroll|sales|property|income) taxes|tax (?:debt|balance|bill|levy|levies)|irs (?:debt|balance|levy))`;
const LIEN_PAYOFF = new RegExp(
  String.raw`\b(?:pay(?:s|ing)?|paid|satisf(?:y|ies|ied)|clear(?:s|ed|ing)?|releas(?:e|es|ed|ing)|resolv(?:e|es|ed|ing)|take care of|payoff of)\b(?:[^.!?\n;]{0,30}?\b(?:off|out|up))?[^.!?\n;]{0,30}?\b${LIEN_DEBT}\b` +
    String.raw`|\b${LIEN_DEBT}\b[^.!?\n;]{0,30}?\b(?:(?:has|have|needs?|must|will need|would need) to be|(?:is|are|being|be|gets?|getting)) (?:paid(?: off| in full)?|satisfied|cleared|released|resolved)\b`,
);
const POSITION_WORDS = /\b(?:positions?|advances?|mca|mcas|funders?|lenders?|loans?|1st|2nd|3rd|first position|second position|renewal|consolidat\w*|buy-?out|buyout)\b/;
/** (revA) The lender's own position once a lien is paid: "so we're in 1st position", "to be in first", "we need to be 1st". */
const OUR_POSITION = /\b(?:we(?:'re| are|'ll be| will be| can be| need to be| have to be| must be)?|us|to be|be)\s+(?:in\s+)?(?:the\s+)?(?:1st|first)(?:\s+position)?\b/g;
export function blankLienPayoffs(lower: string): string {
  return lower
    .split(/(?<=[.!?\n;])/)
    .map((x) => {
      const m = LIEN_PAYOFF.exec(x);
      if (!m) return x;
      // (revA) the lender's own place once the lien is gone ("so we're in 1st position") names no other funder's position
      if (POSITION_WORDS.test(x.replace(OUR_POSITION, ' '))) return x;
      return ' '.repeat(x.length);
    })
    .join('');
}

/**
 * (revA) The rows of a checks table beside the lender's decision row: two or more adjacent lines each a label and a check's
 * result ("Bank statements | PASS", "TIB: PASS", "Voided check | PASS"), in a reply whose own decision row gives another word
 * ("Decision: APPROVED"). Their PASS is a check passed, whatever the label, never the lender passing on the file; such rows are
 * blanked for the decline cues and the decline reason. A lone "X - pass" or a reply with no decision row of its own is left.
 */
const CHECK_ROW = /^[ \t]*(?!(?:(?:uw|underwriting|credit|final|file|submission|deal|application|committee|overall|new|our|funding)[ \t]+){0,2}(?:decision|status|outcome|verdict|determination|answer|result)\b)[a-z][^:|\t\n]{0,40}?[ \t]*(?:[:|\t])[ \t]*(pass(?:ed)?|fail(?:ed)?|clear(?:ed)?|ok|n\/a|yes|no|verified|pending|received|on file)[ \t]*\|?[ \t]*$/;
const OWN_DECISION_ROW = /(?:^|\n)[ \t]*(?:(?:uw|underwriting|credit|final|file|submission|deal|application|committee|overall|new|our|funding)[ \t]+){0,2}(?:decision|status|outcome|verdict|determination)[ \t]*[:|\t-][ \t]*\**(?!pass\b)(?:approved|declined?|denied|countered|counter|conditional(?:ly approved)?)\b/;
export function blankCheckRows(lower: string): string {
  if (!OWN_DECISION_ROW.test(lower)) return lower;
  const lines = lower.split('\n');
  const row = lines.map((l) => CHECK_ROW.exec(l));
  return lines
    .map((l, i) => {
      const m = row[i];
      if (!m || !/^pass/.test(m[1]) || !(row[i - 1] || row[i + 1])) return l;
      return ' '.repeat(l.length);
    })
    .join('\n');
}

/**
 * (rfix32) A letter-grade scorecard (three rows or more, each a label and a grade: "Revenue: B+  $88k", "Balances | A | ADB $9k"):
 * a row graded A or B is a strength, never the reason for a decline, whatever its label or note names ("Balances: B  ADB $9k");
 * those rows are blanked for the decline reason, so the failing row ("Industry: F  prohibited list") and the verdict name it.
 */
const GRADE_ROW = /^[ \t]*[a-z][a-z /&'().-]{1,30}?[ \t]*[:|\t][ \t]*([a-f])([+-]?)(?![\w+-])/;
export function blankPassingGradeRows(lower: string): string {
  const lines = lower.split('\n');
  const rows = lines.map((l) => GRADE_ROW.exec(l));
  if (rows.filter(Boolean).length < 3) return lower;
  return lines.map((l, i) => (rows[i] && /^[ab]$/.test(rows[i]![1]) ? ' '.repeat(l.length) : l)).join('\n');
}

/**
 * (rfix22) A marketplace's tally of the other funders that said no ("3 funders declined and 2 did not respond", "two other lenders
 * passed"): those funders' answers, not the decision on the file. The tally is blanked (up to where the sender goes on:
 * "3 participants declined, so we can't fund" keeps its "so we can't fund")
 * for the decline cues and the decline reason. Never every funder ("all 5 funders declined", "5 of 5 funders passed", "none of the
 * funders"). A tally alone ("3 funders declined and 2 are still reviewing") is then no decision either: for a person.
 */
const NUM_WORD = '\\d{1,2}|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|several|some|a few|most|many|the other|other';
const FUNDER_TALLY = new RegExp(`(?<!\\b(?:all|of|every|each)\\s+)\\b(?:${NUM_WORD})\\s+(?:other\\s+|more\\s+|remaining\\s+)?(?:funders?|lenders?|buyers?|participants?|capital providers?)(?:\\s+(?:on|in|from) (?:the |our |this )?[\\w-]+)?\\s+(?:have\\s+|has\\s+|also\\s+)?(?:declined|passed|said no|turned (?:it|this|the file) down|did not (?:match|respond)|didn't (?:match|respond))\\b[^.!?\\n;]*?(?=[.!?\\n;]|,?\\s+(?:so|but|which|hence|therefore|and (?:so|we|i|our|the lead|that))\\b|$)`, 'g');
export function blankFunderTally(lower: string): string {
  return lower.replace(FUNDER_TALLY, (m) => ' '.repeat(m.length));
}

/** A refusal in words among the declined cues' hits (not "sorry", not a reason word, not a revisit). */
const FIRM_NO = /can't|cannot|can not|unable|not able|won't|will not|not (moving|going)|pass\b|declin|no[- ]go|turn\w* (it|this|that)|not for us|doesn't work|does not work/;
/** The deal approved as it was sent, not negated: "approved as submitted", "approve it as requested" (never "can't approve it as submitted"). */
const AS_SUBMITTED = /(?<!\b(?:not|never|cannot|can't|won't|couldn't|unable to|declined?|pass)\s)\b(?:approved|approve|approving|signed off|good to go)(?: on)?(?: it| this| the (?:file|deal|request)| [a-z'&-]+)? (?:exactly |just )?as (?:submitted|requested|presented|applied(?: for)?|sent|structured|asked)\b/;
/** The schedule a refusal names ("the weekly isn't"): the one asked for (vocabulary.ts COUNTER rows marked `schedule`). */
function refusedSchedule(f: Fired): PaymentFrequency | null {
  for (const h of f.hits) {
    const m = /\b(bi-?weekly|semi-?monthly|daily|weekly|monthly)\b/.exec(h);
    if (m) return m[1].startsWith('bi') || m[1].startsWith('semi') ? 'bi-weekly' : (m[1] as PaymentFrequency);
  }
  return null;
}
/** A schedule kept for other files, not refused outright (vocabulary.ts COUNTER rows marked `schedule`). */
const SCHEDULE_KEPT = / (?:is|are) (?:only|reserved|kept|saved)\b/;
/**
 * (rfix14) ... but one set against the rest of the ask ("the 40 is no problem ... But weekly by us is only for files over 100"): the
 * "but" says it is the schedule the deal asked for, refused for this file, as plainly as "the weekly isn't".
 */
const SCHEDULE_KEPT_AGAINST_ASK = /\b(?:but|however|only (?:thing|problem|issue)(?: is)?)\b,?\s+(?:the\s+)?(?:weekly|daily|bi-?weekly|monthly)\b[^.!?\n]{0,30}?\b(?:is|are) (?:only|reserved|kept|saved)\b/;
/** A later look on the file once its reason is cleared. */
const SECOND_LOOK = /\b(?:take|have|give (?:it|this|the file)) another look\b|\blook again\b|\b(?:reconsider|revisit|re-?review|re-?submit)\b|\bbefore (?:we|i) (?:can|could|would|will) (?:consider|reconsider|look at|review|revisit|re-?review)\b/;

export interface Analysis {
  own: string;
  lower: string;
  approved: Fired;
  declined: Fired;
  needs: Fired;
  counter: Fired;
  auto: Fired;
  pending: Fired;
  /** An approval taken back ("have to pull the approval"). */
  withdrawal: Fired;
  /** Terms before the final word ("waiting on final sign-off", "approved up to", "no pricing yet"). */
  tentative: Fired;
  /** Another product than the advance asked for ("reverse consolidation"). */
  product: Fired;
  /** A correction of terms sent earlier ("Correction on Lucky 7: the factor is 1.38"). */
  correction: Fired;
  /** Terms relayed by another broker with its own points, not written by the lender ("one came back ... 2 pts on top for my side"). */
  relayed: Fired;
  /** The part of `counter` that is a payoff or position condition (vocabulary.ts COUNTER rows marked `structure`). */
  structure: Fired;
  /** A ceiling on the amount ("tops out at", "I'm at 40 max"): a counter below the ask, nothing at it. */
  ceiling: Fired;
  /** An approval held for a recheck (TENTATIVE rows marked `hold`): doubt about an approval, not about a request. */
  hold: Fired;
  /** The part of `counter` that refuses a payment schedule (vocabulary.ts COUNTER rows marked `schedule`). */
  schedule: Fired;
  /** The deal approved as it was submitted, in words ("approved as submitted", "approved as requested"). */
  asSubmitted: boolean;
  /** (holdout28) What is asked about the broker's own side (the closer, commissions, the ISO's paperwork), not the deal's. */
  brokerSide: string[];
  /** The only schedule remark keeps a schedule for other files ("weekly is only offered on files over $50k"), refusing none. */
  scheduleKeptOnly: boolean;
  offers: ExtractedOffer[];
  items: { items: string[]; hits: string[]; brokerSide: string[] };
  category: ReturnType<typeof declineCategory>;
  fixed: string[];
  /** A funder's marketing to its brokers (vocabulary.ts MARKETING). */
  marketing: Fired;
  /** The text names the deal's business (its name, or its first two words or more). */
  namesDeal: boolean;
  /** The strongest decision cue in the text itself, before subject and offer evidence. */
  ownDecision: number;
  /**
   * (rfix9) The decision a fresh subject line states (one with no "RE:"/"FW:" prefix, so the lender's own and not an old
   * subject carried along the thread): 'positive' (approved, an approval, a counter, funded), 'negative' (declined, denied,
   * not approved), null when it states none or both.
   */
  subjectDecision: 'positive' | 'negative' | null;
  /** The offers come from an attached PDF, not the body: they never turn the body's decline into a conflict. */
  offersAttached?: boolean;
  /** The approval in words alone (before offer terms and the subject count for it). */
  approvalWords: number;
  /** Amounts put forward, priced or not. */
  floated: number[];
  /** The same, written as amounts (a dollar sign, "k", thousands separators) or right before a factor, not bare shorthand. */
  floatedFirm: number[];
  /** Priced terms that name no amount ("Approved. 1.33 factor, 9 months"), completed with the ask when it is known (amount 0 when not). */
  termsWithoutAmount: ExtractedOffer[];
  /** The term the reply says was asked for ("the application asks for 12 months"), if it says one. */
  askedTerm: { term: number; unit: TermUnit } | null;
  /** The payment frequency the reply says was asked ("you asked for 9 months, weekly"), if it says one. */
  askedFreq: PaymentFrequency | null;
  /** (rfix) A decision taken back later in the same message ("Approved 50k ... Disregard the above"): the phrase, or null. */
  takenBack: string | null;
}

/** A decision taken back later in the same message (vocabulary.ts TAKEN_BACK), never in a disclaimer's "if you received this in error". */
const TAKEN_BACK_RE = new RegExp(`(?<!\\b(?:if|unless|intended recipient|received (?:this|it) in error)\\b[^.!?\\n]{0,120})\\b(?:${V.TAKEN_BACK.join('|')})`, 'g');
/** (rfix) The first take-back phrase that follows a decision in the text (an approval, a decline or a factor before it). */
function takenBackAfterDecision(lower: string): string | null {
  TAKEN_BACK_RE.lastIndex = 0;
  let m: RegExpExecArray | null;
  while ((m = TAKEN_BACK_RE.exec(lower))) {
    const before = lower.slice(0, m.index);
    if (score(before, APPROVED_CUES).score >= 2.5 || score(before, DECLINED_CUES).score >= 3 || score(before, COUNTER_CUES).score >= 3 || /(?<![\d.$,])[12]\.\d{2,3}(?![\d%])/.test(before)) return m[0].trim();
    if (m[0].length === 0) TAKEN_BACK_RE.lastIndex++;
  }
  return null;
}

const REFUSED_FACTOR = /\b(?:can't|cannot|can not|couldn't|could not|won't|unable to|not able to) (?:match|do|hit|get to|go to|go|beat|meet|get (?:you |him |her |them )?to)\s+(?:a |the |your )?([1-2]\.\d{1,3})\b|\byou (?:asked|wanted|requested)(?: for)?\s+(?:a |the )?([1-2]\.\d{1,3})\b/;

/**
 * (holdout35) A postscript that says it is about another file ("PS - different file: I still need the voided check on
 * Carver Street Deli ... declined in 48 hours"): not about this deal, so it is not read (its requests and threats are
 * another merchant's). Only a paragraph opening with "PS" / "P.S." that names itself as about another file, deal or merchant.
 */
const OTHER_FILE_PS = /\n[ \t]*p\.?[ \t]?s\.?(?:[ \t]*[:\-\u2013\u2014,][ \t]*|[ \t]+)(?:(?:on |re:? |about |for )?(?:a |an |the )?(?:different|another|other|separate|unrelated)(?: (?:file|deal|merchant|client|submission|account|matter|one))?\b|unrelated\b)[^]*?(?=\n[ \t]*\n|$)/gi;
export function dropOtherFilePostscript(own: string): string {
  return own.replace(OTHER_FILE_PS, '');
}

/** A standard pre-funding verification named as a condition: "subj to bank verif", "pending the DL link", "once the bank login ...". */
const VERIFICATION_STIP = /\b(?:subj(?:ect)?\.? to|pending|once|after|upon|until)\b[^.!?\n]{0,40}\b(?:bank verif\w*|bv|verification call|bank login|dl link|decision ?logic|plaid|landlord verif\w*|merchant interview)\b/;
/** The closing step a verification holds: contracts going out, the funding. */
const CLOSING_STEP = /\b(?:send|sends|sending|issue|issuing|draw up|get|gets|cut|push)\s+(?:out\s+)?(?:the\s+)?contracts?\b|\bcontracts? (?:go|goes|going|will go|get sent|are sent|out)\b|\b(?:we|i)(?:'ll| will)? fund\b/;

/**
 * (holdout35) A line reciting the merchant's earlier deal ("prior deal was $50,000 @ 1.40, 120 days ... funded 3/2025,
 * paid as agreed"): its figures are history, never an offer of today. Blanked for the offers only, when the line itself
 * decides nothing (no approval, offer or counter word in it).
 */
const PRIOR_DEAL_LINE = /\b(?:prior|previous|last|old|original|first|earlier|existing|current) (?:deal|advance|funding|mca|approval|renewal|loan|position)\b(?: [a-z]+){0,3} (?:was|were|funded|paid|closed)\b|\b(?:paid as agreed|paid in full|paid off in full)\b/;
const DECIDES = /\b(?:approv\w*|offer\w*|counter\w*|can do|we can|i can|renewal at|new (?:deal|advance|offer))\b/;
/**
 * (rfix30) A decision kept as meeting minutes ("Agenda: / Discussion: / Outcome: / Action items:"): figures in the agenda or
 * the discussion are what was asked or proposed on the way ("Raj proposed $55k at 8 mo", "pulling ~$410/day"), the offer is
 * the outcome's. Those sections are blanked for the offers, only when the minutes carry an outcome section that states a
 * figure of its own (minutes with no figure in their outcome are read whole).
 */
export function blankMinutesDiscussion(own: string): string {
  const lines = own.split('\n');
  const sections = minutesSections(lines);
  if (!sections) return own;
  const outcomeFigure = lines.some((l, i) => sections[i] === 'outcome' && /\$\s?\d|\b\d[\d,.]*\s?k\b/i.test(l));
  if (!outcomeFigure) return own;
  return lines.map((l, i) => (sections[i] === 'talk' ? '' : l)).join('\n');
}

export function blankPriorDeal(own: string): string {
  return own.split('\n').map((l) => (PRIOR_DEAL_LINE.test(l.toLowerCase()) && !DECIDES.test(l.toLowerCase()) ? '' : l)).join('\n');
}

/**
 * (rfix13) The deal refused as it was sent ("can't do $60k on a 12 month term as originally submitted, but we can do $40k over
 * 9 months at 1.38", "Declined as originally submitted ($60k / 12 months). Counter: ..."): the figures of that clause are the
 * ask's, refused, never the counter's. The clause runs to the end of its sentence or to where the lender turns to what it
 * can do ("but", ";", a dash, ", we can ..."); it is blanked for the offers only when it both names the deal as sent and
 * refuses it (a refusal before "as submitted", or a decline word after it). An approval as submitted is never blanked.
 */
const AS_SENT = String.raw`\b(?:as (?:it was |it's |it is )?(?:originally |initially |first )?(?:submitted|requested|presented|proposed|structured|applied(?: for)?|asked|sent in)|the way (?:it|this|the (?:file|deal)) (?:was|came in|is) (?:originally )?(?:submitted|structured|presented|requested|sent in))\b`;
const REFUSAL_THEN_AS_SENT = String.raw`\b(?:can't|cannot|can not|couldn't|could not|won't|will not|unable to|not able to|declin\w*|decline|pass(?:ing)? on|not approv\w*)\b(?:(?!\bso\b|,\s*(?:we|i|we're|we'll|i'm|i'll|funding|approving|offering|writing|doing)\b)[^;]){0,90}?${AS_SENT}`;
const AS_SENT_THEN_REFUSAL = String.raw`${AS_SENT}[^;]{0,60}?\b(?:declin\w*|is a (?:no|pass|decline)|(?:doesn't|does not|won't|will not|can't|cannot) work|not approv\w*|no go)\b`;
const REFUSED_AS_SENT = new RegExp(`${REFUSAL_THEN_AS_SENT}|${AS_SENT_THEN_REFUSAL}`);
/**
 * (revz) ... a refusal of something else, the lender then turning to take the deal as sent ("won't need anything else, funding it
 * as requested", "couldn't find any issues so we're funding as submitted"), refuses nothing of the ask.
 * (revz) ... but only the refusal itself is the ask's: from the refusing word (or the clause's start, when "as submitted" opens
 * it) to the end of "as submitted", with the ask's figures in brackets or after "at"/"of" right behind it. What the lender
 * goes on to in the same sentence without a "but" ("unable to approve as submitted and would need to restructure to $40,000
 * at 1.38", "declined as submitted, approved at 40k", "counter at 40k since we can't do 60k as requested") is its offer.
 */
const REFUSAL_THEN_AS_SENT_G = new RegExp(REFUSAL_THEN_AS_SENT, 'g');
const AS_SENT_THEN_REFUSAL_G = new RegExp(AS_SENT_THEN_REFUSAL, 'g');
const ASK_FIGURES_AFTER = /^\s*(?:\([^()]*\)|(?:at|of|for|on)\s+\$?\d[^;()]*?(?=,\s|\s+(?:and|but|so|since|because)\b|[.!?]?$))/;
function refusedSpans(part: string): Array<[number, number]> {
  const spans: Array<[number, number]> = [];
  for (const [re, fromStart] of [[REFUSAL_THEN_AS_SENT_G, false], [AS_SENT_THEN_REFUSAL_G, true]] as const) {
    re.lastIndex = 0;
    for (const m of part.matchAll(re)) {
      let end = m.index + m[0].length;
      end += ASK_FIGURES_AFTER.exec(part.slice(end))?.[0].length ?? 0;
      spans.push([fromStart ? 0 : m.index, end]);
    }
  }
  return spans;
}
const AS_SENT_RE = new RegExp(AS_SENT);
const APPROVED_AS_SENT = /(?<!\b(?:not|never|cannot|can't|can not|won't|will not|couldn't|could not|unable to|not able to)\s)\b(?:approved?|approving|signed off|good to go|clears|went through)\b[^.;!?\n]{0,40}\bas (?:originally )?(?:submitted|requested|presented)\b/;
const TURN_TO_OFFER = /;|\s[-\u2013\u2014]\s|,?\s+but\b|,?\s+(?:however|instead)\b|,\s*(?=(?:we|i|uw|credit|they|the (?:desk|committee))\s+(?:can|could|would|will|are able|'d|'ll|do|offer)\b)|:\s*(?=\$?\d)/g;
export function blankRefusedAsSent(own: string): string {
  return own
    .split('\n')
    .map((line) => {
      const lower = line.toLowerCase().replace(/[\u2018\u2019]/g, "'");
      if (!AS_SENT_RE.test(lower)) return line;
      let out = line;
      // the sentences of the line, each cut where the lender turns from the refusal to its offer
      const ends = [...[...lower.matchAll(/[.!?]+(?=\s|$)/g)].map((m) => m.index + m[0].length), lower.length];
      for (let k = 0, start = 0; k < ends.length; start = ends[k++]) {
        const sentence = lower.slice(start, ends[k]);
        const cuts = [0, ...[...sentence.matchAll(TURN_TO_OFFER)].map((m) => m.index), sentence.length];
        for (let i = 0; i + 1 < cuts.length; i++) {
          const part = sentence.slice(cuts[i], cuts[i + 1]);
          if (!REFUSED_AS_SENT.test(part) || APPROVED_AS_SENT.test(part)) continue;
          for (const [from, to] of refusedSpans(part)) {
            const at = start + cuts[i] + from;
            out = out.slice(0, at) + ' '.repeat(to - from) + out.slice(at + to - from);
          }
        }
      }
      return out;
    })
    .join('\n');
}

const SUBJECT_POSITIVE = /(?<!\b(not|pre|pending|awaiting|for|no|never)[- ])\b(approved|approval|counter[- ]?offer(ed)?|countered|counter|funded)\b/;
const SUBJECT_NEGATIVE = /\b(declined?|denied|denial|not approved|turned down)\b/;

/**
 * (rfix9) The decision a subject line states, when the subject is the lender's own: a reply or forward prefix ("RE:
 * Submission: ...") may carry an old subject along the thread, whose words are not this message's decision.
 */
export function freshSubjectDecision(subject: string): 'positive' | 'negative' | null {
  if (/^\s*(re|fwd?|fw|aw|tr|wg)\s*:/i.test(subject)) return null;
  const s = subject.toLowerCase();
  const pos = SUBJECT_POSITIVE.test(s);
  const neg = SUBJECT_NEGATIVE.test(s);
  return pos === neg ? null : pos ? 'positive' : 'negative';
}

/** A fraction of the ask named ("half the ask"), built once (not global: exec starts at 0). */
const ASK_FRACTION_NAMED = new RegExp(`\\b(${Object.keys(V.ASK_FRACTIONS).join('|')}) (the )?(ask|request|requested amount|amount (requested|asked))\\b`);

/**
 * (rfix31) A schedule refused with the term it was asked over ("they would not do weekly payments over twelve months on a winery",
 * "we can't do weekly over 12 months"): the ask's schedule and term, never the offer's; blanked for the offer reader (the text
 * keeping its length). The refusal itself stays for the counter cues.
 */
const REFUSED_SCHEDULE = /\b(?:would not|wouldn't|wouldnt|could not|couldn't|couldnt|will not|won't|wont|can't|cannot|can not|not able to|unable to) (?:do|offer|go|approve|write|allow|agree to) (?:it |this |them |that )?(?:on |to )?(?:weekly|daily|bi-?weekly|monthly)(?: payments?| debits?| ach| pulls?| remits?)?(?: (?:over|for|on|at|across) (?:a |an |the )?(?:\d{1,3}|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|fifteen|eighteen|twenty|twenty-four)[ -](?:months?|mos?|weeks?|wks?|(?:business )?days?))?/gi;
export function blankRefusedSchedule(own: string): string {
  return own.replace(REFUSED_SCHEDULE, (m) => ' '.repeat(m.length));
}

/**
 * (rfix31) Nothing asked of the broker at all: "nothing needed from you (at this time)", "no action needed on your end", "you don't
 * need to send anything". Never "nothing else needed" after items (the items are the request).
 */
const NOTHING_NEEDED = /\b(?:nothing (?:is )?(?:needed|required) (?:from you|from your side|on your end|at this (?:time|point)|right now|for now)|no action (?:is )?(?:needed|required)|(?:you|you guys) (?:don't|do not) need to (?:send|do) anything)\b/;

export function analyse(own0: string, subject: string, ctx?: ReplyContext): Analysis {
  const own = dropOtherFilePostscript(own0);
  const offerSource = blankMinutesDiscussion(blankRefusedSchedule(blankRefusedAsSent(blankPriorDeal(own))));
  const prepared = prepare(own);
  const { fixed } = prepared;
  const boiler = blankBoilerplate(prepared.lower);
  const lower = boiler.text;
  if (boiler.hits.length) fixed.push(...boiler.hits.map((h) => `"${h}" (boilerplate, not read)`));
  const subj = prepare(subject.replace(/^\s*((re|fwd?|fw|aw|tr|wg)\s*:\s*)+/i, '')).lower;
  const offers = extractOffers(offerSource, ctx);
  // (holdout33) a factor refused or quoted as the ask's ("can't match 1.30", "you asked 1.30") is no offer: an
  // incomplete offer at that factor beside a complete one at another factor is dropped, and the refusal makes a counter
  const refusedFactor = REFUSED_FACTOR.exec(offerText(own));
  const refused = refusedFactor ? Number(refusedFactor[1] ?? refusedFactor[2]) : null;
  const otherPriced = refused !== null && offers.some((o) => o.missing.length === 0 && o.factor_rate !== null && Math.abs(o.factor_rate - refused) > 0.001);
  if (otherPriced) for (let i = offers.length - 1; i >= 0; i--) if (offers[i].missing.length > 0 && offers[i].factor_rate !== null && Math.abs(offers[i].factor_rate! - refused!) < 0.001) offers.splice(i, 1);
  const items = requestedItems(normalizeText(own));
  // a bare stip ask on its own ("MTD pls")
  const first = normalizeText(own).trim().split('\n')[0] ?? '';
  let bareAsk = false;
  if (!items.items.length && first.split(/\s+/).length <= 4 && DOC_WORDS.test(first) && /\b(pls|please|plz|need|asap)\b/i.test(first)) {
    const item = first.replace(/\b(pls|please|plz|asap)\b[.!]*/gi, '').replace(/\bneed\b/gi, '').trim();
    if (item) {
      items.items.push(item);
      items.hits.push(`short request "${first.trim()}"`);
      bareAsk = true;
    }
  }
  // (revA) a checks table's passed rows beside the lender's own decision row are no decline and no decline reason
  const unchecked = blankFunderTally(blankCheckRows(lower));
  const category = declineCategory(blankBusinessName(blankPassingGradeRows(unchecked), ctx?.business_name));
  const approved = score(lower, APPROVED_CUES);
  // (rfix) the deal's business named as what is refused ("cant do Biloxi Gulf Tire", "we won't fund Harbor Bakery"): read as
  // "it", the object every refusal takes; a decision word in the name ("Eagle Pass") is no decision
  const declined = score(ctx?.business_name ? blankBusinessName(unchecked, ctx.business_name, 'it') : unchecked, DECLINED_CUES);
  const needs = score(lower, NEEDS_CUES);
  // (holdout33) "NI" (not interested) in capitals opening a line, on its own or "NI on <the deal>": the trade's shorthand
  // no. Case-sensitive and only there, so "ni" in a word, a name or "NI" inside a sentence (Northern Ireland) is not read
  if (/(?:^|\n)[ \t]*NI(?:[ \t]+(?:on|for|here|thx|thanks|sorry)\b|[ \t.!,-]*(?:\n|$))/.test(normalizeText(own))) add(declined, 3, '"NI" (not interested)');
  if (bareAsk) add(needs, 2, 'a bare stip request');
  // (rfix19) a lien, a judgment or taxes owed paid off before funding ("they need to pay off the tax lien before we fund"): a
  // condition to fund the approved terms, not another structure (a position or an advance paid off stays one: holdout5)
  const counterText = blankLienPayoffs(lower);
  const counter = score(counterText, COUNTER_CUES);
  const auto = score(lower, AUTO_CUES);
  const pending = score(lower, PENDING_CUES);
  const withdrawal = score(lower, WITHDRAWAL_CUES);
  // (holdout36) a sentence holding only the contracts for a standard pre-funding verification ("subject to bank verification,
  // the link is out to the merchant; once it comes back clean I send contracts"): a stip of every approval, not terms held
  const tentative = score(lower.split(/(?<=[.!?\n])/).map((x) => (VERIFICATION_STIP.test(x) && CLOSING_STEP.test(x) ? ' '.repeat(x.length) : x)).join(''), TENTATIVE_CUES);
  const hold = score(lower, HOLD_CUES);
  const correction = score(lower, CORRECTION_CUES);
  const relayed = score(lower, RELAYED_CUES);
  const structure = score(counterText, STRUCTURE_CUES);
  const ceiling = score(lower, CEILING_CUES);
  const schedule = score(lower, SCHEDULE_CUES);
  const asSubmitted = AS_SUBMITTED.test(lower);
  const marketing = score(lower, MARKETING_CUES);
  const namesDeal = !!ctx?.business_name && blankBusinessName(lower, ctx.business_name) !== lower;
  // another product than the one asked for (an advance when the deal does not say)
  const asked = ctx?.product_type ?? 'mca';
  const product = score(lower, PRODUCT_CUES.filter((c) => c.product !== asked));
  // the ask refused by name: "not 50", "declined for the full 110", "instead of the $80,000"
  const askNamed = ctx?.requested_amount ? refusedAskByName(lower, ctx.requested_amount) : null;
  if (askNamed) add(counter, 3, `the ask refused by name ("${askNamed}")`);
  if (otherPriced) add(counter, 3, `the asked factor refused or quoted ("${refusedFactor![0]}"), another priced`);
  // "half the ask", "two thirds of the request": less money than asked by its own words, whatever the ask
  const fraction = ASK_FRACTION_NAMED.exec(lower);
  if (fraction) add(counter, 3, `a fraction of the ask ("${fraction[0]}")`);
  // an offer at the lender's cap on the term ("our longest term for salons is 5 months: 1.31, 5 months"): the term was cut to it
  const cap = TERM_CAP_RE.exec(wordsToDigits(lower));
  if (cap) {
    const capTerm = { term: Number(cap.groups!.n), unit: (/^w/.test(cap.groups!.u) ? 'weeks' : /^m/.test(cap.groups!.u) ? 'months' : 'days') as TermUnit };
    if (offers.some((o) => o.factor_rate !== null && o.term !== null && !termDiffers(o, capTerm))) add(counter, 3, `an offer at the lender's cap on the term ("${cap[0]}")`);
  }
  const approvalWords = approved.score;
  const ownDecision = Math.max(approved.score, declined.score, needs.score, counter.score, withdrawal.score);
  // the subject of a decision notification ("Deal Status Update: APPROVED", "Counter Offer - ...")
  if (/\bapproved\b|\bapproval\b/.test(subj) && !/\bnot approved\b/.test(subj)) add(approved, 1.5, 'subject says approved');
  if (/\bdeclined?\b/.test(subj)) add(declined, 1.5, 'subject says declined');
  if (/\bcounter/.test(subj)) add(counter, 3, 'subject says counter');
  if (/\b(additional (information|info|documents)|items needed|stips|information required|missing|action required)\b/.test(subj)) add(needs, 1.5, 'subject asks for items');
  if (AUTO_SUBJECT.test(subj) || AUTO_SUBJECT.test(subject.trim())) add(auto, 4, 'auto-reply subject');
  const subjectDecision = freshSubjectDecision(subject);
  const complete = offers.filter((o) => o.factor_rate !== null && (o.term !== null || o.payment_amount !== null));
  if (complete.length) add(approved, 2.5, `${complete.length} offer(s) with terms`);
  // a factor and a term with no amount named ("Best I can do is 40. 1.42, 100 days"): pricing, so a decision
  const termsWithoutAmount = offers.some((o) => o.missing.length === 0) ? [] : extractOffers(offerSource, ctx, ctx?.requested_amount && ctx.requested_amount >= 1000 ? ctx.requested_amount : NO_AMOUNT).filter((o) => o.missing.length === 0);
  if (termsWithoutAmount.length && !complete.length) add(approved, 1.5, 'priced terms naming no amount');
  // (rfix31) a list one of whose lines says nothing is needed from the broker ("1. File logged as ... 2. Assigned to: ... 4. Nothing
  // needed from you at this time"): a status list for the broker's tracking, not a request; none of its lines is asked for
  if (items.items.some((x) => NOTHING_NEEDED.test(x.toLowerCase()))) {
    fixed.push(`a list saying nothing is needed from the broker: its ${items.items.length} line(s) are no request`);
    items.items = [];
  }
  if (items.items.length) add(needs, Math.min(3, items.items.length), `${items.items.length} requested item(s)`);
  // items asked for to close a deal already priced ("need a signed contract and a voided check to fund"):
  // conditions of the approval, not a request to decide it
  const closing = score(lower, CLOSING_CUES);
  if (closing.score >= 2 && complete.some((o) => o.term !== null) && needs.score > 0) {
    needs.score = round2(needs.score * 0.3);
    needs.hits.push(`closing stips beside priced terms (${closing.hits.join(', ')}): counted for less`);
  }
  // (holdout21) a no in words with its reason, the items asked only as what would clear that reason for a later look
  // ("can't move forward: a tax lien ... we need it released before we can consider the file, send the release and I'll
  // take another look"): the decline stands now; the request is its way back, counted for less
  if (category.category !== 'other' && !complete.length && needs.score > 0 && declined.hits.some((h) => !h.includes('(conditional)') && (FIRM_NO.test(h) || APOLOGY_HIT.test(h))) && (SECOND_LOOK.test(lower) || COMES_BACK.test(lower))) {
    needs.score = round2(needs.score * 0.5);
    needs.hits.push('items asked only to clear the reason for a later look, after a no in words: counted for less');
  }
  if (category.category !== 'other') add(declined, 1, `decline reason: ${category.category}`);
  // "Sorry!" or "unfortunately" with a named reason and no terms: the trade's way of saying no
  if (category.category !== 'other' && !complete.length && /\b(sorry|unfortunately|regret|apologies)\b/.test(lower)) add(declined, 1.5, 'an apology with a decline reason');
  // (holdout28) a question or a need about the broker's own side: "which of you is the closer?", "I need it for the comp sheet"
  const brokerSide = items.brokerSide.length ? items.brokerSide : lower.split(/(?<=[.!?\n])\s+/).filter((x) => BROKER_SIDE_RE.test(x) && /\?|\b(need|needs|send|provide|who|which)\b/.test(x)).map((x) => x.trim());
  return { own, lower, brokerSide, approved, declined, needs, counter, auto, pending, withdrawal, tentative, product, correction, relayed, structure, ceiling, hold, marketing, namesDeal, offers, items, category, fixed, ownDecision, subjectDecision, approvalWords, floated: floatedAmounts(offerSource, ctx), floatedFirm: floatedAmounts(offerSource, ctx, true), termsWithoutAmount, askedTerm: askedTerm(own), askedFreq: askedFrequency(own) ?? refusedSchedule(schedule), takenBack: takenBackAfterDecision(lower), schedule, asSubmitted, scheduleKeptOnly: schedule.hits.length > 0 && schedule.hits.every((h) => SCHEDULE_KEPT.test(h)) && !SCHEDULE_KEPT_AGAINST_ASK.test(lower) };
}


export interface Decision {
  type: ReplyType;
  confidence: number;
  reasons: string[];
  review?: ClassifierReviewReason;
}

/** The winning class by cue weight alone (the rules before issue 26), before the terms are compared. */
export function byCues(a: Analysis): Decision {
  const ranked = (
    [
      ['approved', a.approved.score],
      ['declined', a.declined.score],
      ['needs_info', a.needs.score],
    ] as Array<[ReplyType, number]>
  ).sort((x, y) => y[1] - x[1]);
  let [top, topScore] = ranked[0];
  const second = ranked[1][1];
  // a counter is an approval on other terms than asked
  if (a.counter.score >= 3 && (a.offers.length > 0 || a.termsWithoutAmount.length > 0 || a.approved.score >= 2) && a.declined.score < a.counter.score + a.approved.score) {
    const conf = Math.min(0.99, (a.counter.score + a.approved.score - a.declined.score + 1) / (a.counter.score + a.approved.score + 3));
    return { type: 'counter', confidence: round2(Math.max(0.3, conf)), reasons: ['counter cues with offer terms'] };
  }
  // (holdout28) the only thing asked is about the broker's own side ("who's the closer on this one, need it for the comp
  // sheet"): no request about the merchant or the deal, so no stips to record; kept for a person as no decision
  if (a.items.items.length === 0 && a.brokerSide.length > 0 && (top === 'needs_info' || topScore < 2) && a.approved.score < 2 && a.declined.score < 2 && a.auto.score < 4) {
    return { type: 'unclassified', confidence: 0.6, reasons: [`asks only about the broker's own side (${a.brokerSide.map((b) => `"${b}"`).join(', ')}): no request about the deal`] };
  }
  if (topScore < 2 || a.pending.score > topScore) {
    // (holdout18) a status that says the decision is still to come ("pending final underwriting, decision tomorrow") is
    // no decision, not a reply to fill in from the model
    const status = a.pending.score >= 2.5 && a.pending.score > topScore;
    return { type: 'unclassified', confidence: round2(Math.max(0.3, 1 - topScore / 4)), reasons: [topScore < 2 && !status ? 'no decisive cue' : 'acknowledgement, no decision'] };
  }
  if (top === 'needs_info' && a.items.items.length === 0 && topScore < 3 && a.approved.score < 2 && a.declined.score < 2) {
    return { type: 'unclassified', confidence: 0.5, reasons: ['asks for something, but no item could be named'] };
  }
  if (topScore === second) {
    // a tie: the more specific evidence names the class, but nothing is applied on a tie-break
    const tied = ranked.filter((r) => r[1] === topScore).map((r) => r[0]);
    top = tied.includes('declined') ? 'declined' : tied.includes('needs_info') ? 'needs_info' : tied[0];
    return { type: top, confidence: 0.3, reasons: [`tie between ${tied.join(' and ')}`], review: 'conflicting_cues' };
  }
  const confidence = round2(Math.min(0.99, Math.max(0.2, (topScore - second + 1) / (topScore + 2))));
  return { type: top, confidence, reasons: [] };
}

/**
 * (rfix15) ... and so are items listed for when the file comes back, after an apology with the reason named ("Unfortunately our
 * floor is 12 months in business ... A few things that would help when it comes back: ..."): the apology is the no, the list its
 * way back (a no in words, or an apology, with a reason and no terms; see the rule in analyse).
 */
const APOLOGY_HIT = /^"(?:unfortunately|sorry|regret\w*|apologies)/;
const COMES_BACK = /\bwhen (?:it|this|the (?:file|deal)|(?:he|she|they) (?:re-?apply|reapplies)) (?:comes|come|gets sent) back\b|\bwhen (?:you|we) (?:re-?send|re-?submit|bring) (?:it|this|the (?:file|deal))(?: back)?\b/;
