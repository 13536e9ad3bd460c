package storage

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
)

// Disk keeps objects as files under a folder (by default <data dir>/files), a key's segments
// being sub-folders. It is for one server, or replicas sharing that folder.
type Disk struct {
	root string
}

// NewDisk returns the storage in folder root, creating it.
func NewDisk(root string) (*Disk, error) {
	if root == "" {
		return nil, errors.New("storage: no folder for files (set --data-dir or --storage-url)")
	}
	abs, err := filepath.Abs(root)
	if err != nil {
		return nil, fmt.Errorf("storage: %w", err)
	}
	if err := os.MkdirAll(abs, 0o700); err != nil {
		return nil, fmt.Errorf("storage: %w", err)
	}
	return &Disk{root: abs}, nil
}

func (d *Disk) String() string { return "disk " + d.root }

func (d *Disk) path(key string) (string, error) {
	if err := CheckKey(key); err != nil {
		return "", err
	}
	return filepath.Join(d.root, filepath.FromSlash(key)), nil
}

// Put writes a temporary file beside the object, syncs it and renames it into place, so a
// reader never sees half an object and a crash leaves none.
func (d *Disk) Put(ctx context.Context, key string, r io.Reader, size int64) error {
	path, err := d.path(key)
	if err != nil {
		return err
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return fmt.Errorf("storage: %w", err)
	}
	tmp, err := os.CreateTemp(filepath.Dir(path), ".put-*")
	if err != nil {
		return fmt.Errorf("storage: %w", err)
	}
	defer os.Remove(tmp.Name()) // after the rename, there is nothing left to remove
	n, err := io.Copy(tmp, io.LimitReader(contextReader{ctx, r}, size+1))
	if err == nil && n != size {
		err = fmt.Errorf("storage: %s: got %d bytes, want %d", key, n, size)
	}
	if err == nil {
		err = tmp.Sync()
	}
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return err
	}
	return os.Rename(tmp.Name(), path)
}

func (d *Disk) Open(_ context.Context, key string) (Object, error) {
	path, err := d.path(key)
	if err != nil {
		return nil, err
	}
	f, err := os.Open(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, fmt.Errorf("%w: %s", ErrNotExist, key)
	}
	if err != nil {
		return nil, err
	}
	st, err := f.Stat()
	if err != nil {
		f.Close()
		return nil, err
	}
	return diskObject{f, st.Size()}, nil
}

type diskObject struct {
	*os.File
	size int64
}

func (o diskObject) Size() int64 { return o.size }

func (d *Disk) Delete(_ context.Context, key string) error {
	path, err := d.path(key)
	if err != nil {
		return err
	}
	if err := os.Remove(path); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return err
	}
	return nil
}

func (d *Disk) DeletePrefix(_ context.Context, prefix string) error {
	if err := CheckPrefix(prefix); err != nil {
		return err
	}
	if prefix == "" {
		return errors.New("storage: refusing to delete every object")
	}
	return os.RemoveAll(filepath.Join(d.root, filepath.FromSlash(prefix)))
}

// contextReader stops a copy when its context ends.
type contextReader struct {
	ctx context.Context
	r   io.Reader
}

func (c contextReader) Read(p []byte) (int, error) {
	if err := c.ctx.Err(); err != nil {
		return 0, err
	}
	return c.r.Read(p)
}
