package httpapi_test

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/bettyhq/betty/server/config"
	"github.com/bettyhq/betty/server/internal/apitest"
	"github.com/bettyhq/betty/server/internal/testdb"
)

// teamAPI is a small client of the Team operations for these tests.
type teamAPI struct {
	t   *testing.T
	env *apitest.Env
}

func newTeamAPI(t *testing.T, env *apitest.Env) teamAPI { return teamAPI{t: t, env: env} }

// do sends a request as token (an access token, an API key, or "" for none).
func (a teamAPI) do(token, method, path string, body any) *apitest.Response {
	a.t.Helper()
	return a.env.Do(apitest.Request{Method: method, Path: path, Body: body, Token: token})
}

// want sends a request and fails unless it is answered with status; it decodes the body into
// out when given.
func (a teamAPI) want(status int, token, method, path string, body, out any) *apitest.Response {
	a.t.Helper()
	res := a.do(token, method, path, body)
	if res.Status != status {
		a.t.Fatalf("%s %s: %d, want %d: %s", method, path, res.Status, status, res.Body)
	}
	if out != nil {
		res.JSON(a.t, out)
	}
	return res
}

// problem sends a request and returns the problem it is answered with, failing unless its
// status is status.
func (a teamAPI) problem(status int, token, method, path string, body any) apitest.Problem {
	a.t.Helper()
	res := a.do(token, method, path, body)
	if res.Status != status {
		a.t.Fatalf("%s %s: %d, want %d: %s", method, path, res.Status, status, res.Body)
	}
	return res.Problem(a.t)
}

type teamJSON struct {
	ID, Name, PublicApiKey, VerificationLevel, SubscriptionTier, MyRole string
	CompanyName, Industry                                               *string
	Owner                                                               struct{ ID, Email string }
	CreatedAt                                                           time.Time
}

type memberJSON struct {
	ID, OrganizationID, Email, Role, Status string
	UserID, Name                            *string
	JoinedAt, RemovedAt                     *time.Time
}

type metaJSON struct {
	Page, TotalSize, Start, End, TotalPages int
	HasNext, HasPrevious                    bool
}

// createTeam creates a team through the API and returns it.
func (a teamAPI) createTeam(c apitest.Caller, name string) teamJSON {
	a.t.Helper()
	var body struct{ Data teamJSON }
	a.want(http.StatusCreated, c.Access, "POST", "/v1/team/new", map[string]any{"name": name}, &body)
	return body.Data
}

// members lists a team's members (first page of 100).
func (a teamAPI) members(c apitest.Caller, org string) []memberJSON {
	a.t.Helper()
	var body struct{ Data []memberJSON }
	a.want(http.StatusOK, c.Access, "GET", "/v1/team/members/list?sizePerPage=100&organizationId="+org, nil, &body)
	return body.Data
}

// roleOf answers the role of an e-mail among a team's listed members ("" when not listed).
func (a teamAPI) roleOf(c apitest.Caller, org, email string) string {
	a.t.Helper()
	for _, m := range a.members(c, org) {
		if m.Email == email {
			return m.Role
		}
	}
	return ""
}

// invite invites an e-mail with a role and returns the token of the e-mailed link.
func (a teamAPI) invite(by apitest.Caller, org, email, role string) string {
	a.t.Helper()
	a.want(http.StatusCreated, by.Access, "POST", "/v1/team/invite",
		map[string]any{"email": email, "organizationId": org, "origin": "http://betty.test", "role": role}, nil)
	return a.mailedToken(email, "invitation", "inviteToken")
}

// join invites c into org with role and accepts with the e-mailed token.
func (a teamAPI) join(owner apitest.Caller, org string, c apitest.Caller, role string) {
	a.t.Helper()
	token := a.invite(owner, org, c.Email, role)
	a.want(http.StatusOK, c.Access, "POST", "/v1/team/accept-invite", map[string]any{"token": token}, nil)
}

// mailedToken reads the newest e-mail of a kind to addr and returns its link's param.
func (a teamAPI) mailedToken(addr, kind, param string) string {
	a.t.Helper()
	link := a.mailedLink(addr, kind)
	u, err := url.Parse(link)
	if err != nil {
		a.t.Fatal(err)
	}
	return u.Query().Get(param)
}

func (a teamAPI) mailedLink(addr, kind string) string {
	a.t.Helper()
	mails, err := a.env.DB.Outbox(context.Background(), addr)
	if err != nil {
		a.t.Fatal(err)
	}
	for _, m := range mails {
		if m.Kind == kind {
			return m.Link
		}
	}
	a.t.Fatalf("no %s e-mail to %s", kind, addr)
	return ""
}

// raw runs a statement on the test database (to age rows).
func (a teamAPI) raw(stmt string) {
	a.t.Helper()
	if err := a.env.DB.ExecRaw(context.Background(), stmt); err != nil {
		a.t.Fatal(err)
	}
}

func TestCreateListAndUpdateTeams(t *testing.T) {
	apitest.Each(t, func(t *testing.T, env *apitest.Env) {
		a := newTeamAPI(t, env)
		ada := env.SignUp(t, "ada@example.com")
		var created struct{ Data teamJSON }
		a.want(http.StatusCreated, ada.Access, "POST", "/v1/team/new",
			map[string]any{"name": "  Acme support ", "companyName": "Acme Inc.", "platformKey": "shopify"}, &created)
		team := created.Data
		if team.Name != "Acme support" || team.MyRole != "owner" || team.Owner.ID != ada.UserID || team.SubscriptionTier != "free" ||
			team.VerificationLevel != "none" || !strings.HasPrefix(team.PublicApiKey, "betty_pk_") || team.Industry != nil ||
			team.CompanyName == nil || *team.CompanyName != "Acme Inc." {
			t.Fatalf("created team: %+v", team)
		}
		// The creator is the owner, and no longer "has no teams owned".
		if got := a.members(ada, team.ID); len(got) != 1 || got[0].Role != "owner" || got[0].Status != "active" ||
			got[0].UserID == nil || *got[0].UserID != ada.UserID || got[0].JoinedAt == nil {
			t.Fatalf("members of a new team: %+v", got)
		}
		var me struct {
			Data struct{ HasNoTeamsOwned bool }
		}
		a.want(http.StatusOK, ada.Access, "GET", "/v1/auth/me", nil, &me)
		if me.Data.HasNoTeamsOwned {
			t.Fatal("the creator still has no teams owned")
		}
		if p := a.problem(http.StatusBadRequest, ada.Access, "POST", "/v1/team/new", map[string]any{"name": "   "}); p.Errors[0].Field != "body.name" {
			t.Fatalf("blank name: %+v", p)
		}

		// Properties: sent ones change, an empty string clears, omitted ones stay.
		var updated struct{ Data teamJSON }
		a.want(http.StatusOK, ada.Access, "PATCH", "/v1/team/properties",
			map[string]any{"id": team.ID, "name": "Acme", "companyName": "", "industry": "Retail"}, &updated)
		if u := updated.Data; u.Name != "Acme" || u.CompanyName != nil || u.Industry == nil || *u.Industry != "Retail" || u.MyRole != "owner" {
			t.Fatalf("updated team: %+v", u)
		}

		// The list: oldest first, paginated, a page past the last is clamped.
		a.createTeam(ada, "Second")
		a.createTeam(ada, "Third")
		var page struct {
			Data []teamJSON
			Meta metaJSON
		}
		a.want(http.StatusOK, ada.Access, "GET", "/v1/team/list?page=1&sizePerPage=2", nil, &page)
		if len(page.Data) != 2 || page.Data[0].Name != "Acme" || page.Data[0].MyRole != "owner" ||
			page.Meta != (metaJSON{Page: 1, TotalSize: 3, Start: 1, End: 2, TotalPages: 2, HasNext: true}) {
			t.Fatalf("first page: %+v", page)
		}
		a.want(http.StatusOK, ada.Access, "GET", "/v1/team/list?page=9&sizePerPage=2", nil, &page)
		if len(page.Data) != 1 || page.Data[0].Name != "Third" ||
			page.Meta != (metaJSON{Page: 2, TotalSize: 3, Start: 3, End: 3, TotalPages: 2, HasPrevious: true}) {
			t.Fatalf("clamped page: %+v", page)
		}
		// Someone else sees only their own teams (none), with the list's empty meta.
		bob := env.SignUp(t, "bob@example.com")
		a.want(http.StatusOK, bob.Access, "GET", "/v1/team/list?page=3", nil, &page)
		if len(page.Data) != 0 || page.Meta != (metaJSON{Page: 1}) {
			t.Fatalf("no teams: %+v", page)
		}
		// As a member, a team is listed with the caller's role there.
		a.join(ada, team.ID, bob, "developer")
		a.want(http.StatusOK, bob.Access, "GET", "/v1/team/list", nil, &page)
		if len(page.Data) != 1 || page.Data[0].ID != team.ID || page.Data[0].MyRole != "developer" || page.Data[0].Owner.Email != ada.Email {
			t.Fatalf("bob's teams: %+v", page)
		}
		// Only admins change properties.
		a.problem(http.StatusForbidden, bob.Access, "PATCH", "/v1/team/properties", map[string]any{"id": team.ID, "name": "Mine"})
	})
}

func TestInviteAndAcceptByLink(t *testing.T) {
	apitest.Each(t, func(t *testing.T, env *apitest.Env) {
		a := newTeamAPI(t, env)
		ada := env.SignUp(t, "ada@example.com")
		org := a.createTeam(ada, "Acme").ID

		// The address needs no account to be invited.
		var invited struct{ Data memberJSON }
		a.want(http.StatusCreated, ada.Access, "POST", "/v1/team/invite",
			map[string]any{"email": "Bob@Example.com", "organizationId": org, "origin": "http://betty.test"}, &invited)
		if m := invited.Data; m.Email != "bob@example.com" || m.Role != "member" || m.Status != "invited" || m.UserID != nil || m.JoinedAt != nil {
			t.Fatalf("invited member: %+v", m)
		}
		link := a.mailedLink("bob@example.com", "invitation")
		if !strings.HasPrefix(link, "http://betty.test/invite?inviteToken=") {
			t.Fatalf("invitation link %q", link)
		}
		// Inviting again sends a fresh link (the first stops working) and updates the role.
		first := a.mailedToken("bob@example.com", "invitation", "inviteToken")
		a.want(http.StatusCreated, ada.Access, "POST", "/v1/team/invite",
			map[string]any{"email": "bob@example.com", "organizationId": org, "origin": "http://betty.test/", "role": "developer"}, &invited)
		token := a.mailedToken("bob@example.com", "invitation", "inviteToken")
		if invited.Data.Role != "developer" || token == first {
			t.Fatalf("re-invitation: %+v", invited.Data)
		}

		bob := env.SignUp(t, "bob@example.com")
		// The old link is cancelled.
		if p := a.problem(http.StatusBadRequest, bob.Access, "POST", "/v1/team/accept-invite", map[string]any{"token": first}); p.Code != "invalid_token" {
			t.Fatalf("cancelled link: %+v", p)
		}
		// Someone else cannot use bob's link, and trying does not use it up.
		carol := env.SignUp(t, "carol@example.com")
		a.problem(http.StatusForbidden, carol.Access, "POST", "/v1/team/accept-invite", map[string]any{"token": token})

		var accepted struct{ Data memberJSON }
		a.want(http.StatusOK, bob.Access, "POST", "/v1/team/accept-invite", map[string]any{"token": token}, &accepted)
		if m := accepted.Data; m.Status != "active" || m.Role != "developer" || m.UserID == nil || *m.UserID != bob.UserID ||
			m.JoinedAt == nil || m.Name == nil || *m.Name != "Test User" {
			t.Fatalf("accepted member: %+v", m)
		}
		// Following the link again answers the membership again (the contract's 200), and
		// changes nothing.
		var again struct{ Data memberJSON }
		a.want(http.StatusOK, bob.Access, "POST", "/v1/team/accept-invite", map[string]any{"token": token}, &again)
		if again.Data.ID != accepted.Data.ID || again.Data.Status != "active" || !again.Data.JoinedAt.Equal(*accepted.Data.JoinedAt) {
			t.Fatalf("second use: %+v", again.Data)
		}
		// Someone else still cannot use it.
		a.problem(http.StatusForbidden, carol.Access, "POST", "/v1/team/accept-invite", map[string]any{"token": token})
		a.problem(http.StatusBadRequest, bob.Access, "POST", "/v1/team/accept-invite", map[string]any{"token": "nonsense"})

		// Bob is a member now: he sees the team and its members, owner first.
		got := a.members(bob, org)
		if len(got) != 2 || got[0].Email != ada.Email || got[1].Email != bob.Email || got[1].Status != "active" {
			t.Fatalf("members: %+v", got)
		}
		// An active member cannot be invited again.
		a.problem(http.StatusConflict, ada.Access, "POST", "/v1/team/invite",
			map[string]any{"email": bob.Email, "organizationId": org, "origin": "http://betty.test"})

		// An expired link is refused.
		token = a.invite(ada, org, "dave@example.com", "member")
		dave := env.SignUp(t, "dave@example.com")
		a.raw(fmt.Sprintf(`UPDATE one_time_tokens SET expires_at = '2020-01-01 00:00:00+00:00' WHERE kind = 'invitation' AND email = '%s'`, dave.Email))
		if p := a.problem(http.StatusBadRequest, dave.Access, "POST", "/v1/team/accept-invite", map[string]any{"token": token}); p.Code != "invalid_token" {
			t.Fatalf("expired link: %+v", p)
		}
	})
}

func TestInvitationRules(t *testing.T) {
	for _, d := range testdb.Dialects() {
		t.Run(string(d), func(t *testing.T) {
			env := apitest.New(t, d, apitest.WithConfig(func(c *config.Config) { c.AllowedOrigins = []string{"https://app.example.com"} }))
			a := newTeamAPI(t, env)
			ada := env.SignUp(t, "ada@example.com")
			org := a.createTeam(ada, "Acme").ID
			invite := func(token, email, origin string, role any) *apitest.Response {
				body := map[string]any{"email": email, "organizationId": org, "origin": origin}
				if role != nil {
					body["role"] = role
				}
				return a.do(token, "POST", "/v1/team/invite", body)
			}
			// An allowed origin other than the server's own becomes the link's base.
			if res := invite(ada.Access, "bob@example.com", "https://APP.example.com", nil); res.Status != http.StatusCreated {
				t.Fatalf("allowed origin: %d %s", res.Status, res.Body)
			}
			if link := a.mailedLink("bob@example.com", "invitation"); !strings.HasPrefix(link, "https://app.example.com/invite?inviteToken=") {
				t.Fatalf("link %q", link)
			}
			// Any other origin is refused.
			for _, origin := range []string{"https://evil.example.com", "https://app.example.com/phish", "http://app.example.com"} {
				res := invite(ada.Access, "carol@example.com", origin, nil)
				if p := res.Problem(t); res.Status != http.StatusBadRequest || len(p.Errors) == 0 || p.Errors[0].Field != "body.origin" {
					t.Fatalf("origin %s: %d %+v", origin, res.Status, p)
				}
			}
			// Ownership is never given by invitation.
			if res := invite(ada.Access, "carol@example.com", "http://betty.test", "owner"); res.Status != http.StatusBadRequest {
				t.Fatalf("invite as owner: %d %s", res.Status, res.Body)
			}
			// Below admin, nobody invites.
			bob := env.SignUp(t, "bob@example.com")
			a.join(ada, org, bob, "member")
			if res := invite(bob.Access, "carol@example.com", "http://betty.test", nil); res.Status != http.StatusForbidden {
				t.Fatalf("member invites: %d %s", res.Status, res.Body)
			}
			// An admin API key may invite; the invitation then names no inviter.
			key := env.APIKey(t, org, "admin")
			if res := invite(key, "erin@example.com", "http://betty.test", "readonly"); res.Status != http.StatusCreated {
				t.Fatalf("API key invites: %d %s", res.Status, res.Body)
			}
		})
	}
}

func TestMemberRoles(t *testing.T) {
	apitest.Each(t, func(t *testing.T, env *apitest.Env) {
		a := newTeamAPI(t, env)
		owner := env.SignUp(t, "owner@example.com")
		org := a.createTeam(owner, "Acme").ID
		admin1 := env.SignUp(t, "admin1@example.com")
		admin2 := env.SignUp(t, "admin2@example.com")
		member := env.SignUp(t, "member@example.com")
		a.join(owner, org, admin1, "admin")
		a.join(owner, org, admin2, "admin")
		a.join(owner, org, member, "member")
		setRole := func(by apitest.Caller, email string, role string) *apitest.Response {
			return a.do(by.Access, "PATCH", "/v1/team/member/role", map[string]any{"organizationId": org, "email": email, "role": role})
		}

		// A member (below admin) cannot change roles.
		if res := setRole(member, member.Email, "admin"); res.Status != http.StatusForbidden {
			t.Fatalf("member changes a role: %d", res.Status)
		}
		// An admin changes a member's role.
		var changed struct{ Data memberJSON }
		res := setRole(admin1, "MEMBER@example.com", "developer")
		res.JSON(t, &changed)
		if res.Status != http.StatusOK || changed.Data.Role != "developer" || changed.Data.Email != member.Email {
			t.Fatalf("admin changes a role: %d %s", res.Status, res.Body)
		}
		// Nobody becomes owner by a role change (the contract's enum refuses it), and the owner's
		// role does not change.
		if res := setRole(owner, member.Email, "owner"); res.Status != http.StatusBadRequest {
			t.Fatalf("make owner: %d %s", res.Status, res.Body)
		}
		if res := setRole(admin1, owner.Email, "member"); res.Status != http.StatusUnprocessableEntity {
			t.Fatalf("admin changes the owner: %d %s", res.Status, res.Body)
		}
		if res := setRole(owner, owner.Email, "admin"); res.Status != http.StatusUnprocessableEntity {
			t.Fatalf("owner changes own role: %d %s", res.Status, res.Body)
		}
		// An admin cannot change another admin's role (403); the owner can; an admin can step down.
		if res := setRole(admin1, admin2.Email, "readonly"); res.Status != http.StatusForbidden {
			t.Fatalf("admin changes an admin: %d %s", res.Status, res.Body)
		}
		if res := setRole(owner, admin2.Email, "readonly"); res.Status != http.StatusOK {
			t.Fatalf("owner changes an admin: %d %s", res.Status, res.Body)
		}
		if res := setRole(admin1, admin1.Email, "developer"); res.Status != http.StatusOK {
			t.Fatalf("admin steps down: %d %s", res.Status, res.Body)
		}
		// An invited member's role can change too; a stranger's cannot.
		a.invite(owner, org, "zoe@example.com", "member")
		if res := setRole(owner, "zoe@example.com", "readonly"); res.Status != http.StatusOK {
			t.Fatalf("invited member: %d %s", res.Status, res.Body)
		}
		if res := setRole(owner, "nobody@example.com", "readonly"); res.Status != http.StatusNotFound {
			t.Fatalf("stranger: %d %s", res.Status, res.Body)
		}
		if got := a.roleOf(owner, org, admin2.Email) + "," + a.roleOf(owner, org, member.Email); got != "readonly,developer" {
			t.Fatalf("roles now %s", got)
		}
	})
}

func TestRemoveAndLeave(t *testing.T) {
	apitest.Each(t, func(t *testing.T, env *apitest.Env) {
		ctx := context.Background()
		a := newTeamAPI(t, env)
		owner := env.SignUp(t, "owner@example.com")
		org := a.createTeam(owner, "Acme").ID
		bob := env.SignUp(t, "bob@example.com")
		carol := env.SignUp(t, "carol@example.com")
		a.join(owner, org, bob, "member")
		a.join(owner, org, carol, "member")
		remove := func(by apitest.Caller, email string) *apitest.Response {
			return a.do(by.Access, "DELETE", "/v1/team/member?organizationId="+org+"&email="+url.QueryEscape(email), nil)
		}

		// A member cannot remove someone else.
		if res := remove(bob, carol.Email); res.Status != http.StatusForbidden {
			t.Fatalf("member removes another: %d %s", res.Status, res.Body)
		}
		// The owner can neither leave nor be removed.
		p := remove(owner, owner.Email).Problem(t)
		if p.Status != http.StatusUnprocessableEntity || !strings.Contains(p.Detail, "transfer the ownership") {
			t.Fatalf("owner leaves: %+v", p)
		}
		// The owner removes bob: his row stays, removed, and he loses access at once.
		before, err := env.DB.MemberByEmail(ctx, org, bob.Email)
		if err != nil {
			t.Fatal(err)
		}
		var deleted struct{ Data struct{ ID string } }
		a.want(http.StatusOK, owner.Access, "DELETE", "/v1/team/member?organizationId="+org+"&email=BOB@example.com", nil, &deleted)
		after, err := env.DB.MemberByEmail(ctx, org, bob.Email)
		if err != nil || deleted.Data.ID != before.ID || after.ID != before.ID || after.Status != "removed" || after.RemovedAt == nil ||
			after.JoinedAt == nil || after.UserID == nil || *after.UserID != bob.UserID {
			t.Fatalf("removed member: %+v %v", after, err)
		}
		if got := a.roleOf(owner, org, bob.Email); got != "" {
			t.Fatalf("a removed member is listed as %s", got)
		}
		a.problem(http.StatusNotFound, bob.Access, "GET", "/v1/team/members/list?organizationId="+org, nil)
		if res := remove(owner, bob.Email); res.Status != http.StatusNotFound {
			t.Fatalf("remove twice: %d", res.Status)
		}
		// A member leaves on their own.
		if res := remove(carol, carol.Email); res.Status != http.StatusOK {
			t.Fatalf("member leaves: %d %s", res.Status, res.Body)
		}
		// Removing an invitation cancels its link; inviting again reuses the same row.
		token := a.invite(owner, org, "dave@example.com", "member")
		dave := env.SignUp(t, "dave@example.com")
		if res := remove(owner, dave.Email); res.Status != http.StatusOK {
			t.Fatalf("remove an invitation: %d %s", res.Status, res.Body)
		}
		a.problem(http.StatusBadRequest, dave.Access, "POST", "/v1/team/accept-invite", map[string]any{"token": token})
		var again struct{ Data memberJSON }
		a.want(http.StatusCreated, owner.Access, "POST", "/v1/team/invite",
			map[string]any{"email": bob.Email, "organizationId": org, "origin": "http://betty.test"}, &again)
		if again.Data.ID != before.ID || again.Data.Status != "invited" || again.Data.RemovedAt != nil {
			t.Fatalf("re-invited member: %+v", again.Data)
		}
	})
}

func TestOwnershipTransfer(t *testing.T) {
	apitest.Each(t, func(t *testing.T, env *apitest.Env) {
		a := newTeamAPI(t, env)
		ada := env.SignUp(t, "ada@example.com")
		org := a.createTeam(ada, "Acme").ID
		bob := env.SignUp(t, "bob@example.com")
		carol := env.SignUp(t, "carol@example.com")
		a.join(ada, org, bob, "admin")
		transfer := func(by apitest.Caller, email string) *apitest.Response {
			return a.do(by.Access, "POST", "/v1/team/transfer-ownership",
				map[string]any{"newOwnerEmail": email, "organizationId": org, "origin": "http://betty.test"})
		}

		// Only the owner transfers; the nominee must be another active member.
		if res := transfer(bob, bob.Email); res.Status != http.StatusForbidden {
			t.Fatalf("admin transfers: %d %s", res.Status, res.Body)
		}
		if res := transfer(ada, carol.Email); res.Status != http.StatusUnprocessableEntity {
			t.Fatalf("transfer to a non-member: %d %s", res.Status, res.Body)
		}
		a.invite(ada, org, carol.Email, "member") // invited is not active
		if res := transfer(ada, carol.Email); res.Status != http.StatusUnprocessableEntity {
			t.Fatalf("transfer to an invited member: %d %s", res.Status, res.Body)
		}
		if res := transfer(ada, ada.Email); res.Status != http.StatusUnprocessableEntity {
			t.Fatalf("transfer to oneself: %d %s", res.Status, res.Body)
		}
		if res := transfer(ada, bob.Email); res.Status != http.StatusOK {
			t.Fatalf("transfer: %d %s", res.Status, res.Body)
		}
		link := a.mailedLink(bob.Email, "ownership-transfer")
		if !strings.HasPrefix(link, "http://betty.test/transfer-ownership?transferOwnershipToken=") {
			t.Fatalf("transfer link %q", link)
		}
		token := a.mailedToken(bob.Email, "ownership-transfer", "transferOwnershipToken")
		// Nothing changed yet.
		if got := a.roleOf(ada, org, ada.Email); got != "owner" {
			t.Fatalf("before confirmation ada is %s", got)
		}
		// Someone else cannot confirm (and does not use up the link).
		a.problem(http.StatusForbidden, carol.Access, "POST", "/v1/team/confirm-transfer-ownership", map[string]any{"transferOwnershipToken": token})
		a.problem(http.StatusForbidden, ada.Access, "POST", "/v1/team/confirm-transfer-ownership", map[string]any{"transferOwnershipToken": token})

		var confirmed struct{ Data teamJSON }
		a.want(http.StatusOK, bob.Access, "POST", "/v1/team/confirm-transfer-ownership", map[string]any{"transferOwnershipToken": token}, &confirmed)
		if confirmed.Data.Owner.ID != bob.UserID || confirmed.Data.MyRole != "owner" || confirmed.Data.ID != org {
			t.Fatalf("confirmed team: %+v", confirmed.Data)
		}
		if got := a.roleOf(bob, org, ada.Email) + "," + a.roleOf(bob, org, bob.Email); got != "admin,owner" {
			t.Fatalf("roles after the transfer: %s", got)
		}
		if p := a.problem(http.StatusBadRequest, bob.Access, "POST", "/v1/team/confirm-transfer-ownership",
			map[string]any{"transferOwnershipToken": token}); p.Code != "invalid_token" {
			t.Fatalf("confirm twice: %+v", p)
		}
		// The new owner's powers: the old owner can be removed now, and can leave.
		if res := a.do(ada.Access, "DELETE", "/v1/team/delete/"+org, nil); res.Status != http.StatusForbidden {
			t.Fatalf("old owner deletes: %d", res.Status)
		}

		// A newer transfer cancels a pending one; a nominee who left cannot confirm.
		if res := transfer(bob, ada.Email); res.Status != http.StatusOK {
			t.Fatalf("transfer back: %d %s", res.Status, res.Body)
		}
		stale := a.mailedToken(ada.Email, "ownership-transfer", "transferOwnershipToken")
		if res := transfer(bob, ada.Email); res.Status != http.StatusOK {
			t.Fatalf("transfer back again: %d %s", res.Status, res.Body)
		}
		a.problem(http.StatusBadRequest, ada.Access, "POST", "/v1/team/confirm-transfer-ownership", map[string]any{"transferOwnershipToken": stale})
		fresh := a.mailedToken(ada.Email, "ownership-transfer", "transferOwnershipToken")
		a.want(http.StatusOK, ada.Access, "DELETE", "/v1/team/member?organizationId="+org+"&email="+url.QueryEscape(ada.Email), nil, nil)
		a.problem(http.StatusUnprocessableEntity, ada.Access, "POST", "/v1/team/confirm-transfer-ownership", map[string]any{"transferOwnershipToken": fresh})
	})
}

func TestDeleteTeam(t *testing.T) {
	apitest.Each(t, func(t *testing.T, env *apitest.Env) {
		a := newTeamAPI(t, env)
		ada := env.SignUp(t, "ada@example.com")
		org := a.createTeam(ada, "Acme").ID
		bob := env.SignUp(t, "bob@example.com")
		a.join(ada, org, bob, "admin")
		key := env.APIKey(t, org, "admin")
		a.invite(ada, org, "carol@example.com", "member")

		a.problem(http.StatusForbidden, bob.Access, "DELETE", "/v1/team/delete/"+org, nil)
		a.problem(http.StatusForbidden, key, "DELETE", "/v1/team/delete/"+org, nil)
		// A running paid subscription must be cancelled first.
		a.raw(fmt.Sprintf(`UPDATE organizations SET subscription_tier = 'tier1', subscription_end_at = '2099-01-01 00:00:00+00:00' WHERE id = '%s'`, org))
		a.problem(http.StatusUnprocessableEntity, ada.Access, "DELETE", "/v1/team/delete/"+org, nil)
		a.raw(fmt.Sprintf(`UPDATE organizations SET subscription_end_at = NULL WHERE id = '%s'`, org))

		var deleted struct{ Data struct{ ID string } }
		a.want(http.StatusOK, ada.Access, "DELETE", "/v1/team/delete/"+org, nil, &deleted)
		if deleted.Data.ID != org {
			t.Fatalf("deleted %q", deleted.Data.ID)
		}
		// Everything went with it: members, keys, invitations.
		a.problem(http.StatusNotFound, ada.Access, "GET", "/v1/team/members/list?organizationId="+org, nil)
		a.problem(http.StatusUnauthorized, key, "GET", "/v1/team/members/list?organizationId="+org, nil)
		var list struct{ Data []teamJSON }
		a.want(http.StatusOK, bob.Access, "GET", "/v1/team/list", nil, &list)
		if len(list.Data) != 0 {
			t.Fatalf("teams after delete: %+v", list.Data)
		}
		carol := env.SignUp(t, "carol@example.com")
		var pending struct{ Data []json.RawMessage }
		a.want(http.StatusOK, carol.Access, "GET", "/v1/team/get-valid-pending-invitations", nil, &pending)
		if len(pending.Data) != 0 {
			t.Fatalf("invitations after delete: %s", pending.Data)
		}
	})
}

func TestTeamApiKeys(t *testing.T) {
	apitest.Each(t, func(t *testing.T, env *apitest.Env) {
		a := newTeamAPI(t, env)
		ada := env.SignUp(t, "ada@example.com")
		org := a.createTeam(ada, "Acme").ID
		other := a.createTeam(env.SignUp(t, "zed@example.com"), "Other").ID

		type keyJSON struct {
			ID, OrganizationID, Name, Prefix, Role, Key string
			CreatedBy                                   *struct{ ID string }
			LastUsedAt                                  *time.Time
		}
		var created struct{ Data keyJSON }
		a.want(http.StatusCreated, ada.Access, "POST", "/v1/team/api-keys", map[string]any{"organizationId": org, "name": " CRM sync "}, &created)
		k := created.Data
		if !strings.HasPrefix(k.Key, "betty_sk_") || len(k.Key) != len("betty_sk_")+43 || k.Prefix != k.Key[:len("betty_sk_")+8] ||
			k.Role != "developer" || k.Name != "CRM sync" || k.CreatedBy == nil || k.CreatedBy.ID != ada.UserID || k.LastUsedAt != nil {
			t.Fatalf("created key: %+v", k)
		}
		// The key works for its team only; another team's id is a 404.
		var members struct{ Data []memberJSON }
		a.want(http.StatusOK, k.Key, "GET", "/v1/team/members/list?organizationId="+org, nil, &members)
		if len(members.Data) != 1 {
			t.Fatalf("members by key: %+v", members.Data)
		}
		a.problem(http.StatusNotFound, k.Key, "GET", "/v1/team/members/list?organizationId="+other, nil)
		// Keys cannot manage keys.
		a.problem(http.StatusForbidden, k.Key, "GET", "/v1/team/api-keys?organizationId="+org, nil)

		// The list never shows the secret, but shows when the key was used.
		var list struct{ Data []keyJSON }
		res := a.want(http.StatusOK, ada.Access, "GET", "/v1/team/api-keys?organizationId="+org, nil, &list)
		if len(list.Data) != 1 || list.Data[0].ID != k.ID || list.Data[0].Key != "" || strings.Contains(string(res.Body), k.Key) ||
			list.Data[0].Prefix != k.Prefix || list.Data[0].LastUsedAt == nil {
			t.Fatalf("list: %s", res.Body)
		}
		// Names are unique in a team.
		a.problem(http.StatusConflict, ada.Access, "POST", "/v1/team/api-keys", map[string]any{"organizationId": org, "name": "CRM sync"})

		// A key's role is at most the creator's; developers manage keys, members do not.
		dev := env.SignUp(t, "dev@example.com")
		mem := env.SignUp(t, "mem@example.com")
		a.join(ada, org, dev, "developer")
		a.join(ada, org, mem, "member")
		a.problem(http.StatusForbidden, dev.Access, "POST", "/v1/team/api-keys", map[string]any{"organizationId": org, "name": "Mine", "role": "admin"})
		a.want(http.StatusCreated, dev.Access, "POST", "/v1/team/api-keys", map[string]any{"organizationId": org, "name": "Mine", "role": "member"}, nil)
		a.problem(http.StatusForbidden, mem.Access, "GET", "/v1/team/api-keys?organizationId="+org, nil)
		a.problem(http.StatusForbidden, mem.Access, "POST", "/v1/team/api-keys", map[string]any{"organizationId": org, "name": "Nope"})

		// Revoking: the key stops working at once; another team's key id is not found.
		a.problem(http.StatusNotFound, ada.Access, "DELETE", "/v1/team/api-keys/"+k.ID+"?organizationId="+other, nil)
		var deleted struct{ Data struct{ ID string } }
		a.want(http.StatusOK, ada.Access, "DELETE", "/v1/team/api-keys/"+k.ID+"?organizationId="+org, nil, &deleted)
		if deleted.Data.ID != k.ID {
			t.Fatalf("deleted %q", deleted.Data.ID)
		}
		a.problem(http.StatusUnauthorized, k.Key, "GET", "/v1/team/members/list?organizationId="+org, nil)
		a.problem(http.StatusNotFound, ada.Access, "DELETE", "/v1/team/api-keys/"+k.ID+"?organizationId="+org, nil)

		// At most 20 keys.
		for i := range 19 {
			a.want(http.StatusCreated, ada.Access, "POST", "/v1/team/api-keys", map[string]any{"organizationId": org, "name": fmt.Sprintf("key %d", i)}, nil)
		}
		if p := a.problem(http.StatusUnprocessableEntity, ada.Access, "POST", "/v1/team/api-keys",
			map[string]any{"organizationId": org, "name": "one too many"}); p.Code != "limit_reached" {
			t.Fatalf("21st key: %+v", p)
		}
	})
}

func TestTeamIsolationByMembership(t *testing.T) {
	apitest.Each(t, func(t *testing.T, env *apitest.Env) {
		a := newTeamAPI(t, env)
		ada := env.SignUp(t, "ada@example.com")
		orgA := a.createTeam(ada, "A").ID
		bob := env.SignUp(t, "bob@example.com")
		a.createTeam(bob, "B")
		for _, r := range []struct{ method, path string }{
			{"GET", "/v1/team/members/list?organizationId=" + orgA},
			{"GET", "/v1/team/onboarding/" + orgA},
			{"GET", "/v1/team/subscription-credits?organizationId=" + orgA},
			{"DELETE", "/v1/team/delete/" + orgA},
			{"DELETE", "/v1/team/member?organizationId=" + orgA + "&email=ada@example.com"},
		} {
			if res := a.do(bob.Access, r.method, r.path, nil); res.Status != http.StatusNotFound {
				t.Errorf("%s %s by a member of B: %d", r.method, r.path, res.Status)
			}
		}
	})
}

func TestPendingInvitationsAndPopupAccept(t *testing.T) {
	apitest.Each(t, func(t *testing.T, env *apitest.Env) {
		a := newTeamAPI(t, env)
		ada := env.SignUp(t, "ada@example.com")
		acme := a.createTeam(ada, "Acme").ID
		globex := a.createTeam(ada, "Globex").ID
		old := a.createTeam(ada, "Old").ID
		a.invite(ada, old, "bob@example.com", "member")
		a.raw(`UPDATE organization_members SET invited_at = '2020-01-01 00:00:00+00:00' WHERE organization_id = '` + old + `' AND email = 'bob@example.com'`)
		a.invite(ada, acme, "bob@example.com", "member")
		token := a.invite(ada, globex, "bob@example.com", "developer")
		bob := env.SignUp(t, "BOB@example.com")

		type invitationJSON struct {
			ID, OrganizationMemberID, OrganizationID, OrganizationName, Email, Role string
			InvitedBy                                                               *struct{ Email string }
			ExpiresAt                                                               time.Time
		}
		var pending struct{ Data []invitationJSON }
		a.want(http.StatusOK, bob.Access, "GET", "/v1/team/get-valid-pending-invitations", nil, &pending)
		if len(pending.Data) != 2 || pending.Data[0].OrganizationName != "Globex" || pending.Data[1].OrganizationName != "Acme" ||
			pending.Data[0].ID != pending.Data[0].OrganizationMemberID || pending.Data[0].Role != "developer" ||
			pending.Data[0].InvitedBy == nil || pending.Data[0].InvitedBy.Email != ada.Email ||
			pending.Data[0].ExpiresAt.Before(time.Now().Add(6*24*time.Hour)) {
			t.Fatalf("pending invitations (the expired one left out): %+v", pending.Data)
		}
		globexInvite := pending.Data[0].ID
		// Someone else's invitation is not found, like an unknown one.
		carol := env.SignUp(t, "carol@example.com")
		a.problem(http.StatusNotFound, carol.Access, "POST", "/v1/team/accept-team-invite-from-popup", map[string]any{"organizationMemberId": globexInvite})
		a.problem(http.StatusNotFound, bob.Access, "POST", "/v1/team/accept-team-invite-from-popup", map[string]any{"organizationMemberId": "nope"})

		var accepted struct{ Data memberJSON }
		a.want(http.StatusOK, bob.Access, "POST", "/v1/team/accept-team-invite-from-popup", map[string]any{"organizationMemberId": globexInvite}, &accepted)
		if accepted.Data.Status != "active" || accepted.Data.OrganizationID != globex || accepted.Data.Role != "developer" {
			t.Fatalf("accepted: %+v", accepted.Data)
		}
		// Accepting again answers the membership again, from the popup or from the e-mailed link
		// (the invitation was accepted by this same user).
		a.want(http.StatusOK, bob.Access, "POST", "/v1/team/accept-team-invite-from-popup", map[string]any{"organizationMemberId": globexInvite}, nil)
		a.want(http.StatusOK, bob.Access, "POST", "/v1/team/accept-invite", map[string]any{"token": token}, nil)

		a.want(http.StatusOK, bob.Access, "GET", "/v1/team/get-valid-pending-invitations", nil, &pending)
		if len(pending.Data) != 1 || pending.Data[0].OrganizationID != acme {
			t.Fatalf("pending after accepting one: %+v", pending.Data)
		}
		// An expired invitation cannot be accepted from the popup.
		expired, err := env.DB.MemberByEmail(context.Background(), old, bob.Email)
		if err != nil {
			t.Fatal(err)
		}
		a.problem(http.StatusUnprocessableEntity, bob.Access, "POST", "/v1/team/accept-team-invite-from-popup", map[string]any{"organizationMemberId": expired.ID})
		// API keys have no invitations.
		a.problem(http.StatusForbidden, env.APIKey(t, acme, "admin"), "GET", "/v1/team/get-valid-pending-invitations", nil)
	})
}

func TestIsMemberIsPublic(t *testing.T) {
	apitest.Each(t, func(t *testing.T, env *apitest.Env) {
		a := newTeamAPI(t, env)
		ada := env.SignUp(t, "ada@example.com")
		bob := env.SignUp(t, "bob@example.com")
		org := a.createTeam(ada, "Acme").ID
		a.invite(ada, org, bob.Email, "member")
		check := func(team, user string) bool {
			t.Helper()
			var body struct {
				Data struct {
					TeamID, UserID string
					IsMember       bool
				}
			}
			a.want(http.StatusOK, "", "GET", "/v1/team/is-member/"+team+"?userId="+user, nil, &body)
			if body.Data.TeamID != team || body.Data.UserID != user {
				t.Fatalf("is-member echoes %+v", body.Data)
			}
			return body.Data.IsMember
		}
		if !check(org, ada.UserID) {
			t.Error("the owner is not a member")
		}
		if check(org, bob.UserID) {
			t.Error("an invitation counts as membership")
		}
		if check(org, "unknown-user") || check("0192f1a4-7c1e-7b52-9a61-3f0e2d7c9b10", ada.UserID) {
			t.Error("unknown ids are members")
		}
		token := a.mailedToken(bob.Email, "invitation", "inviteToken")
		a.want(http.StatusOK, bob.Access, "POST", "/v1/team/accept-invite", map[string]any{"token": token}, nil)
		if !check(org, bob.UserID) {
			t.Error("an accepted member is not a member")
		}
		a.want(http.StatusOK, ada.Access, "DELETE", "/v1/team/member?organizationId="+org+"&email="+bob.Email, nil, nil)
		if check(org, bob.UserID) {
			t.Error("a removed member is still a member")
		}
	})
}

func TestOnboardingAndVerification(t *testing.T) {
	apitest.Each(t, func(t *testing.T, env *apitest.Env) {
		ctx := context.Background()
		a := newTeamAPI(t, env)
		ada := env.SignUp(t, "ada@example.com")
		team := a.createTeam(ada, "Acme")
		reader := env.SignUp(t, "reader@example.com")
		a.join(ada, team.ID, reader, "readonly")

		var onboarding struct {
			Data struct {
				OrganizationID string
				Completed      bool
				Items          []struct {
					Key    string
					Done   bool
					DoneAt *time.Time
				}
			}
		}
		a.want(http.StatusOK, reader.Access, "GET", "/v1/team/onboarding/"+team.ID, nil, &onboarding)
		var keys []string
		for _, it := range onboarding.Data.Items {
			keys = append(keys, it.Key)
		}
		items := onboarding.Data.Items
		if strings.Join(keys, ",") != "team-created,agent-created,phone-number-bought,phone-number-paired,test-call-made" ||
			!items[0].Done || items[0].DoneAt == nil || !items[0].DoneAt.Equal(team.CreatedAt) || items[1].Done || items[1].DoneAt != nil ||
			onboarding.Data.Completed || onboarding.Data.OrganizationID != team.ID {
			t.Fatalf("onboarding: %+v", onboarding.Data)
		}
		// An agent ticks "Create an agent"; pairing a number with it ticks "Pair".
		ag := createAgent(t, a, ada, team.ID, map[string]any{})
		num := env.PhoneNumber(t, team.ID, "+14155550123")
		a.want(http.StatusOK, ada.Access, "POST", "/v1/agent/config/call", map[string]any{"organizationId": team.ID, "phoneNumberId": num, "agentId": ag.ID}, nil)
		a.want(http.StatusOK, reader.Access, "GET", "/v1/team/onboarding/"+team.ID, nil, &onboarding)
		items = onboarding.Data.Items
		if !items[1].Done || items[1].DoneAt == nil || !items[3].Done || items[4].Done || onboarding.Data.Completed {
			t.Fatalf("onboarding after an agent and a pairing: %+v", items)
		}

		// Verification: admins ask, site admins hear once, the pending request is answered again.
		if _, err := env.DB.SetSiteAdmin(ctx, env.SignUp(t, "staff@example.com").Email, true); err != nil {
			t.Fatal(err)
		}
		a.problem(http.StatusForbidden, reader.Access, "GET", "/v1/team/request-verification/"+team.ID, nil)
		type requestJSON struct{ ID, CurrentLevel, RequestedLevel, Status string }
		var first, second struct{ Data requestJSON }
		a.want(http.StatusOK, ada.Access, "GET", "/v1/team/request-verification/"+team.ID, nil, &first)
		a.want(http.StatusOK, ada.Access, "GET", "/v1/team/request-verification/"+team.ID, nil, &second)
		if first.Data != second.Data || first.Data.RequestedLevel != "l1" || first.Data.CurrentLevel != "none" || first.Data.Status != "pending" {
			t.Fatalf("requests: %+v %+v", first.Data, second.Data)
		}
		mails, err := env.DB.Outbox(ctx, "staff@example.com")
		if err != nil {
			t.Fatal(err)
		}
		notified := 0
		for _, m := range mails {
			if m.Kind == "verification-request" {
				notified++
			}
		}
		if notified != 1 {
			t.Fatalf("site admins notified %d times", notified)
		}
		if err := env.DB.SetVerificationLevel(ctx, team.ID, "l2"); err != nil {
			t.Fatal(err)
		}
		a.problem(http.StatusUnprocessableEntity, ada.Access, "GET", "/v1/team/request-verification/"+team.ID, nil)
	})
}

func TestTeamBillingViews(t *testing.T) {
	apitest.Each(t, func(t *testing.T, env *apitest.Env) {
		a := newTeamAPI(t, env)
		ada := env.SignUp(t, "ada@example.com")
		org := a.createTeam(ada, "Acme").ID
		dev := env.SignUp(t, "dev@example.com")
		mem := env.SignUp(t, "mem@example.com")
		a.join(ada, org, dev, "developer")
		a.join(ada, org, mem, "member")

		// Billing is for developers and up.
		a.problem(http.StatusForbidden, mem.Access, "GET", "/v1/team/subscription-credits?organizationId="+org, nil)
		a.raw(`UPDATE organizations SET credits_balance = 42.499 WHERE id = '` + org + `'`)
		var credits struct {
			Data struct {
				Balance           float64
				SubscriptionTier  string
				SubscriptionEndAt *time.Time
			}
		}
		a.want(http.StatusOK, dev.Access, "GET", "/v1/team/subscription-credits?organizationId="+org, nil, &credits)
		if credits.Data.Balance != 42.5 || credits.Data.SubscriptionTier != "free" || credits.Data.SubscriptionEndAt != nil {
			t.Fatalf("credits: %+v", credits.Data)
		}
		type statusJSON struct {
			Status, SubscriptionTier string
			IntervalType             *string
			CurrentPeriodEnd         *time.Time
		}
		var status struct{ Data statusJSON }
		a.want(http.StatusOK, dev.Access, "GET", "/v1/team/subscription/status?organizationId="+org, nil, &status)
		if status.Data.Status != "none" || status.Data.IntervalType != nil || status.Data.CurrentPeriodEnd != nil {
			t.Fatalf("free tier status: %+v", status.Data)
		}
		a.raw(`UPDATE organizations SET subscription_tier = 'tier2', subscription_end_at = '2099-01-01 00:00:00+00:00' WHERE id = '` + org + `'`)
		a.want(http.StatusOK, dev.Access, "GET", "/v1/team/subscription/status?organizationId="+org, nil, &status)
		if status.Data.Status != "active" || status.Data.SubscriptionTier != "tier2" || status.Data.CurrentPeriodEnd == nil {
			t.Fatalf("paid tier status: %+v", status.Data)
		}

		// The billing address: none, then saved whole; developers read it, admins write it.
		type addressJSON struct {
			BillingAddress *struct{ Line1, City, State, PostalCode, Country string }
			UpdatedAt      *time.Time
		}
		var address struct{ Data addressJSON }
		a.want(http.StatusOK, dev.Access, "GET", "/v1/team/subscription-credits/billing-address?organizationId="+org, nil, &address)
		if address.Data.BillingAddress != nil || address.Data.UpdatedAt != nil {
			t.Fatalf("no address yet: %+v", address.Data)
		}
		us := map[string]any{"line1": "1 Market St", "city": "San Francisco", "postalCode": "94105", "country": "US"}
		save := func(c apitest.Caller, addr map[string]any) *apitest.Response {
			return a.do(c.Access, "POST", "/v1/team/subscription-credits/billing-address", map[string]any{"organizationId": org, "billingAddress": addr})
		}
		if res := save(dev, us); res.Status != http.StatusForbidden {
			t.Fatalf("developer saves: %d", res.Status)
		}
		res := save(ada, us)
		if p := res.Problem(t); res.Status != http.StatusBadRequest || p.Errors[0].Field != "body.billingAddress.state" {
			t.Fatalf("US without state: %d %+v", res.Status, p)
		}
		us["state"] = "ca"
		if res := save(ada, us); res.Status != http.StatusOK {
			t.Fatalf("save: %d %s", res.Status, res.Body)
		}
		a.want(http.StatusOK, dev.Access, "GET", "/v1/team/subscription-credits/billing-address?organizationId="+org, nil, &address)
		if b := address.Data.BillingAddress; b == nil || b.Line1 != "1 Market St" || b.State != "CA" || b.Country != "US" || address.Data.UpdatedAt == nil {
			t.Fatalf("saved address: %+v", address.Data)
		}

		// Costs: one day per day of the month up to today, at 0.27 USD a minute.
		type usageJSON struct {
			Month, Year, Calls  int
			Currency            string
			RatePerMinute, Cost float64
			Days                []struct {
				Date  string
				Calls int
				Cost  float64
			}
		}
		var usage struct{ Data usageJSON }
		now := time.Now().UTC()
		a.want(http.StatusOK, dev.Access, "GET", "/v1/team/team-costs-usage/"+org, nil, &usage)
		if u := usage.Data; u.Month != int(now.Month()) || u.Year != now.Year() || len(u.Days) != now.Day() || u.RatePerMinute != 0.27 ||
			u.Currency != "USD" || u.Calls != 0 || u.Cost != 0 || u.Days[0].Date != now.Format("2006-01")+"-01" {
			t.Fatalf("this month: %+v", u)
		}
		a.want(http.StatusOK, dev.Access, "GET", "/v1/team/team-costs-usage/"+org+"?month=2&year=2024", nil, &usage)
		if u := usage.Data; len(u.Days) != 29 || u.Days[28].Date != "2024-02-29" {
			t.Fatalf("February 2024: %d days", len(u.Days))
		}
		a.want(http.StatusOK, dev.Access, "GET", "/v1/team/team-costs-usage/"+org+"?month=1&year=2100", nil, &usage)
		if len(usage.Data.Days) != 0 {
			t.Fatalf("a future month has %d days", len(usage.Data.Days))
		}
		a.problem(http.StatusForbidden, mem.Access, "GET", "/v1/team/team-costs-usage/"+org, nil)
	})
}

// An API key's team list is its own team, with the key's role.
func TestListTeamsWithAnAPIKey(t *testing.T) {
	env := apitest.New(t, "sqlite")
	ada := env.SignUp(t, "ada@example.com")
	org := env.Team(t, ada, "Acme")
	env.Team(t, ada, "Other")
	res := env.Do(apitest.Request{Method: "GET", Path: "/v1/team/list", Token: env.APIKey(t, org, "developer")})
	var body struct {
		Data []struct{ ID, MyRole string }
		Meta struct{ TotalSize int }
	}
	res.JSON(t, &body)
	if res.Status != 200 || len(body.Data) != 1 || body.Data[0].ID != org || body.Data[0].MyRole != "developer" || body.Meta.TotalSize != 1 {
		t.Fatalf("%d %s", res.Status, res.Body)
	}
}

// A key never does more than its maker may: demoting the maker lowers their keys; removing
// the maker revokes them unless the remover keeps them, and kept keys show the maker removed.
func TestAPIKeysFollowTheirMaker(t *testing.T) {
	apitest.Each(t, func(t *testing.T, env *apitest.Env) {
		a := newTeamAPI(t, env)
		ada := env.SignUp(t, "ada@example.com")
		org := a.createTeam(ada, "Acme").ID
		bob := env.SignUp(t, "bob@example.com")
		cy := env.SignUp(t, "cy@example.com")
		a.join(ada, org, bob, "admin")
		a.join(ada, org, cy, "admin")
		type keyJSON struct {
			ID, Name, Role, Key, CreatedByStatus string
		}
		mk := func(c apitest.Caller, name, role string) keyJSON {
			var out struct{ Data keyJSON }
			a.want(http.StatusCreated, c.Access, "POST", "/v1/team/api-keys", map[string]any{"organizationId": org, "name": name, "role": role}, &out)
			return out.Data
		}
		bobAdmin, bobDev := mk(bob, "bob admin", "admin"), mk(bob, "bob dev", "developer")
		cyKey := mk(cy, "cy", "admin")
		keys := func() map[string]keyJSON {
			var list struct{ Data []keyJSON }
			a.want(http.StatusOK, ada.Access, "GET", "/v1/team/api-keys?organizationId="+org, nil, &list)
			out := map[string]keyJSON{}
			for _, k := range list.Data {
				out[k.Name] = k
			}
			return out
		}
		a.want(http.StatusOK, ada.Access, "PATCH", "/v1/team/member/role", map[string]any{"organizationId": org, "email": bob.Email, "role": "developer"}, nil)
		ks := keys()
		if ks["bob admin"].Role != "developer" || ks["bob dev"].Role != "developer" || ks["cy"].Role != "admin" || ks["bob admin"].CreatedByStatus != "active" {
			t.Fatalf("after demoting bob: %+v", ks)
		}
		// The lowered key acts as a developer now: it may not invite.
		a.problem(http.StatusForbidden, bobAdmin.Key, "POST", "/v1/team/invite", map[string]any{"organizationId": org, "email": "x@example.com"})

		var removed struct {
			Data struct {
				ID             string
				RevokedApiKeys int
			}
		}
		a.want(http.StatusOK, ada.Access, "DELETE", "/v1/team/member?organizationId="+org+"&email="+bob.Email, nil, &removed)
		if removed.Data.RevokedApiKeys != 2 {
			t.Fatalf("removal: %+v", removed.Data)
		}
		a.problem(http.StatusUnauthorized, bobDev.Key, "GET", "/v1/team/members/list?organizationId="+org, nil)
		a.want(http.StatusOK, ada.Access, "DELETE", "/v1/team/member?organizationId="+org+"&email="+cy.Email+"&keepApiKeys=true", nil, &removed)
		ks = keys()
		if _, ok := ks["bob admin"]; ok || ks["cy"].CreatedByStatus != "removed" {
			t.Fatalf("after removals: %+v", ks)
		}
		a.want(http.StatusOK, cyKey.Key, "GET", "/v1/team/members/list?organizationId="+org, nil, nil)
	})
}
