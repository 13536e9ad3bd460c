package hubspottest

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"math/rand/v2"
	"net"
	"time"
)

// Serve runs a fake portal as a process (server/internal/cmd/fakehubspot): it parses args,
// seeds the contacts and a list of every other valid one, prints {"url", "clientId",
// "clientSecret", "portalId", "domain", "listId"} as one JSON line on out, and serves until
// ctx ends.
func Serve(ctx context.Context, args []string, out io.Writer) error {
	fs := flag.NewFlagSet("fakehubspot", flag.ContinueOnError)
	listen := fs.String("listen", "127.0.0.1:0", "address to listen on")
	clientID := fs.String("client-id", "fake-hubspot-client-id", "the HubSpot app's client id the fake accepts")
	secret := fs.String("client-secret", "fake-hubspot-client-secret", "the HubSpot app's client secret the fake accepts")
	portal := fs.Int64("portal-id", 24017381, "the portal's hub_id")
	domain := fs.String("domain", "acme.hubspot.com", "the portal's hub_domain")
	contacts := fs.Int("contacts", 5, "contacts to seed, each with a valid US phone number")
	invalid := fs.Int("invalid-phones", 0, "contacts to seed besides, with an unusable phone number")
	seed := fs.Uint64("seed", 1, "seed of the generated names")
	ttl := fs.Duration("token-ttl", 30*time.Minute, "how long an access token lives")
	if err := fs.Parse(args); err != nil {
		return err
	}
	s := NewUnstarted(Options{ClientID: *clientID, ClientSecret: *secret, PortalID: *portal, Domain: *domain, TokenTTL: *ttl})
	Seed(s, *contacts, *invalid, *seed)
	var half []string
	for i := 0; i < *contacts; i += 2 {
		half = append(half, s.order[i])
	}
	listID := s.AddList("Every other seeded contact", half...)
	ln, err := net.Listen("tcp", *listen)
	if err != nil {
		return err
	}
	s.Listener.Close()
	s.Listener = ln
	s.Start()
	defer s.Close()
	line, _ := json.Marshal(map[string]any{"url": s.URL, "clientId": *clientID, "clientSecret": *secret, "portalId": *portal, "domain": *domain, "listId": listID})
	if _, err := fmt.Fprintln(out, string(line)); err != nil {
		return err
	}
	<-ctx.Done()
	return nil
}

var firstNames = []string{"Ada", "Grace", "Alan", "Katherine", "Linus", "Margaret", "Dennis", "Barbara", "Ken", "Frances"}
var lastNames = []string{"Lovelace", "Hopper", "Turing", "Johnson", "Torvalds", "Hamilton", "Ritchie", "Liskov", "Thompson", "Allen"}

// Seed adds n contacts with valid US numbers (+1 415 555 01xx… in the fictional range, lead
// stages cycling) and invalid ones with unusable numbers.
func Seed(s *Server, n, invalid int, seed uint64) {
	r := rand.New(rand.NewPCG(seed, seed^0x9e3779b97f4a7c15))
	stages := []string{"lead", "marketingqualifiedlead", "salesqualifiedlead", "customer", "subscriber"}
	for i := range n {
		f, l := firstNames[r.IntN(len(firstNames))], lastNames[r.IntN(len(lastNames))]
		s.AddContact(map[string]string{"firstname": f, "lastname": l,
			"email":          fmt.Sprintf("%s.%s%d@example.com", lower(f), lower(l), i+1),
			"phone":          fmt.Sprintf("+1 415 555 %04d", 100+i%9900),
			"lifecyclestage": stages[i%len(stages)]})
	}
	for i := range invalid {
		s.AddContact(map[string]string{"firstname": "Broken", "lastname": fmt.Sprint(i + 1), "phone": "12"})
	}
}

func lower(s string) string {
	b := []byte(s)
	for i, c := range b {
		if c >= 'A' && c <= 'Z' {
			b[i] = c + 32
		}
	}
	return string(b)
}
