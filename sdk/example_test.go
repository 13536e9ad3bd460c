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
	mux.HandleFunc("POST /v1/auth/sign-in", func(w http.ResponseWriter, r *http.Request) {
		envelope(w, map[string]any{
			"accessToken": "eyJ.access.1", "refreshToken": "opaque-refresh-1", "tokenType": "Bearer",
			"expiresAt": "2030-01-01T00:00:00Z", "expiresIn": 900,
			"refreshTokenExpiresAt": "2030-01-31T00:00:00Z", "user": user,
		}, nil)
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
	mux.HandleFunc("GET /v1/campaigns/list", func(w http.ResponseWriter, r *http.Request) {
		names := []string{"Spring renewals", "Win-back", "Survey"}
		page, _ := strconv.Atoi(r.URL.Query().Get("page"))
		page = min(max(page, 1), len(names))
		data := []map[string]any{{"id": strconv.Itoa(page), "name": names[page-1]}}
		envelope(w, data, map[string]any{
			"page": page, "totalSize": len(names), "start": page, "end": page,
			"hasNext": page < len(names), "hasPrevious": page > 1, "totalPages": len(names),
		})
	})
	mux.HandleFunc("GET /v1/campaigns/{id}", func(w http.ResponseWriter, r *http.Request) {
		problem(w, 404, "not_found", "Campaign not found.")
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

func ExampleAll() {
	srv := fakeBetty()
	defer srv.Close()
	bc, _ := betty.New(srv.URL, betty.WithAPIKey("betty_sk_example"))

	campaigns := betty.All[client.Campaign](context.Background(), bc,
		func(ctx context.Context, api *client.Client, page int) (*http.Response, error) {
			return api.ListCampaigns(ctx, &client.ListCampaignsParams{OrganizationId: "org-1", Page: &page})
		})
	for c, err := range campaigns {
		if err != nil {
			log.Fatal(err)
		}
		fmt.Println(c.Id, c.Name)
	}
	// Output:
	// 1 Spring renewals
	// 2 Win-back
	// 3 Survey
}

func ExampleAPIError() {
	srv := fakeBetty()
	defer srv.Close()
	bc, _ := betty.New(srv.URL, betty.WithAPIKey("betty_sk_example"))

	_, err := betty.Do[client.Campaign](context.Background(), bc, func(ctx context.Context, api *client.Client) (*http.Response, error) {
		return api.GetCampaign(ctx, "0192f1a4-0000-7000-8000-000000000000")
	})
	if errors.Is(err, betty.ErrNotFound) {
		fmt.Println("no such campaign")
	}
	var apiErr *betty.APIError
	if errors.As(err, &apiErr) {
		fmt.Println(apiErr.StatusCode, apiErr.Code, apiErr.RequestID)
	}
	fmt.Println(err)

	_, err = bc.Me(context.Background())
	fmt.Println(errors.Is(err, betty.ErrForbidden), err)
	// Output:
	// no such campaign
	// 404 not_found 01JEXAMPLE
	// Campaign not found. (not_found, HTTP 404, request 01JEXAMPLE)
	// true Use a user session to read the current user. (forbidden, HTTP 403, request 01JEXAMPLE)
}
