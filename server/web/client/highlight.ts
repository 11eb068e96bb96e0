// highlight.js with the languages chat answers use most, registered one by one so the bundle holds
// only these (the full set is ten times larger). Aliases come with each language (js, ts, py, sh,
// html, yml, …).
import hljs from 'highlight.js/lib/core';
import bash from 'highlight.js/lib/languages/bash';
import c from 'highlight.js/lib/languages/c';
import cpp from 'highlight.js/lib/languages/cpp';
import css from 'highlight.js/lib/languages/css';
import diff from 'highlight.js/lib/languages/diff';
import go from 'highlight.js/lib/languages/go';
import java from 'highlight.js/lib/languages/java';
import javascript from 'highlight.js/lib/languages/javascript';
import json from 'highlight.js/lib/languages/json';
import markdown from 'highlight.js/lib/languages/markdown';
import python from 'highlight.js/lib/languages/python';
import rust from 'highlight.js/lib/languages/rust';
import shell from 'highlight.js/lib/languages/shell';
import sql from 'highlight.js/lib/languages/sql';
import typescript from 'highlight.js/lib/languages/typescript';
import xml from 'highlight.js/lib/languages/xml';
import yaml from 'highlight.js/lib/languages/yaml';

const LANGUAGES = { bash, c, cpp, css, diff, go, java, javascript, json, markdown, python, rust, shell, sql, typescript, xml, yaml };
for (const [name, language] of Object.entries(LANGUAGES)) hljs.registerLanguage(name, language);

/** Highlighted HTML (spans with hljs-* classes, text escaped), or undefined for a language not registered. */
export function highlightCode(code: string, language: string): { html: string; language: string } | undefined {
  const known = language ? hljs.getLanguage(language) : undefined;
  if (!known) return undefined;
  return { html: hljs.highlight(code, { language, ignoreIllegals: true }).value, language: known.name ?? language };
}
