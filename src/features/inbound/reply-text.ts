// Turns a lender's email into the text the lender actually wrote: HTML to text (tables to rows,
// blockquotes to "> " lines), then the quoted thread cut away ("> " lines, "On ... wrote:",
// "-----Original Message-----", Outlook "From: / Sent:" blocks) and any forwarded message kept apart,
// because in a forward the answer is often the forwarded part ("see below from UW").
// Pure functions, no I/O; `parsedMailToInput` adapts mailparser's ParsedMail.
import type { ParsedMail } from 'mailparser';
import { htmlToText, normalizeText } from './reply-html';

export { continentalNumbers, htmlToText, normalizeText } from './reply-html';

export interface ReplyInput {
  subject: string;
  text: string;
  html?: string | null;
}

/** mailparser's ParsedMail -> the classifier's input. `html` is null when the message has none. */
export function parsedMailToInput(parsed: ParsedMail): ReplyInput {
  return {
    subject: parsed.subject ?? '',
    text: parsed.text ?? '',
    html: typeof parsed.html === 'string' && parsed.html.trim() !== '' ? parsed.html : null,
  };
}

/**
 * Header evidence that a message is an automatic reply (RFC 3834 `Auto-Submitted: auto-replied`,
 * the `X-Autoreply`/`X-Autorespond` family, `Precedence: auto_reply`, a delivery report), or null.
 * `Auto-Submitted: auto-generated` is deliberately not enough: lender portals send their approvals and
 * declines with it, and those are answers.
 */
export function autoReplySignal(parsed: ParsedMail): string | null {
  const h = parsed.headers;
  const str = (name: string): string => {
    const v = h.get(name);
    if (v == null) return '';
    if (typeof v === 'string') return v;
    if (typeof v === 'object' && 'value' in v && typeof (v as { value: unknown }).value === 'string') return (v as { value: string }).value;
    return String(v);
  };
  const auto = str('auto-submitted').trim().toLowerCase();
  if (auto.startsWith('auto-replied')) return `Auto-Submitted: ${auto}`;
  for (const name of ['x-autoreply', 'x-autorespond', 'x-autoresponse']) if (str(name)) return `${name}: ${str(name)}`;
  const precedence = str('precedence').trim().toLowerCase();
  if (precedence === 'auto_reply') return `Precedence: ${precedence}`;
  const type = str('content-type').toLowerCase();
  const report = h.get('content-type') as { params?: Record<string, string> } | undefined;
  if (type === 'multipart/report' && report?.params?.['report-type']?.toLowerCase() === 'delivery-status') return 'delivery status report';
  return null;
}

// ---------------------------------------------------------------- the reply's own text

export interface ReplyParts {
  /** What the sender wrote in this message, signature and disclaimer removed. */
  own: string;
  /** The body of the first forwarded message, its own quotes removed; null when nothing was forwarded. */
  forwarded: string | null;
  /**
   * (rfix18) Every message of a chain of forwards, the first forwarded message first, each with the date its header states
   * (null when none could be read); absent when nothing was forwarded.
   */
  forwardChain?: Array<{ date: number | null; text: string; zoned?: boolean }>;
  /** Which quote / forward markers were found, for review. */
  markers: string[];
  /** How many lines were cut as quoted thread. */
  quotedLines: number;
}

const RE_ORIGINAL = /^-{2,}\s*(original message|original|reply message)\s*-{2,}\s*$/i;
const RE_FORWARD = /^(-{2,}\s*forwarded message\s*-{2,}|begin forwarded message:?|-{2,}\s*forwarded by\b.*|-{5,}\s*forwarded\b.*)/i;
const RE_ON_WROTE = /^on\b.{4,300}\bwrote:\s*$/i;
/** (holdout30) Zoho Mail's attribution between dashes: "---- On Tue, 03 Nov 2026 11:05:00 -0500 Dana <dana@...> wrote ----". */
const RE_ON_WROTE_DASHED = /^-{2,}\s*on\b.{4,300}\bwrote:?\s*-{2,}\s*$/i;
const RE_FROM_HEADER = /^[*_]?from:[*_]?\s*\S/i;
const RE_HEADER_FIELD = /^[*_]?(sent|date|to|cc|subject):[*_]?\s/i;
const RE_SIG_DELIM = /^--\s*$/;
const RE_MOBILE_SIG = /^(sent from my \w+|sent from (outlook|mail) for \w+|get outlook for \w+|sent via \w+)/i;
const RE_DISCLAIMER =
  /^(confidentiality notice|confidential(ity)?:|disclaimer|notice:|important notice|privileged (and|&) confidential|this (e-?mail|message|communication|transmission) (and any|is intended|may contain|contains confidential|is confidential)|the information (contained|in this|transmitted))/i;
const RE_FWD_SUBJECT = /^\s*(fwd?|fw|tr|wg)\s*:/i;
/**
 * A chat message's header as pasted from Slack or Teams: the poster's name and the time on one line
 * ("Priya Sethi  10:42 AM", "Dev M. [2:31 PM]"). A quoted run opening with one is a pasted conversation the
 * sender is relaying, not the thread being answered: it is read as the sender's own text, each post under its
 * header line, so a post about another business is still told apart by the classifier's other-deal check.
 */
export const RE_CHAT_STAMP = /^[A-Z][\w.'-]*(?: [A-Z][\w.'-]*){0,3},?\s+\[?\d{1,2}:\d{2}(?::\d{2})?\s?(?:AM|PM|am|pm)?\]?$/;

/**
 * (holdout27) A help desk's ticket notification (Zendesk, Freshdesk, Help Scout: "##- Please type your reply above this
 * line -##"): its comments stand newest first, each under its author's line and a time line ("Nov 25, 2026, 10:17 CST");
 * the comments after the first are the thread, the submission among them.
 */
const RE_TICKET = /\b(type|write|enter) your (reply|response) above this line\b|^#{1,3}-.{0,60}above this line.{0,10}-#{1,3}$/i;
const RE_COMMENT_TIME = /^(?:(?:mon|tue|wed|thu|fri|sat|sun)[a-z]*,? )?(?:[a-z]{3,9}\.? \d{1,2},? \d{4}|\d{1,2} [a-z]{3,9},? \d{4}|\d{1,2}[/.-]\d{1,2}[/.-]\d{2,4}|\d{4}-\d{2}-\d{2}),?(?: at)? \d{1,2}:\d{2}(?::\d{2})?\s?(?:am|pm)?(?: [a-z]{2,5}| [+-]\d{4}| \(?utc[+-]?\d*\)?)?$/i;
function commentHeaderAt(lines: string[], i: number): boolean {
  const l = lines[i];
  if (!l || l.length > 80 || /[.!?:,;]$/.test(l) || RE_COMMENT_TIME.test(l)) return false;
  let j = i + 1;
  while (j < lines.length && j <= i + 2 && !lines[j]) j++;
  return j < lines.length && RE_COMMENT_TIME.test(lines[j]);
}

/** A "From: ..." line followed closely by Sent:/Date:/To:/Subject: lines: an Outlook-style quote header. */
function headerBlockAt(lines: string[], i: number): number {
  if (!RE_FROM_HEADER.test(lines[i] ?? '')) return 0;
  let j = i + 1;
  let fields = 0;
  while (j < lines.length && j <= i + 6) {
    const l = lines[j];
    if (RE_HEADER_FIELD.test(l)) fields++;
    else if (l.trim() === '') break;
    else if (fields === 0 && j === i + 1 && !/^\S+@\S+/.test(l) && !/^<?\S+@/.test(l)) break;
    j++;
  }
  return fields >= 2 ? j - i : 0;
}

const STATUS_WORD = /^(?:received|submitted|new|in review|under review|in underwriting|pending(?: \w+)?|approved|countered|counter(?:ed)? offer|declined|rejected|withdrawn|contracts? (?:out|sent|signed)|funded|closed|on hold)$/i;

/**
 * (holdout32) A template's legend of every status a deal can have ("Statuses: Received > In Review > Pending Stips >
 * Approved / Countered / Declined > Contracts Out > Funded") is not a decision: a line of four or more short items
 * split by ">", "/", "|" or arrows, three of them status words, is dropped. The deal's own "Status: Approved" field stays.
 */
export function isStatusLegend(line: string): boolean {
  const body = line.replace(/^\s*(?:statuses|status (?:key|legend|flow)|legend|stages|deal stages|pipeline|workflow)\s*:\s*/i, '');
  const items = body.split(/(?<!\s)\s*(?:->|=>|→|»|>|\/|\|)\s*/).map((x) => x.trim().replace(/[.;,]$/, '')).filter(Boolean);
  if (items.length < 4 || items.some((x) => x.split(/\s+/).length > 4)) return false;
  return items.filter((x) => STATUS_WORD.test(x)).length >= 3;
}

/** The message points to terms below it: "Offer summary below", "terms below", "pricing is below". */
const TERMS_BELOW = /\b(?:offer|terms|summary|pricing|approval details|deal details)\b[^.\n]{0,20}\bbelow\b/i;
/** A labelled line of an offer's terms: "Funded amount: $45,000", "Factor: 1.31", "Daily ACH: $655.00". */
const TERM_LABEL_LINE = /^(?:funded amount|amount|advance|purchase price|approved amount|factor(?: rate)?|buy rate|rtr|payback|total payback|term|daily ach|weekly ach|payment|daily payment|weekly payment|remittance|daily|weekly)\s*:\s*\S/i;

/** (rfix13) The label of a numbered or lettered entry: "1)", "(2)", "3.", "B)", "Option 2:", "Structure #3 -". */
const ENTRY_LABEL = /^(?:(?:option|structure|offer|choice|program)\s*#?\s*(\d{1,2}|[a-h])(?![\w])|\(?(\d{1,2}|[a-h])[).])/i;
function entryLabel(line: string | undefined): string | null {
  const m = line === undefined ? null : ENTRY_LABEL.exec(line.trim());
  return m ? (m[1] ?? m[2]).toLowerCase() : null;
}
/**
 * (rfix13) A "--" line between two entries of one numbered list ("1) $50,000 / 1.35 / 9 months", "--", "2) $40,000 / ..."):
 * the list's separator, not the signature's delimiter. Only where the entry after it is the next of the one before it.
 */
/** (revz) A copyright line: "(c) 2026 Acme Funding LLC", "\u00a9 Acme Funding", "Copyright 2026". */
const COPYRIGHT = /^(?:(?:\(c\)|c\))\s*(?:19|20)\d{2}\b|(?:\u00a9|copyright\b)\s*\S)/i;
function separatesEntries(lines: string[], i: number): boolean {
  let b = i - 1;
  while (b >= 0 && !lines[b].trim()) b--;
  let a = i + 1;
  while (a < lines.length && !lines[a].trim()) a++;
  // the entry before may run over a few lines ("Option 1:", "Amount: $50,000", "Factor: 1.35"): its label is the nearest above
  let k = b;
  while (k >= 0 && k > b - 6 && entryLabel(lines[k]) === null && lines[k].trim()) k--;
  const before = k >= 0 ? entryLabel(lines[k]) : null;
  // (revz) a copyright line under the delimiter ("(c) 2026 Acme Funding LLC") opens the signature, whatever letter came before
  if (COPYRIGHT.test(lines[a]?.trim() ?? '')) return false;
  const after = entryLabel(lines[a]);
  if (before === null || after === null) return false;
  const next = /^\d+$/.test(before) ? String(Number(before) + 1) : String.fromCharCode(before.charCodeAt(0) + 1);
  return after === next;
}

/** Drop the signature delimiter and everything after it, mobile footers and legal disclaimers. */
function trimSignature(lines: string[]): string[] {
  const out: string[] = [];
  for (let i = 0; i < lines.length; i++) {
    const l = lines[i].trim();
    if (RE_SIG_DELIM.test(l) && separatesEntries(lines, i)) continue;
    if (RE_SIG_DELIM.test(l) && out.some((x) => x.trim())) {
      // (holdout33) terms in a signature-like block the message points to ("Offer summary below"): keep the block's
      // labelled lines ("Factor: 1.31", "Term: 90 business days"), not the name, phone or address around them
      if (TERMS_BELOW.test(out.join('\n'))) for (const x of lines.slice(i + 1)) if (TERM_LABEL_LINE.test(x.trim())) out.push(x);
      break;
    }
    if (RE_DISCLAIMER.test(l)) break;
    if (RE_MOBILE_SIG.test(l)) continue;
    if (isStatusLegend(l)) continue;
    out.push(lines[i]);
  }
  while (out.length && !out[out.length - 1].trim()) out.pop();
  while (out.length && !out[0].trim()) out.shift();
  return out;
}

/** The marker of a chain of forwards read at its latest message rather than its first (rfix18). */
export const CHAIN_LATEST = 'a chain of forwards: the latest read';

/**
 * The date a forwarded message's header block states ("Date: Tue, Nov 3, 2026 at 4:55 PM", "Sent: ..."), as a time, and whether it
 * names its zone ("-0800", "PST", "GMT"); null when none. (revs) An all-numeric date whose first two numbers could each be the
 * month ("11/03/2026": 3 November in the US, 11 March in the UK) is not read: which came first cannot be known from it.
 */
function headerDate(lines: string[]): { t: number; zoned: boolean } | null {
  for (const raw of lines.slice(0, 12)) {
    const l = raw.trim().replace(/^[*_]+|[*_]+$/g, '');
    const m = /^(?:date|sent)\s*:[*_]?\s*(.+)$/i.exec(l);
    if (!m) continue;
    const amb = /(?:^|[^\d])(\d{1,2})[/.-](\d{1,2})[/.-]\d{2,4}(?!\d)/.exec(m[1]);
    if (amb && Number(amb[1]) <= 12 && Number(amb[2]) <= 12 && amb[1] !== amb[2]) return null;
    const v = m[1].replace(/\s+at\s+/i, ' ').replace(/\s*\(.*\)\s*$/, '');
    const t = Date.parse(v);
    return Number.isNaN(t) ? null : { t, zoned: /(?:[+-]\d{2}:?\d{2}|\b(?:UTC|GMT|Z|[ECMP][SD]T)\b)\s*$/i.test(v.trim()) };
  }
  return null;
}

/** Skip a forwarded message's header lines (From/Date/Subject/To, possibly bold), return its body. */
function forwardedBody(lines: string[]): string[] {
  let i = 0;
  while (i < lines.length && !lines[i].trim()) i++;
  let sawHeader = false;
  while (i < lines.length) {
    const l = lines[i].trim();
    if (RE_FROM_HEADER.test(l) || RE_HEADER_FIELD.test(l) || /^(reply-to|date sent|sent by):/i.test(l)) {
      sawHeader = true;
      i++;
      continue;
    }
    if (!l && !sawHeader) {
      i++;
      continue;
    }
    break;
  }
  return lines.slice(i);
}

const unquote = (l: string) => l.replace(/^\s*>\s?/, '');

/** The sender says the answers are written into the quoted message ("inline below in caps", "see my notes below"). */
const INLINE_POINTER =
  /\b(in[- ]?line|in (all )?caps|in (red|blue|green|bold)|(notes?|comments?|answers?|responses?|replies|questions?) (below|inline|in[- ]line|in caps|in red|in bold|marked)|(see|read) (my )?(notes?|comments?|answers?) (below|in the (email|message|thread))|below in (caps|red|blue|bold))\b/i;
/**
 * The sender's words pointing at the message below for the answer (POINTS_BELOW: "see below from UW", "per credit's note
 * below", "decision below", "FYI below"), of which the relays (RELAYS_BELOW) name a third person's message: (holdout42)
 * "Renee's notes below", "credit's comments below", "see below from UW", "FYI below"; (holdout43) the person named by a
 * pronoun ("Rick passed on this one, see his note below"). Under a relay, an Outlook "-----Original Message-----" is that
 * person's message, read as forwarded, not as the thread answered; the classifier (classifier/index.ts) reads the sender's
 * words together with a forwarded message they point at. (rfix10) One definition: the classifier had its own POINTS_BELOW,
 * which missed the relays' "response", "reply", "write-up" and "email" below. The relays stay the narrower test here: a
 * bare "see below" over an Outlook quote is as often the broker's own submission answered inline, and read as a
 * forwarded answer it would apply that submission's words.
 */
const RELAY_FORMS = String.raw`\b(?:[a-z]+'s|his|her|their|credit|uw|underwriting|the underwriter|risk|committee|management) (?:notes?|comments?|decision|response|reply|answer|write-?up|email)\b[^.!?\n]{0,20}\bbelow\b|\bsee below from\b|\bfyi,? (?:see )?below\b|\bbelow from (?:credit|uw|underwriting|the underwriter|risk|committee|management)\b`;
const RELAYS_BELOW = new RegExp(RELAY_FORMS, 'i');
export const POINTS_BELOW = new RegExp(String.raw`\b(?:see|read|per|note|notes|decision|answer|terms|numbers|details|comments?|fyi)\b[^.!?\n]{0,30}\bbelow\b|\bbelow (?:from|is|are)\b|${RELAY_FORMS}`, 'i');
/** A note mark; (holdout31) also the sender's initials in brackets ("[RC] Sorry, no. 14 negs in October"). */
const NOTE_MARK = /^\s*(?:>>+|<<+|<-+|-+>|\*\*+|=>|\[note\]|note:|\[[a-z]{2,3}\]:?)\s*/i;

/**
 * Notes the sender typed into the quoted message (holdout8: ">> NEED THE AUGUST STATEMENT." between the
 * quoted submission's lines): lines marked ">>", "-->" or "**", or written in capitals, that are not
 * header fields. All-capital notes are read in lower case.
 */
function inlineNotes(lines: string[]): string[] {
  const out: string[] = [];
  for (const raw of lines) {
    const l = raw.trim();
    if (!l || RE_HEADER_FIELD.test(l) || RE_FROM_HEADER.test(l)) continue;
    const marked = NOTE_MARK.test(l) && !/^>\s/.test(l);
    const body = l.replace(NOTE_MARK, '');
    const letters = body.replace(/[^A-Za-z]/g, '');
    const caps = letters.length >= 10 && letters.replace(/[^A-Z]/g, '').length / letters.length >= 0.9 && body.split(/\s+/).length >= 3;
    if (!marked && !caps) continue;
    out.push(caps ? body.charAt(0) + body.slice(1).toLowerCase() : body);
  }
  return out.slice(0, 50);
}

/**
 * (rfix14) A line introducing a note from the lender's own staff, the note quoted under it: "Your underwriter left a note on this
 * file:", "Underwriter's note:", "Note from underwriting:". Never the broker's own words ("your note:", "On ... wrote:").
 */
const NOTE_INTRO = /^(?:your |the |our )?(?:underwriter|underwriting|uw|analyst|credit analyst|processor|funding specialist|account manager)(?:'s)?\b[^\n]{0,40}\b(?:left|added|posted|entered|sent)\b[^\n]{0,30}\b(?:note|comment|message|question)s?\b[^\n]{0,40}:$|^(?:(?:your |the )?(?:underwriter|underwriting|uw|analyst|processor)(?:'s)? (?:note|notes|comment|comments|question|questions)|(?:note|notes|comment|comments|question|questions) from (?:your |the |our )?(?:underwriter|underwriting|uw|analyst|processor))\s*:$/i;

/**
 * Splits a plain-text body into the sender's own text and the first forwarded message. Lines
 * quoted with ">" are cut, but unquoted lines between them are kept (answers written inline).
 */
export function splitReply(text: string, subject = ''): ReplyParts {
  const lines = normalizeText(text).split('\n');
  const trimmed = lines.map((x) => x.trim());
  const own: string[] = [];
  const markers: string[] = [];
  let forwarded: string[] | null = null;
  let fwdDate: { t: number; zoned: boolean } | null = null;
  const takeForward = (ls: string[]): string[] => {
    fwdDate = headerDate(ls);
    return forwardedBody(ls);
  };
  let quotedLines = 0;
  let i = 0;
  const isFwdSubject = RE_FWD_SUBJECT.test(subject);
  let firstBlock = true;
  const ticket = trimmed.slice(0, 6).some((x) => RE_TICKET.test(x));
  let comments = 0;
  /** (rfix20) Where in `own` the first ">" quote was cut: the lines kept after it are typed between the quoted lines. */
  let firstQuoteAt: number | undefined;
  for (; i < lines.length; i++) {
    const raw = lines[i];
    const l = raw.trim();
    if (ticket && commentHeaderAt(trimmed, i) && ++comments >= 2) {
      markers.push('older ticket comments');
      quotedLines += lines.length - i;
      break;
    }
    // a run of ">" lines: a quote, unless it starts with a forward marker (Apple Mail forwards)
    if (/^>/.test(l)) {
      const run: string[] = [];
      let j = i;
      while (j < lines.length && /^\s*>/.test(lines[j])) run.push(unquote(lines[j++]));
      const firstReal = run.find((r) => r.trim());
      if (firstReal && RE_CHAT_STAMP.test(firstReal.trim())) {
        markers.push('pasted chat (name and time lines)');
        own.push(...run);
        i = j - 1;
        continue;
      }
      // (rfix14) a portal's notice quoting its underwriter's note, introduced as such right above ("Your underwriter left a note
      // on this file:" over the note's block): the lender's own words, not the message answered
      const above = own.map((x) => x.trim()).filter(Boolean).pop() ?? '';
      if (firstReal && NOTE_INTRO.test(above) && !RE_FORWARD.test(firstReal.trim())) {
        markers.push("the lender's note quoted by its portal");
        own.push(...run);
        i = j - 1;
        continue;
      }
      if (forwarded === null && firstReal && RE_FORWARD.test(firstReal.trim())) {
        markers.push('forwarded (quoted)');
        const start = run.findIndex((r) => RE_FORWARD.test(r.trim()));
        forwarded = takeForward(run.slice(start + 1));
      } else {
        markers.push('> quote');
        firstQuoteAt ??= own.length;
      }
      quotedLines += run.length;
      i = j - 1;
      firstBlock = false;
      continue;
    }
    // "On <date> <name> wrote:" possibly wrapped over two or three lines
    if (/^(-{2,}\s*)?on\b/i.test(l)) {
      const wrote = (x: string) => RE_ON_WROTE.test(x) || RE_ON_WROTE_DASHED.test(x);
      let joined = l;
      let k = i;
      while (!wrote(joined) && k < i + 2 && k + 1 < lines.length) joined += ` ${lines[++k].trim()}`;
      if (wrote(joined)) {
        markers.push('On ... wrote:');
        // (holdout27) a quote that lost its "> " marks (Yahoo's quoted div, an indented text quote): the lines under the
        // attribution are the message answered, not the sender's, so the rest is cut
        let n = k + 1;
        while (n < lines.length && !lines[n].trim()) n++;
        if (n < lines.length && !/^\s*>/.test(lines[n])) {
          quotedLines += lines.length - n;
          break;
        }
        i = k;
        continue;
      }
    }
    if (RE_ORIGINAL.test(l)) {
      markers.push('-----Original Message-----');
      // under a forward's subject ("FW: UW decision"), Outlook's "-----Original Message-----" is the forwarded message (holdout9)
      if ((isFwdSubject || RELAYS_BELOW.test(own.join('\n'))) && firstBlock && forwarded === null) forwarded = takeForward(lines.slice(i + 1));
      quotedLines += lines.length - i;
      if (INLINE_POINTER.test(own.join('\n'))) {
        const notes = inlineNotes(lines.slice(i + 1));
        if (notes.length) {
          markers.push('notes typed into the quoted message');
          own.push('', ...notes);
        }
      }
      break;
    }
    if (RE_FORWARD.test(l)) {
      markers.push('forwarded message');
      if (forwarded === null) forwarded = takeForward(lines.slice(i + 1));
      quotedLines += lines.length - i;
      break;
    }
    const underscore = /^_{10,}$/.test(l) ? 1 : 0;
    const header = headerBlockAt(trimmed, i + underscore);
    if (header) {
      const block = lines.slice(i + underscore, i + underscore + header).map((x) => x.trim());
      const subj = block.find((b) => /^[*_]?subject:/i.test(b)) ?? '';
      const isForward = RE_FWD_SUBJECT.test(subj.replace(/^[*_]?subject:[*_]?\s*/i, '')) || (firstBlock && isFwdSubject);
      if (isForward && forwarded === null) {
        markers.push('forwarded (From:/Sent: header)');
        forwarded = takeForward(lines.slice(i + underscore));
      } else {
        markers.push('From:/Sent: quote header');
        if (INLINE_POINTER.test(own.join('\n'))) {
          const notes = inlineNotes(lines.slice(i + underscore + header));
          if (notes.length) {
            markers.push('notes typed into the quoted message');
            own.push('', ...notes);
          }
        }
      }
      quotedLines += lines.length - i;
      break;
    }
    own.push(raw);
  }
  let fwdText: string | null = null;
  let forwardChain: ReplyParts['forwardChain'];
  if (forwarded) {
    // the forwarded message may itself carry a quoted thread
    const inner = splitReply(forwarded.join('\n'));
    fwdText = inner.own || null;
    const d = fwdDate as { t: number; zoned: boolean } | null;
    forwardChain = [{ date: d?.t ?? null, text: inner.own, ...(d ? { zoned: d.zoned } : {}) }, ...(inner.forwardChain ?? [])];
    // (rfix18) a chain of forwards, each message dated, whose latest is not the first ("scroll all the way down": the
    // first forward says the file goes to committee, the last one is committee's decision): the latest message is the
    // answer the chain relays. Undated or tied, the first forward stays the one read.
    const dates = forwardChain.map((c) => c.date);
    // (revs) ... and each date read the same way: some naming their zone and others not ("at 11:30 AM" beside "07:00 -0800")
    // cannot be put in order, so the first forward stays the one read
    const zones = new Set(forwardChain.map((c) => c.zoned));
    if (forwardChain.length >= 2 && dates.every((t) => t !== null) && zones.size === 1) {
      const latest = Math.max(...(dates as number[]));
      const at = dates.indexOf(latest);
      if (at > 0 && dates.filter((t) => t === latest).length === 1 && forwardChain[at].text.trim()) {
        markers.push(CHAIN_LATEST);
        fwdText = forwardChain[at].text;
      }
    }
  }
  // (rfix20) answers typed between the lines of the quoted message, under a signature, the sender saying so above it ("Answers
  // below in caps", "see my answers inline"): the signature ends the sender's note, not the answers
  let ownLines = trimSignature(own);
  if (firstQuoteAt !== undefined && INLINE_POINTER.test(own.slice(0, firstQuoteAt).join('\n'))) {
    const head = trimSignature(own.slice(0, firstQuoteAt));
    const answers = own.slice(firstQuoteAt).filter((x) => x.trim() && !RE_SIG_DELIM.test(x.trim()));
    if (answers.length && head.length + answers.length > ownLines.length) {
      markers.push('answers typed between the quoted lines');
      ownLines = [...head, '', ...answers];
    }
  }
  return { own: ownLines.join('\n').slice(0, MAX_OWN_CHARS), forwarded: fwdText?.slice(0, MAX_OWN_CHARS) ?? null, ...(forwardChain ? { forwardChain } : {}), markers, quotedLines };
}

/** How much of a message is read: the first 200,000 characters of text, 1,000,000 of HTML. */
export const MAX_TEXT_CHARS = 200_000;
export const MAX_HTML_CHARS = 1_000_000;
/** How much of the sender's own text the rules look at. */
export const MAX_OWN_CHARS = 20_000;

/**
 * The reply's own text from the classifier input: the HTML part when there is one (it keeps tables
 * and quote structure), else the text part; falls back to the text part when the HTML yields nothing.
 */
export function replyParts(input: ReplyInput): ReplyParts & { source: 'html' | 'text'; alternate: ReplyParts | null } {
  // the hook reads the same message up to three times (the rules, the model, the sender check): the cut is computed once
  // per message (a pure function of its subject, text and HTML) and each caller gets its own copy
  const hit = PARTS_SEEN.find((e) => e.subject === input.subject && e.text === input.text && e.html === input.html);
  if (hit) return copyParts(hit.parts);
  const parts = replyPartsOnce(input);
  if (PARTS_SEEN.length >= 4) PARTS_SEEN.shift();
  PARTS_SEEN.push({ subject: input.subject, text: input.text, html: input.html, parts: copyParts(parts) });
  return parts;
}

type Parts = ReplyParts & { source: 'html' | 'text'; alternate: ReplyParts | null };
const PARTS_SEEN: Array<{ subject: string; text: string; html: string | null | undefined; parts: Parts }> = [];
function copyOne<T extends ReplyParts>(p: T): T {
  return { ...p, markers: [...p.markers], ...(p.forwardChain ? { forwardChain: p.forwardChain.map((c) => ({ ...c })) } : {}) };
}
function copyParts(p: Parts): Parts {
  return { ...copyOne(p), alternate: p.alternate ? copyOne(p.alternate) : null };
}

function replyPartsOnce(input: ReplyInput): Parts {
  // a reply is written at the top; past these sizes there is only quoted thread or pasted data
  const text = (input.text ?? '').slice(0, MAX_TEXT_CHARS);
  const html = input.html ? input.html.slice(0, MAX_HTML_CHARS) : null;
  const fromText = text.trim() ? splitReply(text, input.subject) : null;
  const fromHtml = html ? splitReply(htmlToText(html), input.subject) : null;
  if (fromHtml && (fromHtml.own.trim() || fromHtml.forwarded || !fromText)) return { ...fromHtml, source: 'html', alternate: fromText };
  const base = fromText ?? { own: '', forwarded: null, markers: [], quotedLines: 0 };
  return { ...base, source: 'text', alternate: fromHtml };
}

/**
 * (rfix26) The message a reply-all quotes right under the sender's words when it was written by someone at the lender (a colleague
 * answering first: "On Thu ... Kelsey Otto <kotto@lender.com> wrote:" over "> approved at the full $100,000 ..."), its own text
 * with its own quotes cut; null otherwise. The lender's when its writer's domain is not the domain of the thread's first message
 * (the deepest attribution: the broker's submission) and it quotes that message itself (so it answered the broker), and when it
 * names none of `brokerNames` (the broker's own follow-up signs with them). Text part only; null when anything is unclear.
 */
export function quotedColleague(text: string, brokerNames: string[] = []): { text: string; domain: string } | null {
  const lines = normalizeText(text ?? '').slice(0, MAX_TEXT_CHARS).split('\n');
  const domainOf = (s: string): string | null => s.match(/<[^<>@\s]+@([a-z0-9.-]+\.[a-z]{2,})>/i)?.[1]?.toLowerCase() ?? null;
  // every attribution in the thread, at any depth of quoting: [line index, domain]
  const attributions: Array<{ at: number; end: number; domain: string | null; depth: number }> = [];
  for (let i = 0; i < lines.length; i++) {
    const depth = (lines[i].match(/^(\s*>)*/)?.[0].match(/>/g) ?? []).length;
    const strip = (x: string) => x.replace(/^(\s*>)*\s?/, '').trim();
    if (!/^on\b/i.test(strip(lines[i]))) continue;
    let joined = strip(lines[i]);
    let k = i;
    while (!RE_ON_WROTE.test(joined) && k < i + 2 && k + 1 < lines.length) joined += ` ${strip(lines[++k])}`;
    if (!RE_ON_WROTE.test(joined)) continue;
    attributions.push({ at: i, end: k, domain: domainOf(joined), depth });
    i = k;
  }
  if (attributions.length < 2) return null;
  const first = attributions[0];
  const deepest = attributions[attributions.length - 1];
  if (first.depth !== 0 || !first.domain || !deepest.domain || first.domain === deepest.domain || deepest.depth < 1) return null;
  // the quoted run right under the first attribution
  let n = first.end + 1;
  while (n < lines.length && !lines[n].trim()) n++;
  const run: string[] = [];
  while (n < lines.length && /^\s*>/.test(lines[n])) run.push(unquote(lines[n++]));
  if (!run.length) return null;
  const own = splitReply(run.join('\n')).own.trim();
  if (!own) return null;
  const lower = own.toLowerCase();
  if (brokerNames.some((b) => b.trim() && lower.includes(b.trim().toLowerCase()))) return null;
  return { text: own, domain: first.domain };
}

// ---------------------------------------------------------------- our own ticket desk

/** (rfix27) A ticket system's number: "Ticket #48213", "[Case #1029]", "Request no. 5521". */
const TICKET_NUMBER = /\b(?:ticket|case|request|incident)[ \t]*(?:#|no\.?|number)[ \t]*:?[ \t]*\d{3,}\b/i;
/** (rfix27) A block of someone's words in a ticket update: "== New public reply from Rhett Calloway (Ponderosa Funding) ==", "--- Comment by X ---", "X replied:". */
const TICKET_REPLY_HEAD = /^[ \t]*(?:[=\-*#~_]{2,}[ \t]*)?(?:new[ \t]+)?(?:public[ \t]+)?(?:reply|response|comment|message|update)[ \t]+(?:from|by)[ \t]+([^\n=*#~]{2,80}?)[ \t]*(?:[=\-*#~_]{2,}[ \t]*)?:?[ \t]*$|^[ \t]*([A-Z][^\n:=]{2,80}?)[ \t]+(?:replied|responded|commented|added a (?:public )?(?:reply|comment|response))[ \t]*:?[ \t]*$/i;
/** (rfix27) A note the desk keeps from the lender ("== Internal note (not visible to lender) ==", "Private comment by Dana"): ours, never read as the lender's. */
const TICKET_INTERNAL_HEAD = /^[ \t]*(?:[=\-*#~_]{2,}[ \t]*)?(?:internal|private)[ \t]+(?:note|comment|reply)\b/i;
/** (rfix27) Where the desk's own words start again: a rule, "Reply to this email ...", "Please type your reply above this line". */
const TICKET_FOOTER = /^[ \t]*(?:-{2,}|_{2,}|={4,})[ \t]*$|^[ \t]*(?:#+-?[ \t]*)?(?:reply to this (?:email|message)|reply above this line|please (?:type your reply|keep the ticket|do not (?:remove|change) the ticket)|this (?:is an automated|ticket (?:was|has been)))/i;
/** (rfix27) A field of the desk naming our own agent on the ticket ("Assignee: Dana Whitfield", "Agent: ..."). */
const TICKET_AGENT_FIELD = /^[ \t]*(?:assignee|assigned to|agent|owner|requester)[ \t]*:[ \t]*(.+?)[ \t]*$/gim;

/** (revL) Our own desk signing its update: "Summit Valley Capital Lender Desk - powered by Freshdesk", "Summit Valley Capital Support". */
const DESK_WORD = '(?:lender[ \\t]+|iso[ \\t]+|broker[ \\t]+)?(?:support|help[ \\t]?desk|service[ \\t]?desk|desk|tickets?|ticketing|case[ \\t]+management|notifications?)';
function ourDeskSignature(name: string): RegExp {
  const n = name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&').replace(/\s+/g, '[ \\t]+');
  return new RegExp(`^[ \\t>*_|~\\-\\u2013\\u2014]*${n}[ \\t]+${DESK_WORD}\\b|${n}[^\\n]*\\bpowered[ \\t]+by\\b`, 'm');
}

/**
 * (rfix27) A reply that reaches us through our own ticket desk: its update carries the ticket number, status fields (our desk's
 * words, "Status: Pending - Waiting on Broker", "Resolved"), the lender's words in a block headed by who wrote them ("New public
 * reply from <someone> (<lender>)"), perhaps our own internal notes, and the desk's footer signed with our name. Only the blocks
 * written by someone who is not us (not our names, not the ticket's own agent) are the lender's words: their text, or null when
 * the message is no such update or no block is the lender's.
 */
export function ticketDeskReply(own: string, subject: string, ourNames: string[]): string | null {
  const text = normalizeText(own);
  if (!TICKET_NUMBER.test(subject) && !TICKET_NUMBER.test(text)) return null;
  const lines = text.split('\n');
  const agents = [...text.matchAll(TICKET_AGENT_FIELD)].map((m) => m[1].toLowerCase());
  const ours = ourNames.map((n) => n.toLowerCase().trim()).filter((n) => n.length >= 3);
  // (revK) the desk is known ours only where it carries our own name (its footer, its sender line); a desk naming none of our names
  // may be the lender's own, whose assignee is the lender's agent and whose other blocks are our broker's words
  // (revL) ... and only where the desk signs with it: a line opening on our name and a desk's word ("Summit Valley Capital Lender
  // Desk", "... Support"), or our name beside "powered by" its software. Our name said in a sentence ("you are receiving this because
  // Summit Valley Capital is a registered ISO", "Thanks, Summit Valley Capital team") or in our broker's block heading is the lender's
  // desk speaking of us or to us: its assignee is the lender's agent, and the block read would be our broker's own words
  const ourDesk = ours.some((n) => ourDeskSignature(n).test(text.toLowerCase()));
  let agentDropped = false;
  const blocks: string[] = [];
  for (let i = 0; i < lines.length; i++) {
    const head = TICKET_REPLY_HEAD.exec(lines[i]);
    if (!head || TICKET_INTERNAL_HEAD.test(lines[i])) continue;
    const author = (head[1] ?? head[2]).toLowerCase();
    const byUs = ours.some((n) => author.includes(n));
    const byAgent = agents.some((a) => a.length >= 3 && (author.includes(a) || a.includes(author.replace(/\s*\(.*$/, '').trim())));
    if (byAgent && !byUs && !ourDesk) agentDropped = true;
    const mine = byUs || byAgent;
    const body: string[] = [];
    let j = i + 1;
    for (; j < lines.length && !TICKET_REPLY_HEAD.test(lines[j]) && !TICKET_INTERNAL_HEAD.test(lines[j]) && !TICKET_FOOTER.test(lines[j]); j++) body.push(lines[j]);
    if (!mine) blocks.push(body.join('\n').trim());
    i = j - 1;
  }
  // (revK) a block dropped as the agent's on a desk not known ours, or author blocks on a desk not known ours (the lender's own case
  // system, whose words before the first heading may be its decision): whose words are whose is for a person, nothing is read
  if (agentDropped || (!ourDesk && blocks.length)) return '';
  return blocks.length ? blocks.filter(Boolean).join('\n\n') : null;
}
