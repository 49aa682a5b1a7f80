import { randomBytes, randomUUID } from 'node:crypto';

const ALPHABET = '0123456789ABCDEFGHJKMNPQRSTVWXYZ'; // Crockford base32, as in ULID

let lastTime = -1;
let lastRandom: number[] = [];

/**
 * Random bytes drawn from the CSPRNG 4 KB at a time and handed out 16 at a time, each byte once:
 * one `randomBytes(16)` is a system call (5-7 us), paid by every request for its id. Node's
 * randomUUID keeps a cache the same way.
 */
const POOL_BYTES = 4096;
let pool = Buffer.alloc(0);
let poolAt = 0;
function random16(): Buffer {
  if (poolAt + 16 > pool.length) {
    pool = randomBytes(POOL_BYTES);
    poolAt = 0;
  }
  const bytes = pool.subarray(poolAt, poolAt + 16);
  poolAt += 16;
  return bytes;
}

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
    const bytes = random16();
    rand = new Array<number>(16);
    for (let i = 0; i < 16; i++) rand[i] = bytes[i] & 31;
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
