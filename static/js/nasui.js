// Small behaviours shared by every page.
// Forms with data-confirm ask before they submit (destructive actions).
document.addEventListener("submit", function (event) {
  var form = event.target;
  var question = form.getAttribute && form.getAttribute("data-confirm");
  if (question && !window.confirm(question)) {
    event.preventDefault();
  }
}, true);
