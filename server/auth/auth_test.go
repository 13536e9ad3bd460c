package auth

import (
	"context"
	"errors"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

func TestPasswords(t *testing.T) {
	h, err := HashPassword("correct horse")
	if err != nil || !strings.HasPrefix(h, "$argon2id$v=19$m=19456,t=2,p=1$") {
		t.Fatalf("hash %q %v", h, err)
	}
	if !CheckPassword(h, "correct horse") || CheckPassword(h, "correct horsE") || CheckPassword("", "") || CheckPassword("garbage", "x") {
		t.Fatal("check")
	}
	if h2, _ := HashPassword("correct horse"); h2 == h {
		t.Fatal("no salt")
	}
}

func TestAccessTokens(t *testing.T) {
	i := NewIssuer([]byte("secret"), time.Minute)
	tok, exp, err := i.Issue("u1", "s1")
	if err != nil {
		t.Fatal(err)
	}
	c, err := i.Parse(tok)
	if err != nil || c.UserID != "u1" || c.SessionID != "s1" || !c.ExpiresAt.Equal(exp) {
		t.Fatalf("parse: %+v %v", c, err)
	}
	i.now = func() time.Time { return time.Now().Add(2 * time.Minute) }
	if _, err := i.Parse(tok); err != ErrTokenExpired {
		t.Fatalf("expired: %v", err)
	}
	if _, err := NewIssuer([]byte("other"), time.Minute).Parse(tok); err != ErrTokenInvalid {
		t.Fatalf("other secret: %v", err)
	}
	if _, err := i.Parse(tok + "x"); err != ErrTokenInvalid {
		t.Fatalf("tampered: %v", err)
	}
}

func TestAPIKeys(t *testing.T) {
	k, prefix := NewAPIKey()
	if !IsAPIKey(k) || len(k) != len(APIKeyPrefix)+43 || !strings.HasPrefix(k, prefix) || len(prefix) != len(APIKeyPrefix)+8 {
		t.Fatalf("%q %q", k, prefix)
	}
	if IsAPIKey("eyJhbGciOi") || HashToken(k) == HashToken(k+"x") || len(HashToken(k)) != 64 {
		t.Fatal("key checks")
	}
}

func TestRoles(t *testing.T) {
	if !Owner.AtLeast(Admin) || Member.AtLeast(Developer) || !Readonly.AtLeast(Readonly) || Role("god").AtLeast(Readonly) {
		t.Fatal("role order")
	}
}

func TestThrottle(t *testing.T) {
	now := time.Now()
	th := NewThrottle(3, time.Minute)
	th.now = func() time.Time { return now }
	for range 2 {
		th.Fail("a")
	}
	if th.Wait("a") != 0 {
		t.Fatal("two failures throttled")
	}
	th.Fail("a")
	if w := th.Wait("a", "b"); w != time.Second {
		t.Fatalf("third failure: %v", w)
	}
	th.Fail("a")
	if w := th.Wait("a"); w != 2*time.Second {
		t.Fatalf("doubling: %v", w)
	}
	for range 20 {
		th.Fail("a")
	}
	if w := th.Wait("a"); w != time.Minute {
		t.Fatalf("capped at the window: %v", w)
	}
	th.Succeed("a")
	if th.Wait("a") != 0 || th.Wait("b") != 0 {
		t.Fatal("success does not reset")
	}
}

// At most Slots hashes run at once; a caller that cannot get a slot within MaxWait is told the
// hasher is busy instead of piling on.
func TestHasherBoundsConcurrentWork(t *testing.T) {
	h := NewHasher(2, 50*time.Millisecond)
	ctx := context.Background()
	// Hold both slots.
	if err := h.acquire(ctx); err != nil {
		t.Fatal(err)
	}
	if err := h.acquire(ctx); err != nil {
		t.Fatal(err)
	}
	start := time.Now()
	if _, err := h.Hash(ctx, "correct horse"); !errors.Is(err, ErrBusy) {
		t.Fatalf("third hash: %v", err)
	}
	if waited := time.Since(start); waited < 50*time.Millisecond {
		t.Fatalf("gave up after %v, before MaxWait", waited)
	}
	// A slot freed while queued is taken.
	go func() { time.Sleep(10 * time.Millisecond); h.release() }()
	hash, err := h.Hash(ctx, "correct horse")
	if err != nil {
		t.Fatal(err)
	}
	h.release()
	if ok, err := h.Check(ctx, hash, "correct horse"); !ok || err != nil {
		t.Fatalf("check: %v %v", ok, err)
	}
	// Concurrency never exceeds the slots.
	var running, peak atomic.Int32
	var wg sync.WaitGroup
	h = NewHasher(2, 10*time.Second)
	for range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if err := h.acquire(ctx); err != nil {
				t.Error(err)
				return
			}
			n := running.Add(1)
			for {
				p := peak.Load()
				if n <= p || peak.CompareAndSwap(p, n) {
					break
				}
			}
			time.Sleep(5 * time.Millisecond)
			running.Add(-1)
			h.release()
		}()
	}
	wg.Wait()
	if peak.Load() > 2 {
		t.Fatalf("%d hashes ran at once", peak.Load())
	}
}
