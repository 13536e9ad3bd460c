//go:build unix

package app

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"syscall"
)

// lockDataDir takes the data directory for this process: one betty serve a SQLite database.
// The kernel lets go of the lock when the process ends, however it ends, so a server that
// crashed leaves nothing to clean up. It answers whether the lock is exclusive (always, here)
// and how to let go of it.
func lockDataDir(dir string) (release func(), exclusive bool, err error) {
	f, err := os.OpenFile(filepath.Join(dir, "serve.lock"), os.O_CREATE|os.O_RDWR, 0o600)
	if err != nil {
		return nil, false, fmt.Errorf("lock the data directory: %w", err)
	}
	if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB); err != nil {
		f.Close()
		if errors.Is(err, syscall.EWOULDBLOCK) {
			return nil, false, fmt.Errorf("another betty serve is using the data directory %s: stop it first "+
				"(two servers on one SQLite database would work the same background jobs twice)", dir)
		}
		return nil, false, fmt.Errorf("lock the data directory: %w", err)
	}
	return func() { f.Close() }, true, nil
}
