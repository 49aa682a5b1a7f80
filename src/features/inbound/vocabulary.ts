// The trade's vocabulary, as data: how underwriters and brokers write approvals, declines,
// withdrawals, stip requests, tentative terms and counters, the shorthand of decline reasons, the
// states and industries lenders restrict, amounts in words and in thousands, buy / sell rates and
// holdback. The classifier (classifier/cues.ts and the other stages) compiles these rows into its cues; nothing here is code.
//
// A phrase is a small pattern over lower-cased text with ASCII quotes, matched on word boundaries
// (`\b` is added on both sides). Apostrophe-less contractions ("cant", "dont") are restored before
// any phrase runs (CONTRACTIONS), so phrases are written with the apostrophe.
//
// Row classes (each has a unit test in contract-tests/unit/reply-vocabulary.test.ts):
//   decisions: approval, decline, withdrawal, needs_info, tentative, counter, products
//   decline reasons: DECLINE_REASONS (category + phrases), STATES, INDUSTRIES
//   numbers: NUMBER_WORDS, SHORTHAND_AMOUNT, FREQUENCY_SHORTHAND
//   pricing: RATE_LABELS (buy / sell), HOLDBACK
//   boilerplate: BOILERPLATE (footers, marketing signatures, zero counts: sentences that decide nothing)
//   structure: ASK_AS_AMOUNT (the ask named as the amount), CLOSING_STIPS (items asked for to close a
//     priced deal), SAME_TERMS (a further amount at the pricing of the one before), CORRECTION
import type { DeclineCategory } from './classifier/types';

export interface PhraseRow {
  /** Pattern over lower-cased text, word-bounded on both ends. */
  phrase: string;
  /** How much it counts for its class (a clear statement is 3). */
  w: number;
  /** Does not count when negated just before ("not approved"). */
  negatable?: boolean;
  /** Counts for less inside a conditional sentence ("if ... approved"). */
  modal?: boolean;
  /**
   * COUNTER rows: a ceiling on the amount ("tops out at", "I'm at 40 max"). Below the ask it is a counter; with
   * every offer at the full ask it only says the ask is the most the lender would do: an approval.
   */
  ceiling?: boolean;
  /**
   * TENTATIVE rows: an approval held for a recheck ("pencil it in", "before our morning scrub"). It sends an
   * approval or a counter to a person; beside a request for items it is the lender's process, not doubt.
   */
  hold?: boolean;
  /**
   * COUNTER rows: a payoff or position condition, not a refusal of the terms asked. Beside an option at
   * (or above) the ask approved in words, with nothing refused, it is a condition of the approval.
   */
  structure?: boolean;
  /**
   * COUNTER rows: a payment schedule refused or kept for other files ("the weekly isn't", "we don't have a bi-weekly
   * product"). The schedule named is the one asked; an offer on another one is a counter, unless the lender approves the
   * deal as submitted in words (then the remark is about the program, not this deal).
   */
  schedule?: boolean;
}

/** Apostrophe-less contractions as phones type them, restored before matching. */
export const CONTRACTIONS: Record<string, string> = {
  cant: "can't", dont: "don't", wont: "won't", doesnt: "doesn't", didnt: "didn't", isnt: "isn't", arent: "aren't", wasnt: "wasn't",
  couldnt: "couldn't", wouldnt: "wouldn't", shouldnt: "shouldn't", theyre: "they're", youre: "you're", thats: "that's", weve: "we've", itll: "it'll",
};

/**
 * (rfix19) The label of a row in a checks or verification table, whose PASS is a check passed ("OFAC | PASS", "Bank
 * verification: PASS", "KYC check - PASS"), not the lender's decision.
 */
export const CHECK_LABEL =
  "(?:ofac|kyc|kyb|aml|sos|secretary of state|verif\\w*|checks?|screen\\w*|pre-?screen\\w*|searche?s?|fraud|identity|id|background|watch ?list|sanctions?|look-?up|match\\w*|tests?|validation|valid\\w*|tin|ein|bv|vc|lexis\\w*|giact|plaid|decision ?logic|credit pull|bankruptcy|criminal|ucc|liens?|judgments?|rules?|criteria|policy|nsf count|fico|score|factor \\d+|f\\d+|c\\d+)";

/** Approval, however the trade says it. */
export const APPROVAL: PhraseRow[] = [
  // (rfix30) ... also with the agenda item it decides between, as minutes number them: "Outcome:\n- Item 1: APPROVED as requested"
  { phrase: "(decision|new status|status|file status|result|outcome|final( decision| answer| status| word)?)( (changed|updated|moved|set|is now))?( to)?\\W{1,40}((agenda )?(item|matter|no\\.?|#) ?\\d{1,2}\\W{1,6})?(approved|offers? (available|issued|ready|extended))", w: 3 },
  { phrase: "(they're|they are|he's|she's|merchant is|client is|file is|deal is) (fully )?approved", w: 3, negatable: true, modal: true },
  { phrase: 'approved as submitted', w: 3.5 },
  // (holdout13) "Done deal on Cedar Loop."
  { phrase: 'done deal (on|for|with)', w: 3, negatable: true, modal: true },
  // a rep writing in a second language drops the "-d" (holdout10): "the file is approve from our side", "was approve by credit"
  { phrase: '(is|are|was|were|has been|have been) approve (by|from|for|on|at|with)', w: 3, negatable: true, modal: true },
  // contracts out is the approval: "Contracts sent via DocuSign for $70,000 at 1.32", "we issued contracts", "docs are out for signature"
  { phrase: "(contracts?|docs|agreements?|paperwork) (were |was |have been |has been |just )?(sent|went out|are out|issued|generated|released|out for (e-?)?signature)|(sent|issued|generated|released|pushed) (out )?(the )?(contracts?|agreements?)( (out|over))?|(sent|out) (via|through|on|by) (docusign|adobe sign|hellosign|pandadoc)|docusign (sent|envelope)", w: 3, negatable: true },
  // (rfix22) the contracts named for the deal as approved: "contracts for the approved deal", "the agreement for the approved
  // offer is attached" (never the approved terms discussed without papers: "the approved amount is lower than asked")
  { phrase: "(contracts?|docs|documents|agreements?|purchase agreement|paperwork|envelope) (for|on|covering) (the |your |this |our )?approved (deal|offer|terms|file|advance|funding|transaction)", w: 3, negatable: true },
  // an approval in soft words: "verbal approval at the full 120", "soft yes" (terms still to come: TENTATIVE sends it to a person)
  { phrase: "(verbal|verbally|soft|preliminary|prelim) (approval|approved|yes|ok)", w: 2.5, modal: true },
  // bilingual reps: Spanish prose around the trade's English word, or the Spanish word ("quedó APPROVED", "salió aprobado")
  { phrase: "(qued[o\u00f3]|est[a\u00e1]|fue|sali[o\u00f3]|ya) (approved|aprobad[oa])|aprobad[oa]", w: 3, negatable: true, modal: true },
  { phrase: 'appr(vd)?', w: 2.5, modal: true },
  // (rfix22) the word typed on a phone with its vowels or a letter dropped: "aprvd", "aprovd", "aproved", "approvd", "apprvd"
  // (never "approve", "approval": the word's stem is no decision)
  { phrase: '(?!approved\\b|apprvd\\b)ap{1,2}ro?ve?d', w: 2.5, negatable: true, modal: true },
  // shorthand with an apostrophe (holdout10): "app'd 40/1.35", "aprv'd", "approv'd at 60"
  { phrase: "(app|appr|aprv|apprv|approv)'d", w: 3, negatable: true, modal: true },
  { phrase: "(we're|we are) good to go|good to go", w: 2.5, negatable: true, modal: true },
  { phrase: 'good for the( full)?', w: 2.5, negatable: true, modal: true },
  { phrase: '(it|this|that) works', w: 2, negatable: true, modal: true },
  // (rfix17) the ask granted in two words, a sentence of its own ("A: You have it.", "You got it!"), answering the broker's
  // "looking for an approval"; never inside a sentence ("send it when you have it", "do you have it?")
  { phrase: "(?<![a-z0-9,'] |[a-z0-9])(you have|you've got|you got) it(?=[.!]|\\s*$)", w: 3, negatable: true, modal: true },
  { phrase: '(credit|committee|uw|underwriting|credit committee) signed off', w: 3, negatable: true },
  { phrase: 'signed off on', w: 2.5, negatable: true, modal: true },
  { phrase: 'looks good', w: 1.5, negatable: true, modal: true },
  { phrase: '(we |i )?(can|could) approve', w: 2, negatable: true, modal: true },
  // (holdout11) a verdict noun for yes: "Granite is a go on our end", "Bluebonnet's a lock for all 95", "we're a yes on the 40"
  // (never "a go-to", "a yes or no", "is a lock box", "a go/no-go call")
  { phrase: "('s|is|are|we're|we are|i'm|i am|it's|that's|you've got|you have) (a |an )?(go|yes|lock|done deal|green light)(?![-/]| (or|box|to|and no|for the (call|meeting)))( (on|for|from) (our|my) (end|side)| (on|for) (the |all |all of |him|her|them|it|this|that)| here|\\b)", w: 3, negatable: true, modal: true },
  // "sanctioned" for approved (Indian and British corporate English: "has been sanctioned by our credit team", "Sanctioned amount")
  // (never a sanction imposed: "sanctioned by OFAC", "on a sanctions list")
  { phrase: "(has been|have been|is|was|were|got|been|stands) sanctioned(?! (by|under) (ofac|the (treasury|government|state|regulator\\w*)|treasury|regulators?))|sanction(ed)? (amount|limit|letter)", w: 3, negatable: true, modal: true },
  { phrase: '\\w+ [-:] approved', w: 3 },
  // (holdout34) and the committee: "Greeley cleared committee", "passed credit committee" (never "passed on": a pass)
  { phrase: '(cleared|passed) (the |our )?(uw|underwriting|(credit |loan |risk )?committee|credit)', w: 3, negatable: true, modal: true },
  { phrase: 'pre-?approved', w: 3, negatable: true, modal: true },
  // "UW approved it", "credit okayed the file", "committee signed off on Lakeview"
  { phrase: "(uw|underwriting|underwriter|credit|committee|management|my manager|we|they) (has |have |already )?(approved|okayed|ok'd|greenlit|green-lit) (it|this|that|the (file|deal|merchant|request|ask)|him|her|them)", w: 3, negatable: true, modal: true },
  // (holdout41) ... the product approved by name: "Our credit committee approved the one-year term loan the owner asked for",
  // "underwriting approved the full advance", "we approved your line of credit request"
  { phrase: "(uw|underwriting|underwriter|credit|committee|management|my manager|we|they) (has |have |already )?(approved|okayed|ok'd|greenlit|green-lit) (the|your|their|this) ([a-z0-9'-]+ ){0,3}(loan|term loan|advance|line of credit|credit line|facility|financing|funding|request)\\b", w: 3, negatable: true, modal: true },
  { phrase: '(?<!(for|on|get|gets|need|needs|pending|awaiting|without) (the |a )?)green ?light(ed)?', w: 2.5, negatable: true, modal: true },
  // "Sunnyside cleared.", "file cleared to fund": the decision word, not a check or a deposit clearing
  { phrase: "(?<!(checks?|deposits?|payments?|wires?|funds|ach|transfers?|items?|balances?|debits?) )cleared(?=\\s*[.!;:\\n-]|\\s*$| (to|for) (fund|funding|close|closing|contracts?)| with )", w: 2.5, negatable: true, modal: true },
];

/** A decline, including idioms with no decline word. */
/**
 * (holdout24) A pass at an amount is a decline at that amount, in the trade's shorthand: "passed at $65k", "committee
 * passed on Lafayette Cajun Catering at 65", "we passed on it for the full 80". The amount named is the one refused (the
 * ask), never an offer: a priced smaller amount beside it is a counter. Only "on" and up to four words (the file, the
 * business) may come between, so "passed committee at 50k" or "passed UW for 40" (an approval) are not among these.
 */
export const PASSED_AT = "passed(?: on(?: [a-z0-9'&.-]+){1,4}?)? (?:at|for)";

/**
 * (rev-w) What may follow "we're out and ..." for it to be a no: the lender passing, or refusing to take the file further
 * ("were out and i wouldnt send it anywhere else", "we're out and we'd pass again"); never a person away saying when they
 * will look ("we're out and I'll review it Monday", "were out and i will look at it tomorrow").
 */
const OUT_AND_NO =
  " and (i|we)((('d|'ll| would| will)( not)?|( do| could| can)n't| wouldn't| won't| cannot| do not| never| would never) (pass|decline)|( wouldn't| won't| don't| can't| cannot| couldn't| would not| will not| do not| could not| never| would never) (send|submit|shop|touch|take|fund|approve|want|consider|recommend|place|move forward))\\b";

/** (rfix25) Month names and their short forms, to tell "dec" the month from "dec" the decline. */
const MONTH_WORDS = 'jan|january|feb|february|mar|march|apr|april|may|jun|june|jul|july|aug|august|sep|sept|september|oct|october|nov|november|dec|december|ytd|mtd';

export const DECLINE: PhraseRow[] = [
  // (revM) minutes' vote against: "motion to approve $60,000 ... failed 1-2", "the motion to approve was defeated", "vote to approve
  // did not carry"
  { phrase: "(motion|vote|resolution) to (approve|fund)\\b[^\\n]{0,100}?\\b(failed|fails|defeated|did not (pass|carry)|didn't (pass|carry)|was (rejected|voted down)|voted down|not carried)\\b", w: 4 },
  { phrase: 'decl', w: 3 },
  // (holdout27) bilingual reps declining in Spanish: "Kenai no va", "no podemos con este", "lo tenemos que rechazar",
  // "queda declinado" (never "no va a ser problema", a yes)
  { phrase: "no va(?=\\s*[.!;,\\n]|\\s*$)|no (podemos|puedo|vamos a poder) ((hacer|fondear|financiar|aprobar)(lo|la|los|las)?|con)|(rechazad[oa]|declinad[oa])|(tenemos|tengo) que (rechazar|declinar|pasar)", w: 3, negatable: true },
  // (rfix12) ... "el de X no pasa", "no califica", "UW ni lo quiso ver" (would not even look at it); never "no pasa nada" (no
  // problem): the refusal ends its clause
  // (rfix25) ... its clause closed by when or for whom: "no califica por ahora", "no pasa todavía", "no califica para nosotros"
  // (revH) ... never "for now" with something still missing after it ("no califica todavía, nos falta el estado de noviembre",
  // "no pasa por ahora, necesitamos el cheque anulado"): a request for now, not a decline
  { phrase: "no (pasa|califica|calific[o\u00f3])(?: (?:por ahora|por el momento|en este momento|todav[i\u00ed]a|a[u\u00fa]n)(?![\\s\\S]{0,200}?\\b(?:falta|faltan|hace falta|necesitamos|necesito|pendientes?)\\b)| (?:para nosotros|con nosotros))?(?=\\s*[.!;,\\n]|\\s*$|\\s+[^\\sa-z\u00e0-\u00ff])|ni (lo|la|los|las) (quiso|quisieron|quieren|quiere) (ver|mirar|revisar|tocar)", w: 3, negatable: true },
  // (rfix31) ... the object pronoun before the verb, as Spanish puts it ("no lo podemos hacer", "no la pudimos aprobar"), no way to
  // do it ("no hay manera de aprobarlo"), the answer a no ("es un no", "la respuesta es no"); never "no hay manera de saber"
  { phrase: "no (lo|la|los|las|te lo|se lo) (podemos|puedo|pudimos|pude|vamos a poder) (hacer|fondear|financiar|aprobar|tomar)|no se (puede|pudo) (hacer|aprobar|fondear|financiar)|no hay (manera|forma|modo|chance) de (aprobar|fondear|financiar|hacer|tomar)(lo|la|los|las)?|(es|fue) un no(?=\\s*[.!;,\\n]|\\s*$)|la respuesta es (un )?no(?=\\s*[.!;,\\n]|\\s*$)", w: 3, negatable: true },
  // (holdout29) the same in Portuguese: "vou ter que declinar o X", "vamos ter que recusar", "não conseguimos aprovar"
  { phrase: "(vou|vamos|tenho|temos) (ter )?que (declinar|recusar|passar)|n[ãa]o (podemos|posso|conseguimos|vamos) (aprovar|financiar|fazer|seguir)|recusad[oa]", w: 3, negatable: true },
  // (holdout27) "we're out" typed on a phone without its apostrophe, opening a sentence: "4 open ... were out." (never "the
  // statements were out"; "I'm out." stays a person away, "we're out." is read above)
  // (rfix11) ... its clause going on with what the lender would do ("were out and i wouldnt send it anywhere else either")
  { phrase: `(?<![a-z'] )were out( on (this|that|it)( one)?)?(?=\\s*[.!;,\\n]|\\s*$|${OUT_AND_NO})`, w: 3 },
  // shorthand with an apostrophe or without vowels (holdout10): "dec'd - 587", "dcl'd", "dclnd"
  { phrase: "(dec|dcl)'d|dclnd", w: 3, negatable: true, modal: true },
  // (rfix25) a phone's "dec" heading the reply or a line, a dash or colon then the reason: "dec - 4 pos", "dec: stacking",
  // "dec -- tib". Never the month: another month after it ("Dec - Feb statements"), a figure ("Dec: $12,400", "dec - 12/15"),
  // or a month's count in a table ("Dec - 4 nsfs"): only words, or a count of positions, may follow
  // (revH) ... nor a line that asks, waits or wonders ("Dec - looks like revenue dropped, need the MTD before we decide", "dec -
  // pending MTD", "dec - stacking? confirm w merchant"): the month's note or a question, no decline said
  { phrase: `(?:^|(?<=\\n[ \\t>*-]*)|(?<=[.!?][ \\t]+))dec[ \\t]*(?:-{1,2}|\u2013|\u2014|:)[ \\t]*(?![^\\n]*(?:\\?|\\b(?:pending|waiting|before (?:we|i|uw|credit) (?:decide|can|make|price|give)|need (?:the|a|an|his|her|their|updated|mtd|\\d{1,2} ?(?:mos?|months?))|send (?:the|a|an|me|us|over))\\b))(?=(?!(?:${MONTH_WORDS})\\b)[a-z]|\\d{1,2}(?:st|nd|rd|th)?[ \\t]*(?:pos|positions?|open (?:pos|positions?|mcas?|advances?)|mcas|advances|funders|stacked)\\b)`, w: 3 },
  // (rfix25) ... its line run on into the one before it (a phone's line with no full stop: "merchant didnt disclose\ndec -
  // stacking"): after a word, only with a decline reason named right after it ("... dec - stacking", "... dec - 4 pos")
  { phrase: `(?<=[a-z0-9,)][ \\t]+)(?<!(?:${MONTH_WORDS}|thru|through|to|and|till|until|from|in|of|on|by|since|for|mid|late|early|end|last|this|next)[ \\t]+)dec[ \\t]*(?:-{1,2}|\u2013|\u2014|:)[ \\t]*(?=(?:stacking|stacked|too stacked|\\d{1,2}(?:st|nd|rd|th)?[ \\t]*(?:pos|positions?)|tib|time in business|nsfs|negs|neg days|negative days|restricted|industry|credit|fico|low (?:rev|revenue|bal|balances?|deposits)|too (?:new|small|young|thin|many))\\b)`, w: 3 },
  // watching from outside the deal (holdout10): "we'll sit on the sidelines for this one", "staying on the sideline here"
  { phrase: "(sit|sits|sitting|stay|stays|staying|stand|standing|remain|remaining|be)( this one| it)? on the sidelines?|sideline (this|it|the (file|deal))", w: 3, modal: true },
  // too early in the business's life, however it is put (holdout9): "too green for us", "a little too fresh for our program"
  { phrase: "too (green|new|young|early|fresh)( for (us|me|our (program|box|guidelines|shop|funders?)))", w: 3 },
  { phrase: "(gonna|going to|will|we'll|have to) sit (this|it) (one )?out", w: 3 },
  { phrase: "(can't|cannot|couldn't) make (it|this|that) work", w: 3 },
  { phrase: "(we|i) don't go (\\d+(st|nd|rd|th)|second|third|fourth|fifth|sixth)", w: 3 },
  { phrase: "(we )?(don't|do not|won't|can't|cannot) (fund|touch|do) (ca|ny|nj|tx|fl|[a-z]{2}|california|new york|new jersey|texas|florida)( right now| at the moment| anymore)?", w: 3 },
  // (holdout12) a class of merchant the funder stopped buying from: "we no longer purchase receivables from merchants located in Texas"
  { phrase: "no longer (purchase|purchasing|buy|buying|fund|funding|accept|accepting|take|taking|write|writing|work with|working with|lend to|lending to) (receivables |deals |files |submissions |advances )?(from |for |with |to |on )?(any )?(merchants|businesses|companies|clients|deals|files) (located |based |operating |domiciled )?(in|from|out of)", w: 3 },
  { phrase: '(too|way too) (light|thin)', w: 2 },
  // holdout8 neighbours: a shortfall named as the whole answer, "not enough time in business", "insufficient revenue",
  // "under our floor" with words between ("score's under our floor")
  { phrase: "(not enough|insufficient|too little|not nearly enough) (time in business|tib|operating history|history|seasoning|revenue|deposits|volume|cash ?flow|balances?)|(under|below|beneath|short of) (our|the) (floor|minimum|cutoff|cut-off|threshold)", w: 2 },
  { phrase: '(is|are) under our (\\d+ )?(floor|minimum|min)', w: 2 },
  { phrase: "hard no|(it's|its|that's|still) (still )?a (hard )?no", w: 3, modal: true },
  { phrase: 'passed on (this|it|that|the file|the deal)', w: 3 },
  // (holdout24) a pass at an amount (PASSED_AT): "passed at $65k", "committee passed on Fox Run Bakery at 120" (never a factor)
  { phrase: `(?:${PASSED_AT}) (?![12]\\.\\d)(?:the )?(?:full |whole |requested )?\\$?\\d{1,3}(?:,\\d{3})*(?:\\.\\d{2})?\\s?k?`, w: 3 },
  { phrase: 'max out at', w: 1.5 },
  { phrase: "(we're|we are) (not|no longer) (doing|funding|taking|touching) [a-z/&]+( [a-z/&]+)?( [a-z/&]+)? (anymore|right now|at the moment|at this time)", w: 3 },
  { phrase: '(unable|not able) to (offer|approve)( anything)? (at this time|on this (one|file|deal)|here)', w: 3 },
  // (rfix15) never a check's result in the last cell of a row of three columns or more ("F05 | Negative balance days: 0 | PASS",
  // a decision engine's factors), while "Decision | PASS" or "Red Oak - pass" stays the lender's no
  // (rfix19) ... nor a check's result on a row the check labels ("OFAC | PASS", "Bank verification: PASS", "SOS check - PASS"):
  // a screening passed, not the lender passing on the file
  { phrase: `(?<!\\|[^|\\n]*\\|[ \\t]*)(?<!(?:^|\\n)[^\\n]*\\b${CHECK_LABEL}\\b[^\\n]*(?:[:|\\t]|\\s-)[ \\t]*)pass(?=\\s*(\\n|$))`, w: 3 },
  // (rfix19) a decision cell reading PASS with more on its line ("Decision: PASS (stacking)", "Status | PASS | 11/05/2026",
  // "UW Decision: PASS - 4 open positions"): the trade's no in a decision table, whatever follows it
  { phrase: `(?:^|\\n)[ \\t]*(?:(?:uw|underwriting|credit|final|file|submission|deal|application|committee|overall|new|our|funding)[ \\t]+){0,2}(?:decision|status|outcome|verdict|determination|answer)[ \\t]*(?:[:|\\t]|-{1,2}|–|—)[ \\t]*\\**pass\\b(?![ \\t]*(?:to|through|along|it|this|the)\\b)`, w: 3 },
  { phrase: "(won't|will not|can't|cannot) pass", w: 3 },
  // "We pass. TIB under 1 year.", "I'll pass, sorry": the lender passing, the sentence ending on it
  { phrase: "(we|i)('ll| will)? pass(?=\\s*[.!;,]|\\s*$)", w: 3, negatable: true },
  { phrase: 'hard stop|(kill|killing|killed) the (file|deal)', w: 3 },
  { phrase: "(tib|time in business|history) (is |was )?too (short|new|young)", w: 3 },
  { phrase: "(can't|cannot) help (on|with|here)", w: 3 },
  // "this one's a no for us", "that is a firm no", "a non-starter" (never "a no-brainer")
  { phrase: "('s|is|was) a (hard |firm |definite |flat )?no(?![-']| ?(brainer|show|doc|go))( for us| from us| from me| here)?|non-?starter", w: 3, modal: true },
  // (revE) ... never a no on something asked beside the file, a change or a part of the deal ("no on the ACH change request, terms
  // stand", "no on the waiver", "no on the funding call today", "no on the reverse consolidation"): what is refused is not the deal;
  // nor a no on a condition ("No on Pinecrest unless they pay off Kapitus"): a person reads the condition
  // (rfix22) the lender's no, said of the file first thing ("no on turlock urgent care.", "It's a no on Pinecrest, sorry"); never a
  // no on one term or figure, which is a counter's refusal ("no on the weekly", "no on 12 months", "no on 75, can do 60")
  // (rfix25) ... nor a no for now, its line asking for something first ("no on pinecrest today - need the October statement
  // first"): a request for items, not a decline
  { phrase: "(?:^|(?<=[.!?]\\s+)|(?<=^(?:hi|hey|hello|dana|sorry)[ ,]+[a-z]*[ ,]*))(?:it's |that's |we're |we are |i'm |i am |gonna be |going to be )?(?:a )?(?:hard |firm )?no on (?![^.!?\\n;]*\\b(?:unless|until|till|if|once|without|pending)\\b)(?![^.!?\\n;]*\\b(?:need|needs|want|wants|waiting (?:on|for)|send)\\b[^.!?\\n;]*\\bfirst\\b(?![ -]*(?:position|pos|lien)))(?![^.!?\\n;,]{0,40}?\\b(?:requests?|ask|asks|change|changes|waiver|exception|call|meeting|add-?ons?|upsell|increase|bump|extension|buyout|buy-?out|consolidation|consol|reverse|loc|line of credit|modification|ach|debits?|guarant\\w*|split|holdback|fees?|discount|early payoff|prepay\\w*|deferral|skip)\\b)(?!(?:the |a |an |your |their |his |her )?(?:\\d|\\$|weekly|daily|monthly|bi-?weekly|term|amount|factor|rate|buy|sell|price|pricing|payments?|pmts?|schedule|full|ask|requested|advance|position|stacking|renewal|second|first|\\w+ (?:months?|weeks?|days?|mos?|wks?)\\b)|(?:the |this |that )?(?:\\d|\\$))", w: 3, modal: true },
  // (rfix22) the kind of deal the lender does not do, in a shrug: "medical w/ insurance receivables isn't our thing", "not
  // really our cup of tea" (never "our thing is speed", "isn't our thing to decide": a lender talking about itself)
  { phrase: "(isn't|is not|aren't|are not|not) (really |exactly |quite )?(our|my) (thing|cup of tea|kind of (deal|file|business|merchant)|type of (deal|file|business|merchant)|sweet ?spot|bag)(?!\\s+(to|that|we|i|because|but)\\b)", w: 3, modal: true },
  // "we're passing on Harvest Moon", "we'll be passing"
  { phrase: "(we're|we are|i'm|i am|we'll be|we will be|i'll be) passing", w: 3 },
  // "We're out on Ridgeline", "count us out", "I'm out." (never "out of the office", "out of NY")
  // (never "I'm out Friday", "I'm out on Monday", "out for the week": a person away)
  { phrase: `(we're|we are|i'm|i am) out (on|for) (?!the (day|week|weekend|road|holidays?)|today|tonight|tomorrow|vacation|holiday|pto|leave|lunch|(mon|tues|wednes|thurs|fri|satur|sun)day|\\d)|(we're|we are) out(?=\\s*[.!;]|\\s*$|${OUT_AND_NO})|count (us|me) out`, w: 3 },
  // "no dice", "nope", "not gonna work", "credit killed it", "UW shot it down"
  { phrase: "no dice|no bueno|nope|no can do|(not gonna|not going to|never going to) (work|happen|fly)|(killed|nixed|shot down|turned down|torpedoed) (it|this|that|the (file|deal))|(killed|nixed|shot) (it )?down", w: 3 },
  // "we won't add a third position", "we will not take a 4th"
  { phrase: "(won't|will not|don't|do not) (add|take|fund|do) (on )?(an? |the )?(\\d+(st|nd|rd|th)|second|third|fourth|fifth|sixth)( position)?", w: 3 },
  // a restriction the funder put on itself, for now: "we paused all Virginia merchants", "East Bay is a no for now"
  { phrase: "(paused|pausing|suspended|suspending|stopped|quit|halted|froze|frozen) (all |any |new )*([a-z]+ ){0,2}(merchants|deals|files|submissions|funding|business(es)?)|a no for (now|the time being)", w: 3 },
  // (holdout11) the lender finished with the file: "We're done with Crosstown on our side", "I'm finished with this one",
  // "we're out on this one" (never a step of the work done: "done with the review", "finished with underwriting, approved")
  { phrase: "(we're|we are|i'm|i am|we've|i've) (all )?(done|finished|through) with (?!(the |our |my |your |their )?(review|reviewing|underwriting|uw|verification|verifying|stips|docs|documents|paperwork|pricing|diligence|due diligence|bank verif\\w*|call|interview|inspection|site visit|analysis|file review|numbers|call))[a-z'&.-]+( [a-z'&.-]+){0,2}( on (our|my) (side|end)| for (good|now|us)| here)?(?=\\s*[.!;,\\n]|\\s*$)", w: 3, modal: true },
  // (holdout11) the business not ready for the lender yet: "just doesn't have the runway yet", "they don't have the track record
  // for us" (never "we don't have the numbers yet": the lender waiting is no decision)
  { phrase: "(?<!(we|i|you) )(just |simply |really )?(doesn't|does not|don't|do not) have (the |enough |much )?(runway|track record|seasoning|operating history|time in business|tib|history)( yet| for us| for our (program|box|guidelines))", w: 3, modal: true },
  // (holdout11) negation of approval in the words of a program: "we'll have to pass", "no appetite here", "not a fit for our program",
  // "unable to offer", "we must refuse the file", "not in a position to proceed"
  { phrase: "(no|zero|little|not much) appetite( here| for (it|this|that|this one|the (deal|file|risk|merchant))| on (it|this|that|this one))?(?=\\s*[.!;,\\n]|\\s*$| for | on )|(don't|do not|doesn't|does not) have (an |the |any )?appetite|not (a |the )?(good |right )?fit (for (us|our|me)|here)|(must|have to|has to|need to|will have to|regret to|am obliged to) (refuse|reject|turn down|decline)|(refuse|refusing|reject|rejecting) (the|this|that|your) (file|deal|application|submission|request)", w: 3, modal: true },
  // negation of approval as a decision taken (issue 26, "declines in new wording"): "we've decided not to proceed", "elected not
  // to pursue", "opted not to move forward", "we'd rather not", "no offer on this one", "our answer is no", "isn't a fit for
  // our program", "doesn't clear our box", "outside what we can do", "won't qualify with us", "we'll need to pass"
  // (holdout15) a refusal until a public record is cured is a decline of the file as it stands: "Until that is satisfied or
  // on a payment plan we cannot move forward" (a payoff of another advance, a counter's structure, is not among these words)
  { phrase: "(until|till|unless) (that|it|this|the (judgment|judgement|lien|tax lien|levy|bankruptcy|collection|lawsuit|suit|default)s?) (is|are|gets?|has been|have been) (satisfied|released|resolved|lifted|removed|vacated|discharged|dismissed)[^.!?\\n]{0,60}(cannot|can't|can not|won't|will not|unable to|not able to) (move forward|proceed|go forward|move ahead|fund|approve|do anything)", w: 3 },
  // (holdout15) a reason the lender does not fund, given beside a pass: "Home-based business, the address on the app is a residence"
  // (holdout41) a class of business the lender does not fund, refused in so many words: "we dont do home based, sry", "we
  // can't fund home-based businesses"
  { phrase: "(we|i) (don't|dont|do not|won't|wont|will not|can't|cant|cannot|never) (do|fund|touch|take|finance|work with|lend to|go with) (any )?(home[- ]based|residential[- ]based|garage[- ]based|run[- ]from[- ]home)", w: 3 },
  { phrase: "home[- ]based (business|merchant|operation)|(address|location) (on the (app|application) |on file )?is (a|their|his|her|the owner's) (residence|home|house)", w: 2 },
  { phrase: "(decided|decide|elected|elect|chosen|chose|choose|opted|opt) not to (proceed|move forward|go forward|move ahead|pursue|fund|approve|offer|participate|extend|take (it|this|the (file|deal)) (on|further)|do (it|this|the deal))", w: 3 },
  { phrase: "(we'd|i'd|we would|i would) (rather|prefer to) (not|pass|sit (this|it) out)(?=\\s*[.!,;:\\n-]|\\s*$| (on|do|fund|take|touch) (it|this|that|this one|the (file|deal)))", w: 3 },
  { phrase: "no (offer|terms|approval|counter) (on|for) (this|it|that|the (file|deal|merchant)|[a-z'&-]+ (file|deal))|(our|my|the|credit's|uw's|committee's) (answer|decision|verdict|response)( on [a-z'&. -]{1,40})? (is|was) (a )?(no|negative|a decline|decline)\\b(?! (problem|worries|issue|rush|pressure|doubt))", w: 3 },
  { phrase: "(isn't|is not|wasn't|was not|'s not|just not|not really) (a |the )?(good |right |great )?fit (for (us|our|me|my)|here|with (us|our))", w: 3 },
  { phrase: "(doesn't|does not|didn't|did not|won't|will not) (clear|fit|make|pass|meet) (our|the|my) (box|buy box|credit box|guidelines|criteria|parameters|program|programs|bar|cut|requirements|standards|policy)", w: 3 },
  { phrase: "outside (of )?(what|anything) (we|i|credit|our (desk|program|team)) (can|could|are able to|is able to|will|would) (do|fund|offer|approve|write|support|place)", w: 3 },
  { phrase: "(won't|will not|doesn't|does not|didn't|did not|wouldn't|would not|can't|cannot) qualify (with us|for (us|our|any|this|the|one of)|here|at all)", w: 3 },
  { phrase: "(need to|'ll need to|will need to|going to have to|gonna have to|'ll have to|will have to|got to|gotta|have got to) pass(?=\\s*([.!,;:\\n-]|$)| on (this|it|that|the|[a-z'&-]+ (file|deal)))", w: 3 },
  // the lender closing or turning the file down in other verbs: "shot this one down", "voted it down", "closing this one out on
  // our end", "stepping away from this one" (never a position closed out: "closing out the Forward balance")
  { phrase: "(shot|turned|voted|knocked|kicked) (it|this|that|this one|that one|the (file|deal|request|application)) (down|back)|(closing|close|closed|closed|marking|marked) (it|this|that|this one|that one|the (file|deal)|this (file|deal)) (out|dead|lost)( on (our|my) (end|side))?(?=\\s*[.!,;:\\n-]|\\s*$| on (our|my) (end|side))|(step|stepping|stepped|walk|walking|walked|back|backing|backed) (away|off) (from|on) (it|this|that|this one|that one|the (file|deal))", w: 3 },
  // a verdict noun for yes, negated: "we're not a yes on this one", "it isn't a go for us"
  // (holdout34) never a limit on the terms: "we will not go past 20 weeks", "won't go over 1.40", "not go beyond 6 months"
  { phrase: "(not|isn't|is not|'s not|wasn't|was not|we're not|we are not|i'm not) (a |an )?(yes|go|lock)(?![-/])(?! (past|beyond|over|above|under|below|longer|shorter|higher|lower|out to|further|farther|more than|less than)\\b)( (on|for) (this|it|that|us|me|our (end|side)))?", w: 3 },
  // a bare "no" or "Can't" closing the message: "21 days in the red last 90. no"
  // (holdout16) ... or its slang: "12 returned items last month. Nah."
  // (review rev-t) the same reading, the lookbehind's run of spaces matched once ("[.!?]\\s*" then "\\s*" again tried every split
  // of a crafted 200k run of spaces before a word: quadratic)
  { phrase: "(?<=(^|[.!?]|\\n)\\s*)(no|can't|nah|nope|no go)(?=[.!]?\\s*(\\n|$))", w: 3 },
  // (holdout16) a floor or a ceiling on the ticket as the whole answer: "we don't write anything under 25k", "we do not fund deals over $500k"
  { phrase: "(don't|do not|won't|will not|can't|cannot|never) (write|fund|do|touch|take|go|consider|look at) (anything|any deals?|deals|files|tickets|advances|positions|requests)( that(?:'s| is| are)?)? (under|below|smaller than|less than|over|above|bigger than|larger than|more than) \\$?\\d[\\d,.]*k?(?!\\s*(%|percent|days?|weeks?|wks?|months?|mos?|years?|yrs?|positions?|nsfs?|negs?|pts?|points?|fico|score)\\b)", w: 3 },
];

/**
 * A negative decision about the deal, built from parts rather than listed idiom by idiom (classifier/cues.ts
 * compiles it into decline cues):
 * - a refusal or an impossibility ("can't", "won't be able to", "not in a position to", "no way we can")
 *   and a verb of deciding on a deal (fund, approve, back, do, take on, go further, move forward,
 *   proceed, help, get behind, make it work, ...), with the deal itself or nothing after the verb and then
 *   the end of the clause or a reason ("because", "with the NSFs", "here", "at this time"). Never an
 *   amount, a term or "the full" after the verb: "can't fund 150", "can't do 12 months" refuse the ask,
 *   a counter's words; nor "until": "can't proceed until we get the MTD" asks for items;
 * - the inversion: "not one we can back", "not a deal we'd do", "not the kind of file we fund";
 * - a deferral to a later time: "revisit in the spring", "resubmit in 90 days", "come back to us in Q2",
 *   "won't have that until June", "cannot be resubmitted for 90 days";
 * - verdicts without a decision verb: "that ends it for us", "a deal breaker", "off our box", "not fundable".
 */
export const DECLINE_DECISION = {
  refusal: "can't|cannot|can not|couldn't|could not|won't|will not|wouldn't|would not|(?:won't|will not|wouldn't|would not|am not|are not|aren't|is not|isn't|not) (?:be )?(?:able|going|prepared|willing|in a position|comfortable enough) to|(?:unable|not able|in no position|no longer able) to|(?:don't|do not|doesn't|does not) (?:see (?:us|a way to|how we can|how i can|any way to)|think (?:we|i) can|want to|plan to)|no way (?:we|i) (?:can|could|will|would)|(?:there's|there is) no way (?:we|i) (?:can|could|to)",
  // (rfix14) a syndication desk's own verbs: "not something we can lead", "we can't syndicate this"
  verbs: "fund|approve|back|do|lead|syndicate|take (?:it|this|that|him|her|them|the (?:file|deal|merchant|risk)|this (?:one|file|deal)) on|take on|take (?:it|this|that|the (?:file|deal)) (?:any )?(?:further|farther)|go (?:any )?(?:further|farther)|move (?:forward|ahead)|proceed|help|assist|touch|support|finance|underwrite|write|place|offer|make an offer|extend an offer|get behind|stand behind|get comfortable|get there|get (?:it|this|that|this one|the (?:deal|file)) (?:done|funded|approved|through|over the line)|do (?:anything|much|something) (?:with|for|on)|make (?:it|this|that|this one|the numbers) work|sign off|green ?light|put (?:money|capital|paper|funds) (?:out|on|into|behind)|work with|do business with|pursue|entertain|accommodate|add to|stack on top(?: of (?:that|it|this|them|those))?|sit behind (?:them|that|those|it)|service|serve|participate(?: in)?|do (?:anything|much)|offer (?:financing|funding|terms|anything|an advance|a deal)|get (?:it|this|that|this one|that one|him|her|them|the (?:file|deal)) (?:(?:thru|through|past)(?: (?:credit|uw|underwriting|committee|the committee|our committee))?|done|over the line)",
  objects: "it|this|that|him|her|them|this one|that one|(?:the|this|that|your|their|his|her) (?:file|deal|merchant|request|application|app|submission|account|business|client|customer|one|opportunity|advance|company|transaction)|[a-z][a-z'&.-]*(?: [a-z][a-z'&.-]*)?(?:'s)? (?:file|deal|submission)",
  /** After the verb and its object: the clause ends, or a reason or a place in time follows. */
  tails: "\\s*(?:[.!?;,:\\n)-]|$)|\\s+(?:here|there|at (?:this|the) (?:time|moment|point|stage)|at all|anywhere|right now|for now|today|on (?:this|that|it|this one|that one|the (?:file|deal))|anymore|any ?more|either|unfortunately|sorry|i'm afraid|as (?:it|this|that) (?:stands|is)|in (?:its|it's|the) current (?:form|state|shape)|because|due to|since|given|based on|after|with (?:the|those|these|that|this|his|her|their|a|an|only|just|what|so|how|him|her|them|it|[\\d$])|on (?:a|an) [a-z]+|on (?!the (?:full|whole|requested|entire))[a-z]|for (?:us|me|you|this|that|now|the time being)\\b)",
  /** The verbs as gerunds: "not comfortable backing it", "not a file we're interested in funding". */
  gerunds: "extending (?:an |any )?(?:offer|terms)|making (?:an |any )?offer|offering (?:terms|anything)|funding|approving|backing|doing|taking (?:it |this |that )?on|writing|financing|touching|supporting|underwriting|pursuing|moving forward|proceeding|going (?:any )?further",
  inversion: "not (?:one|something|a (?:deal|file|merchant|credit|risk|loan|position|profile|request|business)|the (?:kind|type|sort) of (?:deal|file|merchant|business|credit|risk|profile)|an? (?:[a-z]+ )?(?:deal|file|merchant|account|business)) (?:that )?(?:we|i)(?:'re| are|'m| am|'d| would|'ll| will| can| could| were)?(?: (?:be|feel))?(?: (?:able|going|prepared|willing|looking|comfortable))?(?: to)?(?: ever)?",
  deferral: {
    verbs: "revisit|resubmit|re-?submit|re-?apply|reconsider|come back|circle back|check back|reach back out|try (?:us |it )?again|look again|take another look|take another (?:swing|crack|shot|run)(?: at (?:it|this|that|them|him|her))?|send (?:it|this|the file) back|bring (?:it|this|that|the (?:file|deal|merchant)|him|her|them) back|take (?:a|another) (?:fresh|new|second) look(?: at (?:it|this|that|the (?:file|deal)))?",
    // (holdout13) "circle back with it in March"
    objects: "it|this|that|the (?:file|deal|merchant)|with us|to us|to me|us|with (?:it|this|that|him|her|them|the (?:file|deal|merchant))",
    time: "(?:the )?(?:spring|summer|fall|autumn|winter|new year|next (?:year|month|quarter|season|spring|summer|fall|winter)|q[1-4]|january|february|march|april|may|june|july|august|september|october|november|december|jan|feb|mar|apr|jun|jul|aug|sept?|oct|nov|dec|\\d{1,3} (?:days?|weeks?|months?)|(?:a|one|two|three|four|five|six|nine|twelve|a few|a couple(?: of)?|several) (?:days?|weeks?|months?|quarters?|years?)|(?:a|one) year|(?:they|he|she|the (?:merchant|business|client|owner))(?:'ve|'s| have| has)? (?:has|have|got|gotten|hits?|reach(?:es)?|gets?|shows?|builds?|adds?|clears?|pays?)|(?:the )?(?:holidays|season))",
  },
  verdicts: "(?:that|this|which|it) (?:ends|kills|sinks|closes|finishes|rules out|knocks out) (?:it|this|that|things|the (?:file|deal|conversation|discussion))(?: for (?:us|me))?|(?:that's|that is|this is|it's|it is) (?:the end of (?:it|the road|the line)|a (?:deal[- ]?breaker|deal[- ]?killer|show[- ]?stopper|knock[- ]?out))|deal[- ]?breaker|deal[- ]?killer|show[- ]?stopper|(?:off|outside(?: of)?|not (?:in|within|inside)) (?:our|the|my) (?:box|buy box|credit box|appetite|wheelhouse|lane)|(?:no|zero|little) appetite (?:for|on)|(?:not|non|un)[- ]?(?:fundable|approvable|financeable|bankable)|(?:is|are|was|deemed|found) ineligible|(?:not|isn't|is not|wasn't|was not) eligible|(?:have|has|going|got) to (?:say no|turn (?:it|this|that|him|her|them|the (?:file|deal)) down|take a pass)|(?:turn|turning|turned) (?:it|this|that|this one|that one|the (?:file|deal)) down|(?:we're|we are|i'm|i am) not interested|(?:this|it|that|this one|that one|the (?:file|deal|math|numbers)|this (?:file|deal)) (?:doesn't|does not|won't|will not|didn't|did not|isn't going to|is not going to|ain't going to) (?:pencil(?: out)?|work|make sense|fly|cut it|qualify|make the cut|hold up)(?=\\s*(?:[.!?;,:\\n)-]|$)|\\s+(?:for (?:us|me)|here|on our (?:end|side)|out|either|unfortunately)\\b)|(?:isn't|is not|aren't|are not|wasn't|was not) (?:gonna|going to) (?:work|happen|fly)|(?:deal|file|this|it|that|this one)(?:'s| is) (?:dead|toast|doa|a dead deal)|(?:bow|bowing|bowed) out|(?:let|letting) (?:this|it|that|this one|that one) go|(?:walk|walking) away(?: from (?:this|it|the (?:file|deal)))?|(?:step|stepping) (?:back|aside) (?:from|on) (?:this|it|the (?:file|deal))|(?:take|taking|took) a pass|(?:give|giving) (?:this|it|this one) a pass|(?:sit|sitting) (?:this|it|that) (?:one )?out|(?:uw|underwriting|credit|committee|the underwriter|my manager|the desk|management|the boss|risk)(?: team)? (?:says|said|came back|voted|is|was) (?:a )?(?:no|no-go|hard no|thumbs down)\\b|thumbs down|denied|denial|rejected (?:it|this|that|the (?:file|deal|application|request|submission))|(?:decision|status|new status|file status|result|outcome)(?: (?:changed|updated|moved|set|is now))?(?: to)?\\W{1,40}(?:rejected|turned down|not funded|dead|closed[ -]+(?:lost|dead|rejected))|(?:file|deal|application|request|submission) (?:was |has been |got |is )?rejected|(?:let|letting) (?:it|this|that|him|her|them|this one|that one|the (?:file|deal|merchant)) go\\b|bow(?:ing|ed|s)? out|(?:isn't|is not|aren't|are not|not|no longer|wasn't|was not) (?:\\w+ )?eligible(?! for (?:the full|the whole|more|over|above|\\$|\\d|up to))|(?:falls?|fell|sits?|is|are|was) (?:well |squarely |clearly )?outside (?:of )?(?:our|the|my) (?:[a-z-]+ ){1,2}(?:guidelines|criteria|parameters|policy|policies|program|box|appetite|rules)",
};

/** An approval taken back: decided by a person (review reason approval_withdrawn). */
export const WITHDRAWAL: PhraseRow[] = [
  // (rfix25) the approval in a phone's shorthand too, wherever it is named below: "scratch the appvl", "pulling the aprvl"
  { phrase: "(pull|pulling|pulled|rescind|rescinding|rescinded|withdraw|withdrawing|withdrawn|revoke|revoked|revoking|retract|retracting|retracted) (the |our |my |that )?([a-z'&-]+ ){0,2}(approval|appvl|apprvl|aprvl|apprv|aprv|approvl|offer)", w: 4 },
  // an approval taken back in other words: "we previously approved this but are rescinding", "have to walk back our number"
  { phrase: "(are|is|we're|i'm|am|have|has|we've|been|now) (rescinding|withdrawing|revoking|retracting|pulling (it|this|that) back|walking (it|this|that) back|taking (it|this|that) back)|(walk|walking|take|taking|pull|pulling) back (our|the|my|yesterday's|today's|last week's|that|this|the earlier|the previous) (number|numbers|offer|approval|terms|quote|pricing)", w: 4 },
  // (revC) ... the approval named by its merchant between: "our approval on Pinecrest is withdrawn", "the offer for the clinic was pulled"
  { phrase: "(approval|appvl|apprvl|aprvl|apprv|aprv|approvl|offer)( (on|for|of) (the )?[a-z'&-]+( [a-z'&-]+){0,3}?)? (is |was |has been |got |just got )?(pulled|rescinded|withdrawn|revoked|off the table|cancell?ed|killed)", w: 4 },
  { phrase: "(won't|will not) stay on", w: 2 },
  // (holdout35) the approval struck out in plain words: "scratch the approval below", "scrap yesterday's offer", "nix that approval"
  // (holdout41) ... the approval named by the business, whose name runs to four words: "scratch the sun valley ski approval"
  { phrase: "(scratch|scrap|strike|nix|void|cancel) (the |our |my |that |this |yesterday's |today's |earlier |previous |prior )*([a-z'&-]+ ){0,4}(approval|appvl|apprvl|aprvl|apprv|aprv|approvl|offer)", w: 4 },
  // (holdout41) the lender taking the approval back as the sentence's whole verb: "we're pulling it, we don't go on top of
  // undisclosed stacks" (never "pulling it up", "pulling the file for review": the object ends the clause; never a comma going on to
  // the work: "I just pulled the file, give me an hour", "We've pulled it, underwriting is reviewing now")
  { phrase: "(we're|we are|were|i'm|i am|we've|we have|we've just|we just|i just|i've|i have) (pulling|pulled) (it|this|that|this one|that one|the (deal|file|offer|approval))(?=\\s*[.!;\\n]|\\s*$|\\s*,(?!\\s*(give|gimme|hang|hold|bear|let|allow|expect|i'll|we'll|i will|we will|should|will|underwriting|uw|credit|committee|risk|it's|its|is|am|are|reviewing|looking|checking|working|running|going|now|back|and (i|we|will|should|it's|it is)|answer|more|one)\\b))", w: 4 },
  // (rfix14) ... the same typed without its subject, opening the reply or a sentence: "pulling this one. merchant took a 3rd
  // yest" (never "pulling the file": fetching it to look, no deal or offer named; the object still ends the clause)
  { phrase: "(?<=(^|[.!?\\n]) ?)(pulling|pulled) (this one|that one|(the|our|my) (deal|offer|approval))(?=\\s*[.!;\\n]|\\s*$)", w: 4 },
  // (holdout11 neighbours) the approval taken back with the deal as object: "credit pulled it this morning", "UW yanked the deal"
  { phrase: "(credit|uw|underwriting|committee|risk|management|my manager|we|they|the desk) (just |has |have )?(pulled|rescinded|withdrew|withdrawn|yanked|revoked|retracted|reversed) (it|this|that|the (deal|file|offer|approval))", w: 4 },
  // (rfix17) ... said as what the lender must do: "we approved them in May but have to pull it", "I'm going to have to yank the
  // deal", "we need to rescind that" (for a person: approval_withdrawn)
  { phrase: "(have|has|had|need|needs|going|got|gotta|forced|must) (to )?(pull|rescind|withdraw|revoke|retract|yank|reverse) (it|this|that|them|the (deal|file|offer|approval|terms|number|numbers))\\b", w: 4 },
  // (revM) a status line whose approval was struck after it, as minutes and trackers write it: "Item 1: APPROVED on 11/20 ($60,000
  // ...) - REVERSED today", "APPROVED (...) - rescinded", "APPROVED -> WITHDRAWN" (within the line; never "approved as reviewed")
  { phrase: "\\bapproved\\b[^\\n]{0,100}?(\\s[-\u2013\u2014]+>?|->|=>|\u2192|;|,|\\bnow|\\bbut|\\bsince|\\bthen|\\blater)\\s*(been |was |is |were |got )?(reversed|rescinded|revoked|withdrawn|pulled|retracted|overturned|voided|cancell?ed)\\b(?!\\s+(the|a|an|our|their|his|her|its|credit|bank|it|this|that|up|from|in|out|back|for)\\b)", w: 4 },
  { phrase: '(offer|approval) (has |had )?expired', w: 3 },
  // (revM) ... said as a status after it: "Status: Approved (expired 11/25)", "Approved - offer lapsed, merchant went elsewhere"
  { phrase: "\\b(approved|approval|offer)\\b[^\\n]{0,40}?(\\(|\\s[-\u2013\u2014]|,|;|:)\\s*((the )?(offer|approval) )?(has |had |now |since )?(expired|lapsed)\\b", w: 3 },
  // (holdout17) an approval sent by mistake, taken back: "please disregard the approval email our system sent this morning",
  // "ignore yesterday's offer notice, it went out before verification"
  // (holdout20) ... the approval named by the business, whose name runs to four words: "disregard the Paducah River Marine approval"
  { phrase: "(disregard|ignore) (the |our |my |that |this |an |this morning's |yesterday's |today's |earlier |previous |prior )*([a-z'&-]+ ){0,4}(approval|appvl|apprvl|aprvl|apprv|aprv|approvl|offer)( e-?mail| notice| notification| letter| message)?", w: 4 },
  { phrase: '(approval|appvl|apprvl|aprvl|apprv|aprv|approvl|offer)( e-?mail| notice| notification| letter)? (was |got )?(released|sent|issued|generated|went out) (in error|by mistake|by error|prematurely|too early|before (verification|underwriting|the verification|we|credit))', w: 3 },
];

/** A request for items: the lender will decide once they arrive. */
export const NEEDS_INFO: PhraseRow[] = [
  { phrase: "(and|then) (i'll|we'll|i will|we will) take (another|a) look", w: 2 },
  { phrase: '(send|get|need) (me |us )?payoff letters?', w: 2 },
  { phrase: 'pls|please', w: 0.5 },
  { phrase: '(at|for) \\$?\\d+k? we need', w: 2 },
  // (rfix) never the lender's own rule: "we need a minimum of 12 months in business" asks for nothing
  { phrase: 'we need (financials|the|a(?! (minimum|min|floor)\\b)|an|2|two|3)', w: 1.5 },
  { phrase: 'on hold until', w: 2.5 },
  { phrase: 'documents required|action required', w: 2 },
  // a request opening a sentence, naming a document: "Send the MTD and I'll get you numbers", "Upload October's statement"
  { phrase: "(?<=(^|[.!?\\n]\\s*))(send|resend|upload|forward|provide|get (me|us)) (over |in )?(the |a |an |your |their |his |her )?(?=(mtd|month|statements?|bank|voided|void|dl|driver|id|photo|app|application|signed|tax|p&l|payoff|landlord|lease|proof|k-1|articles|ein|invoices?|password|decision|plaid|a/r|aging|\\d{4}|last|most recent|current|updated|october|november|september|august|december|january)\\b)", w: 1 },
  // a document still awaited: "Waiting on MTD", "still waiting for the signed app", "send them over when you have them"
  { phrase: "(still )?(waiting|holding) (on|for) (the |their |a |an |your )?(?=(mtd|month|statements?|bank|voided|void|dl|driver|id|photo|app|application|signed|tax|p&l|payoff|landlord|lease|proof|k-1|articles|ein|invoices?|password|decision|plaid|a/r|aging|\\d{4}|last|most recent|current|updated|october|november|september|august|december|january)\\b)|send (it|them|those|that|these)( over| in)? (when|once|as soon as) you (have|get)", w: 1.5 },
];

// (issue 26 classes, after holdout11) a request in other words: what the lender cannot decide without ("can't price it without
// the MTD"), items pending by label, the merchant asked through the broker ("please have the owner connect Plaid", "can you
// ask the merchant to sign"), what the lender would like to see before a decision
NEEDS_INFO.push(
  { phrase: "(can't|cannot|won't|unable to|not able to|can not) (price|decide|approve|fund|move|underwrite|review|quote|structure|submit|proceed)( on)?( it| this| that| the (file|deal))?( any further)? without", w: 2.5 },
  { phrase: '(pending|open|outstanding|remaining|missing) (items|stips|conditions|documents|docs)|items (pending|outstanding|open|still needed)', w: 2.5 },
  // (holdout24) ... or until it sees them: "I can't price it until I see the MTD activity", "can't give you a number till we
  // get the last two statements" (a decision verb, never "fund": "can't fund until we get the voided check" closes a deal)
  { phrase: "(can't|cannot|won't|unable to|not able to|can not) (price|quote|decide|structure|underwrite|approve|review|give (you |him |her )?(a |any )?(number|numbers|terms|pricing|price|offer|decision)|put a number on)( on)?( it| this| that| the (file|deal))?( any further| yet)? (until|till|before) (i|we|uw|credit|underwriting|the underwriter|they) (see|sees|get|gets|have|has|receive|receives|review|reviews|look at|looks at)", w: 2.5 },
  // (holdout16) a portal's status of conditions still to come: "CONDITIONS PENDING", "stips outstanding", "a decision once all
  // conditions are uploaded"
  { phrase: '(conditions|stips|stipulations|documents|docs|requirements) (pending|outstanding|open|still needed|required)|(decision|offer|approval|pricing|terms) (once|when|after) (all )?(the )?(remaining |outstanding |open )?(conditions|stips|stipulations|items|documents|docs|requirements) (are|have been|is|has been) (uploaded|received|submitted|cleared|in|satisfied|met)', w: 2.5 },
  { phrase: "(please|pls|kindly|can you|could you|would you)( please)? (ask|get|tell) (the |your )?(merchant|owner|client|customer|borrower|business owner) (to )?(connect|link|send|sign|complete|upload|provide|fill( out)?|submit|email|forward|share|log ?in)", w: 2.5 },
  { phrase: '(would like to|need to|needs to|want to|wants to|have to|has to) see|before (making|we make|i make|reaching|giving) (a |the |our )?(final )?(decision|call|determination)|(please|pls|kindly|can you|could you) share', w: 1.5 },
  // (rfix2) what the one who prices is waiting for, said through the desk: "Beth needs a couple of things on the file before she
  // can price it", "then I can give you a number"
  { phrase: "(need|needs|want|wants|needed) (a couple of|a couple|a few|some|two|three|\\d) (more )?(things|items|docs|documents|pieces)\\b", w: 1.5 },
  { phrase: "before (she|he|they|uw|underwriting|credit|the underwriter|we|i) (can|could|will) (price|quote|structure|underwrite|give (you |him |her )?(a |any )?(number|numbers|terms|pricing|price|offer|decision)|put (a )?numbers? on)", w: 2 },
  { phrase: "(then|and then|after that) (i|we|she|he|they|uw|credit) (can|could|will|'ll) (give|get|send) (you |him |her )?(a |the |some )?(number|numbers|terms|pricing|price|offer|decision)", w: 1.5 },
  // (rfix10) what is left to come, named: "the only thing outstanding is the landlord letter", "all we need now is the voided check"
  { phrase: "(the only thing|the one thing|only thing|all (we|i|uw|credit|underwriting)|what (we|i|uw|credit|underwriting)) (still )?(need|needs|still need|are missing|is missing|is outstanding|outstanding|left|missing|remaining|open)( now| still| on (it|this|the file))? (is|are)\\b", w: 2.5 },
);

/**
 * (holdout25) the file still to be put before the one who decides: "I'll get it in front of underwriting first thing
 * tomorrow", "let me run this by credit", "going to walk it over to the underwriter this afternoon". No decision yet
 * (PENDING); beside an approval in words, the approval is not final (TENTATIVE).
 */
const TO_UNDERWRITING = "(i'll|i will|we'll|we will|let me|let us|going to|gonna|i'm going to|will) (get|put|send|pass|run|take|bring|walk|hand|kick|push|submit|present) (it|this|that|the (file|deal|submission|package|app|application)|this (one|file|deal)|him|her|them)( over| up| along| across)? (in front of|to|by|through|before|over to|up to) (the |our |my )?(underwriting|uw|credit|underwriters?|committee|credit committee|credit team|uw team|risk)( team| desk)?\\b";

/** A person acknowledging or reporting progress: no decision yet. */
/**
 * (holdout28) The broker's own side of the deal, not the merchant's file: who closed it, the comp sheet, commissions, the
 * ISO's agreement or W-9 ("who's the closer on this one, need it for the comp sheet", "send your ISO agreement so we can
 * pay the commission"). An item asked about these is broker admin, never a stip of the deal (requested-items.ts).
 */
export const BROKER_SIDE: string[] = [
  'closer(?! (?:look|to|than|review|inspection))', 'comp (?:sheet|plan|schedule|report|split)', 'commissions?', 'rep of record', 'split (?:on|for) (?:this|the|that)',
  "(?:iso|broker|referral|partner|agent)(?:'s)? (?:agreement|contract|packet|onboarding|paperwork|application|app|w-?9|ach form|bank info)",
  "(?:your|the iso'?s|iso'?s|the broker'?s|broker'?s|your shop'?s|your company'?s|your firm'?s) (?:w-?9|ein|ach form|bank info)",
  'who (?:gets|is getting|should get) (?:paid|credit|the credit)',
];

export const PENDING: PhraseRow[] = [
  // (holdout21) the answer promised for later, the one who decides away: "Renata is out until Thursday so figure an answer
  // then", "expect a decision from credit Monday", "you'll have an answer when he's back"
  { phrase: "(figure|expect|look for|count on|plan on|should have|will have|you'll have|you'll get|you will get) (on )?(an |a |the |my |our |your )?(answer|decision|verdict|response|final word)( (then|by|on|from (her|him|them|credit|uw|underwriting)|when (she|he|they)('s|'re| is| are| gets?) back|(early |late )?(tomorrow|next week|monday|tuesday|wednesday|thursday|friday)))", w: 2.5 },
  { phrase: 'still with (uw|underwriting|credit|the underwriter)', w: 3 },
  { phrase: 'should know (by|tomorrow|today|later)', w: 2 },
  { phrase: 'you will be notified|will be notified when', w: 3 },
  // (rfix16) a status notice that only points to the portal: "The status of this submission has changed. Log in to the portal to
  // view details" (no decision in the message; what changed is for a person to look up)
  { phrase: "(the )?status (of (this|your|the) (submission|file|deal|application|request|merchant) )?(has )?(changed|been updated|was updated)\\b[^\\n]{0,40}?(log ?in|sign ?in|visit|go to|check)\\b[^.\\n]{0,60}?\\bto (view|see|review|read) (the )?(details|status|update|decision|changes?)\\b", w: 2.5 },
  // the broker's own paperwork before the file is opened: no decision on the merchant
  { phrase: '(signed )?(iso|broker|referral|partner) agreement', w: 4 },
  { phrase: '(running|about) \\d+ (hours|days) behind', w: 2 },
  // (holdout18) a status with the decision still to come: "it's pending final underwriting", "I expect a decision tomorrow"
  { phrase: TO_UNDERWRITING, w: 2.5 },
  { phrase: "(it's|it is|file is|deal is|still|currently|now|status:?) pending (final |the final |a final )?(underwriting|uw|review|credit|decision)|(i|we) (expect|should have|will have|'ll have) (a|the|your|an) (decision|answer) (tomorrow|today|by|before|in|on|early|later|this|first)", w: 2.5 },
];

/** Automatic replies a phrase gives away (the header check comes first in the hook). */
export const AUTO_REPLY: PhraseRow[] = [
  { phrase: '(this )?mailbox is no longer monitored|no longer monitored', w: 4 },
  { phrase: 'thanks for your submission|thank you for your submission', w: 2 },
  { phrase: '(your )?(request|ticket|submission|file)( \\(?#?\\d+\\)?)? has been received', w: 4 },
  // (holdout16) a leave notice with no Auto-Submitted header: "I am on parental leave until December 1 and not checking email"
  { phrase: "(i am|i'm|i will be|i'll be|currently)( currently)?( out)? on ((parental|paternity|maternity|medical|family|bereavement|sick|extended|personal|annual) leave|(a )?leave of absence|sabbatical)", w: 4 },
  { phrase: '(not|won\'t be|will not be) (checking|monitoring|reading|responding to) (my )?(e-?mails?|inbox|messages)', w: 2 },
];

/**
 * A person asking to be taken off the broker's list, or pointing the broker elsewhere: no decision on
 * the deal ("Please remove me from your list", "unsubscribe", "I no longer handle ISO submissions",
 * "send deals to subs@..."). The firm refusing all submissions ("X is no longer accepting broker
 * submissions") stays a decline.
 */
export const UNSUBSCRIBE: PhraseRow[] = [
  { phrase: "unsubscribe|(remove|take|drop) me (off|from)|(stop|quit) (emailing|sending|e-?mailing) me|opt (me )?out", w: 3.5 },
  { phrase: "(i|i'm|i am) (no longer|not) (handling|handle|covering|cover|managing|manage|the (right )?(contact|person)|with|at|in charge of)|(i've|i have) (left|moved (on|to))|no longer with (the company|[a-z]+)", w: 3 },
  { phrase: '(send|forward|direct|route|submit) (all |any |future |new |your )*(deals|submissions|subs|files|apps|applications) (to|over to|going forward to)', w: 1.5 },
];

/**
 * (holdout17) A funder's marketing message to its brokers (a newsletter, a rate sheet, a "send us your declines" blast):
 * about no deal, so never a decision, whatever approvals, rates and declines it advertises ("Approved this week: a Texas
 * HVAC contractor, $45,000 at 1.30"). decide.ts leaves it unclassified when these weigh 4 or more and the message does
 * not name the deal's business (a portal's decision with a newsletter footer still names it).
 */
export const MARKETING: PhraseRow[] = [
  { phrase: "you('re| are) receiving this( e-?mail| message| newsletter| update)? because|you (signed up|subscribed|opted in)|(manage|update) (your )?(e-?mail |subscription |communication )?preferences|view (this e-?mail )?in (your )?browser", w: 2 },
  // (rfix17) ... also its masthead in one word, "Partner News - November", "ISO News"
  { phrase: '(iso|broker|partner|agent|referral partner)s? (partner )?(update|news|newsletter|bulletin|digest|spotlight|rate sheet|program update)|(monthly|weekly|quarterly) (newsletter|update|bulletin|digest)', w: 2 },
  // (rfix17) a list's way out, written into its footer: "Unsubscribe: reply STOP", "to opt out, reply STOP"
  { phrase: "(unsubscribe|opt[- ]out|to stop (receiving|these))\\W{1,6}(reply|respond|text|write back|email back)( with)? [\"']?stop\\b", w: 2 },
  { phrase: '(send|submit|bring) (us|me) (your|all your|any|those|more) (declines|turndowns|turn-?downs|deals|files|renewals|tough deals|hard deals)', w: 2 },
  { phrase: "(approved|funded|closed) (this|last) (week|month)(?=\\s*:)|recent (fundings|approvals|closings)|deals? of the (week|month)", w: 2 },
  { phrase: "(we|who) (approve|fund|say yes to|close) what (other|most) (funders|lenders|banks|shops)( won't| don't| can't| turn down| decline| pass on)", w: 2 },
  { phrase: '(hi|hello|dear) (partner|partners|iso partners?|broker partners?)|submit a deal( today| now)?', w: 1 },
  // (rfix) the program advertised, in a blast's bullets: "buy rates starting at 1.22", "approvals up to $500,000 in 4 hours",
  // "same-day funding", "submit to deals@...": one such line is a signature's, several a funder's mailing (with the rest)
  { phrase: '(buy|sell) rates? (starting|start|from|as low as)|rates? as low as|approvals? up to \\$?\\d|same[- ]day (funding|approvals?)|(funding|approvals?|decisions?) in (\\d+|one|two|four|24|48) (business )?(hours?|hrs)|submit (your )?(deals|files|subs|submissions)? ?(to|at) [a-z0-9._-]+@|(year|month|quarter)-end (push|special|promo)', w: 1.5 },
  // (rfix2) ... and the rest of such a mailing: declines invited as a question ("Declined somewhere else? Send it over."), the
  // positions it takes as a range ("1st through 4th positions considered"), the points a broker may add, a submission link
  { phrase: "(declined|turned down|rejected) (somewhere else|elsewhere|by (another|other|your other) (funders?|lenders?|shops?))(?=\\?)|(1st|first|2nd|second) (through|thru|to|-) (3rd|third|4th|fourth|5th|fifth) positions?|\\d+ points max|max(imum)? upsell|up to \\d+ points|submit (deals |files |your deals )?(at|via|through|on) https?://", w: 1.5 },
];

/**
 * Terms relayed by another broker (an ISO who shopped the file to its own funders) rather than
 * written by the lender that decides: the lender is not named, and the relayer adds its own points or
 * fee. A person decides (review reason tentative_terms). "One came back", "my funder can do", "2 pts
 * on top for my side", "shopped it to my guys".
 */
export const RELAYED: PhraseRow[] = [
  { phrase: "(shopped|sent|took|ran|showed|pitched|passed) (it|this|that|the file|the deal|your [a-z'&]+( file| deal)?) (around |out )?to (a few |a couple of |some |several |three |two |four |five |six |\\d+ )?(of )?(my|our) (guys|funders|lenders|people|shops|network|partners|buyers|houses|contacts)", w: 3 },
  { phrase: "(one|two|a couple|some|\\d) of (them|my (guys|funders|lenders|shops|partners)|the (funders|lenders|shops)) (came back|countered|offered|approved|said)|(one|the first|one funder|one lender|one shop) came back|(my|our) (guy|funder|lender|shop|partner|buyer)s? (came back|countered|offered|approved|can do|will do|would do|landed|said)", w: 3 },
  // "heard back from one of my funders", "a funder I work with", "our partner funder can do"
  { phrase: "heard back from (one of |a couple of |two of |some of )?(my|our) (guys|funders|lenders|shops|partners|buyers|people)|(a|one|another) (funder|lender|shop|buyer) (i|we) (work|deal|place (deals|files)) with|(my|our) (partner|outside|other) (funder|lender|shop|buyer)s?", w: 3 },
  // the relayer's own markup: "I'd need 3 points on it", "we add 2 points", "my fee is 2 pts on top"
  { phrase: "(i'd|i would|we'd|we would|i|we) (need|add|want|take|tack on|put) \\d+ ?(pts?|points?)( on (it|top|that))?|(my|our) (fee|points|pts|spread|cut) (is|are|would be) \\d+", w: 3 },
  // (holdout27) a decision heard, not written: a voicemail or a call passed on as its recording or transcript ("left me this
  // VM, forwarding the transcript", "pasting the call transcript", "voicemail from the underwriter", "she told me over the
  // phone"): hearsay a person confirms (never "I left you a voicemail", the lender's own word, nor a tax transcript)
  { phrase: "(left|sent|forwarded|got) (me|us)( a| this| the| her| his| their)? (vm|voice ?mail|voice message|phone message)|(vm|voice ?mail|voice message) (from|transcript(ion)?)|(call|vm|voice ?mail|voice message|phone|recording|message) transcript(ion)?s?|(forward(ing|ed)?|pasting|pasted|copying|copied|attaching|attached)( you| along| below| in)? (the|this|her|his|their|a) (transcript(ion)?|vm|voice ?mail|recording)|(said|told me|told us|mentioned|confirmed) (it )?(on|over) the phone", w: 3 },
  // (holdout41) a decision heard on a call with the lender's underwriter and passed on, not yet in writing: "per my call with
  // her they can do 45k", "just got off the phone w/ Jenna", "it's verbal until the approval email comes through" (never a
  // call with the merchant, the owner or the broker itself: "per my call with the owner, we need MTD", "per our call")
  { phrase: "(per|from|after|on) (my|our) (phone )?(call|conversation|chat|talk) (w/|with) (?!(the |your |our )?(merchant|owner|client|guarantor|customer|borrower|business|you)\\b)[a-z]+|(just )?(got|hung|getting) off (the phone|a call|the call) (w/|with) (?!(the |your |our )?(merchant|owner|client|guarantor|customer|borrower|business|you)\\b)[a-z]+", w: 3 },
  { phrase: "(it's|it is|this is|that's|its|terms are|approval is|offer is) verbal (only )?(until|till|for now|pending)|verbal until (the|an|her|his|their|a) (approval|written|email|write-?up|paperwork)|(hasn't|has not|haven't|have not) (written|put) (it|this|that|them|the (terms|approval|offer)) (up|in writing|down)( yet)?", w: 3 },
  { phrase: "(pts?|points?|%|fee|spread) (on top )?(for|to) (my|our) (side|end|shop|desk|cut)|(on top|over (their|the) (buy|rate)) for (me|us|my side|our side)|(my|our) (points|pts|fee|spread|cut|side) (on top|added|included)|add(ing)? \\d+ ?(pts?|points?) (on top|for (me|us|my side))", w: 3 },
  // (rfix18) a decision passed on second-hand by a sender who has not seen it in writing: "haven't seen the credit memo myself",
  // "Rudy in the office says credit passed", "I'm told underwriting declined it": hearsay a person confirms (never the lender's
  // own "we haven't seen the statements", a document it waits for, nor what the merchant says)
  { phrase: "(haven't|have not|hasn't|has not|didn't|did not|never) (seen|read|reviewed|looked at) the (credit |underwriting |decline |approval |final )?(memo|decision|write-?up|uw notes|underwriter'?s notes|decline letter|approval letter)( myself| personally| yet)?|\\b(?!(the |your |our )?(merchant|owner|client|guarantor|customer|borrower)\\b)[a-z]+ (in|at|from) (the|our) (office|shop|back office) (says|said|tells me|told me|mentioned)|(i'm|i am|i was|i've been|i have been) told (that )?(credit|underwriting|uw|they|the funder|the lender) (passed|declined|approved|turned|won't|will not|can't|cannot)", w: 3 },
  // (rfix19) ... and a decision the sender puts in the lender's mouth, third person: "per the lender, approved 90k", "according
  // to the funder it's declined", "lender says they approved", "the funder came back at 60k": a broker's paraphrase (its own
  // note atop a forward), never the lender's own word ("per my underwriter" is the lender's own desk; "the 1st position lender
  // says the payoff is 22k" names another funder's figure, not a decision)
  // (revA) ... nor a funder's rules named ("per the funder's guidelines the account stays open"): the lender's own terms
  { phrase: "(?:per|as per|according to|heard (?:back )?from) (?:the|our|your) (?:lender|funder|funding partner)s?\\b(?!(?:'s)? (?:portal|statements?|agreement|contract|app|application|guidelines?|polic(?:y|ies)|requirements?|criteria|program|rules?|box|standards?)\\b)|(?:(?<=(?:^|[.!?\\n]\\s*|, |- ))|(?:the|our|your) )(?:lender|funder)s? (?:just )?(?:says|said|came back|got back|approved|declined|passed|countered|is offering|offered|has approved|has declined|confirmed|told (?:me|us))", w: 3 },
  // (revs) ... and so is one the sender only believes or heard of: "I believe credit approved it ... let me confirm", "apparently
  // underwriting approved it", "heard from the desk that it was approved" (never the lender's own "we believe the merchant qualifies")
  { phrase: "(i believe|i think|apparently|(i )?heard (from [a-z]+( [a-z]+)? )?that|(i )?heard from [a-z]+( [a-z]+)?) (that )?(credit|underwriting|uw|they|the funder|the lender|the desk|it|this|the file|the deal)( was| got| has been| is|'s)? (approved|declined|passed)", w: 3 },
  // (rfix21) ... and one the sender only says it sounds like, the decision itself still to come: "it sounds like they're going to
  // pass ... he will send you the official decision tomorrow", "looks like credit will decline", "seems like underwriting is
  // leaning toward a no" (a person waits for the decision; never the lender's own "sounds like a good fit")
  { phrase: "(sounds|looks|seems) like (they|credit|underwriting|uw|committee|the (funder|lender|committee|desk|underwriters?|bank))('re|'ll| are| will| is| may| might)? (going to |gonna |about to |likely to |probably |leaning (toward|towards|to) )?(pass|decline|approve|turn (it|this|the file|the deal) down|say (no|yes)|a (pass|no|yes|decline))\\b|(send|give|email|get) you the (official|final|formal|actual) (decision|answer|word)\\b(?! letter)", w: 3 },
];

/**
 * (rfix24) A voice system's notification of a voicemail left on our line, as the message opens: "New voicemail from Boone Caudill
 * (304) 555-0188", "Voice message from ext. 214", "VM from ..." (never a note above it: "Hi Dana, Bo asked me to send you the
 * voicemail", "Fwd: ...", "left me this VM").
 */
export const VOICEMAIL_NOTICE_OPENING = /^(?:you have (?:a )?)?(?:new |missed call and )?(?:vm|voice ?mail|voice message)(?: message)? (?:from|received from|left by)\b/;
/** (rfix24) A RELAYED hit that is only that notification's own wording ("voicemail from", "transcription"). */
export const VOICEMAIL_NOTICE_HIT = /^"?(?:(?:vm|voice ?mail|voice message) (?:from|transcript(?:ion)?)|(?:vm|voice ?mail|voice message|message|recording) transcript(?:ion)?s?)"?$/;
/**
 * (revH) A voicemail's words that are not the lender's own decision: what another said ("the funder called me and said", "my
 * manager told me", "I heard from UW that"), the merchant speaking ("this is the owner of ..."), or the caller taking it back
 * mid-message ("oh wait, sorry, that's the Lakeside one", "scratch that").
 */
export const VOICEMAIL_NOT_OWN_WORD =
  /\b(?:the (?:funder|lender|underwriter|bank)|(?:my|our) (?:manager|boss|underwriter|uw|guy|team|credit (?:guy|team)))\b[^.!?\n]{0,40}?\b(?:called me|call me|told me|tells me|said|says|emailed me|texted me)\b|\b(?:heard|found out|hear) (?:back )?(?:from|that)\b|\bthe (?:owner|merchant) (?:of|at|from)\b|\bthis is (?:the )?(?:owner|merchant)\b|\boh wait\b|\bwait,? (?:sorry|no|actually)\b|\bthat'?s the [a-z]+(?: [a-z]+)? (?:one|file|deal)\b|\bscratch that\b|\bnever ?mind\b/;

/**
 * (rfix16) The RELAYED rows above that say only where the relayer placed the file (its first three: "took it to three of our
 * funders", "one came back", "heard back from a funder we work with"), not a call, a voicemail or the relayer's own markup.
 */
export const RELAYED_PLACED = new RegExp(RELAYED.slice(0, 3).map((r) => `(?:${r.phrase})`).join('|'));
/**
 * (rfix16) The funder's own decision in writing, passed on whole: "a written approval for the whole 40k", "their approval PDF is
 * attached" (never one still to come: "no written approval yet", "waiting on the signed offer").
 */
export const RELAYED_IN_WRITING =
  /(?<!\b(?:no|not|without|awaiting|waiting (?:on|for)|pending|before|until|till|once|when|after|get|getting) (?:a |an |the |their |any |his |her )?)\b(?:written|signed|formal) (?:approval|offer|commitment)\b|\b(?:approval|offer|commitment)(?: pdf| letter| e-?mail| document| doc)s? (?:is |are )?(?:attached|enclosed|forwarded)\b/;
/**
 * (rfix16) Every funder the file went to passed, as the relayer reports it: "a pass across the board", "all five passed", "none of
 * them would do it", "nobody would put a number on it" (never one funder's no while others are still out).
 */
export const RELAYED_ALL_PASSED =
  /\bacross the board\b|\b(?:all|each|every one|everyone|every (?:funder|lender|shop)) (?:of (?:them|our|my) (?:\w+ )?)?(?:\w+ )?(?:passed|declined|said no|turned it down)|\ba pass from (?:all|every|each)\b|\b(?:none|not one|neither) of (?:them|our|my|the)\b|\b(?:nobody|no one|no takers)\b/;
/**
 * (revr) What keeps a desk's relay from being the funder's written word passed on whole: the desk's own pricing beside the
 * funder's ("a 1.35 buy, sell at 1.49", "max sell 1.49", "we keep 4 on top"), terms it says differ from the paper ("the letter
 * still shows 1.35", "we got it down"), or a paper that is not this merchant's ("the approval attached is for another deal",
 * "wrong PDF"), or a fee of its own ("a 3% desk fee out of funding"): a person decides.
 */
export const RELAYED_NOT_AS_WRITTEN =
  /\b(?:buy(?:ing)? rate|(?:max(?:imum)?|can|you can|up ?sell|upsell) (?:sell|upsell|up ?sell|mark (?:it )?up)\b|sell (?:it )?(?:at|up to|for) \d|\d\.\d+ buy\b|(?:we|i) (?:keep|take|get|make) \d+(?:\.\d+)? ?(?:pts?|points?)?\b[^.!?\n]{0,20}\b(?:on top|for (?:us|me|our side|my side)))|\b(?:letter|pdf|attachment|paper(?:work)?|approval|offer) (?:still )?(?:shows|says|reads|has|lists) [^.!?\n]{0,30}\d|\b(?:got|talked|negotiated|bumped|knocked|brought) (?:it|them|the (?:rate|factor|buy)) (?:down|up)\b|\bwrong (?:file|attachment|pdf|letter|merchant|deal|business)\b|\b(?:attached|enclosed|pdf|letter|attachment)\b[^.!?\n]{0,40}\b(?:is|was|are) (?:for|under) (?:another|a different|the wrong|a separate)\b|\bnot (?:for )?(?:this|the same|your) (?:merchant|deal|file|client|business)\b|\b(?:desk|broker|brokerage|iso|our|my) fees?\b/;
/**
 * (revr) Funders still out, or one funder's no among others not yet heard, as the relayer reports it: "none of them have gotten
 * back to me except Ridgeline, who declined", "the others haven't answered yet", "still waiting on the rest" (no pass from all).
 */
export const RELAYED_STILL_OUT =
  /\b(?:yet|still (?:out|waiting|reviewing|looking|pending|with)|waiting (?:on|for) (?:the )?(?:rest|others?|other \w+)|except\b|other than\b|(?:have|has|had)(?:n't| not)? (?:gotten|got|come|heard) back|(?:have|has)(?:n't| not) (?:answered|responded|replied|decided))/;
/** (rfix11) What voids an approval (VOID_UNLESS_FACT): the decision, its verb, the word. */
const VOID_DECISION = "(this|the|that|our|your|its|their|any) ([a-z]+ )?(approval|offer|decision|deal|terms|counter(-?offer)?)";
const VOID_BE = "(is|are|will be|would be|becomes|shall be|is considered|will become|gets|will get|would get)";
const VOID_WORD = "(null and void|void(ed)?|off the table|withdrawn|pulled|rescinded|revoked|cancell?ed|no longer valid)";
/** A deadline or a closing step is a routine condition, not an unknown fact: "within 7 days", "signed contracts", "funded", "the executed agreement". */
const VOID_ROUTINE = "(?![^.!?\\n]{0,80}\\b(within|days?|hours?|expir\\w*|funded|funding|contracts?|accepted|(signed|executed) (agreement|purchase agreement|docs|documents|paperwork))\\b)";
/** The merchant not producing something: "if they can't provide", "if the owner does not have". */
const VOID_NOT_PRODUCED = "(they|he|she|the (merchant|owner|client|business|guarantor)) (can't|cannot|doesn't|does not|don't|do not|is unable to|are unable to|fails? to|isn't able to|aren't able to) (provide|produce|show|get|obtain|have|document|furnish|present|supply)";
const VOID_UNLESS_FACT =
  `(if|should|in case|in the event)( that)?${VOID_ROUTINE} ((there (is|are|'s) )?(no|not an?) |${VOID_NOT_PRODUCED})[^.!?\\n]{1,80}?${VOID_DECISION} ${VOID_BE} ${VOID_WORD}` +
  `|${VOID_DECISION} ${VOID_BE} ${VOID_WORD}( [a-z]+){0,2} (unless|without|absent|if (there (is|are|'s) )?no|if ${VOID_NOT_PRODUCED})${VOID_ROUTINE}` +
  `|(unless|without|absent)${VOID_ROUTINE} [^.!?,\\n]{3,80},? ${VOID_DECISION} ${VOID_BE} ${VOID_WORD}` +
  // (rfix16) ... or if a fact nobody has seen yet turns out worse than a stated limit, or something more is found: "if the lien
  // balance exceeds $15,000 or any additional lien is found, this approval will be withdrawn" (a payoff or a search still to
  // come decides it; never a verification coming back different, nor a deadline)
  // (stop 49) ... or if something the lender still has to see is not so, its subject first: "should the license not show
  // active by Monday, the approval will be pulled", "approval gets pulled if the license is not confirmed" (a deadline or
  // a closing step is routine, as above)
  `|(if|should|in case|in the event)( that)?${VOID_ROUTINE} [^.!?\\n]{1,80}?\\b(not|n't|never|fails? to)\\b[^.!?\\n]{1,80}?,? ${VOID_DECISION} ${VOID_BE} ${VOID_WORD}` +
  `|(${VOID_DECISION}|\\b(approval|offer|decision|deal|terms)) ${VOID_BE} ${VOID_WORD} (if|should|in case|in the event)( that)?${VOID_ROUTINE} [^.!?\\n]{1,80}?\\b(not|n't|never|fails? to)\\b` +
  `|(if|should|in case|in the event)( that)?${VOID_ROUTINE} [^.!?\\n]{1,100}?\\b(exceeds?|exceeding|is (over|above|more than|greater than|higher than)|comes? (in )?(over|above|higher than)|(is|are) (found|discovered|uncovered|identified)|turns? up|shows? up|surfaces?)\\b[^.!?\\n]{0,80}?,? ${VOID_DECISION} ${VOID_BE} ${VOID_WORD}`;

/** Terms given before the decision is final, or an upper bound: a person picks (review reason tentative_terms). */
export const TENTATIVE: PhraseRow[] = [
  // (holdout32) the lender asks the broker first whether the merchant would take less, and offers only on the answer:
  // "Can the maple guy live with 30 instead of 55? If yes I can do 30k at 1.38" (the lender has not committed)
  { phrase: "(can|could|would|will) [a-z' ]{1,30} (live with|take|accept|settle for|be ok with|be okay with|be good with|work with|swallow) \\$?\\d[\\d,.]*k? (instead of|rather than|vs\\.?|versus|not) \\$?\\d[\\d,.]*k?\\?\\s*if (yes|so|they can|he can|she can|they will|that works)\\b", w: 4 },
  { phrase: 'waiting on (final )?(sign[- ]?off|approval|credit|committee)', w: 3 },
  // (review) a decision still to come: "Still waiting on final decision from committee", "Final decision still pending"
  { phrase: '(waiting|waiting on|awaiting) (a |the )?final (decision|word|answer)|final (decision|word|answer) (is )?(still )?(pending|outstanding|to come)', w: 3 },
  // (review) the amount the approval falls to on a condition: "if the October statement comes in under 40k the approval
  // adjusts down to $35,000" (a person weighs the condition; bounded spans, never a rescan)
  { phrase: '\\b(if|unless|should|in case|in the event)\\b[^.!?;\\n]{0,160}\\b(reduces?|drops?|falls?|goes down|comes down|steps? down|is cut|gets cut|be cut|be reduced|lowers?|be lowered|decreases?|be decreased|reverts?|adjusts? down|be adjusted)( back)? to \\$?\\d[\\d,]*k?|\\b(reduces?|drops?|falls?|goes down|comes down|steps? down|be cut|be reduced|be lowered|decreases?|be decreased|reverts?|adjusts? down|be adjusted)( back)? to \\$?\\d[\\d,.]*k?[^.!?;\\n]{0,80}\\b(if|unless|should)\\b', w: 2 },
  // (rfix32) an approval that turns into a decline on a condition: "If the lien is open, this becomes a decline", "otherwise it's a
  // decline", "if not, the approval reverts to a decline" (the condition is a person's to weigh before anything is recorded)
  { phrase: "\\b(if|unless|should|in case|in the event)\\b[^.!?;\\n]{0,120}\\b(this|it|that|the (approval|offer|deal|file))( approval| offer)? (becomes|will become|turns into|will turn into|reverts to|converts to|changes to|flips to|goes to) (an? )?(decline|denial|no|pass)\\b|\\b(otherwise|if not|failing that|or else),? (this|it|that|the (approval|offer|deal|file))( approval| offer)?('s| is| will be| becomes| turns into| reverts to| flips to| goes to) (an? )?(decline|declined|denial|hard no|no|pass)\\b", w: 3 },
  { phrase: "if (he|she|they|uw|credit) (doesn't|does not|don't) change", w: 2 },
  { phrase: 'should be \\$?\\d+k?', w: 1.5 },
  { phrase: 'approved (for )?up to', w: 2 },
  { phrase: '(offer|approve|do) up to(?! \\$?\\d+ ?(pts|points|%))', w: 2 },
  { phrase: 'your call|pick (one|a term|an option)', w: 1 },
  { phrase: "(might|may) be able to do something|i might be able|don't promise", w: 3 },
  { phrase: "(he'd|she'd|he would|she would|they'd|they would) look at", w: 2.5 },
  { phrase: 'no pricing yet', w: 2.5 },
  { phrase: 'pending (a |an |the |our )?(clean |satisfactory |successful |good |final )?(site inspection|inspection|site visit|final (review|approval|underwriting)|credit review|(credit )?committee)', w: 2.5 },
  // the same conditions in other words: "contingent on a clean site inspection", "conditional upon committee"
  { phrase: '(contingent|conditional|dependent) (up)?on (a |an |the |our )?(clean |clear |satisfactory |successful |good |passing )?(site inspection|inspection|site visit|appraisal|committee|credit committee|credit review|final (review|approval|underwriting)|(final )?qc|quality control)', w: 2.5 },
  // a check still to clear before the terms stand: "need the deal to clear our final QC review", "once it passes compliance"
  { phrase: '(clear|clears|pass|passes|get through|gets through|go through|goes through) (our |the )?(final )?(qc|quality control|compliance|audit|funding review|risk review|final review)', w: 2.5 },
  // run past a person inside the lender: "I still have to run it past my credit manager", "taking it to our VP"
  { phrase: "(run|ran|running|take|taking|bring|bringing|kick|kicking) (it|this|that|the (file|deal|numbers|terms)) (past|by|to|upstairs to|up to|over to) (my|our) (credit |risk |underwriting |funding |sales )?(manager|boss|director|supervisor|officer|head|lead|vp|cfo|ceo|coo|president|partners?|principal|owner)", w: 2.5 },
  // "tentatively 40k", "final approval is contingent on a clean MTD", "subject to committee sign-off"
  { phrase: '(waiting (for|on)|awaiting|pending|need|needs|until (we|i) get|once (we|i) get) (the |a )?green ?light|tentative(ly)?|final approval (is |will be )?(contingent|pending|subject|depends|once|after)|subject to (the |a )?(credit |loan )?committee|(could|can|might) do \\$?\\d+k? maybe', w: 3 },
  { phrase: 'final terms (after|to follow|once|tbd)', w: 2.5 },
  // (rfix9) terms the lender says may still change, or whose final figure is still to come: "numbers may move if the balance
  // is higher", "the amount could still go down", "pricing subject to change", "not final", "will confirm final tmrw", "UW
  // still confirming the payoff" (never a disclaimer's "subject to change without notice", nor the routine "not final until
  // funding documents are executed")
  { phrase: "(numbers|terms|pricing|price|amount|offer|rate|factor|figures?|structure|payment|approval)( [a-z'-]+){0,2} (may|might|could|can|will likely) (still )?(move|change|shift|go (up|down)|come (up|down)|drop|adjust|be (adjusted|revised|changed|reduced|lowered))\\b|subject to change(?! without notice)|\\b(not|isn't|aren't) (yet )?final\\b(?! until (the )?(funding|contracts?|closing|documents|docs|signing|execution|agreement))|(will|i'll|we'll|i will|we will) confirm (the )?(final|tmrw|tomorrow|tonight|in the (am|morning)|first thing)\\b|(still|currently) (confirming|verifying|checking|re-?checking) (the |their |his |her )?[a-z]+ (balance|payoff|position|numbers|figures)", w: 3 },
  { phrase: '(might|may) be able to (do|go|get)|ballpark|not an? (final )?approval( yet)?', w: 3 },
  { phrase: "(looks|is|looking|should be|would be|seems|sounds) approvable|can't lock (the|a|in the) rate|pre-?approved", w: 3 },
  // the decision still has to pass a committee or a final read: "has to go to credit committee", "don't quote the merchant yet"
  // (not the process a request is for: "need a merchant interview before this goes to committee", "before Seaside goes to
  // committee I need", the deal named by its business)
  // (holdout21) never a committee refused: "Magnolia can't go to committee" (a restricted industry) is a no, not a wait
  // (rfix25) ... the business's name running to six words ("before Albany Lark Street Dental Lab goes to committee I need")
  { phrase: "(?<!before (it|this|that|the (file|deal)|we|i|[a-z'&-]+( [a-z'&-]+){0,5}) )(?<!(can't|cant|cannot|can not|won't|wont|will not|couldn't|could not|doesn't|does not|don't|do not|never|not|no need to|isn't|is not) )(has|have|needs?|still has|still needs|going|goes|go) (to go )?(to|before|in front of|through) (the )?(credit |loan |risk )?committee|committee (meets|sits|tomorrow)", w: 3 },
  { phrase: "(don't|do not|please don't|hold off on|not yet) (quote|quoting|present|presenting|show|showing|promise|promising) (it |this |anything |the (merchant|client|owner|terms|numbers|offer) )?(to the (merchant|client|owner) )?(yet|until)?|not final yet|(i|we)'ll confirm (by|tomorrow|once|after|in the morning)", w: 3 },
  // (not after what it waits for: "once we have both I'll get this in front of UW" is a request, no terms held)
  { phrase: `(?<!\\b(once|when|after|as soon as|if|soon as) [^.!?\\n]{0,60})${TO_UNDERWRITING}`, w: 3 },
  // a decision not yet made by the person who makes it: "let me confirm with credit", "run it past my manager",
  // "until credit reviews", "haven't run it by UW", "written offer to follow once credit signs"
  { phrase: "(let me|i need to|i have to|i'll|i will|need to|have to|gotta) (confirm|check|double[- ]check|verify|run (it|this|that) (past|by)|clear (it|this) with) (it )?(with |w/ |by |past )?(credit|uw|underwriting|my manager|my boss|the committee|committee|the desk|management)|(run|ran|running) (it|this) (past|by) (my manager|my boss|credit|uw|underwriting|committee|the committee)|(haven't|have not|not yet|didn't) (run|ran|taken|shown) (it|this) (by|past|to)|(until|once|after|when) (credit|uw|underwriting|the underwriter|committee|my manager|my boss|management) (reviews|signs|signs off|approves|confirms|weighs in|looks|okays|ok's|blesses)|before (it's|it is|this is|that's|we're|anything is) final", w: 3 },
  // an internal sign-off still to come, whoever gives it: "needs our CFO's initials", "pending my manager's OK",
  // "waiting on the credit officer's signature", "our president still has to sign", "the owner has to bless it"
  { phrase: "(needs?|requires?|required|waiting (on|for)|awaiting|pending|subject to|until (i|we) (get|have)|(still )?(has|have|need) to (get|have)) ((the |our |my |a |his |her )?(final )?(cfo|ceo|coo|cro|cco|president|vp|svp|evp|managing partner|manager|boss|director|head of (credit|underwriting|risk)|chief (credit|risk) officer|credit (officer|manager|director|committee)|risk (team|officer|manager)|committee|senior underwriter|supervisor|management|upstairs)|(our|my) (owners?|principal|partners?))('s|s')? (final )?(initials|initial|signature|sign[- ]?off|ok|okay|blessing|approval|say|word|go[- ]ahead|stamp|thumbs up|review)", w: 3 },
  // (the owner or a principal only as "our"/"my": "the owner has to sign" is the merchant signing the contract)
  // (revM) ... also the lender's legal or compliance people: "Legal needs to sign off on the COJ language before the merchant signs"
  { phrase: "((our|my) (owner|principal|partner)|(?<!(merchant|client|owner|customer|their|his|her)('s)? )(our )?(legal|compliance)( team| department| dept)?|our (counsel|attorney|lawyer)|cfo|ceo|coo|cro|cco|president|managing partner|manager|boss|director|head of (credit|underwriting|risk)|chief (credit|risk|compliance) officer|credit (officer|manager|director)|senior underwriter|supervisor) (still )?(has to|needs to|must|will need to|has yet to|hasn't|has not) (initial|sign|sign off|approve|okay|ok|bless|review|look at|see)", w: 3 },
  // not to be given out as final yet: "don't send it to the merchant as final", "don't share the numbers with the client yet",
  // "until I confirm", "until you hear back from me"
  { phrase: "(don't|do not|please don't|hold off on|not yet|no) (send|sending|give|giving|pass|passing|forward|forwarding|share|sharing|release|releasing|relay|relaying)( it| this| that| these| anything| the (terms|numbers|offer|approval|deal))?( along| over| out)? (to|with) the (merchant|client|owner|customer)|until (i|we) (confirm|hear back|get (the|his|her|their) (ok|okay|sign[- ]?off|initials|signature))|until you hear (back )?from (me|us)", w: 3 },
  // an approval held provisionally until a recheck (holdout8): "pencil it in at the 15", "soft-hold the 40",
  // "before our morning scrub", "we re-pull positions the day of", "until the same-day refresh", "on hold pending the re-pull"
  { phrase: "pencil(ed|led|ing|ling|s)?( [a-z'&-]+){0,2} (in|down)\\b|penciled|pencilled|(soft|tentative)[- ]?(hold|holding|held)|(before|until|till|pending|after|subject to) (our |the |a |my |their )?(morning |same[- ]day |day[- ]of |next[- ]day |pre-?funding |funding[- ]day |final )?(scrub|re-?check|re-?pull|re-?verification|refresh\\w*( bank)?( pull)?|fresh (bank )?pull|final (bank )?pull|bank re-?pull)|(morning|same[- ]day|day[- ]of|pre-?funding|funding[- ]day) (scrub|re-?check|re-?pull|refresh)|(until|till|once|after|pending|before) (we|i|uw|underwriting|credit) (re-?verify|re-?check|re-?pull|re-?run|re-?scrub|scrub|refresh|re-?confirm)|re-?(pull|check|run|scrub)\\w* (the )?(positions|file|bank|statements|credit|ucc|uccs|it|everything)( again)? (the |on the )?(day of|morning of|before funding|on funding day|tomorrow morning|in the morning)|(hold off|wait|holding off) (on )?(telling|informing|notifying|letting|calling|updating) (the |your )?(merchant|client|owner|customer)|(don't|do not) (tell|inform|notify|call|update) (the |your )?(merchant|client|owner|customer) (anything )?(yet|until|just yet)", w: 3, hold: true },
  // (holdout18) a second person stopping terms already posted: "@Priya hold that", "nothing goes out until we know", "put the
  // file on hold"
  // (holdout42) ... "hold that." closing its clause at a stop (the row closing on a stop never matched: no word boundary after it)
  { phrase: "hold (that|this|it|the (offer|counter|approval|file|deal|terms))( one)?( for now| off| until| till| pending|(?=[.,!;:]|\\s*$))|(nothing|no money|no funds|no funding|no contract|no contracts) (goes|go|gets|get|is going|are going|can go) out (until|till|before|pending)|(put|putting|placed|place|keep|keeping|is|it's|file is|deal is) (it |this |that |the (file|deal|offer|counter|approval) )?on hold", w: 3, hold: true },
  // (holdout13) an approval the lender cannot release yet: "I can't release terms to the merchant until it comes back clear",
  // "keep this between us for now" (a lien search or compliance check still open), "give me till tmrw before you show the
  // merchant anything" (the lender still working the number)
  { phrase: "(can't|cannot|can not|couldn't|won't|will not|not able to|unable to) (release|send|give|share|pass along|issue|quote) (the |these |those |any |our )?(terms|numbers|offer|approval|pricing|contracts?)( (to|with) (the |your )?(merchant|client|owner|customer))? (until|till|before|pending|yet)|keep (this|it|that) between us|(give me|wait) (till|until|til|to) [a-z]+ (before|until) you (show|send|give|tell|quote|present|pitch) (the |your )?(merchant|client|owner|customer)", w: 3, hold: true },
  // (holdout11) a check before the money goes out still to happen, and the merchant not to be told it is committed:
  // "ops does an on-site visit before we release funds, and that hasn't been scheduled yet", "please don't tell the operator
  // the money is committed"
  { phrase: "(site|on-?site|field|physical) (visit|inspection|walk-?through)s? (before|prior to) (we |they |ops )?(release|releasing|fund|funding|wire|wiring|disburse|disbursing)|(hasn't|has not|haven't|have not) been (scheduled|booked|completed|done) yet|(don't|do not|please don't|can't|cannot) (tell|promise|inform|let|assure) (the |your )?[a-z]+( [a-z]+)? (that )?(the )?(money|funds|funding|deal|approval|advance)( is| are)? (committed|final|locked|guaranteed|a done deal|coming|happening)", w: 3, hold: true },
  // soft words for a decision: "approved in principle", "verbal approval", "I think we can get there", "don't hold me to it"
  // (rfix24) never the file only read so far: "W&T has reviewed it on a preliminary basis only" (a request follows, nothing decided)
  { phrase: "in principle|verbal(ly)? (approval|approved|ok|yes)|soft (approval|yes|ok)|(?<!(than|from|replaces|replacing|supersedes|over|unlike|below|under) (my|our|the|that|your|his|her) )(?<!(reviewed|looked at|looked over|screened|read|considered)( it| this| that| the (file|submission|deal|application))? (on|at) a )(preliminary|prelim)(?! (below|that i sent|i sent|from (last|earlier|before)))|indicative (terms|pricing|offer)|(i think|i believe|pretty sure|probably|likely|hopefully) (we|i) (can|could|should) (get there|do|make (it|this) work|approve|fund|go)|don't hold me to|no promises|(can't|cannot|won't) promise|not promising|don't quote me|should be (good|ok|okay|fine) (for|at|on|with)|final (after|once|when|pending) ", w: 3 },
  // a hedged yes (after holdout11): "we're probably good for 50 at 1.35", "we'd likely be a yes at 40"
  { phrase: "(we're|we are|we'd be|we would be|i'm|i am|i'd be|credit's|credit is|uw is) (probably|likely|most likely|maybe|prob|possibly) (good|ok|okay|fine|a yes|able to (do|go|fund|approve)) (for|at|with|on|to)", w: 3 },
  // the approval hangs on how the merchant does: "approved at 40 if they can show me a clean October"
  // (holdout30) not a later deal floated on it: "if they bring in Nov and it recovers I can revisit an add-on at 50% paid in"
  // (rfix30) nor one named before it: "revisit an add-on in April if the merchant performs"
  { phrase: "(?<!\\b(add-?on|top-?up|re-?up|renewal|upsell|second position|2nd position)\\b[^.!?\\n]{0,80})if (they|he|she|the merchant|the client|the owner|the business) (can )?(show|shows|prove|proves|keep|keeps|hold|holds|clean up|cleans up|bring|brings|stay|stays|perform|performs)(?![^.!?\\n]{0,100}\\b(add-?on|top-?up|re-?up|renewal|upsell|second position|2nd position)\\b)", w: 2.5 },
  // the approval hangs on an item still to come: "if the MTD is clean", "assuming October holds up", "once bank verification checks out"
  { phrase: "(if|assuming|provided|as long as|so long as|once|pending) (that )?(the |their |his |her )?(those|these|they|mtd|statements?|(september|october|november|december|january|february)( statement| deposits)?|bank verification|verification|bv|deposits|numbers|it|everything)(('s| is| are| looks?| comes? back| stays?) (clean|good|ok|okay|fine|positive|strong|consistent|as expected)|( checks?| checked) out|( holds?| held) up)", w: 2.5 },
  // (revF) also "on the condition that", a credit pull ("provided the FICO comes back over 600"), the merchant's actuals, a
  // review of tax returns or financials, a bare "clear background", "another advance", "no tax liens", litigation or bankruptcy
  // (rcond) the offer itself put under a condition on the deal's merit that nobody has seen met yet, whatever the subject or
  // the condition word; routine closing steps (signed contract, bank verification, a funding call, a landlord letter, a lien
  // paid off before funding) are not such a condition and stay applied.
  // ... how statements or the business still to come will look: "if the new statements show no further NSFs we can do 40k",
  // "assuming the October statement comes in at similar volume we'd go 50k", "provided deposits stay above 60k a month"
  // (never the bare arrival of an item, "once the MTD comes in I'll send contracts", nor a later add-on floated on it)
  { phrase: "(if|assuming|provided|providing|as long as|so long as|on (the )?condition|contingent (up)?on|conditional (up)?on|dependent (up)?on|depending on|subject to|(this|that|it|the (offer|approval|number|amount|terms|pricing)) (assumes|hinges on|depends on|is predicated on)) (that )?([a-z'-]+ ){0,3}?(statements?|stmts?|deposits|volume|revenue|sales|balances?|adb|numbers|actuals|fico|credit( score| report| pull)?|beacon|mtd|month[- ]to[- ]date|cash ?flow|bank activity|activity|performance|nsfs?|negative days|(january|february|march|april|june|july|august|september|october|november|december))( [a-z'-]+){0,2}? (shows?|showing|comes? in|coming in|comes? back|stays?|holds?( up)?|looks?|remains?|continues?|reflects?|is|are|matches|supports?|confirms?|keeps?)\\b[^.!?;\\n]{0,40}?\\b(no|not|nothing|clean|similar|same|consistent|comparable|in line|steady|stable|strong|stronger|at least|above|over|under|below|around|about|fewer|less|more|improv\\w*|flat|good|ok|okay|positive|healthy|north of|south of|like|higher|lower|better|worse|current|present|\\$?\\d)\\b(?![^.!?\\n]{0,100}\\b(add-?on|top-?up|re-?up|renewal|upsell|upsize|bump|increase|revisit|second position|2nd position|look at (more|going|\\$?\\d))\\b)", w: 2.5 },
  // ... what an inspection, a site visit or an appraisal still to come finds: "subject to a clean site inspection, approved for
  // $60,000", "if the site visit checks out", "upon a satisfactory field exam"
  { phrase: "(subject to|contingent (up)?on|conditional (up)?on|dependent (up)?on|depending on|pending|assuming|provided|providing|if|upon|once) (the |a |an |our |their |his |her )?(clean |clear |satisfactory |successful |good |passing |favou?rable |acceptable |positive |completed? |final )?(site inspection|site visit|on-?site (visit|inspection)|inspection|field (exam|visit|inspection|audit)|physical inspection|walk-?through|appraisal|collateral (exam|review|inspection)|background( (check|search|report|pull)s?)?|(lien|ucc|judgment|title|criminal) (check|search|report|pull)s?|(review|analysis|look) (of|at) (the |their |his |her )?([a-z0-9'-]+ ){0,3}(statements?|tax returns?|financials|financial statements|p ?& ?l|mtd|month[- ]to[- ]date|deposits|bank activity))", w: 2.5 },
  // ... a fact about the merchant the lender has not verified: "if the merchant really has no other positions", "assuming
  // there are no undisclosed advances", "provided he doesn't have any other debt" (never the merchant's own choice or a
  // closing step: "if he actually wants it", "if they actually sign")
  { phrase: "(if|assuming|provided|providing|as long as|so long as) (that )?((the )?[a-z'&-]+( [a-z'&-]+)? (really|truly|actually|genuinely|in fact|indeed) (?!(want|wants|wanted|need|needs|like|likes|intend|intends|sign|signs|signed|accept|accepts|take|takes|return|returns|send|sends|proceed|proceeds|go|goes|move|moves|close|closes|fund|funds)\\b)[a-z]+|((the (merchant|owner|client|business|guarantor|borrower|customer)|they|he|she|it)( really| truly| actually| in fact)? (has|have|had|carries|carry|owes?|took|takes|has taken|have taken|hasn't taken|haven't taken|doesn't have|does not have|don't have|do not have|(is|isn't|is not|are|aren't|are not) (in|under|facing)) (any |no )?|there( is| are|'s| were| was) (truly |really |actually |in fact )?(no|not any|nothing) |no |nothing )(other|another|else|additional|undisclosed|hidden|new|further|more|outside|open|unreported|existing|current|prior|active|pending|ongoing|(?<=\\bno )[a-z'-]+)( [a-z'-]+){0,2}? (litigation|lawsuits?|bankruptc(y|ies)|collections|positions?|advances?|mcas?|funders?|liens?|loans?|debts?|judgments?|stacks?|nsfs?|overdrafts?|negative days|on (the |his |her |their )?(background|credit|report|search|pull|ucc)))", w: 2.5 },
  // ... or a story the merchant told that nobody has checked yet: "provided the Kapitus balance is what the merchant says", "terms
  // hold if the merchant's story on the NSFs checks out" (never a routine verification: "if the bank verification checks out"
  // is read by the rows above, a signed contract, an ID or a funding call is no fact about the deal)
  { phrase: "(if|assuming|provided|providing|as long as|so long as) (?![^.!?\\n]{0,60}\\b(bank verif\\w*|verification call|bv|contracts?|signatures?|id|licen[cs]e|voided check|funding call|landlord|docusign)\\b)[^.!?\\n]{0,60}?\\b((is|are|was|were|matches|match) (what|as) (the (merchant|owner|client|guarantor)|they|he|she)( [a-z]+)? (says?|said|stated?|claims?|claimed|reported|told (us|you|me)|represented|disclosed)|(checks?|checked) out|pans? out|(is|are) (true|accurate|correct)|as (stated|represented|disclosed|reported) by)\\b", w: 2.5 },
  // (holdout24) terms that change on what a document still to come shows: a fallback amount on a condition ("if October
  // comes in under that, this comes back down to $30,000", "we drop to 30 if the MTD is light", "should the bank
  // verification come back short, the number goes down to 25k") or the price to be redone ("and I will re-price it",
  // "pricing may change once we see November"): the approval is not final, a person decides
  { phrase: "(if|should|unless|in case|in the event)\\b[^.!?\\n]{0,80}?,? (this|it|that|the (offer|approval|amount|number|advance|deal|funding)|we|i|uw|credit)( will| would|'ll|'d| may| might| could)?( have to| need to)?( be| get| gets)? (comes? (back )?down|drops?|dropped|go(es)? (back )?down|falls?|steps? down|cuts?|reduced?|reduces|lower(s|ed)?|knock(s|ed)?( it| this)? down|scales?( it| this)? back|scaled back|brings?( it| this)? (back )?down)( it| this| that)?( back)?( down)? to \\$?\\d[\\d,]*k?|(comes? (back )?down|drops?|go(es)? (back )?down|falls?|steps? down|cuts?|reduced?|reduces|lower(s|ed)?|knock(s|ed)?( it| this)? down|scales?( it| this)? back|brings?( it| this)? (back )?down)( it| this| that)?( back)?( down)? to \\$?\\d[\\d,.]*\\s?k?( [a-z]+){0,2} (if|should|unless|in case|in the event)\\b", w: 3 },
  // (holdout42) ... "the approved amount will be reduced" (if the payoff exceeds $9,000); (rfix7) ... the amount named by its
  // product: "the loan amount will be reduced accordingly" (if the collateral appraises light)
  { phrase: "(i|we|uw|credit)( will|'ll|'d| would| may| might| could)?( have to| need to)? re-?price|subject to re-?pric\\w+|(pricing|terms|the (approved |offered |funded |final |advance |loan |purchase |funding |credit )?(offer|amount|factor|rate|number|approval)) (may|might|could|would|will) (change|be (adjusted|revised|reduced|lowered|cut|redone))", w: 3 },
  // (holdout26) an approval that falls if a condition fails, not a routine closing stip: "only if the payoff letter shows
  // the balance under 5k", "if the lien is bigger than they said, this is off the table", "the offer is void if", "or we walk",
  // "contingent on the lien being under 10k" (while "subject to final verification / signed contracts / standard stips" stays applied)
  { phrase: "only if (the |their |his |her |a |an |our |your )?[a-z'-]+( [a-z'-]+){0,3} (shows?|showing|comes? back|confirms?|verif(y|ies)) (the |a |an |that |it |they |their )?[a-z'$\\d,.-]*( [a-z'$\\d,.-]+){0,4}? ?(under|below|less than|over|above|at least|no more than|paid|clean|clear|satisfied|released)|\\bif\\b[^.!?\\n]{0,80}?\\b(bigger|larger|higher|greater|more|worse|smaller|lower|less|over|above|under|below) than\\b[^.!?\\n]{0,60}?(off the table|null and void|void|voided|dead|withdrawn|rescinded|(we|i)( will|'ll| would|'d)? walk)|(contingent|conditional|dependent) (up)?on (the |their |his |her )?[a-z'-]+( [a-z'-]+){0,2} (being|coming in|coming back|showing|staying) (under|below|less than|over|above|at least|no more than)", w: 3 },
  // (holdout30) the approval forwarded while it is being re-run, not to be shown yet: "don't send these numbers to the doctor
  // yet", "she's re-running it with the new debt service" (whoever the merchant is called)
  { phrase: "(don't|do not|please don't|hold off on|no) (send|sending|give|giving|pass|passing|forward|forwarding|share|sharing|release|releasing|present|presenting|show|showing|quote|quoting)( (these|those|the|any|our) (terms|numbers|offer|approval|pricing|figures))( along| over| out)? (to|with) (the |your )?[a-z]+( [a-z]+)? (yet|just yet|until)|(is|'s|are|am|'m|'re) (re-?running|re-?pricing|re-?underwriting|re-?reviewing|redoing) (it|this|that|the (file|deal|numbers|approval|offer))", w: 3, hold: true },
  // (rfix30) the closing desk stopping papers already drawn while the file is looked at again: "please do NOT have the merchant
  // sign yet", "don't execute the agreement until you hear from me", "underwriting has asked to re-review the file", "credit
  // wants to re-underwrite it", "I will confirm whether the agreement stands or will be withdrawn" (never a deadline or a
  // routine step: "have the merchant sign by Friday", "once signed we re-verify the bank")
  { phrase: "(don't|do not|please don't|hold off on|not yet|no need to) (have|let|get|ask) (the |your )?(merchant|client|owner|customer|guarantor|borrower) (to )?(sign|signing|execute|executing|e-?sign|docusign)\\b(?! (by|before|within|today|tonight|asap)\\b)|(don't|do not|please don't) (sign|execute|countersign|release) (it |this |them |the (agreement|agreements|contract|contracts|docs|documents|papers|package|envelope) )?(yet|just yet|for now|until)\\b|(asked|asks|wants?|wanted|needs?|needed|is going|are going|decided|has|have|will need) to re-?(review|underwrite|examine|evaluate|assess|look at|run|open) (it|this|that|the (file|deal|approval|offer|submission|application|credit))|(agreement|approval|offer|contract|deal|terms) (stands|holds|will stand|will hold|goes forward|will go forward|proceeds) or (will be |is |gets |get )?(withdrawn|pulled|rescinded|revoked|cancell?ed)", w: 3, hold: true },
  // (revM) ... held in other words: "please disregard the agreement above for now", "make sure the merchant refrains from
  // signing", "the merchant should not sign until", "credit is reconsidering the factor", "the file is going through a second
  // review", "approval on hold" (a gloss: "承認 (approved) は保留 (on hold)", "서명 (signature) 보류 (hold)"), "stand by before you send these out for signature",
  // "sit tight on these", "do not collect signatures at this time", "don't send the DocuSign to the merchant yet", "this approval
  // may be withdrawn", "we are freezing this file ... no signatures please", "these papers are superseded; new ones to follow", a minutes' action item "Ana: confirm with CCO before sending to ISO" (never a past review: "approved after a second look"; nor a deadline: "send the signed agreement back by")
  { phrase: "(disregard|ignore|hold off on|do not use|don't use) (the |this |that |these |those |our )?(agreement|contract|docs|documents|papers|package|envelope|paperwork)s?( (above|attached|below|i sent|we sent))?( for now| until| pending| just yet)|refrains? from (signing|executing|e-?signing)|(merchant|client|owner|customer|guarantor) (should not|shouldn't|must not|mustn't|shall not|is not to|isn't to) (sign|execute|e-?sign)\\b( (it|this|anything|the (agreement|contract|docs|documents)))? (yet|until|for now)|(credit|underwriting|uw|risk|the committee|committee|management) (is|are|'s|has been|have been) (now )?(reconsidering|revisiting|re-?examining|re-?evaluating|re-?assessing|second-?guessing|taking (another|a second|a fresh|a closer) look at)\\b|(going through|undergoing|under|pending|awaiting) (a |the )?(second|another|further|fresh|re-?)[- ]?(review|look|underwrit\\w*)\\b|(approved|approval|offer|funding|closing|contracts?|agreement|deal|file|signatures?|signing) (is |are )?(currently |now |temporarily )?(on hold|paused)\\b|(signatures?|signing|closing|funding) hold\\b|\\b(freezing|froze|frozen|freeze) (this |the |that )?(file|deal|approval|offer|funding|closing)\\b|\\bno (signatures?|signing)( please| yet| for now| at this time)?(?=\\s*[.!,;]|\\s*$)|\\b(these|those|the above|the attached|this|that) (papers|docs|documents|agreements?|contracts?|package) (are |is )?(superseded|void|voided|no longer valid)\\b(?! by (this|these|the (new|attached|enclosed|revised)))|\\bapproved\\s*(->|=>|\u2192|[-\u2013\u2014]+>)\\s*(on hold|hold|pending|suspended|under review|in review|re-?review)\\b|(confirm|check|clear|verify|run) (it |this |them |the (terms|numbers|offer|approval) )?(with|w/|by|past) (the |our )?(cco|cfo|ceo|coo|cro|president|chief (credit|risk) officer|head of (credit|underwriting|risk)|credit (officer|manager|director|committee)|senior underwriter|managing partner) (before|prior to) (sending|releasing|quoting|issuing|it goes|they go|anything goes)|(stand by|sit tight|hang tight|hold tight) (on (these|this|it|them|the (agreement|contract|docs|documents|papers|package|envelope|deal|file))|before (you )?(send|sending|having|getting|letting|sign|signing)|until (i|we|you) )|(do not|don't|please don't|please do not) (collect|obtain|gather|request) (the |any )?(merchant's )?(e-?)?signatures?( (at this time|yet|for now|just yet|until))|(do not|don't|please don't|please do not|hold off on) (send|sending|release|releasing|forward|forwarding) (the |this |that |these |our )?(docusign|envelope|agreement|contract|docs|documents|papers|package|paperwork)s? (to (the |your )?(merchant|client|owner|customer) )?(yet|just yet|for now|until|at this time)\\b|(approval|offer|deal|terms|agreement|funding) (may|might|could) (still )?(be|get) (withdrawn|pulled|rescinded|revoked|cancell?ed)\\b", w: 3, hold: true },
  // (revM) an internal sign-off still to come, named after it: "final sign-off from the CCO still needed", "approval from
  // credit committee pending"; the decision awaited: "pending approval", "awaiting final approval" (a gloss: "승인 대기
  // (pending approval)"), "pre-approval only" (never the merchant's approval of the terms)
  { phrase: "(final )?(sign[- ]?off|approval|ok|okay|blessing|signature|initials) (from|by) (the |our |my )?(cco|cfo|ceo|coo|cro|president|vp|svp|evp|managing partner|manager|boss|director|head of (credit|underwriting|risk)|chief (credit|risk) officer|credit( (officer|manager|director|committee))?|committee|senior underwriter|supervisor|management)( is)? (still )?(needed|required|pending|outstanding|to come|to follow)\\b|(pending|awaiting|waiting (on|for)) (final |credit |underwriting |uw |committee |management |internal )?approval\\b(?! (of|from|by)\\b[^.!?\\n]{0,30}\\b(merchant|client|owner|customer|guarantor)\\b)|pre-?approval", w: 3 },
  // (holdout31) an offer that falls on a question still open, not a closing stip: "if it is a loan we are in 2nd and this offer
  // does not stand", "should that wire be an MCA the approval won't hold", "the terms no longer apply if ..."
  { phrase: "(this|the|that|our|my|these|those) (offer|approval|number|numbers|terms|counter|deal|pricing)s? (does not|doesn't|do not|don't|would not|wouldn't|will not|won't|no longer|might not|may not) (stand|stands|hold|holds|apply|applies|work|stay)", w: 3 },
  // (rfix19) an approval that is off if the merchant cannot meet a condition to fund: "pay off the tax lien before we fund; if
  // they can't, the approval is off", "otherwise the deal is dead" (never a deadline to sign: "if they don't sign within 5 days")
  // (revA) ... nor one to accept ("if they don't accept by Friday, the offer is off", "offer good through Friday, otherwise the
  // offer is void"): an offer's expiry, routine
  { phrase: "(?:\\bif (?:they|he|she|the (?:merchant|owner|client)|it|that) (?:can't|cannot|can not|won't|will not|doesn't|does not|don't|do not|isn't|is not|aren't|are not|fails? to|is unable to|are unable to)(?![^.!?\\n]{0,40}\\b(?:sign|signs|signed|return|returned|accept|accepts|accepted|days?|hours?|weeks?|deadline|expir\\w*|eod|cob|eow|tomorrow|tonight|monday|tuesday|wednesday|thursday|friday|saturday|sunday|month-end|\\d{1,2}\\/\\d{1,2})\\b)[^.!?\\n]{0,40}?|\\bif not|(?<!\\b(?:good|valid|open|available|honou?red|stands?)[ \\t]+(?:through|thru|until|till|for)\\b[^.!?\\n]{0,30})\\botherwise|\\bfailing that|\\bor else),? (?:the|this|our|that|my) (?:approval|offer|deal|terms|funding)(?: (?:is|are|will be|would be|goes|gets)|'s)? (?:off(?! to)|off the table|void|null and void|dead|gone|no good|cancel+ed)\\b", w: 3 },
  // (rfix11) an approval void unless something nobody has seen yet exists or is produced, not a check of what is on file: "If no
  // agreement is in place, this approval is void", "the offer is null and void unless the merchant provides an installment
  // agreement", "without a payoff letter, this approval is off the table" (never a verification coming back different, "if
  // the pull doesn't match, the approval is void", nor a deadline: "void if no signed contract is returned within 7 days")
  { phrase: VOID_UNLESS_FACT, w: 3 },
  // (holdout30) a decision taken back in the same message, before anyone is told: "actually hold on", "wait, scratch that",
  // "actually let me ask my manager if ...", "on second thought"
  { phrase: "(actually|wait|hmm|oh|ok|okay)[,.!]* (hold on|hold up|scratch that|disregard( that| the above)?|ignore (that|the above)|let me (ask|check with|run it by|talk to|double[- ]check with) (my |our |the )?(manager|boss|credit|uw|underwriting|committee|partner|team|director|supervisor))|on second thought|scratch that", w: 3, hold: true },
  // (rfix23) the decider says the answer may still change: asking someone above about it ("let me ask my manager if he will make
  // an exception", "I'll check with credit whether they'd bend", "déjame preguntarle a mi gerente"), seeing what can be done, the
  // decision not the last word; never done asking ("I asked my manager and it's still a no"), an errand ("let me ask my manager
  // to send the contracts"), a next file ("we'll see what we can do on your next one"), what follows items asked for ("send the
  // payoff letters, then I'll see what we can do" is a request)
  { phrase: "(let me|lemme|i'?ll|i will|i'?m going to|i am going to|gonna|i can|i could|we'?ll|we will) (ask|check with|talk to|speak (to|with)|run it by|go back to|push|take it (up )?(to|with)) (my|our|the) (credit |underwriting |risk |sales )?(manager|boss|supervisor|director|vp|head of credit|committee|credit committee|team lead|lead|partners?|owner|credit|uw|underwriting)(,)? (if|whether|about (an? )?(exception|second look|override|different answer)|for (an? )?(exception|second look|override))\\b|(?<!\\b(then|once|when|after|if|as soon as|with (that|those|these|them|it))\\b[^.!?\\n]{0,80})(let me|i'?ll|we'?ll|i will|we will|let us) (see|find out) (what|if) (i|we|he|she|they|my manager|my boss|credit|uw) (can|could) do\\b(?! (on|with|for) (your|the|a) (next|future|other|another))|(see|ask|asking|find out) (if|whether) (he|she|they|my manager|my boss|credit|uw|underwriting|the committee)( will| would| can| could| might)? (make|grant|allow|give|sign off on) (an? )?(exception|override)|(d[eé]jame|voy a|le voy a|les voy a) (preguntar(le|les)?|consultar(lo|le)?) (a|con) (mi|el|la|mis) (gerente|jefe|jefa|supervisor|supervisora|director|directora|comit[eé])|(the|this|my|our) (decision|decline|answer|no) (may|might|could) (still )?(change|be reversed|be revisited|flip)|(not|isn't|is not) (the|our|my) final (word|answer|decision)", w: 3 },
  { phrase: "(qualif\\w*|eligible|good) (for )?up to", w: 2 },
  // a floated number without pricing: "probably around 35", "could maybe squeeze 50", "no numbers yet", "before I price it"
  // a floated figure, not yet terms (holdout9): a range of amounts ("25-30k", "between 40 and 50k"), a factor named by
  // its decade ("mid 1.3s", "low 1.4's"), a hunch ("feels like a 30k deal", "my gut says", "off the top of my head"),
  // "firm it up" / "firm up the numbers" however the contraction is typed ("ill firm it up"); (holdout42) "cannot firm anything up"
  { phrase: "(like|around|about|approx\\w*|somewhere|probably|could do|can do|do|go|land|in the) (a |an |the )?\\$?\\d{1,3}(\\.\\d)?\\s?k?\\s?(-|\u2013|to)\\s?\\$?\\d{1,3}(\\.\\d)?\\s?k\\b|\\$?\\d{1,3}(\\.\\d)?\\s?k?\\s?(-|\u2013|to)\\s?\\$?\\d{1,3}(\\.\\d)?\\s?k (deal|range|advance|approval|offer|area|neighborhood)|between \\$?\\d{1,3}k? and \\$?\\d{1,3}k\\b|(low|mid|high|upper|lower)[- ]?(to[- ](low|mid|high|upper)[- ]?)?[12]\\.\\d\\d?'?s\\b|(feels|smells|sounds|looks) like (a|an) \\$?\\d|(my )?gut (says|tells|feeling|feel)|off the top of my head|back of the (envelope|napkin)|firm (it|this|that|them|things|anything|something|the (numbers|terms|offer|pricing|deal)) up|firm up (the )?(numbers|terms|offer|pricing|deal)", w: 3 },
  // (holdout24) a range of bare amounts where the deal may land: "could land somewhere in the 60-75 range", "should come in
  // around the 40 to 50 area" (a verb of landing first: "credit is in the 600-650 range" is a score)
  { phrase: "(land|lands|landing|come in|comes in|coming in|come out|comes out|end up|ends up|get you|get (it|this|him|her|them)|do|go|approve|fund|offer|somewhere|probably|likely|maybe)( somewhere)? (in|around) the \\$?\\d{1,3}\\s?(-|\u2013|to)\\s?\\$?\\d{1,3} (range|area|neighborhood|neighbourhood|ballpark)", w: 3 },
  // (holdout25) the same range from one end to the other: "could land anywhere from 50 to the full 85 depending on
  // concentration", "we'd end up somewhere between 40 and all 60", "probably anywhere from $30k up to 45"
  { phrase: "(land|lands|landing|come in|comes in|coming in|come out|comes out|end up|ends up|get you|get (it|this|him|her|them)|do|go|approve|fund|offer|be|somewhere|probably|likely|maybe) (anywhere|somewhere) (from|between) (the |a )?\\$?\\d{1,3}(\\.\\d)?\\s?k?( on the low end)? (to|and|up to|through|-|–) (the full |the whole |all |all of |the )?\\$?\\d{1,3}(\\.\\d)?\\s?k?\\b(?!,\\d| ?(days|weeks|months|years|mos|payments|%|percent|points|positions|fico|score))", w: 3 },
  // (holdout27) a range of bare amounts the deal will land in, with no unit after it: "probably lands around 25-30, not the
  // 40", "likely ends up near 50 to 60", "should come in between 35 and 45" (never "funds land in 2-3 days", "holdback
  // comes in around 10-12%")
  { phrase: "(lands?|landing|ends? up|ending up|comes? in|coming in|comes? out|coming out|shakes? out|shaking out|works? out)( somewhere)? (around|about|near|at|close to|roughly|in|between)( the)? \\$?\\d{1,3}\\s?k?\\s?(-|\u2013|to|and)\\s?\\$?\\d{1,3}\\s?k?(?![\\d.,]*\\d| ?%| ?\\/| ?(a|an|per|each|every) | ?(percent|days?|weeks?|wks?|months?|mos?|years?|yrs?|payments?|pmts?|points?|pts?|positions?|nsfs?|negs?|fico|score|business|am|pm)\\b)", w: 3 },
  { phrase: "(prob|probably|likely|maybe|roughly|somewhere) (somewhere )?(around|about|in the|near)|(could|can|might|may) maybe|maybe (squeeze|do|get|go|stretch|find)|no (numbers|terms|rate|factor) yet|before (i|we) (price|quote|structure) (it|this|anything)?|(i'll|we'll|i will|we will) (lock (it|that|this) in|firm (it|that|this|them) up)|(might|may) (squeeze|stretch|swing|do|go|get|find)|(could|can) (possibly|probably) (do|go|get|squeeze|stretch)", w: 2.5 },
  // (holdout35) a no still hedged ("prob a pass on it", "likely a decline", "leaning toward a no"): the lender has not said
  // it yet; a decline with it goes to a person (tentative_terms)
  { phrase: "(prob|probs|prolly|probably|most likely|likely|leaning( toward| towards)?) (a |an )?(pass|no|decline|no-go|no go|hard no)", w: 3 },
  // (rfix15) a yes passed on for the one who decides, hedged in his place: "he'd probably do 30 at 1.40", "she would likely
  // approve the 40", "the boss would maybe go 25" (an office relaying what the funder might do, not the funder's offer)
  { phrase: "(he'?d|she'?d|they'?d|he would|she would|they would|(the |my |our )?(boss|owner|underwriter|uw|credit|committee|funder|manager) would) (probably|prob|prolly|likely|most likely|maybe|possibly) (do|go|approve|fund|offer|be (good|ok|okay|fine|a yes)( (with|at|on|for))?)(?= (the |a |an )?(full |whole )?\\$?\\d)", w: 3 },
  // (rfix15) ... and the decider still to speak to the broker before the merchant hears anything: "he wants to talk to you
  // first", "before anybody says anything to the merchant"
  // (revz) ... never a call about the funding itself ("our closer needs to speak with you before funding to go over the payoff"),
  // nor a date kept from the merchant until a stip is in ("get me the login before you quote the merchant a funding date")
  // (rfix20) the people who decide not agreed among themselves yet, their figures passed on side by side: "they don't agree
  // with each other yet", "UW is split on the amount", "I'll confirm which one sticks" (a person waits for the one that holds)
  { phrase: "(don't|do not|doesn't|does not|didn't|did not|haven't|have not|can't|cannot|couldn't|could not) (yet )?(agree|see eye to eye)( yet)? (with each other|with one another|among themselves|between themselves|on (the |a )?(amount|number|figure|terms|pricing|structure|factor))|(disagree|disagreeing|disagreement)( with each other| among themselves| between them)? (on|about|over) (the |a )?(amount|number|figure|terms|pricing|structure|factor)|(is|are|'s|'re) (split|divided) (on|about|over) (it|this|the (amount|number|figure|terms|pricing|deal|file))|(which|whichever) (one|number|figure|amount|offer|version) (sticks|holds|wins|stands|they (land|settle) on|they go with)", w: 3 },
  { phrase: "(wants?|would like|'d like|needs?) to (talk|speak|chat) (to|with) you (first|before(?! (funding|we fund|closing|contracts?|docs|the (contracts?|docs|funding|wire))\\b))|before (anybody|anyone|you|we|i) (says?|tells?|mentions?|quotes?|promises?) (anything |it |this )?(to )?(the |your )?(merchant|client|owner|customer)(?! (a|any|the) (funding |closing |start )?(date|time|timeline|eta)\\b)", w: 3, hold: true },
];

/**
 * (holdout18) A reconsideration that waits on what the merchant shows later ("if the owner can show November is clean",
 * "once they clean up the negs"): beside a decline given with its reason, a number floated on it does not make a counter.
 */
export const SHOWN_LATER =
  "(if|once|when|after) (they|he|she|the (merchant|client|owner|business|customer)) (can |could |is able to )?(show|shows|prove|proves|clean up|cleans up|bring|brings|get|gets) [^.!?\\n]{0,40}(clean|down|up|current|positive|better|paid)";

/**
 * (rfix11) Terms the lender says it has not sent, held back until something is sent or explained: "was about to send the
 * approval ... then saw a wire", "I was going to approve it at 70", "holding til then", "before I do anything". Beside priced
 * terms with no approval in words and a request for items, the request is the answer (decide.ts), for a person.
 */
export const HELD_BACK = [
  "(was|were|had been) (just |all )?(about to|going to|gonna|ready to|set to|fixing to|getting ready to) (send|issue|release|post|approve|fund|sign off|green ?light|give|email|push)",
  "holding (it |this |that |the (file|deal|approval|offer|terms) )?(off )?(til|till|until|pending) (then|that|those|i (hear|know|get|see|have)|we (hear|know|get|see|have))",
  "before (i|we) (do|send|release|issue|approve) anything",
];

/** A correction of terms sent earlier: which terms stand is for a person (review reason conflicting_cues). */
export const CORRECTION: PhraseRow[] = [
  { phrase: 'correction (on|to|for)|correction(?= ?[:\u2013\u2014-])|corrected (terms|offer|factor|rate|amount)|(i|we) (mis)?typed|(my )?typo (on|in)|should have (said|read)|make (that|it) (\\$?\\d[\\d,.]*k?|a \\$?\\d[\\d,.]*k?|an? (one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|\\d+)[- ](month|week|day))|my (mistake|bad)|scratch that|disregard (my|the|that) (last|previous|earlier|prior)|(revised|updated) (terms|offer|pricing|numbers) (on|for|below|attached)', w: 3 },
  // (revL) ... said other ways: "sorry, that should be $45,000", "amount should read ...", "Edit: $45,000 not $60,000" (a figure
  // after it), "fat-fingered it", "sorry, typo above", "disregard the amount above", "ignore the 60", "make that forty-five
  // thousand", "Actually, UW came back at $45,000 instead" (after an amount already given, an amount of thousands in its sentence,
  // never a payment's "$450"); "make it a great day" is a sign-off, "make it a 10 month term" a term
  { phrase: "(that|this|it)( one| number| figure| amount)? should (read|have been|say) (\\$?\\d[\\d,.]*k?|[a-z]+(-[a-z]+)? (thousand|grand))|(that|this|it)( one| number| figure| amount)? should be \\$?\\d[\\d,.]*k?(,? not|,? instead)|(?<=(sorry|apologies|apologize|oops|whoops)[^.!?\\n]{0,30})(that|this|it)( one| number| figure| amount)? should be|(amount|number|figure|factor|rate|term|payback) should (read|have read|have been|have said)|(?<=(?:^|\\n)[ \\t*]*)edit(ed)?(?= ?[:\u2013\u2014-][^\\n]{0,40}\\d)|fat[- ]?finger(ed|s)?|(sorry,? )?typo (above|earlier|below)|sorry,? typo|(disregard|ignore) (the|that|my) (amount|number|figure|factor|rate|pricing)|(disregard|ignore) the \\$?\\d[\\d,.]*k?|make (that|it) [a-z]+(-[a-z]+)? (thousand|grand)|(?<=(?:\\$\\d|\\d\\s?k\\b|\\d{1,3},\\d{3})[^]*)(?<=(?:^|[.!?]\\s+|\\n)[ \\t]*(?:(?:wait|oh|sorry|update|edit|hold on)[ ,:\u2013\u2014-]*)?)actually,? [^!?\\n]{0,60}?(\\$\\d{1,3}(,\\d{3})+|\\$\\d{4,}|\\d+k|\\d{1,3},\\d{3})", w: 3 },
  // (rfix31) ... a typo owned up to before its fix ("Sorry, typo: ..."), a figure said to be another ("1.40 should be 1.38", "60k s/b 55k")
  { phrase: 'typo(?= ?[:\u2013\u2014-])|\\d[\\d,.]*k? (should (be|have been|read|say)|s/b) \\$?\\d', w: 3 },
];

/**
 * A decision taken back later in the same message: "Disregard the above", "ignore my last", "strike that", "never mind,
 * wrong deal", "I hit send too early", "this was not meant for you", "EDIT: disregard". Only after a decision in the
 * text (analyse.ts): "Never mind, found it. Approved at 50k" takes back a question, not the approval. Never inside a
 * legal disclaimer's "if you received this in error, please disregard".
 */
export const TAKEN_BACK = [
  "(?:please |pls |kindly )?(?:disregard|ignore)(?: (?:that|this|the above|all of the above|everything above|this (?:one|e-?mail|message|note|reply)|the (?:previous|last|earlier|prior|first) (?:one|e-?mail|message|note|line|reply)|my (?:last|previous|earlier|prior)(?: (?:one|e-?mail|message|note|line|reply))?|the (?:approval|offer|terms|numbers|decision)(?: above)?|what i (?:just )?(?:sent|said|wrote)))?(?=\\s*[,.;:!\\-\u2013\u2014\\n]|\\s*$)",
  'strike that|scratch that|cancel that|never ?mind(?=\\s*[,.;:!\\-\u2013\u2014\\n]|\\s*$)|never ?mind (?:that|the above|my last|the (?:approval|offer|terms|decision))',
  "(?:sent|hit send|hit send on (?:that|this)|sent (?:that|this)|(?:that|this) went out) (?:too (?:early|soon)|prematurely|by mistake|in error)",
  "(?:was|is|it's|this was|that was|this is) not (?:meant|intended) for you",
];

/** A fraction of the ask as the amount offered ("half the ask" on an 85k deal is $42,500). */
export const ASK_FRACTIONS: Record<string, number> = { half: 0.5, 'a third of': 1 / 3, 'two thirds of': 2 / 3, 'a quarter of': 0.25, 'three quarters of': 0.75 };

/**
 * The ask named as the amount: "Approved as requested.", "good for the full amount", "we can fund at
 * the requested amount". Read as the deal's requested amount (only when the hook knows it), so that an
 * answer giving only the pricing ("Pricing 1.36, 44 weekly payments") still logs its offer. Not when a
 * label with a value follows ("Requested amount: $80,000" is the ask restated, not an offer).
 */
/**
 * (holdout25) The ask granted with its figure: "we can do Butte Outfitters for the requested $90,000" (the amount is what is
 * funded, not the ask restated), unless refused before it ("can't do it for the requested 90", "declined for the requested").
 */
export const ASK_GRANTED_BEFORE = "(?<!\\b(?:not|n't|cannot|unable|pass|passing|passed|declin\\w*|instead of|rather than|than|no|neither|nor)\\b[^.;!?]{0,50})\\b(?:for|at) the (?:full )?(?:requested|asked[- ]for)\\s*$";
export const ASK_AS_AMOUNT = [
  'as (requested|submitted|asked|applied)',
  '(at|for) the (full )?(requested amount|amount requested|ask|full ask|request)',
  '(the |your )?full (amount|ask|request|requested amount)',
  // bilingual reps: "aprobado por el monto completo"
  'el monto (completo|total|solicitado|pedido)',
];

/**
 * Items asked for to close a deal already priced, not to decide it: "need a signed contract and a
 * voided check to fund", "Stips to fund:", "bank login at the funding call", "once the merchant
 * accepts we'll need". Beside a complete offer they do not make the reply a request for information.
 */
export const CLOSING_STIPS: PhraseRow[] = [
  { phrase: '(to|before|prior to|at|for|on the) (fund|funding|close|closing)( call)?(?! out| off| (the|their|his|her) (position|balance|advance|loan))|(closing|funding) (stips|conditions|items|docs|requirements)|stips to (fund|close)|conditions (to|of|prior to) funding', w: 2 },
  { phrase: "(once|when|after|if) (the )?(merchant|client|owner|customer|they|he|she) (accepts?|signs?|says yes|is in|wants it)", w: 2 },
  // "Once signed we need ...", "after the contracts are executed": items that follow a contract already out
  { phrase: "(once|when|after) (it's |it is |they're |they are |the (contracts?|docs|agreements?) (is |are )?)?(signed|executed|countersigned|back)|after signing", w: 2 },
  { phrase: '(before|so|so that) (we|i) (can )?(send|issue|draw up|prepare|generate|release|process|execute) (the |out )?(contracts?|docs|documents|paperwork|agreements?)', w: 2 },
  // (holdout11) a check the lender runs before the money goes out: "bank login for the pre-funding verification"
  { phrase: 'pre-?funding (verification|call|check|review|interview|verbal)', w: 2 },
  // (holdout12) items that finish a priced deal: "payoff letters dated within 5 days to finalize"
  { phrase: '(to|before (we|i) (can )?) (finali[sz]e|finish|wrap( it| this)? up|paper it|lock (it|this) in)', w: 2 },
  // (holdout13) the item, then the contracts: "Send me the bank login for the verification and I'll get contracts out"
  // (holdout22) in a phone's spelling too: "pls send a voided chk and ill push contracts"
  // (holdout22) a portal's approval with its conditions: "Funding is subject to the outstanding items listed below", "APPROVED -
  // STIPS PENDING", "once cleared, contracts go out automatically"
  { phrase: "(funding|the funding|the approval|this approval|approval|the offer|this offer) (is |are |remains? )?(subject to|contingent (on|upon)|conditional (on|upon)|conditioned (on|upon))", w: 2 },
  { phrase: "(approved|approval)( -|,|:)? (with |w/ )?(stips|conditions|items) (pending|outstanding|to follow|required)", w: 2 },
  { phrase: "(contracts?|docs|paperwork|agreements?) (go|goes|will go|get|gets|will get|are|will be) (out|sent|issued|drawn up)", w: 2 },
  { phrase: "(and|then|&|\\+) (i'll|ill|i will|we'll|well|we will|i can|we can|i'd|id) (get|send|have|push|put|draw up|issue|cut) (the |out )?(contracts?|docs|paperwork|agreements?)( (out|over|going|drawn up|issued))?", w: 2 },
];

/**
 * The term the merchant asked for, as a reply restates it: "the application asks for 12 months", "you
 * requested 9 months", "a 52 week term was requested", "requested term: 12 months". A restated term is
 * not an offered one; an offer on another term than the one asked is a counter (issue 26), as it is
 * against the deal's desired term when the hook knows it (`requested_term`).
 */
export const ASKED_TERM = {
  /** Right before the number (holdout19: "the full amount, just not over 12 months": the term excepted is the ask; holdout21: "but not over fifty-two weeks"). */
  // (holdout25) one term set against another in shorthand: "can do the 45 but 90 days not 6 mo" (the second is the ask)
  before: "(?<=\\d[- ]?(business days?|days?|weeks?|wks?|months?|mos?|mths?|years?|yrs?),? )(but )?not( the)?|(?<![a-z'])(but |just |only )?not the|(asks?|asked|asking|applied|applying|looking|wanted|wanting|hoping) for( (a|an|the))?|(just|only|simply|but) not (over|on|for|across|at|with|in|beyond|out to)( (a|an|the))?|(can't|cannot|can not|couldn't|won't|will not|unable to|not able to) (do|go|offer|approve|fund|write)( it| this| that)?( (at|for|on|over))?( (a|the))?|(requested|requesting|requests|wanted|wants|desired|preferred)( (a|an|the))?|(requested|desired|asked[- ]for|preferred) (term|length|duration)( (of|is|was|at))?:?|(won't|will not|doesn't|does not|refuses to|isn't going to|is not going to) (budge|move|come|come down|back) (off|from|down from|on)( of)?( the)?|(insists?|insisting|insisted|dead set|set|stuck|hung up|holding out|holds out|held out) (on|for)( the)?",
  /**
   * (holdout34) The term named as an option the lender does not have: "No 9 month option", "there's no 12-month term on
   * this one". The word before the number and the word after its unit.
   */
  none: { before: "(?<![a-z'])no", after: "(option|term|structure|program|deal|product|plan)s?" },
  /** Before the ask's amount, which comes before the term (holdout9): "you came in asking for 120k over 9 months". */
  clause: "(?:you|they|he|she|the (?:merchant|client|owner|customer|application|app|file|submission|deal))( came in| were| was| is| are)? (?:asking for|asked for|asks for|requested|applied for|looking for|wanted|wants|put in for)|came in (?:asking for|at|for)|(?:the |their |his |her |your )?(?:ask|request|application|app|submission|original ask)(?: was| is| came in)(?: at| for)?|(?:requested|request|the ask|ask|asked|asking|submitted|applied for)(?: amount| terms?)?\\s*:",
  /** Right after the number and its unit. */
  after: "( term)? ((that )?(you|they|he|she|the (merchant|client|owner|customer|application|app|file|submission|request|deal)) )?(asked for|asks for|requested|wanted|wants|applied for|submitted|submitted for|put in for|(is|are|was|were) (asking|looking|hoping) for|(is|was|were) requested|in the (application|app|request|submission))",
  /**
   * Right after the number and its unit, a refusal of it (holdout8): "a 12-month weekly structure is beyond what our
   * guidelines allow", "9 months is longer than we go", "an 18 month term isn't something we can do": the term asked, refused.
   * (holdout20) In the trade's words too: "12 mo is a non starter", "a 10 month term is off the table".
   * (holdout22) "18 mo is a hard no from credit", "4 months makes the weekly debit too heavy for them": the term refused.
   * (rfix30) The lender bowing out if that term is insisted on: "if they will only take 12 months, we are out", "if it has to
   * be 18 months, we'll pass", "only 9 months? then it's a decline": the term asked, refused.
   */
  refused: "(,|\\?)? (then )?(we('re| are| will be| would be| have to be| must be)? (out|passing)|we('ll| will| would| have to| must)? pass|(it's|it is|that's|that is|it would be|it'd be|it will be) a (pass|no|decline)|no deal)(?=\\s*[,.;!]|\\s*$)|(-| )?(weekly|daily|bi-?weekly|monthly)?( (term|structure|schedule|deal|payback|repayment|program|terms))? (is|are|was|would be|runs|goes) (a non[- ]?starter|a no[- ]?go|a deal[- ]?breaker|off the table|out of the question|not happening|beyond|outside( of)?|past|longer than|more than|further than|over|above|too long|too short|too tight|too aggressive|a stretch|not (something|anything|what|within|possible|doable|available|an option)|a (hard )?(no|pass)( (for|from) (us|me|them|credit|uw|underwriting)| here)?(?=\\s*[,.;!:\\-\u2013]|\\s*$))|(-| )?(term )?(puts?|pushes|pushing|putting|makes|would put|would make) (the |their |his |her )?(daily |weekly |monthly )?(payments?|pmts?|debits?|holdback|withhold(ing)?|remits?)( way| well| much| far)? (over|above|past|too (high|big|heavy|much))|(-| )?(weekly|daily|bi-?weekly|monthly)?( (term|structure|schedule|terms))? (isn't|is not|won't|will not|doesn't|does not|can't|cannot) (be done|work|fly|fit|happen|be offered|be approved)|(-| )?(weekly|daily|bi-?weekly|monthly)?( (term|structure|schedule|terms))?( on (a|an|the) [a-z]+)? (isn't|is not|aren't|are not|wasn't) (something|anything|what|an option|a (term|structure|program)|possible|doable|available|on the table)|(-| )?(weekly|daily|bi-?weekly|monthly)?( (term|structure|schedule|terms))? (isn't|is not|won't|doesn't|does not)(?=\\s*[,.;!]|\\s*$)|[^.?!\\n$\\d]{0,60}\\?\\s*((no|nope)(?=\\s*[.!,;]|\\s*$)|no way|no chance|not a chance|not (happening|happenin|gonna happen|going to happen|on my watch|doable|possible|likely)|(i|we) (can't|cannot|won't) do (it|that)|that's a no|(that|it) (won't|will not|doesn't|does not) work)",
};

/**
 * A cap on the term, as the lender states it: "our max term for restaurants is 6 months", "the program
 * tops out at 26 weeks". An offer at the cap is a counter (the term was cut to it); a cap above the
 * offer ("9 months, our max is 12") says nothing about the ask. The number and unit follow the phrase.
 */
// (holdout34) and a limit in words: "we will not go past 20 weeks on this one", "can't go beyond 6 months"
export const TERM_CAP = "(?:won't|will not|can't|cannot|don't|do not|wouldn't|would not|never) go (?:past|beyond|over|longer than|out past|out beyond)|(?:max|maximum|longest|most|cap)(?: term| length)?(?: on| for| in)?(?: [a-z'&-]+){0,3} (?:is|we can do|we do|we offer|would be|of)|(?:max|maximum|longest) (?:term|length)(?: is| of)?|(?:tops|maxes|caps) out at";

/**
 * (holdout34) A doubt about who signed the application: the signer is not the owner on file, or the lender asks who signed
 * and whether they may ("signed by a K. Moyer but the owner listed is Daniel Reyes", "who signed, and are they an owner?",
 * "the signature doesn't match the owner's ID", "is she authorized to sign?"). An authority or identity question (possibly
 * fraud): whatever else the reply asks or decides, a person checks it before anything is recorded.
 */
export const SIGNER_DOUBT = [
  "(signed|signature|signer|signatory)\\b[^.?!\\n]{0,80}\\b(but|while|whereas|yet|not|isn't|is not|doesn't|does not|don't|do not|different|other than|instead of)\\b[^.?!\\n]{0,60}\\b(owners?|guarantors?|principals?|officers?|members?|applicant)\\b",
  "(owners?|guarantors?|principals?|applicant) (listed|on (the )?(file|app|application)|named)[^.?!\\n]{0,60}\\b(but|while|whereas|yet)\\b[^.?!\\n]{0,60}\\b(signed|signature|signer)",
  "who (actually )?signed( (the|this) (app|application|contract|agreement))?\\b",
  "(is|are|was|were) (they|he|she|the signer|the signatory|this person|that person) (an? |the )?(owner|officer|principal|member|guarantor|authori[sz]ed)",
  "signatures? (doesn't|does not|don't|do not|didn't|did not) match",
  "(not|isn't|is not|wasn't) (the|an?) (listed |named |actual |real )?(owner|principal|officer)( (of record|on (the )?(file|app|application)))?\\b[^.?!\\n]{0,40}\\b(signed|signature|signer)",
];

/** The same pricing as the offer before it: "we can stretch to 55k at the same rate and term". */
export const SAME_TERMS = '(the )?same (rate|factor|pricing|terms?|structure|rate and term|factor and term|terms and rate)( and (term|rate|factor|pricing|frequency|schedule))?';

/** The terms differ from the ask, in words. */
export const COUNTER: PhraseRow[] = [
  // (holdout25) a renewal of the lender's own position offered in place of the new advance asked: "we don't take a second
  // position behind our own advance. What we CAN do is a renewal", "we could offer a renewal instead"
  { phrase: "(what (we|i) (can|could) do is|(we|i) (can|could) (do|offer|write)|(best|all) (we|i) (can|could) do is|how about|(we|i)('d| would) (do|offer|suggest)|instead,? (we|i) (can|could) do) (a |an |the )?(early |full )?(renewal|re-?up|refi|refinance|payoff and renewal)\\b", w: 3.5 },
  { phrase: "(can't|cannot|couldn't) get (you )?to( the)? \\$?\\d+k?", w: 3 },
  { phrase: 'declined (it |this |the file )?(at|for) (the )?(full |whole |requested )?\\$?\\d+k?', w: 3 },
  // the file refused as it was sent, something else on offer: "Decline as submitted", "can't do it as structured"
  { phrase: "(declined?|pass|no|not approved|can't do (it|this)|cannot do (it|this)|won't work) as (submitted|structured|requested|presented|is)", w: 3 },
  { phrase: "(isn't|is not|not) there", w: 1 },
  { phrase: "(can't|cannot) fund the (whole|full|entire)", w: 3 },
  { phrase: "not (able|unable) to approve the (full|whole|entire|requested)", w: 3 },
  { phrase: "(\\d+ (months?|weeks?|days?)|that term) (won't|will not|doesn't|does not) work", w: 3 },
  { phrase: "(we'd|we would|we) (have to|need to) go \\d+", w: 3 },
  // another structure: the offer stands only with a position paid off or bought out
  { phrase: "(only )?(if|once|provided|as long as) (they|the merchant|the client|he|she|we) (close|closes|pay off|pays off|payoff|buy out|buys out|take out|takes out|clear|clears|drop|drops|consolidate|consolidates|refinance|refinances)( out)? ([a-z'&+]+ ){0,3}(position|positions|balance|advance|mca|loan|funders?)", structure: true, w: 3 },
  // ... the funder named instead of the position: "but only after they close out Rapid", "once he pays off Kapitus"
  { phrase: "(only )?(if|once|after|when|provided|as long as) (they|the merchant|the client|the owner|he|she) (close|closes|closed|pay|pays|paid|buy|buys|take|takes|clear|clears)( off| out)? [a-z'&+]+( [a-z'&+]+)?( (off|out))?(?=\\s*[.!;,\\n]|\\s*$| (first|at funding|before))", structure: true, w: 3 },
  { phrase: "(has|have|needs?|need|must) to be (paid off|bought out|closed out|taken out|paid down|consolidated)|(paid|bought|closed|taken) (off|out) at funding|(we|we'd|we) (need to|have to|must|would need to|would have to) be in (1st|first)( position)?", structure: true, w: 3 },
  // a payoff as part of the deal: "pay Rapid off and we fund 80", "closing out the Forward balance"
  { phrase: "(pay|paying|buy|buying|take|taking|close|closing)( [a-z'&+]+){0,3} (off|out)|stay (in )?(1st|2nd|3rd|\\d+th|first|second|third|fourth)", structure: true, w: 1.5 },
  // "they need to close out Fora first", "pay off Rapid first"
  { phrase: "(pay|paying|buy|buying|take|taking|close|closing|clear|clearing)( (off|out))?( [a-z'&+]+){0,3}( (off|out))? (first|before (we|funding)|prior to funding)", structure: true, w: 3 },
  { phrase: "(we|we'd|we would|we'll|we will) (buy|pay|take) (out|off) ([a-z'&+]+ ){1,4}(at funding|positions?|balances?|funders?)|(we|we'd|we would|we'll|we will) (buy|pay|take) ([a-z'&+]+ ){1,4}(out|off) at funding", structure: true, w: 3 },
  { phrase: 'not (on|at|for) the \\d+ (months?|weeks?|days?)', w: 3 },
  { phrase: 'only split|split in (two|2|half)|in two (parts|pieces|tranches)|re-?up', w: 2.5 },
  { phrase: 'if they pay off|with (a|the) payoff of|contingent on', structure: true, w: 1 },
  // (holdout12) the deal taken only in another structure: "We'd take it only as a buyout of both positions", "only as a consolidation"
  { phrase: "(only|just|solely) as (a|an) (buyout|buy-?out|consolidation|refinance|refi|reverse consolidation|takeout|take-?out)|(take|do|fund|write|structure) (it|this|this one|the (deal|file)) as (a|an) (buyout|buy-?out|consolidation|refinance|refi|takeout)", structure: true, w: 3 },
  // (holdout11 neighbours) the offer hangs on a payoff: "approved contingent on paying off Kapitus at funding", "subject to a buyout of Fora"
  { phrase: "((contingent|conditional|conditioned|dependent) (up)?on|subject to) ((a|the|their|his|her) )?([a-z'&+]+ ){0,2}(paying|buying|closing|taking|payoff|pay-?off|buyout|buy-?out|consolidat\\w*)", structure: true, w: 3 },
  { phrase: 'only (at|for|on|over) \\d+ (months?|weeks?|days?|business days)', w: 3 },
  { phrase: 'but (for|at|over|on) \\d+ (months?|weeks?|days?|business days)', w: 3 },
  { phrase: '(months?|weeks?|days?) not \\d+', w: 3 },
  // holdout8 neighbours: another term or payment schedule than asked, in words. "a 9 month term rather than the 12
  // requested", "weekly payments aren't an option for this file", "it has to be daily ACH", "we only do dailies"
  { phrase: '(months?|weeks?|days?|term|payments?)( term)? (rather than|instead of|versus|vs\\.?) (the )?(\\d+|requested|asked)', w: 3 },
  { phrase: "(weekly|daily|bi-?weekly|monthly)( payments?| debits?| ach| schedule| remittances?| structure| pulls?)? (isn't|is not|aren't|are not|won't|will not|doesn't|does not|can't|cannot) (in (our|my|the) (toolbox|wheelhouse|program|menu|box|playbook)|an option|possible|available|work|fly|happen|be done|doable|something we)|(can't|cannot|won't|don't|do not|not able to|unable to) (do|offer|go|approve|write) (it |this |them |that )?(on )?(weekly|daily|bi-?weekly|monthly)( payments?| debits?| ach)?|(has|have|needs?|would have|would need) to be (on )?(daily|weekly|bi-?weekly|monthly)( payments?| debits?| ach)?|(we|i) only (do|offer|write) (dailies|weeklies|daily|weekly|monthly)", w: 3, schedule: true },
  // (holdout23) the schedule refused with who asked for it between: "the weekly schedule requested on the submission is not available"
  // (rfix31) the refusal in the conditional, whoever refuses: "they would not do weekly payments", "credit wouldn't go weekly",
  // "we couldn't approve it on weekly debits"
  { phrase: "(would not|wouldn't|wouldnt|could not|couldn't|couldnt|will not|won't|wont) (do|offer|go|approve|write|allow|agree to) (it |this |them |that )?(on |to )?(weekly|daily|bi-?weekly|monthly)( payments?| debits?| ach| pulls?| remits?)?\\b", w: 3, schedule: true },
  { phrase: "(weekly|daily|bi-?weekly|monthly)( payments?| debits?| ach| schedule| remittances?| structure)? (the (merchant|client|owner|customer) )?(requested|asked for|wanted|applied for|submitted)( (on|in|with) (the|their|your) (submission|application|app|file|request))? (isn't|is not|aren't|are not|won't be|will not be|can't be|cannot be) (an option|possible|available|doable|offered|approved)", w: 3, schedule: true },
  // (holdout43) the schedule the merchant asked for, refused in the next clause: "Weekly remittance was requested; not
  // available for contractors in this program", "daily was requested, but that is not an option on this paper"
  { phrase: "(weekly|daily|bi-?weekly|monthly)( payments?| debits?| ach| schedule| remittances?| remits?| structure)? (was|were|is|are|had been|has been) (requested|asked for|wanted|applied for)( by (the|your) (merchant|client|owner|customer))?( on (the|their|your) (submission|application|app|file))?\\s*[;,:.-]?\\s*(but |however,? )?((it|that|this)('s| is| was) |which (is|was) )?(not|isn't|wasn't|is not|was not|unfortunately not) (an option|possible|available|doable|offered|approved)", w: 3, schedule: true },
  // (holdout20) a schedule the lender has no product for: "we don't have a bi-weekly product", "we don't run monthly programs",
  // "our shop doesn't carry a weekly option"
  { phrase: "(don't|do not|doesn't|does not|no longer) (have|carry|run|offer|support) (a |an |any )?(weekly|daily|bi-?weekly|semi-?monthly|monthly)( ach| payment| debit| remittance| pay)? (products?|programs?|options?|structures?|schedules?|plans?)", w: 3, schedule: true },
  // (holdout21) a schedule refused in few words, or kept for other files: "amount is fine, the weekly isn't", "weekly is
  // only offered on files over $50k", "bi-weekly is reserved for renewals"
  { phrase: "(weekly|daily|bi-?weekly|monthly)( payments?| debits?| ach| schedule| option| program| structure| remits?)? (isn't|is not|aren't|are not|won't|will not)(?=\\s*[.!;,\\n]|\\s*$)", w: 3, schedule: true },
  // (holdout27) the schedule named first, the refusal after it: "monthly payments we don't do", "weekly we can't offer on this"
  { phrase: "(weekly|daily|bi-?weekly|monthly)( payments?| debits?| ach| schedules?| remits?| pmts?)? (we|i|our (shop|desk|program)) (don't|do not|can't|cannot|won't|will not|never) (do|offer|write|run|approve|go)\\b", w: 3, schedule: true },
  // (holdout40) a schedule refused for a kind of file, the lender's own named instead: "no wkly on hvac guys only daily"
  { phrase: "no (weekly|wkly|daily|dly|bi-?weekly|monthly)( payments?| debits?| ach| remits?| pmts?)? (on|for|with) [\\w' -]{2,40}?(only|just) (daily|dly|weekly|wkly|bi-?weekly|monthly)", w: 3, schedule: true },
  // (rfix14) ... also with who keeps it between: "weekly by us is only for files over 100", "weekly with us is reserved for renewals"
  { phrase: "(weekly|daily|bi-?weekly|monthly)( payments?| debits?| ach| schedule| options?| programs?| structures?| remits?)?( (by|with|for|at) (us|me|our (shop|desk|house|program)))? (is|are) (only|reserved|kept|saved) (offered |available |done |allowed |written )?(on|for|above|over|with|to|at)", w: 3, schedule: true },
  { phrase: 'instead of (the )?\\$?\\d+k?', w: 1.5 },
  // holdout8: a ceiling on the amount however worded: "too rich for us", "I'm at 12.5 max", "tops out at 22,500", "credit capped it at 55",
  // "took it as far as I could", "the most credit will sign is 30", "we max out at", "can stretch to 40 and that's it"
  { phrase: "(is|was|that's|thats|it's|a bit|way|little|just) too rich|too rich (for|at)|(i'm|im|we're|were|i am|we are|credit is|uw is|underwriting is|the desk is|committee is|they're|they are)( only)? (at|comfortable at|good (at|for)|ok (at|for)|okay (at|for)) (\\$\\d[\\d,.]*k?|(?<![\\d.,])(\\d{1,3}(,\\d{3})+|\\d{1,3}(\\.\\d)?k|\\d{2,3}(\\.\\d)?))( (max|tops|top|ceiling|cap|at most|at the most|and no (more|higher)|and that's it|period))(?! (sell|rate|factor|buy))|(\\$\\d[\\d,.]*k?|(?<![\\d.,])(\\d{1,3}(,\\d{3})+|\\d{1,3}(\\.\\d)?k|\\d{2,3}(\\.\\d)?)) (max|tops|at most|is our (max|ceiling|cap|limit)|is the (max|ceiling|cap|limit|most))\\b(?! (sell|rate|factor|buy))|tops? out at|max(es|ed)? out at|topped out at|(capped|caps|cap|limited|held|kept) (it|us|them|the (deal|file|offer|approval|amount|advance)) (at|to)|(capped|limited|held) at \\$?\\d|(as far as|the furthest|the farthest) (i|we|credit|uw) (could|can|will|would) (go|take it|push( it)?|get( it)?|stretch)|(took|take|pushed|push) (it|this|the file|the deal|[a-z'&-]+) as far as|the most (i|we|credit|uw|underwriting|committee) (can|could|will|would) (do|sign|approve|go|fund|offer|write)|(max|maximum|highest|most) (i|we|credit|uw|underwriting|committee) (can|could|will|would) (get you|get|do|go|offer|approve|fund|sign|write|stretch)|(will|would|can|could) only (go|do|approve|fund|get|stretch|write) (to|up to)|as high as (we|i|credit|uw|underwriting|committee) (can |will |could |would )?(go|get|do)", ceiling: true, w: 3 },
];

/**
 * Products a lender may offer instead of the one asked for (the deal's `product_type`; an advance,
 * `mca`, when unknown). Offering another product is a counter; naming the product asked for is not.
 */
/**
 * (review rev-t) A product the lender says it does not offer is no product offered: "we do not offer a twelve (12) month
 * term loan", "we don't do lines of credit", "we no longer offer SBA" (the verb after a refusal starts no product row).
 */
const NOT_REFUSED = "(?<!(?:\\bnot|n't|\\bno longer|\\bnever|\\bcannot|\\bcan not)\\s)";

export const PRODUCTS: Array<PhraseRow & { product: 'mca' | 'loc' | 'term_loan' | 'equipment' | 'sba' | 'consolidation' }> = [
  // (revz) never one said not to be: "this is not a consolidation", "no consolidation, the merchant keeps his positions"
  { product: 'consolidation', phrase: "(?<!\\b(not|never|no|isn't|wasn't|without) (a |an )?)(reverse consolidation|consolidation)", w: 3 },
  // (rfix17) a consolidation described, not named: "we take out both funders and put them in one weekly", "pay off all three
  // and roll everything into a single payment"; (rfix12) ... "put them on one term loan"
  { product: 'consolidation', phrase: "(take|takes|taking|buy|buys|buying|pay|pays|paying) (out|off) (both|all|all three|all four|the two|the three|each|every one)\\b[^.!?\\n]{0,60}?\\b(and )?(put|roll|fold|combine|consolidate|bring)s? (them|it|those|both|everything|all of it|all) (in|into|under|onto|on) (one|a single|a new|our)\\b", w: 3 },
  // (holdout27) the lender's own product by name: "what we CAN do is our 12-month term loan", "we can offer our line of credit"
  { product: 'loc', phrase: NOT_REFUSED + '(do|offer|approve|approved for|go with|put (them|him|her) (in|on|into))( instead| rather)?( is)? ?(a |an |our |the )?(\\$?\\d[\\d,.]*k? )?(revolving |business |small business )*(line of credit|credit line|loc)', w: 3 },
  // (holdout25) "the merchant qualifies for our revolving business line of credit instead"
  { product: 'loc', phrase: '(qualif(y|ies|ied)|eligible|a fit|a better fit) for (a |an |our |the )?(\\$?\\d[\\d,.]*k? )?(revolving |business |small business )*(line of credit|credit line|loc)', w: 3 },
  // (rfix7) ... its length in words, the figure in brackets as a formal letter writes it: "offer a twenty-four (24) month term loan"
  { product: 'term_loan', phrase: NOT_REFUSED + '(do|offer|approve|approved for|go with|put (them|him|her) (in|on|into))( instead| rather)?( is)? ?(a |an |our |the )?(\\$?\\d[\\d,.]*k? )?(\\d+[- ](month|year) |[a-z]+(-[a-z]+)? \\(\\d+\\)[- ](month|year) )?term loan', w: 3 },
  // (holdout40) the amount offered "as a loan instead", or the offer's figure named a term loan ("$70,000 term loan"), never
  // a loan the merchant already has ("they have a $50k term loan with the bank")
  { product: 'term_loan', phrase: "as an? (\\d+[- ](month|year) )?(term |business )?loan (instead|rather)|(?<!\\b(have|has|had|existing|current|with|their|his|her|its|owes?|owing|on|an?|the|of|pay(ing)? off) )\\$\\d[\\d,.]*k? (\\d+[- ](month|year) )?term loan", w: 3 },
  // (holdout42) the deal itself done as a loan: "we would instead do the full amount as a term loan", "we can structure it as
  // an 18-month business loan" (never a loan the merchant has: the verb is the lender's)
  { product: 'term_loan', phrase: NOT_REFUSED + "(do|offer|fund|structure|write|approve|put) (it|this|them|that|the (full |whole |entire )?(amount|ask|deal|file|request)) as (a|an|our) (\\d+[- ](month|year) |[a-z]+[- ](month|year) )?(term |business |small business )?loan\\b", w: 3 },
  // (rfix20) a bank's loan in the advance's place, the amount named as it: "we would be pleased to consider the full $150,000.00 as a
  // secured term loan", "we could look at the $80k as a conventional bank loan" (the lender's verb; never a loan the merchant has)
  { product: 'term_loan', phrase: NOT_REFUSED + "(consider|look at|offer|do|fund|write|structure|approve) (the )?(full |whole |entire |requested )?\\$\\d[\\d,.]*k? (instead )?as (a|an|our) ((secured|unsecured|conventional|bank|business|small business|commercial|\\d+[- ](month|year)) )*(term )?loan\\b", w: 3 },
  { product: 'equipment', phrase: NOT_REFUSED + '(do|offer|approve|approved for|go with|put (them|him|her) (in|on|into))( instead| rather)?( is)? (an? |our |the )?equipment (loan|financing|lease)', w: 3 },
  // (holdout29) the lender's program put in the advance's place: "what works better is our equipment finance program",
  // "it makes more sense as an equipment lease", an "equipment finance agreement" (EFA) laid out
  { product: 'equipment', phrase: '(works better|fits better|a better fit|makes (more )?sense|better (option|route|structure))( for (them|him|her|this( one)?|the (merchant|deal|file)))?( is| would be| as)? (an? |our |the )?equipment (finance|financing|loan|lease)|equipment finance agreement', w: 3 },
  // (rfix17) "they would do better on an equipment lease", "they'd be better off with our equipment financing", "we can do it as
  // an equipment lease instead": the same program in the advance's place, in other words
  { product: 'equipment', phrase: "(do|fare|be) better( off)? (on|with|in|under|as) (an? |our |the )?equipment (finance|financing|loan|lease)|as (an? |our |the )?equipment (finance|financing|loan|lease)( agreement)? instead", w: 3 },
  // (rfix16) an equipment lessor offering a lease in the advance's place, by its end-of-term option or on the equipment itself:
  // "we can do this as a $1 buyout lease on the line itself", "what we can do is a lease on the press" (never the merchant's own
  // lease: the verb is the lender's offer; never "lease payments", the lease's "holder"; (revr) never the
  // merchant's own: "they already do a $1 buyout lease on the oven")
  { product: 'equipment', phrase: NOT_REFUSED + "(?<!\\b(already|currently|they|he|she|merchant|owner|client|customer) )(do|offer|structure|write|approve)( (it|this|that|this one|the (deal|file|amount|ask)))?( instead| rather)?( is)?( as)? (an? |our |the )(\\$\\d[\\d,.]*k? |\\d+% )?((dollar|\\$1|one dollar|buy-?out|purchase[- ]option|fmv|fair market value|capital|finance|true)[- ])*(buy-?out |purchase[- ]option )?lease\\b(?! (payments?|holder|company|agreement on file)\\b)", w: 3 },
  // (revr) ... or the lease named approved or offered in the advance's place: "Equipment lease approved in place of the advance",
  // "a lease offered instead of the MCA" (never a lease refused: "no lease instead of the advance")
  { product: 'equipment', phrase: "(?<!\\b(no|not|never|won't|can't|cannot|don't|do not) (an? |the |any )?(equipment )?)(equipment )?(lease|leasing|equipment financ(e|ing))( (is|was|has been|can be))? (approved|offered|available|approvable) (in place of|instead of|rather than) (the |an |a |your )?(advance|mca|merchant cash advance|cash advance|funding)", w: 3 },
  { product: 'sba', phrase: NOT_REFUSED + '(do|offer|approve|approved for|go with|put (them|him|her) (in|on|into))( instead| rather)?( is)? (an? |our |the )?sba( loan)?', w: 3 },
  // (rfix17) a bank's SBA program in the advance's place: "the practice qualifies for an SBA Express term loan", "an SBA 7(a)
  // loan might fit" (never a loan the merchant has: the bank says what fits or qualifies)
  { product: 'sba', phrase: "(qualif(y|ies|ied)|eligible|a fit|a better fit) for (a |an |our |the )?(\\$?\\d[\\d,.]*k? )?sba\\b|\\b(an? |our |the )?sba( express| 7\\(?a\\)?| 504)?( term)? loan (might|may|would|could|should|will|can) (fit|work|suit|be (a |the )?(better |good )?(fit|option|route))", w: 3 },
  { product: 'mca', phrase: NOT_REFUSED + '(do|offer|approve|approved for|go with|put (them|him|her) (in|on|into))( instead| rather)?( is)? (a |an )?(straight )?(advance|mca|merchant cash advance)', w: 3 },
];

/** Sectors as lenders name them in an industry decline ("nightlife is off our box", "we don't touch bars"). */
export const SECTORS =
  "nightlife|night ?clubs?|bars?|lounges?|taverns?|pubs?|hookah( lounges?| bars?)?|strip clubs?|gentlemen's clubs?|adult (entertainment|businesses?)|liquor stores?|tobacco|vape shops?|vape|smoke shops?|cannabis|marijuana|cbd|hemp|kratom|firearms?|guns?|ammunition|gambling|casinos?|gaming|sweepstakes|crypto\\w*|pawn( shops?)?|check cash(ing|ers?)|money services?( business(es)?)?|money transmitters?|msbs?|payday|bail bonds?|debt collect\\w*|collection agenc(y|ies)|car dealers?|used cars?|auto (sales|dealers?)|trucking|freight|construction|contractors?|real estate|law firms?|attorneys?|travel( agenc(y|ies))?|churches|non-?profits?|staffing|massage( parlors?)?|tattoo( shops?| parlors?)?|telemarketing|mlm|multi-?level marketing|timeshares?|event (venues?|planning|promoters?)|promoters?|home health( care)?|solar|restaurants?|dispensar(y|ies)";

/**
 * (holdout15) A sector the lender has no room for is a decline: "we are full on trucking for Q4",
 * "credit capped the sector", "we're maxed out on construction". Read with the DECLINE cues.
 */
/**
 * (rfix14) A sector named, then refused: "a check casher we don't do", "bars we won't touch" (no schedule or figure after).
 * (revz) ... nor a qualifier after the verb: the sector refused only in a position, a place, past a term or under a condition
 * ("contractors we don't fund with less than 2 years in business", "restaurants we don't fund when they're under 12 months",
 * "bars we don't fund in NJ") is refused for that, not for its sector.
 */
export const SECTOR_REFUSED = `(${SECTORS}) (we|i) (don't|do not|won't|will not|never|can't|cannot|no longer) (do|fund|touch|write|take|finance|go near)\\b(?! (weekly|daily|monthly|bi-?weekly|more than|over|under|above|below|at|on (weekly|daily)|\\$|\\d|past|beyond|longer|without|unless|with|if|when|whose|that|who|until|in (?!any\\b|general\\b)|on (a |an )?\\d))`;
export const SECTOR_FULL: PhraseRow[] = [
  { phrase: `(we're|we are|we've|we have|we're already|we are already) (full|capped( out)?|maxed( out)?|at (capacity|our (limit|cap))) (on|in|for) (${SECTORS})`, w: 3 },
  { phrase: "(credit|risk|uw|underwriting|we|management|the committee) (has |have )?(capped|closed|froze|frozen|paused|shut) (the |that )?(sector|industry|vertical|space)", w: 3 },  // (rfix14) the sector named first, then refused in so many words: "a check casher we don't do", "vape shops we won't touch"
  // (never a schedule or a figure after the verb: "a restaurant we don't do weekly on" refuses the schedule, a counter's words)
  { phrase: SECTOR_REFUSED, w: 3 },
];

/**
 * Decline reasons with their shorthand. A category whose rows add up to 2 or more is named; with two,
 * the one named first in the text wins.
 */
export const DECLINE_REASONS: Array<{ category: DeclineCategory; phrases: string[]; w: number }> = [
  { category: 'negative_days', phrases: ['negs', 'd(i|\u00ed)as negativos', 'saldos? negativos?', 'neg days', 'negative days', 'too many negs', 'negative balance days', 'neg balance days',
    // (rfix31) the days in the red in Spanish, the misspelling step having read "negativo" as "negative": "9 dias en negativo", "días en rojo"
    '\\d+ d(i|\u00ed)as (en|in) (negative|rojo|the negative)', 'd(i|\u00ed)as en (negative|rojo)',
    // "negative 18 days last month", "days below zero", "22 overdraft days", "went negative"
    'negative \\d+ days', '\\d+ days? (negative|below zero|under zero|in the negative|overdrawn)', 'days? (below|under) zero', 'below zero', 'went negative', 'overdraft days', 'overdrawn', 'in the negative'], w: 3 },
  { category: 'nsf', phrases: ['nsfs?', 'returned items', 'od fees', 'overdraft fees'], w: 3 },
  {
    category: 'stacking',
    phrases: [
      "(we )?don't go (\\d+(st|nd|rd|th)|second|third|fourth|fifth|sixth)", '\\d+ positions', '(new|another|undisclosed) position', 'positions? funded',
      'mca debits', 'stacked', 'stacking', 'too many (positions|pos|mcas|advances|funders|lenders)', 'holdback (is )?too high', 'over[- ]?leveraged',
      // (holdout32) phone shorthand: "3 pos already", "a 4th hitting on 11/16", "Im not going 5th"
      '\\d+ pos\\b', "(not|never|won't|can't|cannot) (going|go|gonna go|sitting|sit) (in )?(\\d+(st|nd|rd|th)|second|third|fourth|fifth|sixth)\\b",
      'an? (\\d+(st|nd|rd|th)|second|third|fourth|fifth|sixth) (position |pos )?(hitting|hit|landing|landed|showing|funded|came in)',
      '\\d+ deep', "(don't|do not|won't) take an? (\\d+(st|nd|rd|th)|second|third|fourth|fifth)",
      // "won't add a third position", "can't sit 3rd behind two funders", "a new advance funded Monday"
      "(won't|will not|can't|cannot|don't|do not) (add|take|fund|do|sit|go|be) (in |on )?(an? |the )?(\\d+(st|nd|rd|th)|second|third|fourth|fifth|sixth)( position)?",
      '(new|another|undisclosed|additional|recent) (advance|mca|funder|lender|loan)s?( (funded|hit|landed|showed|came))?',
      // "sitting behind Kapitus and Fora", "no room behind two funders"
      '(sitting|sit|be|being|go|come in) behind', 'no room',
      // our place in the line (holdout10): "we'd be number four", "you'd make us #5", "already wearing three advances"
      "(we'd|we would|we'll|we will|i'd|you'd|that'd) (be|make us|put us at) (number|no\\.?|#) ?(\\d|two|three|four|five|six|seven)",
      '(wearing|has on|have on|shouldering|saddled with)( already)?( two| three| four| five| six| \\d+| multiple| several)? (advances|positions|mcas|funders|lenders|dailies|weeklies)',
      // (holdout21) the place in line by its ordinal, and the funder's last place: "we'd be in 3rd", "that puts us 4th",
      // "we stop at 2nd", "we only go to second position"
      "(we'd|wed|we would|we'll|we will|i'd|you'd|that'd|that would|this would|it would|that puts us|this puts us|puts us) (be |sit |land |end up |come in )?(in |at )?(the )?(\\d(st|nd|rd|th)|second|third|fourth|fifth|sixth)( position| spot| place| in line)?\\b",
      '(we|i) (stop|top out|cap out|only go|only fund|only play) (at|to|up to|through) (\\d(st|nd|rd|th)|first|second|third|fourth|fifth)( position)?\\b',
      // (holdout34) our place made by the others, and the last place we take named as a maximum: "that would make us 5th",
      // "makes us the fourth", "our max is 3rd position", "2nd position is our limit"
      "(would |will |'d |'ll )?(make|makes|making|made) us (the )?(\\d(st|nd|rd|th)|second|third|fourth|fifth|sixth)( position| spot| in line)?\\b",
      '(our|my|the) (max|maximum|limit|cap|ceiling|last) (is|would be|will be) (the )?(\\d(st|nd|rd|th)|first|second|third|fourth|fifth)( position| spot| in line)?\\b',
      '(\\d(st|nd|rd|th)|first|second|third|fourth|fifth)( position)? (is|would be) (our|my|the) (max|maximum|limit|cap|ceiling)\\b',
    ],
    w: 3,
  },
  { category: 'deal_size', phrases: ['max out at', 'outside our box', 'our (max|maximum|cap) is', '(above|over) our (max|maximum|cap)', 'too big for us', 'too small for us'], w: 3 },
  // (holdout16) the funder's smallest or largest ticket, and the deal itself under the minimum: "the smallest advance we
  // write is $50,000", "the largest deal we fund is 250k", "Tiny Tots is under our minimum." (never a figure of the merchant's:
  // "revenue is under our minimum" is low revenue, "the score is below our minimum" a score)
  {
    category: 'deal_size',
    phrases: [
      "(smallest|lowest|largest|biggest) (advance|deal|ticket|amount|funding amount|position|check|file) (we|i|that we|that i|our (desk|shop|program)) (will |can |are able to |would )?(write|do|fund|offer|place|take|look at|consider)",
      "(?<!(revenue|revenues|sales|deposits|volume|balances?|adb|score|fico|credit|tib|history|seasoning|time in business)('s| is| are| was| were| sits?| came in| falls?)? )(is |are |falls |sits |comes in )?(under|below|beneath|short of) (our|the) (\\$?\\d[\\d,.]*k? )?(minimum|min)(?=\\s*[.!;,\\n]|\\s*$)",
      // the ticket floor or ceiling as the whole answer: "we don't write anything under 25k"
      "(don't|do not|won't|will not|can't|cannot|never) (write|fund|do|touch|take|go|consider|look at) (anything|any deals?|deals|files|tickets|advances|positions|requests)( that(?:'s| is| are)?)? (under|below|smaller than|less than|over|above|bigger than|larger than|more than) \\$?\\d[\\d,.]*k?(?!\\s*(%|percent|days?|weeks?|wks?|months?|mos?|years?|yrs?|positions?|nsfs?|negs?|pts?|points?|fico|score)\\b)",
    ],
    w: 3,
  },
  { category: 'low_revenue', phrases: ["(revenue|revenue's|sales|deposits|volume) (is |are )?too (light|low|thin)", 'too light', 'doing \\d+k? a month', "(deposits|revenue|sales) (aren't|are not|isn't|is not|not) consistent", 'inconsistent (deposits|revenue|sales)',
    // "true revenue is about $19k a month, our floor is $25k"; "sales come in under our minimum"
    "(true|actual|real|net|verified) (monthly )?(revenue|deposits|sales|gross)", "(revenue|deposits|sales|volume)[^.;\\n]{0,25}(under|below|short of|less than) (our |the |its )?((program|programme|credit|underwriting|policy|product)('s)? )?(\\$?[\\d,.]+k? )?(floor|minimum|min)", "(revenue|revenue's|sales|deposits|volume) (is |are )?(way |much |far )?too (light|low|thin)",
    // (holdout12) the merchant's monthly figure set beside the floor: "doing about 12 a month in deposits, our floor is 15"
    "doing (about|around|roughly|maybe|only|just|under) \\$?\\d[\\d,.]*k? a month",
    // (holdout28) the deposits named, then "they" under the minimum in the same sentence: "the October deposits include a $22k
    // transfer from the owner and without it they're under our minimum"
    "(revenue|deposits|sales|volume)[^.;!?\\n]{0,100}\\b(they're|they are|it's|it is|that's|that puts them|which puts them) (well |just |still )?(under|below|short of) (our|the) (\\$?[\\d,.]+k? )?(floor|minimum|min)", "(deposits|revenue|sales|volume)[^.;\\n]{0,30}(our|the) (floor|minimum|min) (is|of) \\$?\\d[\\d,.]*k?(?!\\d|[,.]\\d| ?(months?|mos?|years?|yrs?|days?|positions?|nsfs?|negs?|fico|score|%))"], w: 3 },
  { category: 'low_balance', phrases: ['runs too thin', 'avg daily balance',
    // (holdout27) shorthand: "avg daily bal too low", "average ledger bal under 1k", "daily bals too thin"
    '(avg|average|daily|ledger) (daily |ledger )?bals?( (is|are))? (too|way too|under|below|low|thin)', 'hit zero', 'balances? (are |is )?too (low|thin)', '(live|lives|living|sit|sits) (at|near) zero'], w: 3 },
  // (issue 26 classes) the sector as what the lender has no appetite for: "no appetite for vet clinics right now"
  { category: 'industry', phrases: ["(no|zero|little|limited) appetite for (?!(this|that|it|the|more|another|additional|a|an|any|stack\\w*|risk|deals?|files?|paper|positions?|advances?)\\b)[a-z&/-]+"], w: 3 },
  { category: 'stacking', phrases: ['too much (debt|leverage|paper|existing debt)|debt load (is )?too (high|heavy)'], w: 3 },
  { category: 'credit_score', phrases: ['fico too low', "(the |owner |owner's |guarantor )credit(?= *[.!,;\\n]| *$)", 'under our \\d{3} floor', '\\d{3} floor', '(a|an) \\d{3} shop', "(owner's|owners|guarantor's) credit",
    // a score read out: "came back at 587", "pulled a 590", "our floor is 600", "cutoff is 620" (three digits, no $ or k)
    "(came back|pulled|pulls|scored|scores|scoring|score|beacon|fico)( in)?( at| of| is| was| a| an)? [4-8]\\d\\d(?![\\d%]|,\\d|k\\b)", "(floor|cutoff|cut-off|minimum score|min score|m[i\u00ed]nimo)( is| of| es| de)? [5-7]\\d\\d(?![\\d%]|,\\d|k\\b| ?(a day|per|/|dollars|avg|average))",
    // (rfix2) a score named by the pull it came from, and the lender's box by where it starts: "538 on the pull, our box starts at 575"
    "[4-8]\\d\\d (on|from|off) (the |his |her |their |a |our )?(pull|bureau|credit pull|credit report|report|tri-?merge)\\b",
    "(box|floor|cutoff|cut-off|minimum|min|cut) (starts|begins|opens|sits) at [5-7]\\d\\d(?![\\d%]|,\\d|k\\b| ?(a day|per|/|dollars|avg|average))"], w: 3 },
  { category: 'time_in_business', phrases: ['tib under', 'under a year', 'too new',
    // "opened 7 months ago", "12 months minimum", "formed in May, so 6 months"
    '(opened|started|formed|founded|launched|incorporated|registered|in business)( in| about| only| just)? \\d{1,2} (months?|mos?) ago', '\\d{1,2} (months?|years?|yrs?) (minimum|min)\\b(?! (balance|revenue|deposits|funding|deal))', 'not enough (history|time in business|tib)',
    // (holdout43) the floor in words and the business's first deposits as its age: "First deposits are from May of this year and
    // we need twelve months minimum"
    '(one|two|three|six|nine|twelve|eighteen|twenty-four) (months?|years?|yrs?) (minimum|min)\\b(?! (balance|revenue|deposits|funding|deal))',
    '(first|earliest|oldest) deposits? (are|were|is|was) (only )?(from|in|dated)|(first|earliest|oldest) deposits? (start|started|begin|began|go back|date)',
    // (rfix24) a letter's wording of the floor and of the business's age: "continuously operating for a period of less than twelve
    // (12) months", "in operation for fewer than 2 years", "the Merchant commenced operations approximately ten (10) months ago"
    '(operating|operated|in operation|in business|trading|open) for (a period of )?(less than|fewer than|under|not less than|at least) ([a-z-]+ )?(\\(?\\d{1,2}\\)? )?(full )?(calendar )?(months?|years?)',
    '(commenced|began|begun|started|opened) (its )?(operations|operating|business|trading)( approximately| about| roughly| only| just| some)? ([a-z-]+ )?(\\(?\\d{1,2}\\)? )?(months?|weeks?) ago'], w: 3 },
  { category: 'default_history', phrases: ['defaulted', 'settled for', 'open judgment'], w: 3 },
  // (holdout16) a balance the funder (or one before it) wrote off: "we charged it off", "charged off $18k", "wrote the balance off"
  { category: 'default_history', phrases: ["(charged|wrote|written|writing|charging) (it |him |her |them |that |the (balance|deal|advance|account|position|loan|file) )?off|charged-off"], w: 3 },
  // (holdout16) the merchant or owner on the funder's own list of those it will not fund again (weaker: a state or a sector on
  // such a list names its own reason, which comes first)
  { category: 'default_history', phrases: ["(do[- ]not[- ]fund|dnf|no[- ]fund|blacklist|black list|blocked|banned|burn) list|blacklisted"], w: 2 },
  // (holdout15) the bank account's age is no time in business: "moved banks in September", "bank is too new for us",
  // "we need 3 full months at the same bank" (category other, named before the "too new" it explains)
  // (holdout29) a bank changed within the statements' months ("changed banks mid-October", "switched accounts mid-month"), the
  // deposits not tied across the switch: the revenue cannot be verified (weighed above the bare bank change, category other)
  { category: 'verification', phrases: ['(moved|switched|changed) (banks|bank accounts?|accounts) mid[- ]?[a-z]+', 'mid[- ]?[a-z]+ (bank|account) (change|switch)', 'nothing ties( (the|them|it|out|up))?'], w: 4 },
  { category: 'other', phrases: ['(moved|switched|changed|new) banks', '(the |their |new |business |operating )?(bank|bank account|account) (is |was )?too (new|young|fresh)', '(months?|mos?) (at|with) the same bank'], w: 3 },
  { category: 'verification', phrases: ['doctored', "don't tie out", "doesn't tie out", 'edited', "(doesn't|does not|don't|do not) (match|carry)"], w: 3 },
  // (holdout29) a business next to a restricted sector, however near: "cannabis-adjacent", "hemp adjacent", "crypto-adjacent"
  { category: 'industry', phrases: ['(cannabis|hemp|cbd|marijuana|kratom|vape|gambling|gaming|firearms?|crypto\\w*|adult)[- ]adjacent'], w: 3 },
  { category: 'industry', phrases: ["(not|no longer) (doing|funding|taking|touching) [a-z/&]+( [a-z/&]+)?( [a-z/&]+)? (anymore|right now|at the moment)"], w: 2 },
  // ---- each reason as a concept, phrased many ways (holdout7: reasons in new words were the weak part)
  // positions and their load: "carrying two dailies", "a third puts them underwater", "takes 22% of deposits",
  // "took money elsewhere", "a new UCC hit overnight" (a new filing is a new advance, not an old lien)
  {
    category: 'stacking',
    phrases: [
      "(carrying|running|paying|servicing|juggling|sitting on|already (has|have|carrying|running|paying|got))( (two|three|four|five|six|\\d+|multiple|several))? (dailies|weeklies|daily debits|weekly debits|daily payments|positions|advances|mcas|funders|lenders|merchant cash advances)",
      // (rfix16) never the funders the file was shopped to: "shopped it to five funders", "sent it out to three lenders"
      '(?<!\\b(shopped|shopping|sent|sending|took|taking|ran|running|pitched|showed|passed|submitted|submitting|placed|marketed)\\b[^.!?\\n]{0,40}\\b(to|with|across|among) )(two|three|four|five|six|multiple|several) (dailies|weeklies|funders|lenders|mcas|advances)',
      // (holdout12) a further advance found, and where the funder would sit: "a third advance funded Tuesday", "we won't go in behind three"
      '(second|third|fourth|fifth|2nd|3rd|4th|5th) (advance|mca|funder|lender|loan|daily|weekly)',
      '(go|sit|come|be|fund) in behind (two|three|four|five|\\d|them|both|those|that)',
      '(all |both |each |already )?(pulling|taking|debiting|hitting|drafting)( their| the account for)? (dailies|weeklies|daily|weekly)( payments| debits)?',
      '(a|another|the) (third|fourth|fifth|sixth|3rd|4th|5th|6th|next)( one| position| advance| daily| weekly| funder| mca)? (puts|would put|will put|would|will|makes|sinks|breaks|buries|is too much)',
      '(take|takes|taking|eat|eats|eating|use|uses|using|consume|consumes|already at|sitting at)( up)? (about |around |roughly |nearly |over |almost |close to )?\\d+% of (their |the )?(deposits|revenue|sales|receivables|gross|cash ?flow)',
      '(daily|weekly|payment|debit|holdback|remittance)( payment| debit)? (would be|would run|is|was|comes to|works out to|eats) (about |around |roughly |over |nearly |almost )?\\d+% of (their |the )?(deposits|revenue|sales|receivables|gross)',
      '(debt service|payment load|daily load|existing load|current load|existing debits|existing payments) (is |are |would be )?(too (high|heavy|much)|already (high|heavy|too much)|maxed)',
      'took (the |their |some |a |another )?(money|deal|offer|funding|advance|capital|cash) (elsewhere|somewhere else|from (someone|somebody|another funder|another lender)( else)?|with (someone|somebody|another funder)( else)?)',
      'funded (elsewhere|by (someone|somebody|another (funder|lender|shop))( else)?)|(went|gone|going) with another (funder|lender|shop|offer)',
      '(new|fresh|another|recent|additional|second|undisclosed) ucc( filings?| liens?)?|ucc (hit|popped|showed up|landed|appeared)|ucc (filed|filing) (overnight|yesterday|today|this week|last week|recently|since)',
      '(puts|put|leaves|leave|would leave) (them|him|her|the (merchant|business|client)) (underwater|under water|upside down|over the edge|overextended)|over-?extended',
    ],
    w: 3,
  },
  // time in business: "only two years old", "a brand-new LLC", "been open less than a year", "we need 3 years in business"
  {
    category: 'time_in_business',
    phrases: [
      '(only|just|barely|not even) (\\d{1,2}|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|a|a few|a couple of) (months?|mos?|years?|yrs?) (old|in business|open|operating|of history|in operation)',
      '(young|brand[- ]new|newly (formed|opened|started|incorporated)|start-?up) (business|company|entity|llc|corp|shop|venture|merchant)',
      "(been (open|around|operating|in business|trading))( for)? (only|just|less than|under|barely|not even)",
      '(need|needs|require|requires|want|wants|minimum( of)?|at least) (\\d{1,2}|one|two|three|four|five) (full )?(years?|yrs?) (in business|of history|operating|of operating history|tib|of seasoning|of time in business|old)',
      '(not enough|insufficient|limited|short|thin) (operating |business )?(history|seasoning|track record)',
      // (holdout11) the floor named as a length of business life: "our floor is a full year in business", "minimum is two years in business"
      '(floor|minimum|min|cutoff|requirement|rule)( is| of)? (at least )?(a|one|two|three|\\d{1,2}) (full )?(years?|yrs?|months?|mos?) (in business|of (history|tib|time in business|operating history)|old)',
    ],
    w: 3,
  },
  // revenue: "October deposits were $19k", "November is tracking lower", "four straight months above $40k", "seasonal"
  {
    category: 'low_revenue',
    phrases: [
      '(deposits|revenue|sales|volume|gross|receipts)( in [a-z]+| for [a-z]+)? (were|was|are|is|came in( at)?|ran|run|averag\\w*|of only|only|total\\w*|hit) (only |just |about |around |roughly |under |below |barely |less than )?\\$?\\d[\\d,.]*k?\\b(?!%)',
      '(tracking|trending|running|coming in|came in|pacing) (lower|down|light|short|behind|soft|under|below|weak)',
      'seasonal(ity)?|off[- ]?season|slow (season|months|winter|summer)',
      '(revenue|deposits|sales|volume|gross|receipts) (is |are |was |were |look |looks )?(too |way too |far too |very )(small|low|light|thin|weak|soft)',
      '(revenue|deposits|sales|volume|cash ?flow)( is| are)? (too |very |really |way too )?(inconsistent|erratic|choppy|lumpy|volatile|sporadic|uneven|all over the place)',
      '(\\d+|one|two|three|four|five|six) (straight|consecutive|clean|full) months (above|over|of at least|at|north of|of) \\$?\\d[\\d,.]*k?',
      '(revenue|deposit|deposits|sales|volume|gross) (floor|minimum|min|requirement|threshold)',
      // (holdout10) "deposits are averaging right around 31k", "our minimum on salons is 40k a month"
      '(deposits|revenue|sales|volume|gross) (are|is|were|was) (averaging|running|coming in|tracking)( at)?( right)?( around| about| under| below| near)? \\$?\\d[\\d,.]*k?',
      '(minimum|min|floor|cutoff|threshold)( on [a-z /&-]{1,30})? (is|of|sits at) \\$?\\d[\\d,.]*k? (a|per|/|each) ?(month|mo)\\b',
      '(revenue|deposits|sales|volume) (dipped|dips|fell off|falls off|dropped off|drops off|slowed|collapsed|tanked|cratered|shrank|shrunk)',
      '(not enough|insufficient) (cash ?flow|revenue|deposits|sales|volume)|cash ?flow (is |are )?(too )?(thin|weak|tight|light|low)|(thin|weak|tight|light|low) cash ?flow',
      // (rfix16) the ask set against the month's deposits and found too big: "65k against about 74k a month in deposits is too big a
      // ratio", "40 on 30k monthly revenue is too much"
      '\\$?\\d[\\d,.]*k? (against|on|vs\\.?|versus|over) (about |around |roughly |only |just |maybe )?\\$?\\d[\\d,.]*k? (a|per|/|in|of) ?(month|mo|monthly)\\b[^.!?\\n]{0,80}\\btoo (big|large|high|much|rich)|(ask|amount|advance|request)[^.!?\\n]{0,40}\\btoo (big|large|high) (a |of a )?(ratio|multiple|percentage) (of|to|for|against) (the |their |monthly )*(revenue|deposits|sales|volume)',
    ],
    w: 3,
  },
  // balances: "balances sit near zero", "ADB of $1,200", "average balance is too thin", "no cushion"
  {
    category: 'low_balance',
    phrases: [
      '(average|avg|ending|daily|typical)( daily| ending)? balances? (is |are |was |were |runs? |sits? |hovers? )?(too |very |really )?(thin|low|light|tiny|small|near zero|(under|below|less than|around|about) \\$?\\d[\\d,.]*k?)',
      '(account|accounts|balance|balances)( is| are| runs| goes| sits| gets)?( basically| nearly| almost| practically| close to)? (empty|dry|drained|wiped out|at zero|tapped out)|(runs?|ran|running) (dry|on fumes|empty)',
      'balances? (run|runs|running|sit|sits|sitting|hover|hovers|hovering|stay|stays) (thin|low|light|near|around|under|below|close to)',
      '(adb|average daily balance|avg daily balance|average balance)( is| of| was| at| around)? (only |just |about |around |under |below )?\\$?\\d[\\d,.]*k?',
      '(no|not enough|zero|little) (cushion|reserves|cash on hand|cash left|money left)',
    ],
    w: 3,
  },
  // days below zero: "11 days with a negative ending balance", "dipped into the red", "ran overdrawn"
  {
    category: 'negative_days',
    phrases: [
      '(\\d+|several|multiple|many|too many|a lot of|a bunch of|a dozen) days (with (a |an )?|in the |at a |of |below |under )?(negative|overdrawn|below zero|in the red|overdraft|zero)',
      'negative (ending |daily |end of day |closing )?balances?',
      '(went|goes|going|dipped|dips|dipping|ran|runs|running|sits|sat|sitting|was|were|slipped|slips) (negative|below zero|into the red|overdrawn|in the red)',
      // (holdout13) "the operating account is negative in every one of the four months", "it only gets above zero on deposit days"
      '(account|balance|it|they) (is|are|stays|stay|stayed) negative (in|on|for|most|every|each|all|half)',
      'only (gets|goes|got|went|comes|came|climbs|climbed) (back )?(above|over) zero',
    ],
    w: 3,
  },
  // returned items: "bounced payments", "9 returns in October", "NSF activity"
  {
    category: 'nsf',
    phrases: [
      '(returned|bounced|rejected|reversed) (items?|payments?|ach(es)?|debits?|checks?|transactions?)',
      '(insufficient|non-?sufficient) funds',
      '(\\d+|several|multiple|many|too many|a lot of|a bunch of) (returns|nsfs?|returned items|bounces|bounced items)',
      'nsf (fees|charges|activity|count|items|history)',
    ],
    w: 3,
  },
  // credit: "bruised credit", "the bureau came back at 571", "FICO floor", "too many derogs"
  {
    category: 'credit_score',
    phrases: [
      '(low|thin|weak|poor|bad|bruised|damaged|derogatory|ugly|rough|challenged|subprime|sub-prime) (personal )?(credit|fico|score|bureau|beacon)',
      '(credit|bureau|fico|score|beacon) (is|was|came back|looks|comes back|sits) (too )?(thin|weak|poor|bad|bruised|ugly|rough|low|challenged)',
      '(fico|score|credit|beacon|bureau)( came back| came in| comes in| is| was| of| at| sits at| pulled)( at| of| a)? (only |just )?[3-7]\\d\\d(?![\\d%]|,\\d|k\\b)',
      'derogs?|derogatory(?! public)|late pays?|(recent|multiple|too many) (lates|late payments|inquiries)',
      '(score|fico|credit|beacon) (floor|cutoff|cut-off|minimum|min|requirement)',
      // (rfix) the score read out after the pull it came from: "ran the guarantor's bureau on the bakery: 512", "pulled credit - 561"
      "(bureau|credit|fico|beacon|tri-?merge|experian|equifax|transunion)[^.;!?\\n]{0,40}?(:|\\s[-\u2013\u2014]) ?[3-7]\\d\\d(?![\\d%]|,\\d|k\\b| ?(months?|days?|weeks?|positions?))",
    ],
    w: 3,
  },
  { category: 'stacking', phrases: ['dailies|weeklies'], w: 2 },
  { category: 'credit_score', phrases: ['bureaus?|credit (pull|report|bureau)|tri-?merge|experian|equifax|transunion|vantage ?score'], w: 2 },
  // defaults, judgments, liens: "a confession of judgment still open on the docket", "sued by a prior funder", "tax lien"
  {
    category: 'default_history',
    phrases: [
      'confession of judge?ment|cojs?',
      // (holdout12) public records are judgments, liens and bankruptcies, not a score: "Derogatory public record: open judgment"
      '(derogatory )?public records?',
      '(open|outstanding|active|unpaid|unsatisfied|pending|recent) (judge?ments?|liens?|tax liens?|collections?|lawsuits?|litigation|suits?)',
      '(prior|previous|past|old|former|earlier) (default|defaults|mca default|funder default|charge-?offs?|bankruptcy)',
      // (holdout22) a bankruptcy by its chapter's shorthand, or the time since it: "a Ch. 13 filed last spring", "seasoning post-discharge"
      '(ch|chap)\\.? ?(7|11|13)(?!\\d)|(post|since|after)[- ](the )?(discharge|bk|bankruptcy|filing)',
      '(sued|lawsuit|litigation|suit|legal action) (by|from|with|against) (a |an |the )?(prior |previous |former |another |other )?(funder|lender|mca|creditor)',
      '(on the|a) docket|court records?|background (search|check) (turned up|showed|shows|came back with|revealed|found)',
      '(tax|irs|state|federal) liens?|(owes|owing) (the )?(irs|state)|back taxes',
      '(stopped|stop|quit) paying (a |an |the |their |his |her )?(prior |previous |former |other )?(funder|lender|mca|advance|loan)',
      '(blocked|stopped) (the |a |their )?(prior |previous )?(funder|lender|mca)s?\'?s? (debits|ach|payments)|ach block',
    ],
    w: 3,
  },
  // the sector: "nightlife is off our box", "we don't touch bars", "a high-risk industry for us"
  {
    category: 'industry',
    phrases: [
      `(${SECTORS}) (is|are|was|isn't|is not|aren't|are not) (off|outside( of)?|not (in|on|within|inside)|excluded|restricted|prohibited|a no|on (our|the) (restricted|excluded|prohibited|no|do[- ]not[- ]fund) list|not something (we|i))`,
      `(we|i) (don't|do not|won't|can't|cannot|no longer|never) (do|fund|touch|write|take|finance|go near|work with|lend to|deal with|consider) (any )?(${SECTORS})`,
      SECTOR_REFUSED,
      '(high[- ]risk|restricted|prohibited|excluded|ineligible|unfundable) (industry|industries|sic|naics|business type|vertical|sector|space|category)',
      "(industry|sector|vertical|space|business type|type of business|line of business) (we|i) (don't|do not|can't|cannot|won't) (do|fund|touch|write|take)",
      "(not|isn't|is not) (a|an) (industry|sector|vertical|space|business type) (we|i)",
    ],
    w: 3,
  },
  // (rfix31) the restricted list in Spanish: "nuestra lista de industrias restringidas", "sector prohibido", "industria de alto riesgo"
  { category: 'industry', phrases: ['industrias? (restringidas?|prohibidas?|excluidas?|de alto riesgo|que no (hacemos|fondeamos|financiamos))|(restringidas?|prohibidas?) (industrias?|sectores?)|sectore?s? (restringidos?|prohibidos?|excluidos?|de alto riesgo)'], w: 3 },
  // the state: "not licensed in Nevada", "a state we can't lend in", "state disclosure law"
  {
    category: 'restricted_state',
    phrases: [
      "(state|states) (we|i) (don't|do not|can't|cannot|won't|aren't able to|are not able to) (fund|do|lend|operate|work) in",
      "(don't|do not|aren't|are not|not) (licensed|registered|permitted|allowed) (to (fund|lend|operate|do business) )?in",
      '(state|local) (law|laws|regulation|regulations|licensing (rules|requirements))|disclosure (law|laws|rules|requirements|regulations|regime)',
      '(our|the) (state )?(exclusion|excluded|restricted) (list|states)',
      "(don't|do not) (operate|lend|fund) in (that|this|the|your merchant's) state|outside (our|the) (footprint|states we (serve|fund|cover))",
    ],
    w: 3,
  },
  // size: "ceiling on new relationships is $100k", "150 is past what our desk can write", "too big a ticket"
  {
    category: 'deal_size',
    phrases: [
      '(ceiling|cap|limit|max|maximum|exposure( limit| cap)?|max(imum)? (exposure|ticket|deal|advance|funding))( on [a-z -]{1,30})? (is|of|at|tops out at|maxes out at|sits at) \\$?\\d[\\d,.]*k?',
      "most (we|i) (can|will|are able to) (write|do|fund|go)( on [a-z -]{1,30})? is \\$?\\d[\\d,.]*k?",
      '(past|beyond|above|over|more than|bigger than|larger than|exceeds?|exceeding) (what )?(our|we|the) (desk |program |shop |house )?(can |will |are able to )?(write|do|fund|go|limit|cap|max|maximum|ceiling|exposure|appetite|range)',
      'too (big|large|small) (a|of a) (deal|ticket|request|ask|file|advance)',
      // (rfix7) the request measured against a program's written limit, no "our" before it: "request exceeds program maximum",
      // "the ask is above the product limit", "over program max" (the limit of the deal, not a score's or a revenue's floor)
      '(request|ask|amount|deal|ticket|advance|it|file)( requested)? (exceeds?|exceeded|exceeding|is (above|over|beyond|outside)|(goes|went|runs) (above|over|past)) (the |our |its )?(program|product|credit box|guideline|policy)( \\w+)? (max|maximum|limit|limits|cap|ceiling)',
      "(more than|over|double|twice|triple|three times) (double |twice )?what (we|we'd|we would|we will|we can|our desk)( [a-z']+){0,3} (put out|write|fund|do|go|advance)",
      '(minimum|min) (deal|ticket|advance|funding|amount|size) (is|of) \\$?\\d[\\d,.]*k?',
      '(below|under) our (minimum|min|floor) (deal|ticket|funding|advance|size|amount)',
      '(ticket|request|ask|deal size)( is)? (too (big|large|small|rich)|over our|above our|below our|under our)',
      // (holdout36) the ask measured against the revenue: "a $150,000 request against $62,000 in monthly deposits is 2.4x
      // revenue; our ceiling is 1x", "the ask is three times monthly sales" (the amount too big for the business, not thin sales)
      "(request|ask|amount requested|requested amount|advance|ticket)[^.;!?\\n]{0,80}\\b(\\d+(\\.\\d+)?\\s?x|(two|three|four|five|\\d+(\\.\\d+)?) times)( (their|the|its|his|her|monthly|average|avg|of))* (monthly )?(revenue|deposits|sales|gross|volume)",
    ],
    w: 3,
  },
  // verification: "doesn't tie out", "the font changes halfway down page 2", "couldn't verify", "DecisionLogic came back different"
  {
    category: 'verification',
    phrases: [
      "(statements?|bank statements?|numbers|deposits|balances?|figures|pages?|docs|documents|application|ending balance|opening balance)( [a-z'&]+){0,4} (don't|doesn't|do not|does not|didn't|did not|won't|wouldn't) (tie|match|reconcile|add up|line up|foot|agree)",
      "(font|fonts|formatting|typeface|spacing|alignment) (changes|change|changed|differs|is different|looks off|doesn't match|don't match|is inconsistent)",
      'altered|manipulated|tampered|photoshopped|fabricated|forged|falsified|misrepresent\\w*',
      '(couldn\'t|could not|can\'t|cannot|unable to|were unable to|failed to|not able to) (verify|confirm|validate|authenticate)',
      "(decision ?logic|plaid|bank login|bank verification|verbal|merchant interview|site visit|landlord verification|phone verification|verification call)( [a-z]+){0,3} (failed|came back (bad|negative|different|wrong)|didn't (match|work|go through|happen)|no[- ]show|never (happened|completed))",
      '(pulled|showed|shows|came back with|returned|shows) (different|other|lower|higher) (balances|numbers|deposits|figures|transactions|activity) (than|from)',
      "(identity|id) (theft|issues?|mismatch)|(account|bank account) (doesn't|does not) belong|(name|owner|ownership) (doesn't|does not) match",
    ],
    w: 3,
  },
  // the merchant went silent on verification: "asked them to connect DecisionLogic and got no response"
  { category: 'verification', phrases: ["(got|received|heard) no (response|reply|answer)|never (responded|connected|heard back|called back|logged in)|(didn't|did not|won't|wouldn't|refused to) (respond|connect|link|log in)"], w: 2 },
  // holdout8: reasons in the words of a program's rules
  // seasoning, operating history in months: "requires twelve months of seasoning", "about five months of operating history", "not seasoned enough"
  {
    category: 'time_in_business',
    phrases: [
      "(\\d{1,2}|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|eighteen|twenty-four|a few|a couple of|a full|a) (full )?(months?|mos?|years?|yrs?) (of )?(seasoning|operating history|business history|trading history|history|time in business|track record|of operation|in operation)(?! (post|since|after)[- ](the )?(discharge|bk|bankruptcy|filing|default|judge?ment|lien|settlement))",
      "(seasoning|operating history|time in business|tib) (requirement|minimum|rule|threshold|floor|cutoff|of (at least|only|just|about|under))|(minimum|min|required) (seasoning|operating history|time in business)|(not|isn't|aren't|insufficiently|under-?) ?seasoned|unseasoned",
      "(reach|reaches|hit|hits|get to|gets to|turn|turns|cross|crosses|have|has) (a full|one|their first|a|the one[- ]year|their one[- ]year|the 12[- ]month|the twelve[- ]month) (year|anniversary|year mark|month mark)",
    ],
    w: 3,
  },
  // (rfix25) the business's age in Spanish: "solo tiene 7 meses operando", "apenas lleva ocho meses en el negocio", "nuestro mínimo
  // es 1 año en negocio", "el requisito es de dos años de operación"
  {
    category: 'time_in_business',
    phrases: [
      "(?:solo|s\u00f3lo|apenas|nada m[a\u00e1]s) (?:tiene|lleva|tienen|llevan|cuenta con) (?:\\d{1,2}|un|uno|dos|tres|cuatro|cinco|seis|siete|ocho|nueve|diez|once) (?:meses|mes|a[n\u00f1]os?) (?:operando|en (?:el )?negocio|abiert[oa]s?|de operaci[o\u00f3]n|funcionando|de historial)",
      "(?:m[i\u00ed]nimo|requisito|piso)(?: es| de)?(?: de)? (?:\\d{1,2}|un|uno|dos|tres|cuatro|cinco|seis|siete|ocho|nueve|diez|once) (?:a[n\u00f1]os?|meses) (?:en (?:el )?negocio|operando|de operaci[o\u00f3]n|de historial)",
    ],
    w: 3,
  },
  // (holdout19) the business's time counted from its present entity or tax ID, not the years on the app: "the EIN was only
  // registered in March", "we need 12 months under the current EIN", "the new LLC was formed in June"
  {
    category: 'time_in_business',
    phrases: [
      "(ein|tax id|tin|fein|entity|llc|corporation|corp)( number)?( on [a-z ]{1,30})? (was |is |got |were )?(only |just |recently |newly )?(registered|formed|issued|created|set up|organized|filed|obtained)( in| on| last| this| back in)",
      "(\\d{1,2}|one|two|three|six|nine|twelve|eighteen|twenty-four) (full )?(months?|mos?|years?|yrs?) (under|on|with) (the|their|this|its|a) (current|new|present|same) (ein|tax id|tin|fein|entity|llc|ownership|corporation|corp)",
    ],
    w: 3,
  },
  // a score under the floor, however far apart: "score's under our floor", "the 598 is below our credit floor"
  { category: 'credit_score', phrases: ["(score|fico|beacon|bureau|credit)('s| is| was| came in| came back| of \\d{3})? (under|below|beneath|short of|less than) (our|the) (credit |score |fico )?(floor|minimum|cutoff|cut-off|min|requirement|threshold)"], w: 3 },
  // where the merchant is domiciled or registered: "LA-domiciled merchants", "domiciled in Louisiana", "holding Louisiana until the rules settle"
  { category: 'restricted_state', phrases: ['domicil\\w*|(state|jurisdiction) of (incorporation|formation|registration)|(new|pending|upcoming) (disclosure|licensing|lending|commercial financing) (rules|law|laws|regulations|requirements|regime)'], w: 2.5 },
  // (holdout17) the lender's own licence for lending in a state: "until our CFL license comes through", "our lending licence is pending"
  { category: 'restricted_state', phrases: ["(cfl|lending|lender's|lenders|finance lenders?|commercial (lending|financing|finance)|state|money transmitter|broker's|brokers|sales[- ]finance) licen[cs]es?|licen[cs]e (comes|come|goes|go) through|licen[cs]e (is |still )*(pending|in process|under review|not (yet )?(approved|issued))"], w: 3 },
];


/** US states as lenders write them (name, postal code). A restricted-state decline names one near "fund", "in" or "licensing". */
export const STATES: Array<[string, string]> = [
  ['alabama', 'al'], ['alaska', 'ak'], ['arizona', 'az'], ['arkansas', 'ar'], ['california', 'ca'], ['colorado', 'co'], ['connecticut', 'ct'],
  ['delaware', 'de'], ['florida', 'fl'], ['georgia', 'ga'], ['hawaii', 'hi'], ['idaho', 'id'], ['illinois', 'il'], ['indiana', 'in'], ['iowa', 'ia'],
  ['kansas', 'ks'], ['kentucky', 'ky'], ['louisiana', 'la'], ['maine', 'me'], ['maryland', 'md'], ['massachusetts', 'ma'], ['michigan', 'mi'],
  ['minnesota', 'mn'], ['mississippi', 'ms'], ['missouri', 'mo'], ['montana', 'mt'], ['nebraska', 'ne'], ['nevada', 'nv'], ['new hampshire', 'nh'],
  ['new jersey', 'nj'], ['new mexico', 'nm'], ['new york', 'ny'], ['north carolina', 'nc'], ['north dakota', 'nd'], ['ohio', 'oh'], ['oklahoma', 'ok'],
  ['oregon', 'or'], ['pennsylvania', 'pa'], ['rhode island', 'ri'], ['south carolina', 'sc'], ['south dakota', 'sd'], ['tennessee', 'tn'], ['texas', 'tx'],
  ['utah', 'ut'], ['vermont', 'vt'], ['virginia', 'va'], ['washington', 'wa'], ['west virginia', 'wv'], ['wisconsin', 'wi'], ['wyoming', 'wy'],
];
/**
 * Postal codes that are also English words ("in", "me", "or", "ok", "hi"...): matched only in
 * upper case in the original text or right after "fund"/"in", never as bare words.
 */
export const AMBIGUOUS_STATE_CODES = new Set(['al', 'ar', 'co', 'de', 'hi', 'id', 'in', 'la', 'ma', 'me', 'mo', 'ms', 'ne', 'oh', 'ok', 'or', 'pa', 'wa', 'mi', 'mt', 'ut', 'va']);
/**
 * A state named before its restriction (decline-category.ts): "Vermont is on our excluded list", "ND is restricted for us",
 * (holdout17) "California's off the table for us", "Nevada is a no-go".
 */
export const STATE_RESTRICTED_AFTER: string[] = [
  '(?:is|are|\'s|’s) (?:on (?:our|the) )?(?:excluded|restricted|prohibited|blocked|off[- ]limits|no[- ]fund|do[- ]not[- ]fund)',
  '(?:is|are|\'s|’s) (?:off the table|a no[- ]go|closed to us|not open to us|on (?:ice|hold) for us)',
];
/**
 * (holdout25) A state refused in the underwriter's shorthand, a decline by itself ({STATE} a state's name or unambiguous
 * code; classifier cues.ts and decline-category.ts): "No NJ, sorry.", "we don't do NJ", "NJ is off our list".
 */
export const STATE_DECLINE: string[] = [
  "(?=no )(?:^|(?<=[.!?\\n;:]\\s*))no {STATE}(?=\\s*(?:[.,!;:\\n]|-|$|for us|on our end|here|sorry|unfortunately|anymore|right now|at the moment|at this time))",
  "(?:we|i) (?:don't|do not|won't|will not|can't|cannot|never|no longer) (?:do|touch|fund|write|go into|lend in|work in|take|book|cover|service) (?:any )?{STATE}\\b(?! (?:and|or|if|unless|when)\\b)",
  "{STATE}(?:'s| is| are) (?:off|not on|no longer on|not in|not part of) (?:our|the) (?:list|map|menu|state list|states list|approved states?(?: list)?|footprint|program)",
];
/**
 * (holdout25) A portal grid that labels both a funding amount and a larger "purchase price": the price of the receivables
 * is then what is paid back ("Funding amount $60,000 / Purchase price $82,200": 1.37). Labels at the head of the line.
 */
export const PRICE_AS_PAYBACK = {
  price: '(purchase|purchased) price',
  funding: '(funding|funded|advance|disbursement|disbursed|net funding) amount|amount (funded|advanced|to (be )?fund(ed)?)',
};
/** Where a state is the reason: "merchant is in California", "we can't fund CA", "not licensed in NY". */
// (holdout28) "our counsel has us out of Louisiana entirely": the state exited, said of the lender by someone else
export const STATE_CONTEXT = ["(paused|pausing|suspended|suspending|stopped|quit|halted|froze|frozen|holding|holding off on|exited|exiting|avoiding)( funding| doing| taking| accepting| writing| booking| approving| underwriting| lending (?:in|to)| working with)?( all| any| new)*", "(we're|we are) out of", "(?:has|have|had|keeps?|kept|puts?|put|got|gets?|took|takes|pulled) us (?:all the way |completely |fully )?out of", "(businesses|merchants|companies|files|deals) (located |based )?in", "(don't|do not|won't|can't|cannot) (do|touch|lend in|lend to|work in|go into|go in)", "(merchant|business|they|client|company)('s| is| are) (located |based |headquartered |domiciled |registered |incorporated |organized )?in", "they're (located |based )?in", "(can't|cannot|don't|do not|won't|not able to) fund", 'licensed in', 'files? (in|from)', 'licensing',
  // (holdout31) a state excluded by the program: "our funding bank's program excludes AK and HI merchants", "we're not funding in Alaska"
  '(excludes?|excluding|excluded)( all| any)?( merchants| businesses| files| deals)?( in| from| located in| based in)?', "(not|aren't|are not|isn't|is not|no longer) (funding|lending|writing|booking|approving|doing deals|taking (files|deals))( deals| files| merchants)? in"];

/** Industries lenders restrict (as merchants' files name them). */
export const INDUSTRIES: string[] = [
  'vape', 'smoke shops?', 'cbd', 'cannabis', 'dispensar(y|ies)', 'firearms?', 'guns?', 'adult', 'gambling', 'casinos?', 'trucking', 'freight', 'construction',
  'contractors?', 'auto sales', 'car dealers?', 'used cars?', 'non-?profits?', 'real estate', 'law firms?', 'attorneys?', 'travel agenc(y|ies)', 'crypto\\w*', 'pawn', 'farms?', 'farming', 'growers?', 'agricultur(e|al)',
  // (rfix22) medical practices paid by insurers ("medical w/ insurance receivables", "urgent care", "billing insurers") are a class
  // funders exclude: the receivables are the insurer's to pay
  'medical', 'urgent care', 'insurance (receivables|recievables|reimburse\\w*|billing)',
  'restricted industry', 'industry',
];

/** Number words, for amounts and terms written out ("forty thousand", "six months"). */
export const NUMBER_WORDS: Record<string, number> = {
  one: 1, two: 2, three: 3, four: 4, five: 5, six: 6, seven: 7, eight: 8, nine: 9, ten: 10, eleven: 11, twelve: 12, thirteen: 13, fourteen: 14,
  fifteen: 15, sixteen: 16, seventeen: 17, eighteen: 18, nineteen: 19, twenty: 20, thirty: 30, forty: 40, fifty: 50, sixty: 60, seventy: 70,
  eighty: 80, ninety: 90,
};
/** Digits as read out in a factor ("one point three two" is 1.32). */
export const DIGIT_WORDS: Record<string, string> = { zero: '0', oh: '0', one: '1', two: '2', three: '3', four: '4', five: '5', six: '6', seven: '7', eight: '8', nine: '9' };
export const NUMBER_SCALES: Record<string, number> = { hundred: 100, thousand: 1000, grand: 1000, million: 1_000_000 };

/**
 * A bare number meaning thousands ("can do 40", "good for the 80", "at 60 it's 1.45"): the words
 * before it that make it an amount. Read only when the deal's requested amount is known and the
 * number, in thousands, is within a tenth to four times of it.
 */
export const SHORTHAND_AMOUNT = {
  before: ["can do", "(we're |we are |i'm )?good for", 'do', '(only|just)( for| at| do)?', '(can|could) go', '(at|for) the requested', 'is', 'for the( full| whole| entire)?', 'the( full| whole| entire)?', 'at', 'around', 'about', 'approved?( for)?( the)?', 'get to', 'take', 'squeeze( out)?', 'stretch( to)?', 'swing', 'maybe',
    // (holdout11) "a lock for all 95", "landed at 42", "comfortable at 35"; (holdout21 probes) "the whole 40"
    'all( of)?( the)?', 'landed( at| on)?', 'comfortable (at|with)', 'full'],
  /**
   * (holdout12) Words right after the number that make it the lender's amount: "42.5 is where I land", "35 is my
   * number", "50 is the best I can do" (the number opening its sentence or after a comma).
   */
  after: ['is where (i|we) (land|come in|end up|top out|can get|can go|can be|am|are)', 'is (my|our) (number|max|ceiling|best|limit)',
    // (holdout16) "35 is the number", "40 is the max"
    'is the (number|max|ceiling|limit)',
    // ... contracted: "35's the number", "40's my max"
    "['\u2019]s (the|my|our) (number|max|ceiling|limit)", 'is the (best|most) (i|we) can (do|go)', 'is as (high|far) as (i|we) (can )?go',
    // (holdout14) the amount accepted in a word: "35 works but its dailies only", "60 is fine"
    'works( for (me|us))?', '(is|are) (fine|ok|okay|doable)'],
  /** Words right after that make it something else (a term, a count, a percentage). */
  notBefore: ['%', 'days?', 'weeks?', 'wks?', 'months?', 'mos?', 'mo', 'payments?', 'pmts?', 'positions?', 'nsfs?', 'negs?', 'in ', 'a month', 'percent', 'pts?', 'points?',
    // (holdout28) a term in business days or a count of debits: "best I can do is 120 business days", "is 90 daily debits"
    '(?:business|biz|bus\\.?|working|banking) days?', '(?:daily |weekly )?(?:debits?|draws?|installments?|remittances?)', 'dailies', 'weeklies'],
};

/** Payment frequencies as typed in shorthand. */
export const FREQUENCY_SHORTHAND: Record<string, 'daily' | 'weekly' | 'bi-weekly' | 'monthly'> = {
  dly: 'daily', 'a day': 'daily', 'per day': 'daily', wkly: 'weekly', 'a week': 'weekly', 'per week': 'weekly', 'a wk': 'weekly', 'per wk': 'weekly', 'bi-wkly': 'bi-weekly',
  mthly: 'monthly', 'a month': 'monthly', 'per month': 'monthly', 'a mo': 'monthly', 'per mo': 'monthly',
  // (holdout18) Spanish, as bilingual reps write it after the amount: "$2,530.00 semanal", "$450 diarios", "por semana"
  semanal: 'weekly', semanales: 'weekly', 'por semana': 'weekly', 'a la semana': 'weekly', diario: 'daily', diaria: 'daily', diarios: 'daily', 'por d\u00eda': 'daily', 'por dia': 'daily', 'al d\u00eda': 'daily', 'al dia': 'daily',
  mensual: 'monthly', mensuales: 'monthly', 'al mes': 'monthly', 'por mes': 'monthly', quincenal: 'bi-weekly',
};

/**
 * Buy rate (the lender's price; the factor logged) and sell rate (the broker's ceiling, not logged as the factor unless the
 * payback or the payments the lender states are priced at it, rfix11: offers.ts soldAt).
 */
export const RATE_LABELS = { buy: ['buy rate', 'buy'], sell: ['sell rate', 'max sell', 'sell', 'max', 'up to', 'cap'] };

/** Holdback (the share of deposits a lender debits): a stacking reason in a decline, not a term. */
/**
 * Sentences that decide nothing however they read: funders' footers ("reserves the right to decline
 * any file", "Declined files may be resubmitted"), both outcomes named as alternatives ("approve or
 * decline", "approved or declined"), marketing signatures ("Declined by the banks? We fund in 24 hrs.
 * NSFs OK") and zero counts ("Declined ACH count: 0"). The sentence around a match is blanked before
 * any decision or decline-reason cue is scored (offer terms are still read from it).
 */
/** An outcome named as a kind (a list of them decides nothing). */
const OUTCOME_WORD = '(approvals?|approved|counters?|countered|counter-?offers?|counter offers?|declines?|declined|denials?|rejections?|modified offers?|pending( (information|info|docs|documents|stips|review))?)';
export const BOILERPLATE: string[] = [
  // (holdout43) a mailing tool's footer: "Unsubscribe: https://... | Manage preferences", "Unsubscribe | Update your email
  // preferences" (the sender's software, not a person asking off the list: vocabulary.ts UNSUBSCRIBE)
  // (holdout43 follow-up) ... and the advertised speed beside it: "Most of our lines of credit are approved in under 24 hours",
  // "90% of files are funded within 48 hours" (what happens to files in general, not this deal's decision)
  '(most|many|all|\\d{1,3}%|\\d[\\d,]*\\+?) (of )?(our |the |your )?([a-z-]+ ){0,4}(are|get|were|is) (approved|funded) (in|within) (under |less than |as little as |as few as )?(\\d+|one|two|three|twenty-four|forty-eight)[- ](hours?|hrs?|minutes?|mins?|business days?|days?)',
  'unsubscribe\\b[^\\n|]{0,100}\\|\\s*(manage|update|change|edit|email) (your )?(email |mail |subscription |communication )?(preferences|settings|subscriptions?)',
  'reserves? the right to (decline|refuse|approve)',
  '(decline|approve) any (file|deal|submission)',
  '(declined|approved) (files|deals|submissions|merchants) (may|can|will) be',
  'approved (iso|broker)s?( partners)?( only)',
  '(approve|approved|approval|accept|accepted),? or (decline|declined)|(decline|declined),? or (approve|approved|accept)',
  // both outcomes named as what may come (holdout10): "approvals and declines are returned within two days",
  // "approval/decline notices post here", "denials or approvals go to the portal"
  '(approvals?|approved|accept(ances?|ed)?)( notices?| decisions?)?,? ?(and|or|and/or|/|&) ?(declines?|declined|denials?|denied|rejections?|rejected)\\b|(declines?|declined|denials?|denied|rejections?)( notices?| decisions?)?,? ?(and|or|and/or|/|&) ?(approvals?|approved|acceptances?)\\b',
  // (holdout15) both outcomes in the trade's words, still to come: "I will circle back with numbers or a pass"
  '(numbers|terms|pricing|an offer|offer|a yes|an approval|approval) or an? (pass|no|decline)\\b|an? (pass|no|decline) or (numbers|terms|pricing|an offer|a yes|an approval)\\b',
  // (holdout19) three outcomes listed as what will come: "your manager will send the approval, counter or decline",
  // "approvals, counteroffers and declines go out by email"
  `${OUTCOME_WORD}, (an? |the )?${OUTCOME_WORD},? (or|and|and/or|&) (an? |the )?${OUTCOME_WORD}\\b`,
  'declined by (the )?(banks?|others|other (lenders|funders)|everyone)\\?',
  'nsfs? (are )?(ok|okay|welcome|fine)|[a-c] (& |and )?([a-c] )?paper (ok|welcome)|we fund in \\d+',
  "declined (ach|payments?|items?|debits?|transactions?)( count)?:? ?(0|none|zero)",
  // (holdout20) a funder's footer on every message: "Approvals are subject to underwriting review and may be declined
  // before funding", "offers can be withdrawn prior to closing" (said of all files, plural, or of none in particular)
  '(all )?(approvals|offers|decisions) (are|remain) subject to|(may|can|could) be (declined|withdrawn|rescinded|cancell?ed|revoked|modified) (before|prior to|at any time (before|prior to)) (funding|closing|contracts)',
  // a portal's standing reservation: "Vantage Row may decline or modify any offer prior to funding"
  // (holdout40) ... also as a list: "OVMF may decline, modify or withdraw any offer at its sole discretion"
  '(may|can|could) (decline|modify|withdraw|change|amend|rescind|revoke|cancel)((,|,? or|,? and|,? and/or| ?/ ?) (decline|modify|withdraw|change|amend|rescind|revoke|cancel))* (any|an|this|the) (offer|file|deal|approval|indication)',
  // (holdout40) a formal letter's legal disclaimer, decided of no file: "This message and any attachments are confidential",
  // "Any indication of terms is not a commitment to purchase", "remains subject to final underwriting", "this approval may
  // be rescinded if any information is found inaccurate", "it does not make loans"
  '(this|the) (message|e-?mail|communication)( and any (attachments|files)( (to it|transmitted with it))?)? (is|are|may be) (confidential|privileged|intended (solely|only))',
  'confidentiality (and disclosure |notice|disclaimer|statement)|legal disclaimer|disclaimer:',
  "(is|are|does) not (constitute )?an? (commitment|offer|promise|guarantee) to (lend|purchase|fund|finance|advance|extend)|not a commitment to (lend|purchase|fund|finance)",
  '(any|all) (indications?( of terms)?|offers?|approvals?|terms|pricing)( [a-z]+){0,3} (is|are|remains?|remain) subject to (final |full |further |satisfactory )?(underwriting|verification|review|due diligence)',
  '(this |any |the |such )?(approvals?|offers?|indications?|commitments?) (may|can|could|will) be (rescinded|withdrawn|revoked|cancell?ed|declined|modified|void(ed)?) (if|should|in the event|upon|where|at (its|our) (sole )?discretion)',
  "(it|we) (does|do) not make loans",
  // (holdout33) a calendar invitation's footer: "To stop receiving future updates for this event, decline this event"
  '(accept|decline|reject)( or (accept|decline|reject))? (this|the) (event|invitation|invite|meeting)',
  // (rfix17) an approval of this merchant months back, recalled beside today's answer: "I know we approved them at 20k back
  // in August (they never took it)", "we funded this shop two years ago". Never one taken back in the same sentence ("we
  // approved it in May but have to pull it": a withdrawal, for a person)
  "(we|i)( had| already| previously| originally)? (approved|funded|okayed|ok'd|greenlit)( [\\w'&.-]+){0,4}?( (at|for) \\$?\\d[\\d,.]*k?)? (back )?(in (january|february|march|april|may|june|july|august|september|october|november|december|the (spring|summer|fall|winter))|last (month|year|quarter|spring|summer|fall|winter)|(\\d+|a few|a couple( of)?|two|three|four|five|six|several) (months|years) ago|earlier this year)\\b(?![^.!?\\n]*\\b(but|rescind\\w*|pull\\w*|withdr\\w*|revok\\w*|cancel\\w*|walk\\w* back|no longer|still (good|valid|stands|open))\\b)",
  // (holdout25) the lender's record with other merchants, a decision on none of this deal: "we approved three outfitters
  // last month", "we've funded dozens of salons like this", "we declined a couple of these last quarter"
  "(we|i)('ve| have| already| just)? (approved|funded|closed|declined|turned down|did|done|booked|wrote|written) (\\d+|two|three|four|five|six|seven|eight|nine|ten|a few|a couple( of)?|several|dozens( of)?|hundreds( of)?|plenty( of)?|a bunch( of)?|a handful( of)?|lots of|a lot of|many|tons of|some) (other |similar |more )?(?!(options?|offers?|positions?|payments?|pmts|months|weeks|days|years|times)\\b)[a-z-]+s\\b( [a-z-]+){0,2} ((just |exactly )?(like|similar to) (this|it|them|him|her|yours)|(this|last|in the (last|past)|over the (last|past)) (\\d+ )?(week|month|year|quarter|spring|summer|fall|winter)s?|(already|recently|lately|before|this year|last year))\\b",
  // (rfix28) a decision template's standing sentences, naming every outcome in a condition on the file, decided of none: "Should
  // your file be declined, the principal reason appears ...", "If the application is approved, ...", "Where approved terms differ
  // from those requested ...", "Where additional documentation is required, the file will remain pending". The form's own
  // decision field says which outcome this file got; a condition on the file deciding it is no cue
  '(should|if|where|in the event( that)?) (your|the|this|a|an|any) (file|application|submission|request|merchant|deal)( [a-z]+){0,2}? (be|is|are|gets?|was) (declined|approved|denied|pended|funded|modified)',
  'where (the )?(approved|offered|final) terms differ from',
  'where (additional|further|more) (documentation|documents|information|items|stipulations) (is|are) (required|needed|requested)',
];

export const HOLDBACK: string[] = ['holdback', 'hold back', 'withholding', '\\d+% (holdback|of (their |the )?(deposits|receivables|sales))'];

/**
 * (stop 54) Decision words in other scripts, for checking a writer's bracketed English gloss against the word it glosses
 * (reply-html.ts: "승인 (approved)" is read as its gloss). A gloss saying the opposite of its word ("거절 (approved)": 거절 is a
 * refusal) is a slip one way or the other: a person reads which (review `conflicting_cues`). Negated approvals ("불승인",
 * "不承認", "не одобрено") are refusals.
 */
export const FOREIGN_DECISION_WORDS = {
  approve: ['승인', '承認', '批准', '核准', '可決', 'одобрено', 'одобрен', 'одобрена', 'утверждено', 'موافقة', 'אושר', 'อนุมัติ', 'स्वीकृत', 'εγκρίθηκε'],
  decline: ['거절', '거부', '부결', '拒绝', '拒絕', '拒否', '否決', 'отказ', 'отказано', 'отклонено', 'رفض', 'נדחה', 'ปฏิเสธ', 'अस्वीकृत', 'απορρίφθηκε'],
  /** written right before an approval word, it refuses it */
  negations: ['불', '미', '不', '未', '非', 'не ', 'не', 'ไม่', 'لا ', 'לא '],
};
