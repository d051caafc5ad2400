// The player's phone through the venue's Wi-Fi (templates/tournament/phone/_offline.html).
//
// - Registers the service worker (static/phone-sw.js) for the player's own page, which then
//   opens offline with what it showed last.
// - Every form the page posts to the player's own link (a report, a check-in, a scoresheet, …)
//   is sent from here with an idempotency key (crypto.randomUUID), kept in this phone's
//   IndexedDB first: when the network does not answer it stays there, shown as "Not sent yet",
//   and is sent again when the network is back (the `online` event, the page opened again, and
//   every 15 s while anything waits), one at a time, in the order made. The server takes a key
//   once (tournament/phone/offline.py), so a send whose answer was lost and is sent again is
//   never recorded twice. Once all are sent, the page the server names is opened, with its
//   messages. Without this script (or IndexedDB) the forms post as they always did.
(function () {
  "use strict";
  const root = document.getElementById("phone-offline");
  if (!root) return;
  const scope = root.dataset.scope;
  const note = document.getElementById("phone-offline-note");
  const list = document.getElementById("phone-queue");
  const AGAIN = 15000;
  const STORE = "queue";

  if ("serviceWorker" in navigator) {
    navigator.serviceWorker.register(root.dataset.sw, { scope: scope }).catch(function () {});
    navigator.serviceWorker.addEventListener("message", function (event) {
      if (event.data && typeof event.data.offline === "boolean") offline(event.data.offline);
    });
  }

  function offline(down) {
    note.hidden = !down;
    document.documentElement.dataset.offline = down ? "1" : "";
  }
  window.addEventListener("offline", function () { offline(true); });
  if (navigator.onLine === false) offline(true);

  if (!("indexedDB" in window) || !window.fetch) return;

  // -- what is kept on the phone ----------------------------------------------------------
  let opened = null;
  function database() {
    if (!opened) {
      opened = new Promise(function (resolve, reject) {
        const request = indexedDB.open("spread-phone", 1);
        request.onupgradeneeded = function () {
          request.result.createObjectStore(STORE, { keyPath: "id", autoIncrement: true });
        };
        request.onsuccess = function () { resolve(request.result); };
        request.onerror = function () { reject(request.error); };
      });
    }
    return opened;
  }

  function store(mode, work) {
    return database().then(function (db) {
      return new Promise(function (resolve, reject) {
        const tx = db.transaction(STORE, mode);
        const result = work(tx.objectStore(STORE));
        tx.oncomplete = function () { resolve(result && "result" in result ? result.result : undefined); };
        tx.onerror = function () { reject(tx.error); };
        tx.onabort = function () { reject(tx.error); };
      });
    });
  }

  // This link's items, oldest first (another player's link on the same phone keeps its own).
  function waiting() {
    return store("readonly", function (s) { return s.getAll(); }).then(function (items) {
      return (items || []).filter(function (item) { return item.scope === scope; })
        .sort(function (a, b) { return a.id - b.id; });
    });
  }

  function keep(item) { return store("readwrite", function (s) { return s.add(item); }); }
  function drop(id) { return store("readwrite", function (s) { return s.delete(id); }); }

  // -- what the page shows of it ----------------------------------------------------------
  const notes = [];
  function show(items) {
    const rows = items.filter(function (item) { return !item.fresh; }).map(function (item) {
      const li = document.createElement("li");
      li.className = "not-sent";
      li.textContent = root.dataset.tNotSent.replace("{what}", item.label);
      return li;
    });
    notes.forEach(function (text) {
      const li = document.createElement("li");
      li.className = "error";
      li.setAttribute("role", "alert");
      li.textContent = text;
      rows.push(li);
    });
    list.replaceChildren.apply(list, rows);
  }

  function label(form, fields) {
    let text = form.dataset.queueLabel || root.dataset.tSent;
    fields.forEach(function (pair) {
      if (typeof pair[1] === "string") text = text.replace("{" + pair[0] + "}", pair[1].trim());
    });
    // Scores stay left to right inside a right-to-left sentence ("420–380", not "380–420").
    if (document.documentElement.dir === "rtl") {
      text = text.replace(/[-+]?\d[\d–-]*\d|\d/g, function (n) { return "\u2066" + n + "\u2069"; });
    }
    return text;
  }

  function newKey() {
    if (window.crypto && crypto.randomUUID) return crypto.randomUUID();
    const bytes = new Uint8Array(16);
    crypto.getRandomValues(bytes);
    return Array.from(bytes, function (b) { return (b < 16 ? "0" : "") + b.toString(16); }).join("");
  }

  // -- sending ----------------------------------------------------------------------------
  let sending = false;
  let timer = null;
  let fresh = null; // the item just made: not shown as waiting while its first send is tried

  function body(fields) {
    const data = new FormData();
    fields.forEach(function (pair) { data.append(pair[0], pair[1]); });
    return data;
  }

  // One item: "sent" (answered; where to go next, a refusal to show), or "wait" (no answer,
  // or the server asks for later: kept, and sent again).
  function sendOne(item) {
    return fetch(item.url, {
      method: "POST",
      body: body(item.fields),
      credentials: "same-origin",
      redirect: "manual",
      headers: { "X-Spread-Queue": "send", Accept: "application/json" },
    }).then(function (response) {
      if (response.status === 429 || response.status >= 500) return { wait: true };
      if (response.type === "opaqueredirect") return { go: location.href };
      return response.json().then(function (answer) {
        return { go: answer.go || answer.saved || "", error: answer.error || "" };
      }, function () {
        return { error: root.dataset.tRefused };
      });
    }, function () {
      return { wait: true };
    });
  }

  function sendAll() {
    if (sending) return Promise.resolve();
    sending = true;
    let go = "";
    function next() {
      return waiting().then(function (items) {
        if (!items.length) return false;
        return sendOne(items[0]).then(function (answer) {
          if (answer.wait) {
            offline(true);
            return true;
          }
          return drop(items[0].id).then(function () {
            if (answer.error) notes.push(answer.error);
            if (answer.go) go = answer.go;
            return next();
          });
        });
      });
    }
    return next().then(function (more) {
      sending = false;
      fresh = null;
      clearTimeout(timer);
      if (more) {
        timer = setTimeout(sendAll, AGAIN);
      } else {
        offline(false);
      }
      // A refusal stays in view: the page's own messages wait for its next opening.
      if (!more && go && !notes.length) {
        location.assign(go);
        return;
      }
      return waiting().then(show);
    }, function () {
      sending = false;
    });
  }

  function locked(work) {
    // Two tabs of one page send one at a time (the server would take each key once anyway).
    if (navigator.locks) return navigator.locks.request("spread-phone-queue", work);
    return work();
  }
  function send() { return locked(sendAll); }

  document.addEventListener("submit", function (event) {
    const form = event.target;
    if (event.defaultPrevented || !(form instanceof HTMLFormElement)) return;
    if ((form.getAttribute("method") || "").toLowerCase() !== "post") return;
    const action = new URL(form.action, location.href);
    if (action.origin !== location.origin || !action.pathname.startsWith(scope)) return;
    event.preventDefault();
    const data = new FormData(form);
    if (event.submitter && event.submitter.name) data.append(event.submitter.name, event.submitter.value);
    data.set("idempotency_key", newKey());
    const fields = [];
    data.forEach(function (value, name) { fields.push([name, value]); });
    const item = { scope: scope, url: action.pathname + action.search, fields: fields,
      label: label(form, fields), made: Date.now() };
    Array.from(form.querySelectorAll("button[type=submit], button:not([type])")).forEach(function (b) {
      b.disabled = true;
    });
    keep(item).then(function (id) {
      fresh = id;
      Array.from(form.querySelectorAll("button")).forEach(function (b) { b.disabled = false; });
      return waiting().then(function (items) {
        items.forEach(function (i) { i.fresh = i.id === fresh; });
        show(items);
        return send();
      });
    }, function () {
      form.submit(); // IndexedDB refused (private mode, full): posted as without this script
    });
  });

  window.addEventListener("online", function () { send(); });
  document.addEventListener("visibilitychange", function () {
    if (document.visibilityState === "visible") send();
  });
  waiting().then(function (items) {
    show(items);
    if (items.length) send();
  }, function () {});
}());
