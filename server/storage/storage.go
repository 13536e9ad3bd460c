// Package storage keeps the bytes of uploaded files as objects: byte strings under
// slash-separated keys ("<organisation>/<upload>/file-…"). It is a provider: Storage is the
// interface, Disk the implementation that works offline (a folder of the data directory, the
// default), and storage/s3 the adapter for an S3-compatible store that replicas without a
// shared disk use. Objects are written whole and never changed: a resumable upload keeps each
// chunk as an object of its own and writes the finished file once (package uploads).
//
// Tenancy: callers reach one team's objects through Prefixed(s, orgID+"/"), whose keys cannot
// climb out of the prefix (CheckKey refuses "..", absolute and empty segments), so code acting
// for one team never names another team's object.
package storage

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strings"
)

// Storage keeps objects.
type Storage interface {
	// Put stores the size bytes r yields under key, replacing any object there. The object
	// exists whole or not at all: a reader that fails or yields another number of bytes
	// stores nothing.
	Put(ctx context.Context, key string, r io.Reader, size int64) error
	// Open reads an object; ErrNotExist when there is none.
	Open(ctx context.Context, key string) (Object, error)
	// Delete removes an object; a missing one is not an error.
	Delete(ctx context.Context, key string) error
	// DeletePrefix removes every object whose key starts with prefix, which ends with "/".
	DeletePrefix(ctx context.Context, prefix string) error
	// String describes where objects live, for the start-up summary (no secrets).
	String() string
}

// Object is an open object: read it in order, seek in it, or read at an offset (a zip's
// directory, a byte range). Close it.
type Object interface {
	io.ReadSeekCloser
	io.ReaderAt
	// Size is the object's length in bytes.
	Size() int64
}

// ErrNotExist: no object has this key.
var ErrNotExist = errors.New("storage: no such object")

// ErrBadKey: the key is not a clean relative path.
var ErrBadKey = errors.New("storage: invalid key")

// CheckKey refuses keys that are not clean relative paths: empty, absolute, with empty, "."
// or ".." segments, backslashes or control characters. Every implementation checks the keys
// it is given, so no key escapes its folder or prefix.
func CheckKey(key string) error {
	if key == "" || len(key) > 1024 {
		return fmt.Errorf("%w: %q", ErrBadKey, key)
	}
	for _, seg := range strings.Split(key, "/") {
		if seg == "" || seg == "." || seg == ".." {
			return fmt.Errorf("%w: %q", ErrBadKey, key)
		}
	}
	for _, r := range key {
		if r < 0x20 || r == 0x7f || r == '\\' {
			return fmt.Errorf("%w: %q", ErrBadKey, key)
		}
	}
	return nil
}

// CheckPrefix is CheckKey for DeletePrefix's argument: a clean key followed by "/", or ""
// (everything).
func CheckPrefix(prefix string) error {
	if prefix == "" {
		return nil
	}
	if !strings.HasSuffix(prefix, "/") {
		return fmt.Errorf("%w: prefix %q does not end with /", ErrBadKey, prefix)
	}
	return CheckKey(strings.TrimSuffix(prefix, "/"))
}

// Prefixed is the part of s under prefix (a clean key ending with "/"): every key given to it
// is checked and put under the prefix, so it cannot name anything outside.
func Prefixed(s Storage, prefix string) Storage {
	if err := CheckPrefix(prefix); err != nil || prefix == "" {
		return broken{fmt.Errorf("storage: prefix %q: %w", prefix, ErrBadKey)}
	}
	return &prefixed{s: s, prefix: prefix}
}

type prefixed struct {
	s      Storage
	prefix string
}

func (p *prefixed) key(k string) (string, error) {
	if err := CheckKey(k); err != nil {
		return "", err
	}
	return p.prefix + k, nil
}

func (p *prefixed) Put(ctx context.Context, key string, r io.Reader, size int64) error {
	k, err := p.key(key)
	if err != nil {
		return err
	}
	return p.s.Put(ctx, k, r, size)
}

func (p *prefixed) Open(ctx context.Context, key string) (Object, error) {
	k, err := p.key(key)
	if err != nil {
		return nil, err
	}
	return p.s.Open(ctx, k)
}

func (p *prefixed) Delete(ctx context.Context, key string) error {
	k, err := p.key(key)
	if err != nil {
		return err
	}
	return p.s.Delete(ctx, k)
}

func (p *prefixed) DeletePrefix(ctx context.Context, prefix string) error {
	if err := CheckPrefix(prefix); err != nil {
		return err
	}
	return p.s.DeletePrefix(ctx, p.prefix+prefix)
}

func (p *prefixed) String() string { return p.s.String() + " under " + p.prefix }

// broken answers err to everything: a Prefixed with a bad prefix.
type broken struct{ err error }

func (b broken) Put(context.Context, string, io.Reader, int64) error { return b.err }
func (b broken) Open(context.Context, string) (Object, error)        { return nil, b.err }
func (b broken) Delete(context.Context, string) error                { return b.err }
func (b broken) DeletePrefix(context.Context, string) error          { return b.err }
func (b broken) String() string                                      { return b.err.Error() }
