// The words of the slab tutorial: the text of each of its seven steps (1: the idea, 2-4:
// the x, y and z slabs, 5: the largest entry, 6: the smallest exit, 7: the verdict), the
// short verdict and the edge cases each step meets, from an explanation of slab.mjs
// (explainSlabs). Pure: strings only.

import { fmt } from './dom.js';
import { AX, shapeName } from './look.js';

export const STEP_COUNT = 7;

/** A number in the text, with the minus sign U+2212 ("(−3 − −6)", never "(−3 − -6)"). */
const n = (x) => fmt(x).replace(/^-/, '\u2212');

/** "x" in world coordinates, "local x" in a rotated box's own frame. */
const axisWordFor = (ex) => (i) => (ex.frame === 'box' ? `local ${AX[i]}` : AX[i]);

/** "Step k of 7: title". */
const stepTitle = (k, title) => `Step ${k} of ${STEP_COUNT}: ${title}`;

function ideaStep(sub) {
  const { ex } = sub;
  const w = axisWordFor(ex);
  return [stepTitle(1, 'the idea'),
    `A box is where three slabs overlap. The ${AX[0]} slab is everything between two parallel planes (here ${w(0)} = ${n(ex.axes[0].lo)} and ${w(0)} = ${n(ex.axes[0].hi)}); the y and z slabs likewise. ` +
    'A point is inside the box exactly when it is inside all three slabs.\n' +
    'The points of the ray are origin + t·dir. For each slab we find the stretch of t where the ray is inside it, then check whether the three stretches overlap.' +
    (ex.frame === 'box' ? `\nThis box (${shapeName(sub.j, sub.shape)}) is rotated, so everything is measured along its own axes: in that frame it is an ordinary box from −half to +half.` : '')];
}

function axisStep(k, ex) {
  const a = ex.axes[k - 2];
  const w = axisWordFor(ex)(a.axis);
  const title = stepTitle(k, `the ${w} slab`);
  if (a.parallel) {
    if (a.inside) {
      return [title, `The direction has ${w} = 0, so the ray runs parallel to the ${w} planes: its ${w} never changes. ` +
        `It is always ${n(a.o)}, which lies between ${n(a.lo)} and ${n(a.hi)}, so this slab never stops the ray: t in (−∞, +∞).\n` +
        'No division by zero is needed: for a parallel axis the method just checks where the origin is.' +
        (Object.is(a.d, -0) ? `\nThe direction's ${w} is −0 (negative zero). It counts as 0: the ray is parallel, and nothing is divided by it.` : '')];
    }
    return [title, `The direction has ${w} = 0, so the ray runs parallel to the ${w} planes: its ${w} is always ${n(a.o)}, ` +
      `which is outside [${n(a.lo)}, ${n(a.hi)}]. The ray is never inside this slab, so it can never be inside the box, whatever the other slabs say.` +
      (Object.is(a.d, -0) ? `\nThe direction's ${w} is −0 (negative zero). It counts as 0: the ray is parallel, and nothing is divided by it.` : '')];
  }
  const sign = a.d > 0 ? 'positive' : 'negative';
  const firstPlane = a.d > 0 ? n(a.lo) : n(a.hi);
  return [title, `Along the ray, ${w} = ${n(a.o)} + t·(${n(a.d)}). ` +
    `It reaches the plane ${w} = ${n(a.lo)} at t = (${n(a.lo)} − ${n(a.o)}) / ${n(a.d)} = ${n(a.t1)}, ` +
    `and the plane ${w} = ${n(a.hi)} at t = (${n(a.hi)} − ${n(a.o)}) / ${n(a.d)} = ${n(a.t2)}.\n` +
    `The direction's ${w} is ${sign}, so the ray comes in through ${w} = ${firstPlane}: it is inside the ${w} slab for t in [${n(a.near)}, ${n(a.far)}].`];
}

function entryStep(ex) {
  const w = axisWordFor(ex);
  if (ex.flags.parallelOutside.length) {
    return [stepTitle(5, 'the entry'), `The ray never enters the ${w(ex.flags.parallelOutside[0])} slab, so there is no moment at which it is inside all three.`];
  }
  const nears = ex.axes.map((a) => n(a.near)).join(', ');
  return [stepTitle(5, 'the largest entry'), 'To be inside the box the ray must be inside all three slabs, so it enters the box at the last of the three entries:\n' +
    `t_enter = max(${nears}) = ${n(ex.tEnter)}, given by the ${w(ex.enterAxis)} slab.`];
}

function exitStep(ex) {
  if (ex.flags.parallelOutside.length) {
    return [stepTitle(6, 'the exit'), 'Nothing to leave: the ray is never inside the box.'];
  }
  const fars = ex.axes.map((a) => n(a.far)).join(', ');
  return [stepTitle(6, 'the smallest exit'), 'The ray leaves the box as soon as it leaves any one slab, so the exit is the first of the three exits:\n' +
    `t_exit = min(${fars}) = ${n(ex.tExit)}, given by the ${axisWordFor(ex)(ex.exitAxis)} slab.`];
}

/** The text of a hit: where, and what is special about it. */
function hitText(ex, tmaxText) {
  const w = axisWordFor(ex);
  let text = `Hit. The overlap [${n(ex.tEnter)}, ${n(ex.tExit)}] meets the ray's own range [0, ${tmaxText}]. ` +
    `The first point of the ray inside the box is at t = max(t_enter, 0) = ${n(ex.t)}.`;
  if (ex.flags.originInside) {
    text += '\nt_enter is negative: the origin is already inside the box. So t = 0, the hit point is the origin and slabcast reports the normal [0, 0, 0]. ' +
      `(If you want where the ray comes out, read t_exit = ${n(ex.tExit)}: that is what three.js reports.)`;
  } else if (ex.flags.originOnSurface) {
    text += '\nt_enter = 0: the origin lies on the surface of the box.';
  }
  if (ex.flags.flatCrossing) {
    const flat = ex.axes.find((a) => !a.parallel && a.lo === a.hi);
    text += `\nt_enter = t_exit: this box is flat (zero thickness along ${w(flat.axis)}), and the ray crosses it there, through its face. ` +
      'It is inside the box for one value of t only, and that crossing is a hit.';
  }
  if (ex.flags.grazing) {
    text += '\nt_enter = t_exit: the ray only touches the box at a single point (an edge or a corner). Boxes are closed, so a touch counts as a hit.';
  }
  if (!ex.flags.originInside) {
    text += `\nThe normal is the outward normal of the face it enters, from the ${w(ex.enterAxis)} slab.`;
  }
  return text;
}

/** The text of the verdict: a miss and why, or the hit. */
function verdictText(ex) {
  const w = axisWordFor(ex);
  const tmaxText = Number.isFinite(ex.tmax) ? n(ex.tmax) : '∞';
  switch (ex.reason) {
    case 'parallel-outside':
      return `Miss. The ray is parallel to the ${w(ex.flags.parallelOutside[0])} slab and starts outside it, so it never gets into the box.`;
    case 'no-overlap':
      return `Miss. t_enter = ${n(ex.tEnter)} comes after t_exit = ${n(ex.tExit)}: the ray has already left the ${w(ex.exitAxis)} slab ` +
        `before it enters the ${w(ex.enterAxis)} slab. It is never inside all three at once: it passes beside the box.`;
    case 'behind':
      return `Miss. The line does cross the box, for t in [${n(ex.tEnter)}, ${n(ex.tExit)}], but those t are negative: that is behind the origin. A ray only goes forward (t ≥ 0).`;
    case 'beyond-tmax':
      return `Miss. The line reaches the box at t = ${n(ex.tEnter)}, but this ray stops at tmax = ${tmaxText}.`;
    default:
      return hitText(ex, tmaxText);
  }
}

/** [title, text] of step k (1 .. STEP_COUNT) for the subject {i, j, ray, shape, ex}. */
export function stepText(k, sub) {
  const { ex, shape } = sub;
  if (k <= 1) return ideaStep(sub);
  if (k >= 2 && k <= 4) return axisStep(k, ex);
  if (k === 5) return entryStep(ex);
  if (k === 6) return exitStep(ex);
  return [stepTitle(STEP_COUNT, `the verdict (${shape.type === 'obb' ? 'rotated box' : 'box'} ${sub.j})`), verdictText(ex)];
}

const isNaNs = (...xs) => xs.some((x) => typeof x === 'number' && Number.isNaN(x));

/**
 * The edge cases met at step k (1 .. STEP_COUNT): [{flag, text}]. A parallel axis and a
 * -0 direction at their slab's step; NaN at any step whose numbers hold one; an origin
 * inside, on the surface, and a grazing hit at the verdict (they are kinds of hit).
 */
export function stepFlags(k, ex) {
  const w = axisWordFor(ex);
  const out = [];
  if (k >= 2 && k <= 4) {
    const a = ex.axes[k - 2];
    if (a.parallel) out.push({ flag: 'parallel', text: `parallel to the ${w(a.axis)} slab: origin ${a.inside ? 'inside' : 'outside'} it` });
    if (Object.is(a.d, -0)) out.push({ flag: 'negative-zero', text: `direction ${w(a.axis)} is −0: treated as parallel` });
    if (isNaNs(a.o, a.d, a.lo, a.hi, a.t1, a.t2, a.near, a.far)) out.push({ flag: 'nan', text: `NaN in the ${w(a.axis)} slab` });
  } else if (k === 5 || k === 6) {
    if (isNaNs(k === 5 ? ex.tEnter : ex.tExit)) out.push({ flag: 'nan', text: `NaN in t_${k === 5 ? 'enter' : 'exit'}` });
  } else if (k === STEP_COUNT) {
    if (ex.flags.originInside) out.push({ flag: 'origin-inside', text: 'origin inside the box: t = 0, normal [0, 0, 0]' });
    if (ex.flags.originOnSurface) out.push({ flag: 'origin-on-surface', text: 'origin on the surface: t = 0' });
    if (ex.flags.grazing) out.push({ flag: 'grazing', text: 'grazing: t_enter = t_exit, a touch counts as a hit' });
    if (ex.flags.flatCrossing) out.push({ flag: 'flat', text: 'a flat box: the ray crosses it, t_enter = t_exit' });
  }
  return out;
}

/** ['hit' | 'miss', a few words why]. */
export function verdictShort(ex) {
  switch (ex.reason) {
    case 'parallel-outside': return ['miss', 'parallel to a slab and outside it'];
    case 'no-overlap': return ['miss', 'the three intervals do not overlap'];
    case 'behind': return ['miss', 'the box is behind the origin'];
    case 'beyond-tmax': return ['miss', 'the box is beyond tmax'];
    default: return ['hit', `at t = ${n(ex.t)}${ex.flags.originInside ? ' (origin inside)' : ''}`];
  }
}
