// Shared browser helpers: the session's CSRF token on every call, JSON errors as messages, copy buttons.
export const csrfToken = document.querySelector('meta[name="csrf-token"]')?.getAttribute('content') ?? '';

export async function api(path, { method = 'GET', body, signal } = {}) {
  const response = await fetch(path, {
    method,
    signal,
    headers: { 'x-csrf-token': csrfToken, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  if (response.status === 401) {
    location.href = `/login?next=${encodeURIComponent(location.pathname)}`;
    throw new Error('Your session has ended.');
  }
  return response;
}

export async function errorMessage(response) {
  try {
    const body = await response.json();
    return body?.error?.message ?? `Request failed (${response.status}).`;
  } catch {
    return `Request failed (${response.status}).`;
  }
}

export function element(tag, props = {}, children = []) {
  const node = document.createElement(tag);
  for (const [name, value] of Object.entries(props)) {
    if (name === 'text') node.textContent = value;
    else if (name.startsWith('on')) node.addEventListener(name.slice(2), value);
    else node.setAttribute(name, value);
  }
  for (const child of children) node.append(child);
  return node;
}

export function wireCopyButtons(root = document) {
  for (const button of root.querySelectorAll('[data-copy]')) {
    button.addEventListener('click', async () => {
      const text = document.querySelector(button.dataset.copy)?.textContent ?? '';
      try {
        await navigator.clipboard.writeText(text);
        button.textContent = 'Copied';
      } catch {
        const range = document.createRange();
        range.selectNodeContents(document.querySelector(button.dataset.copy));
        getSelection().removeAllRanges();
        getSelection().addRange(range);
        button.textContent = 'Selected: press Ctrl+C';
      }
    });
  }
}
