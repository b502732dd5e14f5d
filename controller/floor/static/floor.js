// cardtable floor screen: live tables and alerts over one Server-Sent Events stream, faults first, tables in
// order of urgency, acknowledgements, hand replay, history and dealer performance. Plain browser JavaScript,
// no build step. Page text: the message catalogue through ct.T (common.js); the replay panel and the
// History and Dealers tabs live in replay.js and views.js.
"use strict";

const { el, T, $ } = ct;
const META = (n) => document.querySelector(`meta[name="${n}"]`).content;
const CSRF = META("csrf");
const ROLE = META("role");
const WALL = META("wall") === "1";
const REMINDER_S = Number(META("reminder")) || 0;
const FAULTS = ["misdeal", "error", "dead_hand", "warning"];
const RANK = { misdeal: 0, error: 1, dead_hand: 2, warning: 3 };
const CALM = 4;  // a table without open faults
const FEED_MAX = 500;
// Distinct sounds: a misdeal is three loud square tones, an error two sawtooth, a dead hand a falling pair,
// a warning one soft sine. Info alerts make no sound.
const TONES = {
  misdeal: { type: "square", f: [880, 660, 880], gain: 0.25 },
  error: { type: "sawtooth", f: [740, 740], gain: 0.2 },
  dead_hand: { type: "triangle", f: [520, 390], gain: 0.2 },
  warning: { type: "sine", f: [440], gain: 0.12 },
};

const S = {
  tables: new Map(),   // table id -> {table, status, state, open}
  alerts: new Map(),   // "table/id" -> alert (with .floor {seq, received, dealer, ack})
  detail: null,        // {table, id, live} shown in the side panel
  detailState: null,   // the alert's table state at its time (from /api/alerts/…)
  sound: false,
  audio: null,
  showInfo: false,
  reminded: {},        // misdeal key -> when it last beeped (ms)
  cursor: "",          // last SSE event id "alertSeq.ackSeq": where a reconnect resumes
  es: null,
  replay: null,
  dealerSort: { key: "per100", dir: -1 },
  shiftSort: { key: "date", dir: -1 },
};
// For tests and diagnostics: arrivals/shown = when each live alert reached the script / was drawn;
// sounds = the severity of every sound played (or due while muted); firstPaint = ms from navigation start
// until the tables of the first snapshot were drawn.
window.cardtable = {
  beeps: 0, sounds: [], reminders: 0, state: S, arrivals: {}, shown: {}, snapshots: 0, firstPaint: null,
  alertsShown: () => S.alerts.size, openCounts: () => openCounts(), tableOrder: () => [...document.querySelectorAll("#tables .tcard")].map((n) => n.dataset.table),
};

// Redraws are batched: a burst of 200 alerts a second costs a few redraws, not 200 full ones. A timer,
// not requestAnimationFrame, so that a wall display in a background tab still updates.
// The first change after a quiet spell is drawn at once; changes within 25 ms of a redraw wait for the next.
const dirty = { feed: false, tables: false, detail: false, fresh: new Set(), pending: false, last: 0 };
function schedule(what, freshKey) {
  dirty[what] = true;
  if (freshKey) dirty.fresh.add(freshKey);
  if (dirty.pending) return;
  dirty.pending = true;
  const wait = 25 - (performance.now() - dirty.last);
  // Quiet: draw at the end of this task (a microtask: no trip through a busy machine's timer queue).
  if (wait <= 0) queueMicrotask(flush); else setTimeout(flush, wait);
}
function flush() {
  dirty.pending = false;
  dirty.last = performance.now();
  if (dirty.feed) {
    dirty.feed = false;
    const fresh = dirty.fresh;
    dirty.fresh = new Set();
    renderFeed(fresh);
    const now = Date.now();
    for (const k of fresh) window.cardtable.shown[k] = now;
  }
  if (dirty.tables) { dirty.tables = false; renderTables(); }
  if (dirty.detail) { dirty.detail = false; renderDetail(); }
}

// --- small helpers ------------------------------------------------------------------------------------------
const key = (table, id) => table + "/" + id;
const fmtChips = (n) => (typeof n === "number" ? ct.fmtNum(n) : n ?? "–");
const isOpen = (a) => FAULTS.includes(a.severity) && !(a.floor && a.floor.ack);
// The moment of an alert: the table's absolute time (`ts`, ISO 8601 UTC) when the daemon sent it, else when
// the floor received it.
const alertTime = (a) => (a.ts ? Date.parse(a.ts) / 1000 : a.floor && a.floor.received) || 0;
function fmtAge(sec) {
  sec = Math.max(0, Math.floor(sec));
  if (sec < 60) return T("ago_s", { n: sec });
  if (sec < 3600) return T("ago_m", { m: Math.floor(sec / 60), s: sec % 60 });
  return T("ago_h", { h: Math.floor(sec / 3600), m: Math.floor((sec % 3600) / 60) });
}
const ageEl = (t) => el("span", { class: "age", "data-t": String(t) }, fmtAge(Date.now() / 1000 - t));
const whenEl = (a) => el("span", { class: "when" }, el("time", { datetime: a.ts || "" }, ct.fmtTime(alertTime(a))), " · ", ageEl(alertTime(a)));
const sevEl = (s) => el("span", { class: "sev " + s }, ct.sev(s));
// Streets and seat states in the page's language (an unknown value from a newer daemon is shown as sent).
const streetName = (s) => (s ? (ct.L.ui["street_" + s] ?? s) : "–");
const seatName = (s) => (s ? (ct.L.ui["seat_" + s.replace("-", "_")] ?? s) : "");
// Alert text in the page's language: English is the daemon's own message; another language composes the
// code's title with the alert's seat and cards (the daemon's free-text details stay for our own codes).
function alertText(a) {
  if (ct.L.lang === "en") return a.message;
  const c = ct.code(a.code);
  const parts = [c.title];
  if (a.seat) parts.push(`${T("seat")} ${a.seat}`);
  if (a.cards && a.cards.length) parts.push(a.cards.join(" "));
  if (["HEALTH", "BAD_EVENT", "CAMERA_RFID_MISMATCH", "CORRECTION_NOT_FOLLOWED"].includes(a.code)) parts.push(a.message);
  return parts.join(" · ");
}

const SUIT = { c: "♣", d: "♦", h: "♥", s: "♠" };
function cardEl(code) {
  if (!code || typeof code !== "string" || code.length !== 2) return el("span", { class: "card back" }, "??");
  const rank = code[0] === "T" ? "10" : code[0];
  return el("span", { class: "card" + ("dh".includes(code[1]) ? " red" : "") }, rank + (SUIT[code[1]] || code[1]));
}
const cardsEl = (list) => el("span", { class: "cards" }, (list || []).map(cardEl));
const backsEl = (n) => (n > 0 ? el("span", { class: "cards small" }, Array.from({ length: Math.min(n, 7) }, () => el("span", { class: "card back" }, "?"))) : null);

// --- state payload helpers (tolerant: the daemon's state object is public and may grow) ---------------------
function potOf(st) {
  if (!st) return null;
  if (typeof st.pot === "number") return st.pot;
  if (Array.isArray(st.pots)) return st.pots.reduce((s, p) => s + (Number(p.amount) || 0), 0);
  return null;
}
function seatsOf(st) {
  if (!st || !st.seats) return [];
  const raw = Array.isArray(st.seats) ? st.seats : Object.entries(st.seats).map(([k, v]) => ({ seat: Number(k), ...v }));
  return raw.filter((s) => s && typeof s === "object").sort((a, b) => (a.seat || 0) - (b.seat || 0));
}
function seatStatus(s) {
  if (s.status) return s.status;
  if (s.folded) return "folded";
  if (s.all_in || s.allin) return "all-in";
  if (s.live === false) return "out";
  return s.live ? "live" : "";
}
function holeEl(s, known) {
  // Known cards: a finished hand's shown cards (a supervisor's replay) or cards turned up at showdown.
  if (known && known.length) return cardsEl(known);
  if (Array.isArray(s.shown) && s.shown.length) return cardsEl(s.shown);
  const st = seatStatus(s);
  const n = typeof s.cards === "number" && (st === "live" || st === "all_in" || st === "all-in") ? s.cards : 0;
  // Stud: the up-cards everyone sees, after a back for each down-card (never a down-card's face).
  const up = Array.isArray(s.up) && n ? s.up.filter((c) => typeof c === "string") : [];
  if (up.length) return el("span", { class: "studcards" }, backsEl(n - up.length), cardsEl(up));
  return backsEl(n);
}
function seatsTable(st, known) {
  const seats = seatsOf(st);
  if (!seats.length) return null;
  return el("table", { class: "seats", id: "seats" },
    el("tr", {}, el("th", {}, T("seat")), el("th", {}, T("player")), el("th", { class: "num" }, T("stack")), el("th", { class: "num" }, T("bet")), el("th", {}, "")),
    seats.map((s) => el("tr", { class: `${s.seat === st.to_act ? "toact" : ""} ${seatStatus(s) === "folded" ? "folded" : ""}` },
      el("td", {}, s.seat, s.seat === st.button ? " (D)" : ""), el("td", {}, s.player ?? "–", " ", holeEl(s, known && known[String(s.seat)])),
      el("td", { class: "num" }, fmtChips(s.stack)), el("td", { class: "num" }, s.bet ? fmtChips(s.bet) : ""),
      el("td", {}, seatName(seatStatus(s))))));
}
const feltEl = (st) => el("div", { class: "felt" }, el("div", { id: "board" }, (st.board && st.board.length) ? cardsEl(st.board) : el("span", { class: "hint" }, T("no_board"))),
  el("div", { class: "pot" }, T("pot") + " ", el("b", {}, fmtChips(potOf(st)))));

// --- sound -------------------------------------------------------------------------------------------------
function beep(severity) {
  const tone = TONES[severity];
  if (!tone) return;
  window.cardtable.beeps += 1;
  window.cardtable.sounds.push(severity);
  if (!S.sound || !S.audio) return;
  const ctx = S.audio, now = ctx.currentTime;
  tone.f.forEach((f, i) => {
    const o = ctx.createOscillator(), g = ctx.createGain(), at = now + i * 0.2;
    o.type = tone.type; o.frequency.value = f;
    g.gain.setValueAtTime(0.0001, at);
    g.gain.exponentialRampToValueAtTime(tone.gain, at + 0.01);
    g.gain.exponentialRampToValueAtTime(0.0001, at + 0.16);
    o.connect(g).connect(ctx.destination);
    o.start(at); o.stop(at + 0.17);
  });
}
function setSound(on) {
  // Browsers only allow audio after a user gesture: the context is created here, on the click.
  if (on && !S.audio) S.audio = new (window.AudioContext || window.webkitAudioContext)();
  if (S.audio) S.audio.resume();
  S.sound = on;
  $("#sound").textContent = T(on ? "sound_on" : "sound_off");
  $("#sound").classList.toggle("on", on);
  $("#sound-banner").classList.toggle("hidden", on);
}
// A misdeal nobody has ruled on beeps again every REMINDER_S seconds (one reminder for all that are due).
function remind() {
  if (!REMINDER_S) return;
  const now = Date.now();
  let due = false;
  for (const [k, a] of S.alerts) {
    if (a.severity !== "misdeal" || !isOpen(a)) continue;
    const last = S.reminded[k] || (a.floor ? a.floor.received * 1000 : now);
    if (now - last >= REMINDER_S * 1000) { S.reminded[k] = now; due = true; }
  }
  if (due) { window.cardtable.reminders += 1; beep("misdeal"); }
}

// --- open faults: header counts and page title ----------------------------------------------------------------
function openCounts() {
  const c = { misdeal: 0, error: 0, dead_hand: 0, warning: 0 };
  for (const t of S.tables.values()) for (const s of FAULTS) c[s] += (t.open && t.open[s]) || 0;
  return c;
}
function renderCounts() {
  const c = openCounts();
  const total = FAULTS.reduce((n, s) => n + c[s], 0);
  const box = $("#open-counts");
  box.replaceChildren(...(total ? FAULTS.filter((s) => c[s]).map((s) => el("span", { class: "sev big " + s, "data-sev": s }, `${c[s]} ${ct.sev(s)}`))
    : [el("span", { class: "hint" }, T("open_none"))]));
  // A background tab shows the open faults in its title.
  const parts = FAULTS.filter((s) => c[s]).map((s) => `${c[s]} ${ct.sev(s)}`);
  document.title = total ? `(${total}) ${parts.join(", ")} · ${T("app")}` : T("app");
}

// --- tables, in order of urgency ----------------------------------------------------------------------------
// Worst open severity first; an offline table or one with an open HEALTH fault (reader, camera, outbox)
// ranks with errors; then the table whose oldest open fault is oldest; then the name.
function urgency(t, oldest, health) {
  let rank = openRank(t.open);
  if (t.status === "offline" || health.has(t.table)) rank = Math.min(rank, RANK.error);
  return { rank, oldest: oldest.get(t.table) ?? Infinity };
}
function openRank(open) {
  for (const s of FAULTS) if (open && open[s] > 0) return RANK[s];
  return CALM;
}
function openIndex() {
  const oldest = new Map(), health = new Set();
  for (const a of S.alerts.values()) {
    if (!isOpen(a)) continue;
    const t = alertTime(a);
    if (t < (oldest.get(a.table) ?? Infinity)) oldest.set(a.table, t);
    if (a.code === "HEALTH") health.add(a.table);
  }
  return { oldest, health };
}
function renderTables() {
  const box = $("#tables");
  const { oldest, health } = openIndex();
  const rows = [...S.tables.values()].map((t) => ({ t, u: urgency(t, oldest, health) }));
  rows.sort((x, y) => x.u.rank - y.u.rank || x.u.oldest - y.u.oldest || x.t.table.localeCompare(y.t.table, undefined, { numeric: true }));
  box.replaceChildren(...rows.map((r) => tableCard(r.t, r.u)));
  if (!rows.length) box.append(el("p", { class: "hint" }, T("no_tables")));
  if (WALL) {  // every table on one screen: a grid as square as the space allows
    const n = Math.max(rows.length, 1), cols = Math.min(6, Math.max(2, Math.ceil(Math.sqrt(n * 1.25))));
    box.style.setProperty("--cols", cols);
    box.style.setProperty("--rows", Math.ceil(n / cols));
  }
  fillSelect($("#f-table"), rows.map((r) => r.t.table).sort((a, b) => a.localeCompare(b, undefined, { numeric: true })));
  renderCounts();
}
function tableCard(t, u) {
  const st = t.state || {};
  const status = t.status || "unknown";
  const worst = FAULTS.find((s) => RANK[s] === u.rank && t.open && t.open[s] > 0) || (u.rank === RANK.error ? "error" : null);
  const counts = FAULTS.filter((s) => t.open && t.open[s] > 0).map((s) => el("span", { class: "sev " + s, "data-sev": s, "data-n": String(t.open[s]) }, `${t.open[s]} ${ct.sev(s)}`));
  return el("div", { class: `tcard ${status === "offline" ? "offline" : ""} ${worst ? "sev-" + worst : ""}`, "data-table": t.table, "data-rank": String(u.rank), onclick: () => openTable(t.table) },
    el("div", { class: "tname" }, t.table, el("span", { class: "badge " + status }, T("st_" + status))),
    el("div", { class: "meta" }, T("hand") + " ", el("b", {}, st.hand ?? "–"), " · ", el("b", {}, streetName(st.street)), " · " + T("pot") + " ", el("b", {}, fmtChips(potOf(st)))),
    el("div", { class: "counts" }, counts.length ? counts : el("span", { class: "hint" }, T("no_open_table"))),
    u.oldest !== Infinity ? el("div", { class: "oldest" }, ageEl(u.oldest)) : null);
}
function upsertTable(id, patch) {
  const t = S.tables.get(id) || { table: id, status: null, state: null, open: {} };
  Object.assign(t, patch);
  S.tables.set(id, t);
}

// --- alert feed: open faults pinned on top, then the rest newest first; info only on request ----------------
function addAlert(a, live) {
  const k = key(a.table, a.id);
  const known = S.alerts.has(k);
  S.alerts.set(k, a);
  if (!known && live) window.cardtable.arrivals[k] = Date.now();  // for the latency test and diagnostics
  if (!known && live && isOpen(a)) beep(a.severity);
  return !known;
}
function feedItem(a, fresh) {
  const ack = a.floor && a.floor.ack;
  const open = isOpen(a);
  return el("li", { class: `${a.severity} ${ack ? "acked" : ""} ${open ? "open pinned" : ""} ${fresh ? "fresh" : ""}`, "data-key": key(a.table, a.id), "data-code": a.code, onclick: () => openAlert(a.table, a.id) },
    whenEl(a),
    el("span", { class: "tbl" }, a.table),
    el("span", {}, sevEl(a.severity)),
    el("span", { class: "code" }, a.code),
    el("span", { class: "msg" }, a.hand !== undefined ? `${T("hand")} ${a.hand} · ` : "", alertText(a)),
    ack ? el("span", { class: "ackline" }, T("acked_by", { by: ack.by, at: ct.fmtTime(ack.at), ruling: ack.ruling }), sentNote(ack)) : null);
}
function sentNote(ack) {
  // Whether the table has the ruling yet (it waits in the floor's outbox while the broker is away).
  return el("span", { class: "sent " + (ack.published ? "yes" : "no") }, T(ack.published ? "sent_yes" : "sent_no"));
}
// A HEALTH fault (reader, camera, outbox down) stops the table's checks: it ranks with the errors.
const pinRank = (a) => (a.code === "HEALTH" ? Math.min(RANK[a.severity], RANK.error) : RANK[a.severity]);
function renderFeed(freshKeys) {
  const all = [...S.alerts.values()];
  const pinned = all.filter(isOpen).sort((x, y) => pinRank(x) - pinRank(y) || alertTime(x) - alertTime(y));
  const rest = all.filter((a) => !isOpen(a) && (S.showInfo || a.severity !== "info")).sort((x, y) => (y.floor?.seq || 0) - (x.floor?.seq || 0));
  const list = [...pinned, ...rest].slice(0, FEED_MAX);
  $("#feed").replaceChildren(...list.map((a) => feedItem(a, freshKeys && freshKeys.has(key(a.table, a.id)))));
  if (WALL) markOverflow(pinned.length);
  if (S.alerts.size > FEED_MAX * 2) {  // keep memory bounded on a wall display that runs for days
    const old = all.filter((a) => !isOpen(a)).sort((x, y) => (x.floor?.seq || 0) - (y.floor?.seq || 0));
    for (const a of old.slice(0, S.alerts.size - FEED_MAX)) {
      if (!S.detail || key(a.table, a.id) !== key(S.detail.table, S.detail.id)) S.alerts.delete(key(a.table, a.id));
    }
  }
}
// On the wall the feed does not scroll: open faults that do not fit are counted in a visible line instead.
function markOverflow(nPinned) {
  const wrap = $(".feed-wrap"), more = $("#more-open");
  more.classList.add("hidden");
  const bottom = wrap.getBoundingClientRect().bottom - 40;
  const items = [...$("#feed").children];
  let hidden = 0;
  items.forEach((li, i) => {
    if (li.getBoundingClientRect().bottom > bottom) { li.classList.add("overflow"); if (i < nPinned) hidden += 1; }
  });
  if (hidden) { more.textContent = T("more_open", { n: hidden }); more.classList.remove("hidden"); }
}
function tick() {
  const now = Date.now() / 1000;
  for (const n of document.querySelectorAll(".age[data-t]")) n.textContent = fmtAge(now - Number(n.dataset.t));
  remind();
}

// --- detail: the alert's table view, as of the alert's moment ---------------------------------------------
async function openAlert(table, id) {
  S.detail = { table, id, live: false };
  S.detailState = null;
  const r = await ct.api(`/api/alerts/${encodeURIComponent(table)}/${encodeURIComponent(id)}`);
  if (r) {
    const mine = S.alerts.get(key(table, id));
    if (mine && mine.floor && mine.floor.ack && !(r.floor && r.floor.ack)) r.floor.ack = mine.floor.ack;  // a newer ruling
    S.alerts.set(key(table, id), r);
    S.detailState = r.state_at;
  }
  renderDetail();
}
async function openTable(table) {
  const t = await ct.api(`/api/tables/${encodeURIComponent(table)}`);
  if (!t) return;
  const openOnes = (t.alerts || []).filter(isOpen);
  for (const a of t.alerts || []) if (!S.alerts.has(key(a.table, a.id))) S.alerts.set(key(a.table, a.id), a);
  const first = openOnes[0] || (t.alerts || [])[0];
  if (first) return openAlert(first.table, first.id);
  S.detail = { table, id: null, live: true };
  renderDetail();
}
function closeDetail() { S.detail = null; S.detailShown = null; $("#detail").classList.add("hidden"); document.body.classList.remove("with-detail"); }

function renderDetail() {
  if (!S.detail) return;
  const { table, id } = S.detail;
  const a = id ? S.alerts.get(key(table, id)) : null;
  const t = S.tables.get(table) || { table, state: null, status: null };
  const live = t.state || {};
  const past = !S.detail.live && a && S.detailState ? S.detailState : null;
  const st = past ? past.state : live;
  const asOf = past
    ? el("div", { class: "asof", id: "asof" }, T("as_of", { hand: a.hand, street: streetName(a.street), time: ct.fmtTime(alertTime(a)) }), " · ",
      el("a", { href: "#", id: "show-live", onclick: (e) => { e.preventDefault(); S.detail.live = true; renderDetail(); } }, T("show_live")))
    : el("div", { class: "asof now", id: "asof" }, T("now", { hand: live.hand ?? "–", street: streetName(live.street) }),
      a && S.detailState ? [" · ", el("a", { href: "#", id: "show-past", onclick: (e) => { e.preventDefault(); S.detail.live = false; renderDetail(); } }, T("show_alert_state"))] : null);
  const status = t.status || "unknown";
  $("#detail-body").replaceChildren(
    el("h3", {}, `${T("h_table")} ${table} `, el("span", { class: "badge " + status }, T("st_" + status))),
    asOf,
    el("div", { class: "hint" }, `${T("button")} ${st.button ?? "–"}` + (st.to_act ? ` · ${T("to_act", { seat: st.to_act })}` : "") + (live.dealer ? ` · ${T("dealer")} ${live.dealer}` : "")),
    feltEl(st),
    seatsTable(st),
    a ? alertBlock(a) : el("p", { class: "hint" }, T("no_alert")),
    tableAlerts(table));
  $("#detail").classList.remove("hidden");
  document.body.classList.add("with-detail");  // the page makes room: the feed stays clickable beside it
  const shown = table + "/" + id;
  if (S.detailShown !== shown) { $("#detail").scrollTop = 0; S.detailShown = shown; }  // a new alert starts at the top
}

function alertBlock(a) {
  const ack = a.floor && a.floor.ack;
  const c = ct.code(a.code);
  const en = ct.L.lang === "en";
  return el("div", { id: "alert-detail", "data-key": key(a.table, a.id) },
    el("h4", {}, T("alert")),
    el("div", {}, sevEl(a.severity), " ", el("b", {}, a.code), ` — ${c.title}`),
    el("div", { class: "hint" }, `${a.id} · ${T("hand")} ${a.hand} · ${streetName(a.street)}` + (a.seat ? ` · ${T("seat")} ${a.seat}` : "") + (a.floor && a.floor.dealer ? ` · ${T("dealer")} ${a.floor.dealer}` : "")),
    el("div", { class: "hint" }, whenEl(a), a.ts ? ` · ${a.ts}` : ""),
    el("p", { class: "message" }, alertText(a)),
    a.cards && a.cards.length ? el("div", {}, cardsEl(a.cards)) : null,
    el("div", {}, el("button", { type: "button", id: "replay-btn", onclick: () => openReplay(a.table, a.hand, a.id) }, T("replay_btn", { hand: a.hand }))),
    el("h4", {}, T("ruling")),
    ack ? el("div", { class: "acked-box", id: "acked" }, T("acked_by", { by: ack.by, at: ct.fmtDateTime(ack.at), ruling: ack.ruling }), sentNote(ack))
      : a.severity === "info" ? null : ackForm(a),
    el("h4", {}, T("remedy")), el("p", {}, (en ? a.remedy : c.remedy) || c.remedy || "–"),
    el("h4", {}, T("rule")),
    el("div", { class: "rule" }, el("div", { class: "ref" }, a.rule || c.rule || "–"), el("p", { class: "summary" }, c.summary || "")),
    Array.isArray(a.pots) ? potsBlock(a.pots) : null);
}
function potsBlock(pots) {
  return el("table", { class: "seats" }, el("tr", {}, el("th", {}, T("pot")), el("th", { class: "num" }, ""), el("th", {}, ""), el("th", {}, "")),
    pots.map((p, i) => el("tr", {}, el("td", {}, i ? T("pot_side", { n: i }) : T("pot_main")), el("td", { class: "num" }, fmtChips(p.amount)),
      el("td", {}, Object.entries(p.winners || {}).map(([s, n]) => `${T("seat")} ${s}: ${fmtChips(n)}`).join(", ")),
      el("td", {}, p.hand || "", " ", p.best5 ? cardsEl(p.best5) : null))));
}
function ackForm(a) {
  if (ROLE !== "floor" && ROLE !== "supervisor") return el("p", { class: "hint" }, T("readonly"));
  const ta = el("textarea", { id: "ruling", maxlength: "500", placeholder: T("ruling_ph") });
  const msg = el("span", { class: "hint", id: "ack-msg" });
  const quick = ["quick_1", "quick_2", "quick_3", "quick_4"].map((k) => T(k));
  return el("form", { class: "ackform", id: "ackform", onsubmit: (e) => { e.preventDefault(); sendAck(a, ta.value, msg); } },
    el("div", { class: "quick" }, quick.map((q) => el("button", { type: "button", onclick: () => { ta.value = q; } }, q))),
    ta, el("div", {}, el("button", { type: "submit", id: "ack-btn" }, T("ack_btn")), " ", msg));
}
async function sendAck(a, ruling, msg) {
  ruling = ruling.trim();
  if (!ruling) { msg.textContent = T("write_first"); return; }
  msg.textContent = T("sending");
  const r = await fetch("/api/ack", { method: "POST", credentials: "same-origin",
    headers: { "Content-Type": "application/json", "X-CSRF-Token": CSRF },
    body: JSON.stringify({ table: a.table, id: a.id, ruling }) });
  const body = await r.json().catch(() => ({}));
  if (!r.ok) { msg.textContent = body.error || T("refused", { status: r.status }); return; }
  applyAck(body);
}
function applyAck(ack) {
  const a = S.alerts.get(key(ack.table, ack.id));
  if (a) {
    a.floor = a.floor || {};
    const was = a.floor.ack;  // an ack_sent may have overtaken the ack itself
    a.floor.ack = { by: ack.by, ruling: ack.ruling, at: ack.at, seq: ack.seq, published: ack.published || (was && was.published) || false };
  }
  schedule("feed"); schedule("tables");
  if (S.detail && S.detail.table === ack.table) renderDetail();
}
function tableAlerts(table) {
  const list = [...S.alerts.values()].filter((a) => a.table === table && (S.showInfo || a.severity !== "info")).sort((x, y) => (y.floor?.seq || 0) - (x.floor?.seq || 0)).slice(0, 12);
  if (!list.length) return null;
  return el("div", {}, el("h4", {}, T("recent_at_table")),
    el("ul", { class: "tablealerts" }, list.map((a) => el("li", { onclick: () => openAlert(a.table, a.id) },
      sevEl(a.severity), " ", a.code, ` · ${T("hand")} `, a.hand, a.floor?.ack ? " ✔" : ""))));
}

// --- live stream with catch-up -----------------------------------------------------------------------------
function setConn(ok, text) { const c = $("#conn"); c.textContent = text; c.className = "pill " + (ok ? "on" : "off"); }
function setBroker(ok) { const b = $("#broker"); b.textContent = T(ok ? "broker_ok" : "broker_down"); b.className = "pill " + (ok ? "on" : "off"); }

function connect() {
  // EventSource sends the last event id by itself on automatic reconnects; a new EventSource (after a hard
  // close) passes it as ?since= so the server resumes from the store either way.
  const url = "/api/events" + (S.cursor ? "?since=" + encodeURIComponent(S.cursor) : "");
  const es = new EventSource(url);
  S.es = es;
  const track = (e) => { if (e.lastEventId) S.cursor = e.lastEventId; };
  es.onopen = () => setConn(true, T("conn_live"));
  es.onerror = async () => {
    setConn(false, T("conn_reconnecting"));
    if (es.readyState === EventSource.CLOSED) {
      const me = await fetch("/api/me", { credentials: "same-origin" }).catch(() => null);
      if (me && me.status === 401) { location.href = "/login"; return; }
      setTimeout(connect, 1500);
    }
  };
  es.addEventListener("snapshot", (e) => {
    track(e);
    const d = JSON.parse(e.data);
    S.tables.clear();
    for (const t of d.tables) S.tables.set(t.table, t);
    S.alerts.clear();
    for (const a of d.alerts) addAlert(a, false);
    setBroker(d.broker);
    renderTables(); renderFeed(); fillCodes();
    if (window.cardtable.firstPaint === null) window.cardtable.firstPaint = performance.now();
    // An alert that reached the store before this page's snapshot is drawn here, and its live event is then
    // a duplicate: it counts as shown now.
    const now = Date.now();
    for (const k of S.alerts.keys()) if (!(k in window.cardtable.shown)) window.cardtable.shown[k] = now;
    window.cardtable.snapshots += 1;
  });
  es.addEventListener("tables", (e) => {
    track(e);
    const d = JSON.parse(e.data);
    for (const t of d.tables) S.tables.set(t.table, t);
    setBroker(d.broker);
    renderTables();
  });
  es.addEventListener("alert", (e) => {
    track(e);
    const a = JSON.parse(e.data);
    if (addAlert(a, true)) { schedule("feed", key(a.table, a.id)); schedule("tables"); }
    if (!S.tables.has(a.table)) { upsertTable(a.table, {}); schedule("tables"); }
    if (S.detail && S.detail.table === a.table) schedule("detail");
  });
  es.addEventListener("ack", (e) => { track(e); applyAck(JSON.parse(e.data)); });
  // "open" is also EventSource's own connection event (no data): only the server's carries counts.
  es.addEventListener("open", (e) => { if (!e.data) return; track(e); const d = JSON.parse(e.data); upsertTable(d.table, { open: d.open }); schedule("tables"); });
  es.addEventListener("state", (e) => {
    track(e);
    const d = JSON.parse(e.data);
    upsertTable(d.table, { state: d.state });
    schedule("tables");
    if (S.detail && S.detail.table === d.table) schedule("detail");
  });
  es.addEventListener("status", (e) => { track(e); const d = JSON.parse(e.data); upsertTable(d.table, { status: d.status }); schedule("tables"); });
  es.addEventListener("ack_sent", (e) => {
    track(e);
    const d = JSON.parse(e.data);
    const a = S.alerts.get(key(d.table, d.id));
    if (a && a.floor && a.floor.ack) { a.floor.ack.published = true; schedule("feed"); if (S.detail && S.detail.table === d.table) schedule("detail"); }
  });
  es.addEventListener("broker", (e) => { track(e); setBroker(JSON.parse(e.data).connected); });
  es.addEventListener("hand", track);
}

// --- start -------------------------------------------------------------------------------------------------
async function start() {
  if (WALL) document.body.classList.add("wall");
  document.querySelectorAll(".tab").forEach((b) => b.addEventListener("click", () => showView(b.dataset.view)));
  $("#sound").addEventListener("click", () => setSound(!S.sound));
  $("#sound-banner").addEventListener("click", () => setSound(true));
  $("#show-info").addEventListener("change", (e) => { S.showInfo = e.target.checked; renderFeed(); });
  $("#detail-close").addEventListener("click", closeDetail);
  $("#replay-close").addEventListener("click", closeReplay);
  document.addEventListener("keydown", (e) => { if (e.key === "Escape") { if (S.replay) closeReplay(); else closeDetail(); } });
  $("#filters").addEventListener("submit", loadHistory);
  await ct.loadLang();
  fillCodes();
  connect();
  setInterval(tick, 1000);
}
start();
