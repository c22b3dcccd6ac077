// One pointer drag: the handle captures the pointer (so the moves keep coming while it passes
// over an iframe, which would otherwise swallow them), reports the offset from where it started,
// and ends on release or cancel. While it lasts, `area` carries the `gesture` class (the
// stylesheet turns off pointer events on iframes under it).

/** Starts a drag from a `pointerdown` on `event.currentTarget`; primary button only. */
export function pointerDrag(event, area, { move, end }) {
  if (event.button !== 0) return;
  event.preventDefault();
  const handle = event.currentTarget;
  handle.setPointerCapture(event.pointerId);
  area.classList.add("gesture");
  const done = new AbortController();
  const options = { signal: done.signal };
  const finish = () => {
    done.abort();
    area.classList.remove("gesture");
    end();
  };
  handle.addEventListener(
    "pointermove",
    (e) => move(e.clientX - event.clientX, e.clientY - event.clientY),
    options,
  );
  handle.addEventListener("pointerup", finish, options);
  handle.addEventListener("pointercancel", finish, options);
}
