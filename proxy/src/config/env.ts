/** The proxy never reads process.env directly below the entry point, so tests can pass their own. */
export type Env = Readonly<Record<string, string | undefined>>;

/** Reads a variable by its upper- or lower-case name, as curl does for proxy variables. */
export function envEitherCase(env: Env, name: string): string | undefined {
  const upper = env[name.toUpperCase()];
  if (upper !== undefined && upper !== '') return upper;
  const lower = env[name.toLowerCase()];
  return lower !== undefined && lower !== '' ? lower : undefined;
}
