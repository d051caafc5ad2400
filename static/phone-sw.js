// The player's phone page through the venue's Wi-Fi: a service worker, served as /p/sw.js and
// registered by static/phone-offline.js with the player's own page as its scope (/p/<token>/),
// so that it sees that page and nothing of anyone else's.
//
// What it keeps, in this origin's Cache Storage and nowhere else: the player's page (without
// its one-time messages), the page's live feed as last answered, and the static files the page
// uses (/static/..., the prefix given as ?static= in the worker's address). It asks the server
// nothing of its own: every request still goes to the network first, as the page would send it
// (a poll's If-None-Match, a static file's HTTP cache), and what is kept only answers when the
// network does not. Posts (reports, check-ins, scoresheets) pass through untouched: the page's
// queue keeps them (static/phone-offline.js).
"use strict";

const CACHE = "spread-phone-1";
const STATIC = new URL(self.location.href).searchParams.get("static") || "/static/";
const WAIT = 6000; // a page that has not answered in 6 s is shown as it was kept

// Installed from the player's page: that page (asked for as a copy, which leaves its messages
// for the page itself) and the static files it names are kept at once, so that the page opens
// offline even if it was never loaded again.
self.addEventListener("install", function (event) {
  self.skipWaiting();
  const own = self.registration.scope;
  event.waitUntil(caches.open(CACHE).then(function (cache) {
    return fetch(own, { headers: { "X-Spread-Copy": "1" }, credentials: "same-origin" })
      .then(function (response) {
        if (response.status !== 200) return null;
        return response.text().then(function (html) {
          const files = [];
          const named = new RegExp('(?:src|href)="(' + STATIC.replace(/[.*+?^${}()|[\]\\]/g, "\\$&") + '[^"]+)"', "g");
          let found;
          while ((found = named.exec(html)) !== null) files.push(found[1].replace(/&amp;/g, "&"));
          const page = new Response(html, { headers: { "Content-Type": "text/html; charset=utf-8" } });
          return Promise.all([cache.put(own, page), cache.addAll(files)]);
        });
      })
      .catch(function () { return null; }); // offline at install: kept from the next visit
  }));
});

self.addEventListener("activate", function (event) {
  event.waitUntil(
    caches.keys()
      .then(function (names) {
        return Promise.all(names.filter(function (name) {
          return name.startsWith("spread-phone-") && name !== CACHE;
        }).map(function (name) { return caches.delete(name); }));
      })
      .then(function () { return self.clients.claim(); })
  );
});

function scopePath() {
  return new URL(self.registration.scope).pathname;
}

// The messages a page showed once ("Reported.") are not shown again when it opens offline.
function withoutMessages(response) {
  return response.text().then(function (html) {
    const kept = html.replace(/<ul class="messages">[\s\S]*?<\/ul>/, "");
    return new Response(kept, {
      status: 200,
      headers: { "Content-Type": response.headers.get("Content-Type") || "text/html" },
    });
  });
}

function tell(clientId, offline) {
  if (!clientId) return;
  self.clients.get(clientId).then(function (client) {
    if (client) client.postMessage({ offline: offline });
  });
}

// The player's page: from the network, kept for when there is none. A link that no longer
// works (404) removes what was kept of it.
function page(event) {
  const request = event.request;
  const key = self.registration.scope;
  const fromNetwork = fetch(request).then(function (response) {
    if (response.status === 200) {
      const copy = response.clone();
      event.waitUntil(withoutMessages(copy).then(function (kept) {
        return caches.open(CACHE).then(function (cache) { return cache.put(key, kept); });
      }));
    } else if (response.status === 404) {
      event.waitUntil(caches.open(CACHE).then(function (cache) {
        return Promise.all([cache.delete(key), cache.delete(key + "live")]);
      }));
    }
    return response;
  });
  const kept = function () {
    return caches.open(CACHE).then(function (cache) { return cache.match(key); });
  };
  const slow = new Promise(function (resolve) {
    setTimeout(function () {
      kept().then(function (found) { if (found) resolve(found); });
    }, WAIT);
  });
  return Promise.race([
    fromNetwork.catch(function () {
      return kept().then(function (found) { return found || Response.error(); });
    }),
    slow,
  ]);
}

// A live answer kept as the page's last: one without the body (a new record or rank alone)
// goes into the body kept before it, under its own tag.
function keepLive(key, response) {
  return Promise.all([caches.open(CACHE), response.json()]).then(function (both) {
    const cache = both[0];
    const data = both[1];
    const tag = response.headers.get("ETag") || "";
    const keep = function (kept) {
      return cache.put(key, new Response(JSON.stringify(kept), {
        headers: { "Content-Type": "application/json", ETag: tag },
      }));
    };
    if (typeof data.body === "string") return keep(data);
    return cache.match(key).then(function (found) {
      if (!found) return null;
      return found.json().then(function (kept) {
        kept.standing = data.standing;
        return keep(kept);
      });
    });
  });
}

// The page's live feed: as the network answers it; its last body kept, and given back when the
// network does not answer (without the clock, whose time would be old).
function live(event) {
  const request = event.request;
  const key = self.registration.scope + "live";
  return fetch(request).then(function (response) {
    tell(event.clientId, false);
    if (response.status === 200) {
      const copy = response.clone();
      event.waitUntil(keepLive(key, copy));
    }
    return response;
  }).catch(function () {
    tell(event.clientId, true);
    return caches.open(CACHE).then(function (cache) { return cache.match(key); }).then(function (found) {
      if (!found) return Response.error();
      const tag = found.headers.get("ETag") || "";
      const wanted = request.headers.get("If-None-Match") || "";
      if (tag && wanted.split(",").some(function (t) { return t.trim() === tag; })) {
        return new Response(null, { status: 304, headers: { ETag: tag } });
      }
      return found.json().then(function (data) {
        data.clock = null;
        return new Response(JSON.stringify(data), {
          status: 200,
          headers: { "Content-Type": "application/json", ETag: tag },
        });
      });
    });
  });
}

// A static file: from the network (and the browser's own cache, as without this worker), kept
// for when there is none.
function staticFile(event) {
  const request = event.request;
  return fetch(request).then(function (response) {
    if (response.status === 200) {
      const copy = response.clone();
      event.waitUntil(caches.open(CACHE).then(function (cache) { return cache.put(request, copy); }));
    }
    return response;
  }).catch(function () {
    return caches.open(CACHE)
      .then(function (cache) { return cache.match(request, { ignoreVary: true }); })
      .then(function (found) { return found || Response.error(); });
  });
}

self.addEventListener("fetch", function (event) {
  const request = event.request;
  if (request.method !== "GET") return;
  const url = new URL(request.url);
  if (url.origin !== self.location.origin) return;
  const own = scopePath();
  if (request.mode === "navigate") {
    if (url.pathname === own && !url.search) event.respondWith(page(event));
    return;
  }
  if (url.pathname === own + "live") {
    event.respondWith(live(event));
  } else if (url.pathname.startsWith(STATIC)) {
    event.respondWith(staticFile(event));
  }
});

// A notification tapped: the player's page, open or opened.
self.addEventListener("notificationclick", function (event) {
  event.notification.close();
  const own = self.registration.scope;
  event.waitUntil(self.clients.matchAll({ type: "window" }).then(function (open) {
    const found = open.find(function (client) { return client.url.startsWith(own); });
    return found ? found.focus() : self.clients.openWindow(own);
  }));
});
