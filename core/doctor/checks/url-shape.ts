// verify: /v1 doubled or missing for the route: chat-completions and image base URLs
// end with /v1 once; a messages client's base address has none.
import { outcome } from '../check-result.ts';
import type { Check } from '../check.ts';
import { causeRemedy } from '../../causes/cause-remedy.ts';
import { modelsUrlFor, type VerifyContext } from '../verify-context.ts';

export const urlShape: Check<VerifyContext> = {
  id: 'url.shape',
  async run(ctx) {
    const base = ctx.baseUrl;
    const path = new URL(base).pathname.replace(/\/+$/, '');
    const target = modelsUrlFor(ctx);
    if (ctx.routeType === 'messages') {
      if (/\/v1$/.test(path)) {
        return outcome.fail('URL_DOUBLE_V1', `${base} ends with /v1; a messages client appends /v1/… itself, so requests go to ${target}`, causeRemedy('URL_DOUBLE_V1', ctx.vars).remedy, [`gwctl verify --base-url ${base.replace(/(\/v1)+$/, '')}`]);
      }
      return outcome.pass(`${base} has no /v1, as a messages client's base address should; requests go to ${target}`);
    }
    if (/\/v1\/v1$/.test(path)) {
      const fixed = base.replace(/(\/v1)+$/, '/v1');
      return outcome.fail('URL_DOUBLE_V1', `${base} carries /v1 twice`, `Use ${fixed}: the base URL ends with /v1 exactly once.`, [`gwctl verify --type ${ctx.routeType} --base-url ${fixed}`]);
    }
    if (!/\/v1$/.test(path)) {
      const observed = `${base} does not end with /v1; a ${ctx.routeType === 'chat' ? 'chat-completions' : 'image'} client would request ${target}`;
      // Only a bare address says where /v1 goes; under another path (…/api) the right base is not
      // known from this input, so no address is suggested (the model-list check names it when the
      // service answers with its own hint).
      if (path === '') return outcome.fail('URL_MISSING_V1', observed, `Use ${base}/v1: the base URL must end with /v1.`, [`gwctl verify --type ${ctx.routeType} --base-url ${base}/v1`]);
      return outcome.fail('URL_MISSING_V1', observed, 'The base URL must be the service address followed by /v1 once; take the address from the service (its keys page or its operator), not from this path.');
    }
    return outcome.pass(`${base} ends with /v1 once, as a ${ctx.routeType === 'chat' ? 'chat-completions' : 'image'} client's base URL should`);
  },
};
