package httpapi

import (
	"math"
	"net/http"
	"sync"
	"time"

	"github.com/labstack/echo/v4"
	"golang.org/x/time/rate"

	"github.com/bettyhq/betty/server/api"
	"github.com/bettyhq/betty/server/auth"
	"github.com/bettyhq/betty/server/problem"
)

// RateLimit is a token bucket per caller: Rate requests a second on average, Burst at once.
// Zero Rate turns it off.
type RateLimit struct {
	Rate  float64
	Burst int
}

// TooFast is the product's message for rate-limited requests.
const TooFast = "You're making requests too fast! Please slow down."

type limiter struct {
	cfg     RateLimit
	mu      sync.Mutex
	buckets map[string]*bucket
	sweep   time.Time
}

type bucket struct {
	l    *rate.Limiter
	seen time.Time
}

// limitRate refuses a caller's API request with 429 when their bucket is empty. Callers are the
// user, the API key, or the client address when anonymous. It runs after authentication; the
// dashboard's files (every path outside the API) are not counted.
func limitRate(cfg RateLimit) echo.MiddlewareFunc {
	l := &limiter{cfg: cfg, buckets: map[string]*bucket{}}
	return func(next echo.HandlerFunc) echo.HandlerFunc {
		if cfg.Rate <= 0 {
			return next
		}
		return func(c echo.Context) error {
			// The dashboard's own files are not API calls: counting them let a few quick reloads
			// spend the caller's whole burst on scripts, and a refused script chunk broke the
			// dashboard (a failed dynamic import) instead of slowing an API client down.
			if !isAPIPath(c.Request().URL.Path) {
				return next(c)
			}
			key := "ip:" + c.RealIP()
			if p, ok := auth.PrincipalFrom(c.Request().Context()); ok {
				key = "user:" + p.UserID
				if p.IsAPIKey() {
					key = "key:" + p.APIKeyID
				}
			}
			if wait := l.reserve(key); wait > 0 {
				return &problem.Error{Status: http.StatusTooManyRequests, Code: api.ProblemCodeRateLimited,
					Detail: TooFast, RetryAfter: int(math.Ceil(wait.Seconds()))}
			}
			return next(c)
		}
	}
}

// reserve takes a token for key, or says how long until one is available.
func (l *limiter) reserve(key string) time.Duration {
	l.mu.Lock()
	defer l.mu.Unlock()
	now := time.Now()
	if now.Sub(l.sweep) > time.Minute {
		for k, b := range l.buckets {
			if now.Sub(b.seen) > 10*time.Minute {
				delete(l.buckets, k)
			}
		}
		l.sweep = now
	}
	b := l.buckets[key]
	if b == nil {
		b = &bucket{l: rate.NewLimiter(rate.Limit(l.cfg.Rate), l.cfg.Burst)}
		l.buckets[key] = b
	}
	b.seen = now
	r := b.l.ReserveN(now, 1)
	if d := r.DelayFrom(now); d > 0 {
		r.CancelAt(now)
		return d
	}
	return 0
}
