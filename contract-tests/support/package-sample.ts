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
