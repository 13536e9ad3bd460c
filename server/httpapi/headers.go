package httpapi

import (
	"strings"

	"github.com/labstack/echo/v4"
)

// DashboardCSP is the Content-Security-Policy of the dashboard's pages: its own scripts only
// (Vite emits no inline script), styles from itself plus inline style attributes (Radix UI
// positions popovers with them), media and images from itself (recordings, greetings and
// previews are served by the API or made in the page as blob: or data: URLs), API calls to
// itself only, and never inside another site's frame.
const DashboardCSP = "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; " +
	"img-src 'self' data: blob:; media-src 'self' data: blob:; font-src 'self' data:; connect-src 'self'; " +
	"worker-src 'self' blob:; object-src 'none'; base-uri 'self'; form-action 'self'; frame-ancestors 'none'"

// apiCSP is the policy of API answers: nothing in them may load or run anything.
const apiCSP = "default-src 'none'; frame-ancestors 'none'"

// securityHeaders sets, on every answer (errors included), the headers that keep browsers from
// sniffing types, leaking links with tokens in them through Referer, framing Betty, or caching
// API answers; https deployments also get HSTS.
func securityHeaders(https bool) echo.MiddlewareFunc {
	return func(next echo.HandlerFunc) echo.HandlerFunc {
		return func(c echo.Context) error {
			h := c.Response().Header()
			h.Set("X-Content-Type-Options", "nosniff")
			h.Set("Referrer-Policy", "no-referrer")
			h.Set("X-Frame-Options", "DENY")
			h.Set("Cross-Origin-Opener-Policy", "same-origin")
			h.Set("Permissions-Policy", "camera=(), geolocation=(), payment=(), usb=()")
			if https {
				h.Set("Strict-Transport-Security", "max-age=31536000; includeSubDomains")
			}
			if isAPIPath(c.Request().URL.Path) {
				h.Set("Content-Security-Policy", apiCSP)
				h.Set("Cache-Control", "no-store")
			} else {
				h.Set("Content-Security-Policy", DashboardCSP)
			}
			return next(c)
		}
	}
}

func isHTTPS(baseURL string) bool { return strings.HasPrefix(strings.ToLower(baseURL), "https://") }
