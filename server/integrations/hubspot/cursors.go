package hubspot

import (
	"sync"
	"time"
)

// HubSpot pages its contacts by cursor (`after`), not by number: page N of a portal is N
// fetches away from the first. The cursors met on the way are kept for a while, per connected
// app and offset, so the canvas (which asks for its page every 10 seconds) and a person paging
// on fetch one page each time, not the whole walk again. A cursor is HubSpot's position after
// a contact id: contacts added or removed meanwhile shift a page by as many, as they would in
// any cursor walk.

// CursorTTL is how long a page's cursor is kept.
const CursorTTL = 5 * time.Minute

// maxCursors bounds the cache; when full, expired cursors go first, then any.
const maxCursors = 4096

type cursorKey struct {
	appID  string
	offset int
}

type cursorEntry struct {
	after string
	at    time.Time
}

type cursors struct {
	mu sync.Mutex
	m  map[cursorKey]cursorEntry
}

// nearest answers the cursor of the deepest page at or before offset still known, and its
// offset; 0 and "" start from the first page.
func (c *cursors) nearest(appID string, offset int, now time.Time) (int, string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	for o := offset - offset%PageSize; o > 0; o -= PageSize {
		if e, ok := c.m[cursorKey{appID, o}]; ok && now.Sub(e.at) < CursorTTL {
			return o, e.after
		}
	}
	return 0, ""
}

// keep remembers that the page at offset starts after cursor after.
func (c *cursors) keep(appID string, offset int, after string, now time.Time) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.m == nil {
		c.m = map[cursorKey]cursorEntry{}
	}
	if len(c.m) >= maxCursors {
		for k, e := range c.m {
			if now.Sub(e.at) >= CursorTTL {
				delete(c.m, k)
			}
		}
		for k := range c.m {
			if len(c.m) < maxCursors {
				break
			}
			delete(c.m, k)
		}
	}
	c.m[cursorKey{appID, offset}] = cursorEntry{after: after, at: now}
}

// forget drops an app's cursors (disconnected, or HubSpot refused one).
func (c *cursors) forget(appID string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	for k := range c.m {
		if k.appID == appID {
			delete(c.m, k)
		}
	}
}
