// Structured JSON logs (pino). Secrets are redacted by path wherever they might be passed by mistake.
import pino from "pino";
import { logLevel } from "./env.server";

export const logger = pino({
  level: logLevel(),
  base: { service: "e-fatura" },
  redact: {
    paths: [
      "apiKey",
      "*.apiKey",
      "api_key",
      "*.api_key",
      "authorization",
      "*.authorization",
      "headers.authorization",
      "accessToken",
      "*.accessToken",
      "refreshToken",
      "*.refreshToken",
      "access_token",
      "*.access_token",
      "refresh_token",
      "*.refresh_token",
      "client_secret",
      "*.client_secret",
    ],
    censor: "[secret]",
  },
});

export type Logger = typeof logger;
