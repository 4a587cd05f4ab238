// The invoicing service's client, its errors and its shapes. callback-signature.server.ts (node:crypto) is imported directly.
export * from "./schemas";
export * from "./errors";
export * from "./client";
