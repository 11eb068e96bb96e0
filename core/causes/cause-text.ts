// The words of one cause, as each topic file of the catalogue writes them (the code is the key).
// Placeholders {base_url} {proxy_url} {token_var} {base_var} are filled by the client side
// (core/doctor/fill-template.ts). Texts of causes the gateway itself names in its refusals use none:
// the gateway speaks to any client and knows none of those values.

export interface CauseText {
  /** What happened, one sentence. */
  summary: string;
  /** Why it happens. */
  why: string;
  /** What the person using the key does. */
  userRemedy: string;
  /** What the service operator does. */
  operatorRemedy: string;
  /** The user's commands. */
  commands: readonly string[];
  /** The operator's commands (gwctl admin …, gwctl serve …). */
  operatorCommands: readonly string[];
}
