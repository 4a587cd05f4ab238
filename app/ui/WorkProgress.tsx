// A long job's progress (a past-orders run, an accountant package): the bar, filled by what is settled of the total,
// and the sentence that says it (its id lets tests and screen readers find it).
import type { ReactNode } from "react";
import { ProgressBar, Text, type ProgressBarProps } from "@shopify/polaris";

export interface WorkProgressProps {
  /** Items finished either way (done, failed, needing attention). */
  settled: number;
  /** Items in all; 0 while they are still being counted. */
  total: number;
  tone?: ProgressBarProps["tone"];
  animated?: boolean;
  id: string;
  children: ReactNode;
}

export function WorkProgress({ settled, total, tone, animated, id, children }: WorkProgressProps) {
  const percent = total > 0 ? Math.round((settled / total) * 100) : 0;
  return (
    <>
      <ProgressBar progress={percent} tone={tone} animated={animated} />
      <Text as="p" id={id}>
        {children}
      </Text>
    </>
  );
}
