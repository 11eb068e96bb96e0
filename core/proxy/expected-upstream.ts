// Spec 4.4 upstream table: which CACHE_FIX_PROXY_UPSTREAM an authentication path needs.
// This service's key → {base_url} (must be set); vendor key or subscription login → the default.
import type { AuthPath } from '../config/client-profile.ts';

export interface ExpectedUpstream {
  /** Undefined: leave CACHE_FIX_PROXY_UPSTREAM unset (the proxy's built-in default). */
  value: string | undefined;
  why: string;
}

export function expectedUpstream(auth: AuthPath, serviceRoot: string | undefined): ExpectedUpstream {
  if (auth === 'service') {
    if (!serviceRoot) throw new Error('the service address is needed for auth path service');
    return { value: serviceRoot, why: `a key of this service: the upstream must be {base_url} = ${serviceRoot} (the step must not be omitted)` };
  }
  return {
    value: undefined,
    why: auth === 'vendor' ? 'an official vendor key: the default upstream (price and TTL are decided by the vendor account)' : 'a subscription login: the default upstream; CACHE_FIX_OAUTH_REFRESH stays off',
  };
}
