// Runs a planned launch with its own configuration: the temporary folder is written just before the
// client starts and removed when it exits (also when it could not be started). Used by `gwctl
// start` and the TUI, so both launch alike.
import { writeIsolation } from './isolation/prepare-isolation.ts';
import type { LaunchRequest } from './launch-client.ts';

export async function launchIsolated(request: LaunchRequest, launch: (request: LaunchRequest) => Promise<number>): Promise<number> {
  if (!request.isolation) return launch(request);
  const isolation = writeIsolation(request.isolation.kind, request.isolation.spec);
  try {
    return await launch({ ...request, env: { ...request.env, ...isolation.env } });
  } finally {
    isolation.cleanup();
  }
}
