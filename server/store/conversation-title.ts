// A conversation's title as plain text: the first message with its markdown markers taken out (the
// list shows titles as text, so `**bold**` would show its stars), on one line and cut to a length
// that fits the list.

export const DERIVED_TITLE_CHARS = 80;
export const UNTITLED = 'New conversation';

export function titleFromMessage(message: string): string {
  const plain = message
    .slice(0, 2000)
    .replace(/^\s{0,3}(```|~~~)[^\n]*$/gm, ' ')
    .replace(/!\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/\[([^\]]+)\]\([^)]*\)/g, '$1')
    .replace(/^\s{0,3}(#{1,6}\s+|>\s?|[-*+]\s+(\[[ xX]\]\s+)?|\d+[.)]\s+)/gm, '')
    .replace(/(\*\*|__|~~)(?=\S)([^]*?\S)\1/g, '$2')
    .replace(/(^|[^\w*])[*_](?=\S)([^*_\n]*?\S)[*_](?=[^\w*]|$)/g, '$1$2')
    .replace(/`+([^`]*)`+/g, '$1')
    .replace(/\s+/g, ' ')
    .trim();
  if (plain === '') return UNTITLED;
  if (plain.length <= DERIVED_TITLE_CHARS) return plain;
  const cut = plain.slice(0, DERIVED_TITLE_CHARS - 1);
  const space = cut.lastIndexOf(' ');
  return `${space > DERIVED_TITLE_CHARS / 2 ? cut.slice(0, space) : cut}…`;
}
