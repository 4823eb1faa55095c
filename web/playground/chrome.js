// The page chrome as the view settings say (ui-state.mjs): embed mode hides the header,
// the toolbar, the hints, the number inspector and the share card (the error notice stays); `panels` shows or
// hides the toolbar, the hit list and the tutorial; locked handles make the toolbar, the
// inspector and the import inert and put the gizmo away (handles.js, view2d.js, keyboard.js,
// toolbar.js and files.js refuse drags, keys, shortcuts and files).
// Only the DOM of the playground's root is touched, and only through hidden / inert /
// inline display, so it needs no stylesheet of its own.

/** Show or hide an element (inline display too: some rules of playground.css set display). */
function setShown(el, shown) {
  if (!el) return;
  el.hidden = !shown;
  el.style.display = shown ? '' : 'none';
}

export class Chrome {
  /** root: the playground's root element; gizmo: the Gizmo; stress: the StressMode. */
  constructor({ root, gizmo, stress }) {
    Object.assign(this, { root, gizmo, stress });
    this.locked = false;
  }

  /** Apply the settings `ui` to the page. */
  apply(ui) {
    const { root } = this;
    const q = (sel) => root.querySelector(sel);
    const $ = (id) => q(`#${id}`);
    const embed = ui.embed;
    this.embed = embed;
    root.classList.toggle('embed', embed);
    root.toggleAttribute('data-embed', embed);
    setShown(q('header.top'), !embed);
    setShown(q('.toolbar'), ui.panels.toolbar && !embed);
    setShown($('mode-hint'), !embed);
    setShown($('view-help'), !embed);
    setShown($('hits-card'), ui.panels.hits);
    setShown($('slab-card'), ui.panels.tutorial);
    setShown($('slab-stepper'), ui.panels.tutorial); // the step card is the tutorial's too
    setShown($('share-card'), !embed);
    setShown($('inspect-card'), !embed);
    // Nothing left in the side panel: the view takes the whole width.
    const aside = q('aside.panel');
    const asideUsed = aside && [...aside.children].some((c) => !c.hidden);
    setShown(aside, asideUsed);
    const layout = q('.layout');
    if (layout) layout.style.gridTemplateColumns = asideUsed ? '' : 'minmax(0, 1fr)';
    this.#lock(ui.handles === 'locked');
  }

  /** The wheel over an embedded (?embed) or mounted playground scrolls the page: it zooms the
   * view only after the reader clicked into the playground, or with Ctrl held. The full page
   * zooms as before. `stage`: the element the 3D canvas and the 2D view fill. */
  guardWheel(stage) {
    const { root } = this;
    const mounted = root !== document.body;
    let engaged = false;
    window.addEventListener('pointerdown', (e) => { engaged = e.target instanceof Node && root.contains(e.target); }, true);
    stage.addEventListener('wheel', (e) => {
      if (!(mounted || this.embed) || engaged || e.ctrlKey) return;
      e.stopPropagation(); // neither the orbit nor the 2D view sees it; the page scrolls
    }, { capture: true });
  }

  #lock(locked) {
    const { root } = this;
    root.toggleAttribute('data-locked', locked);
    for (const sel of ['.toolbar', 'details.import', '#import-file', '#inspect-card', '#stress-toggle']) {
      const el = root.querySelector(sel);
      if (el) el.inert = locked;
    }
    if (locked === this.locked) return;
    this.locked = locked;
    // The gizmo is also suspended in stress mode: only hand it back when neither holds.
    if (locked) this.gizmo.setSuspended(true);
    else if (!this.stress.active) this.gizmo.setSuspended(false);
  }
}
