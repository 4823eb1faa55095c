// slabcast/three, walk: which objects a world tracks. Walks the scene graph below the listed
// objects without recursion (depth costs no stack), refuses cycles and graphs deeper than
// MAX_DEPTH, keeps each Mesh once in three.js's traversal order (an InstancedMesh or BatchedMesh
// as one entry per instance slot, see instances.js), skips other objects, and appends the Box3
// entries after the meshes.

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
 * Returns { entries, names, isBox, inst, capacity, nObjects }: by index the Mesh or Box3, its
 * name for messages, whether it is a box, its instance slot (-1 when not an instance); the
 * number of slots of each InstancedMesh / BatchedMesh (a Map); nObjects mesh entries come first.
 */
export function collectEntries(objects, boxes, recursive) {
  const list = { entries: [], names: [], isBox: [], inst: [], capacity: new Map(), seen: new Set() };
  for (let i = 0; i < objects.length; i++) walk(list, objects[i], `objects[${i}]`, recursive);
  const nObjects = list.entries.length;
  for (let i = 0; i < boxes.length; i++) {
    const b = boxes[i];
    if (b === null || typeof b !== 'object' || b.isBox3 !== true) fail(`boxes[${i}] must be a Box3`, `boxes[${i}]`);
    list.entries.push(b);
    list.names.push(`boxes[${i}]`);
    list.isBox.push(true);
    list.inst.push(-1);
  }
  const n = list.entries.length;
  if (n > MAX_ENTRIES) fail(`too many objects and boxes (${n}; the limit is ${MAX_ENTRIES})`, 'options');
  const { entries, names, isBox, inst, capacity } = list;
  return { entries, names, isBox, inst: Int32Array.from(inst), capacity, nObjects };
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
    if (!list.seen.has(obj)) {
      list.seen.add(obj);
      addSlots(list, obj, describe(obj, path));
    }
  } else if (obj.isMesh) {
    if (!list.seen.has(obj)) {
      list.seen.add(obj);
      list.entries.push(obj);
      list.names.push(describe(obj, path));
      list.isBox.push(false);
      list.inst.push(-1);
    }
  } else if (top && !recursive) {
    fail(`${describe(obj, path)} is not a Mesh (recursive: true tracks the meshes below it)`, path);
  }
}

/**
 * One entry per instance slot of an InstancedMesh (instanceMatrix.count slots: its capacity)
 * or a BatchedMesh (maxInstanceCount slots). The slots are fixed for the world's life, so that
 * indices stay stable when count changes or instances are added and deleted.
 */
function addSlots(list, obj, name) {
  const cap = slotCount(obj, name);
  if (list.entries.length + cap > MAX_ENTRIES) {
    fail(`too many objects and boxes (${name} adds ${cap} instances; the limit is ${MAX_ENTRIES} entries)`, 'options');
  }
  list.capacity.set(obj, cap);
  for (let i = 0; i < cap; i++) {
    list.entries.push(obj);
    list.names.push(name);
    list.isBox.push(false);
    list.inst.push(i);
  }
}

/** The number of instance slots of an InstancedMesh or a BatchedMesh (checked). */
export function slotCount(obj, name) {
  const cap = obj.isBatchedMesh ? obj.maxInstanceCount : obj.instanceMatrix && obj.instanceMatrix.count;
  const what = obj.isBatchedMesh ? 'maxInstanceCount' : 'instanceMatrix.count';
  if (!Number.isInteger(cap) || cap < 0) fail(`${name}: its ${what} must be an integer >= 0`, name);
  return cap;
}
