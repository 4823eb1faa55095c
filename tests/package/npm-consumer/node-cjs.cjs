// Run as check.js in a temporary CommonJS project (no "type" in its package.json) where
// the packed slabcast is installed: slabcast is an ES module, so it comes in through
// `await import('slabcast')`. Prints one JSON document.
(async () => {
  const { loadSlabcast } = await import('slabcast');
  const sc = await loadSlabcast();
  const hit = sc.raycast({ origin: [-3, 0.5, 0.25], dir: [2, 0, 0] },
                         { type: 'aabb', min: [-1, -1, -1], max: [1, 1, 1] });
  console.log(JSON.stringify({ module: typeof module, hit }));
})().catch((e) => {
  console.error(e);
  process.exitCode = 1;
});
