// The hit list panel: the nearest hit of every ray (from the store's sc.raycast results),
// with its numbers; a click selects the ray, × deletes it.

import { el, num, vecEl } from './dom.js';
import { rayColor, rayName, shapeName } from './look.js';

/** The numbers of a hit (t, t_enter, t_exit, point, normal) and the ray itself, as a <dl>. */
function hitNumbers(ray, r) {
  const dl = el('dl', { class: 'nums' });
  const pair = (name, value, wide = false) => {
    dl.append(el('dt', { class: wide ? 'wide' : '', text: name }), el('dd', { class: wide ? 'wide' : '' }, value));
  };
  if (r.hit) {
    pair('t', num(r.t));
    pair('t_enter', num(r.t_enter));
    pair('t_exit', num(r.t_exit));
    pair('point', vecEl(r.point), true);
    pair('normal', vecEl(r.normal), true);
  }
  const def = el('span', { class: 'muted-def' });
  def.append('from ', vecEl(ray.origin), ' dir ', vecEl(ray.dir));
  if (Number.isFinite(ray.tmax)) def.append(' tmax ', num(ray.tmax));
  pair('ray', def, true);
  dl.lastChild.style.color = 'var(--muted)';
  return dl;
}

/** The list item of ray i. */
function hitItem(store, i) {
  const { state } = store;
  const ray = state.rays[i];
  const n = store.nearest[i];
  const r = n.result;
  const li = el('li', { class: `hit-item${state.selected.ray === i ? ' selected' : ''}`, 'data-ray': String(i) });
  li.style.borderLeftColor = rayColor(i);
  const head = el('div', { class: 'hit-head' },
    el('span', { class: 'ray-name', text: rayName(i) }),
    el('span', { class: 'arrow', text: '→' }),
    r.hit ? el('span', { class: 'target', text: shapeName(n.shape, state.shapes[n.shape]), 'data-testid': `hit-target-${i}` })
      : el('span', { class: 'target miss', text: 'miss', 'data-testid': `hit-target-${i}` }));
  const del = el('button', { class: 'tool danger', text: '×', title: `Delete ${rayName(i)}`, 'aria-label': `Delete ${rayName(i)}` });
  del.style.marginLeft = 'auto';
  del.style.padding = '0 6px';
  del.addEventListener('click', (ev) => { ev.stopPropagation(); store.deleteRay(i); });
  head.append(del);
  li.append(head, hitNumbers(ray, r));
  li.addEventListener('click', () => store.selectRay(i));
  return li;
}

/** Redraw the list from the store. */
export function renderHitList(store) {
  const items = store.state.rays.map((_, i) => hitItem(store, i));
  if (items.length === 0) items.push(el('li', { class: 'slab-empty', text: 'No rays: add one with “+ Ray”.' }));
  store.dom.$('hit-list').replaceChildren(...items);
}
