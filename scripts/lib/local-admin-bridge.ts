// A local stand-in for Shopify's App Bridge script, served by the demo's server at /local-admin/app-bridge.js
// (scripts/lib/local-admin.ts). The shell loads it instead of the CDN script when LOCAL_ADMIN=1. It defines
// window.shopify (idToken, toast, loading, config) and adds a fresh session token to the page's same-origin
// fetches, as App Bridge does inside the Shopify admin.

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
    "ui-nav-menu{display:flex;gap:20px;align-items:center;padding:10px 20px;background:#1a1a1a;font:600 13px/20px Inter,-apple-system,sans-serif}" +
    "ui-nav-menu::before{content:'Local admin: " + shop.replace(/[^a-z0-9.-]/g, "") + "';color:#8a8a8a;font-weight:500;margin-right:8px}" +
    "ui-nav-menu a{color:#e3e3e3;text-decoration:none}ui-nav-menu a:hover{color:#fff;text-decoration:underline}" +
    "ui-title-bar{display:none}"
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

  window.shopify = {
    __local: true,
    config: { apiKey: current ? current.getAttribute("data-api-key") : "", shop: shop, host: host, locale: locale },
    environment: { embedded: false, mobile: false, pos: false },
    idToken: idToken,
    toast: { show: showToast, hide: function () {} },
    loading: function () {},
    user: function () { return Promise.resolve({}); },
  };
})();
`;
