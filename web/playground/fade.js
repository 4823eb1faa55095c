// The look of an interval bar that runs on out of view (to ±∞ for a ray parallel to a slab
// inside it): its cut end fades and ends in a chevron, as slabcast/figure draws it
// (web/figure/draw.js), so that a learner does not read the bar as another ray.
const NS = 'http://www.w3.org/2000/svg';
let nextId = 1;

function el(tag, attrs) {
  const e = document.createElementNS(NS, tag);
  for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, String(v));
  return e;
}

/**
 * A linearGradient (appended to `parent`) along the bar p -> q in `color`, fading to 15%
 * over its last 60 px (at most 35% of it) at each cut end; returns the stroke, url(#id).
 * p and q are in the user space of the line that uses it (gradientUnits userSpaceOnUse).
 */
export function fadeStroke(parent, p, q, color, cutStart, cutEnd) {
  const id = `slab-fade-${nextId++}`;
  const grad = el('linearGradient', { id, gradientUnits: 'userSpaceOnUse', x1: p[0], y1: p[1], x2: q[0], y2: q[1] });
  const fade = Math.min(0.35, 60 / (Math.hypot(q[0] - p[0], q[1] - p[1]) || 1));
  grad.append(
    el('stop', { offset: 0, 'stop-color': color, 'stop-opacity': cutStart ? 0.15 : 1 }),
    el('stop', { offset: cutStart ? fade : 0, 'stop-color': color, 'stop-opacity': 1 }),
    el('stop', { offset: cutEnd ? 1 - fade : 1, 'stop-color': color, 'stop-opacity': 1 }),
    el('stop', { offset: 1, 'stop-color': color, 'stop-opacity': cutEnd ? 0.15 : 1 }),
  );
  parent.append(grad);
  return `url(#${id})`;
}

/** A chevron polyline at p pointing along the screen unit vector s (dir 1) or against it (dir -1). */
export function chevron(p, s, dir, color, attrs = {}) {
  const n = [-s[1], s[0]];
  const tip = [p[0] + s[0] * 6 * dir, p[1] + s[1] * 6 * dir];
  const points = [[p[0] + n[0] * 4, p[1] + n[1] * 4], tip, [p[0] - n[0] * 4, p[1] - n[1] * 4]].map((c) => c.join(',')).join(' ');
  return el('polyline', { points, fill: 'none', stroke: color, 'stroke-width': 1.5, opacity: 0.7, class: 'seg-more', ...attrs });
}
