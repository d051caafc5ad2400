// The desk's small behaviours, for every desk page (no inline script: the CSP forbids it).
// A form with data-confirm, or the button that sends it, asks before it is sent: the question
// names what will change. A form whose server asks again on a page of its own (without a script)
// names, in data-confirmed, the field that tells it the question was answered here.
"use strict";
document.addEventListener("submit", function (event) {
  var form = event.target;
  var button = event.submitter;
  var question = (button && button.getAttribute("data-confirm")) ||
    (form.getAttribute && form.getAttribute("data-confirm"));
  if (question && !window.confirm(question)) {
    event.preventDefault();
    return;
  }
  var answered = question && form.getAttribute("data-confirmed");
  if (answered && !form.elements[answered]) {
    var field = document.createElement("input");
    field.type = "hidden";
    field.name = answered;
    field.value = "1";
    form.appendChild(field);
  }
});
