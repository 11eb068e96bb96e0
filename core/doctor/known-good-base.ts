// The address a remedy may suggest after a 404: only one known to be right, never the address that
// answered 404. The gateway's own 404 names its base address (see its not-found hints); otherwise a
// configured base that differs from the one tried. With neither, no address is suggested.
import type { RouteType } from './classify-models-call.ts';

/** The service root a 404 message names, e.g. "This address serves https://gw.example.com/v1/models, …". */
export function rootFromHint(message: string | undefined): string | undefined {
  const url = message?.match(/https?:\/\/[^\s"'<>]+/)?.[0];
  if (!url) return undefined;
  return url.replace(/[.,;:)]+$/, '').replace(/\/v1(\/.*)?$/, '').replace(/\/+$/, '');
}

export const rootOf = (base: string): string => base.replace(/\/+$/, '').replace(/(\/v1)+$/, '');

/** The base address a client of `route` should use, from known-good data only; undefined when none is known. */
export function knownGoodBase(route: RouteType, tried: string, hint: string | undefined, configured?: string): { base: string; from: string } | undefined {
  const hinted = rootFromHint(hint);
  const root = hinted ?? (configured && rootOf(configured) !== rootOf(tried) ? rootOf(configured) : undefined);
  if (!root) return undefined;
  const from = hinted ? "the service's own 404 answer names it" : 'the configured base address';
  return { base: route === 'messages' ? root : `${root}/v1`, from };
}

/** Remedy and commands for a base address that answered 404, from known-good data only. */
export function notFoundRemedy(route: RouteType, tried: string, hint: string | undefined, configured?: string): { remedy: string; commands: string[] } {
  const good = knownGoodBase(route, tried, hint, configured);
  const type = route === 'messages' ? '' : ` --type ${route}`;
  const setting = route === 'images' ? 'imageBaseUrl' : 'baseUrl';
  const kind = route === 'messages' ? "a messages client's base address (no /v1: the client appends /v1/messages)" : `a ${route === 'chat' ? 'chat-completions' : 'image'} base URL (it ends with /v1 once)`;
  if (good) {
    return {
      remedy: `${tried} is not the API's address (it answered 404). Use ${good.base} as ${kind}; ${good.from}.`,
      commands: [`gwctl verify${type} --base-url ${good.base}`, `gwctl config set ${setting} ${good.base.replace(/\/v1$/, '')}`],
    };
  }
  return {
    remedy: `${tried} is not the API's address (it answered 404, and the answer names no other). Take the base address from the service's web page or its operator and set it as ${kind}.`,
    commands: [`gwctl verify${type} --base-url <base address from the service>`, `gwctl config set ${setting} <base address from the service>`],
  };
}
