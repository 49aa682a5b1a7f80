/** Money is computed in integer cents and sent as dollars with two decimals. */
export const toCents = (dollars: number | string): number => Math.round(Number(dollars) * 100);
export const toDollars = (cents: number): number => Math.round(cents) / 100;

/** payback = amount x factor, rounded to the cent (factor has up to 4 decimals). */
export function paybackCents(amountCents: number, factorRate: number): number {
  return Math.round((amountCents * Math.round(factorRate * 10000)) / 10000);
}
