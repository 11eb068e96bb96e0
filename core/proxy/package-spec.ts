// The proxy package gwctl installs: always exactly 4.2.1. A registry name (optionally
// with @4.2.1) or a path to a packed .tgz; anything naming another version, a tag or a range is refused.

export const PINNED_PROXY_VERSION = '4.2.1';
/** The command both the independent package and the documented one install. */
export const PROXY_BIN = 'cache-fix-proxy';

export type PackageSpec =
  | { kind: 'registry'; name: string; /** What the user wrote after the name's @, if anything. */ requested: string | null }
  | { kind: 'tarball'; path: string };

export class PackageSpecError extends Error {
  override readonly name = 'PackageSpecError';
  constructor(
    message: string,
    readonly remedy: string,
  ) {
    super(message);
  }
}

const NAME = /^(@[a-z0-9-~][a-z0-9-._~]*\/)?[a-z0-9-~][a-z0-9-._~]*$/;

function looksLikePath(value: string): boolean {
  if (/\.(tgz|tar\.gz)$/i.test(value) || /^[.~/$]/.test(value)) return true;
  // A scoped name (@scope/name[@version]) is the only registry spec with a slash.
  return value.includes('/') && !NAME.test(value.replace(/(.)@[^@/]*$/, '$1'));
}

/** Throws PackageSpecError for anything that is not 4.2.1 or not a registry name / tarball path. */
export function parsePackageSpec(value: string): PackageSpec {
  const trimmed = value.trim();
  if (looksLikePath(trimmed)) {
    if (!/\.(tgz|tar\.gz)$/i.test(trimmed)) {
      throw new PackageSpecError(`"${trimmed}" is neither a registry name nor a packed tarball (.tgz).`, 'Give a registry name such as cache-fix-proxy, or the path of a .tgz made by `npm pack` (`npm run pack:proxy` builds this project\'s).');
    }
    return { kind: 'tarball', path: trimmed };
  }
  const at = trimmed.lastIndexOf('@');
  const hasVersion = at > 0;
  const name = hasVersion ? trimmed.slice(0, at) : trimmed;
  const requested = hasVersion ? trimmed.slice(at + 1) : null;
  if (!NAME.test(name)) {
    throw new PackageSpecError(`"${trimmed}" is not an npm package name.`, 'Give a registry name such as cache-fix-proxy, or the path of a .tgz.');
  }
  if (requested !== null && requested !== PINNED_PROXY_VERSION) {
    throw new PackageSpecError(
      `${name}@${requested} is refused: the proxy is documented for version ${PINNED_PROXY_VERSION} only, and install and upgrade are pinned to exactly that version so changed defaults do not diverge from the documentation.`,
      `Use ${name}@${PINNED_PROXY_VERSION} (or just ${name}; gwctl adds @${PINNED_PROXY_VERSION}).`,
    );
  }
  return { kind: 'registry', name, requested };
}

/** The argument for `npm install -g`: name@4.2.1, or the tarball path as given (already resolved). */
export function installArgument(spec: PackageSpec): string {
  return spec.kind === 'registry' ? `${spec.name}@${PINNED_PROXY_VERSION}` : spec.path;
}
