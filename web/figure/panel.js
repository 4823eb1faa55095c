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

/** An interval of t as text: [3, 5], (−∞, ∞). */
function interval(a, b) {
  return `${a === -Infinity ? '(' : '['}${formatValue('t', a)}, ${formatValue('t', b)}${b === Infinity ? ')' : ']'}`;
}

/** The panel: {element, announce(text), update(values, ex, reached)} */
export function createPanel(options) {
  const panel = el('div', { class: 'fig-panel' });
  const goal = options.goal ? el('p', { class: 'fig-goal', role: 'status' }) : null;
  const verdict = el('p', { class: 'fig-verdict' });
  const table = el('ul', { class: 'fig-table', 'aria-label': 'the interval of t in each slab, and their overlap' });
  const key = el('p', { class: 'fig-key' });
  const live = el('p', { class: 'fig-live', 'aria-live': 'polite' });
  if (goal) panel.append(goal);
  if (options.readout) panel.append(verdict);
  if (options.readout || options.legend) panel.append(el('p', { class: 'fig-int-caption' }, 't inside each slab, and in all 3:'), table);
  if (options.legend) {
    key.innerHTML =
      '<span><i class="fig-dot"></i>enter</span> <span><i class="fig-dot fig-dot-open"></i>exit</span> ' +
      '<span><i class="fig-line"></i>hit</span> <span><i class="fig-line fig-line-dashed"></i>miss</span> ' +
      '<span><i class="fig-line fig-line-dotted"></i>t &lt; 0</span>';
    panel.append(key);
  }
  panel.append(live);

  // One item per interval, "x [3, 5]": a legend of the colors that carries the numbers.
  const rows = [...AXES.map((a) => [a, a, COLORS[a]]), ['all', 'all 3', COLORS.overlap]].map(([id, label, color]) => {
    const cell = el('span', { class: 'fig-int-value', 'data-cell': id });
    const swatch = el('i', { class: 'fig-swatch', style: `background:${color}` });
    const item = el('li', { class: 'fig-int', 'data-row': id }, swatch, el('span', { class: 'fig-int-name' }, label), ' ', cell);
    return { id, item, cell };
  });
  table.append(...rows.map((r) => r.item));

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
      for (const r of rows) {
        let text;
        let none;
        if (r.id === 'all') {
          none = !ex.overlap;
          text = none ? 'none' : interval(values.t_enter, values.t_exit);
        } else {
          const a = ex.axes[AXES.indexOf(r.id)];
          none = a.near === null;
          text = none ? 'none (parallel)' : interval(a.near, a.far);
        }
        r.cell.textContent = options.readout ? text : '';
        r.item.dataset.empty = String(none);
      }
    },
  };
}
