"use strict";
// The replay page: the data is in #game (see pidor/gamelog/html.py for its form).
// A URL fragment drives it like its buttons: #view=1&step=10&do=next,court,marked
(function () {
  const game = JSON.parse(document.getElementById("game").textContent);
  const steps = game.steps;
  const SUITS = { c: "♣", d: "♦", h: "♥", s: "♠" };
  const $ = (id) => document.getElementById(id);
  let k = 0; // the step shown
  let view = "all"; // "all" or a seat number as a string
  let timer = null;

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
    const c = el("span", "card" + (suit === "h" || suit === "d" ? " red" : ""), rank + SUITS[suit]);
    c.dataset.card = code;
    return c;
  }

  function linesOf(step) {
    if (view !== "all" && step.s && step.s[view]) return step.s[view];
    return step.t;
  }

  function boardOf(i) { // the board after step i: the last step that has one
    for (let j = i; j >= 0; j--) if (steps[j].z) return steps[j];
    return null;
  }

  function drawBoard() {
    const box = $("board");
    box.textContent = "";
    const b = boardOf(k);
    if (!b) { box.append(el("div", "status", "—")); return; }
    const name = (s) => (s === null || s === undefined ? "—" : game.names[s]);
    box.append(el("div", "status", "trump " + (SUITS[b.r] || "—") + " · deck " + b.d + " · mark: " + name(b.a) +
      " · to act: " + (b.o.map(name).join(", ") || "—")));
    const bit = view === "all" ? 0 : 1 << Number(view);
    let m = 0;
    for (const zone of Object.keys(b.z)) {
      const codes = b.z[zone].match(/../g) || [];
      const row = el("div", "zone");
      row.dataset.zone = zone;
      row.append(el("span", "name", zone));
      for (const code of codes) {
        const hidden = (b.m.charCodeAt(m++) - 48) & bit;
        row.append(cardEl(code, hidden));
      }
      if (codes.length) box.append(row);
    }
  }

  function drawTimeline() {
    const list = $("timeline");
    list.textContent = "";
    steps.forEach((step, i) => {
      const lines = linesOf(step);
      const li = el("li", "", lines.join("\n") || "·");
      if (marked(step, "x")) li.classList.add("cheat");
      if (marked(step, "c")) li.classList.add("call");
      if (marked(step, "j")) li.classList.add("court");
      li.addEventListener("click", () => show(i));
      list.append(li);
    });
  }

  function show(i) {
    k = Math.max(0, Math.min(steps.length - 1, i));
    drawBoard();
    const lines = linesOf(steps[k]);
    $("now").textContent = lines.join("\n") + (k === steps.length - 1 ? "\n\n" + game.footer.join("\n") : "");
    const items = $("timeline").children;
    for (const li of items) li.classList.remove("current");
    if (items[k]) { items[k].classList.add("current"); items[k].scrollIntoView({ block: "nearest" }); }
    $("where").textContent = "step " + (k + 1) + " / " + steps.length + " (record " + steps[k].i + ")";
    document.body.dataset.step = String(k);
    document.body.dataset.view = view;
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
    if (timer) { clearInterval(timer); timer = null; $("play").textContent = "▶ play"; return; }
    $("play").textContent = "⏸ pause";
    timer = setInterval(() => { if (k >= steps.length - 1) play(); else show(k + 1); }, 600);
  }

  function setView(v) {
    view = v;
    $("view").value = v;
    drawTimeline();
    show(k);
  }

  const actions = {
    first: () => show(0), prev: () => show(k - 1), next: () => show(k + 1), play: play,
    court: () => jump("j"), marked: () => jump("xcj"),
  };

  $("title").textContent = game.header[0];
  document.title = "replay: " + game.header[0];
  if (game.problem) { $("problem").hidden = false; $("problem").textContent = "broken log: " + game.problem; }
  const select = $("view");
  select.append(new Option("all seats", "all"));
  game.names.forEach((n, s) => select.append(new Option(n, String(s))));
  select.addEventListener("change", () => setView(select.value));
  for (const [id, fn] of Object.entries(actions)) $(id).addEventListener("click", fn);

  const args = new URLSearchParams(location.hash.slice(1));
  drawTimeline();
  show(Number(args.get("step") || 0));
  if (args.has("view")) setView(args.get("view"));
  for (const name of (args.get("do") || "").split(",").filter(Boolean)) {
    if (name in actions && name !== "play") actions[name]();
  }
})();
