// The `proxy.package` setting: a registry name or a .tgz path, never another version than 4.2.1.
// Default: the tarball this project builds with `npm run pack:proxy`.
import { fileURLToPath } from 'node:url';
import { PackageSpecError, parsePackageSpec, PINNED_PROXY_VERSION } from '../proxy/package-spec.ts';
import { SettingError } from './setting-error.ts';

export const DEFAULT_PROXY_PACKAGE = fileURLToPath(new URL(`../../proxy/dist/cache-fix-proxy-${PINNED_PROXY_VERSION}.tgz`, import.meta.url));

export function parseProxyPackage(value: string, where: string): string {
  try {
    parsePackageSpec(value);
  } catch (error) {
    if (error instanceof PackageSpecError) throw new SettingError(`${where}: ${error.message}`, error.remedy);
    throw error;
  }
  return value;
}
