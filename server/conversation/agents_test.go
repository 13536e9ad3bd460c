package conversation_test

import (
	"context"
	"testing"

	"github.com/bettyhq/betty/server/conversation"
	"github.com/bettyhq/betty/server/errs"
	"github.com/bettyhq/betty/server/internal/testdb"
	kb "github.com/bettyhq/betty/server/knowledge"
	"github.com/bettyhq/betty/server/store"
)

// The knowledge service is the engine's Knowledge as it is.
var _ conversation.Knowledge = (*kb.Service)(nil)

func TestStoreAgents(t *testing.T) {
	testdb.Each(t, func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		var orgs []string
		for _, email := range []string{"a@example.com", "b@example.com"} {
			u := store.User{Email: email}
			if err := db.CreateUser(ctx, &u); err != nil {
				t.Fatal(err)
			}
			o := store.Organization{Name: "Team " + email, OwnerUserID: u.ID, PublicAPIKey: "pk_" + store.NewID()}
			if err := db.CreateOrganization(ctx, &o, u.Email); err != nil {
				t.Fatal(err)
			}
			orgs = append(orgs, o.ID)
		}
		preset := "espeak-en-us-linda"
		ag := store.Agent{OrganizationID: orgs[0], Name: "Linda", Status: "active", Greeting: "Hi {{firstName}}", Instructions: "Be brief.",
			VoicePresetID: &preset, Language: "en-US", FAQ: `{"When are you open?":"Nine to five."}`}
		if err := db.CreateAgent(ctx, &ag); err != nil {
			t.Fatal(err)
		}
		p, err := conversation.StoreAgents{DB: db}.Profile(ctx, orgs[0], ag.ID)
		if err != nil || p.Name != "Linda" || p.Greeting != "Hi {{firstName}}" || p.Voice != preset || p.FAQ["When are you open?"] != "Nine to five." ||
			p.Instructions != "Be brief." {
			t.Fatalf("profile %+v %v", p, err)
		}
		// Another team's agent is not found.
		if _, err := (conversation.StoreAgents{DB: db}).Profile(ctx, orgs[1], ag.ID); !errs.Is(err, errs.NotFound) {
			t.Fatalf("another team's agent: %v", err)
		}
	})
}
