package httpapi

import (
	"net"
	"net/http"

	"github.com/labstack/echo/v4"
)

// ipExtractor says who the client is. X-Forwarded-For and X-Real-IP are anyone's to write, so
// they are believed only when the connection comes from one of the trusted proxies (the
// operator's load balancer); otherwise the client is the connection's own address. Per-address
// rate limits, sign-in throttling and the addresses recorded on sessions depend on it.
func ipExtractor(trusted []*net.IPNet) echo.IPExtractor {
	if len(trusted) == 0 {
		return echo.ExtractIPDirect()
	}
	opts := []echo.TrustOption{echo.TrustLoopback(false), echo.TrustLinkLocal(false), echo.TrustPrivateNet(false)}
	for _, n := range trusted {
		opts = append(opts, echo.TrustIPRange(n))
	}
	fromXFF := echo.ExtractIPFromXFFHeader(opts...)
	return func(r *http.Request) string { return fromXFF(r) }
}
