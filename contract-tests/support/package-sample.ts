import type { PackageBusiness, PackageDeal } from '../../src/features/submissions/package';

// The sample merchant and funding request of the submission-package test and its benchmark.

export const SAMPLE_BUSINESS: PackageBusiness = {
  legal_name: 'Sunrise Bakery LLC',
  dba: 'Sunrise Bakery',
  entity_type: 'llc',
  industry: 'Bakeries',
  ein: '84-1234567',
  address: '1420 Market St',
  city: 'Denver',
  state: 'CO',
  zip: '80202',
  phone: '13035550142',
  business_start_date: '2016-04-01',
};

export const SAMPLE_DEAL: PackageDeal = {
  requested_amount: 75000,
  product_type: 'mca',
  use_of_funds: 'Second oven and working capital',
  desired_term_months: 9,
  desired_frequency: 'daily',
  annual_revenue: 1020000,
  state_incorporated: 'CO',
};

/** CRC-32 (ISO-HDLC), as PNG chunks carry it. */
export function crc32(buf: Buffer): number {
  let crc = 0xffffffff;
  for (const byte of buf) {
    let c = (crc ^ byte) & 0xff;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    crc = (crc >>> 8) ^ c;
  }
  return (crc ^ 0xffffffff) >>> 0;
}

/** One PNG chunk: length, type, data and CRC, for building test images by hand. */
export function pngChunk(type: string, data: Buffer): Buffer {
  const len = Buffer.alloc(4);
  len.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([len, body, crc]);
}
