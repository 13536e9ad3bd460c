package auth

import (
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"errors"
	"math/big"
	"strings"
	"time"

	"github.com/golang-jwt/jwt/v5"
)

// APIKeyPrefix starts every organisation API key, so a bearer credential can be told apart
// from an access token without a lookup.
const APIKeyPrefix = "betty_sk_"

// PublicKeyPrefix starts a team's publishable key (not a secret).
const PublicKeyPrefix = "betty_pk_"

var (
	// ErrTokenExpired: the access token was valid but its time is up; refresh it.
	ErrTokenExpired = errors.New("access token expired")
	// ErrTokenInvalid: the access token is not one of ours.
	ErrTokenInvalid = errors.New("access token invalid")
)

// Claims are what an access token says.
type Claims struct {
	UserID    string
	SessionID string
	ExpiresAt time.Time
}

// Issuer signs and checks access tokens (HS256 JWTs) with the server's secret.
type Issuer struct {
	secret []byte
	ttl    time.Duration
	now    func() time.Time
}

// NewIssuer returns an issuer of tokens valid for ttl.
func NewIssuer(secret []byte, ttl time.Duration) *Issuer {
	return &Issuer{secret: secret, ttl: ttl, now: time.Now}
}

// TTL is how long an access token lives.
func (i *Issuer) TTL() time.Duration { return i.ttl }

type jwtClaims struct {
	SessionID string `json:"sid"`
	jwt.RegisteredClaims
}

// Issue returns a signed access token for a user's session and when it expires.
func (i *Issuer) Issue(userID, sessionID string) (string, time.Time, error) {
	now := i.now().UTC().Truncate(time.Second)
	exp := now.Add(i.ttl)
	tok := jwt.NewWithClaims(jwt.SigningMethodHS256, jwtClaims{
		SessionID: sessionID,
		RegisteredClaims: jwt.RegisteredClaims{
			Subject: userID, IssuedAt: jwt.NewNumericDate(now), ExpiresAt: jwt.NewNumericDate(exp), Issuer: "betty",
		},
	})
	s, err := tok.SignedString(i.secret)
	return s, exp, err
}

// Parse checks an access token: ErrTokenExpired or ErrTokenInvalid when it cannot be used.
func (i *Issuer) Parse(token string) (Claims, error) {
	var c jwtClaims
	_, err := jwt.ParseWithClaims(token, &c, func(*jwt.Token) (any, error) { return i.secret, nil },
		jwt.WithValidMethods([]string{jwt.SigningMethodHS256.Alg()}), jwt.WithIssuer("betty"),
		jwt.WithTimeFunc(i.now), jwt.WithExpirationRequired())
	switch {
	case errors.Is(err, jwt.ErrTokenExpired):
		return Claims{}, ErrTokenExpired
	case err != nil || c.Subject == "" || c.SessionID == "":
		return Claims{}, ErrTokenInvalid
	}
	return Claims{UserID: c.Subject, SessionID: c.SessionID, ExpiresAt: c.ExpiresAt.Time}, nil
}

// NewSecret returns 32 random bytes, hex-encoded: the signing secret made on first start.
func NewSecret() string {
	b := make([]byte, 32)
	_, _ = rand.Read(b)
	return hex.EncodeToString(b)
}

// NewOpaqueToken returns a random URL-safe token (refresh tokens and e-mailed links).
func NewOpaqueToken() string {
	b := make([]byte, 32)
	_, _ = rand.Read(b)
	return base64.RawURLEncoding.EncodeToString(b)
}

// HashToken is how high-entropy tokens and keys are stored: a SHA-256, hex. (Passwords use
// argon2id; these need no stretching, and must be found by hash.)
func HashToken(token string) string {
	sum := sha256.Sum256([]byte(token))
	return hex.EncodeToString(sum[:])
}

const base62 = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"

func randomBase62(n int) string {
	var sb strings.Builder
	max := big.NewInt(int64(len(base62)))
	for range n {
		i, _ := rand.Int(rand.Reader, max)
		sb.WriteByte(base62[i.Int64()])
	}
	return sb.String()
}

// NewAPIKey returns a new secret key (betty_sk_ + 43 base62 characters) and the prefix shown
// in lists (betty_sk_ + its first 8 characters).
func NewAPIKey() (key, prefix string) {
	key = APIKeyPrefix + randomBase62(43)
	return key, key[:len(APIKeyPrefix)+8]
}

// NewPublicKey returns a team's publishable key.
func NewPublicKey() string { return PublicKeyPrefix + randomBase62(24) }

// IsAPIKey says whether a bearer credential is an API key.
func IsAPIKey(credential string) bool { return strings.HasPrefix(credential, APIKeyPrefix) }
