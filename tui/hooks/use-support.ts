// Support: the same lookups as `gwctl admin request|key find|support` (core/support/support-lookup.ts),
// through the gateway's operator API with GWCTL_OPERATOR_TOKEN, from the service address setting.
import { useCallback } from 'react';
import { lookupSupport, OPERATOR_TOKEN_VAR, queryKind, type SupportAnswer } from '../../core/support/support-lookup.ts';
import { useEngine } from './engine.ts';
import { ProblemError } from './problem.ts';
import { useSettings } from './use-settings.ts';
import { useTask } from './use-task.ts';

export { OPERATOR_TOKEN_VAR };

export function useSupport() {
  const deps = useEngine();
  const { settings, problem } = useSettings();
  const work = useCallback(
    async (query: string): Promise<SupportAnswer> => {
      if (!settings) throw new ProblemError(problem);
      const baseUrl = settings.baseUrl.value;
      if (typeof baseUrl !== 'string' || !baseUrl) throw new ProblemError({ message: 'No service address is set.', remedy: 'Set baseUrl on the Settings screen (or `gwctl config set baseUrl <url>`).' });
      return lookupSupport(query, { baseUrl, token: deps.env[OPERATOR_TOKEN_VAR], http: deps.http, post: deps.post, timeoutMs: deps.requestTimeoutMs ?? 10_000 });
    },
    [deps, settings, problem],
  );
  return useTask(work);
}

/** The command that does the same on the gateway machine. */
export function supportCommandLine(query: string): string {
  const shown = query.trim() || '<request id | key | bundle.json>';
  const kind = queryKind(query.trim());
  if (kind === 'request') return `gwctl admin request ${shown}`;
  if (kind === 'bundle') return `gwctl admin support ${shown}`;
  return query.trim() ? `gwctl admin key find ${shown}` : `gwctl admin request ${shown}`;
}
