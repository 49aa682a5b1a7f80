/**
 * A global setup's work done once per vitest run however many projects name it (an engine's api
 * files are two projects, see vitest.config.ts): the first caller creates, every caller gets the
 * same value, the last teardown removes it. Kept on globalThis: the projects share the main process.
 */
type Entry = { value: Promise<unknown>; users: number; teardown?: () => unknown };
const registry: Map<string, Entry> = ((globalThis as { __svcOncePerRun?: Map<string, Entry> }).__svcOncePerRun ??= new Map());

export async function oncePerRun<T>(key: string, create: () => Promise<{ value: T; teardown: () => unknown }>): Promise<{ value: T; release: () => Promise<void> }> {
  const entry = startOncePerRun(key, create);
  entry.users++;
  const value = (await entry.value) as T;
  const mine = entry;
  return {
    value,
    release: async () => {
      if (--mine.users > 0) return;
      registry.delete(key);
      await mine.teardown?.();
    },
  };
}

/**
 * Starts that work without waiting for it or taking a share of it: a global setup starts work a
 * later setup of the same project will take (vitest runs the setups one after the other), so the
 * two overlap. Only for work a later setup is sure to take, or its teardown never runs.
 */
export function startOncePerRun<T>(key: string, create: () => Promise<{ value: T; teardown: () => unknown }>): Entry {
  let entry = registry.get(key);
  if (!entry) {
    const e: Entry = { users: 0, value: Promise.resolve() };
    e.value = create().then((r) => {
      e.teardown = r.teardown;
      return r.value;
    });
    // Awaited by the setup that takes it; never an unhandled rejection meanwhile.
    e.value.catch(() => undefined);
    registry.set(key, (entry = e));
  }
  return entry;
}
