// Command fakehubspot runs the fake HubSpot (server/integrations/hubspot/hubspottest) as a
// process of its own, for the dashboard's end-to-end tests: the OAuth authorisation page
// (/oauth/authorize with Approve and Deny buttons), the OAuth v1 token endpoints, CRM v3
// contacts (search, list, read, update), the lifecycle-stage property and lists (a list of
// every other seeded contact). It prints {"url", "clientId", "clientSecret", "portalId",
// "domain", "listId"} as one JSON line on stdout, then serves until interrupted;
// GET /_fake/stats answers its counters.
//
// Flags:
//
//	--listen ADDR          address to listen on (default 127.0.0.1:0)
//	--client-id ID         client id the fake accepts (default fake-hubspot-client-id)
//	--client-secret S      client secret the fake accepts (default fake-hubspot-client-secret)
//	--portal-id N          the portal's hub_id (default 24017381)
//	--domain D             the portal's hub_domain (default acme.hubspot.com)
//	--contacts N           contacts to seed, each with a valid US number (default 5)
//	--invalid-phones N     contacts to seed besides, with an unusable number (default 0)
//	--seed N               seed of the generated names (default 1)
//	--token-ttl D          access-token lifetime (default 30m)
//
// Point Betty at it with --hubspot-client-id, --hubspot-client-secret, and both
// --hubspot-api-url and --hubspot-auth-url (the latter as <url>/oauth/authorize):
//
//	go run ./server/internal/cmd/fakehubspot --contacts 20
package main

import (
	"context"
	"fmt"
	"os"
	"os/signal"
	"syscall"

	"github.com/bettyhq/betty/server/integrations/hubspot/hubspottest"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	if err := hubspottest.Serve(ctx, os.Args[1:], os.Stdout); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
}
