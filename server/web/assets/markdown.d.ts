// Types for the browser module markdown.js, so tests can import it.
export function escapeHtml(text: string): string;
export function renderMarkdown(source: string): string;
