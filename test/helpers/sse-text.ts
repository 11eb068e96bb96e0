// A deliberately small SSE reader for test assertions, independent of the gateway's own parser so
// that a bug there cannot hide itself in the tests.

export interface ParsedSse {
  event?: string;
  data: string;
  /** False for comment-only blocks (keep-alives such as `: ping`). */
  hasData: boolean;
}

export function parseSse(text: string): ParsedSse[] {
  return text
    .split(/\r?\n\r?\n/)
    .filter((block) => block.trim() !== '')
    .map((block) => {
      let event: string | undefined;
      const data: string[] = [];
      let hasData = false;
      for (const line of block.split(/\r?\n/)) {
        if (line.startsWith('event:')) event = line.slice(6).trim();
        else if (line.startsWith('data:')) {
          hasData = true;
          data.push(line.slice(5).replace(/^ /, ''));
        }
      }
      return { event, data: data.join('\n'), hasData };
    });
}
