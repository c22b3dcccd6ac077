// The in-page halves of a11y-checks.ts: plain browser functions Playwright runs in the page
// (page.evaluate sends their source), so they are JavaScript, outside the Node type check.
/* global document, getComputedStyle, NodeFilter -- run in the page */

/** Visible controls with no accessible name, as short HTML excerpts. */
export function unlabelledInPage() {
  const visible = (el) => {
    const box = el.getBoundingClientRect();
    const style = getComputedStyle(el);
    return box.width > 0 && box.height > 0 && style.visibility !== "hidden";
  };
  const nameOf = (el) => {
    const labelledBy = el.getAttribute("aria-labelledby");
    if (labelledBy) {
      return labelledBy
        .split(/\s+/)
        .map((id) => document.getElementById(id)?.textContent ?? "")
        .join(" ")
        .trim();
    }
    const aria = el.getAttribute("aria-label");
    if (aria) return aria.trim();
    const labels = el.labels;
    if (labels && labels.length > 0)
      return [...labels]
        .map((l) => l.textContent ?? "")
        .join(" ")
        .trim();
    const text = (el.textContent ?? "").trim();
    if (text) return text;
    const img = el.querySelector("img[alt]");
    if (img) return (img.getAttribute("alt") ?? "").trim();
    return (el.getAttribute("title") ?? el.placeholder ?? "").trim();
  };
  const controls = document.querySelectorAll(
    "button, a[href], input:not([type=hidden]), select, textarea, [role=button], [tabindex]:not([tabindex='-1'])",
  );
  return [...controls]
    .filter((el) => visible(el) && nameOf(el) === "")
    .map((el) => `<${el.tagName.toLowerCase()} ${el.outerHTML.slice(0, 120)}>`);
}

/** Text under WCAG AA contrast, with its ratio, text and colours. */
export function lowContrastInPage() {
  const parse = (c) => {
    const m = /rgba?\(([^)]+)\)/.exec(c);
    if (!m) return [0, 0, 0, 0];
    const parts = m[1]
      .split(/[\s,/]+/)
      .filter(Boolean)
      .map(Number);
    return [parts[0], parts[1], parts[2], parts.length > 3 ? parts[3] : 1];
  };
  const luminance = ([r, g, b]) => {
    const lin = (v) => {
      const s = v / 255;
      return s <= 0.03928 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
    };
    return 0.2126 * lin(r) + 0.7152 * lin(g) + 0.0722 * lin(b);
  };
  const background = (el) => {
    for (let at = el; at; at = at.parentElement) {
      const bg = parse(getComputedStyle(at).backgroundColor);
      if (bg[3] >= 0.99) return [bg[0], bg[1], bg[2]];
    }
    return [255, 255, 255];
  };
  const failures = [];
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  const seen = new Set();
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    const el = node.parentElement;
    if (!el || seen.has(el) || (node.textContent ?? "").trim() === "") continue;
    seen.add(el);
    const box = el.getBoundingClientRect();
    const style = getComputedStyle(el);
    if (box.width === 0 || box.height === 0 || style.visibility === "hidden") continue;
    if (el.closest("[disabled], [aria-disabled=true], .visually-hidden, noscript")) continue;
    const fg = parse(style.color);
    if (fg[3] < 0.99) continue; // a translucent colour blends; judged where it is opaque
    const bg = background(el);
    const [l1, l2] = [luminance(fg), luminance(bg)].sort((a, b) => b - a);
    const ratio = (l1 + 0.05) / (l2 + 0.05);
    const size = Number.parseFloat(style.fontSize);
    const large = size >= 24 || (size >= 18.66 && Number(style.fontWeight) >= 700);
    if (ratio < (large ? 3 : 4.5)) {
      failures.push(
        `${ratio.toFixed(2)}:1 "${(node.textContent ?? "").trim().slice(0, 40)}" <${el.tagName.toLowerCase()} class="${el.className}"> ${style.color} on rgb(${bg.join(", ")})`,
      );
    }
  }
  return failures;
}

/** The focused element: a key to spot the loop, whether a focus indicator shows, what it is. */
export function focusedInPage() {
  const el = document.activeElement;
  if (!el || el === document.body) return null;
  const style = getComputedStyle(el);
  const outlined = style.outlineStyle !== "none" && Number.parseFloat(style.outlineWidth) > 0;
  const shadowed = style.boxShadow !== "none";
  return {
    key: el.outerHTML.slice(0, 80),
    shown: outlined || shadowed,
    what: `<${el.tagName.toLowerCase()}> "${(el.textContent ?? el.getAttribute("aria-label") ?? "").trim().slice(0, 30)}"`,
  };
}

/** For the checks' own test: one unlabelled button, faint text, a link whose focus shows nothing. */
export function plantFailuresInPage() {
  const main = document.querySelector("main");
  const icon = document.createElement("button");
  const faint = document.createElement("p");
  faint.textContent = "faint words";
  faint.style.color = "#bbbbbb";
  const hidden = document.createElement("a");
  hidden.href = "#x";
  hidden.textContent = "no ring";
  hidden.style.outline = "none";
  main.prepend(icon, faint, hidden);
}
