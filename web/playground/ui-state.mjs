// The playground's view settings: how the scene is shown, apart from the scene itself
// (scene.mjs). Links carry both; the store holds both; only the scene goes into case files.
//
// Pure ES module: no DOM, no globals; runs unchanged in Node and in browsers.
//
//   {
//     view: '3d' | 'top' | 'front' | 'side',  // 3D perspective, or a 2D orthographic slab view
//                                             // looking down -y (top), -z (front) or -x (side)
//     step: integer 0..MAX_STEP,             // 0: no tutorial step open; k: step k of the
//                                             // slab walk-through (clamped to the steps there are)
//     handles: 'free' | 'locked',             // locked: nothing can be dragged or edited
//     panels: { toolbar, hits, tutorial },    // booleans: which panels show
//     camera: null | { position: [x,y,z], target: [x,y,z], zoom: number },
//                                             // null: frame the scene
//     embed: boolean,                         // embedded: no page chrome
//   }

export const VIEWS = Object.freeze(['3d', 'top', 'front', 'side']);
export const HANDLES = Object.freeze(['free', 'locked']);
export const PANELS = Object.freeze(['toolbar', 'hits', 'tutorial']);
/** Largest step number a link may hold. */
export const MAX_STEP = 64;

/** The settings of a page opened without any. */
export function defaultUi() {
  return {
    view: '3d',
    step: 0,
    handles: 'free',
    panels: { toolbar: true, hits: true, tutorial: true },
    camera: null,
    embed: false,
  };
}

const isObject = (v) => typeof v === 'object' && v !== null && !Array.isArray(v);
const finite3 = (v) => Array.isArray(v) && v.length === 3 && v.every(Number.isFinite);

/** Throws an Error naming the first thing wrong with ui; returns ui. */
export function validateUi(ui) {
  if (!isObject(ui)) throw new Error('view settings must be an object');
  if (!VIEWS.includes(ui.view)) throw new Error(`view must be one of ${VIEWS.join(', ')}, got ${String(ui.view)}`);
  if (!Number.isInteger(ui.step) || ui.step < 0 || ui.step > MAX_STEP) {
    throw new Error(`step must be an integer from 0 to ${MAX_STEP}, got ${String(ui.step)}`);
  }
  if (!HANDLES.includes(ui.handles)) throw new Error(`handles must be 'free' or 'locked', got ${String(ui.handles)}`);
  if (!isObject(ui.panels)) throw new Error('panels must be an object');
  for (const p of PANELS) {
    if (typeof ui.panels[p] !== 'boolean') throw new Error(`panels.${p} must be true or false`);
  }
  if (ui.camera !== null) {
    const c = ui.camera;
    if (!isObject(c)) throw new Error('camera must be null or an object');
    if (!finite3(c.position)) throw new Error('camera.position must be 3 finite numbers');
    if (!finite3(c.target)) throw new Error('camera.target must be 3 finite numbers');
    if (!(Number.isFinite(c.zoom) && c.zoom > 0)) throw new Error('camera.zoom must be a finite number above 0');
  }
  if (typeof ui.embed !== 'boolean') throw new Error('embed must be true or false');
  return ui;
}

/** A deep copy of valid settings. */
export function cloneUi(ui) {
  return {
    view: ui.view,
    step: ui.step,
    handles: ui.handles,
    panels: { ...ui.panels },
    camera: ui.camera && { position: [...ui.camera.position], target: [...ui.camera.target], zoom: ui.camera.zoom },
    embed: ui.embed,
  };
}

/** Longest query string uiFromQuery() reads. */
export const MAX_QUERY_CHARS = 2048;

/**
 * The settings an embedder gives in the query string, as a patch over the link's
 * settings, and a message for each parameter that could not be read (those are left out):
 *
 *   ?embed (or embed=1 / embed=true; embed=0 / embed=false turns it off)
 *   ?view=3d|top|front|side   ?step=N   ?handles=locked|free
 *   ?panels=hits,tutorial     (the panels that show; the others hide; may be empty)
 *
 * Other parameters are not ours and are ignored. Never throws.
 * @param {string} search location.search, with or without the leading '?'
 * @returns {{patch: object, problems: string[]}}
 */
export function uiFromQuery(search) {
  const patch = {};
  const problems = [];
  if (typeof search !== 'string' || search === '' || search === '?') return { patch, problems };
  if (search.length > MAX_QUERY_CHARS) {
    return { patch, problems: [`the query string is too long (${search.length} characters; the limit is ${MAX_QUERY_CHARS})`] };
  }
  let params;
  try {
    params = new URLSearchParams(search);
  } catch {
    return { patch, problems: ['the query string could not be read'] };
  }
  const show = (v) => JSON.stringify(v.length > 40 ? `${v.slice(0, 40)}...` : v);
  const one = (name) => {
    const all = params.getAll(name);
    if (all.length > 1) problems.push(`?${name} is given ${all.length} times; the last one counts`);
    return all.length ? all[all.length - 1] : null;
  };
  const embed = one('embed');
  if (embed !== null) {
    if (['', '1', 'true'].includes(embed)) patch.embed = true;
    else if (['0', 'false'].includes(embed)) patch.embed = false;
    else problems.push(`?embed=${show(embed)} is not understood (use ?embed, ?embed=1 or ?embed=0)`);
  }
  const view = one('view');
  if (view !== null) {
    if (VIEWS.includes(view)) patch.view = view;
    else problems.push(`?view=${show(view)} is not a view (use ${VIEWS.join(', ')})`);
  }
  const step = one('step');
  if (step !== null) {
    if (/^\d{1,3}$/.test(step) && Number(step) <= MAX_STEP) patch.step = Number(step);
    else problems.push(`?step=${show(step)} is not a step number from 0 to ${MAX_STEP}`);
  }
  const handles = one('handles');
  if (handles !== null) {
    if (HANDLES.includes(handles)) patch.handles = handles;
    else problems.push(`?handles=${show(handles)} is not understood (use locked or free)`);
  }
  const panels = one('panels');
  if (panels !== null) {
    const names = panels.split(',').map((s) => s.trim()).filter((s) => s !== '');
    const unknown = names.filter((n) => !PANELS.includes(n));
    if (unknown.length) {
      problems.push(`?panels names ${unknown.map(show).join(', ')}, which is not a panel (use ${PANELS.join(', ')})`);
    } else {
      patch.panels = Object.fromEntries(PANELS.map((p) => [p, names.includes(p)]));
    }
  }
  return { patch, problems };
}

/** ui with patch merged over it (panels key by key), validated; throws like validateUi. */
export function mergeUi(ui, patch) {
  const next = { ...cloneUi(ui), ...patch };
  if (isObject(patch.panels)) next.panels = { ...ui.panels, ...patch.panels };
  return validateUi(next);
}
