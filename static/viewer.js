// The game viewer: steps through a scoresheet's game without reloading the page. The page
// works without this script (each control is a link to ?turn=N); with it, the board is redrawn
// from the stored turns in the page's JSON (json_script "viewer-data") and the address follows.
(function () {
  "use strict";
  var SVG = "http://www.w3.org/2000/svg";

  function init() {
    var source = document.getElementById("viewer-data");
    var root = document.getElementById("viewer");
    if (!source || !root) return;
    // The page's words, in its language (data-t-… attributes of #viewer); %s is the value.
    function say(name, value) {
      var text = root.dataset[name] || "";
      return value === undefined ? text : text.replace("%s", String(value));
    }
    var data = JSON.parse(source.textContent);
    var svg = root.querySelector("svg.board");
    var tilesGroup = svg.querySelector("g.tiles");
    var cell = Number(svg.getAttribute("data-cell"));
    var margin = Number(svg.getAttribute("data-margin"));
    var slider = document.createElement("input");
    slider.type = "range";
    slider.id = "viewer-slider";
    slider.min = "0";
    slider.max = String(data.turns.length);
    slider.setAttribute("aria-label", say("tMove"));
    document.getElementById("viewer-slider-place").appendChild(slider);
    var last = data.turns.length;
    var step = data.step;

    function boardAt(k) {
      var board = {};
      for (var i = 0; i < k; i++) {
        var t = data.turns[i];
        t.placed.forEach(function (p) { board[p[0] + "," + p[1]] = p[2]; });
        t.removed.forEach(function (p) { delete board[p[0] + "," + p[1]]; });
      }
      return board;
    }

    function squareName(row, col) {
      return String.fromCharCode(65 + col) + (row + 1);
    }

    function el(name, attrs, text) {
      var node = document.createElementNS(SVG, name);
      Object.keys(attrs).forEach(function (k) { node.setAttribute(k, attrs[k]); });
      if (text !== undefined) node.textContent = text;
      return node;
    }

    // The same tile scoresheets/board_svg.py draws.
    function tile(row, col, t, isLast) {
      var x = margin + col * cell, y = margin + row * cell;
      var blank = t !== t.toUpperCase();
      var g = el("g", {
        "class": "tile" + (blank ? " blank" : "") + (isLast ? " last" : ""),
        "data-square": squareName(row, col),
        "data-tile": t
      });
      g.appendChild(el("rect", { x: x + 2, y: y + 2, width: cell - 4, height: cell - 4, rx: 4 }));
      var letter = t.toUpperCase();
      g.appendChild(el("text", {
        "class": "letter" + (letter.length > 1 ? " multi" : ""), x: x + cell / 2 - 3, y: y + cell / 2 + 1
      }, letter));
      var value = blank ? "" : String(data.values[t] === undefined ? "" : data.values[t]);
      g.appendChild(el("text", { "class": "value", x: x + cell - 5, y: y + cell - 6 }, value));
      return g;
    }

    // The rows as `python -m scoring show` prints them.
    function textBoard(board) {
      var cols = [];
      for (var c = 0; c < data.size; c++) cols.push(String.fromCharCode(65 + c));
      var lines = ["    " + cols.join(" ")];
      for (var r = 0; r < data.size; r++) {
        var cells = [];
        for (c = 0; c < data.size; c++) {
          var t = board[r + "," + c];
          cells.push(t === undefined ? data.marks[r][c] : t.charAt(0));
        }
        var number = String(r + 1);
        while (number.length < 3) number = " " + number;
        lines.push(number + " " + cells.join(" "));
      }
      return lines.join("\n");
    }

    function setText(id, text) {
      var node = document.getElementById(id);
      if (node) node.textContent = text;
    }

    function show(k, push) {
      step = Math.max(0, Math.min(last, k));
      var board = boardAt(step);
      var lastPlay = {};
      if (step > 0) {
        data.turns[step - 1].placed.forEach(function (p) { lastPlay[p[0] + "," + p[1]] = true; });
      }
      while (tilesGroup.firstChild) tilesGroup.removeChild(tilesGroup.firstChild);
      Object.keys(board).sort().forEach(function (key) {
        var rc = key.split(",");
        tilesGroup.appendChild(tile(Number(rc[0]), Number(rc[1]), board[key], lastPlay[key]));
      });
      var info = data.steps[step];
      var title = svg.querySelector("title");
      if (title) title.textContent = say("tBoard", info.caption);
      setText("viewer-text", textBoard(board));
      setText("viewer-caption", info.caption);
      setText("viewer-step", step + " / " + last);
      var totals = info.totals.map(function (t) {
        return t.nick + " " + t.recorded + (t.computed !== t.recorded ? " (" + say("tEngine", t.computed) + ")" : "");
      });
      setText("viewer-totals", totals.join(" · "));
      setText("viewer-to-move", info.to_move
        ? info.to_move + (info.rack ? ", " + say("tRack") + " " + info.rack : "")
        : say("tOver"));
      setText("viewer-unseen", info.unseen);
      setText("viewer-unseen-count", "(" + info.unseen_count + ")");
      slider.value = String(step);
      root.querySelectorAll("#viewer-moves tr[data-step]").forEach(function (row) {
        row.classList.toggle("current", Number(row.getAttribute("data-step")) === step);
      });
      var links = { first: 0, back: step - 1, forward: step + 1, last: last };
      root.querySelectorAll("a[data-go]").forEach(function (a) {
        var target = Math.max(0, Math.min(last, links[a.getAttribute("data-go")]));
        a.setAttribute("href", "?turn=" + data.steps[target].turn);
        a.classList.toggle("disabled", target === step);
      });
      if (push !== false) {
        var url = new URL(window.location.href);
        url.searchParams.set("turn", String(info.turn));
        window.history.replaceState(null, "", url.pathname + url.search + url.hash);
      }
    }

    function go(where) {
      var target = { first: 0, back: step - 1, forward: step + 1, last: last }[where];
      if (target !== undefined) show(target);
    }

    root.querySelectorAll("a[data-go]").forEach(function (a) {
      a.addEventListener("click", function (event) {
        event.preventDefault();
        go(a.getAttribute("data-go"));
      });
    });
    root.querySelectorAll("#viewer-moves a[data-step]").forEach(function (a) {
      a.addEventListener("click", function (event) {
        event.preventDefault();
        show(Number(a.getAttribute("data-step")));
      });
    });
    slider.addEventListener("input", function () { show(Number(slider.value)); });
    document.addEventListener("keydown", function (event) {
      var target = event.target;
      // Typing in a field, or the slider's own arrow keys, is left alone.
      if (target && (target.tagName === "INPUT" || target.tagName === "TEXTAREA" || target.isContentEditable)) return;
      if (event.altKey || event.ctrlKey || event.metaKey) return;
      var keys = { ArrowLeft: "back", ArrowRight: "forward", Home: "first", End: "last" };
      if (keys[event.key]) {
        event.preventDefault();
        go(keys[event.key]);
      }
    });
    show(step, false);
  }

  if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", init);
  } else {
    init();
  }
})();
