// What `gwctl verify` checks when given only settings: the base URL a client of the route type uses
// ({base_url}, {base_url}/v1 or {image_base_url}/v1, unless baseUrl came from a flag), the key
// variable and the template values for remedies. Throws SettingError when a needed URL is not set.
import { tokenSourcesFor } from '../config/client-profile.ts';
import type { ResolvedSettings } from '../config/resolve-settings.ts';
import { serviceAddress } from '../config/service-address.ts';
import type { RouteType } from './classify-models-call.ts';
import type { TemplateVars } from './fill-template.ts';

export interface VerifyTarget {
  baseUrl: string;
  keyVar: string;
  vars: TemplateVars;
}

/**
 * Without --key-env the key is read where gwctl start finds it: the client's token variable, else
 * the neutral MSGAPI_AUTH_TOKEN.
 */
export function verifyTarget(settings: ResolvedSettings, type: RouteType, env: NodeJS.ProcessEnv, keyEnv?: string): VerifyTarget {
  const root = serviceAddress(settings).root;
  let baseUrl: string;
  if (settings.baseUrl.source === 'flag') baseUrl = settings.baseUrl.value as string;
  else if (type === 'images') baseUrl = `${serviceAddress(settings, 'imageBaseUrl').root}/v1`;
  else baseUrl = type === 'chat' ? `${root}/v1` : root;
  const tokenVar = settings['client.tokenVar'].value as string;
  const keyVar = keyEnv ?? tokenSourcesFor(tokenVar).find((name) => env[name]) ?? tokenVar;
  return {
    baseUrl,
    keyVar,
    vars: { base_url: root, token_var: keyVar, base_var: settings['client.baseUrlVar'].value as string, proxy_url: settings.proxyUrl.value as string },
  };
}
