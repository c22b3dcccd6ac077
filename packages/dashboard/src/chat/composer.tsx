// The message box: Enter sends, Shift+Enter is a new line, and nothing is sent while a turn
// runs. Typing `#` lists the user's enabled apps, `@` their enabled executas; the list is a
// listbox the textarea points into with aria-activedescendant, driven by the keyboard (arrows
// move, Enter or Tab take the option, Escape closes) or the mouse. Files come from the Attach
// button or dropped on the composer; they show as chips until sent with the message.
import { useQuery } from "@tanstack/react-query";
import {
  type DragEvent,
  type FormEvent,
  type KeyboardEvent,
  useId,
  useMemo,
  useRef,
  useState,
} from "react";
import type { Outgoing } from "../api/chat";
import { api } from "../api/client";
import { AttachmentChips, formatBytes } from "./attachment-chips";
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

/** The server's limits (nexus chat-attachments.ts), checked here so a chip is refused at once. */
export const ATTACHMENT_MAX_BYTES = 20 * 1024 * 1024;
export const ATTACHMENTS_PER_MESSAGE_MAX = 10;

interface Chosen {
  key: string;
  file: File;
}

let chosenSeq = 0;

export function Composer({
  busy,
  onSend,
}: {
  /** A turn is running (or being started): the box stays editable, Send does not. */
  busy: boolean;
  onSend: (outgoing: Outgoing) => void;
}) {
  const [text, setText] = useState("");
  const [files, setFiles] = useState<Chosen[]>([]);
  const [fileError, setFileError] = useState<string | null>(null);
  const [dropping, setDropping] = useState(false);
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

  const addFiles = (list: FileList | null) => {
    if (!list || list.length === 0) return;
    const next = [...files];
    const refused: string[] = [];
    for (const file of Array.from(list)) {
      if (file.size > ATTACHMENT_MAX_BYTES) {
        refused.push(
          `${file.name} is ${formatBytes(file.size)}, over the ${formatBytes(ATTACHMENT_MAX_BYTES)} limit`,
        );
      } else if (next.length >= ATTACHMENTS_PER_MESSAGE_MAX) {
        refused.push(
          `${file.name}: a message carries at most ${ATTACHMENTS_PER_MESSAGE_MAX} files`,
        );
      } else next.push({ key: `f${++chosenSeq}`, file });
    }
    setFiles(next);
    setFileError(refused.length > 0 ? `Not attached: ${refused.join("; ")}.` : null);
  };

  const onDragOver = (e: DragEvent) => {
    if (!e.dataTransfer.types.includes("Files")) return;
    e.preventDefault();
    setDropping(true);
  };
  const onDrop = (e: DragEvent) => {
    e.preventDefault();
    setDropping(false);
    addFiles(e.dataTransfer.files);
  };

  const send = () => {
    const message = text.trim();
    if (busy || message === "") return;
    onSend({ text: message, files: files.map((f) => f.file) });
    setText("");
    setFiles([]);
    setFileError(null);
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
    <form
      className={`composer${dropping ? " dropping" : ""}`}
      onSubmit={onSubmit}
      onDragOver={onDragOver}
      onDragLeave={() => setDropping(false)}
      onDrop={onDrop}
    >
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
      <div className="composer-attach">
        <label className="attach-button">
          Attach files
          <input
            type="file"
            multiple
            className="visually-hidden"
            onChange={(e) => {
              addFiles(e.target.files);
              e.target.value = "";
            }}
          />
        </label>
        {files.length > 0 && (
          <AttachmentChips
            label="Files to send"
            items={files.map((f) => ({ key: f.key, name: f.file.name, bytes: f.file.size }))}
            onRemove={(key) => setFiles(files.filter((f) => f.key !== key))}
          />
        )}
        {fileError && (
          <p className="error" role="alert">
            {fileError}
          </p>
        )}
      </div>
      <p id={`${listId}-hint`} className="meta composer-hint">
        {busy
          ? "Anna is answering; you can send again when the answer ends."
          : "Enter sends, Shift+Enter starts a new line. Drop files here to attach them."}
      </p>
    </form>
  );
}
