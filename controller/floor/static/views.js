// cardtable floor: the History and Dealers tabs (filters, sortable dealer tables, CSV and report links).
// Loaded before floor.js, whose state (S) and helpers it uses when called.
"use strict";

// --- history and dealer performance ----------------------------------------------------------------------------
function fillSelect(sel, values) {
  const cur = sel.value;
  sel.replaceChildren(el("option", { value: "" }, T("f_any")), ...values.map((v) => el("option", { value: v }, v)));
  sel.value = cur;
}
function fillCodes() { fillSelect($("#f-code"), Object.keys(ct.L.codes).sort()); }

async function loadHistory(ev) {
  if (ev) ev.preventDefault();
  const f = new FormData($("#filters"));
  const q = new URLSearchParams();
  for (const [k, v] of f.entries()) {
    if (!v) continue;
    q.set(k, (k === "since" || k === "until") ? String(new Date(v).getTime() / 1000) : v);
  }
  q.set("limit", "500");
  const rows = (await ct.api("/api/alerts?" + q.toString())) || [];
  const ruling = (a) => (a.floor.ack ? `${a.floor.ack.by}: ${a.floor.ack.ruling}` : a.severity === "info" ? T("h_info") : T("h_open"));
  $("#history tbody").replaceChildren(...rows.map((a) => el("tr", { onclick: () => { S.alerts.set(key(a.table, a.id), a); openAlert(a.table, a.id); } },
    el("td", {}, ct.fmtDateTime(alertTime(a))), el("td", {}, a.table), el("td", {}, a.hand),
    el("td", {}, sevEl(a.severity)), el("td", {}, a.code),
    el("td", {}, alertText(a)), el("td", {}, a.floor.dealer || ""),
    el("td", { class: "ruling" }, ruling(a)))));
  if (!rows.length) $("#history tbody").append(el("tr", {}, el("td", { colspan: "8", class: "hint" }, T("no_match"))));
}

async function loadDealers() {
  const rep = await ct.api("/api/dealers");
  if (!rep) return;
  const num = (k, digits) => ({ key: k, num: true, label: T("d_" + { hands: "hands", hands_per_hour: "hph", sec_per_hand: "sph", faults: "faults", per100: "per100" }[k]), cell: (r) => ct.fmtNum(r[k], digits) });
  const worst = { key: "worst", label: T("d_worst"), nosort: true, cell: (r) => r.worst.map((c) => `${c} ${ct.fmtNum(r.codes[c].per100, 2)}`).join(", ") };
  const name = (d) => d || T("d_unknown");
  const dealerCols = [
    { key: "dealer", label: T("d_dealer"), cell: (r) => name(r.dealer) },
    num("hands"), num("hands_per_hour", 1), num("sec_per_hand", 1), num("faults"), num("per100", 2), worst,
    { key: "trend", label: T("d_trend"), nosort: true, cell: (r) => ct.sparkline(r.trend) },
    { key: "report", label: "", nosort: true, cell: (r) => el("a", { href: "/report?dealer=" + encodeURIComponent(r.dealer), target: "_blank", class: "report-link" }, T("report")) },
  ];
  const shifts = rep.dealers.flatMap((d) => d.shifts.map((s) => ({ ...s, dealer: d.dealer })));
  const shiftCols = [
    { key: "dealer", label: T("d_dealer"), cell: (r) => name(r.dealer) },
    { key: "date", label: T("d_date"), cell: (r) => r.date }, { key: "shift", label: T("d_shift"), cell: (r) => r.shift },
    num("hands"), num("hands_per_hour", 1), num("sec_per_hand", 1), num("faults"), num("per100", 2), worst,
  ];
  $("#stats").replaceChildren(...(rep.dealers.length ? [
    ct.sortable("stats-dealers", dealerCols, rep.dealers, S.dealerSort),
    el("h2", {}, T("r_by_shift")),
    ct.sortable("stats-shifts", shiftCols, shifts, S.shiftSort)] : [el("p", { class: "hint" }, T("d_none"))]));
}

function showView(name) {
  document.querySelectorAll(".tab").forEach((b) => b.classList.toggle("active", b.dataset.view === name));
  document.querySelectorAll(".view").forEach((v) => v.classList.toggle("active", v.id === "view-" + name));
  if (name === "history") loadHistory();
  if (name === "dealers") loadDealers();
}
