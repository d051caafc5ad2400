// Board entry of a scoresheet (templates/tournament/scoresheets/_board_entry.html): tap the
// square a word starts on, Across or Down, type the word; the server places and scores it
// (data-turn-url: scoresheets/board_entry.board_turns) and answers the lines to add, the board,
// the turns and the findings, in the page's language. The sheet is kept here (the header and
// each turn with the lines it added) and in local storage until it is saved.
// A thumb's board: where a square is smaller than a finger (44 CSS pixels), a touch on the
// whole board brings the part around it closer (`zoomAt`) and chooses nothing; there, a touch
// chooses the square, and again switches Across and Down. The Word box, Blank and Add are
// under the board and kept in view above an on-screen keyboard (`keepInView`). Letters are
// taken in either case; a blank is marked by Blank (the next letter) or by tapping a letter.
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
  var board = $("be-board"), coords = Array.prototype.slice.call(board.querySelectorAll(".coord"));
  var TARGET = 44;  // the least square a thumb hits, in CSS pixels
  var zoom = null, pointer = "", explicit = false, guessed = true, blankNext = false, occupied = {};
  // The tile set's tiles of several letters (Spanish CH, LL, RR), longest first: typed as
  // the tile set writes them, one tile each, as the engine reads them.
  var digraphs = (data.digraphs || []).slice().sort(function (a, b) { return b.length - a.length; });
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
    if (!fresh) { occupied = tiles; }
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

  // The Word box's text as tiles: a blank ("?" and its letter or bracketed tile), a tile of
  // several letters as the tile set writes it or in brackets, a dot, one character.
  function tokens(text) {
    var out = [], i = 0, blank = false;
    while (i < text.length) {
      var ch = text[i], tile = ch;
      if (ch === "?") { blank = true; i += 1; continue; }
      if (ch === "[" && text.indexOf("]", i) > i + 1) {
        tile = text.slice(i + 1, text.indexOf("]", i));
      } else {
        for (var k = 0; k < digraphs.length; k++) {
          if (text.substr(i, digraphs[k].length) === digraphs[k]) { tile = digraphs[k]; break; }
        }
      }
      i += ch === "[" && tile !== ch ? tile.length + 2 : tile.length;
      if (/\s/.test(tile)) { continue; }
      out.push({tile: tile, blank: blank && tile !== "."});
      blank = false;
    }
    return out;
  }
  // Tiles back to the Word box's text: a blank after "?", a tile of several letters in
  // brackets when it is a blank (so that "?" takes all of it).
  function untokens(list) {
    return list.map(function (t) {
      if (!t.blank) { return t.tile; }
      return "?" + (t.tile.length > 1 ? "[" + t.tile + "]" : t.tile);
    }).join("");
  }
  // A word as the record writes it (a blank in lower case) as the Word box takes it.
  function boxed(recorded) {
    var out = [];
    (recorded || "").replace(/\[([^\]]+)\]|[\s\S]/g, function (m, inner) {
      var tile = inner || m;
      out.push({tile: tile.toUpperCase(), blank: tile !== tile.toUpperCase()});
      return m;
    });
    return untokens(out);
  }
  function capitals(text) {
    return text.split("").map(function (ch) { var up = ch.toUpperCase(); return up.length === 1 ? up : ch; }).join("");
  }

  function spec() {
    var s = {kind: "play", row: at.row, col: at.col, across: at.across, word: untokens(tokens(capitals(word.value.trim())))};
    if (value("be-score")) { s.score = value("be-score"); }
    if (value("be-rack")) { s.rack = value("be-rack"); }
    return s;
  }
  function clear() {
    clearTimeout(timer);  // a preview asked for before the turn was added is not shown
    word.value = "";
    blankNext = false;
    $("be-blank").setAttribute("aria-pressed", "false");
    letters();
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
      zoomOut();
      render();
      // The whole board back in view, with whose turn it is above it: the next play's square.
      var seen = onScreen(), whole = board.getBoundingClientRect();
      if (whole.top < seen.top || whole.bottom > seen.bottom) { window.scrollBy(0, status.getBoundingClientRect().top - 4 - seen.top); }
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
      if (!explicit) { at.across = guessed; direction(); }
      var sent = spec();
      send([sent], from, false).then(function (got) {
        if (!got) { return; }
        if (got.refused && !explicit) {
          // Not chosen by a tap: the other direction, where the word stands there.
          var other = spec();
          other.across = !other.across;
          return send([other], from, false).then(function (turned) {
            if (!turned || turned.error || turned.refused || at.across === other.across) { return got; }
            at.across = other.across;
            direction();
            return turned;
          });
        }
        return got;
      }).then(function (got) {
        if (!got) { return; }
        // What the preview is about: the word and its direction (a test waits for them).
        preview.dataset.word = sent.word;
        preview.dataset.across = String(at.across);
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
      explicit = true;
      word.value = boxed(s.word);
      letters();
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

  // The board's part around a square brought closer: as many squares across (and down) as
  // are at least TARGET pixels wide, the others hidden; `null`, the whole board.
  function closer() {
    var width = board.clientWidth, coord = coords[16].getBoundingClientRect().width;
    return Math.max(1, Math.min(15, Math.floor((width - coord) / (TARGET + 4))));
  }
  function zoomAt(row, col) {
    var n = closer(), half = Math.floor(n / 2);
    var r0 = Math.max(0, Math.min(15 - n, row - half)), c0 = Math.max(0, Math.min(15 - n, col - half));
    zoom = {row: r0, col: c0, n: n};
    board.classList.add("zoomed");
    board.style.gridTemplateColumns = "1.1rem repeat(" + n + ", minmax(0, 1fr))";
    squares.forEach(function (sq) {
      var r = +sq.dataset.row, c = +sq.dataset.col;
      sq.classList.toggle("out", r < r0 || r >= r0 + n || c < c0 || c >= c0 + n);
    });
    coords.forEach(function (el, i) {
      var k = i <= 15 ? i - 1 - c0 : i - 16 - r0;
      el.classList.toggle("out", i !== 0 && (k < 0 || k >= n));
    });
    $("be-zoom-out").hidden = false;
    // All of the closer part on the screen, its top first where it cannot all be.
    var seen = onScreen(), part = board.getBoundingClientRect();
    if (part.bottom > seen.bottom || part.top < seen.top) { window.scrollBy(0, Math.min(part.bottom - seen.bottom, part.top - seen.top)); }
  }
  function zoomOut() {
    if (!zoom) { return; }
    zoom = null;
    board.classList.remove("zoomed");
    board.style.gridTemplateColumns = "";
    squares.concat(coords).forEach(function (el) { el.classList.remove("out"); });
    $("be-zoom-out").hidden = true;
  }
  // The direction a word starting here most likely takes: the one in which it soonest meets
  // a tile (through it, or beside it); never one in which a tile lies just before the square
  // (the word would start there); Across when nothing says.
  function guess(row, col) {
    var has = function (r, c) { return r >= 0 && c >= 0 && r < 15 && c < 15 && occupied[r * 15 + c] !== undefined; };
    var meets = function (across) {
      var dr = across ? 0 : 1, dc = across ? 1 : 0;
      if (has(row - dr, col - dc)) { return 99; }
      for (var k = 0; k < 15; k++) {
        var r = row + k * dr, c = col + k * dc;
        if (r > 14 || c > 14) { break; }
        if ((k > 0 && has(r, c)) || has(r - dc, c - dr) || has(r + dc, c + dr)) { return k; }
      }
      return 98;
    };
    return meets(true) <= meets(false);
  }
  // The chosen square and the Word box (and the preview, where there is room) inside what
  // the screen shows, the on-screen keyboard's place taken away (visualViewport).
  function keepInView() {
    if (at.row === null) { return; }
    var seen = onScreen(), height = seen.bottom - seen.top;
    var from = squares[at.row * 15 + at.col].getBoundingClientRect().top - 4, to = from;
    var ends = [$("be-preview"), $("be-word")];
    for (var k = 0; k < ends.length; k++) {
      to = ends[k].getBoundingClientRect().bottom + 4;
      if (to - from <= height) { break; }
    }
    var by = 0;
    if (to - from > height || from < seen.top) { by = from - seen.top; } else if (to > seen.bottom) { by = to - seen.bottom; }
    if (Math.abs(by) >= 1) { window.scrollBy(0, by); }
  }
  // What the screen shows of the page, in the page's client coordinates: the layout viewport
  // less what an on-screen keyboard covers (visualViewport, where the browser has it).
  function onScreen() {
    var vv = window.visualViewport, top = vv ? vv.offsetTop : 0;
    return {top: top, bottom: top + (vv ? vv.height : window.innerHeight)};
  }
  var pending = 0;
  function keepSoon() {
    cancelAnimationFrame(pending);
    pending = requestAnimationFrame(keepInView);
  }

  board.addEventListener("pointerdown", function (ev) { pointer = ev.pointerType; }, true);
  squares.forEach(function (sq) {
    sq.addEventListener("click", function () {
      var row = +sq.dataset.row, col = +sq.dataset.col, touched = pointer === "touch" || pointer === "pen";
      pointer = "";
      if (touched && !zoom && sq.getBoundingClientRect().width < TARGET) {
        zoomAt(row, col);
        return;
      }
      if (at.row === row && at.col === col) {
        at.across = !at.across;
        explicit = true;
      } else {
        at.row = row;
        at.col = col;
        at.across = guessed = guess(row, col);
        explicit = false;
      }
      $("be-square").textContent = sq.dataset.label.split(",")[0];
      direction();
      drawBoard(answer);
      show();
      word.focus({preventScroll: true});
      keepSoon();
    });
  });
  $("be-zoom-out").addEventListener("click", zoomOut);
  // Two fingers pinching the zoomed board in: the whole board again.
  var pinch = null;
  board.addEventListener("touchstart", function (ev) {
    pinch = ev.touches.length === 2 && zoom ? spread(ev.touches) : null;
  }, {passive: true});
  board.addEventListener("touchmove", function (ev) {
    if (pinch !== null && ev.touches.length === 2 && spread(ev.touches) < pinch * 0.7) { pinch = null; zoomOut(); }
  }, {passive: true});
  function spread(touches) {
    return Math.hypot(touches[0].clientX - touches[1].clientX, touches[0].clientY - touches[1].clientY);
  }
  if (window.visualViewport) { window.visualViewport.addEventListener("resize", keepSoon); }
  window.addEventListener("resize", keepSoon);
  $("be-across").addEventListener("click", function () { at.across = true; explicit = true; direction(); drawBoard(answer); show(); });
  $("be-down").addEventListener("click", function () { at.across = false; explicit = true; direction(); drawBoard(answer); show(); });

  // The Word box: capitals or not, the same tiles; Blank makes the next letter typed a blank.
  function typed(ev) {
    var text = word.value, caret = word.selectionStart === null ? text.length : word.selectionStart;
    var out = capitals(text);
    if (blankNext && ev && ev.inputType === "insertText" && ev.data && /^\S$/.test(ev.data) && ev.data !== "?" && ev.data !== ".") {
      var k = caret - ev.data.length;
      out = out.slice(0, k) + "?" + out.slice(k);
      caret += 1;
      blankNext = false;
      $("be-blank").setAttribute("aria-pressed", "false");
    }
    if (out !== text) {
      word.value = out;
      word.setSelectionRange(caret, caret);
    }
    letters();
    show();
  }
  // The word's tiles under the box, each a button that makes it a blank or a tile again.
  function letters() {
    var list = tokens(capitals(word.value)), strip = $("be-letters");
    strip.replaceChildren.apply(strip, list.map(function (t, k) {
      var b = document.createElement("button");
      b.type = "button";
      b.className = t.blank ? "blank" : "";
      b.textContent = t.tile;
      b.setAttribute("aria-pressed", String(t.blank));
      b.setAttribute("aria-label", say("tMarkBlank", {letter: t.tile}));
      if (t.tile === ".") { b.disabled = true; }
      b.addEventListener("click", function () {
        list[k].blank = !list[k].blank;
        word.value = untokens(list);
        letters();
        show();
      });
      return b;
    }));
    strip.hidden = !list.length;
  }
  $("be-blank").addEventListener("click", function () {
    blankNext = !blankNext;
    this.setAttribute("aria-pressed", String(blankNext));
    word.focus({preventScroll: true});
  });
  word.addEventListener("input", typed);
  word.addEventListener("focus", keepSoon);
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
