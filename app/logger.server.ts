// Structured JSON logs (pino). Secrets are redacted by path wherever they might be passed by mistake.
import pino from "pino";

export const logger = pino({
  level: process.env.LOG_LEVEL ?? (process.env.NODE_ENV === "test" ? "silent" : "info"),
  base: { service: "e-fatura" },
  redact: {
    paths: ["apiKey", "*.apiKey", "api_key", "*.api_key", "authorization", "*.authorization", "headers.authorization", "accessToken", "*.accessToken"],
    censor: "[secret]",
  },
});

export type Logger = typeof logger;
