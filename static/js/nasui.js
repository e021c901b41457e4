// Small behaviours shared by every page.
// Forms with data-confirm ask before they submit (destructive actions).
document.addEventListener("submit", function (event) {
  var form = event.target;
  var question = form.getAttribute && form.getAttribute("data-confirm");
  if (question && !window.confirm(question)) {
    event.preventDefault();
  }
}, true);

// Polling elements (hx-trigger="every Ns") skip their request while the tab is hidden. This is
// what a trigger filter like [!document.hidden] would do, without htmx evaluating a string as
// code, which the Content-Security-Policy forbids.
document.addEventListener("htmx:beforeRequest", function (event) {
  var trigger = event.detail.elt.getAttribute("hx-trigger") || "";
  if (document.hidden && /^\s*every\s/.test(trigger)) {
    event.preventDefault();
  }
});
