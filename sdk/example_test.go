package betty_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log"
	"net/http"
	"net/http/httptest"
	"strconv"

	betty "github.com/bettyhq/betty/sdk"
	"github.com/bettyhq/betty/sdk/client"
)

// fakeBetty stands in for `betty serve`, answering the documented wire format.
func fakeBetty() *httptest.Server {
	mux := http.NewServeMux()
	user := map[string]any{"id": "u1", "email": "ada@example.com", "createdAt": "2025-01-02T03:04:05Z"}
	session := map[string]any{
		"accessToken": "eyJ.access.1", "refreshToken": "opaque-refresh-1", "tokenType": "Bearer",
		"expiresAt": "2030-01-01T00:00:00Z", "expiresIn": 900,
		"refreshTokenExpiresAt": "2030-01-31T00:00:00Z", "user": user,
	}
	mux.HandleFunc("GET /v1/server/info", func(w http.ResponseWriter, r *http.Request) {
		envelope(w, map[string]any{"version": "v0.3.0", "mailDelivery": "outbox", "emailConfirmationRequired": false}, nil)
	})
	mux.HandleFunc("POST /v1/auth/sign-up", func(w http.ResponseWriter, r *http.Request) {
		envelope(w, map[string]any{"user": user, "emailConfirmationRequired": false, "session": session}, nil)
	})
	mux.HandleFunc("POST /v1/auth/sign-in", func(w http.ResponseWriter, r *http.Request) {
		envelope(w, session, nil)
	})
	mux.HandleFunc("GET /v1/auth/me", func(w http.ResponseWriter, r *http.Request) {
		switch r.Header.Get("Authorization") {
		case "Bearer eyJ.access.1":
			envelope(w, user, nil)
		case "Bearer betty_sk_example":
			// An API key acts for an organisation, not a person.
			problem(w, 403, "forbidden", "Use a user session to read the current user.")
		default:
			problem(w, 401, "unauthorized", "Sign in first.")
		}
	})
	mux.HandleFunc("GET /v1/team/members/list", func(w http.ResponseWriter, r *http.Request) {
		emails := []string{"ada@example.com", "grace@example.com", "katherine@example.com"}
		page, _ := strconv.Atoi(r.URL.Query().Get("page"))
		page = min(max(page, 1), len(emails))
		data := []map[string]any{{"id": "m" + strconv.Itoa(page), "email": emails[page-1], "role": "member", "status": "active"}}
		envelope(w, data, map[string]any{
			"page": page, "totalSize": len(emails), "start": page, "end": page,
			"hasNext": page < len(emails), "hasPrevious": page > 1, "totalPages": len(emails),
		})
	})
	mux.HandleFunc("DELETE /v1/team/api-keys/{id}", func(w http.ResponseWriter, r *http.Request) {
		problem(w, 404, "not_found", "The API key was not found.")
	})
	return httptest.NewServer(mux)
}

func envelope(w http.ResponseWriter, data, meta any) {
	w.Header().Set("Content-Type", "application/json")
	body := map[string]any{"status": 200, "data": data}
	if meta != nil {
		body["meta"] = meta
	}
	_ = json.NewEncoder(w).Encode(body)
}

func problem(w http.ResponseWriter, status int, code, detail string) {
	w.Header().Set("Content-Type", "application/problem+json")
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(map[string]any{
		"type": "/problems/" + code, "title": http.StatusText(status), "status": status,
		"code": code, "detail": detail, "requestId": "01JEXAMPLE",
	})
}

func ExampleNew() {
	srv := fakeBetty()
	defer srv.Close()

	ctx := context.Background()

	// A CLI would load saved tokens with WithTokens and save rotated ones in the saver.
	bc, err := betty.New(srv.URL, betty.WithTokenSaver(func(access, refresh string) {
		fmt.Println("saving", access, refresh)
	}))
	if err != nil {
		log.Fatal(err)
	}

	if _, err := bc.SignIn(ctx, "ada@example.com", "correct horse"); err != nil {
		log.Fatal(err)
	}
	me, err := bc.Me(ctx)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println("signed in as", me.Email)
	// Output:
	// saving eyJ.access.1 opaque-refresh-1
	// signed in as ada@example.com
}

func ExampleClient_SignUp() {
	srv := fakeBetty()
	defer srv.Close()
	ctx := context.Background()
	bc, _ := betty.New(srv.URL)

	name := "Ada Lovelace"
	r, err := bc.SignUp(ctx, client.SignUpRequest{Email: "ada@example.com", Password: "correct horse battery", Name: &name})
	if err != nil {
		log.Fatal(err)
	}
	if r.Session == nil {
		// The server e-mailed a link to confirm the address; sign in once it is followed.
		info, err := bc.ServerInfo(ctx)
		if err != nil {
			log.Fatal(err)
		}
		fmt.Println("confirm the address first; mail goes by", info.MailDelivery)
		return
	}
	me, err := bc.Me(ctx) // the client keeps the new session
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println("signed up and signed in as", me.Email)
	// Output:
	// signed up and signed in as ada@example.com
}

func ExampleAll() {
	srv := fakeBetty()
	defer srv.Close()
	bc, _ := betty.New(srv.URL, betty.WithAPIKey("betty_sk_example"))

	members := betty.All[client.TeamMember](context.Background(), bc,
		func(ctx context.Context, api *client.Client, page int) (*http.Response, error) {
			return api.ListTeamMembers(ctx, &client.ListTeamMembersParams{OrganizationId: "org-1", Page: &page})
		})
	for m, err := range members {
		if err != nil {
			log.Fatal(err)
		}
		fmt.Println(m.Id, m.Email)
	}
	// Output:
	// m1 ada@example.com
	// m2 grace@example.com
	// m3 katherine@example.com
}

func ExampleAPIError() {
	srv := fakeBetty()
	defer srv.Close()
	bc, _ := betty.New(srv.URL, betty.WithAPIKey("betty_sk_example"))

	err := betty.NoContent(context.Background(), bc, func(ctx context.Context, api *client.Client) (*http.Response, error) {
		return api.DeleteTeamApiKey(ctx, "0192f1a4-0000-7000-8000-000000000000", &client.DeleteTeamApiKeyParams{OrganizationId: "org-1"})
	})
	if errors.Is(err, betty.ErrNotFound) {
		fmt.Println("no such API key")
	}
	var apiErr *betty.APIError
	if errors.As(err, &apiErr) {
		fmt.Println(apiErr.StatusCode, apiErr.Code, apiErr.RequestID)
	}
	fmt.Println(err)

	_, err = bc.Me(context.Background())
	fmt.Println(errors.Is(err, betty.ErrForbidden), err)
	// Output:
	// no such API key
	// 404 not_found 01JEXAMPLE
	// The API key was not found. (not_found, HTTP 404, request 01JEXAMPLE)
	// true Use a user session to read the current user. (forbidden, HTTP 403, request 01JEXAMPLE)
}
