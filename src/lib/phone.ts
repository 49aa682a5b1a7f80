import { invalid } from '../http/errors';

/**
 * E.164 digits without "+": strip everything that is not a digit; ten US digits get a leading 1.
 * Returns null when nothing usable is left.
 */
export function normalizePhone(input: string | null | undefined): string | null {
  if (input == null) return null;
  let digits = input.replace(/\D/g, '');
  if (input.trim().startsWith('+')) return digits.length >= 8 ? digits : null;
  if (digits.startsWith('00')) digits = digits.slice(2);
  if (digits.length === 10) digits = `1${digits}`;
  return digits.length >= 8 && digits.length <= 15 ? digits : null;
}

/**
 * A phone from a request body: null/empty stays null, anything else must normalise, else a 400
 * naming the field.
 */
export function phoneParam(value: string | null | undefined, param: string): string | null {
  if (value == null || value.trim() === '') return null;
  const n = normalizePhone(value);
  if (!n) throw invalid(`${param} must be a phone number (8 to 15 digits)`, param);
  return n;
}
