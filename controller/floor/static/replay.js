// cardtable floor: the hand replay panel (step by step through a hand's public states, its alerts on a
// timeline). Loaded before floor.js, whose state (S) and helpers it uses when called.
"use strict";

// --- hand replay: the hand's public states step by step, its alerts on the timeline ---------------------------
async function openReplay(table, hand, alertId) {
  const r = await ct.api(`/api/replay/${encodeURIComponent(table)}/${encodeURIComponent(hand)}`);
  if (!r) return;
  const stepOf = (a) => {  // the last state the floor had when the alert came in (+ its own event's state)
    let i = 0;
    r.frames.forEach((f, j) => { if (f.at <= a.floor.received + 0.05) i = j; });
    return i;
  };
  r.alerts.forEach((a) => { a.step = stepOf(a); });
  const start = r.alerts.find((a) => a.id === alertId);
  S.replay = { ...r, i: start ? start.step : 0 };
  $("#replay").classList.remove("hidden");
  renderReplay();
}
function replayGo(i) { S.replay.i = Math.max(0, Math.min(S.replay.frames.length - 1, i)); renderReplay(); }
function renderReplay() {
  const R = S.replay, n = R.frames.length;
  const f = R.frames[R.i];
  const st = f ? f.state : {};
  const note = R.live ? T("replay_live") : R.cards_allowed ? T("replay_cards_shown") : T("replay_cards_hidden");
  $("#replay-body").replaceChildren(
    el("h3", {}, T("replay_h", { table: R.table, hand: R.hand })),
    el("p", { class: "hint", id: "replay-note" }, note),
    n ? el("div", { class: "replay-controls" },
      el("button", { type: "button", id: "rp-first", onclick: () => replayGo(0) }, T("first")),
      el("button", { type: "button", id: "rp-prev", onclick: () => replayGo(R.i - 1) }, T("prev")),
      el("span", { id: "rp-step" }, T("step", { i: R.i + 1, n })),
      el("button", { type: "button", id: "rp-next", onclick: () => replayGo(R.i + 1) }, T("next")),
      el("button", { type: "button", id: "rp-last", onclick: () => replayGo(n - 1) }, T("last")),
      el("input", { type: "range", id: "rp-range", min: "0", max: String(n - 1), value: String(R.i), oninput: (e) => replayGo(Number(e.target.value)) }))
      : el("p", { class: "hint" }, T("replay_empty")),
    f ? el("div", { class: "hint" }, `${ct.fmtTime(f.at)} · ${streetName(st.street)} · ${T("button")} ${st.button ?? "–"}` + (st.to_act ? ` · ${T("to_act", { seat: st.to_act })}` : "")) : null,
    f ? feltEl(st) : null,
    f ? seatsTable(st, R.cards_allowed && R.i === n - 1 ? R.hole_cards : null) : null,
    el("h4", {}, T("timeline")),
    el("ol", { class: "timeline", id: "rp-alerts" }, R.alerts.map((a) => el("li", {
      class: `${a.severity} ${a.step === R.i ? "here" : ""}`, "data-code": a.code, "data-step": String(a.step), onclick: () => replayGo(a.step) },
      el("span", { class: "stepno" }, `#${a.step + 1}`), " ", sevEl(a.severity), " ", a.code, " · ", alertText(a)))));
}
function closeReplay() { S.replay = null; $("#replay").classList.add("hidden"); }
