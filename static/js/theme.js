// Follow the system's light/dark setting, and keep following it if it changes. Loaded in the
// head without defer, so the page never flashes the wrong theme; a file, not inline, so the
// Content-Security-Policy can forbid inline scripts.
(function () {
  var dark = window.matchMedia("(prefers-color-scheme: dark)");
  function apply() { document.documentElement.setAttribute("data-bs-theme", dark.matches ? "dark" : "light"); }
  apply(); dark.addEventListener("change", apply);
})();
