// Runs before the first paint (a classic blocking script, allowed by the dashboard's CSP as
// 'self'): puts the remembered theme on <html> so no page flashes the wrong one. The choice is
// kept by src/lib/theme.ts; keep the key and the class in step with it.
(function () {
  var pref = 'system';
  try {
    pref = localStorage.getItem('betty.theme') || 'system';
  } catch (e) {}
  var dark = pref === 'dark' || (pref !== 'light' && window.matchMedia && window.matchMedia('(prefers-color-scheme: dark)').matches);
  var root = document.documentElement;
  if (dark) root.classList.add('dark');
  root.style.colorScheme = dark ? 'dark' : 'light';
})();
