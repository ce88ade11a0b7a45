// Building the page: an element with its attributes, listeners and children in one call, a
// part of the page drawn again only where it changed, and the words a game status is shown
// with.

export function el(tag, attributes = {}, ...children) {
  const element = document.createElement(tag);
  for (const [key, value] of Object.entries(attributes)) {
    if (key.startsWith("on")) element.addEventListener(key.slice(2), value);
    // the page's policy allows no inline style attribute; the style object is allowed
    else if (key === "style") Object.assign(element.style, value);
    else if (value !== undefined && value !== null && value !== false) {
      element.setAttribute(key, value === true ? "" : value);
    }
  }
  element.append(...children.filter((c) => c !== null && c !== undefined));
  return element;
}

// Puts `children` in `parent` in place of what it holds, keeping every child shown that would
// show the same at its place (the same markup, read off what is shown now, so a button
// disabled since it was drawn is drawn again): only the children that differ are replaced,
// those past the old end appended, those past the new end removed. A part redrawn on every
// event otherwise replaces the button under a finger between its press and its release, and
// the browser then sends no click (the tap does nothing); it would also lose what was typed
// into a field. Listeners are not markup: whoever draws must give children that look the same
// the same listeners (a button labelled with its action).
export function redraw(parent, ...children) {
  const shown = [...parent.childNodes];
  const kids = children.filter((c) => c !== null && c !== undefined)
    .map((kid) => (typeof kid === "string" ? document.createTextNode(kid) : kid));
  kids.forEach((kid, i) => {
    const old = shown[i];
    if (old === undefined) {
      parent.append(kid);
    } else if (old !== kid && (old.nodeType !== kid.nodeType || markup(old) !== markup(kid))) {
      old.replaceWith(kid);
    }
  });
  for (const surplus of shown.slice(kids.length)) surplus.remove();
}

// An element filled in after it is drawn (a card whose hosting line a later read adds)
// counts as what it showed when drawn: `drawnAs` records that, and `redraw` compares it.
const drawn = new WeakMap();

export function drawnAs(element) {
  drawn.set(element, element.outerHTML);
  return element;
}

const markup = (node) => drawn.get(node) ?? node.outerHTML ?? node.textContent;

export const statusWord = (status) => String(status || "").replace("GAME_STATUS_", "")
  .toLowerCase();
