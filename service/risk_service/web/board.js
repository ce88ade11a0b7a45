// The board as SVG, drawn only from DescribeVariant's map: each region is its outline polygon
// (or its circle), links are lines between centres (a link that wraps round the board is two
// stubs towards the nearer edges), hubs are rings. What stands on a region (its owner's colour,
// a count) comes from a reading of the game's view (pieces.js), so one drawing serves all
// variants. Regions carry data-region so clicks and tests can find them.

const SVG = "http://www.w3.org/2000/svg";

export const SEAT_COLOURS = ["#d33c3c", "#2f6fd6", "#2e9b4f", "#d69a1f", "#8a4fc9", "#1fa3a3"];
export const NEUTRAL_COLOUR = "#8c8c8c";

function node(name, attributes = {}, parent = null) {
  const element = document.createElementNS(SVG, name);
  for (const [key, value] of Object.entries(attributes)) element.setAttribute(key, value);
  if (parent) parent.appendChild(element);
  return element;
}

function short(name) {
  const words = name.split(/[\s-]+/).filter(Boolean);
  return words.length > 1 ? words.map((w) => w[0]).join("").slice(0, 3).toUpperCase()
    : name.slice(0, 4);
}

export class Board {
  // map: DescribeVariant's GameMap (JSON; zero values are absent, hence the `?? 0`)
  constructor(container, map) {
    this.map = map;
    const box = map.viewBox || {};
    this.box = { x: box.x ?? 0, y: box.y ?? 0, w: box.width ?? 1000, h: box.height ?? 600 };
    this.svg = node("svg", {
      viewBox: `${this.box.x} ${this.box.y} ${this.box.w} ${this.box.h}`, class: "board",
      role: "img", "aria-label": "game board",
    });
    container.replaceChildren(this.svg);
    this.regions = (map.regions || []).map((region, index) => ({
      id: region.id ?? index, name: region.name || `#${index}`, group: region.group ?? -1,
      x: region.x ?? 0, y: region.y ?? 0, radius: region.radius || 12,
      outline: region.outline || [], kind: region.kind || "", colour: region.colour || "",
      adjacent: region.adjacent || [],
    }));
    this.groups = map.groups || [];
    this.shapes = new Map();
    this.onClick = () => {};
    this.draw();
  }

  groupColour(region) {
    const group = this.groups[region.group];
    return region.colour || group?.colour || "#c9c2a8";
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
      const group = node("g", {
        class: "region", "data-region": region.id, "data-name": region.name, tabindex: "0",
      }, layer);
      const attributes = { class: "shape", fill: this.groupColour(region) };
      const shape = region.outline.length
        ? node("polygon", { ...attributes,
          points: region.outline.map((p) => `${p.x ?? 0},${p.y ?? 0}`).join(" ") }, group)
        : node("circle", { ...attributes, cx: region.x, cy: region.y, r: region.radius }, group);
      const piece = node("circle", {
        class: "piece", cx: region.x, cy: region.y, r: Math.max(region.radius * 0.55, 6),
      }, group);
      const size = Math.max(region.radius * 0.5, 7);
      const count = node("text", {
        class: "count", x: region.x, y: region.y + size * 0.35, "font-size": size,
      }, group);
      const label = node("text", {
        class: "label", x: region.x, y: region.y + region.radius + size * 0.9,
        "font-size": size * 0.8,
      }, group);
      label.textContent = short(region.name);
      node("title", {}, group).textContent = region.name;
      group.addEventListener("click", () => this.onClick(region.id));
      group.addEventListener("keydown", (e) => { if (e.key === "Enter") this.onClick(region.id); });
      this.shapes.set(region.id, { group, shape, piece, count });
    }
  }

  // pieces: per region {owner (seat, -1 none, players = neutral), count, mark}
  show(pieces, players) {
    for (const [id, parts] of this.shapes) {
      const at = pieces[id] || { owner: -1, count: 0 };
      const colour = at.owner < 0 ? "none"
        : at.owner >= players ? NEUTRAL_COLOUR : SEAT_COLOURS[at.owner % SEAT_COLOURS.length];
      parts.piece.setAttribute("fill", colour);
      parts.piece.style.display = at.owner < 0 && !at.count ? "none" : "";
      parts.count.textContent = at.count ? String(at.count) + (at.mark || "") : (at.mark || "");
      parts.group.dataset.owner = String(at.owner);
      parts.group.dataset.count = String(at.count || 0);
    }
  }

  // which regions may be clicked now, and which one is selected
  mark(clickable, selected = null, targets = new Set()) {
    for (const [id, parts] of this.shapes) {
      parts.group.classList.toggle("clickable", clickable.has(id) || targets.has(id));
      parts.group.classList.toggle("selected", id === selected);
      parts.group.classList.toggle("target", targets.has(id));
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
