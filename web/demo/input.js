// The demo's input: keys (WASD / arrows to walk, Space to jump), an on-screen joystick and jump
// button for touch, dragging on the view to look around, and a click or tap (a press that
// barely moves) to pick. It only records: the demo reads move(), jump and takes the pending
// pick once per frame.

const KEYS = {
  KeyW: [0, 1], ArrowUp: [0, 1], KeyS: [0, -1], ArrowDown: [0, -1],
  KeyA: [-1, 0], ArrowLeft: [-1, 0], KeyD: [1, 0], ArrowRight: [1, 0],
};
const TAP_PX = 8; // a press that moves less than this is a click / tap
const TAP_MS = 500;

/**
 * Listens on the view element (drag: look; tap: pick), the joystick and jump button, and the
 * window's keys. onTurn(dx, dy) gets drag pixels.
 */
export function createInput({ view, stick, knob, jumpButton, onTurn }) {
  const held = new Set();
  const joy = { x: 0, y: 0, id: -1 };
  const input = { jump: false, pick: null, held };

  window.addEventListener('keydown', (e) => {
    if (e.code in KEYS || e.code === 'Space') e.preventDefault();
    if (e.code === 'Space') input.jump = true;
    held.add(e.code);
  });
  window.addEventListener('keyup', (e) => held.delete(e.code));
  window.addEventListener('blur', () => held.clear());

  // drag to look, tap to pick (one pointer at a time on the view)
  let press = null;
  view.addEventListener('pointerdown', (e) => {
    if (press !== null) return;
    press = { id: e.pointerId, x: e.clientX, y: e.clientY, lx: e.clientX, ly: e.clientY, t: performance.now(), moved: false };
    view.setPointerCapture?.(e.pointerId);
  });
  view.addEventListener('pointermove', (e) => {
    if (press === null || e.pointerId !== press.id) return;
    if (Math.hypot(e.clientX - press.x, e.clientY - press.y) > TAP_PX) press.moved = true;
    onTurn(e.clientX - press.lx, e.clientY - press.ly);
    press.lx = e.clientX;
    press.ly = e.clientY;
  });
  const release = (e) => {
    if (press === null || e.pointerId !== press.id) return;
    if (!press.moved && performance.now() - press.t < TAP_MS && e.type === 'pointerup') {
      const r = view.getBoundingClientRect();
      input.pick = { x: ((e.clientX - r.left) / r.width) * 2 - 1, y: -((e.clientY - r.top) / r.height) * 2 + 1 };
    }
    press = null;
  };
  view.addEventListener('pointerup', release);
  view.addEventListener('pointercancel', release);

  // the joystick: the knob follows the finger within the ring; its offset is the move
  const setKnob = (x, y) => {
    joy.x = x;
    joy.y = y;
    knob.style.transform = `translate(${x * 32}px, ${-y * 32}px)`;
  };
  stick.addEventListener('pointerdown', (e) => {
    joy.id = e.pointerId;
    stick.setPointerCapture?.(e.pointerId);
    stickMove(e);
  });
  const stickMove = (e) => {
    if (e.pointerId !== joy.id) return;
    const r = stick.getBoundingClientRect();
    let x = (e.clientX - (r.left + r.width / 2)) / (r.width / 2);
    let y = -(e.clientY - (r.top + r.height / 2)) / (r.height / 2);
    const l = Math.hypot(x, y);
    if (l > 1) { x /= l; y /= l; }
    setKnob(x, y);
  };
  stick.addEventListener('pointermove', stickMove);
  const stickEnd = (e) => {
    if (e.pointerId !== joy.id) return;
    joy.id = -1;
    setKnob(0, 0);
  };
  stick.addEventListener('pointerup', stickEnd);
  stick.addEventListener('pointercancel', stickEnd);
  jumpButton.addEventListener('pointerdown', (e) => {
    e.preventDefault();
    input.jump = true;
  });

  /** The wanted move in view terms: { right, forward }, length at most 1 (keys and joystick). */
  input.move = () => {
    let right = joy.x;
    let forward = joy.y;
    for (const code of held) {
      const k = KEYS[code];
      if (k) { right += k[0]; forward += k[1]; }
    }
    const l = Math.hypot(right, forward);
    if (l > 1) { right /= l; forward /= l; }
    return { right, forward };
  };
  return input;
}
