// Copies text to the clipboard: the async Clipboard API where the page may use it (a secure
// context with permission), else a hidden textarea and execCommand('copy'), which plain-HTTP
// gateways on a LAN still allow. Buttons say "Copied" for a moment, or what went wrong.

export async function copyText(text: string): Promise<boolean> {
  try {
    if (navigator.clipboard && window.isSecureContext) {
      await navigator.clipboard.writeText(text);
      return true;
    }
  } catch {
    // permission refused or no focus: try the fallback
  }
  const area = document.createElement('textarea');
  area.value = text;
  area.setAttribute('readonly', '');
  area.className = 'sr-only';
  document.body.append(area);
  area.select();
  try {
    return document.execCommand('copy');
  } catch {
    return false;
  } finally {
    area.remove();
  }
}

const timers = new WeakMap<HTMLElement, number>();

/** Copies and shows the outcome on the button, then restores its label. */
export async function copyFromButton(button: HTMLElement, text: string): Promise<void> {
  const label = button.dataset.label ?? button.textContent ?? 'Copy';
  button.dataset.label = label;
  const ok = await copyText(text);
  button.textContent = ok ? 'Copied' : 'Copy failed: select the text and press Ctrl+C';
  button.classList.toggle('copied', ok);
  window.clearTimeout(timers.get(button));
  timers.set(
    button,
    window.setTimeout(() => {
      button.textContent = label;
      button.classList.remove('copied');
    }, 2000),
  );
}
