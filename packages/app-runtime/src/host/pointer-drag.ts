// One pointer drag: the handle captures the pointer (so the moves keep coming while it passes
// over an iframe, which would otherwise swallow them), reports the offset from where it started,
// and ends on release or cancel. While it lasts, `area` carries the `gesture` class (a stylesheet
// turns off pointer events on the iframes under it).

export interface DragHandlers {
  move(dx: number, dy: number): void;
  end(): void;
}

/** Starts a drag from a `pointerdown` on `event.currentTarget`; primary button only. */
export function pointerDrag(event: PointerEvent, area: HTMLElement, handlers: DragHandlers): void {
  if (event.button !== 0) return;
  const handle = event.currentTarget;
  if (!(handle instanceof Element)) return;
  event.preventDefault();
  handle.setPointerCapture(event.pointerId);
  area.classList.add("gesture");
  const done = new AbortController();
  const options = { signal: done.signal };
  const finish = (): void => {
    done.abort();
    area.classList.remove("gesture");
    handlers.end();
  };
  handle.addEventListener(
    "pointermove",
    (e) => {
      const moved = e as PointerEvent;
      handlers.move(moved.clientX - event.clientX, moved.clientY - event.clientY);
    },
    options,
  );
  handle.addEventListener("pointerup", finish, options);
  handle.addEventListener("pointercancel", finish, options);
}
