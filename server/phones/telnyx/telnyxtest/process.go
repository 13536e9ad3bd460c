package telnyxtest

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"net"
	"net/http"
	"strings"
	"time"
)

// Serve runs the fake as a process would (cmd/faketelnyx, and tests that start it as one):
// it parses args, listens, prints one JSON line on out — {"url", "apiKey", "publicKey"} —
// and serves until ctx ends.
//
//	--listen 127.0.0.1:0 --webhook-url URL[,URL…] --seed N --api-key KEY
//	--answer 0.6 --busy 0.2 --no-answer 0.1 --voicemail 0.1 --ring 20ms --idle-hangup 20s
//	--lose-answers 0.05 --utterance "…" --workers 16 --drop-hangups --forget-after 10m
func Serve(ctx context.Context, args []string, out io.Writer) error {
	fs := flag.NewFlagSet("faketelnyx", flag.ContinueOnError)
	listen := fs.String("listen", "127.0.0.1:0", "address to listen on")
	hooks := fs.String("webhook-url", "", "where to send the signed webhooks (comma-separated: tried in turn)")
	apiKey := fs.String("api-key", "KEY-faketelnyx", "the API key the fake accepts")
	seed := fs.Int64("seed", 1, "seed of the outcomes and of the signing key")
	answer := fs.Float64("answer", 0.6, "share of calls a person answers")
	busy := fs.Float64("busy", 0.2, "share of calls that are busy")
	noAnswer := fs.Float64("no-answer", 0.1, "share of calls nobody answers")
	voicemail := fs.Float64("voicemail", 0.1, "share of calls reaching voicemail (the rest fail)")
	ring := fs.Duration("ring", 20*time.Millisecond, "how long a call rings")
	idle := fs.Duration("idle-hangup", 20*time.Second, "an answered call without commands for this long is hung up")
	utterance := fs.String("utterance", "", "what the person says when listened to")
	workers := fs.Int("workers", 16, "concurrent webhook deliveries")
	lose := fs.Float64("lose-answers", 0, "share of dials placed but answered 503 (the client must ask again)")
	drop := fs.Bool("drop-hangups", false, "lose every call.hangup webhook (only GET /calls/{id} tells a call ended)")
	forget := fs.Duration("forget-after", 10*time.Minute, "how long an ended call's status is kept before GET /calls/{id} answers 404")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if *answer+*busy+*noAnswer+*voicemail > 1.000001 {
		return errors.New("faketelnyx: --answer, --busy, --no-answer and --voicemail add up to more than 1")
	}
	var urls []string
	for _, u := range strings.Split(*hooks, ",") {
		if u = strings.TrimSpace(u); u != "" {
			urls = append(urls, u)
		}
	}
	s := New(*apiKey)
	s.EnableCalls(CallsConfig{WebhookURLs: urls, Seed: *seed, Answer: *answer, Busy: *busy, NoAnswer: *noAnswer,
		Voicemail: *voicemail, Ring: *ring, IdleHangup: *idle, Utterance: *utterance, Workers: *workers, LoseAnswers: *lose,
		DropHangups: *drop, ForgetAfter: *forget})
	defer s.Close()
	ln, err := net.Listen("tcp", *listen)
	if err != nil {
		return err
	}
	base := "http://" + ln.Addr().String()
	s.SetURL(base)
	line, _ := json.Marshal(map[string]string{"url": base, "apiKey": *apiKey, "publicKey": s.PublicKey()})
	fmt.Fprintln(out, string(line))
	srv := &http.Server{Handler: s, ReadHeaderTimeout: 10 * time.Second}
	errc := make(chan error, 1)
	go func() { errc <- srv.Serve(ln) }()
	select {
	case err := <-errc:
		return err
	case <-ctx.Done():
		sctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
		defer cancel()
		return srv.Shutdown(sctx)
	}
}
