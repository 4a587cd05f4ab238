// Fatura bilgileri / Invoice details block: checks the buyer's numbers and saves them as cart attributes through
// the theme's own /cart/update.js (no other request, no library). All optional; a checkout is never stopped. A
// wrong or partial entry is never saved: the field says why, the status says nothing was saved.
// Held under 10,000 bytes (theme check); the office list loads only when needed.
(function () {
  "use strict";
  if (!window.customElements || window.customElements.get("efatura-invoice-details")) return;

  // BEGIN tax-id (generated from app/orders/tax-id.ts by `npm run theme:assets`; do not edit here)
  const TAX_ID_LENGTH = { vkn: 10, tckn: 11 };
  function normalizeTaxId(input) {
      return String(input).replace(/[\s.\-/]/g, "");
  }
  function isValidVkn(value) {
      if (!/^\d{10}$/.test(value) || /^(\d)\1{9}$/.test(value))
          return false;
      let sum = 0;
      for (let i = 0; i < 9; i++) {
          const t = (Number(value[i]) + 9 - i) % 10;
          let v = (t * Math.pow(2, 9 - i)) % 9;
          if (t !== 0 && v === 0)
              v = 9;
          sum += v;
      }
      return (10 - (sum % 10)) % 10 === Number(value[9]);
  }
  function isValidTckn(value) {
      if (!/^[1-9]\d{10}$/.test(value))
          return false;
      const d = [];
      for (let i = 0; i < 11; i++)
          d.push(Number(value[i]));
      const odd = d[0] + d[2] + d[4] + d[6] + d[8];
      const even = d[1] + d[3] + d[5] + d[7];
      const tenth = (((odd * 7 - even) % 10) + 10) % 10;
      let firstTen = 0;
      for (let i = 0; i < 10; i++)
          firstTen += d[i];
      return d[9] === tenth && d[10] === firstTen % 10;
  }
  function checkTaxId(input, kind) {
      const value = normalizeTaxId(input);
      const expected = kind !== null && kind !== void 0 ? kind : (value.length === 10 ? "vkn" : value.length === 11 ? "tckn" : null);
      const fail = (problem) => ({ valid: false, kind: expected, value, problem });
      if (value === "")
          return fail("empty");
      if (!/^\d+$/.test(value))
          return fail("not_digits");
      if (expected === null || value.length !== TAX_ID_LENGTH[expected])
          return fail("length");
      if (expected === "tckn" && value[0] === "0")
          return fail("leading_zero");
      if (/^(\d)\1+$/.test(value))
          return fail("repeated");
      const valid = expected === "vkn" ? isValidVkn(value) : isValidTckn(value);
      return valid ? { valid: true, kind: expected, value } : fail("checksum");
  }
  // END tax-id

  const each = (list, fn) => Array.prototype.forEach.call(list, fn);
  let offices = null;

  // The tax office list (assets/tax-offices.js): loaded once per page, on a buyer's first focus of the field.
  function loadOffices(url) {
    if (window.eFaturaTaxOffices) return Promise.resolve(window.eFaturaTaxOffices);
    offices = offices || new Promise((resolve, reject) => {
      const script = document.createElement("script");
      script.src = url;
      script.onload = () => resolve(window.eFaturaTaxOffices);
      script.onerror = () => {
        offices = null;
        reject(new Error("offices"));
      };
      document.head.appendChild(script);
    });
    return offices;
  }

  class InvoiceDetails extends HTMLElement {
    connectedCallback() {
      if (this.inputs) return;
      const json = this.querySelector("script[data-messages]");
      this.messages = json ? JSON.parse(json.textContent) : {};
      this.inputs = Array.from(this.querySelectorAll("input[data-attribute]"));
      this.radios = Array.from(this.querySelectorAll('input[type="radio"]'));
      this.timer = null;
      this.radios.forEach((radio) => radio.addEventListener("change", () => this.chooseBuyer()));
      this.inputs.forEach((input) => {
        input.addEventListener("input", () => {
          if (input.getAttribute("aria-invalid")) this.showError(input, "");
          clearTimeout(this.timer);
          this.timer = setTimeout(() => this.save(), 400);
        });
        input.addEventListener("change", () => {
          this.check(input);
          this.save();
        });
        input.addEventListener("blur", () => this.check(input));
        // Enter saves; it must not submit the theme's cart form (which may go to checkout).
        input.addEventListener("keydown", (event) => {
          if (event.key !== "Enter") return;
          event.preventDefault();
          this.check(input);
          this.save();
        });
        if (input.hasAttribute("data-offices")) input.addEventListener("focus", () => this.fillOffices(input), { once: true });
        if (input.value) this.check(input);
      });
      // A buyer who heads for checkout within the save delay: send the pending change at once.
      this.flush = () => this.timer !== null && this.save();
      document.addEventListener("submit", this.flush, true);
      document.addEventListener("click", this.flush, true);
    }

    disconnectedCallback() {
      document.removeEventListener("submit", this.flush, true);
      document.removeEventListener("click", this.flush, true);
    }

    buyer() {
      const checked = this.radios.find((radio) => radio.checked);
      return checked ? checked.value : "individual";
    }

    chooseBuyer() {
      each(this.querySelectorAll("[data-buyer]"), (group) => (group.hidden = group.getAttribute("data-buyer") !== this.buyer()));
      this.inputs.forEach((input) => this.showError(input, ""));
      this.save();
    }

    // What is wrong with one field ("" when nothing); an empty optional field never is. A company invoice needs all
    // three fields once the buyer has given any of them.
    problemOf(input) {
      const m = this.messages;
      const value = input.value.trim();
      const kind = input.getAttribute("data-check");
      let message = "";
      if (kind && value) {
        const r = checkTaxId(value, kind);
        if (!r.valid) {
          const vkn = r.kind === "vkn";
          message =
            r.problem === "not_digits" ? m.not_digits
            : r.problem === "length" ? (vkn ? m.vkn_length : m.tckn_length)
            : r.problem === "leading_zero" ? m.leading_zero
            : vkn ? m.vkn_invalid : m.tckn_invalid;
        }
      } else if (!value && input.hasAttribute("data-required") && this.buyer() === "company" &&
        this.inputs.some((other) => other.hasAttribute("data-required") && other.value.trim())) {
        message = m.required_for_company;
      }
      return message;
    }

    check(input) {
      this.showError(input, this.problemOf(input));
    }

    active(input) {
      return input.closest("[data-buyer]").getAttribute("data-buyer") === this.buyer();
    }

    showError(input, message) {
      const error = document.getElementById(input.id + "-error");
      if (error) error.textContent = message;
      if (message) input.setAttribute("aria-invalid", "true");
      else input.removeAttribute("aria-invalid");
    }

    // The chosen buyer's fields; the other kind's are sent empty (removed). While a field is wrong or a company is
    // partial, all are sent empty: the cart never holds a value the invoice would stop on.
    attributes(valid) {
      const attributes = {};
      this.inputs.forEach((input) => {
        const value = input.value.trim();
        attributes[input.getAttribute("data-attribute")] = !valid || !this.active(input) ? "" : input.hasAttribute("data-check") ? normalizeTaxId(value) : value;
      });
      return attributes;
    }

    save() {
      clearTimeout(this.timer);
      this.timer = null;
      const valid = this.inputs.every((input) => !this.active(input) || !this.problemOf(input));
      const body = JSON.stringify({ attributes: this.attributes(valid) });
      if (body === this.saved) {
        this.status(valid ? this.messages.saved : this.messages.not_saved);
        return;
      }
      const shop = window.Shopify;
      const root = ((shop && shop.routes && shop.routes.root) || "/").replace(/\/?$/, "/");
      const request = (this.pending = fetch(root + "cart/update.js", {
        method: "POST",
        headers: { "Content-Type": "application/json", Accept: "application/json" },
        body,
        credentials: "same-origin",
        keepalive: true, // completes even when the buyer leaves for checkout right away
      }));
      this.status(this.messages.saving);
      request
        .then((response) => {
          if (!response.ok) throw new Error(String(response.status));
          if (this.pending !== request) return;
          this.saved = body;
          // Never "saved" beside an error.
          this.status(valid ? this.messages.saved : this.messages.not_saved);
        })
        .catch(() => this.pending === request && this.status(this.messages.save_failed));
    }

    status(text) {
      const status = this.querySelector("[data-status]");
      if (status) status.textContent = text || "";
    }

    fillOffices(input) {
      const list = document.getElementById(input.getAttribute("list"));
      if (!list || list.firstChild) return;
      loadOffices(this.getAttribute("data-offices-url"))
        .then((data) => {
          if (list.firstChild) return;
          const m = this.messages;
          data.offices.forEach((office) => {
            const option = document.createElement("option");
            option.value = office[1];
            const kind = office[0] % 1000 >= 200 ? m.tax_office_kind : m.revenue_office_kind;
            option.label = office[1] + " " + kind + " · " + data.provinces[Math.floor(office[0] / 1000) - 1];
            list.appendChild(option);
          });
        })
        .catch(() => {}); // without the list the field still takes any name
    }
  }

  window.customElements.define("efatura-invoice-details", InvoiceDetails);
})();
