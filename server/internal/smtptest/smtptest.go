// Package smtptest is a fake SMTP relay for tests: it speaks enough of RFC 5321 for net/smtp
// (greeting, EHLO, MAIL, RCPT, DATA, QUIT) and keeps every message it accepts.
package smtptest

import (
	"bufio"
	"io"
	"net"
	"strings"
	"sync"
	"testing"
)

// Server is a running fake relay.
type Server struct {
	ln   net.Listener
	mu   sync.Mutex
	msgs []Message
}

// Message is one accepted message.
type Message struct {
	To   string
	Data string
}

// Start runs a relay on a free port until the test ends.
func Start(t testing.TB) *Server { return StartAt(t, "127.0.0.1:0") }

// StartAt runs a relay on addr until the test ends.
func StartAt(t testing.TB, addr string) *Server {
	t.Helper()
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	s := &Server{ln: ln}
	t.Cleanup(func() { ln.Close() })
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			go s.serve(c)
		}
	}()
	return s
}

// Addr is host:port.
func (s *Server) Addr() string { return s.ln.Addr().String() }

// URL is the relay as Betty's --smtp-url.
func (s *Server) URL() string { return "smtp://" + s.Addr() }

// Messages returns what the relay accepted so far.
func (s *Server) Messages() []Message {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]Message(nil), s.msgs...)
}

func (s *Server) serve(c net.Conn) {
	defer c.Close()
	r := bufio.NewReader(c)
	say := func(line string) { _, _ = io.WriteString(c, line+"\r\n") }
	say("220 fake ESMTP")
	var to string
	for {
		line, err := r.ReadString('\n')
		if err != nil {
			return
		}
		cmd := strings.ToUpper(strings.TrimSpace(line))
		switch {
		case strings.HasPrefix(cmd, "EHLO"), strings.HasPrefix(cmd, "HELO"):
			say("250 fake")
		case strings.HasPrefix(cmd, "MAIL FROM"):
			say("250 ok")
		case strings.HasPrefix(cmd, "RCPT TO"):
			to = strings.Trim(strings.TrimSpace(line[len("RCPT TO:"):]), "<>")
			say("250 ok")
		case cmd == "DATA":
			say("354 go ahead")
			var b strings.Builder
			for {
				l, err := r.ReadString('\n')
				if err != nil || l == ".\r\n" {
					break
				}
				b.WriteString(l)
			}
			s.mu.Lock()
			s.msgs = append(s.msgs, Message{To: to, Data: b.String()})
			s.mu.Unlock()
			say("250 queued")
		case cmd == "QUIT":
			say("221 bye")
			return
		default:
			say("250 ok")
		}
	}
}
