// Board entry of a scoresheet (templates/tournament/scoresheets/_board_entry.html): tap the
// square a word starts on, Across or Down, type the word; the server places and scores it
// (data-turn-url: scoresheets/board_entry.board_turns) and answers the lines to add, the board,
// the turns and the findings, in the page's language. The sheet is kept here (the header and
// each turn with the lines it added) and in local storage until it is saved.
(function () {
  "use strict";
  var root = document.getElementById("board-entry");
  if (!root) { return; }
  var data = JSON.parse(document.getElementById("board-data").textContent);
  var $ = function (id) { return document.getElementById(id); };
  var key = "spread-board:" + root.dataset.turnUrl;
  var sheet = {v: 1, header: data.header, entries: data.entries};
  var answer = data.answer;
  var at = {row: null, col: null, across: true};
  var editing = null, asked = 0, timer = null, busy = false;
  var squares = Array.prototype.slice.call(root.querySelectorAll(".sq"));
  var word = $("be-word"), preview = $("be-preview"), status = $("be-status");

  function say(name, values) {
    var text = root.dataset[name] || "";
    Object.keys(values || {}).forEach(function (k) { text = text.split("{" + k + "}").join(values[k]); });
    return text;
  }
  function value(id) { var el = $(id); return el ? el.value.trim() : ""; }
  function text(s, upto) {
    var out = s.header.slice();
    s.entries.slice(0, upto === undefined ? s.entries.length : upto).forEach(function (e) { out = out.concat(e.lines); });
    return out.join("\n") + "\n";
  }
  function lines(upto) { return text(sheet, upto); }
  function keep() {
    try { localStorage.setItem(key, JSON.stringify(sheet)); } catch (e) { /* full or off */ }
  }
  function same(a, b) {
    var trim = function (t) { return t.trim().split(/\r\n|\r|\n/).map(function (l) { return l.trim(); }).join("\n"); };
    return trim(a) === trim(b);
  }

  // The server's answer for the record up to `from` and the turns `specs`; `commit` puts them
  // in place of the turns from `from` on.
  function send(specs, from, commit) {
    if (commit) { busy = true; }
    var n = ++asked, form = new FormData();
    form.set("csrfmiddlewaretoken", root.querySelector("[name=csrfmiddlewaretoken]").value);
    form.set("gcg", lines(from));
    form.set("turns", JSON.stringify(specs));
    form.set("first", String(from));
    return fetch(root.dataset.turnUrl, {method: "POST", body: form, credentials: "same-origin", headers: {"Accept": "application/json"}})
      .then(function (r) {
        if ((r.headers.get("Content-Type") || "").indexOf("application/json") === -1) { return {error: say("tRefused") + " (" + r.status + ")"}; }
        return r.json();
      })
      .catch(function () { return {error: say("tNoAnswer")}; })
      .then(function (got) {
        if (commit) { busy = false; }
        if (n !== asked && !commit) { return null; }
        if (got.error || got.refused) { return got; }
        if (commit) {
          sheet.entries = sheet.entries.slice(0, from).concat(specs.map(function (spec, i) { return {spec: spec, lines: got.lines[i]}; }));
          keep();
          answer = got;
        }
        return got;
      });
  }

  function drawBoard(shown, fresh) {
    var tiles = {}, last = {}, added = {};
    shown.board.forEach(function (t) { tiles[t[0] * 15 + t[1]] = t[2]; });
    (shown.last || []).forEach(function (t) { last[t[0] * 15 + t[1]] = true; });
    (fresh || []).forEach(function (t) { added[t[0] * 15 + t[1]] = true; });
    squares.forEach(function (sq, i) {
      var tile = tiles[i], d = sq.dataset;
      sq.classList.toggle("tile", tile !== undefined);
      sq.classList.toggle("blank", tile !== undefined && tile !== tile.toUpperCase());
      sq.classList.toggle("last", !!last[i] && !fresh);
      sq.classList.toggle("new", !!added[i]);
      var chosen = at.row !== null && at.row * 15 + at.col === i;
      sq.classList.toggle("sel", chosen);
      sq.classList.toggle("down", chosen && !at.across);
      sq.textContent = tile === undefined ? d.mark : tile.toUpperCase();
      var name = d.label.split(",")[0];
      sq.setAttribute("aria-label", tile === undefined ? d.label : name + ", " + tile.toUpperCase() + (tile !== tile.toUpperCase() ? ", " + say("tBlank") : ""));
    });
  }

  function finding(f) {
    var p = document.createElement("div");
    p.className = "finding " + f.severity;
    p.textContent = (say(f.severity === "error" ? "tSeverityError" : "tSeverityWarning") || f.severity) + ": " + f.message;
    return p;
  }
  function span(parent, cls, text) {
    var s = document.createElement("span");
    s.className = cls;
    s.textContent = text;
    parent.appendChild(s);
    return s;
  }
  function entryOf(line) {
    var n = sheet.header.length;
    for (var i = 0; i < sheet.entries.length; i++) {
      n += sheet.entries[i].lines.length;
      if (line <= n) { return i; }
    }
    return sheet.entries.length - 1;
  }

  function render() {
    drawBoard(answer);
    status.textContent = editing === null ? answer.status : say("tEditing", {number: editing + 1});
    $("be-summary").textContent = answer.summary;
    $("be-legend").textContent = answer.turns.length ? answer.legend : "";
    $("be-record-findings").replaceChildren.apply($("be-record-findings"), (answer.record_findings || []).map(finding));
    var list = $("be-turns");
    list.replaceChildren();
    answer.turns.forEach(function (t, k) {
      var li = document.createElement("li"), b = document.createElement("button");
      b.type = "button";
      b.className = "be-turn" + (t.wrong ? " wrong" : "") + (editing !== null && entryOf(t.line) === editing ? " editing" : "");
      span(b, "n", String(k + 1));
      span(b, "who", "\u2068" + t.nick + "\u2069");
      var move = span(b, t.kind === "play" ? "move play" : "move", t.move);
      move.dir = t.kind === "play" ? "ltr" : "auto";
      var score = (t.score >= 0 ? "+" : "") + t.score;
      if (t.computed !== null && t.computed !== t.score) { score += " (" + say("tEngine", {score: t.computed}) + ")"; }
      span(b, "score", score).dir = "ltr";
      span(b, "totals", t.totals.join(" – "));  // in the page's direction, as the legend reads
      b.addEventListener("click", function () { edit(entryOf(t.line)); });
      li.appendChild(b);
      t.findings.forEach(function (f) { li.appendChild(finding(f)); });
      list.appendChild(li);
    });
    $("be-stop").hidden = $("be-remove").hidden = editing === null;
  }

  function spec() {
    var s = {kind: "play", row: at.row, col: at.col, across: at.across, word: word.value.trim()};
    if (value("be-score")) { s.score = value("be-score"); }
    if (value("be-rack")) { s.rack = value("be-rack"); }
    return s;
  }
  function clear() {
    clearTimeout(timer);  // a preview asked for before the turn was added is not shown
    word.value = "";
    ["be-score", "be-rack", "be-tiles"].forEach(function (id) { $(id).value = ""; });
    at.row = at.col = null;
    $("be-square").textContent = "–";
    preview.textContent = "";
    preview.className = "be-preview";
  }
  function refuse(got) {
    preview.textContent = got.refused || got.error;
    preview.className = "be-preview refused";
    preview.setAttribute("role", "alert");
  }

  // Adds a turn, or puts it in place of the turn being changed (the turns after it scored again).
  function add(s) {
    if (busy) { return Promise.resolve(); }
    clearTimeout(timer);
    var from = editing === null ? sheet.entries.length : editing;
    var specs = [s].concat(editing === null ? [] : sheet.entries.slice(editing + 1).map(function (e) { return e.spec; }));
    return send(specs, from, true).then(function (got) {
      if (!got) { return; }
      if (got.error || got.refused) { refuse(got); drawBoard(answer); return; }
      var changed = editing !== null;
      editing = null;
      clear();
      render();
      // Said where the player looks, and the keyboard put away so that the board shows.
      var last = answer.turns[answer.turns.length - 1];
      if (last && !changed) { preview.textContent = say("tAdded", {move: last.move, score: (last.score >= 0 ? "+" : "") + last.score}); }
      word.blur();
    });
  }

  function show() {
    clearTimeout(timer);
    preview.removeAttribute("role");
    if (!word.value.trim()) { preview.textContent = ""; drawBoard(answer); return; }
    if (at.row === null) { preview.textContent = say("tTap"); preview.className = "be-preview"; return; }
    timer = setTimeout(function () {
      if (at.row === null || busy) { return; }
      var from = editing === null ? sheet.entries.length : editing;
      send([spec()], from, false).then(function (got) {
        if (!got) { return; }
        if (got.error || got.refused) { refuse(got); drawBoard(answer); return; }
        preview.className = "be-preview";
        preview.textContent = got.preview ? got.preview.text : "";
        drawBoard(got, got.preview ? got.preview.placed : []);
      });
    }, 150);
  }

  function edit(k) {
    if (k < 0) { return; }
    editing = k;
    clear();
    var s = sheet.entries[k].spec;
    if (s.kind === "play") {
      at = {row: s.row, col: s.col, across: s.across !== false};
      $("be-square").textContent = (s.row + 1) + String.fromCharCode(65 + s.col);
      word.value = s.word || "";
      $("be-score").value = s.score === undefined ? "" : s.score;
      $("be-rack").value = s.rack || "";
    } else if (s.tiles) {
      $("be-tiles").value = s.tiles;
    }
    direction();
    render();
    if (s.kind === "play") { show(); }
  }

  function direction() {
    $("be-across").setAttribute("aria-pressed", String(at.across));
    $("be-down").setAttribute("aria-pressed", String(!at.across));
  }

  squares.forEach(function (sq) {
    sq.addEventListener("click", function () {
      var row = +sq.dataset.row, col = +sq.dataset.col;
      if (at.row === row && at.col === col) { at.across = !at.across; } else { at.row = row; at.col = col; }
      $("be-square").textContent = sq.dataset.label.split(",")[0];
      direction();
      drawBoard(answer);
      show();
      word.focus({preventScroll: true});
    });
  });
  $("be-across").addEventListener("click", function () { at.across = true; direction(); drawBoard(answer); show(); });
  $("be-down").addEventListener("click", function () { at.across = false; direction(); drawBoard(answer); show(); });
  word.addEventListener("input", show);
  word.addEventListener("keydown", function (ev) { if (ev.key === "Enter") { ev.preventDefault(); add(spec()); } });
  $("be-add").addEventListener("click", function () { add(spec()); });
  $("be-pass").addEventListener("click", function () { add({kind: "pass", rack: value("be-rack")}); });
  $("be-exchange").addEventListener("click", function () { add({kind: "exchange", tiles: value("be-tiles"), rack: value("be-rack")}); });
  $("be-phony").addEventListener("click", function () { add({kind: "phony"}); });
  $("be-end").addEventListener("click", function () { add({kind: "end", tiles: value("be-tiles")}); });
  if ($("be-bonus")) {
    $("be-bonus").addEventListener("click", function () {
      add($("be-words") ? {kind: "challenge", words: value("be-words") || "1"} : {kind: "challenge", points: value("be-points")});
    });
  }
  if ($("be-time")) {
    $("be-time").addEventListener("click", function () {
      add({kind: "time", player: +$("be-time-player").value, minutes: value("be-minutes")});
    });
  }
  function redo(from, specs) {
    if (busy) { return Promise.resolve(); }
    return send(specs, from, true).then(function (got) {
      if (got && (got.error || got.refused)) { refuse(got); return; }
      editing = null;
      clear();
      render();
    });
  }
  $("be-undo").addEventListener("click", function () {
    if (editing !== null) { editing = null; clear(); render(); return; }
    if (!sheet.entries.length) { return; }
    redo(sheet.entries.length - 1, []);
  });
  $("be-stop").addEventListener("click", function () { editing = null; clear(); render(); });
  $("be-remove").addEventListener("click", function () {
    var k = editing;
    redo(k, sheet.entries.slice(k + 1).map(function (e) { return e.spec; }));
  });
  // Who went first: the header's two players change places, and every turn is placed again.
  function firstNick() {
    var one = sheet.header.filter(function (l) { return /^#player1\s/.test(l); })[0] || "";
    return one.split(/\s+/)[1];
  }
  $("be-first").addEventListener("change", function () {
    if (busy || this.value === firstNick()) { return; }
    var header = sheet.header.slice(), at1 = -1, at2 = -1;
    header.forEach(function (l, i) {
      if (/^#player1\s/.test(l)) { at1 = i; }
      if (/^#player2\s/.test(l)) { at2 = i; }
    });
    if (at1 < 0 || at2 < 0) { return; }
    header[at1] = sheet.header[at2].replace(/^#player2/, "#player1");
    header[at2] = sheet.header[at1].replace(/^#player1/, "#player2");
    sheet.header = header;
    var specs = sheet.entries.map(function (e) {
      var s = Object.assign({}, e.spec);
      if (s.player !== undefined) { s.player = 1 - s.player; }
      return s;
    });
    redo(0, specs);
  });
  $("be-restart").addEventListener("click", function () {
    if (!window.confirm(say("tStartAgain"))) { return; }
    sheet.entries = [];
    redo(0, []);
  });
  $("be-save").addEventListener("click", function () {
    var form = new FormData(), saved = $("be-saved");
    form.set("csrfmiddlewaretoken", root.querySelector("[name=csrfmiddlewaretoken]").value);
    form.set("gcg", lines(sheet.entries.length));
    saved.textContent = say("tSaving");
    fetch(root.dataset.saveUrl, {method: "POST", body: form, credentials: "same-origin", headers: {"Accept": "application/json", "X-Spread-Board": "save"}})
      .then(function (r) { return r.json(); })
      .then(function (got) {
        if (got.saved) {
          try { localStorage.removeItem(key); } catch (e) { /* off */ }
          window.location.assign(got.saved);
          return;
        }
        saved.textContent = got.error || say("tRefused");
      })
      .catch(function () {
        // No answer: on a player's phone the sheet goes to the phone's queue
        // (static/phone-offline.js), kept there and sent once the network is back.
        if (queued(form)) { return; }
        saved.textContent = say("tNoAnswer");
      });
  });

  // The save as a form the phone's queue takes (it listens for the page's form posts): only
  // where the queue is (a player's page), never at the desk.
  function queued(fields) {
    if (!document.getElementById("phone-offline") || !window.indexedDB) { return false; }
    var post = document.createElement("form"), typed = document.getElementById("sheet-form");
    post.method = "post";
    post.action = root.dataset.saveUrl;
    post.hidden = true;
    if (typed && typed.dataset.queueLabel) { post.dataset.queueLabel = typed.dataset.queueLabel; }
    fields.forEach(function (value, name) {
      var input = document.createElement("input");
      input.type = "hidden";
      input.name = name;
      input.value = value;
      post.appendChild(input);
    });
    document.body.appendChild(post);
    post.requestSubmit();
    return true;
  }

  // A sheet entered here and not saved is taken up again (a dropped connection loses nothing),
  // unless it is the sheet saved already.
  var kept = null;
  try { kept = JSON.parse(localStorage.getItem(key) || "null"); } catch (e) { kept = null; }
  if (kept && kept.v === 1 && kept.header && kept.entries && kept.entries.length &&
      !same(text(kept), data.saved || "") && !same(text(kept), text(sheet))) {
    sheet = kept;
    send([], sheet.entries.length, true).then(function () {
      $("be-first").value = firstNick();
      render();
      $("be-saved").textContent = say("tRestored");
    });
  } else {
    $("be-first").value = firstNick();
    render();
  }
})();
