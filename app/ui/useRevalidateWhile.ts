// Keeps a page live while an invoice on it may still change by itself (queued, sending, processing):
// re-runs the loaders every few seconds, never on top of a navigation or another revalidation.
import { useEffect } from "react";
import { useNavigation, useRevalidator } from "@remix-run/react";

export const REVALIDATE_MS = 3000;

export function useRevalidateWhile(active: boolean, intervalMs = REVALIDATE_MS): void {
  const revalidator = useRevalidator();
  const navigation = useNavigation();
  useEffect(() => {
    if (!active) return;
    const timer = setInterval(() => {
      if (revalidator.state === "idle" && navigation.state === "idle") revalidator.revalidate();
    }, intervalMs);
    return () => clearInterval(timer);
  }, [active, intervalMs, revalidator, navigation.state]);
}
