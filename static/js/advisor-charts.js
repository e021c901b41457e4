// Bar charts of "Try it on my data": each <canvas data-advisor-chart="key" data-specs="id">
// draws the chart `key` described in the <script type="application/json" id="id"> the page
// carries (json_script: no inline code, as the Content-Security-Policy wants). Charts are bound
// again after every htmx swap (a run that finishes swaps its results in) and destroyed when
// their canvas leaves the page.
(function () {
  "use strict";
  var charts = new Map(); // canvas -> Chart
  var COLORS = ["#206bc4", "#2fb344", "#f76707", "#ae3ec9", "#d63939", "#17a2b8"];
  var BYTE_UNITS = ["B", "KiB", "MiB", "GiB", "TiB", "PiB"];

  function bytes(value) {
    var i = 0;
    var v = Math.abs(value);
    while (v >= 1024 && i < BYTE_UNITS.length - 1) { v /= 1024; i++; }
    return (i === 0 ? v.toFixed(0) : v.toFixed(v < 10 ? 2 : 1)) + " " + BYTE_UNITS[i];
  }
  function format(value, unit) {
    if (value === null || value === undefined || isNaN(value)) { return "–"; }
    switch (unit) {
      case "bytes": return bytes(value);
      case "x": return value.toFixed(2) + "x";
      case "%": return value.toFixed(0) + " %";
      case "MB/s": return value.toFixed(value < 10 ? 1 : 0) + " MB/s";
      case "µs": return value.toFixed(0) + " µs";
      default: return Math.round(value).toLocaleString();
    }
  }

  function specs(canvas) {
    var holder = document.getElementById(canvas.dataset.specs || "advisor-charts");
    if (!holder) { return null; }
    try { return JSON.parse(holder.textContent); } catch (e) { return null; }
  }

  function create(canvas) {
    var all = specs(canvas);
    var spec = all && all.filter(function (c) { return c.key === canvas.dataset.advisorChart; })[0];
    if (!spec) { return; }
    var unit = spec.unit;
    var chart = new window.Chart(canvas, {
      type: "bar",
      data: {
        labels: spec.labels,
        datasets: spec.series.map(function (series, i) {
          return { label: series.label, data: series.values, backgroundColor: COLORS[i % COLORS.length] };
        }),
      },
      options: {
        animation: false, responsive: true, maintainAspectRatio: false,
        scales: {
          y: { beginAtZero: true, ticks: { maxTicksLimit: 5, callback: function (v) { return format(v, unit); } } },
        },
        plugins: {
          legend: { display: spec.series.length > 1, labels: { boxWidth: 10 } },
          tooltip: { callbacks: { label: function (ctx) { return ctx.dataset.label + ": " + format(ctx.parsed.y, unit); } } },
        },
      },
    });
    charts.set(canvas, chart);
    // Browser tests read that the chart was drawn, and with how many bars.
    canvas.setAttribute("data-drawn", String(spec.labels.length));
  }

  function sweep() {
    charts.forEach(function (chart, canvas) {
      if (!canvas.isConnected) { chart.destroy(); charts.delete(canvas); }
    });
  }

  function bind() {
    if (!window.Chart) { return; }
    sweep();
    // The whole document: the json_script a canvas reads may arrive in the same swap.
    document.querySelectorAll("canvas[data-advisor-chart]").forEach(function (canvas) {
      if (!charts.has(canvas)) { create(canvas); }
    });
  }

  function start() {
    if (window.htmx) { window.htmx.onLoad(bind); } // also runs for the initial page
    bind();
  }
  if (document.readyState === "loading") { document.addEventListener("DOMContentLoaded", start); } else { start(); }
  window.nasuiAdvisorCharts = { charts: charts, format: format };
})();
