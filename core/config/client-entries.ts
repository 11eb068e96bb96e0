// What to enter in a client for each route: provider type, base URL and a key reference; for the
// messages client also the variables of the active profile (and its model when client.model is
// set). The key appears only as a placeholder or a variable reference, never as a value.
import type { ResolvedSettings } from './resolve-settings.ts';
import { CODEX_CONFIG_NOTE, CODEX_KEY_VAR, codexConfigToml } from './codex-config.ts';
import { serviceAddress } from './service-address.ts';

export type ClientType = 'chat' | 'messages' | 'responses' | 'images';

export interface ClientEntry {
  type: ClientType;
  title: string;
  providerType: string;
  baseUrl: string;
  baseUrlNote: string;
  apiKey: string;
  env?: Record<string, string>;
  /** Settings files to write for a named client (the Codex CLI's config.toml for Responses clients). */
  files?: ClientFile[];
}

export interface ClientFile {
  client: string;
  path: string;
  text: string;
  /** How to put the text in (e.g. where in the file). */
  note: string;
}

export interface ClientEntries {
  entries: ClientEntry[];
  notes: string[];
}

export interface ClientEntriesOptions {
  /** Only this kind of client; all when absent (then a missing imageBaseUrl is a note, not an error). */
  type?: ClientType;
  keyRef: 'placeholder' | 'env';
}

/** Throws SettingError when a needed base URL is not set or invalid. */
export function clientEntries(settings: ResolvedSettings, options: ClientEntriesOptions): ClientEntries {
  const tokenVar = settings['client.tokenVar'].value as string;
  const key = options.keyRef === 'env' ? `\${${tokenVar}}` : '<API_KEY>';
  const wanted: ClientType[] = options.type ? [options.type] : ['chat', 'messages', 'responses', 'images'];
  const notes: string[] = [];
  const entries: ClientEntry[] = [];
  const text = wanted.some((t) => t !== 'images') ? serviceAddress(settings) : undefined;
  if (text?.hadV1) notes.push(`baseUrl ends with /v1; {base_url} is ${text.root} (the /v1 is added below where a client needs it).`);
  if (text && wanted.includes('chat')) {
    entries.push({ type: 'chat', title: 'Chat-completions client (SDKs, CLI agents, chat desktop apps)', providerType: 'OpenAI-compatible (chat completions)', baseUrl: `${text.root}/v1`, baseUrlNote: 'must end with /v1', apiKey: key });
  }
  if (text && wanted.includes('messages')) {
    entries.push({
      type: 'messages',
      title: 'Messages-protocol client',
      providerType: 'messages protocol',
      baseUrl: text.root,
      baseUrlNote: `without /v1 for Anthropic-SDK clients (they append /v1/messages); AI-SDK clients (OpenCode, Kilo, Cline: @ai-sdk/anthropic) append /messages, so give them ${text.root}/v1`,
      apiKey: key,
      env: {
        [settings['client.baseUrlVar'].value as string]: text.root,
        [tokenVar]: key,
        ...(settings['client.model'].value ? { [settings['client.modelVar'].value as string]: settings['client.model'].value as string } : {}),
      },
    });
  }
  if (text && wanted.includes('responses')) {
    entries.push({
      type: 'responses',
      title: 'Responses-API client (Codex CLI, agents on the OpenAI Responses API)',
      providerType: 'OpenAI-compatible (Responses API)',
      baseUrl: `${text.root}/v1`,
      baseUrlNote: 'must end with /v1: the client appends /responses',
      apiKey: options.keyRef === 'env' ? `\${${CODEX_KEY_VAR}}` : '<API_KEY>',
      files: [{ client: 'Codex CLI', path: '~/.codex/config.toml', text: codexConfigToml(`${text.root}/v1`, (settings['client.model'].value as string | null) ?? null), note: CODEX_CONFIG_NOTE }],
    });
  }
  if (wanted.includes('images')) {
    if (settings.imageBaseUrl.value === null && !options.type) {
      notes.push('imageBaseUrl is not set; set it with `gwctl config set imageBaseUrl <url>` to see the image client settings.');
    } else {
      const image = serviceAddress(settings, 'imageBaseUrl');
      entries.push({ type: 'images', title: 'Image client (image APIs, image-generation skills)', providerType: 'OpenAI-compatible (images)', baseUrl: `${image.root}/v1`, baseUrlNote: 'separate from the text address; ends with /v1', apiKey: key });
    }
  }
  return { entries, notes };
}
