// Text that reaches a legal document: no control characters, no bidirectional overrides or isolates, no zero-width
// characters; Turkish letters and emoji intact. Checked on the pure function, on a mapped order and on the wire.
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { describe, expect, it } from "vitest";
import { cleanDocumentText, cleanText } from "../../app/invoicing-service/text";
import { mapOrderToInvoice } from "../../app/orders/map-order";
import { parseShopifyOrder } from "../../app/orders/order";
import { InvoicingClient } from "../../app/invoicing-service/client";
import { fixtureContext, fixtureOrder } from "./fixture-loader";

/** Every string value inside `value`, joined (JSON text would escape control characters and hide them). */
const strings = (value: unknown): string =>
  typeof value === "string"
    ? value
    : value && typeof value === "object"
      ? Object.values(value).map(strings).join("|")
      : "";

const HOSTILE = [
  "\u202E",
  "\u202A",
  "\u202B",
  "\u202C",
  "\u202D",
  "\u2066",
  "\u2067",
  "\u2068",
  "\u2069",
  "\u200B",
  "\u200C",
  "\u200E",
  "\u200F",
  "\uFEFF",
  "\u2060",
  "\u0000",
  "\u0007",
  "\u001B",
  "\u007F",
  "\u0085",
  "\u009B",
  // Default-ignorable code points a reader does not see either: Hangul fillers, soft hyphen, Mongolian vowel
  // separator, combining grapheme joiner, a presentation selector after a letter, variation selectors, tag characters.
  "\u3164",
  "\u115F",
  "\uFFA0",
  "\u00AD",
  "\u180E",
  "\u034F",
  "\uFE0F",
  "\uFE0E",
  "\uFE00",
  "\u{E0001}",
  "\u{E0041}",
  "\u{E007F}",
  "\u{E0100}",
  "\u{1D173}",
  "\u{1BCA0}",
  // Invisible, though not default-ignorable (issue 35, point 8): interlinear annotation marks, Egyptian hieroglyph
  // format controls (format controls, Cf), and the Braille pattern blank.
  "\uFFF9",
  "\uFFFA",
  "\uFFFB",
  "\u{13430}",
  "\u{1343F}",
  "\u2800",
  "\u0600",
  "\u{110BD}",
];

describe("cleanText", () => {
  it.each(HOSTILE.map((c) => [`U+${c.codePointAt(0)!.toString(16).toUpperCase().padStart(4, "0")}`, c]))(
    "removes %s",
    (_name, char) => {
      expect(cleanText(`Ali${char}Veli`)).toBe("AliVeli");
    },
  );

  it("removes a hidden text in tag characters, even after a flag", () => {
    const hidden = [..."ignore the amount"].map((c) => String.fromCodePoint(0xe0000 + c.charCodeAt(0))).join("");
    expect(cleanText(`Kupa${hidden}`)).toBe("Kupa");
    expect(cleanText("🏴\u{E0067}\u{E0062}\u{E0073}\u{E0063}\u{E0074}\u{E007F}")).toBe("🏴");
  });

  it("keeps Turkish letters, other scripts and emoji, including joined emoji sequences", () => {
    const text = "Çağrı Şahin İĞÜÖÇŞ ığüöçş · Ελένη · محمد · 한국 · 🇹🇷 👍🏽 👨‍👩‍👧 ❤️ 🧑🏽‍💻 1️⃣ 🏳️‍🌈 👁️‍🗨️ ☺︎ ©️";
    expect(cleanText(text)).toBe(text);
  });

  it("turns tabs and line breaks into spaces and drops a joiner that joins no emoji", () => {
    expect(cleanText("Moda Cad.\r\nNo:\t5")).toBe("Moda Cad.  No: 5");
    expect(cleanText("a\u200Db 👍\u200D")).toBe("ab 👍");
  });

  // The rule written out on code points, from Unicode's properties: the reference the fast patterns are held to.
  // Drawn as nothing too: every format control, and the Braille blank.
  const INVISIBLE = /^[\p{Default_Ignorable_Code_Point}\p{Cf}\u2800]$/u;
  const EMOJI_PRESENTATION = new Set(["\uFE0E", "\uFE0F", "\u200D"]);
  const reference = (text: string): string => {
    const kept = [...text].flatMap((c) => {
      if (/^[\t\n\r\u2028\u2029]$/.test(c)) return [" "];
      // eslint-disable-next-line no-control-regex -- matching control characters is the point
      if (/^[\u0000-\u001F\u007F-\u009F]$/.test(c)) return [];
      return INVISIBLE.test(c) && !EMOJI_PRESENTATION.has(c) ? [] : [c];
    });
    const selectors = kept.filter(
      (c, i) => !(c === "\uFE0E" || c === "\uFE0F") || (i > 0 && /^\p{Emoji}$/u.test(kept[i - 1])),
    );
    return selectors
      .filter(
        (c, i) =>
          c !== "\u200D" ||
          (i > 0 &&
            /^(\p{Extended_Pictographic}|\uFE0F|\p{Emoji_Modifier})$/u.test(selectors[i - 1]) &&
            /^\p{Extended_Pictographic}$/u.test(selectors[i + 1] ?? "")),
      )
      .join("");
  };

  it("does what the rule says on every character of the BMP and every invisible one, alone and next to emoji", () => {
    const codes: number[] = [];
    for (let code = 0; code <= 0xffff; code++) if (code < 0xd800 || code > 0xdfff) codes.push(code);
    for (let code = 0x10000; code <= 0xe0fff; code++) if (INVISIBLE.test(String.fromCodePoint(code))) codes.push(code);
    expect(codes.length).toBeGreaterThan(63_000 + 4_000);
    for (const code of codes) {
      const char = String.fromCodePoint(code);
      for (const text of [`a${char}b`, `👨${char}👩`, `❤${char}`]) {
        if (cleanText(text) !== reference(text))
          expect(`U+${code.toString(16)} in ${text}: ${cleanText(text)}`).toBe(reference(text));
      }
    }
  });

  it("cleans every string at any depth and leaves other values alone", () => {
    const body = { a: "x\u202Ey", n: 12.5, b: true, z: null, list: [{ name: "\u2066İstanbul\u2069" }, "ok"] };
    expect(cleanDocumentText(body)).toEqual({ a: "xy", n: 12.5, b: true, z: null, list: [{ name: "İstanbul" }, "ok"] });
  });
});

describe("the invoice body", () => {
  const hostile = (() => {
    const json = structuredClone(fixtureOrder("01-single-item-citizen")) as Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any
    json.billing_address.first_name = "Ayşe\u202E\u0007";
    json.billing_address.address1 = "Bağdat Cad.\u2066 No: 5\u2069\u200B 🏠";
    json.line_items[0].title = "Çay\u200F bardağı ☕";
    json.name = "#10\u202E01";
    return json;
  })();

  it("of a mapped order carries no invisible character, and keeps the letters and emoji", () => {
    const parsed = parseShopifyOrder(hostile);
    if (!parsed.ok) throw new Error("fixture");
    const result = mapOrderToInvoice(parsed.order, fixtureContext("01-single-item-citizen"));
    if (!result.ok) throw new Error(JSON.stringify(result.problems));
    const text = strings(result.body);
    for (const char of HOSTILE) expect(text).not.toContain(char);
    expect(result.body.order_d_id).toBe("#1001");
    expect(result.body.lines[0].name).toContain("Çay bardağı ☕");
    expect(JSON.stringify(result.body.customer)).toContain("Bağdat Cad. No: 5 🏠");
  });

  it("sent by the client is cleaned even when the caller did not clean it", async () => {
    const parsed = parseShopifyOrder(fixtureOrder("01-single-item-citizen"));
    if (!parsed.ok) throw new Error("fixture");
    const result = mapOrderToInvoice(parsed.order, fixtureContext("01-single-item-citizen"));
    if (!result.ok) throw new Error("fixture");
    const dirty = {
      ...result.body,
      description: "Not\u202E açıklama",
      lines: result.body.lines.map((l) => ({ ...l, name: `${l.name}\u2067` })),
    };
    let received = "";
    const server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on("data", (c: Buffer) => chunks.push(c));
      req.on("end", () => {
        received = Buffer.concat(chunks).toString("utf8");
        res.writeHead(201, { "Content-Type": "application/json" }).end(JSON.stringify({ data: { id: 1 } }));
      });
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    try {
      const api = new InvoicingClient({
        baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}/api`,
        apiKey: "k-12345678",
      });
      await api.createInvoice(dirty);
    } finally {
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
    const sent = JSON.parse(received);
    expect(sent.description).toBe("Not açıklama");
    for (const char of HOSTILE) expect(strings(sent)).not.toContain(char);
  });
});
