// Whether a reply's sender writes from one of the lender's own domains: the domain after the last
// `@`, compared whole (case-insensitive), never as a suffix, so `evil-lender.example` and
// `lender.example.evil.example` are not `lender.example`.

export const domainOf = (address: string) => address.slice(address.lastIndexOf('@') + 1).trim().toLowerCase();

/** True when `sender`'s domain is exactly the domain of one of `lenderAddresses`. */
export function isLenderDomain(sender: string, lenderAddresses: Array<string | null | undefined>): boolean {
  if (!sender.includes('@')) return false;
  const domains = new Set(lenderAddresses.filter((a): a is string => !!a && a.includes('@')).map(domainOf));
  const d = domainOf(sender);
  return d !== '' && domains.has(d);
}
