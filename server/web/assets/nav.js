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
