/* Betty book-a-call widget. Paste into a storefront:
 *   <script src="https://<betty>/widget.js" data-betty-key="betty_pk_…" defer></script>
 * It adds a "Request a call" button; a shopper enters a number, ticks consent, and Betty calls.
 * No dependencies; its styles live in a shadow root so the store's and the widget's never mix. */
(function () {
  "use strict";
  var script = document.currentScript;
  if (!script || !window.fetch || !Element.prototype.attachShadow) return;
  var key = script.getAttribute("data-betty-key");
  if (!key) {
    console.warn("Betty widget: data-betty-key is missing, so no call can be booked.");
    return;
  }
  // Without defer, in <head>, the page has no body yet.
  if (document.body) mount();
  else document.addEventListener("DOMContentLoaded", mount);

  function mount() {
    if (document.querySelector("[data-betty-widget]")) return; // the snippet pasted twice
    var endpoint = new URL(script.src).origin + "/v1/call/book-a-call";
    var consentText = "I agree to receive a phone call at this number from this store, placed by an automated voice assistant.";
    var css =
      ":host{all:initial}*{box-sizing:border-box;font-family:system-ui,-apple-system,'Segoe UI',Roboto,sans-serif}" +
      ".w{position:fixed;right:20px;bottom:20px;z-index:2147483000;display:flex;flex-direction:column;align-items:flex-end;gap:10px}" +
      "button{font:inherit;font-size:15px;cursor:pointer;border-radius:8px;border:0;padding:10px 16px}" +
      ".open,.send{background:#111827;color:#fff;font-weight:600}.open{border-radius:999px;box-shadow:0 4px 14px rgba(0,0,0,.25)}" +
      "button:focus-visible,input:focus-visible{outline:3px solid #2563eb;outline-offset:2px}" +
      "button[disabled]{opacity:.6;cursor:wait}" +
      "form{width:min(320px,calc(100vw - 40px));background:#fff;color:#111827;border:1px solid #d1d5db;border-radius:12px;padding:16px;" +
      "box-shadow:0 10px 30px rgba(0,0,0,.2);display:flex;flex-direction:column;gap:10px;font-size:14px;line-height:1.4}" +
      "form[hidden]{display:none}h2{margin:0;font-size:16px}.top{display:flex;justify-content:space-between;align-items:center}" +
      ".x{background:none;color:#374151;padding:2px 8px;font-size:20px}label{display:flex;flex-direction:column;gap:4px}" +
      "input[type=tel],input[type=text]{font:inherit;font-size:15px;padding:8px;border:1px solid #9ca3af;border-radius:6px;color:#111827;background:#fff}" +
      ".c{flex-direction:row;align-items:flex-start;gap:8px}.c input{margin-top:3px;width:16px;height:16px;flex:none}" +
      ".s{margin:0;min-height:1em}.s.err{color:#b91c1c}.s.ok{color:#047857}";

    var host = document.createElement("div");
    host.setAttribute("data-betty-widget", "");
    document.body.appendChild(host);
    var root = host.attachShadow({ mode: "open" });
    // A constructed stylesheet needs no inline <style>, which a store's CSP may forbid.
    if (root.adoptedStyleSheets !== undefined && window.CSSStyleSheet && CSSStyleSheet.prototype.replaceSync) {
      var sheet = new CSSStyleSheet();
      sheet.replaceSync(css);
      root.adoptedStyleSheets = [sheet];
    } else {
      var style = document.createElement("style");
      style.textContent = css;
      root.appendChild(style);
    }

    function el(tag, attrs, text) {
      var e = document.createElement(tag);
      for (var k in attrs) e.setAttribute(k, attrs[k]);
      if (text) e.textContent = text;
      return e;
    }
    var wrap = el("div", { class: "w" });
    var form = el("form", { id: "betty-form", hidden: "", novalidate: "", "aria-labelledby": "betty-title" });
    var top = el("div", { class: "top" });
    top.appendChild(el("h2", { id: "betty-title" }, "Request a call"));
    var close = el("button", { type: "button", class: "x", "aria-label": "Close" }, "\u00d7");
    top.appendChild(close);
    var phoneLabel = el("label", {}, "Your phone number");
    var phone = el("input", { type: "tel", name: "phone", autocomplete: "tel", placeholder: "+1 415 555 0123", required: "" });
    phoneLabel.appendChild(phone);
    var nameLabel = el("label", {}, "Your name (optional)");
    var name = el("input", { type: "text", name: "name", autocomplete: "name", maxlength: "100" });
    nameLabel.appendChild(name);
    var consentLabel = el("label", { class: "c" });
    var consent = el("input", { type: "checkbox", name: "consent" });
    consentLabel.appendChild(consent);
    consentLabel.appendChild(el("span", {}, consentText));
    var send = el("button", { type: "submit", class: "send" }, "Call me");
    var status = el("p", { class: "s", role: "status", "aria-live": "polite" });
    [top, phoneLabel, nameLabel, consentLabel, send, status].forEach(function (c) { form.appendChild(c); });
    var open = el("button", { type: "button", class: "open", "aria-expanded": "false", "aria-controls": "betty-form" }, "Request a call");
    wrap.appendChild(form);
    wrap.appendChild(open);
    root.appendChild(wrap);

    function show(yes) {
      form.hidden = !yes;
      open.setAttribute("aria-expanded", String(yes));
      (yes ? phone : open).focus();
    }
    function say(text, kind) {
      status.className = "s " + (kind || "");
      status.textContent = text;
    }
    open.addEventListener("click", function () { show(form.hidden); });
    close.addEventListener("click", function () { show(false); });
    form.addEventListener("keydown", function (e) { if (e.key === "Escape") show(false); });

    form.addEventListener("submit", function (e) {
      e.preventDefault();
      var number = phone.value.trim();
      if (!number) { say("Please enter your phone number.", "err"); phone.focus(); return; }
      if (!consent.checked) { say("Please tick the box to agree to the call.", "err"); consent.focus(); return; }
      var body = { publicKey: key, phoneNumber: number.slice(0, 40), consent: true, consentText: consentText,
        pageUrl: String(location.href).slice(0, 2000) };
      if (name.value.trim()) body.name = name.value.trim().slice(0, 100);
      send.disabled = true;
      form.setAttribute("aria-busy", "true");
      say("Sending\u2026");
      fetch(endpoint, { method: "POST", mode: "cors", credentials: "omit", headers: { "Content-Type": "application/json" },
        body: JSON.stringify(body) })
        .then(function (r) {
          return r.json().catch(function () { return {}; }).then(function (j) {
            if (r.ok) {
              say("Thank you! We will call you at " + j.data.phoneNumber + " soon, within calling hours.", "ok");
              phone.value = "";
              consent.checked = false;
              return;
            }
            say(j.detail || "Something went wrong. Please try again later.", "err");
            var field = j.errors && j.errors[0] && j.errors[0].field;
            if (field && /consent/.test(field)) consent.focus();
            else if (field && /phoneNumber/.test(field)) phone.focus();
          });
        })
        .catch(function () { say("We could not reach the call service. Please check your connection and try again.", "err"); })
        .then(function () { send.disabled = false; form.removeAttribute("aria-busy"); });
    });
  }
})();
