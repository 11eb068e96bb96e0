// How to use a key, for the keys page and the new-key panel: the text and image base URLs, the /v1
// rule per kind of client, and copyable examples. Built from core/config/client-entries.ts, the same
// source as `gwctl config client`, so the page and the command cannot tell different stories.
import { clientEntries, type ClientEntry } from '../../core/config/client-entries.ts';
import { resolveSettings } from '../../core/config/resolve-settings.ts';

export interface ClientExample {
  id: string;
  title: string;
  text: string;
}

export interface ClientGuide {
  textBaseUrl: string;
  imageBaseUrl: string;
  entries: ClientEntry[];
  examples: ClientExample[];
}

export function clientGuide(options: { publicUrl: string; publicImageUrl: string; textModel?: string; imageModel?: string; key?: string }): ClientGuide {
  const settings = resolveSettings({
    file: { get: () => undefined, path: '(this gateway)' },
    env: {},
    flags: { baseUrl: options.publicUrl, imageBaseUrl: options.publicImageUrl },
  });
  const { entries } = clientEntries(settings, { keyRef: 'placeholder' });
  const key = options.key ?? '<API_KEY>';
  const fill = (text: string) => text.replaceAll('<API_KEY>', key);
  const chat = entries.find((e) => e.type === 'chat')!;
  const messages = entries.find((e) => e.type === 'messages')!;
  const responses = entries.find((e) => e.type === 'responses')!;
  const images = entries.find((e) => e.type === 'images');
  const model = options.textModel ?? '<MODEL>';
  const examples: ClientExample[] = [
    {
      id: 'curl',
      title: 'curl (chat completions)',
      text: fill(`curl ${chat.baseUrl}/chat/completions \\\n  -H "Authorization: Bearer <API_KEY>" -H "Content-Type: application/json" \\\n  -d '{"model": "${model}", "messages": [{"role": "user", "content": "Hello"}]}'`),
    },
    {
      id: 'openai-sdk',
      title: 'openai SDK (Python; the JavaScript SDK takes the same baseURL)',
      text: fill(`from openai import OpenAI\n\nclient = OpenAI(base_url="${chat.baseUrl}", api_key="<API_KEY>")\nanswer = client.chat.completions.create(model="${model}", messages=[{"role": "user", "content": "Hello"}])\nprint(answer.choices[0].message.content)`),
    },
    {
      id: 'messages',
      title: 'Messages-protocol client (environment; base address without /v1)',
      text: fill(Object.entries(messages.env ?? {}).map(([name, value]) => `export ${name}="${value}"`).join('\n')),
    },
    {
      id: 'codex',
      title: `Codex CLI (${responses.files?.[0]?.path ?? '~/.codex/config.toml'}; ${responses.files?.[0]?.note ?? ''})`,
      text: `${responses.files?.[0]?.text ?? ''}\n\n# then, in the shell that starts codex:\nexport MSGAPI_AUTH_TOKEN="${key}"`,
    },
    ...(images
      ? [
          {
            id: 'images',
            title: 'curl (images, on the image address)',
            text: fill(`curl ${images.baseUrl}/images/generations \\\n  -H "Authorization: Bearer <API_KEY>" -H "Content-Type: application/json" \\\n  -d '{"model": "${options.imageModel ?? '<IMAGE_MODEL>'}", "prompt": "a lighthouse at dusk", "size": "256x256"}'`),
          },
        ]
      : []),
    {
      id: 'gwctl',
      title: 'gwctl on your machine (the same settings for every client, and a check of the key)',
      text: `gwctl config set baseUrl ${options.publicUrl}\ngwctl config set imageBaseUrl ${options.publicImageUrl}\ngwctl config client\nexport MSGAPI_AUTH_TOKEN="${key}"\ngwctl verify`,
    },
  ];
  return { textBaseUrl: options.publicUrl, imageBaseUrl: options.publicImageUrl, entries, examples };
}
