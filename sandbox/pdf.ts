// A small but valid one-page PDF (PDF 1.4, Helvetica, correct xref table) standing in for the formal
// invoice document. Non-ASCII letters are transliterated (İ → I, ş → s, ...) to stay within WinAnsi.

function ascii(text: string): string {
  return text
    .replace(/ı/g, "i")
    .replace(/İ/g, "I")
    .normalize("NFD")
    .replace(/[\u0300-\u036f]/g, "")
    .replace(/[^\x20-\x7e]/g, "?");
}

function escapePdfText(text: string): string {
  return ascii(text).replace(/[\\()]/g, (c) => `\\${c}`);
}

export function makePdf(title: string, lines: string[]): Buffer {
  const text = [`BT /F1 16 Tf 50 790 Td (${escapePdfText(title)}) Tj ET`];
  lines.forEach((line, i) => text.push(`BT /F1 10 Tf 50 ${760 - i * 16} Td (${escapePdfText(line)}) Tj ET`));
  const content = text.join("\n");
  const objects = [
    "<< /Type /Catalog /Pages 2 0 R >>",
    "<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
    "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 595 842] /Resources << /Font << /F1 4 0 R >> >> /Contents 5 0 R >>",
    "<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>",
    `<< /Length ${Buffer.byteLength(content, "latin1")} >>\nstream\n${content}\nendstream`,
  ];
  let out = "%PDF-1.4\n";
  const offsets: number[] = [];
  objects.forEach((body, i) => {
    offsets.push(Buffer.byteLength(out, "latin1"));
    out += `${i + 1} 0 obj\n${body}\nendobj\n`;
  });
  const xref = Buffer.byteLength(out, "latin1");
  out += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n`;
  for (const offset of offsets) out += `${String(offset).padStart(10, "0")} 00000 n \n`;
  out += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
  return Buffer.from(out, "latin1");
}
