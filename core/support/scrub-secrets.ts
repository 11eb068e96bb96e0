// The last guard of a support bundle: every string in it is searched for the secret values of this
// run (keys and tokens from the environment) and any occurrence is replaced by its mask, whatever
// check or observation let it through. Values too short to be a credential are not searched for,
// or every "1" in the bundle would be masked.
import { maskEchoed } from '../redact.ts';

const MIN_SECRET_LENGTH = 8;

function scrubText(text: string, secrets: readonly string[]): string {
  return secrets.reduce(maskEchoed, text);
}

export function scrubSecrets<T>(value: T, secrets: readonly string[]): T {
  const wanted = [...new Set(secrets.map((s) => s.trim()).filter((s) => s.length >= MIN_SECRET_LENGTH))].sort((a, b) => b.length - a.length);
  const walk = (v: unknown): unknown => {
    if (typeof v === 'string') return scrubText(v, wanted);
    if (Array.isArray(v)) return v.map(walk);
    if (v && typeof v === 'object') return Object.fromEntries(Object.entries(v).map(([k, inner]) => [k, walk(inner)]));
    return v;
  };
  return walk(value) as T;
}

/** Values of the environment that are credentials: key and token variables, cookies, passwords. */
export function secretsOf(env: NodeJS.ProcessEnv, names: readonly string[]): string[] {
  const pattern = /(KEY|TOKEN|SECRET|PASSWORD|COOKIE|CREDENTIAL)/i;
  return Object.entries(env)
    .filter(([name, value]) => value && (names.includes(name) || pattern.test(name)))
    .map(([, value]) => value!);
}
