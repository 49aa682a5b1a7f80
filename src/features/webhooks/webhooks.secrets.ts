import type { Deps } from '../../deps';

// Secret rotation: a subscription signs with its current secret and, during a grace period, with
// the secrets it replaced. `previous_secrets` holds those as [{ sealed, expires_at }]; an expired one
// never signs again and is dropped at the next rotation.

export interface PreviousSecret {
  sealed: string;
  expires_at: string;
}

/** The secrets that sign a delivery made at `now`: the current one first, then unexpired earlier ones. */
export function liveSecrets(deps: Pick<Deps, 'secrets'>, currentSealed: string, previous: PreviousSecret[] | null, now: Date): string[] {
  const list = [deps.secrets.open(currentSealed)];
  for (const p of previous ?? []) {
    if (new Date(p.expires_at).getTime() > now.getTime()) list.push(deps.secrets.open(p.sealed));
  }
  return list;
}

/** At most this many earlier secrets sign next to the current one (bounds the header and the work per delivery). */
export const MAX_PREVIOUS_SECRETS = 2;

/**
 * The list after a rotation at `now`: the outgoing secret lives `graceMs` more; expired ones go, and
 * beyond MAX_PREVIOUS_SECRETS the oldest stops signing at once.
 */
export function afterRotation(outgoingSealed: string, previous: PreviousSecret[] | null, now: Date, graceMs: number): PreviousSecret[] {
  const kept = (previous ?? []).filter((p) => new Date(p.expires_at).getTime() > now.getTime());
  if (graceMs > 0) kept.push({ sealed: outgoingSealed, expires_at: new Date(now.getTime() + graceMs).toISOString() });
  return kept.slice(-MAX_PREVIOUS_SECRETS);
}
