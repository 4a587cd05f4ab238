import { useState } from "react";

/**
 * `value` during the render in which it first differs from the one seen before (else undefined), so a component
 * adjusts its state to a new fetcher answer or a new loader value while rendering, as React's "adjusting state when
 * a prop changes" does, instead of in an effect that renders the page a second time. Toasts, focus and navigation
 * stay in effects: only state is set from it.
 */
export function useFreshValue<T>(value: T | undefined): T | undefined {
  const [seen, setSeen] = useState<T | undefined>(value);
  if (value === seen) return undefined;
  setSeen(value);
  return value;
}
