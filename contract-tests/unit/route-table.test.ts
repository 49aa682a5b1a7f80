import { describe, expect, it } from 'vitest';
import { RouteTable } from '../../src/http/route-table';
import { listOperations, loadSpec } from '../../src/http/spec';

// The /v1 route table (method and path template) over the real contract's operations: every
// operation is found at its own template, literal segments win over parameters, and a path the
// method is not allowed on answers the methods that are.
const operations = listOperations(loadSpec()).filter((o) => !o.rawBody);
const table = new RouteTable<string>();
for (const op of operations) table.add(op.method, op.path, op.operationId);

const found = (method: string, path: string) => {
  const hit = table.find(method, path);
  return hit && 'value' in hit ? hit : undefined;
};

describe('route table', () => {
  it('finds every operation at its template, with its parameters named as the template names them', () => {
    for (const op of operations) {
      const names = [...op.path.matchAll(/\{([^}]+)\}/g)].map((m) => m[1]);
      const path = op.path.replace(/\{([^}]+)\}/g, (_, n: string) => `x_${n}_1`);
      const hit = found(op.method, path);
      expect(hit?.value, `${op.method} ${path}`).toBe(op.operationId);
      expect(Object.keys(hit!.params)).toEqual(names);
      for (const n of names) expect(hit!.params[n]).toBe(`x_${n}_1`);
    }
  });

  it('literal segments before parameters; the parameter still serves what no literal names', () => {
    const literal = operations.find((o) => o.method === 'get' && o.path === '/v1/lenders/api-specs')!;
    expect(found('GET', '/v1/lenders/api-specs')?.value).toBe(literal.operationId);
    const byId = operations.find((o) => o.method === 'get' && o.path === '/v1/lenders/{id}')!;
    expect(found('GET', '/v1/lenders/lnd_1')).toEqual({ value: byId.operationId, params: { id: 'lnd_1' } });
  });

  it('matches as Express and the validator did: case-insensitive literals, one trailing slash, non-empty decoded parameters', () => {
    const list = operations.find((o) => o.method === 'get' && o.path === '/v1/people')!.operationId;
    expect(found('GET', '/V1/People')?.value).toBe(list);
    expect(found('GET', '/v1/people/')?.value).toBe(list);
    expect(table.find('GET', '/v1/people//')).toBeUndefined();
    expect(table.find('GET', '/v1//people')).toBeUndefined();
    expect(table.find('GET', '/v1/%70eople')).toBeUndefined();
    expect(found('GET', '/v1/deals/a%2Fb')?.params).toEqual({ id: 'a/b' });
    expect(found('GET', '/v1/deals/ABC')?.params).toEqual({ id: 'ABC' });
    expect(table.find('GET', '/v1/nothing-here')).toBeUndefined();
    expect(table.find('GET', '/v1')).toBeUndefined();
    expect(table.find('GET', '/v1/businesses/x/y/z')).toBeUndefined();
  });

  it('a known path with another method: 405 with the allowed methods in the contract order', () => {
    expect(table.find('DELETE', '/v1/businesses')).toEqual({ allow: ['GET', 'POST'] });
    expect(table.find('OPTIONS', '/v1/people/')).toEqual({ allow: ['GET', 'POST'] });
  });
});
