// Building the page: an element with its attributes, listeners and children in one call, and
// the words a game status is shown with.

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

export const statusWord = (status) => String(status || "").replace("GAME_STATUS_", "")
  .toLowerCase();
