// The web UI's own client script (served as /ui/assets/ui.js; htmx does the rest). It checks the JSON
// argument of the start-execution form before anything is sent: invalid JSON is shown as an error in the
// form and the request is not made. It only reads the field and writes text; nothing is ever evaluated.
'use strict';

document.addEventListener(
  'submit',
  (event) => {
    const form = event.target;
    if (!(form instanceof HTMLFormElement) || !form.dataset.jsonField) return;
    const field = form.elements.namedItem(form.dataset.jsonField);
    const error = form.querySelector('[data-json-error]');
    if (!(field instanceof HTMLTextAreaElement) || !error) return;
    const text = field.value.trim();
    let message = '';
    if (text !== '') {
      try {
        JSON.parse(text);
      } catch (e) {
        message = 'The argument is not valid JSON: ' + (e instanceof Error ? e.message : String(e));
      }
    }
    error.textContent = message;
    error.hidden = message === '';
    if (message) {
      field.setAttribute('aria-invalid', 'true');
      // Neither the browser nor htmx (which listens on the form itself) sends anything.
      event.preventDefault();
      event.stopImmediatePropagation();
      field.focus();
    } else {
      field.removeAttribute('aria-invalid');
    }
  },
  true,
);
