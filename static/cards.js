// The player cards (the projector's scoreboard, one card on a phone) and the streaming
// overlays, drawn from the cards' feed (/api/v1/t/<slug>/<division>/scoreboard) and refreshed
// from it: the browser asks again with If-None-Match, so an unchanged feed is a bare 304.
(function () {
  "use strict";
  const root = document.getElementById("cards");
  if (!root) return;
  const body = document.getElementById("cards-body");
  const mode = root.dataset.mode;
  const per = Number(root.dataset.per) || 8;
  const seconds = Number(root.dataset.seconds) || (mode === "overlay" ? 5 : 10);
  const embedded = document.getElementById("cards-data");
  let data = embedded ? JSON.parse(embedded.textContent) : null;
  let screen = 0;
  if (mode === "scoreboard") body.style.setProperty("--rows", String(Math.ceil(per / 2)));

  function t(name, value) {
    const text = root.dataset[name] || "";
    return value === undefined ? text : text.replace("%s", String(value));
  }
  function el(tag, cls, text) {
    const node = document.createElement(tag);
    if (cls) node.className = cls;
    if (text !== undefined && text !== null) node.textContent = String(text);
    return node;
  }
  // A name keeps its own direction inside a line of another script.
  function isolate(text) { return "\u2068" + text + "\u2069"; }
  function signed(n) { return n > 0 ? "+" + n : n < 0 ? "\u2212" + (-n) : "0"; }
  // Numbers kept left to right in a right-to-left line: "427–391" never reads "391–427".
  function ltr(text) { return "\u2066" + text + "\u2069"; }
  function score(a, b) { return ltr(a + "\u2013" + b); }
  function outcome(r) { return r === "W" ? t("tWin") : r === "L" ? t("tLoss") : t("tTie"); }

  function photo(card) {
    const box = el("div", "photo");
    if (card.photo && !root.classList.contains("no-photos")) {
      const img = el("img");
      img.src = card.photo;
      img.alt = "";
      img.width = 256;
      img.height = 256;
      box.appendChild(img);
    } else {
      box.appendChild(el("span", "initials", card.initials));
    }
    return box;
  }
  function game(g) {
    // "W 450–380 vs Name", a bye or a forfeit by its kind.
    if (!g) return t("tNone");
    if (g.opponent === null) {
      const what = g.kind === "forfeit" ? t("tForfeit") : t("tBye");
      return g.score === null ? what : what + " " + ltr(signed(g.score));
    }
    const versus = t("tVersus", isolate(g.opponent));
    if (g.score === null) return versus;
    return outcome(g.result) + " " + score(g.score, g.opponent_score) + " " + versus;
  }
  function current(g) {
    if (!g) return "";
    const parts = [t("tNow", g.round)];
    if (g.table) parts.push(t("tTable", g.table));
    if (g.opponent !== null) parts.push(t("tVersus", isolate(g.opponent)));
    else parts.push(g.kind === "forfeit" ? t("tForfeit") : t("tBye"));
    if (g.score !== null && g.opponent !== null) parts.push(score(g.score, g.opponent_score));
    else if (g.first) parts.push(t("tFirst"));
    return parts.join(" · ");
  }
  function stat(label, value, cls) {
    const box = el("div", "stat" + (cls ? " " + cls : ""));
    box.appendChild(el("span", "value", value));
    box.appendChild(el("span", "label", label));
    return box;
  }
  function card(c) {
    const node = el("article", "card" + (c.gibsonized ? " gibson" : ""));
    node.dataset.number = c.number;
    node.appendChild(photo(c));
    const main = el("div", "main");
    const head = el("div", "head");
    head.appendChild(el("span", "rank", c.rank === null ? "" : t("tRank", c.rank)));
    const name = el("h2", "name");
    name.appendChild(el("bdi", "", c.name));
    head.appendChild(name);
    if (c.gibsonized) head.appendChild(el("span", "mark gibson-mark", t("tGibson")));
    else if (c["class"]) head.appendChild(el("span", "mark", t("tClass", c["class"])));
    main.appendChild(head);
    const stats = el("div", "stats");
    stats.appendChild(stat(t("tRecord"), c.record));
    stats.appendChild(stat(t("tSpread"), signed(c.spread)));
    const change = c.rating_change > 0 ? "up" : c.rating_change < 0 ? "down" : "";
    const rating = stat(t("tRating"), c.rating_now, "rating");
    rating.querySelector(".value").appendChild(el("small", "change " + change, signed(c.rating_change)));
    stats.appendChild(rating);
    main.appendChild(stats);
    // The last game, unless it is the current round's, whose score the next line gives.
    if (!c.last || !c.current || c.last.round !== c.current.round) {
      main.appendChild(el("p", "last", t("tLast") + ": " + game(c.last)));
    }
    const now = current(c.current);
    if (now) main.appendChild(el("p", "now", now));
    node.appendChild(main);
    return node;
  }

  function drawScoreboard() {
    const players = data.players;
    const screens = Math.max(1, Math.ceil(players.length / per));
    screen = screen % screens;
    body.replaceChildren.apply(body, players.slice(screen * per, (screen + 1) * per).map(card));
    const label = document.getElementById("cards-page");
    if (label) label.textContent = screens > 1 ? t("tPage", (screen + 1) + "/" + screens) : "";
    const round = document.getElementById("cards-round");
    if (round) round.textContent = data.round ? t("tNow", data.round) : "";
  }
  function drawCard() {
    const number = Number(root.dataset.player);
    const found = data.players.find(function (c) { return c.number === number; });
    body.replaceChildren(found ? card(found) : el("p", "", t("tNoPlayer")));
  }
  function drawOverlay() {
    let cards = [];
    let message = "";
    if (root.dataset.player) {
      const number = Number(root.dataset.player);
      cards = data.players.filter(function (c) { return c.number === number; });
      if (!cards.length) message = t("tNoPlayer");
    } else {
      const number = Number(root.dataset.table);
      const table = data.tables.find(function (x) { return x.table === number; });
      if (table) {
        cards = table.players.map(function (n) {
          return data.players.find(function (c) { return c.number === n; });
        });
      } else message = t("tNoTable");
    }
    const nodes = cards.map(card);
    body.classList.toggle("pair", nodes.length === 2);
    body.replaceChildren.apply(body, message ? [el("p", "message", message)] : nodes);
  }
  function draw() {
    if (!data) return;
    if (mode === "scoreboard") drawScoreboard();
    else if (mode === "card") drawCard();
    else drawOverlay();
  }
  function refresh() {
    fetch(root.dataset.feed, { cache: "no-cache", headers: { Accept: "application/json" } })
      .then(function (r) { return r.ok ? r.json() : null; })
      .then(function (fresh) { if (fresh) { data = fresh; } draw(); })
      .catch(function () { draw(); });
  }
  draw();
  if (mode === "scoreboard") {
    setInterval(function () { screen += 1; refresh(); }, seconds * 1000);
  } else {
    setInterval(refresh, seconds * 1000);
  }
  if (!data) refresh();
})();
