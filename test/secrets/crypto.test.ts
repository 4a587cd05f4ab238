// Secrets at rest (app/secrets/crypto.server.ts): the stored form names its key, a cut-down GCM tag is refused,
// the first stored form still reads, and ENCRYPTION_KEY can be rotated.
import { randomBytes } from "node:crypto";
import { describe, expect, it } from "vitest";
import { parseEnv } from "../../app/env.server";
import {
  configuredKeyRing,
  decryptSecret,
  encryptSecret,
  isCurrentSecret,
  keyId,
  keyRing,
  SecretUnreadableError,
} from "../../app/secrets/crypto.server";

const SHOP = "test-shop.myshopify.com";
const TEST_KEY = process.env.ENCRYPTION_KEY!; // test/setup.ts
/** Written by the first version (stored form v1, no key id) with TEST_KEY for SHOP. */
const V1_STORED = "v1:LP3JVYJ71e5ywbXg:t7P8RznudziFZU0fApAp0A==:brYlqVr72W8IQhVzU+indJflpgra";
const V1_PLAIN = "fe_live_written_by_v1";

/** The same stored value with its tag cut to `bytes` (a forger only has to guess that many bytes). */
function withTagOf(stored: string, bytes: number): string {
  const parts = stored.split(":");
  const tagAt = parts.length - 2;
  parts[tagAt] = Buffer.from(parts[tagAt], "base64").subarray(0, bytes).toString("base64");
  return parts.join(":");
}

describe("secrets at rest", () => {
  it("stores v2:<key id>:<iv>:<tag>:<ciphertext> with the configured key's id and a full 16-byte tag", () => {
    const stored = encryptSecret("fe_live_secret", SHOP);
    const [version, id, iv, tag] = stored.split(":");
    expect(version).toBe("v2");
    expect(id).toBe(keyId(Buffer.from(TEST_KEY, "hex")));
    expect(id).toMatch(/^[0-9a-f]{8}$/);
    expect(Buffer.from(iv, "base64")).toHaveLength(12);
    expect(Buffer.from(tag, "base64")).toHaveLength(16);
    expect(stored).not.toContain("fe_live_secret");
    expect(decryptSecret(stored, SHOP)).toBe("fe_live_secret");
    expect(isCurrentSecret(stored)).toBe(true);
  });

  it("still reads the first stored form (v1, no key id)", () => {
    expect(decryptSecret(V1_STORED, SHOP)).toBe(V1_PLAIN);
    expect(isCurrentSecret(V1_STORED)).toBe(false);
    expect(() => decryptSecret(V1_STORED, "other-shop.myshopify.com")).toThrow(SecretUnreadableError);
  });

  it.each([4, 8, 12, 15])("refuses a GCM tag cut to %i bytes, in either stored form", (bytes) => {
    expect(() => decryptSecret(withTagOf(V1_STORED, bytes), SHOP)).toThrow(SecretUnreadableError);
    expect(() => decryptSecret(withTagOf(encryptSecret("fe_live_secret", SHOP), bytes), SHOP)).toThrow(
      SecretUnreadableError,
    );
  });

  it("refuses altered and malformed values", () => {
    const stored = encryptSecret("fe_live_secret", SHOP);
    const parts = stored.split(":");
    const flipped = Buffer.from(parts[4], "base64");
    flipped[0] ^= 1;
    expect(() => decryptSecret([...parts.slice(0, 4), flipped.toString("base64")].join(":"), SHOP)).toThrow(
      SecretUnreadableError,
    );
    for (const bad of [
      "",
      "fe_live_secret",
      "v2:zzzz:a:b:c",
      `v2:${parts[1]}:${parts[2]}:${parts[3]}`,
      `v3:${parts.slice(1).join(":")}`,
      stored.replace(/:[^:]*$/, ":not base64!"),
    ]) {
      expect(() => decryptSecret(bad, SHOP), bad).toThrow(SecretUnreadableError);
    }
  });

  it("rotation: the new key writes, the previous key still reads (both forms), and without it the key id is named", () => {
    const oldKey = randomBytes(32);
    const newKey = randomBytes(32);
    const before = keyRing(oldKey);
    const during = keyRing(newKey, [oldKey]);
    const after = keyRing(newKey);
    const writtenBefore = encryptSecret("fe_live_old", SHOP, before);
    const v1Before = V1_STORED; // under TEST_KEY
    const v1Ring = keyRing(newKey, [oldKey, TEST_KEY]);

    expect(decryptSecret(writtenBefore, SHOP, during)).toBe("fe_live_old");
    expect(decryptSecret(v1Before, SHOP, v1Ring)).toBe(V1_PLAIN);
    const writtenDuring = encryptSecret("fe_live_new", SHOP, during);
    expect(writtenDuring.split(":")[1]).toBe(keyId(newKey));
    expect(isCurrentSecret(writtenDuring, during)).toBe(true);
    expect(isCurrentSecret(writtenBefore, during)).toBe(false);
    expect(decryptSecret(writtenDuring, SHOP, after)).toBe("fe_live_new");
    expect(() => decryptSecret(writtenBefore, SHOP, after)).toThrow(new RegExp(`key id ${keyId(oldKey)}`));
    expect(() => decryptSecret(writtenDuring, SHOP, before)).toThrow(SecretUnreadableError);
  });

  it("derives distinct key ids that are not the key, and refuses no ring for the same key twice", () => {
    const key = randomBytes(32);
    expect(keyId(key)).not.toBe(keyId(randomBytes(32)));
    expect(key.toString("hex")).not.toContain(keyId(key));
    expect(keyRing(key, [key, key.toString("hex")]).previous).toEqual([]);
  });

  it("reads ENCRYPTION_KEY_PREVIOUS as a list of keys (hex or base64) into the configured ring", () => {
    const valid = {
      SHOPIFY_API_KEY: "k",
      SHOPIFY_API_SECRET: "s",
      SHOPIFY_APP_URL: "https://invoices.example.com",
      ENCRYPTION_KEY: "ab".repeat(32),
    };
    const older = [randomBytes(32).toString("hex"), randomBytes(32).toString("base64")];
    const config = parseEnv({ ...valid, ENCRYPTION_KEY_PREVIOUS: ` ${older[0]} , ${older[1]} ` });
    expect(config.ENCRYPTION_KEY_PREVIOUS).toEqual(older);
    const ring = configuredKeyRing(config);
    expect(ring.current.id).toBe(keyId(Buffer.from("ab".repeat(32), "hex")));
    expect(ring.previous.map((entry) => entry.id)).toEqual([
      keyId(Buffer.from(older[0], "hex")),
      keyId(Buffer.from(older[1], "base64")),
    ]);
    expect(parseEnv(valid).ENCRYPTION_KEY_PREVIOUS).toEqual([]);
    expect(() => parseEnv({ ...valid, ENCRYPTION_KEY_PREVIOUS: `${older[0]},short` })).toThrow(
      /ENCRYPTION_KEY_PREVIOUS is invalid/,
    );
  });
});
