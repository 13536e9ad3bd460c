package zapier_test

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/bettyhq/betty/server/errs"
	"github.com/bettyhq/betty/server/integrations"
	"github.com/bettyhq/betty/server/integrations/zapier"
	"github.com/bettyhq/betty/server/integrations/zapier/zapiertest"
)

func client(f *zapiertest.Server) *zapier.Client {
	return zapier.New(zapier.Config{APIURL: f.URL, TokenURL: f.TokenURL(), ClientID: zapiertest.ClientID, ClientSecret: zapiertest.ClientSecret})
}

func kind(err error) errs.Kind {
	if e, ok := errs.As(err); ok {
		return e.Kind
	}
	return 255
}

func TestClientAgainstTheFake(t *testing.T) {
	ctx := context.Background()
	f := zapiertest.New()
	defer f.Close()
	c := client(f)

	ts, err := c.Templates(ctx)
	if err != nil || len(ts) != 2 || ts[0].ID != "1001" || ts[0].Description == "" || len(ts[0].Steps) != 2 ||
		ts[0].Steps[0].ImageURL == nil || *ts[0].Steps[0].ImageURL != "https://cdn.zapier.com/sheets-64.png" || ts[0].Steps[1].ImageURL != nil {
		t.Fatalf("templates: %+v %v", ts, err)
	}

	if _, err := c.Exchange(ctx, "bad-code"); kind(err) != errs.Unprocessable {
		t.Fatalf("a refused code: %v", err)
	}
	tok, err := c.Exchange(ctx, zapiertest.GoodCode)
	if err != nil || tok.AccessToken == "" || tok.RefreshToken == "" || time.Until(tok.ExpiresAt) < 50*time.Minute {
		t.Fatalf("exchange: %+v %v", tok, err)
	}
	if p, err := c.Me(ctx, tok.AccessToken); err != nil || p.ID != zapiertest.AccountID || p.Email != zapiertest.AccountEmail {
		t.Fatalf("me: %+v %v", p, err)
	}

	f.Set(func(s *zapiertest.Server) {
		for i := range 6 {
			s.Zaps = append(s.Zaps, zapiertest.Zap{ID: "z" + string(rune('a'+i)), Title: "Zap", Enabled: i%2 == 0,
				UpdatedAt: time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC), Apps: []string{"Betty", "Slack"}})
		}
	})
	zaps, total, err := c.Zaps(ctx, tok.AccessToken, 4, 4)
	if err != nil || total != 6 || len(zaps) != 2 || zaps[0].ID != "ze" || zaps[0].State != "on" || zaps[1].State != "off" ||
		len(zaps[0].Steps) != 2 || zaps[0].Steps[1].Title != "Slack" || zaps[0].ModifiedAt == nil {
		t.Fatalf("zaps: %+v %d %v", zaps, total, err)
	}
	if _, _, err := c.Zaps(ctx, "forged", 4, 0); kind(err) != errs.Unprocessable {
		t.Fatalf("zaps with a refused token: %v", err)
	}

	// Refresh: a good refresh token, then the same again (used: invalid_grant).
	nt, err := c.Refresh(ctx, tok.RefreshToken)
	if err != nil || nt.AccessToken == tok.AccessToken {
		t.Fatalf("refresh: %+v %v", nt, err)
	}
	if _, err := c.Refresh(ctx, tok.RefreshToken); !errors.Is(err, integrations.ErrRefreshRefused) {
		t.Fatalf("a used refresh token: %v", err)
	}
	if err := c.Revoke(ctx, nt); err != nil || len(f.Revoked) != 1 || f.Revoked[0] != nt.AccessToken {
		t.Fatalf("revoke: %v %v", err, f.Revoked)
	}

	// Zapier failing or unreachable is Unavailable.
	f.Set(func(s *zapiertest.Server) { s.FailAPI = 502 })
	if _, err := c.Templates(ctx); kind(err) != errs.Unavailable {
		t.Fatalf("templates while Zapier fails: %v", err)
	}
	if _, err := c.Exchange(ctx, zapiertest.GoodCode); kind(err) != errs.Unavailable {
		t.Fatalf("exchange while Zapier fails: %v", err)
	}
	down := zapier.New(zapier.Config{APIURL: "http://127.0.0.1:1", TokenURL: "http://127.0.0.1:1/oauth/token/", ClientID: "x", ClientSecret: "y"})
	if _, err := down.Templates(ctx); kind(err) != errs.Unavailable {
		t.Fatalf("templates while Zapier is unreachable: %v", err)
	}
	if _, err := down.Exchange(ctx, "c"); kind(err) != errs.Unavailable {
		t.Fatalf("exchange while Zapier is unreachable: %v", err)
	}

	// Without an OAuth client: not configured (503).
	none := zapier.New(zapier.Config{APIURL: f.URL})
	if _, err := none.Templates(ctx); !errors.Is(err, zapier.ErrNotConfigured) {
		t.Fatalf("templates without a client: %v", err)
	}
}
