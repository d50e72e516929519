"use strict";
// The replay page: the data is in #game (see pidor/gamelog/html.py for its form).
// A URL fragment drives it like its buttons and keys:
// #view=1&step=10&lang=en&do=next,court,marked&keys=ArrowRight,c,v
// (#walk: every step shown in turn, the milliseconds it took in <body data-walk-ms>:
// scripts/bench_viewer.py)
(function () {
  const game = JSON.parse(document.getElementById("game").textContent);
  const steps = game.steps;
  const SUITS = { c: "♣", d: "♦", h: "♥", s: "♠" };
  const UI = {
    ru: {
      first: "в начало (Home)", prev: "назад (←)", play: "играть / пауза", next: "вперёд (→)", last: "в конец (End)",
      court: "⚖ к суду", marked: "✗ к махлежу, «пидор!», суду (c)", view: "вид", all: "все места",
      step: "шаг", of: "из", record: "запись", trump: "козырь", deck: "колода", mark: "метка", acts: "ходит",
      cards: "карт", court_title: "⚖ суд", call_title: "!! «пидор!»", accuses: "обвиняет", rules: "нарушено",
      votes: "голоса", broken: "лог испорчен: ",
      keys: "клавиши: ← → шаг · Home/End · c — к махлежу, «пидор!» или суду · v — сменить вид · пробел — играть",
    },
    en: {
      first: "first step (Home)", prev: "previous step (←)", play: "play / pause", next: "next step (→)", last: "last step (End)",
      court: "⚖ next court", marked: "✗ next cheat/call/court (c)", view: "view", all: "all seats",
      step: "step", of: "of", record: "record", trump: "trump", deck: "deck", mark: "mark", acts: "to act",
      cards: "cards", court_title: "⚖ court", call_title: "!! «пидор!»", accuses: "accuses", rules: "broken",
      votes: "votes", broken: "broken log: ",
      keys: "keys: ← → step · Home/End · c next cheat/call/court · v change the view · space play",
    },
  };
  const $ = (id) => document.getElementById(id);
  let k = 0; // the step shown
  let view = "all"; // "all" or a seat number as a string
  let lang = game.lang === "en" ? "en" : "ru";
  let timer = null;
  const say = (key) => UI[lang][key];

  function el(tag, cls, text) {
    const e = document.createElement(tag);
    if (cls) e.className = cls;
    if (text !== undefined) e.textContent = text;
    return e;
  }

  function cardEl(code, hidden) {
    if (hidden) return el("span", "card back");
    const rank = code[0] === "T" ? "10" : code[0];
    const suit = code[1];
    const c = el("span", "card" + (suit === "h" || suit === "d" ? " red" : ""));
    c.append(el("b", "", rank), el("i", "", SUITS[suit])); // (its text: "10♥")
    c.dataset.card = code;
    return c;
  }

  function linesOf(step) {
    if (view !== "all" && step.s && step.s[view]) return step.s[view];
    return step.t;
  }

  function courtOf(step) {
    if (view !== "all" && step.sj && step.sj[view] !== undefined) return step.sj[view];
    return step.j || null;
  }

  function boardOf(i) { // the board after step i: the last step that has one
    for (let j = i; j >= 0; j--) if (steps[j].z) return steps[j];
    return null;
  }

  function zoneName(zone) { // "hand.0" -> the game's word for "hand"
    const info = game.zones[zone.split(".")[0]];
    return info ? info[lang] : zone;
  }

  function zoneEl(b, zone, codes, seen, accused) {
    const look = (game.zones[zone.split(".")[0]] || {}).look || "row";
    const row = el("div", "zone");
    row.dataset.zone = zone;
    row.append(el("span", "name", zoneName(zone)));
    const box = el("div", "cards " + look);
    if (look === "row" && codes.length > 8) box.classList.add("tight");
    const put = (parent, code, n) => {
      const c = cardEl(code, !seen(n));
      if (accused.has(code) && seen(n)) c.classList.add("accused");
      parent.append(c);
    };
    const sizes = (b.g && b.g[zone]) || null;
    let n = 0;
    if (sizes) {
      for (const size of sizes) {
        const g = el("span", "group");
        for (let i = 0; i < size; i++, n++) put(g, codes[n], n);
        box.append(g);
      }
    } else {
      codes.forEach((code, i) => put(box, code, i));
    }
    row.append(box);
    return row;
  }

  function drawBoard(court) {
    const box = $("board");
    for (const s of [...box.querySelectorAll(".seat")]) s.remove();
    const center = $("center");
    center.textContent = "";
    const b = boardOf(k);
    if (!b) { center.append(el("div", "status", "—")); return; }
    const bit = view === "all" ? 0 : 1 << Number(view);
    const accused = new Set((court && court.cards) || []);
    const status = el("div", "status");
    if (b.r) status.append(el("span", "badge trump", say("trump") + " " + SUITS[b.r]));
    if (b.d) status.append(el("span", "card deck"));
    if (b.d !== null) status.append(el("span", "badge", say("deck") + ": " + b.d));  // (a game without a deck: none)
    center.append(status);
    const seatZones = game.names.map(() => []);
    let m = 0;
    for (const zone of Object.keys(b.z)) {
      const codes = b.z[zone].match(/../g) || [];
      const first = m;
      m += codes.length;
      if (!codes.length) continue;
      const seen = (n) => !((b.m.charCodeAt(first + n) - 48) & bit);
      const row = zoneEl(b, zone, codes, seen, accused);
      const owner = zone.split(".")[1];
      if (owner !== undefined && seatZones[Number(owner)]) seatZones[Number(owner)].push([row, codes.length]);
      else center.append(row);
    }
    const n = game.names.length;
    const bottom = view === "all" ? 0 : Number(view);
    game.names.forEach((name, s) => {
      const angle = Math.PI / 2 + (2 * Math.PI * ((s - bottom + n) % n)) / n;
      const seat = el("div", "seat");
      seat.dataset.seat = String(s);
      seat.style.left = 50 + 33 * Math.cos(angle) + "%";
      seat.style.top = 50 + 39 * Math.sin(angle) + "%";
      const who = el("div", "who", name);
      if (b.a === s) who.append(el("span", "badge mark", "● " + say("mark")));
      if (b.o.includes(s)) { who.append(el("span", "badge act", say("acts"))); seat.classList.add("acting"); }
      const total = seatZones[s].reduce((t, [, c]) => t + c, 0);
      who.append(el("span", "count", say("cards") + ": " + total));
      seat.append(who);
      if (String(s) === view) seat.classList.add("viewer");
      for (const [row] of seatZones[s]) seat.append(row);
      box.append(seat);
    });
  }

  function drawCourt(court) {
    const panel = $("court-panel");
    panel.textContent = "";
    panel.hidden = !court;
    if (!court) return;
    panel.append(el("h2", "", court.rules ? say("court_title") : say("call_title")));
    panel.append(el("div", "parties", court.caller + " " + say("accuses") + " " + court.accused));
    const action = el("div", "action");
    for (const code of court.cards || []) { const c = cardEl(code, false); c.classList.add("accused"); action.append(c); }
    action.append(el("span", "", court.action));
    panel.append(action);
    const list = (title, items) => {
      if (!items || !items.length) return;
      panel.append(el("div", "", say(title) + ":"));
      const ul = el("ul");
      for (const t of items) ul.append(el("li", "", t));
      panel.append(ul);
    };
    list("rules", court.rules);
    list("votes", court.votes);
    for (const key of ["verdict", "undo", "mark"]) if (court[key]) panel.append(el("div", key, court[key]));
  }

  function drawTimeline() {
    const list = $("timeline");
    list.textContent = "";
    const items = document.createDocumentFragment();
    steps.forEach((step, i) => {
      const li = el("li", "", linesOf(step).join("\n") || "·");
      if (marked(step, "x")) li.classList.add("cheat");
      if (marked(step, "c")) li.classList.add("call");
      if (marked(step, "j")) li.classList.add("court");
      li.dataset.i = String(i);
      items.append(li);
    });
    list.append(items);
  }

  function drawLabels() {
    document.documentElement.lang = lang;
    for (const e of document.querySelectorAll("[data-label]")) e.textContent = say(e.dataset.label);
    for (const e of document.querySelectorAll("[data-title]")) e.title = say(e.dataset.title);
    $("lang-ru").classList.toggle("on", lang === "ru");
    $("lang-en").classList.toggle("on", lang === "en");
    $("keys").textContent = say("keys");
    const select = $("view");
    select.textContent = "";
    select.append(new Option(say("all"), "all"));
    game.names.forEach((n, s) => select.append(new Option(n, String(s))));
    select.value = view;
    if (game.problem) { $("problem").hidden = false; $("problem").textContent = say("broken") + game.problem; }
  }

  function scrollTo(li) { // the timeline scrolls, the page does not
    const list = $("timeline");
    if (li.offsetTop < list.scrollTop) list.scrollTop = li.offsetTop;
    else if (li.offsetTop + li.offsetHeight > list.scrollTop + list.clientHeight) {
      list.scrollTop = li.offsetTop + li.offsetHeight - list.clientHeight;
    }
  }

  let current = null;
  function show(i) {
    k = Math.max(0, Math.min(steps.length - 1, i));
    const court = courtOf(steps[k]);
    drawBoard(court);
    drawCourt(court);
    const lines = linesOf(steps[k]);
    $("now").textContent = lines.join("\n") + (k === steps.length - 1 ? "\n\n" + game.footer.join("\n") : "");
    if (current) current.classList.remove("current");
    current = $("timeline").children[k] || null;
    if (current) { current.classList.add("current"); scrollTo(current); }
    $("where").textContent = say("step") + " " + (k + 1) + " " + say("of") + " " + steps.length +
      " (" + say("record") + " " + steps[k].i + ")";
    $("slider").value = String(k);
    document.body.dataset.step = String(k);
    document.body.dataset.view = view;
    document.body.dataset.lang = lang;
  }

  function marked(step, c) { // a seat sees a cheat only when called, or its own
    if (!step.k.includes(c)) return false;
    return c !== "x" || view === "all" || linesOf(step).some((l) => l.includes("✗"));
  }

  function jump(marks) { // the next step with one of these marks
    for (let j = k + 1; j < steps.length; j++) {
      if ([...marks].some((c) => marked(steps[j], c))) { show(j); return; }
    }
  }

  function play() {
    if (timer) { clearInterval(timer); timer = null; $("play").textContent = "▶"; return; }
    $("play").textContent = "⏸";
    timer = setInterval(() => { if (k >= steps.length - 1) play(); else show(k + 1); }, 600);
  }

  function setView(v) {
    view = v;
    drawLabels();
    drawTimeline();
    current = null;
    show(k);
  }

  function setLang(l) {
    lang = l;
    drawLabels();
    show(k);
  }

  function cycleView() { // all seats, seat 0, seat 1, …, all seats
    const next = view === "all" ? 0 : Number(view) + 1;
    setView(next >= game.names.length ? "all" : String(next));
  }

  const actions = {
    first: () => show(0), prev: () => show(k - 1), next: () => show(k + 1), last: () => show(steps.length - 1),
    play: play, court: () => jump("j"), marked: () => jump("xcj"),
  };
  const KEYS = {
    ArrowLeft: actions.prev, ArrowRight: actions.next, Home: actions.first, End: actions.last,
    c: actions.marked, "с": actions.marked, v: cycleView, "м": cycleView, " ": play,
  };

  function onKey(e) {
    if (e.ctrlKey || e.metaKey || e.altKey) return;
    const tag = e.target && e.target.tagName;
    if ((tag === "SELECT" || tag === "INPUT") && e.key !== "c" && e.key !== "v") return; // their own keys
    const fn = KEYS[e.key];
    if (!fn) return;
    e.preventDefault();
    fn();
  }

  $("title").textContent = game.header[0];
  document.title = game.header[0];
  const slider = $("slider");
  slider.max = String(steps.length - 1);
  slider.addEventListener("input", () => show(Number(slider.value)));
  $("view").addEventListener("change", () => setView($("view").value));
  $("lang-ru").addEventListener("click", () => setLang("ru"));
  $("lang-en").addEventListener("click", () => setLang("en"));
  $("timeline").addEventListener("click", (e) => {
    const li = e.target.closest("li");
    if (li) show(Number(li.dataset.i));
  });
  for (const [id, fn] of Object.entries(actions)) $(id).addEventListener("click", fn);
  document.addEventListener("keydown", onKey);

  const args = new URLSearchParams(location.hash.slice(1));
  drawLabels();
  drawTimeline();
  show(Number(args.get("step") || 0));
  if (args.get("lang") in UI) setLang(args.get("lang")); // as its switch does
  if (args.has("view")) setView(args.get("view"));
  for (const name of (args.get("do") || "").split(",").filter(Boolean)) {
    if (name in actions && name !== "play") actions[name]();
  }
  if (args.has("walk")) {
    const start = performance.now();
    for (let i = 0; i < steps.length; i++) show(i);
    document.body.dataset.walkMs = String(Math.round(performance.now() - start));
  }
  for (const key of (args.get("keys") || "").split(",").filter(Boolean)) {
    document.dispatchEvent(new KeyboardEvent("keydown", { key: key, bubbles: true }));
  }
})();
