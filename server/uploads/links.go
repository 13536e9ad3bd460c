package uploads

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/base64"
	"net/url"
	"strconv"
	"strings"
	"time"
)

// LinkTTL is how long a file URL (fileUrl) works after it is issued.
const LinkTTL = 24 * time.Hour

// signer makes and checks the tokens of file URLs: "<expiry, unix seconds>.<HMAC-SHA256 of
// the upload id and the expiry under the server's secret>", so a token names one file until
// one moment and nothing else.
type signer struct{ key []byte }

func (s signer) token(id string, expires time.Time) string {
	exp := strconv.FormatInt(expires.Unix(), 10)
	return exp + "." + s.mac(id, exp)
}

func (s signer) mac(id, exp string) string {
	m := hmac.New(sha256.New, s.key)
	m.Write([]byte("betty file\x00" + id + "\x00" + exp))
	return base64.RawURLEncoding.EncodeToString(m.Sum(nil))
}

// valid says whether token names upload id and has not expired at now.
func (s signer) valid(id, token string, now time.Time) bool {
	exp, sig, ok := strings.Cut(token, ".")
	if !ok {
		return false
	}
	unix, err := strconv.ParseInt(exp, 10, 64)
	if err != nil || !now.Before(time.Unix(unix, 0)) {
		return false
	}
	return hmac.Equal([]byte(sig), []byte(s.mac(id, exp)))
}

// fileLink splits a file URL (…/v1/files/<id>?token=…) into the upload id and the token; ok
// is false for anything else. The host is not checked: the signature is what counts, and a
// server may be reached under several names.
func fileLink(raw string) (id, token string, ok bool) {
	u, err := url.Parse(raw)
	if err != nil {
		return "", "", false
	}
	dir, id, _ := cutLast(u.Path, "/")
	if !strings.HasSuffix(dir, "/v1/files") || id == "" {
		return "", "", false
	}
	token = u.Query().Get("token")
	return id, token, token != ""
}

func cutLast(s, sep string) (before, after string, found bool) {
	if i := strings.LastIndex(s, sep); i >= 0 {
		return s[:i], s[i+len(sep):], true
	}
	return s, "", false
}
