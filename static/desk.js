// The desk's small behaviours, for every desk page (no inline script: the CSP forbids it).
// A form with data-confirm asks before it is sent: the question names what will change.
"use strict";
document.addEventListener("submit", function (event) {
  var form = event.target;
  var question = form.getAttribute && form.getAttribute("data-confirm");
  if (question && !window.confirm(question)) {
    event.preventDefault();
  }
});
