// The desk's result entry: each line checked as it is typed, saved with Enter, undone with
// Alt+U, without reloading the page (desk/entry.html; the check's address in data-check-url).
(function () {
  "use strict";
  var form = document.getElementById("entry-form");
  var line = form.elements.line, version = form.elements.version, reason = form.elements.reason;
  var reasonRow = document.getElementById("reason-row");
  var out = document.getElementById("check");
  var log = document.getElementById("log");
  var roundBox = document.getElementById("round");
  var latest = null;   // {text, result} of the last check that came back
  var timer = null;
  var saving = false;  // a save is on its way: Enter again sends nothing more
  var JSON_HEADERS = {"Accept": "application/json"};

  // The page's words, in its language (data-t-… attributes of the entry form).
  function say(name) { return form.dataset[name] || ""; }

  function para(cls, text) {
    var p = document.createElement("p");
    p.className = cls;
    p.textContent = text;
    return p;
  }

  // The desk's answer as data: its JSON, or for an answer that is not JSON (a proxy's or
  // server's error page) a refusal that says its status. Only a request that got no answer at
  // all (fetch's rejection) is a lost connection.
  function answer(r) {
    var type = r.headers.get("Content-Type") || "";
    if (type.indexOf("application/json") !== -1) { return r.json(); }
    var text = say("tRefused") + " (" + r.status + ")";
    return {ok: false, errors: [text], error: text};
  }

  function show(result, extraError) {
    out.replaceChildren();
    (result.errors || (result.error ? [result.error] : [])).forEach(function (e) { out.appendChild(para("error", e)); });
    if (result.ok) {
      out.appendChild(para("after", (result.correction ? say("tCorrection") + " " + result.before + " → " : say("tSaves") + " ") + result.after));
      if (result.also) { out.appendChild(para("after", say("tAnd") + " " + result.also)); }
      // Each time penalty on a line of its own, the counted score last: "Alice 380 − 20 = 360".
      (result.penalties || []).forEach(function (t) { out.appendChild(para("after penalty", say("tPenalty") + " " + t)); });
    }
    (result.warnings || []).forEach(function (w) { out.appendChild(para("warning", w)); });
    if (extraError) { out.appendChild(para("error", extraError)); }
    reasonRow.hidden = !(result.ok && result.correction);
  }

  function check(text) {
    var url = form.dataset.checkUrl + "?line=" + encodeURIComponent(text);
    var asTyped = form.querySelector("[name=first_as_typed]");
    if (asTyped && asTyped.checked) { url += "&first_as_typed=1"; }
    return fetch(url, {headers: JSON_HEADERS, credentials: "same-origin"})
      .then(answer)
      .then(function (result) {
        if (line.value === text) { latest = {text: text, result: result}; show(result); }
        return result;
      });
  }

  function clearEntry() {
    line.value = ""; reason.value = ""; version.value = "";
    latest = null; reasonRow.hidden = true; out.replaceChildren();
  }

  function note(cls, text) {
    var li = document.createElement("li");
    li.className = cls;
    li.textContent = text;
    log.insertBefore(li, log.firstChild);
    while (log.children.length > 8) { log.removeChild(log.lastChild); }
  }

  // What a save changed, patched into the page: the rows of the games it wrote, what is
  // unresolved, the round's notes (undo, latest changes); the whole round where the answer
  // brings it, and the whole page again where a row it names is not on the page.
  function patch(data) {
    if (data.html !== undefined) { roundBox.innerHTML = data.html; return; }
    var rows = data.rows || {};
    var found = Object.keys(rows).map(function (pk) {
      return roundBox.querySelector('tr[data-game="' + pk + '"]');
    });
    if (found.indexOf(null) !== -1 || !data.notes) { window.location.reload(); return; }
    Object.keys(rows).forEach(function (pk, i) {
      var holder = document.createElement("tbody");
      holder.innerHTML = rows[pk];
      found[i].replaceWith(holder.firstElementChild);
    });
    document.getElementById("round-unresolved").innerHTML = data.unresolved;
    document.getElementById("round-notes").innerHTML = data.notes;
  }

  function post(target, body) {
    return fetch(target.action, {method: "POST", body: body, headers: JSON_HEADERS, credentials: "same-origin"})
      .then(answer);
  }

  line.addEventListener("input", function () {
    clearTimeout(timer);
    var text = line.value;
    if (!text.trim()) { clearEntry(); return; }
    timer = setTimeout(function () { check(text); }, 80);
  });

  line.addEventListener("keydown", function (ev) {
    if (ev.key === "Escape") { clearEntry(); }
  });

  document.addEventListener("keydown", function (ev) {
    var button = document.querySelector("#undo-form button");
    if (ev.altKey && (ev.key === "u" || ev.key === "U") && button) { ev.preventDefault(); button.click(); }
  });

  form.addEventListener("submit", function (ev) {
    ev.preventDefault();
    if (saving) { return; }
    saving = true;
    var text = line.value;
    var ready = latest && latest.text === text ? Promise.resolve(latest.result) : check(text);
    ready.then(function (result) {
      if (!result.ok) { show(result); line.focus(); return; }
      if (result.correction && !reason.value.trim()) {
        show(result, say("tReason"));
        reason.focus();
        return;
      }
      var body = new FormData(form);
      body.set("version", result.version === null ? "" : String(result.version));
      return post(form, body).then(function (data) {
        if (data.ok) {
          // Both players' record and spread now: a score put to the wrong player stands out.
          note("success", data.records ? data.message + ". " + data.records : data.message);
          clearEntry();
          patch(data);
          line.focus();
        } else {
          show({errors: [data.error]});
          latest = null;  // the round changed under us: check again before the next save
          line.focus();
        }
      });
    }).catch(function () { show({errors: [say("tNoAnswer")]}); })
      .then(function () { saving = false; });
  });

  roundBox.addEventListener("submit", function (ev) {
    if (ev.target.id !== "undo-form") { return; }
    ev.preventDefault();
    post(ev.target, new FormData(ev.target)).then(function (data) {
      note(data.ok ? "success" : "error", data.ok ? data.message : data.error);
      if (data.html) { roundBox.innerHTML = data.html; }
      latest = null;
      line.focus();
    }).catch(function () { note("error", say("tNoAnswer")); });
  });
})();
