/**
 * A global setup's work done once per vitest run however many projects name it (an engine's api
 * files are two projects, see vitest.config.ts): the first caller creates, every caller gets the
 * same value, the last teardown removes it. Kept on globalThis: the projects share the main process.
 */
type Entry = { value: Promise<unknown>; users: number; teardown?: () => unknown };
const registry: Map<string, Entry> = ((globalThis as { __svcOncePerRun?: Map<string, Entry> }).__svcOncePerRun ??= new Map());

export async function oncePerRun<T>(key: string, create: () => Promise<{ value: T; teardown: () => unknown }>): Promise<{ value: T; release: () => Promise<void> }> {
  let entry = registry.get(key);
  if (!entry) {
    const e: Entry = { users: 0, value: Promise.resolve() };
    e.value = create().then((r) => {
      e.teardown = r.teardown;
      return r.value;
    });
    registry.set(key, (entry = e));
  }
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
