package mail

import (
	"errors"
	"net/smtp"
	"strings"
	"sync"
)

type smtpAuth = smtp.Auth

var errRelayDown = errors.New("421 relay down")

type syncWriter struct {
	mu sync.Mutex
	b  strings.Builder
}

func (w *syncWriter) Write(p []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.b.Write(p)
}

func (w *syncWriter) String() string {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.b.String()
}
