// The figures of docs/tutorial.html: each section's scene and options (mountFigure's, of
// slabcast/figure), kept apart from the page so that tests/web/tutorial-page.test.mjs can
// check each scene's numbers, worked out by hand, against the core.
const BOX = { type: 'aabb', min: [-1, -1, -1], max: [1, 1, 1] };
const c = Math.fround(Math.SQRT1_2);
const f = Math.fround;

/** The OBB of section 7: the box of half sizes (1.5, 0.5, 1) turned 45 degrees about z. */
export const OBB = { type: 'obb', center: [0, 0, 0], axes: [[c, c, 0], [-c, c, 0], [0, 0, 1]], half: [1.5, 0.5, 1] };
/** Section 7's ray, in the world. */
export const OBB_RAY = { origin: [-3, 0, 0], dir: [1, 0, 0] };
/** The ray in the OBB's frame: its origin and direction projected on the box's axes (float32, as the core does). */
const dot = (a, b) => f(f(f(a[0] * b[0]) + f(a[1] * b[1])) + f(a[2] * b[2]));
export const OBB_RAY_IN_FRAME = {
  origin: OBB.axes.map((a) => dot(OBB_RAY.origin, a)),
  dir: OBB.axes.map((a) => dot(OBB_RAY.dir, a)),
};

/** id -> {scene, options}; the ids are the figures' element ids in docs/tutorial.html. */
export const FIGURES = {
  'fig-slab': {
    scene: { shapes: [BOX], rays: [{ origin: [-4, 0, 0], dir: [1, 0, 0] }] },
    options: {
      snap: 0.5,
      handles: { origin: { axis: 'x' }, dir: false, min: false, max: false },
      goal: { label: 'Move the start so that the ray enters the x slab at t = 1', when: { tx_enter: 1 } },
      label: 'One slab: a ray along x and the walls x = -1 and x = 1',
    },
  },
  'fig-formula': {
    scene: { shapes: [BOX], rays: [{ origin: [-4, -2, 0], dir: [2, 1, 0] }] },
    options: {
      snap: 'integer',
      handles: { origin: false, min: false, max: false },
      goal: { label: 'Drag the tip of the direction so that the ray reaches the wall x = \u22121 at t = 0.75', when: { tx_wall_min: 0.75 } },
      label: 'A diagonal ray and the formula t = (wall - origin) / dir',
    },
  },
  'fig-swap': {
    scene: { shapes: [BOX], rays: [{ origin: [3, 0.5, 0], dir: [-1, 0, 0] }] },
    options: {
      snap: 'integer',
      handles: { origin: { axis: 'x' }, dir: { axis: 'x' }, min: false, max: false },
      // Room on the left for the start at x = -3 and the tip at -4.
      bounds: { min: [-5, -1.5], max: [4, 1.5] },
      goal: { label: 'Move the start to x = \u22123, then turn the ray around so that it hits the box again', when: (v) => v.hit && v['origin.x'] === -3 && v['dir.x'] > 0 },
      label: 'A ray going left: its entry and exit walls swap',
    },
  },
  'fig-overlap': {
    scene: { shapes: [BOX], rays: [{ origin: [-3, -2, 0], dir: [1, 1, 0] }] },
    options: {
      snap: 0.5,
      handles: { origin: false, min: false, max: false },
      goal: { label: 'Drag the tip up until the x and y intervals no longer overlap', when: { reason: 'no-overlap' } },
      label: 'Three intervals and their overlap',
    },
  },
  'fig-inside': {
    scene: { shapes: [BOX], rays: [{ origin: [-3, 0.5, 0], dir: [1, 0, 0] }] },
    options: {
      snap: 0.5,
      handles: { dir: false, min: false, max: false },
      goal: { label: 'Put the start inside the box', when: (v) => v.hit && v.t_enter < 0 },
      label: 'A ray whose start is inside the box',
    },
  },
  'fig-graze': {
    scene: { shapes: [BOX], rays: [{ origin: [-3, 2, 0], dir: [1, 0, 0] }] },
    options: {
      snap: 'integer',
      handles: { min: false, max: false },
      goal: { label: 'Make the ray graze a corner: t_enter = t_exit', when: { t_enter_equals_t_exit: true, hit: true } },
      label: 'A ray parallel to a slab, and grazing',
    },
  },
  'fig-flat': {
    scene: { shapes: [BOX], rays: [{ origin: [-3, -2, 0], dir: [1, 1, 0] }] },
    options: {
      snap: 0.5,
      handles: { origin: false, dir: false, max: false, min: { axis: 'y' } },
      goal: { label: 'Flatten the box: drag its lower corner up to y = 1', when: (v) => v['min.y'] === 1 && v['max.y'] === 1 },
      label: 'A flat box',
    },
  },
  'fig-obb': {
    scene: { shapes: [{ type: 'aabb', min: OBB.half.map((h) => -h), max: OBB.half.slice() }], rays: [OBB_RAY_IN_FRAME] },
    options: {
      snap: 0.5,
      handles: { origin: { axis: 'y' }, dir: false, min: false, max: false },
      goal: { label: 'Slide the start along the box\u2019s y axis until the ray enters through the box\u2019s x walls', when: { enter_axis: 'x', hit: true } },
      label: 'An OBB in its own frame',
    },
  },
};
