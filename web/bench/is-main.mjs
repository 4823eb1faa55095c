// Whether the module at url (its import.meta.url) is the script node was started with, so that a
// benchmark module runs its own main only then, not when another module imports it.
import { realpathSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/** @param {string} url the calling module's import.meta.url */
export function isMain(url) {
  try {
    return process.argv[1] !== undefined && realpathSync(process.argv[1]) === fileURLToPath(url);
  } catch {
    return false;
  }
}
