// Package links builds the dashboard links Betty e-mails (confirmation, invitations, password
// resets, ownership transfers, admin notices). They point at this deployment's dashboard
// only: the base URL, or one of the allowed other dashboard origins when a request names it.
package links

import (
	"net"
	"net/url"
	"strings"

	"github.com/bettyhq/betty/server/errs"
)

// Builder knows where the dashboard lives.
type Builder struct {
	// BaseURL is the public URL of this server.
	BaseURL string
	// AllowedOrigins are other dashboard origins a request may ask links to point to.
	AllowedOrigins []string
}

// To is an absolute link to path with query q at the base URL.
func (b Builder) To(path string, q url.Values) string { return At(b.BaseURL, path, q) }

// At is an absolute link to path with query q at base.
func At(base, path string, q url.Values) string {
	return strings.TrimRight(base, "/") + path + "?" + q.Encode()
}

// Base answers the base of a link for a request that named origin: the base URL for its own
// origin or none, the origin itself when it is allowed. Anything else is refused (field
// body.origin) so that e-mails cannot point elsewhere.
func (b Builder) Base(origin string) (string, error) {
	if strings.TrimSpace(origin) == "" {
		return b.BaseURL, nil
	}
	if want, ok := Origin(origin, true); ok {
		if base, _ := Origin(b.BaseURL, false); want == base {
			return b.BaseURL, nil
		}
		for _, a := range b.AllowedOrigins {
			if allowed, _ := Origin(a, false); allowed != "" && want == allowed {
				return want, nil
			}
		}
	}
	return "", errs.InvalidField("body.origin", "origin must be one of this deployment's dashboard addresses")
}

// Origin answers scheme://host[:port] of a URL, lower-cased and without a default port.
// strict refuses URLs with more than an origin (a path other than /, a query, credentials).
func Origin(raw string, strict bool) (string, bool) {
	u, err := url.Parse(strings.TrimSpace(raw))
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return "", false
	}
	if strict && ((u.Path != "" && u.Path != "/") || u.RawQuery != "" || u.Fragment != "" || u.User != nil) {
		return "", false
	}
	scheme, host := strings.ToLower(u.Scheme), strings.ToLower(u.Hostname())
	port := u.Port()
	if (scheme == "http" && port == "80") || (scheme == "https" && port == "443") {
		port = ""
	}
	if port != "" {
		host = net.JoinHostPort(host, port)
	} else if strings.Contains(host, ":") {
		host = "[" + host + "]"
	}
	return scheme + "://" + host, true
}

// CheckReturnURL refuses a URL a payment page sends the browser back to when it is not on one
// of the deployment's dashboard origins: a 422 naming body.originUrl.
func (b Builder) CheckReturnURL(raw string) error {
	origin, ok := Origin(raw, false)
	if ok {
		if _, err := b.Base(origin); err == nil {
			return nil
		}
	}
	const msg = "originUrl must be on one of this deployment's dashboard addresses"
	return &errs.Error{Kind: errs.Unprocessable, Message: msg, Fields: []errs.Field{{Name: "body.originUrl", Message: msg}}}
}
