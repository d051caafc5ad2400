// The player's page keeps itself up to date without a reload: it polls its live feed
// (/p/<token>/live) every 3 s with If-None-Match, a bare 304 while nothing it shows has
// changed; a new round's table and opponent or a result recorded come in its body, put in
// place of the old one; a new record or rank alone (another game's result) comes alone and
// replaces only itself; and the round's clock with the server's time.
(function () {
  "use strict";
  const live = JSON.parse(document.getElementById("phone-live").textContent);
  const holder = document.getElementById("phone-body");
  const clock = window.SpreadClock.create(document.getElementById("round-clock"));
  const POLL = 3000;
  const RESYNC = 300000; // the server's time asked for afresh every five minutes
  let etag = live.etag;
  let synced = 0;

  // What the player has typed and not sent stays typed when the body is replaced.
  function typed() {
    const values = {};
    holder.querySelectorAll("input[name]").forEach(function (input) {
      if (input.type !== "hidden" && input.value) values[input.name] = input.value;
    });
    return values;
  }

  function replace(body, title) {
    const keep = typed();
    const focused = document.activeElement && document.activeElement.name;
    holder.innerHTML = body;
    // The body's forms come with a mark for their CSRF field: the page's own token goes in.
    holder.querySelectorAll('input[name="csrfmiddlewaretoken"]').forEach(function (input) {
      input.value = live.csrf;
    });
    Object.keys(keep).forEach(function (name) {
      const input = holder.querySelector('input[name="' + name + '"]');
      if (input && !input.value) input.value = keep[name];
    });
    if (focused) {
      const again = holder.querySelector('input[name="' + focused + '"]');
      if (again) again.focus();
    }
    if (title) document.title = title;
    // What the last write said (a report waiting, a disagreement) may no longer hold: the body
    // says what holds now.
    const said = document.querySelector(".phone > .messages");
    if (said) said.remove();
  }

  function poll() {
    const sentAt = Date.now();
    const fresh = sentAt - synced > RESYNC;
    // X-Spread-Parts: while the body is the feed's own, a new record or rank comes alone.
    const headers = fresh ? {} : { "If-None-Match": etag, "X-Spread-Parts": "1" };
    fetch(live.url, { headers: headers, cache: "no-store", credentials: "same-origin" })
      .then(function (response) {
        const receivedAt = Date.now();
        if (response.status !== 200) return null;
        const tag = response.headers.get("ETag");
        return response.json().then(function (data) {
          if (tag !== etag) {
            if (typeof data.body === "string") replace(data.body, data.title);
            // The record and rank come with every answer; kept offline, they may be newer
            // than the kept body's.
            const standing = document.getElementById("phone-standing");
            if (standing && typeof data.standing === "string") standing.innerHTML = data.standing;
          }
          etag = tag || etag;
          synced = sentAt;
          clock.update(data.clock, sentAt, receivedAt);
        });
      })
      .catch(function () { return null; })
      .then(function () { setTimeout(poll, POLL); });
  }

  poll();
}());
