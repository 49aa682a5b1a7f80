// (rfix31) A lender's CRM mailing a pasted "status changed" record: field lines giving an old and a new value
// ("Factor Rate: 1.36 -> 1.40", "Stage changed from Approved to Declined") and a stage timeline ("11/03 13:12  Approved",
// "11/04 09:05  Declined"). What the record says now is the new values and the last stage: the old values and earlier
// stages are history, never read as this reply's decision or terms (an "Approved Amount: $60,000 -> $40,000" line is an
// offer of $40,000, not two offers; a timeline "Approved" then "Countered" is a counter). An approval the record shows
// taken back (its stage going from approved to declined or withdrawn) is noted, for a person (approval_withdrawn).

/** An empty value in a change record: "(blank)", "(none)", "empty", "null", "--", "n/a". */
const EMPTY = /^(?:\(?(?:blank|none|empty|null|not set|no value|cleared|removed)\)?|-+|—|n\/a|\[\s*\]|"")$/i;
/** An arrow between an old and a new value: "->", "-->", "=>", "→", "⇒" (never ">>", a mark-up or a quote). */
const ARROW = String.raw`(?:-{1,2}>|=>|→|⇒)`;
/** "Label: old -> new" (a short label, one arrow; "Stage: Submitted -> Underwriting -> Approved" keeps the last). */
const FIELD_ARROW = new RegExp(String.raw`^(\s*[A-Za-z][A-Za-z0-9 /#&()'._-]{0,40}?\s*[:|]\s*)(.*?\s*${ARROW}\s*.*)$`);
/** "Stage changed from Approved to Declined", "Amount was changed from $60,000 to $40,000" (one line). */
const FIELD_FROM_TO = /^(\s*)([A-Za-z][A-Za-z0-9 /#&()'._-]{0,40}?)\s+(?:was\s+|has been\s+)?(?:changed|updated|modified|set)\s+from\s+(.+?)\s+to\s+(.+?)\.?\s*$/i;

/** A stage word meaning approved / taken back (for the withdrawn approval). */
const APPROVED_STAGE = /\b(?:approved|approval|conditionally approved|offer (?:sent|out|issued)|contracts? (?:out|sent|requested))\b/i;
const NO_STAGE = /\b(?:declined|denied|decline|withdrawn|rescinded|cancell?ed|closed lost|lost|dead|killed|revoked|pulled|no go)\b/i;

/** A stage's name in a pipeline (two lines of a timeline at least name one). */
const STAGE_WORD = /\b(?:submitted|submission|received|new|underwriting|uw|review|in review|pending|stips?|approved|approval|declined|denied|countered|counter|offer|contracts?|funded|funding|withdrawn|closed|lost|won|cancell?ed|processing|docs?)\b/i;
/** A timeline line: a date (and a time) and a short stage name, no figure after it: "11/03 13:12  Approved", "2026-11-04 09:05 - Declined". */
const DATE = String.raw`(?:\d{4}-\d{1,2}-\d{1,2}|\d{1,2}[/.-]\d{1,2}(?:[/.-]\d{2,4})?|(?:jan|feb|mar|apr|may|jun|jul|aug|sep|sept|oct|nov|dec)[a-z]*\.?\s+\d{1,2}(?:,?\s+\d{4})?)`;
const TIME = String.raw`(?:,?\s*(?:at\s+)?\d{1,2}:\d{2}(?::\d{2})?\s*(?:[ap]\.?m\.?)?(?:\s*(?:utc|gmt|[ecmp][sd]?t)\b)?)`;
const TIMELINE = new RegExp(String.raw`^\s*(?:[-*•]\s*)?(${DATE})(${TIME})?\s*(?:[-–—:|>]\s*)?([A-Za-z][A-Za-z /&'-]{1,40}?)\s*(?:\([^)\n]{0,40}\))?\s*$`, 'i');

/** A sortable key for a numeric date and time ("11/03 13:12" -> 11031312), null when not numeric. */
function when(date: string, time: string | undefined): number | null {
  const iso = /^(\d{4})-(\d{1,2})-(\d{1,2})$/.exec(date);
  const md = /^(\d{1,2})[/.-](\d{1,2})/.exec(date);
  const [m, d] = iso ? [Number(iso[2]), Number(iso[3])] : md ? [Number(md[1]), Number(md[2])] : [NaN, NaN];
  if (Number.isNaN(m)) return null;
  const t = time ? /(\d{1,2}):(\d{2})\s*(?:([ap])\.?m)?/i.exec(time) : null;
  const h = t ? (Number(t[1]) % 12) + (t[3] && /p/i.test(t[3]) ? 12 : t[3] ? 0 : Number(t[1]) === 12 ? 12 : 0) : 0;
  return (m * 100 + d) * 10000 + h * 100 + (t ? Number(t[2]) : 0);
}

export interface ChangeRecord {
  /** The text with each change line at its new value (a line cleared to nothing dropped) and a timeline at its last stage. */
  text: string;
  /** Field lines rewritten (0: no change record, the text as it was). */
  changes: number;
  /** The record takes an approval back: a stage from approved to declined or withdrawn (a field line or the timeline). */
  withdrawn: boolean;
}

/** Reads a pasted change record at what it says now (see above); any other text is returned as it was. */
export function changeRecordNow(text: string): ChangeRecord {
  const lines = text.split('\n');
  let changes = 0;
  let withdrawn = false;
  const stageMove = (label: string, old: string, now: string) => {
    if (/\b(?:stage|status|decision|disposition|state)\b/i.test(label) && APPROVED_STAGE.test(old) && !NO_STAGE.test(old) && NO_STAGE.test(now)) withdrawn = true;
  };
  const out: Array<string | null> = lines.map((line) => {
    // a tracked change in a document ("~~$110,000~~ -> $85,000") is left to the offer reader (offers.ts), which weighs it against a clean copy
    if (/~~/.test(line)) return line;
    const f = FIELD_ARROW.exec(line);
    if (f) {
      const values = f[2].split(new RegExp(String.raw`\s*${ARROW}\s*`));
      // a value on each side of the arrow (an old value may be empty: "(blank) -> $45,000")
      if (values.length < 2 || values.some((v) => v.length > 160)) return line;
      const old = values[0].trim();
      const now = values[values.length - 1].trim();
      if (!old && !now) return line;
      changes++;
      stageMove(f[1], values.slice(0, -1).join(' '), now);
      return !now || EMPTY.test(now) ? null : `${f[1]}${now}`;
    }
    const g = FIELD_FROM_TO.exec(line);
    if (g && !/\b(?:we|i|they|you)\b/i.test(g[2])) {
      changes++;
      stageMove(g[2], g[3], g[4]);
      return EMPTY.test(g[4].trim()) ? null : `${g[1]}${g[2]}: ${g[4]}`;
    }
    return line;
  });
  // a record has two field lines at least: a single "Amount: $60,000 -> $45,000" in a person's email is a mark-up the offer
  // reader weighs against the rest of the reply (offers.ts), left as it is
  if (changes < 2) {
    changes = 0;
    withdrawn = false;
    out.splice(0, out.length, ...lines);
  }
  // a timeline: two or more timeline lines in a row (blank lines between allowed); only the latest is kept
  for (let i = 0; i < out.length; i++) {
    const run: number[] = [];
    let j = i;
    while (j < out.length) {
      const l = out[j];
      if (l !== null && TIMELINE.test(l)) run.push(j);
      else if (l !== null && l.trim() !== '') break;
      j++;
    }
    if (run.length >= 2 && run.filter((k) => STAGE_WORD.test((TIMELINE.exec(out[k] as string) as RegExpExecArray)[3])).length >= 2) {
      const ms = run.map((k) => TIMELINE.exec(out[k] as string) as RegExpExecArray);
      const first = when(ms[0][1], ms[0][2]);
      const last = when(ms[ms.length - 1][1], ms[ms.length - 1][2]);
      // newest first when the dates say so; otherwise top to bottom
      const latest = first !== null && last !== null && last < first ? 0 : run.length - 1;
      const stages = ms.map((m) => m[3]);
      const ordered = latest === 0 ? [...stages].reverse() : stages;
      if (NO_STAGE.test(ordered[ordered.length - 1]) && ordered.slice(0, -1).some((s) => APPROVED_STAGE.test(s) && !NO_STAGE.test(s))) withdrawn = true;
      run.forEach((k, n) => {
        if (n !== latest) out[k] = null;
      });
      changes++;
    }
    i = Math.max(i, j - 1);
  }
  if (!changes) return { text, changes: 0, withdrawn: false };
  return { text: out.filter((l): l is string => l !== null).join('\n'), changes, withdrawn };
}
