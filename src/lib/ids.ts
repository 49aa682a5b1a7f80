import { randomBytes, randomUUID } from 'node:crypto';

const ALPHABET = '0123456789ABCDEFGHJKMNPQRSTVWXYZ'; // Crockford base32, as in ULID

let lastTime = -1;
let lastRandom: number[] = [];

/** A 26-character ULID: 48-bit time then 80 random bits, monotonic within one millisecond. */
export function ulid(nowMs: number = Date.now()): string {
  let rand: number[];
  if (nowMs === lastTime) {
    rand = lastRandom.slice();
    for (let i = rand.length - 1; i >= 0; i--) {
      if (rand[i] < 31) {
        rand[i]++;
        break;
      }
      rand[i] = 0;
    }
  } else {
    const bytes = randomBytes(16);
    rand = Array.from({ length: 16 }, (_, i) => bytes[i] & 31);
  }
  lastTime = nowMs;
  lastRandom = rand;
  let time = '';
  let t = nowMs;
  for (let i = 0; i < 10; i++) {
    time = ALPHABET[t % 32] + time;
    t = Math.floor(t / 32);
  }
  return time + rand.map((n) => ALPHABET[n]).join('');
}

export type IdPrefix =
  | 'loc' | 'usr' | 'key' | 'biz' | 'per' | 'deal' | 'stg' | 'sub' | 'att' | 'lnd' | 'ofr' | 'adv'
  | 'whk' | 'dlv' | 'req' | 'tok' | 'doc' | 'dreq' | 'note' | 'task' | 'pl' | 'act' | 'asc' | 'job' | 'dla' | 'eml' | 'inb' | 'stb'
  | 'oac' | 'oaz' | 'ogr' | 'ort' | 'ses' | 'asi' | 'ntc' | 'ntf';

/** Prefixed, time-sortable id such as `deal_01JD1B4D6F8H0K2M4P6R8T0V2X`. */
export function newId(prefix: IdPrefix, nowMs?: number): string {
  return `${prefix}_${ulid(nowMs)}`;
}

/** Event ids are `evt_<uuid>` as the public interface says. */
export function newEventId(): string {
  return `evt_${randomUUID()}`;
}
