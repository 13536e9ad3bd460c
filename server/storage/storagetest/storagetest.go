// Package storagetest is the one test suite every storage implementation passes (the disk and
// the S3 adapter against a fake S3 server), so they behave alike.
package storagetest

import (
	"bytes"
	"context"
	"crypto/rand"
	"errors"
	"io"
	"strings"
	"testing"

	"github.com/bettyhq/betty/server/storage"
)

// Run runs the suite on s, which must be empty.
func Run(t *testing.T, s storage.Storage) {
	ctx := context.Background()
	put := func(t *testing.T, s storage.Storage, key string, data []byte) {
		t.Helper()
		if err := s.Put(ctx, key, bytes.NewReader(data), int64(len(data))); err != nil {
			t.Fatalf("put %s: %v", key, err)
		}
	}
	read := func(t *testing.T, s storage.Storage, key string) []byte {
		t.Helper()
		o, err := s.Open(ctx, key)
		if err != nil {
			t.Fatalf("open %s: %v", key, err)
		}
		defer o.Close()
		got, err := io.ReadAll(o)
		if err != nil {
			t.Fatalf("read %s: %v", key, err)
		}
		if o.Size() != int64(len(got)) {
			t.Fatalf("%s: Size %d, read %d bytes", key, o.Size(), len(got))
		}
		return got
	}
	missing := func(t *testing.T, s storage.Storage, key string) {
		t.Helper()
		if o, err := s.Open(ctx, key); !errors.Is(err, storage.ErrNotExist) {
			if err == nil {
				o.Close()
			}
			t.Fatalf("open %s: %v, want ErrNotExist", key, err)
		}
	}

	t.Run("put, open, seek and read at", func(t *testing.T) {
		data := random(t, 100_000)
		put(t, s, "org/up/file-1", data)
		if got := read(t, s, "org/up/file-1"); !bytes.Equal(got, data) {
			t.Fatal("the bytes read differ from those put")
		}
		o, err := s.Open(ctx, "org/up/file-1")
		if err != nil {
			t.Fatal(err)
		}
		defer o.Close()
		if _, err := o.Seek(90_000, io.SeekStart); err != nil {
			t.Fatal(err)
		}
		tail, err := io.ReadAll(o)
		if err != nil || !bytes.Equal(tail, data[90_000:]) {
			t.Fatalf("read after seek: %d bytes, %v", len(tail), err)
		}
		mid := make([]byte, 10)
		if _, err := o.ReadAt(mid, 500); err != nil || !bytes.Equal(mid, data[500:510]) {
			t.Fatalf("read at: %v", err)
		}
	})
	t.Run("an object larger than one S3 part", func(t *testing.T) {
		data := random(t, 17<<20)
		put(t, s, "org/big/file", data)
		if got := read(t, s, "org/big/file"); !bytes.Equal(got, data) {
			t.Fatal("the bytes read differ from those put")
		}
	})
	t.Run("empty object", func(t *testing.T) {
		put(t, s, "org/empty", nil)
		if got := read(t, s, "org/empty"); len(got) != 0 {
			t.Fatalf("read %d bytes", len(got))
		}
	})
	t.Run("put replaces", func(t *testing.T) {
		put(t, s, "org/replace", []byte("first"))
		put(t, s, "org/replace", []byte("second"))
		if got := read(t, s, "org/replace"); string(got) != "second" {
			t.Fatalf("read %q", got)
		}
	})
	t.Run("a failed put stores nothing", func(t *testing.T) {
		r := io.MultiReader(bytes.NewReader(random(t, 1000)), failing{})
		if err := s.Put(ctx, "org/failed", r, 5000); err == nil {
			t.Fatal("put from a failing reader succeeded")
		}
		missing(t, s, "org/failed")
		if err := s.Put(ctx, "org/short", strings.NewReader("abc"), 10); err == nil {
			t.Fatal("put of fewer bytes than announced succeeded")
		}
		missing(t, s, "org/short")
	})
	t.Run("missing objects", func(t *testing.T) {
		missing(t, s, "org/nothing-here")
		if err := s.Delete(ctx, "org/nothing-here"); err != nil {
			t.Fatalf("delete a missing object: %v", err)
		}
	})
	t.Run("delete and delete prefix", func(t *testing.T) {
		put(t, s, "a/b/one", []byte("1"))
		put(t, s, "a/b/two", []byte("2"))
		put(t, s, "a/b/deeper/three", []byte("3"))
		put(t, s, "a/bc/four", []byte("4"))
		if err := s.Delete(ctx, "a/b/one"); err != nil {
			t.Fatal(err)
		}
		missing(t, s, "a/b/one")
		if err := s.DeletePrefix(ctx, "a/b/"); err != nil {
			t.Fatal(err)
		}
		missing(t, s, "a/b/two")
		missing(t, s, "a/b/deeper/three")
		if got := read(t, s, "a/bc/four"); string(got) != "4" {
			t.Fatalf("a sibling prefix lost its object: %q", got)
		}
		if err := s.DeletePrefix(ctx, "a/nothing/"); err != nil {
			t.Fatalf("delete an empty prefix: %v", err)
		}
		for _, bad := range []string{"", "a/b", "../", "/a/"} {
			if err := s.DeletePrefix(ctx, bad); err == nil {
				t.Errorf("DeletePrefix(%q) was accepted", bad)
			}
		}
	})
	t.Run("keys that are not clean relative paths are refused", func(t *testing.T) {
		for _, key := range []string{"", "/abs", "../up", "a/../../b", "a//b", "a/./b", "a/", `a\b`, "nul\x00"} {
			if err := s.Put(ctx, key, strings.NewReader("x"), 1); !errors.Is(err, storage.ErrBadKey) {
				t.Errorf("put %q: %v, want ErrBadKey", key, err)
			}
			if _, err := s.Open(ctx, key); !errors.Is(err, storage.ErrBadKey) {
				t.Errorf("open %q: %v, want ErrBadKey", key, err)
			}
		}
	})
	t.Run("a prefixed storage cannot reach outside its prefix", func(t *testing.T) {
		teamA, teamB := storage.Prefixed(s, "team-a/"), storage.Prefixed(s, "team-b/")
		put(t, teamA, "up/file", []byte("a's"))
		put(t, teamB, "up/file", []byte("b's"))
		if got := read(t, s, "team-a/up/file"); string(got) != "a's" {
			t.Fatalf("team-a/up/file = %q", got)
		}
		if got := read(t, teamB, "up/file"); string(got) != "b's" {
			t.Fatalf("team b reads %q", got)
		}
		for _, key := range []string{"../team-b/up/file", "/team-b/up/file", "up/../../team-b/up/file"} {
			if _, err := teamA.Open(ctx, key); !errors.Is(err, storage.ErrBadKey) {
				t.Errorf("team a opened %q: %v", key, err)
			}
		}
		if err := teamA.DeletePrefix(ctx, "../team-b/"); !errors.Is(err, storage.ErrBadKey) {
			t.Errorf("team a deleted team b's prefix: %v", err)
		}
		if err := teamA.DeletePrefix(ctx, "up/"); err != nil {
			t.Fatal(err)
		}
		missing(t, teamA, "up/file")
		if got := read(t, teamB, "up/file"); string(got) != "b's" {
			t.Fatalf("team b's file after team a deleted its own: %q", got)
		}
		if _, err := storage.Prefixed(s, "../").Open(ctx, "x"); !errors.Is(err, storage.ErrBadKey) {
			t.Errorf("a prefix that climbs out: %v", err)
		}
	})
}

type failing struct{}

func (failing) Read([]byte) (int, error) { return 0, errors.New("the connection broke") }

func random(t *testing.T, n int) []byte {
	t.Helper()
	b := make([]byte, n)
	if _, err := rand.Read(b); err != nil {
		t.Fatal(err)
	}
	return b
}
