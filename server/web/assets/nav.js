// The phone menu: loaded in <head> so the class is set before the first paint (no flash of the
// unfolded list). Without scripts the class never appears and every link stays visible.
document.documentElement.classList.add('js-nav');

document.addEventListener('DOMContentLoaded', () => {
  const button = document.querySelector('.menu-button');
  const panel = document.getElementById('site-nav');
  if (!button || !panel) return;
  const setOpen = (open) => {
    panel.classList.toggle('open', open);
    button.setAttribute('aria-expanded', String(open));
  };
  button.addEventListener('click', () => setOpen(button.getAttribute('aria-expanded') !== 'true'));
  button.closest('header').addEventListener('keydown', (event) => {
    if (event.key !== 'Escape' || button.getAttribute('aria-expanded') !== 'true') return;
    setOpen(false);
    button.focus();
  });
});

// Tables wider than their card: mark them (shadows, sticky actions in app.css), make them reachable by
// keyboard to scroll, and say so above them. Rechecked when the window changes size.
function markScrollingTables() {
  for (const wrap of document.querySelectorAll('.table-wrap')) {
    const scrolls = wrap.scrollWidth > wrap.clientWidth + 1;
    wrap.classList.toggle('scrolls', scrolls);
    let hint = wrap.previousElementSibling;
    if (!hint || !hint.classList.contains('scroll-hint')) hint = null;
    if (scrolls) {
      wrap.setAttribute('tabindex', '0');
      wrap.setAttribute('role', 'region');
      wrap.setAttribute('aria-label', 'Table (scrolls sideways)');
      if (!hint) {
        hint = document.createElement('p');
        hint.className = 'scroll-hint muted';
        hint.textContent = 'The table is wider than the screen: scroll it sideways →';
        wrap.before(hint);
      }
    } else {
      wrap.removeAttribute('tabindex');
      wrap.removeAttribute('role');
      wrap.removeAttribute('aria-label');
      hint?.remove();
    }
  }
}
document.addEventListener('DOMContentLoaded', markScrollingTables);
window.addEventListener('resize', markScrollingTables);
