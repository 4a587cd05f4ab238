// Loads the fixture orders and the context each is mapped in (test/fixtures/orders/context: base.json,
// overridden per fixture; a setting set to null is removed).
import { existsSync, readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import type { MappingContext } from "../../app/orders/map-order";
import { MappingSettingsSchema } from "../../app/settings/schema";

export const FIXTURE_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../fixtures/orders");

type Json = Record<string, unknown>;
const readJson = (file: string): Json => JSON.parse(readFileSync(file, "utf8")) as Json;

export function fixtureNames(): string[] {
  return readdirSync(FIXTURE_DIR)
    .filter((f) => f.endsWith(".json"))
    .map((f) => f.replace(/\.json$/, ""))
    .sort();
}

export function fixtureOrder(name: string): unknown {
  return readJson(path.join(FIXTURE_DIR, `${name}.json`));
}

export function fixtureContext(name: string): MappingContext {
  const base = readJson(path.join(FIXTURE_DIR, "context", "base.json"));
  const file = path.join(FIXTURE_DIR, "context", `${name}.json`);
  const own = existsSync(file) ? readJson(file) : {};
  const settings: Json = { ...(base.settings as Json), ...((own.settings as Json) ?? {}) };
  for (const [key, value] of Object.entries(settings)) if (value === null) delete settings[key];
  const shop = { ...(base.shop as Json), ...((own.shop as Json) ?? {}) } as MappingContext["shop"];
  return {
    settings: MappingSettingsSchema.parse(settings),
    shop,
    now: new Date(String(own.now ?? base.now)),
    saleChannelId: Number(base.saleChannelId),
    invoiceIntegrationId: Number(base.invoiceIntegrationId),
    callbackUrl: String(base.callbackUrl),
  };
}

export function expectedPath(name: string): string {
  return path.join(FIXTURE_DIR, "expected", `${name}.json`);
}
