// Command faketelnyx runs the fake Telnyx API (server/phones/telnyx/telnyxtest) as a process
// of its own: numbers, Call Control v2 with seeded call outcomes, and signed webhooks retried
// until acknowledged. It prints {"url", "apiKey", "publicKey"} as one JSON line on stdout,
// then serves until interrupted; GET /_fake/stats tells what it counted.
//
//	go run ./server/internal/cmd/faketelnyx --listen 127.0.0.1:0 \
//	    --webhook-url http://127.0.0.1:8080/v1/webhooks/telnyx --seed 7 --answer 0.6 --busy 0.2
package main

import (
	"context"
	"fmt"
	"os"
	"os/signal"
	"syscall"

	"github.com/bettyhq/betty/server/phones/telnyx/telnyxtest"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	if err := telnyxtest.Serve(ctx, os.Args[1:], os.Stdout); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
}
