// The write-back's Admin API access: the shop's offline token through the app's Admin API client.
import type { WriteBackDeps } from "./run.server";

export function defaultWriteBackDeps(): Omit<WriteBackDeps, "now"> {
  return {
    adminFor: async () => null,
    classify: () => "transient",
  };
}
