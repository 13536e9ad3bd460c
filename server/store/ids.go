package store

import (
	"time"

	"github.com/google/uuid"
)

// NewID returns a new time-ordered id (UUIDv7), so ids sort roughly by creation.
func NewID() string {
	return uuid.Must(uuid.NewV7()).String()
}

// now is the store's clock, truncated to microseconds so SQLite and PostgreSQL hold the same
// value.
func now() time.Time {
	return time.Now().UTC().Truncate(time.Microsecond)
}

// SameID says whether two optional ids (nullable id columns) are the same: both absent, or
// both present and equal.
func SameID(a, b *string) bool {
	if a == nil || b == nil {
		return a == nil && b == nil
	}
	return *a == *b
}
