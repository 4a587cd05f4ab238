// Text for a fixed-width console column: cut at a word boundary, never inside a word, with an ellipsis.

/** `text` with runs of whitespace made single spaces, at most `max` characters long, ending in "…" when cut. */
export function shorten(text: string, max: number): string {
  const flat = text.replace(/\s+/g, " ").trim();
  if (flat.length <= max) return flat;
  const room = flat.slice(0, max); // the last character gives way to the ellipsis
  const space = room.lastIndexOf(" ");
  // One word longer than the column: cut it (there is no boundary to cut at).
  const kept = space > 0 ? room.slice(0, space) : room.slice(0, max - 1);
  return `${kept.replace(/[\s,;:.–-]+$/, "")}…`;
}
