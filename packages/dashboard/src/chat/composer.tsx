// The message box: Enter sends, Shift+Enter is a new line, and nothing is sent while a turn
// runs. Typing `#` lists the user's enabled apps, `@` their enabled executas; the list is a
// listbox the textarea points into with aria-activedescendant, driven by the keyboard (arrows
// move, Enter or Tab take the option, Escape closes) or the mouse.
import { useQuery } from "@tanstack/react-query";
import { type FormEvent, type KeyboardEvent, useId, useMemo, useRef, useState } from "react";
import { api } from "../api/client";
import type { MyApp } from "../api/types";
import {
  type MentionOption,
  type MentionQuery,
  applyMention,
  matchOptions,
  mentionAt,
} from "./mention";

interface MyExecuta {
  tool_id: string;
  name: string | null;
  description: string | null;
  enabled: boolean;
}

function useMentionSources() {
  const apps = useQuery({
    queryKey: ["me", "apps"],
    queryFn: () => api<MyApp[]>("GET", "/me/apps"),
  });
  const executas = useQuery({
    queryKey: ["me", "executas"],
    queryFn: () => api<MyExecuta[]>("GET", "/me/executas"),
  });
  return useMemo(
    () => ({
      "#": (apps.data ?? [])
        .filter((a) => a.enabled)
        .map((a): MentionOption => ({ value: a.slug, label: a.name, detail: a.tagline })),
      "@": (executas.data ?? [])
        .filter((e) => e.enabled)
        .map((e): MentionOption => ({
          value: e.tool_id,
          label: e.name ?? e.tool_id,
          detail: e.description,
        })),
    }),
    [apps.data, executas.data],
  );
}

export function Composer({
  busy,
  onSend,
}: {
  /** A turn is running (or being started): the box stays editable, Send does not. */
  busy: boolean;
  onSend: (text: string) => void;
}) {
  const [text, setText] = useState("");
  const [query, setQuery] = useState<MentionQuery | null>(null);
  const [active, setActive] = useState(0);
  const box = useRef<HTMLTextAreaElement>(null);
  const listId = useId();
  const sources = useMentionSources();
  const options = query ? matchOptions(sources[query.sigil], query.typed) : [];
  const open = query !== null && options.length > 0;
  const activeIndex = Math.min(active, options.length - 1);

  const track = (value: string, caret: number) => {
    const q = mentionAt(value, caret);
    setQuery(q);
    if (q?.sigil !== query?.sigil || q?.start !== query?.start) setActive(0);
  };

  const choose = (option: MentionOption) => {
    if (!query) return;
    const next = applyMention(text, query, option.value);
    setText(next.text);
    setQuery(null);
    queueMicrotask(() => {
      box.current?.focus();
      box.current?.setSelectionRange(next.caret, next.caret);
    });
  };

  const send = () => {
    const message = text.trim();
    if (busy || message === "") return;
    onSend(message);
    setText("");
    setQuery(null);
  };

  const onKeyDown = (e: KeyboardEvent<HTMLTextAreaElement>) => {
    if (open) {
      if (e.key === "ArrowDown" || e.key === "ArrowUp") {
        e.preventDefault();
        const step = e.key === "ArrowDown" ? 1 : -1;
        setActive((activeIndex + step + options.length) % options.length);
        return;
      }
      if ((e.key === "Enter" && !e.shiftKey) || e.key === "Tab") {
        e.preventDefault();
        const option = options[activeIndex];
        if (option) choose(option);
        return;
      }
      if (e.key === "Escape") {
        e.preventDefault();
        setQuery(null);
        return;
      }
    }
    if (e.key === "Enter" && !e.shiftKey && !e.nativeEvent.isComposing) {
      e.preventDefault();
      send();
    }
  };

  const onSubmit = (e: FormEvent) => {
    e.preventDefault();
    send();
  };

  const optionId = (i: number) => `${listId}-option-${i}`;
  return (
    <form className="composer" onSubmit={onSubmit}>
      <label htmlFor={`${listId}-box`} className="visually-hidden">
        Message
      </label>
      <div className="composer-field">
        {open && (
          <ul
            className="mention-list"
            role="listbox"
            id={listId}
            aria-label={query.sigil === "#" ? "Your apps" : "Your executas"}
          >
            {options.map((o, i) => (
              <li
                key={o.value}
                id={optionId(i)}
                role="option"
                aria-selected={i === activeIndex}
                // mousedown, not click: a click would blur the box first and close the list.
                onMouseDown={(e) => {
                  e.preventDefault();
                  choose(o);
                }}
              >
                <span className="mention-value">
                  {query.sigil}
                  {o.value}
                </span>{" "}
                <span className="meta">{o.label}</span>
              </li>
            ))}
          </ul>
        )}
        <textarea
          id={`${listId}-box`}
          ref={box}
          rows={3}
          value={text}
          placeholder="Message Anna (#app, @executa; Shift+Enter for a new line)"
          aria-autocomplete="list"
          aria-controls={open ? listId : undefined}
          aria-activedescendant={open ? optionId(activeIndex) : undefined}
          aria-describedby={`${listId}-hint`}
          onChange={(e) => {
            setText(e.target.value);
            track(e.target.value, e.target.selectionStart);
          }}
          onSelect={(e) => track(e.currentTarget.value, e.currentTarget.selectionStart)}
          onBlur={() => setQuery(null)}
          onKeyDown={onKeyDown}
        />
      </div>
      <button type="submit" className="primary" disabled={busy || text.trim() === ""}>
        Send
      </button>
      <p id={`${listId}-hint`} className="meta composer-hint">
        {busy
          ? "Anna is answering; you can send again when the answer ends."
          : "Enter sends, Shift+Enter starts a new line."}
      </p>
    </form>
  );
}
