// The round's clock, MM:SS, from the server's time: each answer carries the server's `now`,
// and the page corrects its own clock by the difference (taken at the middle of the request),
// so that the display and every phone show the same second. Used by display.js and phone.js:
//   const c = SpreadClock.create(element); c.update(state, sentAt, receivedAt);
(function () {
  "use strict";

  function mmss(seconds) {
    const s = Math.max(0, seconds);
    const m = Math.floor(s / 60);
    const r = s % 60;
    return (m < 10 ? "0" : "") + m + ":" + (r < 10 ? "0" : "") + r;
  }

  function create(el) {
    let state = null;
    let offset = 0; // the server's time minus this page's, in ms
    const label = el.dataset.tPaused || "";

    function left() {
      if (!state) return 0;
      if (!state.ends_at) return state.remaining;
      const now = Date.now() + offset;
      return Math.max(0, Math.ceil((Date.parse(state.ends_at) - now) / 1000));
    }

    function draw() {
      if (!state || !state.shown) {
        el.hidden = true;
        return;
      }
      el.hidden = false;
      const seconds = left();
      el.classList.toggle("paused", !state.ends_at);
      el.classList.toggle("over", seconds === 0);
      el.dataset.seconds = String(seconds);
      const time = document.createElement("span");
      time.className = "time";
      time.textContent = mmss(seconds);
      const parts = [time];
      if (!state.ends_at && label) {
        const note = document.createElement("span");
        note.className = "state";
        note.textContent = label;
        parts.push(note);
      }
      el.replaceChildren.apply(el, parts);
    }

    setInterval(draw, 200);
    return {
      // `sentAt`/`receivedAt`: Date.now() around the request that brought `next`; without
      // them (a state written into the page) the page's own start is taken as the send.
      update: function (next, sentAt, receivedAt) {
        if (!next) return;
        const sent = sentAt === undefined ? performance.timeOrigin : sentAt;
        const received = receivedAt === undefined ? Date.now() : receivedAt;
        if (next.now) offset = Date.parse(next.now) - (sent + received) / 2;
        state = next;
        draw();
      },
      seconds: left,
    };
  }

  window.SpreadClock = { create: create, mmss: mmss };

  // A clock written into the page alone (the desk's panel): <p data-clock-from="id"> shows
  // the state kept in the json_script of that id.
  document.querySelectorAll("[data-clock-from]").forEach(function (el) {
    const source = document.getElementById(el.dataset.clockFrom);
    if (source) create(el).update(JSON.parse(source.textContent));
  });
}());
