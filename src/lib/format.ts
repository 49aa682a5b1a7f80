/** The API's wire form of a timestamp (`Date#toISOString()` of a four-digit year). */
const WIRE_TIME = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/;

/**
 * ISO 8601 UTC for a timestamp column (null stays null). Text already in the wire form (a query read
 * with `wireTimes`, src/db/wire-time.ts) passes through as it is: formatting it again gives it back.
 */
export function iso(value: Date | string | null | undefined): string | null {
  return value == null ? null : typeof value === 'string' && WIRE_TIME.test(value) ? value : new Date(value).toISOString();
}

/** Same, for columns that are never null. */
export function isoRequired(value: Date | string): string {
  return typeof value === 'string' && WIRE_TIME.test(value) ? value : new Date(value).toISOString();
}

/** A row as a mapper may receive it: each timestamp a Date, or wire-form text (a query read with `wireTimes`). */
export type TimesAsText<T> = { [K in keyof T]: DateOrText<T[K]> };
type DateOrText<V> = V extends Date ? Date | string : V;

/** A row read with `wireTimes` (src/db/wire-time.ts): each timestamp is wire-form text. */
export type WireTimes<T> = { [K in keyof T]: TextForDate<T[K]> };
type TextForDate<V> = V extends Date ? string : V;

/** `YYYY-MM-DD` of a UTC instant (used for calendar arithmetic on dates). */
export function dateOnly(value: Date): string {
  return value.toISOString().slice(0, 10);
}
