// How an exchange that reached a provider ended, when it did not complete normally. Such requests
// are counted like any other, with the tokens known when they ended, and their outcome is kept.

export type UsageOutcome = 'client_aborted' | 'upstream_cut' | 'shutdown_cut';

export const OUTCOME_LABELS: Record<UsageOutcome, string> = {
  client_aborted: 'client left before the end',
  upstream_cut: 'upstream cut the answer',
  shutdown_cut: 'cut by a gateway shutdown',
};
