package shopify

import _ "embed"

// Widget is the storefront script served at /widget.js (widget.js beside this file: vanilla
// JavaScript, no dependencies, its styles in a shadow root). It posts to the /v1/call/book-a-call
// of the origin it was loaded from, and its consent sentence is DefaultConsentText
// (TestWidgetSendsTheDefaultConsent checks they agree).
//
//go:embed widget.js
var Widget []byte
