// The hall display: polls the API (If-None-Match, so an unchanged answer is a bare 304) and
// rotates pairings, standings and the latest results, and the divisions when several are given.
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
  const state = feeds.map(function () { return { etag: null, data: null }; });
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
    title.textContent = document.title.split(" · ")[0] + " · " + t("tDivision", isolate(data.division));
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

  function poll(i) {
    const headers = state[i].etag ? { "If-None-Match": state[i].etag } : {};
    return fetch(feeds[i], { headers: headers, cache: "no-cache" }).then(function (response) {
      if (response.status === 200) {
        state[i].etag = response.headers.get("ETag");
        return response.json().then(function (data) { state[i].data = data; return true; });
      }
      return false;
    }).catch(function () { return false; });
  }

  function current() {
    const i = Math.floor(step / VIEWS.length) % feeds.length;
    const data = state[i].data;
    if (!data) return;
    const view = data.pin || VIEWS[step % VIEWS.length];
    render(data, view);
  }

  function refresh() {
    Promise.all(feeds.map(function (_, i) { return poll(i); })).then(function (changed) {
      if (changed.some(Boolean)) current();
    });
  }

  refresh();
  setInterval(refresh, 3000);
  setInterval(function () { step += 1; current(); }, seconds * 1000);
}());
