// errors[] of an invoice record: the spec shows no element fields (invoicing-service.md, "Fields of an element of
// errors: not shown"), so every shape a service may send becomes readable text and none breaks the status read.
import { describe, expect, it } from "vitest";
import { processingErrorsText } from "../../app/invoicing-service/errors";

describe("processingErrorsText", () => {
  it("reads strings, objects with a message, and anything else as its JSON", () => {
    expect(processingErrorsText([{ code: "GIB-1163", message: "Alıcı VKN geçersiz" }, "İkinci hata"])).toBe(
      "Alıcı VKN geçersiz; İkinci hata",
    );
    expect(processingErrorsText([null, 7, { code: "X" }, { message: { tr: "metin" } }])).toBe(
      'null; 7; {"code":"X"}; {"message":{"tr":"metin"}}',
    );
  });

  it("says '-' when there is nothing, and keeps the line short", () => {
    expect(processingErrorsText([])).toBe("-");
    expect(processingErrorsText(null)).toBe("-");
    expect(processingErrorsText(["x".repeat(5000)])).toHaveLength(1000);
  });
});
