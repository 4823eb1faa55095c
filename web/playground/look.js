// The look of the scene: colours, names and sizes shared by the 3D view and the panels.

export const SHAPE_COLORS = { aabb: 0x8fb3e8, obb: 0xb59ee8, sphere: 0x7fcfc0, plane: 0xe6cf9f, capsule: 0xe8a3bd };
export const SHAPE_EDGE_COLORS = { aabb: 0x4f74b3, obb: 0x7358b8, sphere: 0x3f9c8b, plane: 0xb8955a, capsule: 0xb04a72 };
export const SELECTED_EDGE = 0xff8a1f;
export const RAY_COLORS = ['#f76707', '#d6336c', '#7048e8', '#0c8599', '#e8a200', '#a0522d', '#e64980', '#4263eb'];
export const AXIS_COLORS = ['#e03131', '#2f9e44', '#1c7ed6'];
export const AX = ['x', 'y', 'z'];
const SHORT_NAME = { aabb: 'box', obb: 'obb', sphere: 'sphere', plane: 'plane', capsule: 'capsule' };
export const LONG_NAME = { aabb: 'axis-aligned box', obb: 'rotated box (OBB)', sphere: 'sphere', plane: 'plane', capsule: 'capsule' };
/** World length drawn for a ray that misses (and past a hit). */
export const RAY_DRAW_LENGTH = 14;
export const PLANE_SIZE = 18;
/** Largest box size / sphere diameter the scale gizmo produces. */
export const MAX_SIZE = 200;

export const rayColor = (i) => RAY_COLORS[i % RAY_COLORS.length];
/** The name of shape j (whose record is `shape`): "box 0", "sphere 2", ... */
export const shapeName = (j, shape) => `${SHORT_NAME[shape.type]} ${j}`;
export const rayName = (i) => `ray ${i}`;
