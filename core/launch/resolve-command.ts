// Finds the file a command name runs, as the shell would: a path is taken as is (relative to the
// working directory), a bare name is looked up in PATH.
import { accessSync, constants, statSync } from 'node:fs';
import { delimiter, isAbsolute, join, resolve } from 'node:path';

function executable(path: string): boolean {
  try {
    accessSync(path, constants.X_OK);
    return statSync(path).isFile();
  } catch {
    return false;
  }
}

export function resolveCommand(command: string, env: NodeJS.ProcessEnv, cwd: string): string | undefined {
  if (command.includes('/')) {
    const path = isAbsolute(command) ? command : resolve(cwd, command);
    return executable(path) ? path : undefined;
  }
  for (const dir of (env.PATH ?? '').split(delimiter)) {
    if (dir === '') continue;
    const candidate = join(isAbsolute(dir) ? dir : resolve(cwd, dir), command);
    if (executable(candidate)) return candidate;
  }
  return undefined;
}
