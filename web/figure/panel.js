// The figure's own panel (beside or below the drawing, never over it): the goal, the
// verdict, a table of the intervals that is also the legend of the colors, and the key of
// the marks. And the page's readouts: elements with data-figure-value bound to this figure
// by the rule of docs/figure.md ("Binding readouts"):
//   1. data-figure-for="ID": the figure mounted on the element whose id is ID;
//   2. otherwise: the figure of its scope, the nearest ancestor that is a <section>, an
//      <article> or has data-figure-scope (else the document's body), when that scope
//      holds exactly one figure (elements with data-figure); with two or more, give it
//      data-figure-for.
import { AXES, READOUT_NAMES, formatValue } from './model.mjs';
import { COLORS } from './draw.js';

const SCOPE = 'section, article, [data-figure-scope]';

function el(tag, attrs = {}, ...children) {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, String(v));
  e.append(...children);
  return e;
}

/** The scope of an element for rule 2. */
export function scopeOf(node) {
  return node.parentElement?.closest(SCOPE) ?? node.ownerDocument.body;
}

/** The page's readouts bound to the figure mounted on `host` (rule 1 and rule 2). */
export function boundReadouts(host) {
  const doc = host.ownerDocument;
  const out = [];
  if (host.id) out.push(...doc.querySelectorAll(`[data-figure-value][data-figure-for="${CSS.escape(host.id)}"]`));
  const scope = scopeOf(host);
  const figures = [...scope.querySelectorAll('[data-figure]')].filter((f) => scopeOf(f) === scope);
  if (figures.length === 1 && figures[0] === host) {
    for (const r of scope.querySelectorAll('[data-figure-value]:not([data-figure-for])')) {
      if (scopeOf(r) === scope || host.contains(r)) out.push(r);
    }
  }
  return out;
}

/** Write the values into the readouts; an unknown name shows a message in place of a number. */
export function fillReadouts(readouts, values) {
  for (const r of readouts) {
    const name = r.dataset.figureValue;
    let text;
    if (!READOUT_NAMES.includes(name)) text = `(unknown readout "${name}")`;
    else {
      const digits = r.dataset.figureDigits === undefined ? undefined : Number(r.dataset.figureDigits);
      text = formatValue(name, values[name], Number.isInteger(digits) && digits >= 0 && digits <= 12 ? digits : undefined);
    }
    if (r.textContent !== text) r.textContent = text;
  }
}

/** The panel: {element, update(values, ex, goal)} */
export function createPanel(options) {
  const panel = el('div', { class: 'fig-panel' });
  const goal = options.goal ? el('p', { class: 'fig-goal', role: 'status' }) : null;
  const verdict = el('p', { class: 'fig-verdict' });
  const table = el('table', { class: 'fig-table' });
  const key = el('p', { class: 'fig-key' });
  const live = el('p', { class: 'fig-live', 'aria-live': 'polite' });
  if (goal) panel.append(goal);
  if (options.readout) panel.append(verdict);
  if (options.readout || options.legend) panel.append(table);
  if (options.legend) {
    key.innerHTML =
      '<span><i class="fig-dot"></i>enter</span> <span><i class="fig-dot fig-dot-open"></i>exit</span> ' +
      '<span><i class="fig-line"></i>ray, hit</span> <span><i class="fig-line fig-line-dashed"></i>ray, miss</span> ' +
      '<span><i class="fig-line fig-line-dotted"></i>t &lt; 0</span>';
    panel.append(key);
  }
  panel.append(live);

  const head = el('tr', {}, el('th', { scope: 'col' }, 'interval of t'), ...(options.readout ? [el('th', { scope: 'col' }, 'enter'), el('th', { scope: 'col' }, 'exit')] : []));
  const rows = [...AXES.map((a) => [a, `${a} slab`, COLORS[a]]), ['all', 'all 3 (overlap)', COLORS.overlap]].map(([id, label, color]) => {
    const cells = options.readout ? [el('td', { 'data-cell': `${id}-enter` }), el('td', { 'data-cell': `${id}-exit` })] : [];
    const swatch = el('i', { class: 'fig-swatch', style: `background:${color}` });
    return { id, tr: el('tr', { 'data-row': id }, el('th', { scope: 'row' }, swatch, label), ...cells), cells };
  });
  table.append(el('thead', {}, head), el('tbody', {}, ...rows.map((r) => r.tr)));

  return {
    element: panel,
    announce(text) { live.textContent = text; },
    update(values, ex, reached) {
      if (goal) {
        goal.textContent = reached ? `\u2713 Goal reached: ${options.goal.label}` : `Try it: ${options.goal.label}`;
        goal.dataset.reached = String(reached);
      }
      verdict.textContent = values.hit
        ? `hit at t = ${formatValue('t', values.t)}`
        : formatValue('reason', values.reason);
      verdict.dataset.hit = String(values.hit);
      if (!options.readout) return;
      for (const r of rows) {
        const [c0, c1] = r.cells;
        if (r.id === 'all') {
          const none = !ex.overlap;
          c0.textContent = none ? 'none' : formatValue('t_enter', values.t_enter);
          c1.textContent = none ? '' : formatValue('t_exit', values.t_exit);
          r.tr.dataset.empty = String(none);
        } else {
          const a = ex.axes[AXES.indexOf(r.id)];
          c0.textContent = a.near === null ? 'never' : formatValue('t', a.near);
          c1.textContent = a.near === null ? '(parallel, outside)' : formatValue('t', a.far);
          r.tr.dataset.empty = String(a.near === null);
        }
      }
    },
  };
}
