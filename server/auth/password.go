// Package auth holds who may do what: password hashing, access tokens, API keys, one-time
// tokens, the role policy of every operation, and sign-in throttling. The HTTP middleware
// that applies them lives in server/httpapi.
package auth

import (
	"context"
	"crypto/rand"
	"crypto/subtle"
	"encoding/base64"
	"errors"
	"fmt"
	"runtime"
	"strings"
	"sync"
	"time"

	"golang.org/x/crypto/argon2"
)

// Argon2id parameters (OWASP's recommended minimum: 19 MiB, 2 passes, 1 lane).
const (
	argonMemory  = 19 * 1024
	argonTime    = 2
	argonThreads = 1
	argonKeyLen  = 32
	saltLen      = 16
)

// HashPassword returns an argon2id hash in the PHC string format.
func HashPassword(password string) (string, error) {
	salt := make([]byte, saltLen)
	if _, err := rand.Read(salt); err != nil {
		return "", err
	}
	key := argon2.IDKey([]byte(password), salt, argonTime, argonMemory, argonThreads, argonKeyLen)
	b64 := base64.RawStdEncoding
	return fmt.Sprintf("$argon2id$v=%d$m=%d,t=%d,p=%d$%s$%s", argon2.Version, argonMemory, argonTime, argonThreads,
		b64.EncodeToString(salt), b64.EncodeToString(key)), nil
}

// dummyHash is checked against when the account does not exist, so a sign-in takes as long
// whether or not the e-mail is known. It is made on first use: hashing costs tens of
// milliseconds, which every `betty` CLI command would otherwise pay at start-up.
var dummyHash = sync.OnceValue(func() string {
	h, _ := HashPassword("betty-timing-equaliser")
	return h
})

// CheckPassword says whether password matches hash, in constant time. An empty hash (no
// password set) checks against a dummy and never matches.
func CheckPassword(hash, password string) bool {
	if hash == "" {
		_ = CheckPassword(dummyHash(), password)
		return false
	}
	ok, err := verify(hash, password)
	return err == nil && ok
}

func verify(hash, password string) (bool, error) {
	parts := strings.Split(hash, "$")
	if len(parts) != 6 || parts[1] != "argon2id" {
		return false, errors.New("not an argon2id hash")
	}
	var memory uint32
	var t uint32
	var threads uint8
	if _, err := fmt.Sscanf(parts[3], "m=%d,t=%d,p=%d", &memory, &t, &threads); err != nil {
		return false, err
	}
	salt, err := base64.RawStdEncoding.DecodeString(parts[4])
	if err != nil {
		return false, err
	}
	want, err := base64.RawStdEncoding.DecodeString(parts[5])
	if err != nil {
		return false, err
	}
	got := argon2.IDKey([]byte(password), salt, t, memory, threads, uint32(len(want)))
	return subtle.ConstantTimeCompare(got, want) == 1, nil
}

// ErrBusy: password hashing is at capacity and the caller waited as long as it may.
var ErrBusy = errors.New("auth: password hashing is busy")

// Hasher runs argon2id with bounded concurrency. Each hash holds 19 MiB and a core for tens of
// milliseconds, so a storm of sign-ups or sign-ins run all at once would take the server's
// memory and every core (200 at once reached 3.9 GB and 17 s each). At most Slots run at once;
// others queue for at most MaxWait, then get ErrBusy, which the API answers 503 with
// Retry-After.
type Hasher struct {
	slots   chan struct{}
	maxWait time.Duration
}

// NewHasher allows slots hashes at once (at least one) and callers to queue for maxWait.
func NewHasher(slots int, maxWait time.Duration) *Hasher {
	return &Hasher{slots: make(chan struct{}, max(1, slots)), maxWait: maxWait}
}

// DefaultHasher is sized to the cores: one hash per core, a queue of up to five seconds.
func DefaultHasher() *Hasher { return NewHasher(runtime.GOMAXPROCS(0), 5*time.Second) }

// MaxWait is how long a caller may queue.
func (h *Hasher) MaxWait() time.Duration { return h.maxWait }

func (h *Hasher) acquire(ctx context.Context) error {
	select {
	case h.slots <- struct{}{}:
		return nil
	default:
	}
	t := time.NewTimer(h.maxWait)
	defer t.Stop()
	select {
	case h.slots <- struct{}{}:
		return nil
	case <-t.C:
		return ErrBusy
	case <-ctx.Done():
		return ctx.Err()
	}
}

func (h *Hasher) release() { <-h.slots }

// Hash is HashPassword within the bound.
func (h *Hasher) Hash(ctx context.Context, password string) (string, error) {
	if err := h.acquire(ctx); err != nil {
		return "", err
	}
	defer h.release()
	return HashPassword(password)
}

// Check is CheckPassword within the bound.
func (h *Hasher) Check(ctx context.Context, hash, password string) (bool, error) {
	if err := h.acquire(ctx); err != nil {
		return false, err
	}
	defer h.release()
	return CheckPassword(hash, password), nil
}
