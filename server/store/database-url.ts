// Database URLs as they may be shown to people: the password is never printed.

export function describeDatabaseUrl(url: string): string {
  return url.replace(/\/\/([^:/@]*):([^@]+)@/, '//$1:***@');
}
