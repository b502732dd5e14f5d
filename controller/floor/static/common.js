// cardtable floor: helpers shared by the live page (floor.js) and the printable dealer report (report.js).
// Every text from the server goes in through textContent (no HTML); every page text comes from the
// message catalogue (/api/i18n: controller/floor/locale/<lang>.json), never from this code.
"use strict";

const ct = (() => {
  const L = { ui: {}, codes: {}, lang: "en" };
  function el(tag, attrs, ...kids) {
    const n = tag.startsWith("svg:") ? document.createElementNS("http://www.w3.org/2000/svg", tag.slice(4)) : document.createElement(tag);
    for (const [k, v] of Object.entries(attrs || {})) {
      if (v === null || v === undefined || v === false) continue;
      if (k === "class") n.setAttribute("class", v);
      else if (k.startsWith("on")) n.addEventListener(k.slice(2), v);
      else n.setAttribute(k, v === true ? "" : v);
    }
    for (const kid of kids.flat()) {
      if (kid === null || kid === undefined || kid === false) continue;
      n.append(kid instanceof Node ? kid : document.createTextNode(String(kid)));
    }
    return n;
  }
  // T("as_of", {hand: 3}) → the catalogue text with {name} placeholders filled in.
  function T(k, vars) {
    const s = L.ui[k] ?? k;
    return vars ? s.replace(/\{(\w+)\}/g, (m, name) => (name in vars ? String(vars[name]) : m)) : s;
  }
  const code = (c) => L.codes[c] || { title: c, remedy: "", summary: "", rule: "", severity: "" };
  const sev = (s) => T("sev_" + s);
  async function api(path) {
    const r = await fetch(path, { credentials: "same-origin" });
    if (r.status === 401) { location.href = "/login"; return null; }
    if (!r.ok) return null;
    return r.json();
  }
  async function loadLang() {
    // The page carries its message catalogue (one request fewer before the first paint).
    const meta = document.querySelector('meta[name="i18n"]');
    if (meta && meta.content) { Object.assign(L, JSON.parse(meta.content)); return L; }
    const q = new URLSearchParams(location.search).get("lang");
    const b = await api("/api/i18n" + (q ? "?lang=" + encodeURIComponent(q) : ""));
    if (b) Object.assign(L, b);
    return L;
  }
  const fmtTime = (t) => (t ? new Date(t * 1000).toLocaleTimeString(L.lang === "de" ? "de-DE" : [], { hour12: false }) : "");
  const fmtDateTime = (t) => (t ? new Date(t * 1000).toLocaleString(L.lang === "de" ? "de-DE" : [], { hour12: false }) : "");
  const fmtNum = (n, digits) => (n === null || n === undefined ? "–" : Number(n).toLocaleString(L.lang === "de" ? "de-DE" : "en-US", digits === undefined ? {} : { minimumFractionDigits: digits, maximumFractionDigits: digits }));
  // A table whose columns sort on a click of the header; `cols`: [{key, label, num, cell(row)}].
  function sortable(id, cols, rows, state) {
    const sorted = [...rows];
    if (state.key) {
      const col = cols.find((c) => c.key === state.key);
      const val = col && col.sortval ? col.sortval : (r) => r[state.key];
      sorted.sort((a, b) => {
        const x = val(a), y = val(b);
        const c = (x === null || x === undefined) - (y === null || y === undefined) || (x < y ? -1 : x > y ? 1 : 0);
        return state.dir * c;
      });
    }
    const redraw = () => table.replaceWith(sortable(id, cols, rows, state));
    const table = el("table", { class: "grid sortable", id },
      el("thead", {}, el("tr", {}, cols.map((c) => el("th", {
        class: (c.num ? "num " : "") + (state.key === c.key ? (state.dir > 0 ? "asc" : "desc") : ""), "data-key": c.key,
        onclick: c.nosort ? null : () => { state.dir = state.key === c.key ? -state.dir : (c.num ? -1 : 1); state.key = c.key; redraw(); },
      }, c.label)))),
      el("tbody", {}, sorted.map((r) => el("tr", {}, cols.map((c) => el("td", { class: c.num ? "num" : "" }, c.cell ? c.cell(r) : fmtNum(r[c.key])))))));
    return table;
  }
  // The 30-day trend of faults per 100 hands as a small line (days without hands leave a gap).
  function sparkline(points) {
    const w = 120, h = 28, vals = points.map((p) => p.per100);
    const max = Math.max(1, ...vals.filter((v) => v !== null));
    const svg = el("svg:svg", { width: w, height: h, viewBox: `0 0 ${w} ${h}`, class: "spark", role: "img" });
    let run = [];
    const flushRun = () => { if (run.length) svg.append(el("svg:polyline", { points: run.join(" ") })); run = []; };
    vals.forEach((v, i) => {
      if (v === null) { flushRun(); return; }
      const x = (i * (w - 4)) / Math.max(1, vals.length - 1) + 2, y = h - 2 - (v / max) * (h - 4);
      run.push(`${x},${y}`);
      svg.append(el("svg:circle", { cx: x, cy: y, r: 1.8 }));  // a lone day shows as a dot
    });
    flushRun();
    return svg;
  }
  return { L, el, T, code, sev, api, loadLang, fmtTime, fmtDateTime, fmtNum, sortable, sparkline, $: (s) => document.querySelector(s) };
})();
