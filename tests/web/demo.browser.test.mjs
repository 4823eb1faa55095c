// The playable demo (web/demo/, dist/site/demo/index.html) in headless Chromium, driven frame by
// frame through its test handle window.__demo (the animation loop paused, each frame 1/60 s):
// - holding a key walks the capsule into a wall for 300 frames: at every frame slabcast's
//   overlapCapsule of the player's capsule is empty, and an independent distance (a vertical
//   segment against an axis-aligned box, computed here) stays above the radius; it ends resting
//   against the wall;
// - walking at 45 degrees into the wall slides along it (progress along the wall near the speed's
//   component along it), never overlapping;
// - dropped above the platform, it lands and stands on it: centre at the top + radius + half
//   segment (plus a gap of at most the skin), unmoving for 120 frames;
// - it climbs the stair of low boxes (step height) without overlapping them;
// - the camera, asked to stand behind the wall, stays on the player's side of it (castSphere);
// - the frustum count against a brute force in three.js: every counted mesh passes
//   Frustum.intersectsBox of its world box (conservative), and every mesh whose bounding sphere
//   lies wholly inside the frustum is counted;
// - a click picks (and names) what is under the cursor behind the player; the joystick walks.
// Uses Debian's /usr/bin/chromium (SwiftShader WebGL); nothing is downloaded.
import { Box3, Frustum, Matrix4, Sphere, Vector3 } from 'three';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createStaticServer } from '../../web/bin/serve.mjs';
import { close, launchChromium, listen, openPage } from './helpers/browser.mjs';
import { requireSite } from './helpers/site.mjs';

let server;
let base;
let browser;

beforeAll(async () => {
  requireSite();
  server = createStaticServer();
  base = await listen(server);
  browser = await launchChromium();
});

afterAll(async () => {
  await browser?.close();
  await close(server);
});

/** The distance between the vertical segment (x, y0..y1, z) and the box [min, max] (exact: the set is a product). */
function segmentBoxDistance([x, y0, z], y1, { min, max }) {
  const dx = Math.max(min[0] - x, 0, x - max[0]);
  const dz = Math.max(min[2] - z, 0, z - max[2]);
  const dy = Math.max(min[1] - y1, 0, y0 - max[1]);
  return Math.hypot(dx, dy, dz);
}

/** Opens the demo with its loop paused; returns { page, problems, k } (k: its constants). */
async function openDemo(viewport = { width: 1280, height: 800 }) {
  const { page, problems } = await openPage(browser, `${base}/demo/`, { viewport });
  await page.evaluate(() => window.__demo.pause());
  const k = await page.evaluate(() => ({ ...window.__demo.constants, landmarks: window.__demo.landmarks }));
  return { page, problems, k };
}

/**
 * Runs n frames in the page with the keys held as they are; returns each frame's capsule and what
 * slabcast's overlapCapsule reported for it.
 */
function frames(page, n) {
  return page.evaluate((count) => {
    const out = [];
    for (let i = 0; i < count; i++) {
      const s = window.__demo.step(1 / 60);
      out.push({ position: s.position, onGround: s.onGround, ground: s.ground, queries: s.queries, overlaps: window.__demo.overlaps() });
    }
    return out;
  }, n);
}

describe('the demo page (dist/site/demo/)', () => {
  it('walks into a wall for 300 frames holding a key: overlapCapsule empty at every frame, resting against it', async () => {
    const { page, problems, k } = await openDemo();
    const wall = k.landmarks.wall;
    const standY = k.HALF + k.RADIUS + k.SKIN;
    // yaw -pi/2: "forward" is +x, straight at the wall's face x = 8
    await page.evaluate(([y]) => { window.__demo.teleport(4, y, 0); window.__demo.view(-Math.PI / 2, 0.3); }, [standY]);
    await page.keyboard.down('KeyW');
    const run = await frames(page, 300);
    await page.keyboard.up('KeyW');
    for (const [i, f] of run.entries()) {
      expect(f.overlaps, `frame ${i}`).toEqual([]);
      const d = segmentBoxDistance([f.position[0], f.position[1] - k.HALF, f.position[2]], f.position[1] + k.HALF, wall);
      expect(d, `frame ${i}: distance to the wall`).toBeGreaterThan(k.RADIUS);
      expect(f.onGround, `frame ${i}`).toBe(true);
    }
    const end = run.at(-1).position;
    // it got there (within the skin, measured along the wall's normal) and stopped
    expect(end[0]).toBeGreaterThan(wall.min[0] - k.RADIUS - k.SKIN - 1e-3);
    expect(end[0]).toBeLessThan(wall.min[0] - k.RADIUS);
    expect(Math.abs(end[2])).toBeLessThan(1e-6); // straight at the wall: no sideways drift
    expect(run.at(-1).position).toEqual(run.at(-30).position);
    expect(problems).toEqual([]);
    await page.close();
  });

  it('walking at 45 degrees into the wall slides along it', async () => {
    const { page, problems, k } = await openDemo();
    const wall = k.landmarks.wall;
    await page.evaluate(([y]) => { window.__demo.teleport(4, y, -6); window.__demo.view(-Math.PI / 2, 0.3); }, [k.HALF + k.RADIUS + k.SKIN]);
    // forward +x and right +z: W and D together walk along (1, 0, 1) / sqrt(2)
    await page.keyboard.down('KeyW');
    await page.keyboard.down('KeyD');
    const run = await frames(page, 200);
    await page.keyboard.up('KeyW');
    await page.keyboard.up('KeyD');
    for (const [i, f] of run.entries()) {
      expect(f.overlaps, `frame ${i}`).toEqual([]);
      expect(f.position[0], `frame ${i}`).toBeLessThan(wall.min[0] - k.RADIUS);
    }
    const first = run.findIndex((f) => f.position[0] > wall.min[0] - k.RADIUS - k.SKIN - 1e-3);
    expect(first).toBeGreaterThan(0);
    expect(first).toBeLessThan(120);
    const frames45 = run.length - 1 - first;
    const along = run.at(-1).position[2] - run[first].position[2];
    // 5 m/s at 45 degrees: 5 / sqrt(2) m/s along the wall, less a little for the first contact
    const expected = (5 / Math.SQRT2) * (frames45 / 60);
    expect(along).toBeGreaterThan(0.95 * expected);
    expect(along).toBeLessThan(1.0001 * expected);
    expect(problems).toEqual([]);
    await page.close();
  });

  it('dropped above the platform, lands and stands on it', async () => {
    const { page, problems, k } = await openDemo();
    const top = k.landmarks.platform.max[1];
    await page.evaluate(() => window.__demo.teleport(-11.5, 5, 10.5));
    const run = await frames(page, 240);
    const landed = run.findIndex((f) => f.onGround);
    expect(landed).toBeGreaterThan(10); // it fell first
    expect(landed).toBeLessThan(120);
    for (const f of run) expect(f.overlaps).toEqual([]);
    for (const f of run.slice(-120)) {
      expect(f.onGround).toBe(true);
      expect(f.ground).toBe('platform');
      const gap = f.position[1] - (top + k.RADIUS + k.HALF);
      expect(gap).toBeGreaterThan(0);
      expect(gap).toBeLessThanOrEqual(k.SKIN + 1e-5);
      expect(f.position).toEqual(run.at(-1).position);
    }
    expect(problems).toEqual([]);
    await page.close();
  });

  it('climbs the stair of low boxes', async () => {
    const { page, problems, k } = await openDemo();
    const stairs = k.landmarks.stairs;
    await page.evaluate(([y]) => { window.__demo.teleport(-4, y, -6); window.__demo.view(0, 0.3); }, [k.HALF + k.RADIUS + k.SKIN]);
    await page.keyboard.down('ArrowUp'); // yaw 0: forward is -z, up the stairs
    const run = await frames(page, 110); // 9.2 m at 5 m/s: to the middle of the top step
    await page.keyboard.up('ArrowUp');
    for (const f of run) expect(f.overlaps).toEqual([]);
    const end = run.at(-1);
    expect(end.onGround).toBe(true);
    expect(end.ground).toBe('step 3');
    expect(end.position[1] - (stairs[2].max[1] + k.RADIUS + k.HALF)).toBeGreaterThan(0);
    expect(end.position[1] - (stairs[2].max[1] + k.RADIUS + k.HALF)).toBeLessThanOrEqual(k.SKIN + 1e-5);
    expect(problems).toEqual([]);
    await page.close();
  });

  it('the camera stays on the player\'s side of a wall behind it', async () => {
    const { page, problems, k } = await openDemo();
    const wall = k.landmarks.wall;
    // yaw pi/2: the camera wants to stand 6 m towards +x, beyond the wall 0.6 m away
    await page.evaluate(([y]) => { window.__demo.teleport(7, y, 0); window.__demo.view(Math.PI / 2, 0.2); window.__demo.step(1 / 60); }, [k.HALF + k.RADIUS + k.SKIN]);
    const cam = await page.evaluate(() => window.__demo.camera.position.toArray());
    expect(cam[0]).toBeLessThan(wall.min[0] - 0.25); // the camera's sphere (radius 0.25) short of the face x = 8
    expect(cam[0]).toBeGreaterThan(7); // behind the player, as asked, only closer
    await page.evaluate(() => { window.__demo.view(-Math.PI / 2, 0.2); for (let i = 0; i < 120; i++) window.__demo.step(1 / 60); });
    const free = await page.evaluate(() => window.__demo.camera.position.toArray());
    expect(free[0]).toBeLessThan(7 - 5); // the way is clear: back out to its distance (6 m, pitched)
    expect(problems).toEqual([]);
    await page.close();
  });

  it('counts what the camera sees: counted meshes pass Frustum.intersectsBox, meshes wholly inside are counted', async () => {
    const { page, problems } = await openDemo();
    // from open ground in the plaza (the landmarks are elsewhere), four ways
    const views = [[0.6, 0.35, 0, 0], [2.5, 0.1, 14, 0], [-1.2, 0.9, -16, -4], [3.9, 0.0, 5, -18]];
    let sawInside = 0;
    for (const [yaw, pitch, x, z] of views) {
      const data = await page.evaluate(([yw, p, px, pz]) => {
        window.__demo.teleport(px, 10, pz);
        window.__demo.view(yw, p);
        for (let i = 0; i < 90; i++) window.__demo.step(1 / 60); // land, camera out
        return window.__demo.frustumData();
      }, [yaw, pitch, x, z]);
      const frustum = new Frustum().setFromProjectionMatrix(
        new Matrix4().fromArray(data.projection).multiply(new Matrix4().fromArray(data.inverse)));
      const counted = data.objects.filter((o) => o.counted).length;
      expect(counted).toBe(data.count);
      expect(counted).toBeGreaterThan(0);
      expect(counted).toBeLessThan(data.objects.length);
      for (const o of data.objects) {
        const m = new Matrix4().fromArray(o.matrix);
        const box = new Box3(new Vector3(...o.box.slice(0, 3)), new Vector3(...o.box.slice(3))).applyMatrix4(m);
        if (o.counted) expect(frustum.intersectsBox(box), `${o.name} is counted but outside the frustum`).toBe(true);
        const s = new Sphere(new Vector3(...o.sphere.slice(0, 3)), o.sphere[3]).applyMatrix4(m);
        const inside = frustum.planes.every((p) => p.distanceToPoint(s.center) >= s.radius + 1e-3 * (1 + Math.abs(p.constant)));
        if (inside) {
          sawInside++;
          expect(o.counted, `${o.name} lies wholly inside the frustum but is not counted`).toBe(true);
        }
      }
    }
    expect(sawInside).toBeGreaterThan(20);
    expect(problems).toEqual([]);
    await page.close();
  });

  it('a click picks what is under the cursor (not the player) and the HUD names it', async () => {
    const { page, problems, k } = await openDemo();
    await page.evaluate(([y]) => { window.__demo.teleport(4, y, 0); window.__demo.view(-Math.PI / 2, 0.05); window.__demo.step(1 / 60); }, [k.HALF + k.RADIUS + k.SKIN]);
    // the view's centre looks (towards +x) at the player's head; beyond it, 4 m away, the wall
    await page.mouse.click(640, 400);
    const s = await page.evaluate(() => { const r = window.__demo.step(1 / 60); window.__demo.render(); return r; });
    expect(s.picked).toMatch(/^wall \(aabb, \d+\.\d m\)$/);
    await expect.poll(() => page.getByTestId('picked').textContent()).toMatch(/^wall/);
    expect(Number(await page.getByTestId('queries').textContent())).toBeGreaterThan(0);
    expect(problems).toEqual([]);
    await page.close();
  });

  it('on a phone, the joystick walks', async () => {
    const { page, problems, k } = await openDemo({ width: 390, height: 844 });
    await page.evaluate(([y]) => { window.__demo.teleport(0, y, 0); window.__demo.view(0, 0.3); window.__demo.step(1 / 60); }, [k.HALF + k.RADIUS + k.SKIN]);
    const stick = await page.locator('#stick').boundingBox();
    expect(stick).not.toBeNull();
    const cx = stick.x + stick.width / 2;
    const cy = stick.y + stick.height / 2;
    await page.mouse.move(cx, cy);
    await page.mouse.down();
    await page.mouse.move(cx, cy - stick.height / 2); // full forward
    const run = await frames(page, 30);
    await page.mouse.up();
    // yaw 0: forward is -z; 30 frames at 5 m/s
    expect(run.at(-1).position[2]).toBeCloseTo(-2.5, 1);
    expect(problems).toEqual([]);
    await page.close();
  });
});
