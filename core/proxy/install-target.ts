// Turns the proxy.package setting (or an explicit package argument) into what `npm install -g` gets,
// refusing every version but 4.2.1 before anything is installed.
import { existsSync } from 'node:fs';
import { isAbsolute, resolve } from 'node:path';
import { expandUserPath } from '../paths.ts';
import { PackageSpecError, parsePackageSpec, PINNED_PROXY_VERSION, PROXY_BIN, type PackageSpec } from './package-spec.ts';
import { binNames, readTarballManifest } from './tarball-manifest.ts';

export interface InstallTarget {
  spec: PackageSpec;
  /** The argument for `npm install -g`. */
  argument: string;
  /** The package name, when known before installing (always for a tarball). */
  name: string | null;
  /** Where the value came from, for messages. */
  source: string;
}

/** Also thrown for a missing tarball (cause PACKAGE_NOT_FOUND instead of VERSION_REFUSED). */
export class InstallTargetError extends PackageSpecError {
  constructor(
    message: string,
    remedy: string,
    readonly code: 'VERSION_REFUSED' | 'PACKAGE_NOT_FOUND',
  ) {
    super(message, remedy);
  }
}

export function resolveInstallTarget(value: string, source: string, env: NodeJS.ProcessEnv, cwd: string): InstallTarget {
  let spec: PackageSpec;
  try {
    spec = parsePackageSpec(value);
  } catch (error) {
    if (error instanceof PackageSpecError) throw new InstallTargetError(`${error.message} (from ${source})`, error.remedy, 'VERSION_REFUSED');
    throw error;
  }
  if (spec.kind === 'registry') return { spec, argument: `${spec.name}@${PINNED_PROXY_VERSION}`, name: spec.name, source };
  const expanded = expandUserPath(spec.path, env);
  const path = expanded === undefined ? undefined : isAbsolute(expanded) ? expanded : resolve(cwd, expanded);
  if (!path || !existsSync(path)) {
    throw new InstallTargetError(
      `The proxy package ${spec.path} (from ${source}) does not exist.`,
      'An installed gwctl carries this tarball and a checkout builds it with `npm run build` (which `npm ci` runs); or set another: `gwctl config set proxy.package cache-fix-proxy` (registry) or a .tgz path.',
      'PACKAGE_NOT_FOUND',
    );
  }
  let manifest;
  try {
    manifest = readTarballManifest(path);
  } catch (error) {
    throw new InstallTargetError(`${path} is not a packed npm tarball: ${(error as Error).message}.`, 'Give a .tgz made by `npm pack`.', 'PACKAGE_NOT_FOUND');
  }
  if (manifest.version !== PINNED_PROXY_VERSION) {
    throw new InstallTargetError(
      `${path} holds ${manifest.name ?? '?'}@${manifest.version ?? '?'}, which is refused: install and upgrade are pinned to exactly ${PINNED_PROXY_VERSION}.`,
      `Use a ${PINNED_PROXY_VERSION} tarball (\`npm run build\` makes one in proxy/dist/) or a registry name.`,
      'VERSION_REFUSED',
    );
  }
  if (!binNames(manifest).includes(PROXY_BIN)) {
    throw new InstallTargetError(`${path} (${manifest.name}@${manifest.version}) has no ${PROXY_BIN} command.`, 'Give the cache proxy package.', 'PACKAGE_NOT_FOUND');
  }
  return { spec: { kind: 'tarball', path }, argument: path, name: manifest.name ?? null, source };
}
