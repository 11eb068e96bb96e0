// The one way a request's usage is counted: appended to the usage journal first (written before the
// answer ends, so it survives the process being killed; usage-journal.ts), then counted in memory by
// the usage meter and, for API requests, buffered for the request log. Callers run it where the answer
// ends and end it through the journal's afterWrite(), so no answer a client received whole is missing
// after a crash.
import type { UsageMeter, UsageEvent } from './usage-meter.ts';
import type { RequestLog, RequestLogEntry } from './request-log.ts';
import type { UsageJournal } from './usage-journal.ts';

export interface UsageSinks {
  usage: UsageMeter;
  requestLog?: RequestLog;
  usageJournal?: UsageJournal;
}

/** Usage of an API request: the meter and the request log, both from the same object. */
export function recordRequestUsage(sinks: UsageSinks, event: UsageEvent & RequestLogEntry): void {
  sinks.usageJournal?.append(event, true, event.at);
  sinks.usage.record(event);
  sinks.requestLog?.push(event);
}

/** Usage without a request log entry (the web applications, which use no key). */
export function recordUsage(sinks: UsageSinks, event: UsageEvent): void {
  sinks.usageJournal?.append(event, false);
  sinks.usage.record(event);
}
