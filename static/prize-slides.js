// The prize ceremony: one slide a prize, stepped with the arrow keys, Page Up/Down (what a
// presentation clicker sends), the space bar, Home and End, or a click on the slide.
(function () {
  "use strict";
  const root = document.getElementById("slides");
  if (!root) return;
  const slides = Array.prototype.slice.call(root.querySelectorAll(".slide"));
  const count = document.getElementById("slides-count");
  let at = 0;

  function show(next) {
    at = Math.max(0, Math.min(slides.length - 1, next));
    slides.forEach(function (s, i) { s.hidden = i !== at; });
    if (count && slides.length) {
      count.textContent = (root.dataset.tOf || "%(at)s of %(total)s")
        .replace("%(at)s", String(at + 1)).replace("%(total)s", String(slides.length));
    }
    if (history.replaceState) history.replaceState(null, "", "#" + (at + 1));
  }

  document.addEventListener("keydown", function (e) {
    if (e.altKey || e.ctrlKey || e.metaKey) return;
    const rtl = document.documentElement.dir === "rtl";
    const forward = ["ArrowDown", "PageDown", " ", "Enter", rtl ? "ArrowLeft" : "ArrowRight"];
    const back = ["ArrowUp", "PageUp", "Backspace", rtl ? "ArrowRight" : "ArrowLeft"];
    if (forward.indexOf(e.key) >= 0) { show(at + 1); e.preventDefault(); }
    else if (back.indexOf(e.key) >= 0) { show(at - 1); e.preventDefault(); }
    else if (e.key === "Home") { show(0); e.preventDefault(); }
    else if (e.key === "End") { show(slides.length - 1); e.preventDefault(); }
    else if (e.key === "f" || e.key === "F") { full(); }
  });
  slides.forEach(function (s) { s.addEventListener("click", function () { show(at + 1); }); });

  function full() {
    if (document.fullscreenElement) document.exitFullscreen();
    else if (root.requestFullscreen) root.requestFullscreen().catch(function () {});
  }
  const button = document.getElementById("slides-full");
  if (button) button.addEventListener("click", full);

  const start = parseInt((location.hash || "#1").slice(1), 10);
  show(isNaN(start) ? 0 : start - 1);
})();
