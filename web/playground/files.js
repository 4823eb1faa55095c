// Case files: export the scene as a slabcast-cases/1 file (every ray x shape with what
// slabcast answers, shown and offered as a download) and import one into the scene.

import { fromCaseFile, toCaseFile } from './state.mjs';
import { $ } from './dom.js';
import { clearError, flash, showError } from './notices.js';
import { rayArg } from './store.js';

/** The object URL of the last download (revoked when a new one is made). */
let downloadUrl = null;

function exportCases(store) {
  const text = toCaseFile(store.state, (ray, shape) => store.core.raycast(rayArg(ray), shape));
  $('case-json').value = text;
  if (downloadUrl) URL.revokeObjectURL(downloadUrl);
  downloadUrl = URL.createObjectURL(new Blob([text], { type: 'application/json' }));
  const a = $('download-case');
  a.href = downloadUrl;
  a.hidden = false;
}

function importCases(store) {
  const res = fromCaseFile($('import-json').value);
  if (!res.ok) {
    showError(`The case file could not be imported: ${res.error}. The scene was left as it was.`);
    flash('import-flash', 'Not imported', true);
    return;
  }
  clearError();
  store.setScene(res.state, { fit: true });
  const notes = Array.isArray(res.notes) ? res.notes : [];
  const { shapes, rays } = store.state;
  flash('import-flash', `Loaded ${shapes.length} shape(s), ${rays.length} ray(s)${notes.length ? '; some cases left out' : ''}`);
  if (res.invalid || res.overLimit) showError(`Imported, with cases left out: ${notes.join('; ')}.`);
}

/** The Export and Import buttons, on the scene of `store`. */
export function initFiles(store) {
  $('export-case').addEventListener('click', () => exportCases(store));
  $('import').addEventListener('click', () => importCases(store));
}
