package httpapi

import (
	"bytes"
	"strconv"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"
	"github.com/prometheus/common/expfmt"

	"github.com/bettyhq/betty/server/store"
)

// Metrics are the server's Prometheus metrics, in a registry of its own (no globals, so tests
// can run many servers in one process).
type Metrics struct {
	registry *prometheus.Registry
	requests *prometheus.CounterVec
	latency  *prometheus.HistogramVec
}

// NewMetrics registers the request metrics, the database pool statistics and the Go runtime.
func NewMetrics(db *store.DB) *Metrics {
	m := &Metrics{
		registry: prometheus.NewRegistry(),
		requests: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "betty_http_requests_total",
			Help: "HTTP requests by operation and status code.",
		}, []string{"operation", "status"}),
		latency: prometheus.NewHistogramVec(prometheus.HistogramOpts{
			Name:    "betty_http_request_duration_seconds",
			Help:    "HTTP request latency by operation.",
			Buckets: []float64{.001, .0025, .005, .01, .025, .05, .1, .25, .5, 1, 2.5, 5, 10},
		}, []string{"operation"}),
	}
	m.registry.MustRegister(m.requests, m.latency,
		collectors.NewGoCollector(), collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}))
	for pool, stats := range db.Pools() {
		m.registry.MustRegister(prometheus.WrapCollectorWith(prometheus.Labels{"pool": pool},
			collectors.NewDBStatsCollector(stats, "betty")))
	}
	return m
}

// observe records one finished request. operation is the contract's operationId, or "other"
// for requests outside the contract (the dashboard, unknown paths), so labels stay bounded.
func (m *Metrics) observe(operation string, status int, d time.Duration) {
	m.requests.WithLabelValues(operation, strconv.Itoa(status)).Inc()
	m.latency.WithLabelValues(operation).Observe(d.Seconds())
}

// Text renders every metric in the Prometheus text format.
func (m *Metrics) Text() (string, error) {
	families, err := m.registry.Gather()
	if err != nil {
		return "", err
	}
	var buf bytes.Buffer
	enc := expfmt.NewEncoder(&buf, expfmt.NewFormat(expfmt.TypeTextPlain))
	for _, f := range families {
		if err := enc.Encode(f); err != nil {
			return "", err
		}
	}
	return buf.String(), nil
}
