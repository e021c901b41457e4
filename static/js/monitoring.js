// Live monitoring graphs: each <canvas data-metrics> becomes a Chart.js line chart fed from
// /api/monitoring/series/. New points are appended every few seconds without a reload; polling
// pauses while the tab is hidden; charts are bound again after every htmx swap and destroyed
// when their canvas leaves the page.
(function () {
  "use strict";
  var API = "/api/monitoring/series/";
  var ROLLUP_POLL_MS = 60000; // rollup ranges gain a point a minute at most
  var charts = new Map(); // canvas -> state

  var BYTE_UNITS = ["B", "KiB", "MiB", "GiB", "TiB", "PiB"];
  function bytes(value) {
    var i = 0;
    var v = Math.abs(value);
    while (v >= 1024 && i < BYTE_UNITS.length - 1) { v /= 1024; i++; }
    var sign = value < 0 ? "-" : "";
    return sign + (i === 0 ? v.toFixed(0) : v.toFixed(v < 10 ? 2 : 1)) + " " + BYTE_UNITS[i];
  }
  function format(value, unit) {
    if (value === null || value === undefined || isNaN(value)) { return "–"; }
    switch (unit) {
      case "bytes": return bytes(value);
      case "bytes/s": return bytes(value) + "/s";
      case "%": return value.toFixed(1) + " %";
      case "x": return value.toFixed(2) + "x";
      case "/s": return value.toFixed(value < 10 ? 1 : 0) + "/s";
      case "load": return value.toFixed(2);
      case "s": return value >= 120 ? Math.round(value / 60) + " min" : Math.round(value) + " s";
      case "V": return value.toFixed(0) + " V";
      default: return Math.round(value).toLocaleString();
    }
  }
  // spanMs: what the axis shows; a young panel's few minutes need seconds to tell ticks apart.
  function timeLabel(ms, range, spanMs) {
    var d = new Date(ms);
    if (range === "1w" || range === "1y") { return d.toLocaleDateString(); }
    var parts = { hour: "2-digit", minute: "2-digit" };
    if (spanMs < 10 * 60 * 1000) { parts.second = "2-digit"; }
    return d.toLocaleTimeString([], parts);
  }
  // Bytes and counts are whole: integer ticks keep an all-zero series from labelling 0.25 as "0 B".
  function tickPrecision(unit) {
    return unit === "bytes" || unit === "bytes/s" || unit === "count" ? 0 : undefined;
  }
  // A legend never shows an internal key or a path: /dev/disk/by-id/ata-X reads as ata-X.
  function humanLabel(label) {
    var text = String(label || "");
    return text.indexOf("/") >= 0 ? text.replace(/\/+$/, "").split("/").pop() : text;
  }
  // The top of the value axis: the page's data-y-max, else 100 for any percentage.
  function axisMax(canvas, unit) {
    var given = parseFloat(canvas.dataset.yMax);
    if (!isNaN(given)) { return given; }
    return unit === "%" ? 100 : undefined;
  }
  function samplePeriod(canvas) {
    var holder = canvas.closest("[data-sample-ms]");
    var ms = holder ? parseInt(holder.getAttribute("data-sample-ms"), 10) : 2000;
    return isNaN(ms) ? 2000 : Math.max(ms, 1000);
  }

  function create(canvas) {
    var metrics = canvas.dataset.metrics.split(",");
    var labels = (canvas.dataset.labels || "").split("|");
    var unit = canvas.dataset.unit;
    var range = canvas.dataset.range || "10m";
    var stacked = canvas.dataset.stacked === "1";
    var yMax = axisMax(canvas, unit);
    var chart = new window.Chart(canvas, {
      type: "line",
      data: {
        datasets: metrics.map(function (metric, i) {
          // no label from the page: the series' own label arrives with its first points
          return {
            label: humanLabel(labels[i]), data: [], pointRadius: 0, borderWidth: 1.5,
            fill: stacked ? (i === 0 ? "origin" : "-1") : false, tension: 0.2, spanGaps: false,
          };
        }),
      },
      options: {
        animation: false, parsing: false, normalized: true, responsive: true,
        maintainAspectRatio: false, interaction: { mode: "index", intersect: false },
        scales: {
          // bounds "data": the axis ends at the newest sample, not at a round tick in the future
          x: { type: "linear", bounds: "data", ticks: { maxTicksLimit: 6, callback: function (v) { return timeLabel(v, range, this.max - this.min); } } },
          y: { stacked: stacked, beginAtZero: true, max: yMax, suggestedMax: yMax, ticks: { maxTicksLimit: 5, precision: tickPrecision(unit), callback: function (v) { return format(v, unit); } } },
        },
        plugins: {
          legend: { labels: { boxWidth: 10 } },
          tooltip: {
            callbacks: {
              title: function (items) { return items.length ? new Date(items[0].parsed.x).toLocaleString() : ""; },
              label: function (ctx) { return ctx.dataset.label + ": " + format(ctx.parsed.y, unit); },
            },
          },
        },
      },
    });
    var rollup = range !== "10m" && range !== "1h";
    var state = {
      chart: chart, canvas: canvas, metrics: metrics, range: range, since: null,
      busy: false, last: 0, period: rollup ? ROLLUP_POLL_MS : samplePeriod(canvas),
    };
    charts.set(canvas, state);
    load(state);
  }

  function url(state) {
    var query = new URLSearchParams();
    state.metrics.forEach(function (m) { query.append("metric", m); });
    query.set("range", state.range);
    if (state.since !== null) { query.set("since", String(state.since)); }
    return API + "?" + query.toString();
  }

  function load(state) {
    if (state.busy) { return; }
    state.busy = true;
    state.last = Date.now();
    fetch(url(state), { credentials: "same-origin", headers: { Accept: "application/json" } })
      .then(function (r) { return r.ok ? r.json() : Promise.reject(new Error("HTTP " + r.status)); })
      .then(function (data) { append(state, data); })
      .catch(function () { /* the next tick tries again */ })
      .finally(function () { state.busy = false; });
  }

  function append(state, data) {
    var cutoff = Date.now() - data.seconds * 1000;
    var newest = state.since;
    data.series.forEach(function (series, i) {
      var dataset = state.chart.data.datasets[i];
      if (!dataset.label) { dataset.label = humanLabel(series.label || series.metric); }
      var points = dataset.data;
      series.points.forEach(function (p) {
        points.push({ x: p[0] * 1000, y: p[1] });
        if (newest === null || p[0] > newest) { newest = p[0]; }
      });
      while (points.length && points[0].x < cutoff) { points.shift(); }
    });
    state.since = newest;
    // the time axis ends at the newest sample, not at a round tick after it
    if (newest !== null) { state.chart.options.scales.x.max = newest * 1000; }
    // Browser tests and curious users can read how many points the graph holds.
    state.canvas.setAttribute("data-points", String(state.chart.data.datasets[0].data.length));
    state.chart.update("none");
  }

  function sweep() { // charts whose canvas an htmx swap removed
    charts.forEach(function (state, canvas) {
      if (!canvas.isConnected) { state.chart.destroy(); charts.delete(canvas); }
    });
  }

  function tick() {
    sweep();
    if (document.hidden) { return; }
    charts.forEach(function (state) {
      if (Date.now() - state.last >= state.period) { load(state); }
    });
  }

  function bind(root) {
    if (!window.Chart || !root.querySelectorAll) { return; }
    sweep();
    root.querySelectorAll("canvas[data-metrics]").forEach(function (canvas) {
      if (!charts.has(canvas)) { create(canvas); }
    });
  }

  function start() {
    if (window.htmx) { window.htmx.onLoad(bind); } // also runs for the initial page
    bind(document);
    setInterval(tick, 1000);
    document.addEventListener("visibilitychange", tick);
  }
  if (document.readyState === "loading") { document.addEventListener("DOMContentLoaded", start); } else { start(); }
  window.nasuiMonitoring = { format: format, charts: charts };
})();
