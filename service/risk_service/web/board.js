// The board as SVG, drawn only from DescribeVariant's map: each region is its outline polygon
// (or its circle), links are lines between centres (a link that wraps round the board is two
// stubs towards the nearer edges), hubs are rings. What stands on a region (its owner's colour,
// a count) comes from a reading of the game's view (pieces.js), so one drawing serves all
// variants. Regions carry data-region so clicks and tests can find them.

const SVG = "http://www.w3.org/2000/svg";

// Owners in the Okabe-Ito palette (safe for the common kinds of colour blindness; yellow left
// out, too faint on the light board), each seat also drawn as a shape of its own (circle,
// square, diamond, triangle, hexagon, pentagon) so no one needs the colour to tell owners
// apart. Regions' own tints are paled (`TINT`) so an owner never matches its region's colour.
export const SEAT_COLOURS = ["#0072b2", "#e69f00", "#009e73", "#d55e00", "#cc79a7", "#56b4e9"];
export const NEUTRAL_COLOUR = "#8c8c8c";
const SHAPES = ["circle", "square", "diamond", "triangle", "hexagon", "pentagon"];
const TINT = 0.3; // how much of a region's own colour shows through the board's background
const PAPER = [0xf4, 0xf1, 0xea];

// the seat's colour and shape: [colour, shape]; the neutral is a grey octagon
export function seatLook(seat, players) {
  if (seat >= players) return [NEUTRAL_COLOUR, "octagon"];
  return [SEAT_COLOURS[seat % SEAT_COLOURS.length], SHAPES[seat % SHAPES.length]];
}

// an SVG path of `shape` centred on (x, y) with radius r
export function shapePath(shape, x, y, r) {
  const polygon = (sides, turn) => Array.from({ length: sides }, (_, i) => {
    const a = turn + (2 * Math.PI * i) / sides;
    return `${i ? "L" : "M"}${(x + r * Math.cos(a)).toFixed(2)},${(y + r * Math.sin(a)).toFixed(2)}`;
  }).join("") + "Z";
  switch (shape) {
    case "square": return polygon(4, Math.PI / 4);
    case "diamond": return polygon(4, 0);
    case "triangle": return polygon(3, -Math.PI / 2);
    case "hexagon": return polygon(6, 0);
    case "pentagon": return polygon(5, -Math.PI / 2);
    case "octagon": return polygon(8, Math.PI / 8);
    default: return `M${x - r},${y}a${r},${r} 0 1,0 ${2 * r},0a${r},${r} 0 1,0 ${-2 * r},0Z`;
  }
}

// a small mark for a legend: the seat's shape in its colour
export function seatMark(seat, players) {
  const [colour, shape] = seatLook(seat, players);
  const svg = node("svg", { class: "mark", viewBox: "0 0 16 16", width: "14", height: "14",
    "aria-hidden": "true", "data-shape": shape });
  node("path", { d: shapePath(shape, 8, 8, 6.5), fill: colour, stroke: "#1d1d1d",
    "stroke-width": "1" }, svg);
  return svg;
}

// a region's colour paled towards the board's background
function paled(colour) {
  const hex = /^#([0-9a-f]{6})$/i.exec(colour);
  if (!hex) return colour;
  const rgb = [0, 2, 4].map((i) => parseInt(hex[1].slice(i, i + 2), 16));
  return "#" + rgb.map((c, i) => Math.round(PAPER[i] + (c - PAPER[i]) * TINT)
    .toString(16).padStart(2, "0")).join("");
}

function node(name, attributes = {}, parent = null) {
  const element = document.createElementNS(SVG, name);
  for (const [key, value] of Object.entries(attributes)) element.setAttribute(key, value);
  if (parent) parent.appendChild(element);
  return element;
}

// a region's full name in at most two lines, split at the space nearest its middle
function lines(name) {
  if (name.length <= 10 || !name.includes(" ")) return [name];
  const middle = name.length / 2;
  let best = name.indexOf(" ");
  for (let i = best; i >= 0; i = name.indexOf(" ", i + 1)) {
    if (Math.abs(i - middle) < Math.abs(best - middle)) best = i;
  }
  return [name.slice(0, best), name.slice(best + 1)];
}

export class Board {
  // map: DescribeVariant's GameMap (JSON; zero values are absent, hence the `?? 0`)
  constructor(container, map) {
    this.map = map;
    const box = map.viewBox || {};
    this.box = { x: box.x ?? 0, y: box.y ?? 0, w: box.width ?? 1000, h: box.height ?? 600 };
    this.svg = node("svg", {
      viewBox: `${this.box.x} ${this.box.y} ${this.box.w} ${this.box.h}`, class: "board",
      role: "group", "aria-label": "game board",
    });
    container.replaceChildren(this.svg);
    this.regions = (map.regions || []).map((region, index) => ({
      id: region.id ?? index, name: region.name || `#${index}`, group: region.group ?? -1,
      x: region.x ?? 0, y: region.y ?? 0, radius: region.radius || 12,
      outline: region.outline || [], kind: region.kind || "", colour: region.colour || "",
      adjacent: region.adjacent || [],
    }));
    this.groups = map.groups || [];
    // on a phone the board is drawn wide enough that its smallest region is a 44 px tap
    // target (app.css scrolls it sideways in its own box there)
    const least = Math.min(...this.regions.map((r) => r.radius));
    const wide = Math.ceil((this.box.w * 46) / (2 * least));
    this.svg.style.setProperty("--board-phone-width", `${Math.max(640, wide)}px`);
    this.shapes = new Map();
    this.onClick = () => {};
    // a region's words for a screen reader beyond its name (its owner and count), set by the
    // view that knows the seats' names
    this.describe = () => "";
    this.draw();
  }

  groupColour(region) {
    const group = this.groups[region.group];
    return paled(region.colour || group?.colour || "#c9c2a8");
  }

  draw() {
    const links = node("g", { class: "links" }, this.svg);
    for (const link of this.map.links || []) {
      const a = this.regions[link.a ?? 0], b = this.regions[link.b ?? 0];
      if (!a || !b) continue;
      if (link.wraps) {
        for (const [from, to] of [[a, b], [b, a]]) {
          const edge = from.x < this.box.x + this.box.w / 2 ? this.box.x : this.box.x + this.box.w;
          const toward = to.y + (from.y - to.y) / 2;
          node("line", { x1: from.x, y1: from.y, x2: edge, y2: toward, class: "link wraps" },
            links);
        }
      } else {
        node("line", { x1: a.x, y1: a.y, x2: b.x, y2: b.y, class: "link" }, links);
      }
    }
    for (const hub of this.map.hubs || []) {
      const ring = node("g", { class: "hub" }, links);
      for (const member of hub.members || []) {
        const r = this.regions[member];
        if (r) node("line", { x1: hub.x ?? 0, y1: hub.y ?? 0, x2: r.x, y2: r.y, class: "link hub" },
          ring);
      }
      node("circle", { cx: hub.x ?? 0, cy: hub.y ?? 0, r: hub.radius || 10, class: "hub" }, ring);
      node("title", {}, ring).textContent = hub.name || "hub";
    }
    const layer = node("g", { class: "regions" }, this.svg);
    for (const region of this.regions) {
      // keyboard (docs/web.md, "Keyboard"): one region of the board is in the tab order at a
      // time when none is highlighted (a roving tabindex), else every highlighted one is, so
      // Tab walks the regions a move can start from; arrow keys move to the nearest region
      // that way on the map, Enter or Space chooses it as a click does
      const group = node("g", {
        class: "region", "data-region": region.id, "data-name": region.name, role: "button",
        tabindex: region === this.regions[0] ? "0" : "-1", "aria-label": region.name,
      }, layer);
      const attributes = { class: "shape", fill: this.groupColour(region) };
      const shape = region.outline.length
        ? node("polygon", { ...attributes,
          points: region.outline.map((p) => `${p.x ?? 0},${p.y ?? 0}`).join(" ") }, group)
        : node("circle", { ...attributes, cx: region.x, cy: region.y, r: region.radius }, group);
      // the name and count drawn are the region's aria-label for a screen reader (show())
      const size = Math.max(region.radius * 0.5, 7);
      const label = node("text", { class: "label", "font-size": size * 0.8,
        "aria-hidden": "true" }, group);
      const named = lines(region.name);
      // a space between the lines and before the count (never drawn: white space at the end
      // of a line, and text outside a text element) so the words read "Northwest Territory 3"
      named.forEach((line, i) => {
        if (i) label.append(" ");
        node("tspan", { x: region.x }, label).textContent = line;
      });
      const piece = node("path", { class: "piece" }, group);
      group.append(" ");
      const count = node("text", {
        class: "count", x: region.x, y: region.y + size * 0.35, "font-size": size,
        "aria-hidden": "true" }, group);
      node("title", {}, group).textContent = region.name;
      group.addEventListener("click", () => this.onClick(region.id));
      group.addEventListener("keydown", (e) => this.key(e, region));
      this.shapes.set(region.id, { group, shape, piece, count, label, region });
    }
    this.placeLabels();
  }

  // Each region's name goes below its circle where it is clear of the other regions and of
  // the names already placed, else above, right or left of it, else the same at a smaller
  // size, else where it overlaps least (a name below a circle ran into the next region's
  // circle on classic's map: "Northwest Territory" into Alberta's).
  placeLabels() {
    const circles = [...this.shapes.values()].map(({ region: r }) => ({ id: r.id,
      box: { l: r.x - r.radius, r: r.x + r.radius, t: r.y - r.radius, b: r.y + r.radius } }));
    const placed = [];
    const overlap = (a, b) => Math.max(0, Math.min(a.r, b.r) - Math.max(a.l, b.l)) *
      Math.max(0, Math.min(a.b, b.b) - Math.max(a.t, b.t));
    const inside = (a) => a.l >= this.box.x && a.r <= this.box.x + this.box.w &&
      a.t >= this.box.y && a.b <= this.box.y + this.box.h;
    for (const { region: r, label } of this.shapes.values()) {
      const base = Math.max(r.radius * 0.5, 7) * 0.8;
      const named = lines(r.name);
      const measured = this.svg.isConnected ? label.getBBox().width : 0;
      let best = null;
      for (const scale of [1, 0.85, 0.72, 0.62]) {
        const fs = base * scale;
        // the drawn width where the browser lays the board out, else an estimate per letter
        const w = measured ? measured * scale
          : Math.max(...named.map((line) => line.length)) * fs * 0.58;
        // a line's box is about 1.2 of the font's size (ascent and descent) and lines are
        // 1.05 apart
        const h = (named.length - 1) * 1.05 * fs + 1.3 * fs, gap = 0.25 * fs;
        const spots = [
          ["middle", r.x, r.y + r.radius + gap], ["middle", r.x, r.y - r.radius - gap - h],
          ["start", r.x + r.radius + gap, r.y - h / 2], ["end", r.x - r.radius - gap, r.y - h / 2],
        ];
        for (const [anchor, x, top] of spots) {
          const left = anchor === "middle" ? x - w / 2 : anchor === "start" ? x : x - w;
          const box = { l: left, r: left + w, t: top, b: top + h };
          let cost = placed.reduce((sum, other) => sum + overlap(box, other), 0) +
            circles.reduce((sum, c) => sum + (c.id === r.id ? 0 : overlap(box, c.box)), 0);
          if (!inside(box)) cost += w * h;
          if (!best || cost < best.cost) best = { cost, anchor, x, top, fs, box };
          if (!cost) break;
        }
        if (!best.cost) break;
      }
      placed.push(best.box);
      label.setAttribute("font-size", best.fs.toFixed(2));
      // the stylesheet's text-anchor would win over the attribute: the style object sets it
      label.style.textAnchor = best.anchor;
      label.setAttribute("x", best.x.toFixed(2));
      label.setAttribute("y", (best.top + 1.0 * best.fs).toFixed(2));
      [...label.querySelectorAll("tspan")].forEach((span, i) => {
        span.setAttribute("x", best.x.toFixed(2));
        span.setAttribute("dy", i ? "1.05em" : "0");
      });
    }
  }

  // pieces: per region {owner (seat, -1 none, players = neutral), count, mark}
  show(pieces, players) {
    for (const [id, parts] of this.shapes) {
      const at = pieces[id] || { owner: -1, count: 0 };
      const [colour, look] = at.owner < 0 ? ["none", "circle"] : seatLook(at.owner, players);
      const r = Math.max(parts.region.radius * 0.6, 6.5);
      parts.piece.setAttribute("d", shapePath(look, parts.region.x, parts.region.y, r));
      parts.piece.setAttribute("fill", colour);
      parts.group.dataset.shape = at.owner < 0 ? "" : look;
      parts.piece.style.display = at.owner < 0 && !at.count ? "none" : "";
      parts.count.textContent = at.count ? String(at.count) + (at.mark || "") : (at.mark || "");
      parts.group.dataset.owner = String(at.owner);
      parts.group.dataset.count = String(at.count || 0);
      // the name a screen reader says starts with the words shown (WCAG 2.5.3)
      const shown = [parts.region.name, parts.count.textContent].filter(Boolean).join(" ");
      const more = this.describe(at);
      parts.group.setAttribute("aria-label", more ? `${shown}, ${more}` : shown);
    }
  }

  key(event, region) {
    if (event.key === "Enter" || event.key === " ") {
      event.preventDefault();
      this.onClick(region.id);
      return;
    }
    const way = { ArrowLeft: [-1, 0], ArrowRight: [1, 0], ArrowUp: [0, -1], ArrowDown: [0, 1] }[
      event.key];
    if (!way) return;
    event.preventDefault();
    const next = this.toward(region, way);
    if (next) this.focus(next.id);
  }

  // the region nearest `from` in direction `way` ([dx, dy]): the least distance along the
  // way plus twice the distance across it, among regions lying that way
  toward(from, [dx, dy]) {
    let best = null, score = Infinity;
    for (const r of this.regions) {
      const along = (r.x - from.x) * dx + (r.y - from.y) * dy;
      if (r === from || along <= 0) continue;
      const across = Math.abs((r.x - from.x) * dy - (r.y - from.y) * dx);
      if (along + 2 * across < score) { best = r; score = along + 2 * across; }
    }
    return best;
  }

  focus(id) {
    const parts = this.shapes.get(id);
    if (!parts) return;
    if (parts.group.getAttribute("tabindex") !== "0") {
      // roving: the region reached by an arrow is the board's place in the tab order
      for (const other of this.shapes.values()) {
        if (!other.group.classList.contains("clickable")) other.group.setAttribute("tabindex", "-1");
      }
      parts.group.setAttribute("tabindex", "0");
    }
    parts.group.focus();
  }

  // which regions may be clicked now, and which one is selected
  mark(clickable, selected = null, targets = new Set()) {
    let any = false;
    for (const [id, parts] of this.shapes) {
      const on = clickable.has(id) || targets.has(id);
      parts.group.classList.toggle("clickable", on);
      parts.group.classList.toggle("selected", id === selected);
      parts.group.classList.toggle("target", targets.has(id));
      parts.group.setAttribute("aria-pressed", String(id === selected));
      parts.group.setAttribute("tabindex", on || id === selected ? "0" : "-1");
      any ||= on || id === selected;
    }
    if (!any) {
      // nothing to choose: the focused region (else the first) keeps the board in the tab order
      const focused = [...this.shapes.values()].find((p) => p.group === document.activeElement);
      (focused || this.shapes.values().next().value)?.group.setAttribute("tabindex", "0");
    }
  }

  // regions out of play with this many players (Deep Space's covered planets) are dimmed
  layout(players) {
    const layout = (this.map.layouts || []).find((l) => (l.players ?? 0) === players);
    const out = new Set(layout?.outOfPlay || []);
    for (const [id, parts] of this.shapes) parts.group.classList.toggle("out", out.has(id));
  }

  name(id) { return this.regions[id]?.name ?? `#${id}`; }
}
