// cardtable floor: the printable report of one dealer (/report?dealer=ID): totals, each shift, faults by
// code and the 30-day trend, from /api/dealers. Uses the helpers and message catalogue of common.js.
"use strict";

(async () => {
  const { el, T } = ct;
  await ct.loadLang();
  const dealer = new URLSearchParams(location.search).get("dealer") || "";
  const rep = await ct.api("/api/dealers?dealer=" + encodeURIComponent(dealer));
  const d = rep && rep.dealers[0];
  document.title = T("r_title", { dealer: dealer || T("d_unknown") });
  const box = ct.$("#report");
  if (!d) { box.replaceChildren(el("h1", {}, document.title), el("p", { class: "hint" }, T("d_none"))); return; }
  const f = (v, n) => ct.fmtNum(v, n);
  const figures = (r) => [f(r.hands), f(r.hands_per_hour, 1), f(r.sec_per_hand, 1), f(r.faults), f(r.per100, 2), r.worst.join(", ")];
  const head = [T("d_hands"), T("d_hph"), T("d_sph"), T("d_faults"), T("d_per100"), T("d_worst")];
  const row = (cells, num) => el("tr", {}, cells.map((c, i) => el("td", { class: num && i >= num[0] && i < num[1] ? "num" : "" }, c)));
  box.replaceChildren(
    el("h1", {}, document.title),
    el("p", { class: "hint" }, T("r_generated", { time: ct.fmtDateTime(Date.now() / 1000), days: rep.days }),
      " ", el("button", { type: "button", class: "noprint", id: "print", onclick: () => window.print() }, T("r_print"))),
    el("table", { class: "grid", id: "r-total" }, el("tr", {}, head.map((h) => el("th", {}, h))), row(figures(d), [0, 5])),
    el("h2", {}, T("r_by_shift")),
    el("table", { class: "grid", id: "r-shifts" }, el("tr", {}, [T("d_date"), T("d_shift"), ...head].map((h) => el("th", {}, h))),
      d.shifts.map((s) => row([s.date, s.shift, ...figures(s)], [2, 7]))),
    el("h2", {}, T("r_by_code")),
    el("table", { class: "grid", id: "r-codes" }, el("tr", {}, [T("r_code"), T("r_title_col"), T("r_count"), T("d_per100")].map((h) => el("th", {}, h))),
      Object.entries(d.codes).sort((a, b) => b[1].count - a[1].count).map(([c, v]) => row([c, ct.code(c).title, f(v.count), f(v.per100, 2)], [2, 4]))),
    el("h2", {}, T("d_trend")),
    ct.sparkline(d.trend),
    el("table", { class: "grid trend", id: "r-trend" }, el("tr", {}, [T("d_date"), T("d_hands"), T("d_faults"), T("d_per100")].map((h) => el("th", {}, h))),
      d.trend.filter((p) => p.hands || p.faults).map((p) => row([p.date, f(p.hands), f(p.faults), f(p.per100, 2)], [1, 4]))));
})();
