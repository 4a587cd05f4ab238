export const en = {
  "app.title": "e-Invoices",
  "nav.invoices": "Invoices",
  "nav.settings": "Settings",
  "home.title": "Invoices",
  "home.empty": "No invoices yet. Paid orders will appear here as they are invoiced.",
  "home.count": "{count} invoices",
  "error.generic": "Something went wrong. Please try again.",
};
