// A local stand-in for Shopify's App Bridge script, served by the demo's server at /local-admin/app-bridge.js
// (scripts/lib/local-admin.ts). The shell loads it instead of the CDN script when LOCAL_ADMIN=1. It defines
// window.shopify (idToken, toast, loading, config, saveBar) and the <ui-save-bar> element, and adds a fresh session
// token to the page's same-origin fetches, as App Bridge does inside the Shopify admin.

export const appBridgeScript = (tokenPath: string) => `(function () {
  "use strict";
  if (window.shopify && window.shopify.__local) return;
  var current = document.currentScript;
  var params = new URLSearchParams(location.search);
  var remembered = {};
  try { remembered = JSON.parse(sessionStorage.getItem("local-admin") || "{}"); } catch (e) {}
  var shop = params.get("shop") || remembered.shop || "";
  var host = params.get("host") || remembered.host || "";
  var locale = params.get("locale") || remembered.locale || "en";
  try { sessionStorage.setItem("local-admin", JSON.stringify({ shop: shop, host: host, locale: locale })); } catch (e) {}
  var nativeFetch = window.fetch.bind(window);
  var cached = params.get("id_token") ? { token: params.get("id_token"), at: Date.now() } : null;

  function idToken() {
    if (cached && Date.now() - cached.at < 60000) return Promise.resolve(cached.token);
    return nativeFetch(${JSON.stringify(tokenPath)} + "?shop=" + encodeURIComponent(shop), { credentials: "same-origin" })
      .then(function (response) { return response.json(); })
      .then(function (data) { cached = { token: data.token, at: Date.now() }; return data.token; });
  }

  window.fetch = function (input, init) {
    var href = typeof input === "string" ? input : input instanceof URL ? input.href : input.url;
    var url = new URL(href, location.href);
    if (url.origin !== location.origin || url.pathname.indexOf("/local-admin/") === 0) return nativeFetch(input, init);
    return idToken().then(function (token) {
      if (input instanceof Request && !init) {
        var headers = new Headers(input.headers);
        headers.set("Authorization", "Bearer " + token);
        return nativeFetch(new Request(input, { headers: headers }));
      }
      var options = Object.assign({}, init || {});
      var merged = new Headers(options.headers || (input instanceof Request ? input.headers : undefined));
      merged.set("Authorization", "Bearer " + token);
      options.headers = merged;
      return nativeFetch(input, options);
    });
  };

  var toastBox;
  function showToast(message, options) {
    options = options || {};
    if (!toastBox) {
      toastBox = document.createElement("div");
      toastBox.setAttribute("aria-live", "polite");
      toastBox.style.cssText = "position:fixed;left:50%;bottom:24px;transform:translateX(-50%);z-index:100000;display:flex;flex-direction:column;gap:8px;align-items:center";
      document.body.appendChild(toastBox);
    }
    var item = document.createElement("div");
    item.setAttribute("data-local-toast", options.isError ? "error" : "info");
    item.textContent = message;
    item.style.cssText = "padding:10px 16px;border-radius:10px;font:500 13px/20px Inter,-apple-system,sans-serif;color:#fff;box-shadow:0 4px 12px rgba(0,0,0,.25);background:" + (options.isError ? "#8e1f0b" : "#1a1a1a");
    toastBox.appendChild(item);
    setTimeout(function () { item.remove(); }, options.duration || 5000);
    return "toast-" + Date.now();
  }

  // A constructed style sheet, not a <style> element: React hydrates the whole document and would treat
  // an element added before hydration as a mismatch.
  var sheet = new CSSStyleSheet();
  sheet.replaceSync(
    "ui-nav-menu{display:flex;gap:20px;align-items:center;box-sizing:border-box;height:40px;padding:10px 20px;background:#1a1a1a;overflow-x:auto;white-space:nowrap;font:600 13px/20px Inter,-apple-system,sans-serif}" +
    "ui-nav-menu::before{content:'Local admin: " + shop.replace(/[^a-z0-9.-]/g, "") + "';color:#8a8a8a;font-weight:500;margin-right:8px}" +
    "ui-nav-menu a{color:#e3e3e3;text-decoration:none}ui-nav-menu a:hover{color:#fff;text-decoration:underline}" +
    "ui-title-bar{display:none}" +
    // The contextual save bar: the admin draws it in its top bar while the page has unsaved changes; here it stays at
    // the window's bottom, so it never covers the menu (a fixed top bar also repeats in full-page screenshots).
    "ui-save-bar{display:none}" +
    "ui-save-bar[data-showing]{display:flex;position:fixed;bottom:0;left:0;right:0;z-index:99999;gap:8px;justify-content:flex-end;align-items:center;padding:10px 20px;background:#303030;font:600 13px/20px Inter,-apple-system,sans-serif}" +
    "ui-save-bar[data-showing]::before{content:'" + (locale.indexOf("tr") === 0 ? "Kaydedilmemiş değişiklikler" : "Unsaved changes") + "';color:#fff;margin-right:auto}" +
    "ui-save-bar button{padding:6px 12px;border-radius:8px;border:0;font:inherit;cursor:pointer;background:#e3e3e3;color:#1a1a1a}" +
    "ui-save-bar button[variant=primary]{background:#fff}" +
    "[data-local-dialog]{position:fixed;inset:0;z-index:100001;background:rgba(0,0,0,.5);display:flex;align-items:center;justify-content:center;font:500 14px/20px Inter,-apple-system,sans-serif}" +
    "[data-local-dialog]>div{background:#fff;border-radius:12px;padding:20px;display:flex;flex-direction:column;gap:16px;max-width:420px}" +
    "[data-local-dialog] button{padding:6px 12px;border-radius:8px;border:1px solid #8a8a8a;background:#fff;font:inherit;cursor:pointer}"
  );
  document.adoptedStyleSheets = document.adoptedStyleSheets.concat([sheet]);

  // shopify:admin/... links open the real admin, as App Bridge does.
  document.addEventListener("click", function (event) {
    var link = event.target && event.target.closest ? event.target.closest('a[href^="shopify:admin/"]') : null;
    if (!link) return;
    event.preventDefault();
    var store = shop.split(".")[0];
    window.open("https://admin.shopify.com/store/" + store + "/" + link.getAttribute("href").slice("shopify:admin/".length), "_blank", "noopener");
  }, true);

  var texts = locale.indexOf("tr") === 0
    ? { discardTitle: "Kaydedilmemiş tüm değişiklikler silinsin mi?", discard: "Değişiklikleri sil", keep: "Düzenlemeye devam et" }
    : { discardTitle: "Discard all unsaved changes?", discard: "Discard changes", keep: "Continue editing" };

  // A confirmation as the admin asks it (its own dialog, outside the app's page): resolves true to go on.
  function confirmDialog(title, yes, no) {
    return new Promise(function (resolve) {
      var box = document.createElement("div");
      box.setAttribute("data-local-dialog", "");
      var inner = document.createElement("div");
      inner.setAttribute("role", "alertdialog");
      inner.setAttribute("aria-label", title);
      var heading = document.createElement("p");
      heading.textContent = title;
      var row = document.createElement("div");
      row.style.cssText = "display:flex;gap:8px;justify-content:flex-end";
      [[no, false], [yes, true]].forEach(function (pair) {
        var button = document.createElement("button");
        button.type = "button";
        button.textContent = pair[0];
        button.addEventListener("click", function () { box.remove(); resolve(pair[1]); });
        row.appendChild(button);
      });
      inner.appendChild(heading);
      inner.appendChild(row);
      box.appendChild(inner);
      document.body.appendChild(box);
    });
  }

  // <ui-save-bar>: App Bridge's contextual save bar. Its <button variant="primary"> is Save, the other Discard;
  // with discardConfirmation, Discard asks first and the page's own handler runs only once confirmed.
  if (!customElements.get("ui-save-bar")) {
    customElements.define("ui-save-bar", class extends HTMLElement {
      connectedCallback() {
        if (this.__wired) return;
        this.__wired = true;
        var bar = this;
        this.addEventListener("click", function (event) {
          var button = event.target && event.target.closest ? event.target.closest("button") : null;
          if (!button || button.getAttribute("variant") === "primary" || button.__confirmed) return;
          var asks = bar.getAttribute("discardconfirmation");
          if (asks === null || asks === "false") return;
          event.stopPropagation();
          event.preventDefault();
          confirmDialog(texts.discardTitle, texts.discard, texts.keep).then(function (yes) {
            if (!yes) return;
            button.__confirmed = true;
            button.click();
            button.__confirmed = false;
          });
        }, true);
      }
      get showing() { return this.hasAttribute("data-showing"); }
      show() {
        if (!this.showing) { this.setAttribute("data-showing", ""); this.dispatchEvent(new Event("show")); }
        return Promise.resolve();
      }
      hide() {
        if (this.showing) { this.removeAttribute("data-showing"); this.dispatchEvent(new Event("hide")); }
        return Promise.resolve();
      }
      toggle() { return this.showing ? this.hide() : this.show(); }
    });
  }
  function saveBarById(id) { var bar = document.getElementById(id); return bar && bar.show ? bar : null; }

  window.shopify = {
    __local: true,
    config: { apiKey: current ? current.getAttribute("data-api-key") : "", shop: shop, host: host, locale: locale },
    environment: { embedded: false, mobile: false, pos: false },
    idToken: idToken,
    toast: { show: showToast, hide: function () {} },
    loading: function () {},
    saveBar: {
      show: function (id) { var bar = saveBarById(id); return bar ? bar.show() : Promise.resolve(); },
      hide: function (id) { var bar = saveBarById(id); return bar ? bar.hide() : Promise.resolve(); },
      toggle: function (id) { var bar = saveBarById(id); return bar ? bar.toggle() : Promise.resolve(); },
      leaveConfirmation: function () {
        var open = document.querySelector("ui-save-bar[data-showing]");
        return open ? confirmDialog(texts.discardTitle, texts.discard, texts.keep).then(function (yes) { return yes ? undefined : new Promise(function () {}); }) : Promise.resolve();
      },
    },
    user: function () { return Promise.resolve({}); },
  };
})();
`;
