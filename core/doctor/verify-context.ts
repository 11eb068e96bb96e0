// What `gwctl verify` checks: one key (from an environment variable, never the command line) against
// one base URL in the form a client of the given route type uses it.
import type { ModelsCall } from '../client/gateway-client.ts';
import type { HttpGet } from '../client/http-get.ts';
import type { RouteType } from './classify-models-call.ts';
import type { TemplateVars } from './fill-template.ts';

export interface VerifyContext {
  keyVar: string;
  key: string | undefined;
  /** The base URL under test, as a client of `routeType` would be configured. */
  baseUrl: string;
  routeType: RouteType;
  http: HttpGet;
  timeoutMs: number;
  vars: TemplateVars;
  /** Filled by the models.list check with the request it made. */
  call?: ModelsCall;
}

/** The model-list URL a client of this route type reaches from its base URL. */
export function modelsUrlFor(ctx: Pick<VerifyContext, 'baseUrl' | 'routeType'>): string {
  return ctx.routeType === 'messages' ? `${ctx.baseUrl}/v1/models` : `${ctx.baseUrl}/models`;
}
