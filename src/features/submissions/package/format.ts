// How the summary page shows values: money, dates, terms, products, owners, addresses.
import type { PackageBusiness, PackageDeal, PackageOwner } from './model';

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
export const DASH = '—';

export function present(v: unknown): v is string | number {
  return (typeof v === 'string' && v.trim() !== '') || (typeof v === 'number' && Number.isFinite(v));
}

export function money(v: number | null | undefined): string {
  if (typeof v !== 'number' || !Number.isFinite(v)) return DASH;
  const [whole, cents] = Math.abs(v).toFixed(2).split('.');
  return `${v < 0 ? '-' : ''}$${whole.replace(/\B(?=(\d{3})+(?!\d))/g, ',')}.${cents}`;
}

export function utcStamp(d: Date): string {
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${d.getUTCDate()} ${MONTHS[d.getUTCMonth()]} ${d.getUTCFullYear()}, ${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())} UTC`;
}

export function humanize(v: string): string {
  const s = v.replace(/_+/g, ' ').trim();
  return s.charAt(0).toUpperCase() + s.slice(1);
}

const PRODUCTS: Record<string, string> = {
  mca: 'Merchant cash advance',
  loc: 'Line of credit',
  term_loan: 'Term loan',
  equipment: 'Equipment financing',
  sba: 'SBA loan',
};

const ENTITY_TYPES: Record<string, string> = {
  llc: 'LLC',
  corporation: 'Corporation',
  c_corp: 'C corporation',
  s_corp: 'S corporation',
  partnership: 'Partnership',
  sole_proprietorship: 'Sole proprietorship',
  nonprofit: 'Nonprofit',
};

export const CATEGORIES: Record<string, string> = {
  bank_statement: 'Bank statement',
  application: 'Application',
  id: 'Photo ID',
  voided_check: 'Voided check',
  tax_return: 'Tax return',
  contract: 'Contract',
  other: 'Other',
};

export function product(v: string | null | undefined): string {
  if (!present(v)) return DASH;
  return PRODUCTS[v] ?? humanize(v);
}

export function entityType(v: string | null | undefined): string {
  if (!present(v)) return DASH;
  return ENTITY_TYPES[v] ?? humanize(v);
}

export function phone(v: string | null | undefined): string {
  if (!present(v)) return DASH;
  const digits = v.replace(/\D/g, '');
  if (/^1\d{10}$/.test(digits)) return `(${digits.slice(1, 4)}) ${digits.slice(4, 7)}-${digits.slice(7)}`;
  return digits.length >= 7 ? `+${digits}` : v;
}

export function term(deal: PackageDeal): string {
  const parts: string[] = [];
  if (typeof deal.desired_term_months === 'number' && Number.isFinite(deal.desired_term_months)) {
    parts.push(`${deal.desired_term_months} month${deal.desired_term_months === 1 ? '' : 's'}`);
  }
  if (present(deal.desired_frequency)) parts.push(`${deal.desired_frequency} payments`);
  return parts.length ? parts.join(', ') : DASH;
}

export function shortTerm(deal: PackageDeal): string {
  const parts: string[] = [];
  if (typeof deal.desired_term_months === 'number' && Number.isFinite(deal.desired_term_months)) parts.push(`${deal.desired_term_months} mo`);
  if (present(deal.desired_frequency)) parts.push(deal.desired_frequency);
  return parts.length ? parts.join(', ') : DASH;
}

/** "10 years 7 months (since Apr 2016)", from a YYYY-MM-DD start date, as of `asOf` (UTC). */
export function timeInBusiness(start: string | null | undefined, asOf: Date): string {
  if (!present(start)) return DASH;
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(start);
  if (!m) return start;
  const [sy, sm, sd] = [Number(m[1]), Number(m[2]), Number(m[3])];
  if (sm < 1 || sm > 12) return start;
  const since = `${MONTHS[sm - 1]} ${sy}`;
  let months = (asOf.getUTCFullYear() - sy) * 12 + (asOf.getUTCMonth() + 1 - sm) - (asOf.getUTCDate() < sd ? 1 : 0);
  if (months < 0) return `Starts ${start}`;
  const years = Math.floor(months / 12);
  months %= 12;
  const parts = [];
  if (years) parts.push(`${years} year${years === 1 ? '' : 's'}`);
  if (months || !years) parts.push(`${months} month${months === 1 ? '' : 's'}`);
  return `${parts.join(' ')} (since ${since})`;
}

export function percent(v: number | null | undefined): string {
  if (typeof v !== 'number' || !Number.isFinite(v)) return DASH;
  return `${Number(v.toFixed(2))}%`;
}

export function ownerName(o: PackageOwner): string {
  if (present(o.full_name)) return o.full_name;
  const name = [o.first_name, o.last_name].filter(present).join(' ');
  return name || 'Unnamed owner';
}

export function address(b: PackageBusiness): string {
  const cityLine = [b.city, [b.state, b.zip].filter(present).join(' ')].filter(present).join(', ');
  const all = [b.address, cityLine].filter(present).join(', ');
  return all || DASH;
}
