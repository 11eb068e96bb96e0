// Builds DOM nodes without HTML strings: text is always set as text.

type Props = Record<string, string | boolean | ((event: Event) => void) | undefined>;

/** `text` sets textContent, `on<event>` adds a listener, `true`/`false` add or leave out an attribute. */
export function element<K extends keyof HTMLElementTagNameMap>(tag: K, props: Props = {}, children: Array<Node | string> = []): HTMLElementTagNameMap[K] {
  const node = document.createElement(tag);
  for (const [name, value] of Object.entries(props)) {
    if (value === undefined || value === false) continue;
    if (name === 'text') node.textContent = String(value);
    else if (typeof value === 'function') node.addEventListener(name.slice(2), value);
    else node.setAttribute(name, value === true ? '' : value);
  }
  node.append(...children);
  return node;
}

/** The element with this id, which the page shell always renders. */
export function byId<T extends HTMLElement = HTMLElement>(id: string): T {
  const node = document.getElementById(id);
  if (!node) throw new Error(`The page has no #${id}.`);
  return node as T;
}
