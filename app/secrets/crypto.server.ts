// Secrets at rest (the shops' invoicing API keys, account-webhook secrets and Shopify access tokens) are encrypted
// with AES-256-GCM (node:crypto) under ENCRYPTION_KEY. The shop domain is bound in as additional authenticated data,
// so a ciphertext copied to another shop's row does not decrypt. Stored form (docs/decisions/0025):
//   "v2:<key id>:<iv>:<tag>:<ciphertext>"  base64 parts, a 12-byte IV and a full 16-byte tag; the key id names the
//                                           key that wrote it (keyId below), so a rotated key is found, not guessed;
//   "v1:<iv>:<tag>:<ciphertext>"            the first form, without a key id: still read, under each key in turn.
// Rotation: ENCRYPTION_KEY writes, the keys of ENCRYPTION_KEY_PREVIOUS still read, `npm run secrets:reencrypt`
// rewrites every stored secret under the current key.
import { createCipheriv, createDecipheriv, createHmac, randomBytes } from "node:crypto";
import { decodeKey, env, type Env } from "../env.server";

const IV_BYTES = 12;
/** GCM's full tag. Without authTagLength node accepts a tag cut down to 4 bytes, which a forger can guess. */
const TAG_BYTES = 16;
const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;

export interface EncryptionKey {
  /** 8 hex characters derived from the key (keyId): names the key without revealing anything of it. */
  id: string;
  key: Buffer;
}

export interface KeyRing {
  /** Writes every new secret. */
  current: EncryptionKey;
  /** Older keys: they only read what they wrote. */
  previous: EncryptionKey[];
}

/** Raised for a stored secret no configured key can read (or that is not in a stored form at all). */
export class SecretUnreadableError extends Error {
  constructor(reason: string) {
    super(`Unreadable encrypted secret: ${reason}`);
    this.name = "SecretUnreadableError";
  }
}

/** A key's public name: an HMAC of a fixed label under the key, so the name of one key says nothing of another. */
export function keyId(key: Buffer): string {
  return createHmac("sha256", key).update("e-fatura encryption key id").digest("hex").slice(0, 8);
}

function named(value: Buffer | string): EncryptionKey {
  const key = typeof value === "string" ? decodeKey(value) : value;
  if (!key || key.length !== 32) throw new Error("an encryption key must be 32 bytes");
  return { id: keyId(key), key };
}

/** The ring of a current key and older ones (the same key twice counts once). */
export function keyRing(current: Buffer | string, previous: Array<Buffer | string> = []): KeyRing {
  const ring: KeyRing = { current: named(current), previous: [] };
  for (const value of previous) {
    const entry = named(value);
    const clash = [ring.current, ...ring.previous].find((known) => known.id === entry.id);
    if (clash && !clash.key.equals(entry.key))
      throw new Error(`two encryption keys share the key id ${entry.id}: generate a new one`);
    if (!clash) ring.previous.push(entry);
  }
  return ring;
}

const rings = new WeakMap<Env, KeyRing>();

/** The keys of this process's configuration, derived once. */
export function configuredKeyRing(config: Env = env()): KeyRing {
  let ring = rings.get(config);
  if (!ring) {
    ring = keyRing(config.ENCRYPTION_KEY, config.ENCRYPTION_KEY_PREVIOUS);
    rings.set(config, ring);
  }
  return ring;
}

export function encryptSecret(plain: string, shop: string, ring: KeyRing = configuredKeyRing()): string {
  const { id, key } = ring.current;
  const iv = randomBytes(IV_BYTES);
  const cipher = createCipheriv("aes-256-gcm", key, iv, { authTagLength: TAG_BYTES });
  cipher.setAAD(Buffer.from(shop, "utf8"));
  const ciphertext = Buffer.concat([cipher.update(plain, "utf8"), cipher.final()]);
  return ["v2", id, iv.toString("base64"), cipher.getAuthTag().toString("base64"), ciphertext.toString("base64")].join(
    ":",
  );
}

function part(value: string | undefined, bytes: number | null, what: string): Buffer {
  if (value === undefined || !BASE64.test(value)) throw new SecretUnreadableError(`bad ${what}`);
  const decoded = Buffer.from(value, "base64");
  if (bytes !== null && decoded.length !== bytes)
    throw new SecretUnreadableError(`${what} of ${decoded.length} bytes, ${bytes} expected`);
  return decoded;
}

function open(key: Buffer, iv: Buffer, tag: Buffer, ciphertext: Buffer, shop: string): string {
  const decipher = createDecipheriv("aes-256-gcm", key, iv, { authTagLength: TAG_BYTES });
  decipher.setAAD(Buffer.from(shop, "utf8"));
  decipher.setAuthTag(tag);
  return Buffer.concat([decipher.update(ciphertext), decipher.final()]).toString("utf8");
}

interface Parsed {
  /** The key id of a v2 form; null for v1, which names none. */
  keyId: string | null;
  iv: Buffer;
  tag: Buffer;
  ciphertext: Buffer;
}

function parse(stored: string): Parsed {
  const parts = stored.split(":");
  if (parts[0] === "v2" && parts.length === 5) {
    if (!/^[0-9a-f]{8}$/.test(parts[1])) throw new SecretUnreadableError("bad key id");
    return {
      keyId: parts[1],
      iv: part(parts[2], IV_BYTES, "iv"),
      tag: part(parts[3], TAG_BYTES, "tag"),
      ciphertext: part(parts[4], null, "ciphertext"),
    };
  }
  if (parts[0] === "v1" && parts.length === 4) {
    return {
      keyId: null,
      iv: part(parts[1], IV_BYTES, "iv"),
      tag: part(parts[2], TAG_BYTES, "tag"),
      ciphertext: part(parts[3], null, "ciphertext"),
    };
  }
  throw new SecretUnreadableError("not a stored secret");
}

export function decryptSecret(stored: string, shop: string, ring: KeyRing = configuredKeyRing()): string {
  const { keyId: id, iv, tag, ciphertext } = parse(stored);
  const keys = [ring.current, ...ring.previous];
  if (id !== null) {
    const entry = keys.find((candidate) => candidate.id === id);
    if (!entry)
      throw new SecretUnreadableError(
        `written under key id ${id}, which is neither ENCRYPTION_KEY nor in ENCRYPTION_KEY_PREVIOUS`,
      );
    try {
      return open(entry.key, iv, tag, ciphertext, shop);
    } catch {
      throw new SecretUnreadableError("authentication failed (another shop's row, or altered)");
    }
  }
  // The first form names no key: each configured key in turn (GCM's tag tells the right one).
  for (const entry of keys) {
    try {
      return open(entry.key, iv, tag, ciphertext, shop);
    } catch {
      // the next key
    }
  }
  throw new SecretUnreadableError("no configured key reads it");
}

/** Whether a stored value looks like one of the stored forms (and not, say, a plain token from before encryption). */
export function isStoredSecret(value: string): boolean {
  return /^v[12]:/.test(value);
}

/** Whether a stored secret is already in the current form under the current key (re-encryption skips it). */
export function isCurrentSecret(stored: string, ring: KeyRing = configuredKeyRing()): boolean {
  return stored.startsWith(`v2:${ring.current.id}:`);
}
