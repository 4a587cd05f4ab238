// A completed e-archive invoice as the write-back planner sees it; tests spread it and change what they test.
import type { WriteBackInvoice } from "../../app/write-back/plan";

export const COMPLETED_INVOICE: WriteBackInvoice = {
  id: "inv1",
  orderId: "5001",
  orderName: "#1001",
  state: "completed",
  documentKind: "e_archive",
  serialNumber: "ARS2026000000001",
  ettn: "11111111-2222-3333-4444-555555555555",
  pdfUrl: "https://service.example/pdf/1",
  issueDate: "2026-11-23",
  postedInTestMode: false,
  orderTotal: "120.00",
  currency: "TRY",
  problemCodes: [],
  deadline: null,
};
