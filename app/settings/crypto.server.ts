// API keys of the invoicing service are encrypted at rest with AES-256-GCM (node:crypto) under
// ENCRYPTION_KEY. Stored form: "v1:<iv>:<tag>:<ciphertext>", base64 parts. The shop domain is bound in as
// additional authenticated data, so a ciphertext copied to another shop's row does not decrypt.
import { createCipheriv, createDecipheriv, randomBytes } from "node:crypto";
import { decodeKey, env } from "../env.server";

const VERSION = "v1";

function key(): Buffer {
  const decoded = decodeKey(env().ENCRYPTION_KEY);
  if (!decoded) throw new Error("ENCRYPTION_KEY is invalid");
  return decoded;
}

export function encryptSecret(plain: string, shop: string, encryptionKey: Buffer = key()): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv("aes-256-gcm", encryptionKey, iv);
  cipher.setAAD(Buffer.from(shop, "utf8"));
  const ciphertext = Buffer.concat([cipher.update(plain, "utf8"), cipher.final()]);
  return [VERSION, iv.toString("base64"), cipher.getAuthTag().toString("base64"), ciphertext.toString("base64")].join(":");
}

export function decryptSecret(stored: string, shop: string, encryptionKey: Buffer = key()): string {
  const [version, iv, tag, ciphertext] = stored.split(":");
  if (version !== VERSION || !iv || !tag || ciphertext === undefined) throw new Error("Unreadable encrypted secret");
  const decipher = createDecipheriv("aes-256-gcm", encryptionKey, Buffer.from(iv, "base64"));
  decipher.setAAD(Buffer.from(shop, "utf8"));
  decipher.setAuthTag(Buffer.from(tag, "base64"));
  return Buffer.concat([decipher.update(Buffer.from(ciphertext, "base64")), decipher.final()]).toString("utf8");
}
