// Notices: the error banner at the top of the page, the short flash messages next to
// buttons, and the report of the pairs slabcast refused.

/* Each function takes the playground's dom (dom.js makeDom). */

export function showError(dom, message) {
  let text = String(message);
  if (text.length > 500) text = `${text.slice(0, 500)}…`;
  dom.$('error-text').textContent = text;
  dom.$('error').hidden = false;
}

export function clearError(dom) {
  dom.$('error').hidden = true;
  dom.$('error-text').textContent = '';
}

/** The banner's close button. */
export function initNotices(dom) {
  dom.$('error-close').addEventListener('click', () => clearError(dom));
}

export function flash(dom, id, text, bad = false) {
  const e = dom.$(id);
  e.textContent = text;
  e.classList.toggle('bad', bad);
  clearTimeout(e._timer);
  e._timer = setTimeout(() => { e.textContent = ''; }, 4000);
}

/** Show the pairs slabcast refused (they count as misses), when the list changed. */
export function reportRefusals(dom, problems) {
  const text = problems.join('\n');
  if (text && text !== dom.reported) {
    const more = problems.length > 5 ? `\n… and ${problems.length - 5} more` : '';
    showError(dom, `slabcast refused part of the scene (these pairs count as misses):\n${problems.slice(0, 5).join('\n')}${more}`);
  }
  dom.reported = text; // the same list is not shown twice in a row
}
