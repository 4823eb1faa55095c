// Case files: export the scene as a slabcast-cases/1 file (every ray x shape with what
// slabcast answers, shown and offered as a download) and import one into the scene:
// pasted, picked with the file input, or dropped on the page. All three go through
// case-file.mjs fromCaseFile and its errors.

import { MAX_IMPORT_BYTES, fromCaseFile, toCaseFile } from './case-file.mjs';
import { $, host } from './dom.js';
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

/** The largest file read from the picker or a drop: fromCaseFile's own limit. */
const MAX_FILE_BYTES = MAX_IMPORT_BYTES;

function importCases(store, input = $('import-json').value, name = '') {
  const res = fromCaseFile(input);
  const what = name ? `The case file ${JSON.stringify(name.slice(0, 80))}` : 'The case file';
  if (!res.ok) {
    showError(`${what} could not be imported: ${res.error}. The scene was left as it was.`);
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

/** Read a File (from the picker or a drop) and import it. */
async function importFile(store, file) {
  if (!file) return;
  if (store.ui.handles === 'locked') {
    showError('This playground is locked: nothing can be edited, so the file was not imported.');
    return;
  }
  if (file.size > MAX_FILE_BYTES) {
    showError(`The file ${JSON.stringify(file.name.slice(0, 80))} is too large (${file.size} bytes; the limit is ${MAX_FILE_BYTES}). The scene was left as it was.`);
    flash('import-flash', 'Not imported', true);
    return;
  }
  let bytes;
  try {
    bytes = new Uint8Array(await file.arrayBuffer());
  } catch (e) {
    showError(`The file ${JSON.stringify(file.name.slice(0, 80))} could not be read: ${e.message}. The scene was left as it was.`);
    return;
  }
  importCases(store, bytes, file.name);
}

/** The Export and Import buttons, the file picker and dropping files on the page, on the
 * scene of `store`. */
export function initFiles(store) {
  $('export-case').addEventListener('click', () => exportCases(store));
  $('import').addEventListener('click', () => importCases(store));
  const picker = $('import-file');
  picker.addEventListener('change', async () => {
    const file = picker.files && picker.files[0];
    await importFile(store, file);
    picker.value = '';
  });
  const hasFiles = (e) => e.dataTransfer && Array.from(e.dataTransfer.types || []).includes('Files');
  window.addEventListener('dragover', (e) => {
    if (!hasFiles(e)) return;
    e.preventDefault();
    e.dataTransfer.dropEffect = 'copy';
    host().classList.add('dropping');
  });
  window.addEventListener('dragleave', (e) => {
    if (e.relatedTarget === null) host().classList.remove('dropping');
  });
  window.addEventListener('drop', (e) => {
    if (!hasFiles(e)) return;
    e.preventDefault();
    host().classList.remove('dropping');
    const files = e.dataTransfer.files;
    if (files.length > 1) showError(`Drop one case file at a time (${files.length} were dropped); the first was used.`);
    importFile(store, files[0]);
  });
}
