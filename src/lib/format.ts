/** ISO 8601 UTC for a timestamp column (null stays null). */
export function iso(value: Date | string | null | undefined): string | null {
  return value == null ? null : new Date(value).toISOString();
}

/** Same, for columns that are never null. */
export function isoRequired(value: Date | string): string {
  return new Date(value).toISOString();
}

/** `YYYY-MM-DD` of a UTC instant (used for calendar arithmetic on dates). */
export function dateOnly(value: Date): string {
  return value.toISOString().slice(0, 10);
}
