// The desk's list of personal links (phone/desk_links.html): a Copy button beside each link's
// read-only field, and beside every link as a text. Without a script the field is there to
// select and copy by hand.
"use strict";
(function () {
  var table = document.getElementById("player-links");
  if (!table) { return; }
  var copied = table.getAttribute("data-t-copied") || "";
  // The links' own buttons, and the one of every link as a message's text (_all_links.html).
  document.querySelectorAll("button.copy-link").forEach(function (button) {
    var field = document.getElementById(button.getAttribute("data-copy"));
    if (!field) { return; }
    var label = button.textContent;
    button.hidden = false;
    button.addEventListener("click", function () {
      function done() {
        button.textContent = copied || label;
        setTimeout(function () { button.textContent = label; }, 2000);
      }
      field.focus();
      field.select();
      // The clipboard API needs a secure page (https or this machine); the hall's laptop over
      // plain http is not one, so the selection is copied the older way there.
      if (navigator.clipboard && window.isSecureContext) {
        navigator.clipboard.writeText(field.value).then(done, function () {
          if (document.execCommand("copy")) { done(); }
        });
      } else if (document.execCommand("copy")) {
        done();
      }
    });
  });
})();
