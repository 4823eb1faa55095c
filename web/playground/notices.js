// Notices: the error banner at the top of the page, the short flash messages next to
// buttons, and the report of the pairs slabcast refused.

import { $ } from './dom.js';

export function showError(message) {
  let text = String(message);
  if (text.length > 500) text = `${text.slice(0, 500)}…`;
  $('error-text').textContent = text;
  $('error').hidden = false;
}

export function clearError() {
  $('error').hidden = true;
  $('error-text').textContent = '';
}

/** The banner's close button. */
export function initNotices() {
  $('error-close').addEventListener('click', clearError);
}

export function flash(id, text, bad = false) {
  const e = $(id);
  e.textContent = text;
  e.classList.toggle('bad', bad);
  clearTimeout(e._timer);
  e._timer = setTimeout(() => { e.textContent = ''; }, 4000);
}

/** The last list of refused pairs shown: the same list is not shown twice in a row. */
let reportedProblems = '';

/** Show the pairs slabcast refused (they count as misses), when the list changed. */
export function reportRefusals(problems) {
  const text = problems.join('\n');
  if (text && text !== reportedProblems) {
    const more = problems.length > 5 ? `\n… and ${problems.length - 5} more` : '';
    showError(`slabcast refused part of the scene (these pairs count as misses):\n${problems.slice(0, 5).join('\n')}${more}`);
  }
  reportedProblems = text;
}
