// Submission trace codes: the short reference stamped on every page of an emailed submission package
// and in its PDF keywords, read back from lender replies and typed from printed pages.
//
// Format: `SVC-XXXX-XXXX`, where each X is a Crockford base32 symbol (0-9 and A-Z without I, L, O, U).
// 8 symbols x 5 bits = 40 bits from the CSPRNG = 2^40 ~ 1.1e12 codes. With n codes already issued a new
// code collides with probability n / 2^40 (about 1e-6 at one million, 1e-5 at ten million); the column
// is UNIQUE, so the caller inserts and, on the rare unique violation, draws again (see
// TRACE_CODE_MAX_ATTEMPTS). Spoken over the phone it is three groups: "S V C, seven K three M, nine Q
// two P"; there are no I/1, L/1 or O/0 look-alikes to confuse.
//
// Reading a code back is forgiving, the way Crockford decoding is: any case, spaces, dashes or none
// between the groups, O read as 0, I and L read as 1. U is not a symbol, so a code containing it is
// not a code.
import { randomBytes } from 'node:crypto';

/** The fixed prefix of every trace code (the service's brand word). */
export const TRACE_CODE_PREFIX = 'SVC';

/** Crockford base32 alphabet: the symbol for value v is CROCKFORD_ALPHABET[v]. */
export const CROCKFORD_ALPHABET = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';

/** The canonical form, as stored and printed. Same symbol class as the ULIDs in openapi.yaml. */
export const TRACE_CODE_PATTERN = /^SVC-[0-9A-HJKMNP-TV-Z]{4}-[0-9A-HJKMNP-TV-Z]{4}$/;

/** The canonical form as an OpenAPI `pattern` string, for `Submission.trace_code`. */
export const TRACE_CODE_PATTERN_SOURCE = TRACE_CODE_PATTERN.source;

/** Random bits in a code; 2^TRACE_CODE_BITS codes exist. */
export const TRACE_CODE_BITS = 40;

/** How many fresh codes a caller should try before giving up on a unique violation (p ~ 1e-30 at 1e7 codes). */
export const TRACE_CODE_MAX_ATTEMPTS = 5;

/** A new trace code from the CSPRNG, in canonical form (`SVC-7K3M-9Q2P`). */
export function newTraceCode(): string {
  // Exactly 40 bits, read as one integer (below 2^53) and cut into eight 5-bit symbols: every symbol
  // is uniform, with no modulo bias.
  let value = randomBytes(5).readUIntBE(0, 5);
  let symbols = '';
  for (let i = 0; i < 8; i++) {
    symbols = CROCKFORD_ALPHABET[value % 32] + symbols;
    value = Math.floor(value / 32);
  }
  return `${TRACE_CODE_PREFIX}-${symbols.slice(0, 4)}-${symbols.slice(4)}`;
}

/** True when `code` is a trace code in canonical form. */
export function isTraceCode(code: string): boolean {
  return TRACE_CODE_PATTERN.test(code);
}

// What a human may put between the prefix and the groups: any whitespace (including non-breaking and
// line breaks from wrapped mail), hyphens and dashes of every kind, underscores, dots, colons, '#',
// soft hyphens and zero-width characters that HTML mail leaves behind. Never inside a group.
const SEP = '[\\s\\-\\u2010-\\u2015\\u2212_.:#\\u00ad\\u200b-\\u200d\\u2060]';
// A symbol as typed: Crockford symbols plus the look-alikes it decodes (I, L -> 1; O -> 0). Not U.
const SYM = '[0-9A-TV-Za-tv-z]';
const GROUPS = `(${SYM}{4})${SEP}{0,3}(${SYM}{4})`;
const FIND = new RegExp(`(?<![0-9A-Za-z])${TRACE_CODE_PREFIX}${SEP}{0,3}${GROUPS}(?![0-9A-Za-z])`, 'gi');
const WHOLE = new RegExp(`^${TRACE_CODE_PREFIX}${SEP}{0,3}${GROUPS}$`, 'i');

/** Longest text scanned; a reply is matched on its subject and the top of its body. */
const MAX_SCAN_CHARS = 1_000_000;

function decodeGroup(group: string): string {
  return group.toUpperCase().replace(/O/g, '0').replace(/[IL]/g, '1');
}

/**
 * Every trace code found in free text (an email subject or body), normalised to canonical form,
 * without duplicates. Codes written exactly in canonical form come first, then the ones recovered
 * from a human's spelling, each in order of appearance. Text-wide ambiguity is possible (prose can
 * spell `svc services`), so a matcher should try each candidate against the database.
 */
export function findTraceCodes(text: string): string[] {
  if (typeof text !== 'string' || text.length === 0) return [];
  // NFKC folds full-width letters and digits (typed with a CJK input method) to ASCII.
  const scanned = (text.length > MAX_SCAN_CHARS ? text.slice(0, MAX_SCAN_CHARS) : text).normalize('NFKC');
  const exact: string[] = [];
  const fuzzy: string[] = [];
  for (const m of scanned.matchAll(FIND)) {
    const code = `${TRACE_CODE_PREFIX}-${decodeGroup(m[1])}-${decodeGroup(m[2])}`;
    (m[0] === code ? exact : fuzzy).push(code);
  }
  return [...new Set([...exact, ...fuzzy])];
}

/** The first trace code found in free text (see findTraceCodes for the order), normalised; null if none. */
export function parseTraceCode(text: string): string | null {
  return findTraceCodes(text)[0] ?? null;
}

/**
 * A value that should be nothing but a trace code (a path parameter, a search box) in canonical form,
 * or null. Surrounding whitespace is ignored; the same human spellings as parseTraceCode are accepted.
 */
export function normalizeTraceCode(value: string): string | null {
  if (typeof value !== 'string' || value.length > 64) return null;
  const m = WHOLE.exec(value.normalize('NFKC').trim());
  return m ? `${TRACE_CODE_PREFIX}-${decodeGroup(m[1])}-${decodeGroup(m[2])}` : null;
}
