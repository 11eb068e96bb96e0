// What a launch's own configuration consists of, as data: the files to write into a temporary
// folder, the user's folders to link there, the variables that point the client at it, and what was
// carried over from the user's own configuration. Built without writing anything (a dry run shows it).
import type { ClientProfile } from '../../config/client-profile.ts';

export interface IsolationFile {
  /** Relative to the temporary folder. */
  path: string;
  content: string;
}

export interface IsolationLink {
  /** Relative to the temporary folder. */
  path: string;
  /** The user's own file or folder, read in place (never copied, never written by gwctl). */
  target: string;
}

export interface IsolationSpec {
  /** Variables naming the temporary folder or file; `{dir}` stands for the folder. */
  env: Record<string, string>;
  files: IsolationFile[];
  links: IsolationLink[];
  /** What of the user's configuration the launch keeps, in words. */
  carried: string[];
  notes: string[];
}

export interface IsolationInput {
  profile: ClientProfile;
  /** The shell's environment (where the user's configuration is). */
  env: NodeJS.ProcessEnv;
  cwd: string;
  /** The client's own arguments (a one-shot prompt changes what a headless client needs). */
  args: string[];
  /** The client's base address on the chosen route. */
  baseUrl: string;
  /** The model gwctl chose; null = the client's own. */
  model: string | null;
}

/** {dir} in a variable's value: the temporary folder, filled in when it exists. */
export const DIR = '{dir}';
