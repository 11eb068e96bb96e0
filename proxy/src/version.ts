// The documented behaviour this package matches is pinned to exactly this release (spec 9.2).
export const VERSION = '4.2.1';
export const PACKAGE_NAME = 'cache-fix-proxy';
