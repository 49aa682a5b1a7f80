// Calendar-exact `date` and `date-time` for the request validator. ajv-formats checks shapes and
// day ranges only loosely in its fast mode; PostgreSQL refuses year 0, and JavaScript's Date rolls
// 2026-02-30 over to March 2. These accept exactly the values both engines store unchanged.

const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
const DATE_TIME = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})(?:\.\d{1,9})?(?:Z|([+-])(\d{2}):(\d{2}))$/;

const isLeap = (y: number) => (y % 4 === 0 && y % 100 !== 0) || y % 400 === 0;
const DAYS = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

function validDate(y: number, m: number, d: number): boolean {
  if (y < 1 || m < 1 || m > 12 || d < 1) return false;
  return d <= (m === 2 && isLeap(y) ? 29 : DAYS[m - 1]);
}

/** `YYYY-MM-DD`, a real day of years 0001-9999. */
export function isDate(s: string): boolean {
  const m = DATE.exec(s);
  return !!m && validDate(+m[1], +m[2], +m[3]);
}

/** RFC 3339 with `T` and `Z` or an offset up to ±23:59; no leap second (60), which neither engine keeps. */
export function isDateTime(s: string): boolean {
  const m = DATE_TIME.exec(s);
  if (!m || !validDate(+m[1], +m[2], +m[3])) return false;
  if (+m[4] > 23 || +m[5] > 59 || +m[6] > 59) return false;
  if (m[7] && (+m[8] > 23 || +m[9] > 59)) return false;
  return Number.isFinite(Date.parse(s));
}

export const strictFormats = {
  date: { type: 'string' as const, validate: isDate },
  'date-time': { type: 'string' as const, validate: isDateTime },
};
