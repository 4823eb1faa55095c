// slabcast/three, walk: which objects a world tracks. Walks the scene graph below the listed
// objects without recursion (depth costs no stack), refuses cycles and graphs deeper than
// MAX_DEPTH, keeps each Mesh once in three.js's traversal order, skips other objects, and
// appends the Box3 entries after the meshes.

import { fail } from './errors.js';

/** The deepest scene graph createThreeWorld walks (levels below a listed object). */
export const MAX_DEPTH = 1000;

/** The most entries (meshes + boxes) one world holds. */
const MAX_ENTRIES = 16777216;

/** path, with the object's name when it has one (for messages). */
export function describe(obj, path) {
  return typeof obj.name === 'string' && obj.name !== '' ? `${path} ("${obj.name.slice(0, 40)}")` : path;
}

/**
 * The entries of a world: every tracked Mesh (from objects), then every Box3 (from boxes).
 * Returns { entries, names, isBox, nObjects }: by index the Mesh or Box3, its name for
 * messages, whether it is a box; nObjects meshes come first.
 */
export function collectEntries(objects, boxes, recursive) {
  const list = { entries: [], names: [], isBox: [], seen: new Set() };
  for (let i = 0; i < objects.length; i++) walk(list, objects[i], `objects[${i}]`, recursive);
  const nObjects = list.entries.length;
  for (let i = 0; i < boxes.length; i++) {
    const b = boxes[i];
    if (b === null || typeof b !== 'object' || b.isBox3 !== true) fail(`boxes[${i}] must be a Box3`, `boxes[${i}]`);
    list.entries.push(b);
    list.names.push(`boxes[${i}]`);
    list.isBox.push(true);
  }
  const n = list.entries.length;
  if (n > MAX_ENTRIES) fail(`too many objects and boxes (${n}; the limit is ${MAX_ENTRIES})`, 'options');
  return { entries: list.entries, names: list.names, isBox: list.isBox, nObjects };
}

// The scene graph is walked without recursion, so depth costs no stack; a node reached twice
// in one walk (a cycle, or a child listed under two parents) and a graph deeper than
// MAX_DEPTH are refused with an error that names where.
function walk(list, root, rootPath, recursive) {
  const stack = [[root, rootPath, 0]];
  const inWalk = new Set();
  while (stack.length > 0) {
    const [obj, path, depth] = stack.pop();
    if (obj === null || typeof obj !== 'object' || obj.isObject3D !== true) fail(`${path} must be an Object3D`, path);
    if (inWalk.has(obj)) fail(`${path} is reached twice below ${rootPath}: the scene graph has a cycle`, path);
    inWalk.add(obj);
    if (depth > MAX_DEPTH) fail(`${path}: the scene graph is deeper than ${MAX_DEPTH} levels`, path);
    take(list, obj, path, depth === 0, recursive);
    if (recursive) {
      const children = obj.children;
      if (Array.isArray(children)) {
        // pushed last to first, so that meshes are numbered in depth-first order
        for (let i = children.length - 1; i >= 0; i--) stack.push([children[i], `${path}.children[${i}]`, depth + 1]);
      }
    }
  }
}

/** Which objects count: a Mesh is kept (once); top is whether obj was listed in objects. */
function take(list, obj, path, top, recursive) {
  if (obj.isInstancedMesh || obj.isBatchedMesh) {
    // one box cannot stand for many instances: refused when listed, skipped when found below
    if (top) fail(`${describe(obj, path)}: InstancedMesh and BatchedMesh are not supported (use boxes, one per instance)`, path);
  } else if (obj.isMesh) {
    if (!list.seen.has(obj)) {
      list.seen.add(obj);
      list.entries.push(obj);
      list.names.push(describe(obj, path));
      list.isBox.push(false);
    }
  } else if (top && !recursive) {
    fail(`${describe(obj, path)} is not a Mesh (recursive: true tracks the meshes below it)`, path);
  }
}
