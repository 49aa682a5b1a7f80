import { describe, expect, it } from 'vitest';
import { newId, ulid } from '../../src/lib/ids';

// src/lib/ids.ts: ULIDs whose 80 random bits come from a pool of CSPRNG bytes, each byte used once.
describe('ulid', () => {
  it('draws fresh random bits for every new millisecond, across many refills of the pool', () => {
    const t0 = Date.UTC(2026, 10, 28);
    const ids = Array.from({ length: 2000 }, (_, i) => ulid(t0 + i)); // 32 KB of random bytes: 8 pools
    for (const id of ids) expect(id).toMatch(/^[0-9A-HJKMNP-TV-Z]{26}$/);
    expect(new Set(ids.map((id) => id.slice(10))).size).toBe(ids.length);
    // Time first: sorted as made.
    expect([...ids].sort()).toEqual(ids);
  });

  it('stays monotonic within one millisecond', () => {
    const t = Date.UTC(2026, 10, 28, 12);
    const ids = Array.from({ length: 50 }, () => ulid(t));
    expect(new Set(ids).size).toBe(50);
    expect([...ids].sort()).toEqual(ids);
    expect(newId('req', t + 1)).toMatch(/^req_[0-9A-HJKMNP-TV-Z]{26}$/);
  });
});
