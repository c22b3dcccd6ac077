// Files as chips: the composer's chosen files (each with a Remove button) and the files a sent
// message carries. A list, so a screen reader says how many there are.

export interface Chip {
  key: string;
  name: string;
  bytes: number;
}

/** `1.2 MB`, `340 KB`, `12 B`: enough to tell files apart, not an exact count. */
export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${Math.round(bytes / 1024)} KB`;
  return `${(bytes / (1024 * 1024)).toFixed(1)} MB`;
}

export function AttachmentChips({
  label,
  items,
  onRemove,
}: {
  label: string;
  items: readonly Chip[];
  onRemove?: (key: string) => void;
}) {
  return (
    <ul className="attachment-chips" aria-label={label}>
      {items.map((c) => (
        <li key={c.key} className="attachment-chip">
          <span className="attachment-name">{c.name}</span>{" "}
          <span className="meta">{formatBytes(c.bytes)}</span>
          {onRemove && (
            <button
              type="button"
              className="chip-remove"
              aria-label={`Remove ${c.name}`}
              onClick={() => onRemove(c.key)}
            >
              ×
            </button>
          )}
        </li>
      ))}
    </ul>
  );
}
