/*
 * The spanning forest drawn in an SVG, for the live view and the offline report alike:
 *   TracesyncForest.draw(svg, tree, factors)
 * with tree as GET /tree answers it ({components, edges}) and factors the array GET /factors answers. Each component
 * is a radial tidy tree (d3-hierarchy's d3.tree, which must be loaded) around its reference node, its links straight
 * lines between consecutive depths that never cross. Components are packed in rows, the bigger ones drawn larger.
 * Labels run along the radial direction; one that would overlap another label, a node or a link, or leave the
 * drawing, is left out (every node's name is in its tooltip), the reference's never. Every coordinate written is
 * absolute (no transformed groups).
 */
(function (global) {
  'use strict';
  const NS = 'http://www.w3.org/2000/svg';
  const REFERENCE = '#d9822b', BOUNDED = '#2e8b57', UNBOUNDED = '#bbb', LINK = '#4a78b5';
  const FONT = 10;            // label font size, px
  const CHAR = 0.62 * FONT;   // width of a label's character, px, estimated
  const GAP = 4;              // between a node and its label, px
  const PAD = 6;              // around each component's cell, px
  const RING = 60;            // the most px between two depths: small trees stay small
  const NODE_R = 6, REFERENCE_R = 9;

  function el(parent, name, attrs, text) {
    const e = document.createElementNS(NS, name);
    for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, v);
    if (text !== undefined) e.textContent = text;
    parent.append(e);
    return e;
  }

  const round = v => Math.round(v * 100) / 100;
  const byName = (p, q) => (p[0] < q[0] ? -1 : p[0] > q[0] ? 1 : 0);

  /** The drawing area: the viewBox if there is one, else the width and height attributes. */
  function area(svg) {
    const vb = svg.viewBox && svg.viewBox.baseVal;
    if (vb && vb.width > 0 && vb.height > 0) return {x: vb.x, y: vb.y, w: vb.width, h: vb.height};
    return {x: 0, y: 0, w: parseFloat(svg.getAttribute('width')) || 900,
      h: parseFloat(svg.getAttribute('height')) || 520};
  }

  /**
   * The components as d3 hierarchies, each rooted at its reference (children in name order, so that the drawing
   * holds still between polls); a node no link reaches is a component of its own. A leaf above the component's
   * deepest depth gets a chain of hidden nodes down to it: its place at every depth, where its label goes.
   */
  function components(tree, factors) {
    const adjacent = new Map();
    const add = n => adjacent.has(n) || adjacent.set(n, []);
    (tree.edges || []).forEach(e => {
      add(e.a); add(e.b);
      adjacent.get(e.a).push([e.b, e.weight]);
      adjacent.get(e.b).push([e.a, e.weight]);
    });
    // roots: the tree's references, then nodes that are their own reference, then whatever is left
    const references = (tree.components || []).map(c => c.reference);
    const own = factors.filter(f => f.reference === f.node).map(f => f.node);
    references.concat(own).forEach(add);
    factors.forEach(f => add(f.node));
    const referenceSet = new Set(references.concat(own));
    const seen = new Set(), out = [];
    references.concat(own.sort(), [...adjacent.keys()].sort()).forEach(r => {
      if (seen.has(r)) return;
      seen.add(r);
      const data = {name: r, weight: 0, depth: 0, children: []}, leaves = [];
      for (let queue = [data]; queue.length;) {
        const d = queue.shift();
        adjacent.get(d.name).slice().sort(byName).forEach(([name, weight]) => {
          if (seen.has(name)) return;
          seen.add(name);
          const child = {name, weight, depth: d.depth + 1, children: []};
          d.children.push(child);
          queue.push(child);
        });
        if (!d.children.length) leaves.push(d);
      }
      const depth = leaves[leaves.length - 1].depth;
      leaves.forEach(leaf => {
        for (let d = leaf; d.depth < depth; d = d.children[0]) {
          d.children.push({hidden: true, depth: d.depth + 1, children: []});
        }
      });
      out.push({root: global.d3.hierarchy(data), reference: referenceSet.has(r)});
    });
    return out;
  }

  /**
   * Lays a component out on the unit disc: node.x the angle (0 up, clockwise), node.y the radius. Thanks to the
   * hidden nodes each subtree keeps a wedge of its own at every depth, which its links do not leave; a tenth of the
   * circle stays free, so that no link passes through the root. The rings start evenly spaced; while two links
   * cross (a wide fan dipping inside its own ring), the ring beyond the deeper one's parent moves out.
   */
  function radial(root) {
    const depth = root.height;
    global.d3.tree().size([1.8 * Math.PI, 1]).separation((a, b) => (a.parent === b.parent ? 1 : 2) / a.depth)(root);
    const nodes = visible(root), links = nodes.filter(n => n.parent);
    const rings = [...Array(depth + 1).keys()];
    const place = () => nodes.forEach(n => {
      n.y = rings[n.depth] / rings[depth];
      n.xy = [n.y * Math.sin(n.x), -n.y * Math.cos(n.x)];
    });
    for (let attempt = 0; attempt < 50; attempt++) {
      place();
      const deeper = crossing(links);
      if (deeper < 0) return;
      const step = 0.25 * (rings[deeper + 1] - rings[deeper]);
      for (let d = deeper + 1; d <= depth; d++) rings[d] += step;
    }
  }

  /** The depth of the deeper parent of two crossing links (each given by its child), or -1 if none cross. */
  function crossing(links) {
    const turn = (a, b, c) => Math.sign((b[0] - a[0]) * (c[1] - a[1]) - (b[1] - a[1]) * (c[0] - a[0]));
    for (let i = 0; i < links.length; i++) {
      for (let j = i + 1; j < links.length; j++) {
        const p = links[i].parent.xy, q = links[i].xy, r = links[j].parent.xy, s = links[j].xy;
        if (turn(p, q, r) * turn(p, q, s) < 0 && turn(r, s, p) * turn(r, s, q) < 0) {
          return Math.max(links[i].parent.depth, links[j].parent.depth);
        }
      }
    }
    return -1;
  }

  /** A component's nodes, without the hidden ones. */
  const visible = root => root.descendants().filter(n => !n.data.hidden);
  const shown = n => (n.children || []).filter(k => !k.data.hidden);

  const labelWidth = name => String(name).length * CHAR;

  /** One component's cell: its size at scale s (px per √node), and where to draw it. */
  function cell(c) {
    const n = visible(c.root).length;
    if (n === 1) {
      const r = c.reference ? REFERENCE_R : NODE_R;
      const w = 2 * r + GAP + labelWidth(c.root.data.name) + 2 * PAD, h = 2 * REFERENCE_R + 2 * PAD;
      return {c, n, size: () => [w, h]};
    }
    radial(c.root);
    const depth = c.root.height;
    const room = GAP + NODE_R + Math.min(Math.max(...visible(c.root).map(v => labelWidth(v.data.name))), 90) + PAD;
    // the radius at which no two nodes are closer than their diameters, at least
    const xy = visible(c.root).map(v => v.xy);
    let closest = Infinity;
    xy.forEach((p, i) => xy.slice(i + 1).forEach(q => {
      closest = Math.min(closest, Math.hypot(p[0] - q[0], p[1] - q[1]));
    }));
    const most = Math.max(RING * depth + 3 * n, (2 * REFERENCE_R + 4) / closest);
    const radius = s => Math.min(s * Math.sqrt(n), most);
    // the cell holds the nodes' own extent on the disc (a lopsided tree fills its cell), centred on its middle
    const [x0, x1] = [Math.min(...xy.map(p => p[0])), Math.max(...xy.map(p => p[0]))];
    const [y0, y1] = [Math.min(...xy.map(p => p[1])), Math.max(...xy.map(p => p[1]))];
    return {c, n, radius, mid: [(x0 + x1) / 2, (y0 + y1) / 2],
      size: s => [radius(s) * (x1 - x0) + 2 * room, radius(s) * (y1 - y0) + 2 * room]};
  }

  /** Rows of cells, left to right, at scale s: each cell's box, and the height used; null if too wide. */
  function rows(cells, s, width) {
    const out = [];
    let x = 0, y = 0, h = 0, row = [];
    const close = () => {
      const left = (width - x) / 2;
      row.forEach(b => { b.x += left; b.y = y + (h - b.h) / 2; });
      y += h; x = 0; h = 0; row = [];
    };
    for (const c of cells) {
      const [w, ch] = c.size(s);
      if (w > width) return null;
      if (x + w > width) close();
      const box = {cell: c, x, y: 0, w, h: ch, s};
      row.push(box); out.push(box);
      x += w; h = Math.max(h, ch);
    }
    close();
    return {boxes: out, height: y};
  }

  /** The largest scale at which the rows fit, to 2 %; rows at the smallest scale if none does. */
  function pack(cells, width, height) {
    for (let s = Math.max(width, height); s > 0.5; s *= 0.98) {
      const r = rows(cells, s, width);
      if (r && r.height <= height) return r;
    }
    return rows(cells, 0, width) || rows(cells, 0, Infinity);
  }

  // Geometry of the label check: a label is a thick segment (a capsule), a node a disc, a link a thin segment.
  function segmentDistance(p, q, r, s) {
    const cross = (a, b, c) => (b[0] - a[0]) * (c[1] - a[1]) - (b[1] - a[1]) * (c[0] - a[0]);
    if (Math.sign(cross(p, q, r)) * Math.sign(cross(p, q, s)) < 0
        && Math.sign(cross(r, s, p)) * Math.sign(cross(r, s, q)) < 0) return 0;
    return Math.min(pointDistance(p, r, s), pointDistance(q, r, s), pointDistance(r, p, q), pointDistance(s, p, q));
  }

  function pointDistance(p, a, b) {
    const dx = b[0] - a[0], dy = b[1] - a[1], len = dx * dx + dy * dy;
    const t = len === 0 ? 0 : Math.max(0, Math.min(1, ((p[0] - a[0]) * dx + (p[1] - a[1]) * dy) / len));
    return Math.hypot(p[0] - a[0] - t * dx, p[1] - a[1] - t * dy);
  }

  function draw(svg, tree, factors) {
    tree = tree || {};
    factors = factors || [];
    svg.replaceChildren();
    const box = area(svg);
    const cells = components(tree, factors).map(cell)
      .sort((p, q) => q.n - p.n || (p.c.root.data.name < q.c.root.data.name ? -1 : 1));
    const placed = pack(cells, box.w, box.h);
    const top = box.y + Math.max(0, (box.h - placed.height) / 2);

    // every node's position, px
    const nodes = [];
    placed.boxes.forEach(b => {
      const {c, radius} = b.cell;
      const cx = box.x + b.x + b.w / 2, cy = top + b.y + b.h / 2;
      if (!radius) {
        const r = c.reference ? REFERENCE_R : NODE_R;
        nodes.push({n: c.root, x: box.x + b.x + PAD + r, y: cy, reference: c.reference});
        return;
      }
      const R = radius(b.s), [mx, my] = b.cell.mid;
      visible(c.root).forEach(n => nodes.push({n, x: cx + R * (n.xy[0] - mx), y: cy + R * (n.xy[1] - my),
        reference: !n.parent && c.reference}));
    });
    const at = new Map(nodes.map(p => [p.n, p]));
    nodes.forEach(p => { p.r = p.reference ? REFERENCE_R : NODE_R; p.px = [round(p.x), round(p.y)]; });

    const links = nodes.filter(p => p.n.parent).map(p => ({from: at.get(p.n.parent), to: p, weight: p.n.data.weight}));
    const maxWeight = Math.max(...links.map(l => l.weight), 1e-30);
    links.forEach(l => el(svg, 'line', {x1: l.from.px[0], y1: l.from.px[1], x2: l.to.px[0], y2: l.to.px[1],
      stroke: LINK, 'stroke-width': round(1 + 3 * l.weight / maxWeight)}));

    const factor = new Map(factors.map(f => [f.node, f]));
    nodes.forEach(p => {
      const f = factor.get(p.n.data.name);
      const fill = p.reference ? REFERENCE : f && f.bound_ns !== null && f.bound_ns !== undefined ? BOUNDED
        : UNBOUNDED;
      el(el(svg, 'circle', {cx: p.px[0], cy: p.px[1], r: p.r, fill}), 'title', {}, p.n.data.name);
    });
    labels(svg, box, nodes, links);
  }

  /**
   * Labels in order: the references, then by depth. Each runs outward from its node (or, first for a node with
   * children, inward; a root's is level, right, left, above or below it) where it overlaps no label, node or link
   * drawn; else it is left out, except a reference's, then drawn in its first place.
   */
  function labels(svg, box, nodes, links) {
    const taken = [];
    const half = FONT / 2;
    const inside = q => q[0] >= box.x && q[0] <= box.x + box.w && q[1] >= box.y + half && q[1] <= box.y + box.h - half;
    const clear = (p, start, end) => inside(start) && inside(end)
      && taken.every(t => segmentDistance(start, end, t[0], t[1]) >= 2 * half + 1)
      && nodes.every(o => o === p || pointDistance([o.x, o.y], start, end) >= o.r + half)
      && links.every(l => l.from === p || l.to === p
        || segmentDistance(start, end, [l.from.x, l.from.y], [l.to.x, l.to.y]) >= half);
    const order = nodes.slice().sort((p, q) => (q.reference - p.reference) || (p.n.depth - q.n.depth));
    order.forEach(p => {
      const length = labelWidth(p.n.data.name);
      const ways = !p.n.parent ? [] : shown(p.n).length ? [-1, 1] : [1, -1];
      const places = ways.map(way => {
        const ux = way * Math.sin(p.n.x), uy = -way * Math.cos(p.n.x);
        const start = [p.x + ux * (p.r + GAP), p.y + uy * (p.r + GAP)];
        return [start, [start[0] + ux * length, start[1] + uy * length]];
      });
      if (!p.n.parent) {
        const [x, y, r] = [p.x, p.y, p.r + GAP];
        places.push([[x + r, y], [x + r + length, y]], [[x - r, y], [x - r - length, y]],
          [[x - length / 2, y - r - half], [x + length / 2, y - r - half]],
          [[x - length / 2, y + r + half], [x + length / 2, y + r + half]]);
      }
      const place = places.find(([start, end]) => clear(p, start, end)) || (p.reference && places[0]);
      if (!place) return;
      taken.push(place);
      // text reads left to right: run it from start, or, pointing left, end it at start turned half a turn
      const [start, end] = place, dx = end[0] - start[0], dy = end[1] - start[1], left = dx < 0;
      const degrees = Math.atan2(left ? -dy : dy, left ? -dx : dx) * 180 / Math.PI;
      const [x, y] = [round(start[0]), round(start[1])];
      el(svg, 'text', {x, y, dy: '0.35em', 'text-anchor': left ? 'end' : 'start', 'font-size': FONT,
        'font-weight': p.reference ? 'bold' : 'normal', transform: `rotate(${round(degrees)} ${x} ${y})`,
        stroke: '#fff', 'stroke-width': 3, 'paint-order': 'stroke', fill: '#222'}, p.n.data.name);
    });
  }

  global.TracesyncForest = {draw};
})(typeof window !== 'undefined' ? window : this);
