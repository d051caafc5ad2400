// The header's language switcher: send the form as soon as a language is picked.
// Without this script the form still works with its button.
(function () {
  "use strict";
  document.querySelectorAll("form.language").forEach(function (form) {
    var select = form.querySelector("select");
    var button = form.querySelector(".language-go");
    if (!select || !button) return;
    button.hidden = true;
    select.addEventListener("change", function () { form.submit(); });
  });
})();
