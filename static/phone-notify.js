// While the player's page is open, a notification when the live feed brings a new pairing (the
// round's game is another) or a result recorded in one of their games (templates/tournament/
// phone/_body.html marks them: data-game, data-recorded). The browser's permission is asked once,
// by the player's own tap on "Tell me when…", never on its own; no push service: the page's
// own polls (static/phone.js) bring the news.
(function () {
  "use strict";
  const button = document.getElementById("phone-notify");
  const holder = document.getElementById("phone-body");
  if (!button || !holder || !("Notification" in window)) return;
  const ASKED = "spread-phone-notify";

  function asked() {
    try { return Boolean(localStorage.getItem(ASKED)); } catch (e) { return false; }
  }
  if (Notification.permission === "default" && !asked()) button.hidden = false;
  button.addEventListener("click", function () {
    try { localStorage.setItem(ASKED, "1"); } catch (e) { /* private mode: asked this once */ }
    button.hidden = true;
    Notification.requestPermission();
  });

  function text(el) {
    return el ? el.textContent.replace(/\s+/g, " ").trim() : "";
  }

  function state() {
    const now = holder.querySelector(".now");
    const games = {};
    const recorded = {};
    holder.querySelectorAll("tr[data-game]").forEach(function (row) {
      games[row.dataset.game] = true;
      if (row.hasAttribute("data-recorded")) recorded[row.dataset.game] = row;
    });
    return { game: now ? now.dataset.game || "" : "", games: games, recorded: recorded };
  }

  function notify(title, body, tag) {
    const options = { body: body, tag: tag, lang: document.documentElement.lang };
    try {
      new Notification(title, options);
    } catch (e) {
      // Chrome on Android shows notifications only through the page's service worker.
      if (navigator.serviceWorker) {
        navigator.serviceWorker.ready.then(function (r) { r.showNotification(title, options); });
      }
    }
  }

  let seen = state();
  new MutationObserver(function () {
    const now = state();
    const before = seen;
    seen = now;
    // Not while the page shows what it kept offline: nothing new is known.
    if (Notification.permission !== "granted" || document.documentElement.dataset.offline) return;
    if (now.game && now.game !== before.game) {
      const section = holder.querySelector(".now");
      const lines = [section.querySelector("h2"), section.querySelector(".table"),
        section.querySelector(".opponent")].map(text).filter(Boolean);
      notify(button.dataset.tPaired, lines.join(" · "), "spread-paired-" + now.game);
    }
    Object.keys(now.recorded).forEach(function (game) {
      // A game new to the page (a bye scored as it is paired) is told as paired, not twice.
      if (before.recorded[game] || !before.games[game]) return;
      const row = now.recorded[game];
      const result = game === now.game ? text(holder.querySelector(".now .result")) : "";
      const cells = Array.from(row.cells).slice(0, 4).map(text).filter(Boolean);
      notify(button.dataset.tRecorded, result || cells.join(" · "), "spread-result-" + game);
    });
  }).observe(holder, { childList: true });
}());
