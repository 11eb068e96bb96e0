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
