/** PostgreSQL for tests: TEST_DATABASE_URL (any database on the server), default the local trust-auth server. */
const base = new URL(process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres');

export function adminUrl(): string {
  return base.toString();
}

export function databaseUrl(name: string): string {
  const u = new URL(base.toString());
  u.pathname = `/${name}`;
  return u.toString();
}
