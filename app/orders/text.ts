// Name matching for note attributes, gateways and carriers: merchants and checkout apps spell the same
// name many ways ("Vergi Numarası", "VERGİ NO", "vergi_numarasi"), so compare a folded form.

/** Lower case, Turkish dotted/dotless i folded to i, accents and every non-alphanumeric removed. */
export function foldName(value: string): string {
  return value
    .replace(/[İIı]/g, "i")
    .normalize("NFD")
    .replace(/[\u0300-\u036f]/g, "")
    .toLowerCase()
    .replace(/[^a-z0-9]/g, "");
}

/** Trimmed text, or undefined when empty. */
export function clean(value: string | null | undefined): string | undefined {
  const trimmed = value?.replace(/\s+/g, " ").trim();
  return trimmed ? trimmed : undefined;
}

// Settings are read for every order; their folded names are computed once per settings list.
const foldedLists = new WeakMap<object, string[]>();

export function foldAll<T>(list: readonly T[], name: (item: T) => string): string[] {
  let folded = foldedLists.get(list);
  if (!folded) {
    folded = list.map((item) => foldName(name(item)));
    foldedLists.set(list, folded);
  }
  return folded;
}
