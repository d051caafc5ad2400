// The hall display: polls the API every 2 s, 1 s after a new answer (If-None-Match, so an
// unchanged answer is a bare 304) and rotates pairings, standings and the latest results, and
// the divisions when several are given. A changed feed redraws the view showing in place, and
// its new results (or a round just paired) come at once in the ticker above it, whatever the
// view; the round's clock is read from its own feed (static/clock.js works out the seconds from
// the server's time).
(function () {
  "use strict";
  const feeds = JSON.parse(document.getElementById("display-feeds").textContent);
  const root = document.getElementById("display");
  const seconds = Number(root.dataset.seconds) || 15;
  const body = document.getElementById("display-body");
  const title = document.getElementById("display-title");
  const viewLabel = document.getElementById("display-view");
  // The page's words, in its language (data-t-… attributes of #display); %s is the value.
  function t(name, value) {
    const text = root.dataset[name] || "";
    return value === undefined ? text : text.replace("%s", String(value));
  }
  const VIEWS = ["pairings", "standings", "results"];
  const POLL = 2000;
  // While results are coming in (the last answer was new), the feed is asked again after 1 s:
  // a screen beside a quarter of a 250-table round gets two results a second at the round's
  // peak, and keeps each among its latest twelve for about six (bench/hall.py).
  const BUSY_POLL = 1000;
  const TICKER = 30000; // how long the newest results stay in the ticker
  // The most new results one answer puts in the ticker: a screen beside a quarter of a
  // 250-table round gets about four a poll at the round's peak (bench/hall.py), at most eight
  // but rarely.
  const TICKED = 8;
  const RESYNC = 300000; // the server's time asked for afresh every five minutes
  const state = feeds.map(function () { return { etag: null, data: null, seen: null }; });
  const clocks = JSON.parse(document.getElementById("display-clocks").textContent);
  const clockState = clocks.map(function () { return { etag: null, synced: 0, data: null }; });
  const clock = window.SpreadClock.create(document.getElementById("round-clock"));
  const ticker = document.getElementById("display-ticker");
  let tickerTimer = null;
  let step = 0;

  function cell(row, text, cls) {
    const td = document.createElement("td");
    td.textContent = text === null || text === undefined ? "" : String(text);
    if (cls) td.className = cls;
    row.appendChild(td);
  }

  function table(rows, columns) {
    const t = document.createElement("table");
    rows.forEach(function (r) {
      const tr = document.createElement("tr");
      columns.forEach(function (c) { cell(tr, c[0](r), c[1]); });
      t.appendChild(tr);
    });
    return t;
  }

  function signed(n) { return n > 0 ? "+" + n : String(n); }
  // A name in running text keeps its own direction (first-strong isolate … pop), as the
  // server's sentences.isolate writes it; the title's tournament name comes isolated already.
  function isolate(text) { return "\u2068" + text + "\u2069"; }

  function render(data, view) {
    // A screen showing some tables alone says which: "tables 61–120".
    const part = data.tables ? " · " + t("tTables", data.tables[0] === data.tables[1]
      ? data.tables[0] : data.tables[0] + "\u2013" + data.tables[1]) : "";
    title.textContent = document.title.split(" · ")[0] + " · " + t("tDivision", isolate(data.division))
      + part;
    viewLabel.textContent = view === "pairings" ? t("tRoundPairings", data.round)
      : view === "standings" ? t("tStandings") : t("tResults");
    viewLabel.dataset.view = view;
    body.replaceChildren();
    let content;
    if (view === "pairings") {
      content = table(data.pairings, [
        [function (r) { return r.name; }],
        [function (r) { return r.table ? t("tTable", r.table) : ""; }, "num"],
        [function (r) { return r.opponent + (r.first ? "" : ""); }],
        [function (r) { return r.first ? t("tFirst") : ""; }],
      ]);
      content.classList.add("columns");
    } else if (view === "standings") {
      content = table(data.standings.slice(0, 30), [
        [function (r) { return r.rank; }, "num"],
        [function (r) { return r.name; }],
        [function (r) { return r.record; }, "num"],
        [function (r) { return signed(r.spread); }, "num"],
        [function (r) { return r.rating; }, "num"],
      ]);
    } else {
      content = table(data.results, [
        [function (r) { return r.one; }],
        [function (r) { return r.scores[0] + " – " + r.scores[1]; }, "num"],
        [function (r) { return r.two; }],
        [function (r) { return signed(r.changes[0]) + " / " + signed(r.changes[1]); }, "num"],
      ]);
      if (!data.results.length) {
        content = document.createElement("p");
        content.textContent = t("tNoResults");
      }
    }
    body.appendChild(content);
  }

  // A result as the ticker knows it: a correction is a new one.
  function key(data, r) {
    return [data.round, r.table, r.one, r.two, r.scores[0], r.scores[1]].join("\u0001");
  }

  function span(text, cls) {
    const s = document.createElement("span");
    s.textContent = text;
    if (cls) s.className = cls;
    return s;
  }

  function announce(data, fresh, paired) {
    const items = [span(t("tJustIn") + " · " + t("tDivision", isolate(data.division)), "label")];
    if (paired) items.push(span(t("tPairingsUp", data.round)));
    fresh.slice(0, TICKED).forEach(function (r) {
      const where = r.table ? t("tTable", r.table) + " · " : "";
      items.push(span(where + isolate(r.one) + " " + r.scores[0] + " – " + r.scores[1] + " "
        + isolate(r.two), "result"));
    });
    ticker.replaceChildren.apply(ticker, items);
    ticker.hidden = false;
    if (tickerTimer) clearTimeout(tickerTimer);
    tickerTimer = setTimeout(function () { ticker.hidden = true; }, TICKER);
  }

  // What the feed brings that the screen has not shown: new results, a new round.
  function news(i, data) {
    const before = state[i].seen;
    const seen = new Set(data.results.map(function (r) { return key(data, r); }));
    state[i].seen = seen;
    if (before === null) return; // the first answer: nothing is news
    const fresh = data.results.filter(function (r) { return !before.has(key(data, r)); });
    const paired = state[i].data && data.round !== state[i].data.round;
    if (fresh.length || paired) announce(data, fresh, paired);
  }

  function poll(i) {
    const headers = state[i].etag ? { "If-None-Match": state[i].etag } : {};
    return fetch(feeds[i], { headers: headers, cache: "no-cache" }).then(function (response) {
      if (response.status === 200) {
        state[i].etag = response.headers.get("ETag");
        return response.json().then(function (data) {
          news(i, data);
          state[i].data = data;
          return true;
        });
      }
      return false;
    }).catch(function () { return false; });
  }

  function shown() { return Math.floor(step / VIEWS.length) % feeds.length; }

  // The clock of the division showing, with the server's time on every full answer.
  function pollClock() {
    const i = shown();
    const c = clockState[i];
    const sentAt = Date.now();
    const headers = c.etag && sentAt - c.synced < RESYNC ? { "If-None-Match": c.etag } : {};
    return fetch(clocks[i], { headers: headers, cache: "no-store" }).then(function (response) {
      const receivedAt = Date.now();
      if (response.status === 200) {
        c.etag = response.headers.get("ETag");
        return response.json().then(function (data) {
          c.data = data;
          c.synced = sentAt;
          clock.update(data, sentAt, receivedAt);
        });
      }
      if (response.status === 304 && c.data) clock.update(Object.assign({}, c.data, { now: null }));
      return null;
    }).catch(function () { return null; });
  }

  function current() {
    const i = shown();
    const data = state[i].data;
    if (!data) return;
    const view = data.pin || VIEWS[step % VIEWS.length];
    render(data, view);
  }

  // Each poll once the last is answered: a slow answer never piles polls up behind it.
  function refresh() {
    Promise.all(feeds.map(function (_, i) { return poll(i); })).then(function (changed) {
      const news = changed.some(Boolean);
      if (news) current();
      setTimeout(refresh, news ? BUSY_POLL : POLL);
    });
  }

  refresh();
  pollClock();
  setInterval(pollClock, POLL);
  setInterval(function () { step += 1; current(); }, seconds * 1000);
}());
