// The application fields the merchant portal asks for, with the contract's own limits
// (UpdateBusinessRequest, UpdatePersonRequest in openapi.yaml). A form post is checked here, then
// goes through the same services as PATCH /v1/businesses/{id} and /v1/people/{id}.

export interface Field {
  name: string;
  label: string;
  max: number;
  /** Required fields may not be emptied. */
  required?: boolean;
  pattern?: RegExp;
  hint?: string;
  type?: 'text' | 'email' | 'date' | 'tel';
  /** Never shown back on the page (write-only). */
  secret?: boolean;
}

export const BUSINESS_FIELDS: Field[] = [
  { name: 'legal_name', label: 'Legal business name', max: 200, required: true },
  { name: 'dba', label: 'Doing business as', max: 200 },
  { name: 'ein', label: 'EIN', max: 10, pattern: /^[0-9]{2}-?[0-9]{7}$/, hint: '12-3456789' },
  { name: 'entity_type', label: 'Entity type', max: 50, hint: 'LLC, corporation, sole proprietor' },
  { name: 'industry', label: 'Industry', max: 200 },
  { name: 'address', label: 'Street address', max: 500 },
  { name: 'city', label: 'City', max: 100 },
  { name: 'state', label: 'State', max: 50 },
  { name: 'zip', label: 'ZIP', max: 20 },
  { name: 'phone', label: 'Business phone', max: 30, type: 'tel' },
  { name: 'email', label: 'Business email', max: 254, type: 'email', pattern: /^[^\s@]+@[^\s@]+\.[^\s@]+$/ },
  { name: 'business_start_date', label: 'Business start date', max: 10, type: 'date', pattern: /^\d{4}-\d{2}-\d{2}$/, hint: 'YYYY-MM-DD' },
];

export const OWNER_FIELDS: Field[] = [
  { name: 'first_name', label: 'First name', max: 100, required: true },
  { name: 'last_name', label: 'Last name', max: 100, required: true },
  { name: 'email', label: 'Email', max: 254, type: 'email', pattern: /^[^\s@]+@[^\s@]+\.[^\s@]+$/ },
  { name: 'phone', label: 'Mobile phone', max: 30, type: 'tel' },
  { name: 'address', label: 'Home address', max: 500 },
  { name: 'city', label: 'City', max: 100 },
  { name: 'state', label: 'State', max: 50 },
  { name: 'zip', label: 'ZIP', max: 20 },
  { name: 'dob', label: 'Date of birth', max: 10, type: 'date', pattern: /^\d{4}-\d{2}-\d{2}$/, hint: 'YYYY-MM-DD' },
  { name: 'ssn', label: 'Social Security number', max: 11, pattern: /^([0-9]{9}|[0-9]{3}-[0-9]{2}-[0-9]{4})$/, secret: true, hint: 'Kept encrypted; never shown again' },
];

/**
 * The changed fields of one group from a form post (`prefix.name`), or the first problem. An empty
 * optional field clears it (null); an empty required or secret field is left as it is.
 */
export function readFields(fields: Field[], prefix: string, form: Record<string, unknown>, current: Record<string, unknown>):
  { patch: Record<string, string | null>; problem?: undefined } | { problem: { field: string; message: string }; patch?: undefined } {
  const patch: Record<string, string | null> = {};
  for (const f of fields) {
    const raw = form[`${prefix}.${f.name}`];
    if (raw === undefined) continue;
    if (typeof raw !== 'string') return { problem: { field: `${prefix}.${f.name}`, message: `${f.label} must be text` } };
    const value = raw.trim();
    if (!value) {
      if (f.required) return { problem: { field: `${prefix}.${f.name}`, message: `${f.label} is required` } };
      if (f.secret) continue;
      if (current[f.name] !== null && current[f.name] !== undefined) patch[f.name] = null;
      continue;
    }
    if (value.length > f.max) return { problem: { field: `${prefix}.${f.name}`, message: `${f.label} must be at most ${f.max} characters` } };
    if (f.pattern && !f.pattern.test(value)) return { problem: { field: `${prefix}.${f.name}`, message: `${f.label} is not valid${f.hint ? ` (for example ${f.hint})` : ''}` } };
    if (f.type === 'date' && Number.isNaN(Date.parse(`${value}T00:00:00Z`))) return { problem: { field: `${prefix}.${f.name}`, message: `${f.label} is not a date` } };
    if (f.secret || String(current[f.name] ?? '') !== value) patch[f.name] = value;
  }
  return { patch };
}
