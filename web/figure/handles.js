// The figure's handles: the ray's origin, the tip of its direction and the box's two
// corners, as focusable SVG groups. A drag moves a handle by the pointer's motion (the
// grab offset is kept: pressing without moving changes nothing, and a 1 px motion moves
// it by 1 px of the plane), then the handle's constraint and the snap apply. Arrow keys
// move the focused handle by the step (Shift: ten steps); its aria-label reads its
// coordinates, and a live region says where it went.
import { AXES } from './model.mjs';
import { VIEWS, constrain } from './geometry.mjs';
import { COLORS, svgEl } from './draw.js';
import { short } from './draw.js';

const TITLES = { origin: 'Ray origin', dir: 'Ray direction tip', min: 'Box corner min', max: 'Box corner max' };

/** Where handle `name` is in the world for the scene's ray and box. */
export function handlePosition(name, ray, box) {
  if (name === 'origin') return ray.origin.slice();
  if (name === 'dir') return ray.origin.map((o, i) => Math.fround(o + ray.dir[i]));
  return (name === 'min' ? box.min : box.max).slice();
}

/**
 * The ray and box after handle `name` moved to world point p (copies), or null when the
 * move would make them invalid (a zero direction). Corners never cross: min <= max.
 */
export function applyHandle(name, p, ray, box) {
  const r = { ...ray, origin: ray.origin.slice(), dir: ray.dir.slice() };
  const b = { ...box, min: box.min.slice(), max: box.max.slice() };
  if (name === 'origin') r.origin = p.slice();
  else if (name === 'dir') {
    r.dir = p.map((x, i) => Math.fround(x - ray.origin[i]));
    if (r.dir.every((x) => x === 0)) return null;
  } else if (name === 'min') b.min = p.map((x, i) => Math.min(x, box.max[i]));
  else b.max = p.map((x, i) => Math.max(x, box.min[i]));
  return { ray: r, box: b };
}

/** The text a screen reader reads for a handle at world point p. */
export function handleLabel(name, p) {
  return `${TITLES[name]}: ${AXES.map((a, i) => `${a} ${short(p[i])}`).join(', ')}. Arrow keys move it.`;
}

/**
 * The handles of a figure. `fig` gives: svg, layer (a <g> to draw into), view, options
 * (handles, snap, step), subject() -> {ray, box}, transform() -> tf, move(name, p) (tries a
 * new position; returns true when taken), announce(text), signal (AbortSignal).
 */
export function createHandles(fig) {
  const { view } = fig;
  const { u, v } = VIEWS[view];
  const groups = {};
  let drag = null;

  // Tab order: the ray's start, its tip, then the box's corners.
  for (const name of ['origin', 'dir', 'min', 'max']) {
    const c = fig.options.handles[name];
    if (c === false) continue;
    const g = svgEl('g', { class: 'fig-handle', tabindex: 0, role: 'button', 'aria-roledescription': 'draggable point', 'data-handle': name });
    const isBox = name === 'min' || name === 'max';
    g.append(svgEl('circle', { r: 14, fill: 'transparent', class: 'fig-hit-area' }));
    if (isBox) g.append(svgEl('rect', { x: -5.5, y: -5.5, width: 11, height: 11, fill: '#fff', stroke: COLORS.box, 'stroke-width': 2 }));
    else if (name === 'dir') g.append(svgEl('circle', { r: 6, fill: '#fff', stroke: COLORS.ray, 'stroke-width': 2.5 }));
    else g.append(svgEl('circle', { r: 7.5, fill: COLORS.ray, stroke: '#fff', 'stroke-width': 1.5 }));
    g.append(svgEl('circle', { r: 11, fill: 'none', class: 'fig-focus-ring' }));
    fig.layer.append(g);
    groups[name] = g;

    g.addEventListener('pointerdown', (e) => {
      if (e.button !== 0) return;
      e.preventDefault();
      g.focus({ preventScroll: true });
      g.setPointerCapture?.(e.pointerId);
      const { ray, box } = fig.subject();
      drag = { name, id: e.pointerId, p0: pointerPlane(e), h0: handlePosition(name, ray, box) };
      g.classList.add('fig-dragging');
    }, { signal: fig.signal });
    g.addEventListener('pointermove', (e) => {
      if (!drag || drag.name !== name || drag.id !== e.pointerId) return;
      const p = pointerPlane(e);
      const want = drag.h0.slice();
      want[u] = drag.h0[u] + (p[0] - drag.p0[0]);
      want[v] = drag.h0[v] + (p[1] - drag.p0[1]);
      fig.move(name, constrain(want, drag.h0, c, fig.options.snap, view));
    }, { signal: fig.signal });
    const end = (e) => {
      if (!drag || drag.id !== e.pointerId) return;
      drag = null;
      g.classList.remove('fig-dragging');
    };
    g.addEventListener('pointerup', end, { signal: fig.signal });
    g.addEventListener('pointercancel', end, { signal: fig.signal });
    g.addEventListener('keydown', (e) => onKey(e, name, c), { signal: fig.signal });
  }

  /** The pointer's position in plane coordinates. */
  function pointerPlane(e) {
    const r = fig.svg.getBoundingClientRect();
    const tf = fig.transform();
    return tf.toPlane([(e.clientX - r.left) * (tf.width / (r.width || 1)), (e.clientY - r.top) * (tf.height / (r.height || 1))]);
  }

  function onKey(e, name, c) {
    const keys = { ArrowLeft: [-1, 0], ArrowRight: [1, 0], ArrowDown: [0, -1], ArrowUp: [0, 1] };
    const k = keys[e.key];
    if (!k || e.altKey || e.ctrlKey || e.metaKey) return;
    e.preventDefault();
    const { ray, box } = fig.subject();
    const from = handlePosition(name, ray, box);
    // A position the figure refuses (the tip on the origin: a zero direction) is stepped over.
    for (let n = 1; n <= 2; n++) {
      const p = constrain(keyTarget(from, k, c, fig.options.step * (e.shiftKey ? 10 : 1) * n), from, c, fig.options.snap, view);
      if (fig.move(name, p)) {
        fig.announce(handleLabel(name, p).replace(' Arrow keys move it.', ''));
        return;
      }
    }
  }

  /** Where an arrow key k ([du, dv]) asks a handle at `from` to go, `step` away. */
  function keyTarget(from, k, c, step) {
    const want = from.slice();
    if (c && c.axis !== undefined) {
      // Along the axis: every arrow moves it, right and up forwards.
      want[c.axis] += (k[0] + k[1]) * step;
    } else if (c && c.line) {
      const sgn = k[0] + k[1];
      for (let i = 0; i < 3; i++) want[i] += sgn * step * c.line.dir[i];
    } else {
      want[u] += k[0] * step;
      want[v] += k[1] * step;
    }
    return want;
  }

  return {
    groups,
    /** Put every handle where the scene says, with its label. */
    update() {
      const { ray, box } = fig.subject();
      const tf = fig.transform();
      for (const [name, g] of Object.entries(groups)) {
        const p = handlePosition(name, ray, box);
        const q = tf.toPx([p[u], p[v]]);
        g.setAttribute('transform', `translate(${q[0]},${q[1]})`);
        g.setAttribute('aria-label', handleLabel(name, p));
      }
    },
    get dragging() { return drag !== null; },
  };
}
