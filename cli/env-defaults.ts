// Option defaults from GWCTL_* variables. yargs' global .env() would turn every GWCTL_* variable
// (GWCTL_ADMIN_PASSWORD too) into an option and trip strict parsing, so each option names its own.

export function envString(env: NodeJS.ProcessEnv, name: string): string | undefined {
  const value = env[name];
  return value === undefined || value === '' ? undefined : value;
}

/** A number from the environment; a value that is not a number is kept as NaN so validation names it. */
export function envNumber(env: NodeJS.ProcessEnv, name: string): number | undefined {
  const value = envString(env, name);
  return value === undefined ? undefined : Number(value);
}

/** true/false (also 1/0, yes/no, on/off) from the environment; anything else is refused by name. */
export function envBoolean(env: NodeJS.ProcessEnv, name: string): boolean | undefined {
  const value = envString(env, name)?.toLowerCase();
  if (value === undefined) return undefined;
  if (['true', '1', 'yes', 'on'].includes(value)) return true;
  if (['false', '0', 'no', 'off'].includes(value)) return false;
  throw new RangeError(`${name} must be true or false, got "${value.slice(0, 20)}".`);
}
