// Snapshot pages. Everything here is an enhancement: the forms work the same without it.

// The filter of the snapshot list applies as soon as another dataset is picked.
document.addEventListener("change", function (event) {
  var form = event.target.form;
  if (form && form.hasAttribute("data-autosubmit") && event.target.tagName === "SELECT") {
    form.submit();
  }
});

// A periodic task's schedule preset fills the minute, hour and day fields it stands for;
// typing in one of them makes the schedule "custom" (the server does the same on save).
function nasuiPresets(form) {
  var presets = JSON.parse(form.getAttribute("data-presets"));
  var fields = ["minutes", "hours", "days_of_week"];
  var preset = form.elements.preset;
  preset.addEventListener("change", function () {
    var values = presets[preset.value];
    if (!values) { return; }
    fields.forEach(function (name, i) { form.elements[name].value = values[i]; });
  });
  fields.forEach(function (name) {
    form.elements[name].addEventListener("input", function () { preset.value = "custom"; });
  });
}
document.addEventListener("DOMContentLoaded", function () {
  document.querySelectorAll("form[data-presets]").forEach(nasuiPresets);
});
