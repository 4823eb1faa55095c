// The first demo page: a top-down (z = 0) canvas drawing of a box and a few rays,
// each cast with slabcast.raycast, with their hits and the numbers in a table.
import { loadSlabcast } from './slabcast.js';

const box = { type: 'aabb', min: [-1, -0.75, -1], max: [1.5, 1, 1] };

/** Fixed rays: each shows a rule of the spec. */
const rays = [
  { name: 'A', color: '#1f77b4', note: 'enters the -x face', ray: { origin: [-3.5, 0.25, 0], dir: [1, 0, 0] } },
  { name: 'B', color: '#2ca02c', note: 'diagonal, enters the -y face', ray: { origin: [-2, -2.5, 0], dir: [1, 1, 0] } },
  { name: 'C', color: '#9467bd', note: 'grazes the corner (1.5, 1)', ray: { origin: [0.5, 2, 0], dir: [1, -1, 0] } },
  { name: 'D', color: '#8c564b', note: 'origin inside: t = 0, normal 0', ray: { origin: [0.5, 0, 0], dir: [-1, 0.5, 0] } },
  { name: 'E', color: '#7f7f7f', note: 'misses', ray: { origin: [-3.5, 1.6, 0], dir: [2, -0.1, 0] } },
  { name: 'F', color: '#d62728', note: 'tmax too short', ray: { origin: [3.5, -2.5, 0], dir: [-1, 1, 0], tmax: 1.5 } },
];
const mouseRay = { name: 'M', color: '#ff7f0e', note: 'follows the cursor', ray: { origin: [3, 2.2, 0], dir: [-1, -1, 0] } };

const canvas = document.getElementById('view');
const ctx = canvas.getContext('2d');
const statusEl = document.getElementById('status');
const tbody = document.querySelector('#results tbody');

// World window: x in [-4, 4], y in [-2.7, 2.7] (y up).
const W = { x0: -4, x1: 4, y0: -2.7, y1: 2.7 };
const sx = (x) => ((x - W.x0) / (W.x1 - W.x0)) * canvas.width;
const sy = (y) => canvas.height - ((y - W.y0) / (W.y1 - W.y0)) * canvas.height;
const wx = (px) => W.x0 + (px / canvas.width) * (W.x1 - W.x0);
const wy = (py) => W.y0 + ((canvas.height - py) / canvas.height) * (W.y1 - W.y0);

const fmt = (v) => (Number.isFinite(v) ? String(Number(v.toPrecision(6))) : String(v));
const fmtVec = (v) => `[${Array.from(v, fmt).join(', ')}]`;

function drawArrowHead(x, y, angle, size) {
  ctx.beginPath();
  ctx.moveTo(x, y);
  ctx.lineTo(x - size * Math.cos(angle - 0.4), y - size * Math.sin(angle - 0.4));
  ctx.lineTo(x - size * Math.cos(angle + 0.4), y - size * Math.sin(angle + 0.4));
  ctx.closePath();
  ctx.fill();
}

function draw(sc, all) {
  const dark = matchMedia('(prefers-color-scheme: dark)').matches;
  ctx.clearRect(0, 0, canvas.width, canvas.height);
  // grid
  ctx.strokeStyle = dark ? '#ffffff14' : '#00000010';
  ctx.lineWidth = 1;
  for (let x = Math.ceil(W.x0); x <= W.x1; x++) {
    ctx.beginPath(); ctx.moveTo(sx(x), 0); ctx.lineTo(sx(x), canvas.height); ctx.stroke();
  }
  for (let y = Math.ceil(W.y0); y <= W.y1; y++) {
    ctx.beginPath(); ctx.moveTo(0, sy(y)); ctx.lineTo(canvas.width, sy(y)); ctx.stroke();
  }
  // box
  ctx.fillStyle = dark ? '#4a90d933' : '#4a90d922';
  ctx.strokeStyle = '#4a90d9';
  ctx.lineWidth = 2;
  const [x0, y0] = box.min;
  const [x1, y1] = box.max;
  ctx.fillRect(sx(x0), sy(y1), sx(x1) - sx(x0), sy(y0) - sy(y1));
  ctx.strokeRect(sx(x0), sy(y1), sx(x1) - sx(x0), sy(y0) - sy(y1));

  const rows = [];
  for (const r of all) {
    const { origin, dir, tmax } = r.ray;
    const result = sc.raycast(r.ray, box);
    rows.push({ r, result });
    // the ray up to tmax (or off the canvas)
    const len = Math.hypot(dir[0], dir[1]);
    const tEnd = Math.min(tmax ?? Infinity, 20 / len);
    const ex = origin[0] + tEnd * dir[0];
    const ey = origin[1] + tEnd * dir[1];
    ctx.strokeStyle = r.color;
    ctx.fillStyle = r.color;
    ctx.lineWidth = 1.5;
    ctx.setLineDash(result.hit ? [] : [5, 4]);
    ctx.beginPath(); ctx.moveTo(sx(origin[0]), sy(origin[1])); ctx.lineTo(sx(ex), sy(ey)); ctx.stroke();
    ctx.setLineDash([]);
    if (tmax !== undefined) drawArrowHead(sx(ex), sy(ey), Math.atan2(-(dir[1]), dir[0]), 8);
    ctx.beginPath(); ctx.arc(sx(origin[0]), sy(origin[1]), 4, 0, 2 * Math.PI); ctx.fill();
    ctx.font = 'bold 12px system-ui, sans-serif';
    ctx.fillText(r.name, sx(origin[0]) + 6, sy(origin[1]) - 6);
    if (result.hit) {
      const [px, py] = result.point;
      ctx.beginPath(); ctx.arc(sx(px), sy(py), 5, 0, 2 * Math.PI);
      ctx.lineWidth = 2; ctx.stroke();
      const [nx, ny] = result.normal;
      if (nx !== 0 || ny !== 0) {
        const qx = sx(px + 0.5 * nx);
        const qy = sy(py + 0.5 * ny);
        ctx.beginPath(); ctx.moveTo(sx(px), sy(py)); ctx.lineTo(qx, qy); ctx.stroke();
        drawArrowHead(qx, qy, Math.atan2(-ny, nx), 7);
      }
    }
  }
  tbody.replaceChildren(...rows.map(({ r, result }) => {
    const tr = document.createElement('tr');
    tr.title = r.note;
    const cells = [r.name, fmtVec(r.ray.origin), fmtVec(r.ray.dir), r.ray.tmax === undefined ? '∞' : fmt(r.ray.tmax),
      String(result.hit)];
    if (result.hit) {
      cells.push(fmt(result.t), fmt(result.t_enter), fmt(result.t_exit), fmtVec(result.point), fmtVec(result.normal));
    } else {
      cells.push('', '', '', '', '');
    }
    cells.forEach((text, i) => {
      const td = document.createElement('td');
      td.textContent = text;
      if (i === 0) { td.className = 'swatch'; td.style.color = r.color; }
      tr.append(td);
    });
    return tr;
  }));
}

async function main() {
  let sc;
  try {
    sc = await loadSlabcast();
  } catch (e) {
    statusEl.textContent = `Could not load slabcast: ${e.message}`;
    statusEl.className = 'error';
    document.body.dataset.error = e.message;
    document.body.dataset.ready = 'true';
    return;
  }
  const redraw = () => draw(sc, [...rays, mouseRay]);
  canvas.addEventListener('click', (ev) => {
    const rect = canvas.getBoundingClientRect();
    const px = ((ev.clientX - rect.left) / rect.width) * canvas.width;
    const py = ((ev.clientY - rect.top) / rect.height) * canvas.height;
    mouseRay.ray.origin = [wx(px), wy(py), 0];
    redraw();
  });
  canvas.addEventListener('pointermove', (ev) => {
    const rect = canvas.getBoundingClientRect();
    const px = ((ev.clientX - rect.left) / rect.width) * canvas.width;
    const py = ((ev.clientY - rect.top) / rect.height) * canvas.height;
    const dx = wx(px) - mouseRay.ray.origin[0];
    const dy = wy(py) - mouseRay.ray.origin[1];
    if (dx === 0 && dy === 0) return;
    mouseRay.ray.dir = [dx, dy, 0];
    redraw();
  });
  redraw();
  statusEl.textContent = `slabcast.wasm loaded (${sc.memory.buffer.byteLength / 1024} KiB of memory); box min ${fmtVec(box.min)} max ${fmtVec(box.max)}.`;
  document.body.dataset.ready = 'true';
}

main();
