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
// While the event stream is open (window.nasuiLive), elements marked data-live skip their polls
// too: the stream's events trigger them (a poll has no triggering event; an event's has one).
document.addEventListener("htmx:beforeRequest", function (event) {
  var elt = event.detail.elt;
  var trigger = elt.getAttribute("hx-trigger") || "";
  var polled = /^\s*every\s/.test(trigger) && !event.detail.requestConfig.triggeringEvent;
  if (polled && (document.hidden || (window.nasuiLive && elt.hasAttribute("data-live")))) {
    event.preventDefault();
  }
});

// The event stream (/api/events/, Server-Sent Events): a job's row refreshes when its job
// moves, the alert badge and lists when an alert rises, clears or is dismissed. Without
// EventSource, or while the stream is down (the server may be holding all it can), pages poll.
// Once connected, every data-live element reads itself again (nasui-live): what happened
// between the page's rendering and the stream's start is not missed.
function nasuiEvents() {
  var url = document.body.getAttribute("data-events");
  if (!url || !window.EventSource) { return; }
  var source = new EventSource(url + "?types=job,alert");
  var tell = function (name) { document.body.dispatchEvent(new CustomEvent(name)); };
  source.addEventListener("open", function () {
    window.nasuiLive = true;
    tell("nasui-live");
  });
  source.addEventListener("error", function () {
    window.nasuiLive = false;
    if (source.readyState === EventSource.CLOSED) { setTimeout(nasuiEvents, 30000); }
  });
  source.addEventListener("job", function (event) {
    tell("nasui-job-" + JSON.parse(event.data).id);
  });
  source.addEventListener("alert", function () {
    tell("nasui-alert");
    var badge = document.getElementById("nav-alert-badge");
    var badgeUrl = document.body.getAttribute("data-alert-badge");
    if (badge && badgeUrl && window.htmx) {
      window.htmx.ajax("GET", badgeUrl, {target: "#nav-alert-badge", swap: "outerHTML"});
    }
  });
}
document.addEventListener("DOMContentLoaded", nasuiEvents);

// Fields that only apply to some choices of another field (data-show-when="kind=file", or
// "method=chap,mutual") are hidden, and so skipped by the keyboard, unless it has one of them.
function nasuiShowWhen(root) {
  root.querySelectorAll("[data-show-when]").forEach(function (box) {
    var rule = box.getAttribute("data-show-when").split("=");
    var form = box.closest("form");
    var control = form && form.elements[rule[0]];
    if (!control) { return; }
    var values = rule[1].split(",");
    // A checkbox counts as "on" when ticked and "" when not, whatever its value attribute.
    var current = function () {
      return control.type === "checkbox" ? (control.checked ? "on" : "") : control.value;
    };
    var sync = function () { box.hidden = values.indexOf(current()) === -1; };
    control.addEventListener("change", sync);
    sync();
  });
}
document.addEventListener("DOMContentLoaded", function () { nasuiShowWhen(document); });
document.addEventListener("htmx:load", function (event) { nasuiShowWhen(event.target); });

// "…started" messages say what is under way: once a job on the page has finished (its row
// raises job-finished), they are no longer true and go.
document.body.addEventListener("job-finished", function () {
  document.querySelectorAll("[data-until-job-finished]").forEach(function (note) {
    note.remove();
  });
});

// Copy buttons (data-copy="id of a field"): the field's text to the clipboard, and the button
// says so. Without the clipboard API (plain HTTP), the text is selected for Ctrl+C instead.
document.addEventListener("click", function (event) {
  var button = event.target.closest && event.target.closest("[data-copy]");
  var field = button && document.getElementById(button.getAttribute("data-copy"));
  if (!field) { return; }
  var said = function (text) {
    var label = button.getAttribute("data-label") || button.textContent;
    button.setAttribute("data-label", label);
    button.textContent = text;
    setTimeout(function () { button.textContent = label; }, 2000);
  };
  var select = function () { field.focus(); field.select(); said("Press Ctrl+C"); };
  if (navigator.clipboard && window.isSecureContext) {
    navigator.clipboard.writeText(field.value).then(function () { said("Copied"); }, select);
  } else {
    select();
  }
});

// Passphrase fields (data-strength) say how hard the passphrase is to guess as it is typed: a
// rough count of bits (length times the bits of the kinds of characters used, repeats and
// runs of one character counted once). Nothing typed leaves the page for it.
function nasuiStrength(value) {
  var kinds = [/[a-z]/, /[A-Z]/, /[0-9]/, /[^a-zA-Z0-9]/];
  var sizes = [26, 26, 10, 33];
  var pool = 0;
  kinds.forEach(function (kind, i) { if (kind.test(value)) { pool += sizes[i]; } });
  var distinct = value.replace(/(.)\1+/g, "$1").length;
  var bits = pool ? Math.round(distinct * Math.log2(pool)) : 0;
  if (value.length < 8) { return ["Too short: at least 8 characters", "danger", bits]; }
  if (bits < 50) { return ["Weak: easy to guess, add words", "danger", bits]; }
  if (bits < 80) { return ["Fair: a few more words make it strong", "warning", bits]; }
  return ["Strong", "success", bits];
}
document.addEventListener("input", function (event) {
  var field = event.target;
  if (!field.hasAttribute || !field.hasAttribute("data-strength")) { return; }
  var meter = document.getElementById(field.id + "-strength");
  if (!meter) { return; }
  var said = nasuiStrength(field.value);
  meter.textContent = field.value ? said[0] + " (about " + said[2] + " bits)" : "";
  meter.className = "form-hint text-" + said[1];
});
