// Typing a scoresheet: every move checked as it is typed, the next player's line started with
// Enter, Ctrl+Enter saves (desk/scoresheet_form.html and the player's phone/sheet.html; the
// check's address in data-check-url).
(function () {
  "use strict";
  var form = document.getElementById("sheet-form");
  var ta = form.elements.gcg;
  var summary = document.getElementById("sheet-summary");
  // The page's words, in its language (data-t-… attributes of the form); %s is the value.
  function say(name, value) {
    var text = form.dataset[name] || "";
    return value === undefined ? text : text.replace("%s", String(value));
  }
  var recordFindings = document.getElementById("sheet-record-findings");
  var body = document.querySelector("#sheet-lines tbody");
  var board = document.getElementById("sheet-board");
  var timer = null, asked = 0;
  ta.dir = "ltr";  // the moves are typed left to right in every language, as the board reads

  function cell(row, text, cls) {
    var td = document.createElement("td");
    td.textContent = text === null || text === undefined ? "" : String(text);
    if (cls) { td.className = cls; }
    row.appendChild(td);
    return td;
  }

  function finding(f) {
    var p = document.createElement("div");
    p.className = "finding " + f.severity;
    p.textContent = (say("tSeverity" + f.severity.charAt(0).toUpperCase() + f.severity.slice(1)) || f.severity) + ": " + f.message;
    return p;
  }

  // The check's answer (scoresheets.live_check): each turn as [line, recorded score, engine's
  // score, recorded total, engine's total]; the first findings, `more` the others' count.
  // `text`: the record as it was sent, which the answer is about (the player may have typed on).
  function render(report, text) {
    var lines = text.split(/\r\n|\r|\n/);
    var turns = {};
    (report.turns || []).forEach(function (t) {
      turns[t[0]] = {recorded_score: t[1], computed_score: t[2], recorded_total: t[3], computed_total: t[4]};
    });
    var byLine = {};
    (report.findings || []).forEach(function (f) { (byLine[String(f.line)] = byLine[String(f.line)] || []).push(f); });
    var errors = report.errors || 0;
    var players = (report.players || []).map(function (p) {
      // Each nick isolated (FSI…PDI), so that "سارا 0" keeps its order beside a Latin one.
      return "\u2068" + p.nick + "\u2069 " + p.final + (p.final !== p.computed ? " (" + say("tEngine", p.computed) + ")" : "");
    }).join(", ");
    // A record with no move yet (a new sheet: its header only) has nothing verified, whatever
    // its totals of 0 say; only an error in it is worth a word.
    var empty = !(report.turns || []).length && !errors;
    if (empty) {
      summary.textContent = say("tEmpty");
      summary.className = "muted";
    } else {
      summary.textContent = (report.verified ? say("tVerified") : say(errors === 1 ? "tError" : "tErrors", errors)) +
        (players ? ": " + players : "") + (report.differs ? ". " + say("tDiffers") : ".");
      summary.className = report.verified && !report.differs ? "success" : "warning";
    }
    recordFindings.replaceChildren();
    (byLine["0"] || []).forEach(function (f) {
      if (!(empty && f.code === "no_moves")) { recordFindings.appendChild(finding(f)); }
    });
    if (report.more) {
      var more = document.createElement("div");
      more.className = "finding warning";
      more.textContent = say("tMore", report.more);
      recordFindings.appendChild(more);
    }
    body.replaceChildren();
    lines.forEach(function (text, i) {
      var number = i + 1, t = turns[number], found = byLine[String(number)] || [];
      if (!text.trim() || (!t && !found.length && text.trim()[0] === "#")) { return; }
      var row = document.createElement("tr");
      cell(row, number);
      var move = cell(row, "", "mono"), gcg = document.createElement("bdi");
      gcg.dir = "ltr";  // a GCG line reads left to right on a right-to-left page too,
      gcg.className = "gcg-line";  // wrapping, its nickname isolated (core/html.py's gcg_line_html)
      var line = text.trim(), m = /^>([^:]*):/.exec(line);
      if (m) {
        var nick = document.createElement("bdi");
        nick.textContent = m[1];
        gcg.append(">", nick, line.slice(m[0].length - 1));
      } else {
        gcg.textContent = line;
      }
      move.appendChild(gcg);
      found.forEach(function (f) { move.appendChild(finding(f)); });
      var wrongScore = t && t.computed_score !== null && t.computed_score !== t.recorded_score;
      var wrongTotal = t && t.computed_total !== t.recorded_total;
      cell(row, t ? t.recorded_score : "", "num");
      cell(row, t ? t.computed_score : "", "num" + (wrongScore ? " wrong" : ""));
      cell(row, t ? t.recorded_total : "", "num");
      cell(row, t ? t.computed_total : "", "num" + (wrongTotal ? " wrong" : ""));
      if (found.length || wrongScore || wrongTotal) { row.className = "wrong"; }
      body.appendChild(row);
    });
    board.textContent = report.board || "";
  }

  function check() {
    var n = ++asked, sent = ta.value;
    var data = new FormData();
    data.set("csrfmiddlewaretoken", form.elements.csrfmiddlewaretoken.value);
    data.set("gcg", sent);
    fetch(form.dataset.checkUrl, {method: "POST", body: data, headers: {"Accept": "application/json"}, credentials: "same-origin"})
      .then(function (r) {
        // Not JSON: an error page, said with its status; only no answer at all is the network.
        if ((r.headers.get("Content-Type") || "").indexOf("application/json") === -1) {
          return {error: say("tRefused") + " (" + r.status + ")"};
        }
        return r.json();
      })
      .then(function (report) {
        if (n !== asked) { return; }
        // A refusal (a player's link past its limit, a locked round) says why in `error`.
        if (report.error) { summary.textContent = report.error; summary.className = "warning"; return; }
        render(report, sent);
      })
      .catch(function () { summary.textContent = say("tNoAnswer"); });
  }

  function nicks() {
    var found = [];
    ta.value.split(/\r\n|\r|\n/).forEach(function (l) {
      var m = /^#player\d+\s+(\S+)/.exec(l.trim());
      if (m) { found.push(m[1]); }
    });
    return found;
  }

  ta.addEventListener("input", function () { clearTimeout(timer); timer = setTimeout(check, 120); });

  // Enter at the end of a move starts the other player's line with ">nick: ". Typing ">" on
  // such a line, untouched, takes the prefix back, so typing whole lines by hand still works.
  ta.addEventListener("keydown", function (ev) {
    if (ev.key !== "Enter" && ev.key !== ">") { return; }
    if (ev.key === "Enter" && (ev.ctrlKey || ev.metaKey)) { ev.preventDefault(); if (form.requestSubmit) { form.requestSubmit(); } else { form.submit(); } return; }
    if (ev.shiftKey && ev.key === "Enter") { return; }
    if (ev.altKey || ev.ctrlKey || ev.metaKey || ta.selectionStart !== ta.selectionEnd) { return; }
    var pos = ta.selectionStart, before = ta.value.slice(0, pos), after = ta.value.slice(pos);
    if (after && after[0] !== "\n" && after[0] !== "\r") { return; }
    var start = before.lastIndexOf("\n") + 1, current = before.slice(start);
    if (ev.key === ">") {
      if (/^>[^:\s]+: $/.test(current)) { ta.setRangeText("", start, pos, "end"); }
      return;
    }
    current = current.trim();
    var names = nicks(), next = null;
    var move = /^>([^:\s]+):/.exec(current);
    if (move && names.indexOf(move[1]) >= 0) {
      next = names[(names.indexOf(move[1]) + 1) % names.length];
    } else if (names.length >= 2 && current.indexOf("#player" + names.length + " ") === 0 && !/^>/m.test(ta.value)) {
      next = names[0];
    }
    if (!next) { return; }
    ev.preventDefault();
    ta.setRangeText("\n>" + next + ": ", pos, pos, "end");
    ta.dispatchEvent(new Event("input"));
  });

  if (ta.value.trim()) { check(); }
  if (!document.getElementById("board-entry")) {  // the board, where there is one, comes first
    ta.focus();
    ta.setSelectionRange(ta.value.length, ta.value.length);
  }
})();
