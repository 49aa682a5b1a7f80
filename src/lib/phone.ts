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
