/**
 * The breaking-change gate (scripts/contract-diff.ts, `npm run contract:diff`): openapi.yaml against
 * the frozen released contract, with the declared breaks. The planted breaks show the checker
 * notices each kind that matters; the last test is the gate itself on this branch.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { CURRENT, diffContracts, gate, loadDeclared, RELEASED } from '../../scripts/contract-diff';

// Parsed once (the contract is 17,000 lines); each planted break edits a copy.
const releasedDoc = parse(readFileSync(RELEASED, 'utf8'));
const released = () => structuredClone(releasedDoc);
const keysOf = (mutate: (doc: any) => void) => {
  const next = released();
  mutate(next);
  return diffContracts(released(), next).map((b) => b.key);
};

describe('the contract-diff checker', () => {
  it('finds nothing between the released contract and itself', () => {
    expect(diffContracts(released(), released())).toEqual([]);
  });

  it('a response property removed (from a shared schema) is a break at every operation that returns it', () => {
    const keys = keysOf((d) => delete d.components.schemas.Business.properties.dba);
    expect(keys).toContain('response-property-removed: PATCH /v1/businesses/{id} 200.data.dba');
    expect(keys).toContain('response-property-removed: GET /v1/businesses 200.data[].dba');
  });

  it('removed operations, removed parameters, new required parameters and request fields, narrowed types and enums, tightened bounds', () => {
    expect(keysOf((d) => delete d.paths['/v1/events/{id}'].get)).toContain('operation-removed: GET /v1/events/{id}');
    expect(keysOf((d) => delete d.webhooks['deal.created'])).toContain('event-removed: webhook deal.created');
    expect(keysOf((d) => (d.paths['/v1/deals'].get.parameters = d.paths['/v1/deals'].get.parameters.filter((p: any) => p.name !== 'status')))).toContain('parameter-removed: GET /v1/deals query:status');
    expect(keysOf((d) => d.paths['/v1/deals'].get.parameters.push({ name: 'region', in: 'query', required: true, schema: { type: 'string' } }))).toContain('parameter-required: GET /v1/deals query:region');
    expect(keysOf((d) => d.components.schemas.CreateBusinessRequest.required.push('dba'))).toContain('request-property-required: POST /v1/businesses body.dba');
    expect(keysOf((d) => (d.components.schemas.CreateDealSubmissionsRequest.properties.lender_ids.maxItems = 20))).toContain('request-bound-tightened: POST /v1/deals/{dealId}/submissions body.lender_ids maxItems');
    expect(keysOf((d) => (d.components.schemas.CreateBusinessRequest.properties.legal_name.type = 'integer'))).toContain('request-type-narrowed: POST /v1/businesses body.legal_name');
    const frequency = keysOf((d) => {
      const p = d.components.schemas.CreateDealRequest.properties.desired_frequency;
      const target = p.$ref ? d.components.schemas[p.$ref.split('/').pop()] : p;
      target.enum = target.enum.filter((v: string) => v !== 'weekly');
    });
    expect(frequency.some((k) => k.startsWith('request-enum-value-removed:'))).toBe(true);
  });

  it('additive changes are not breaks: a new optional response field, a new optional request field, a new operation', () => {
    expect(keysOf((d) => {
      d.components.schemas.Business.properties.nickname = { type: 'string' };
      d.components.schemas.CreateBusinessRequest.properties.nickname = { type: 'string' };
      d.paths['/v1/ping'] = { get: { operationId: 'ping', responses: { '200': { description: 'ok' } } } };
    })).toEqual([]);
  });
});

describe('the gate on this branch', () => {
  it('openapi.yaml has no undeclared break against the released contract, and every declaration is a real change', () => {
    const { undeclared, stale } = gate(RELEASED, CURRENT, loadDeclared());
    expect(undeclared.map((b) => `${b.key} (${b.detail})`)).toEqual([]);
    expect(stale.map((d) => d.key)).toEqual([]);
  });

  it('every declared break has a reason and is named in the Changelog guide', () => {
    const changelog = String(parse(readFileSync(CURRENT, 'utf8')).info.description).split('# Changelog')[1] ?? '';
    for (const d of loadDeclared()) {
      expect(d.reason.length, d.key).toBeGreaterThan(20);
      const field = d.key.split(' body.')[1]?.split(' ')[0] ?? d.key.split(': ')[1];
      expect(changelog, d.key).toContain(field);
    }
  });
});
