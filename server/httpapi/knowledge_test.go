package httpapi_test

import (
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/bettyhq/betty/server/internal/apitest"
	"github.com/bettyhq/betty/server/knowledge/knowledgetest"
)

type kbJSON struct {
	ID, Name, OrganizationID string
	CampaignID               *string
	Active                   bool
	FileCount                int
}

type kfJSON struct {
	ID, KnowledgeBaseID, Type, Status, Name   string
	URL, FileName, Faq, FaqName, ErrorMessage *string
	Size                                      int64
	Pages                                     *int
}

type passageJSON struct {
	FileID, KnowledgeBaseID, Name, Type, Snippet, Content string
	Page                                                  *int
	Rank                                                  float64
}

func createKB(t *testing.T, a teamAPI, c apitest.Caller, org string, body map[string]any) kbJSON {
	t.Helper()
	body["organizationId"] = org
	var out struct{ Data kbJSON }
	a.want(http.StatusCreated, c.Access, "POST", "/v1/campaigns/knowledge-base/create", body, &out)
	return out.Data
}

func addKnowledgeFile(t *testing.T, a teamAPI, c apitest.Caller, kb, link string) kfJSON {
	t.Helper()
	var out struct{ Data kfJSON }
	a.want(http.StatusCreated, c.Access, "POST", "/v1/campaigns/knowledge-base/files", map[string]any{"knowledgeBaseId": kb, "fileUrl": link}, &out)
	return out.Data
}

// waitForParsing polls a knowledge file until it is no longer parsing.
func waitForParsing(t *testing.T, a teamAPI, token, org, id string) kfJSON {
	t.Helper()
	deadline := time.Now().Add(20 * time.Second)
	for {
		var body struct{ Data kfJSON }
		a.want(http.StatusOK, token, "GET", "/v1/campaigns/knowledge-base/file/"+id+"?organizationId="+org, nil, &body)
		if body.Data.Status != "parsing" || time.Now().After(deadline) {
			return body.Data
		}
		time.Sleep(50 * time.Millisecond)
	}
}

func search(t *testing.T, a teamAPI, token, org string, q url.Values) []passageJSON {
	t.Helper()
	q.Set("organizationId", org)
	var out struct{ Data []passageJSON }
	a.want(http.StatusOK, token, "GET", "/v1/campaigns/knowledge-base/search?"+q.Encode(), nil, &out)
	return out.Data
}

func manual() []byte {
	return knowledgetest.PDF(
		knowledgetest.Page{Heading: "Delivery", Paragraphs: []string{"We deliver parcels on Saturdays between nine and one.", knowledgetest.Lorem(1, 700)}},
		knowledgetest.Page{Heading: "Refunds", Paragraphs: []string{"Refunds reach your card within five working days."}},
		knowledgetest.Page{Heading: "Warranty", Paragraphs: []string{"Every kettle carries a two year warranty."}},
	)
}

// A knowledge base end to end: files of every kind parsed in the background (a text PDF, a
// DOCX, a scanned PDF, a damaged one), FAQs, search by knowledge base and by campaign, and
// deletion taking passages and stored bytes with it.
func TestKnowledgeBaseEndToEnd(t *testing.T) {
	apitest.Each(t, func(t *testing.T, env *apitest.Env) {
		a := newTeamAPI(t, env)
		ada := env.SignUp(t, "ada@example.com")
		org := env.Team(t, ada, "Acme")
		camp := createCampaign(t, env, ada, org, map[string]any{"name": "Renewals"})

		kb := createKB(t, a, ada, org, map[string]any{"name": " Product manuals ", "campaignId": camp.ID})
		if kb.Name != "Product manuals" || kb.CampaignID == nil || *kb.CampaignID != camp.ID || !kb.Active || kb.FileCount != 0 {
			t.Fatalf("created for the campaign: %+v", kb)
		}
		a.problem(http.StatusConflict, ada.Access, "POST", "/v1/campaigns/knowledge-base/create", map[string]any{"organizationId": org, "name": "PRODUCT MANUALS"})
		a.problem(http.StatusNotFound, ada.Access, "POST", "/v1/campaigns/knowledge-base/create", map[string]any{"organizationId": org, "name": "X", "campaignId": "nope"})

		_, pdfLink := finishedUpload(t, env, ada.Access, org, "knowledge-file", "manual.pdf", manual())
		_, docxLink := finishedUpload(t, env, ada.Access, org, "knowledge-file", "policy.docx", knowledgetest.DOCX(
			knowledgetest.Para{Style: "Title", Text: "Returns policy"},
			knowledgetest.Para{Text: "Bring the receipt and the kettle to any shop."},
			knowledgetest.Para{Style: "Heading1", Text: "Exchanges", PageBreak: true},
			knowledgetest.Para{Text: "Exchanges are free within thirty days."},
		))
		_, scanLink := finishedUpload(t, env, ada.Access, org, "knowledge-file", "scan.pdf", knowledgetest.ScannedPDF())
		_, brokenLink := finishedUpload(t, env, ada.Access, org, "knowledge-file", "broken.pdf", knowledgetest.Corrupt())
		_, lockedLink := finishedUpload(t, env, ada.Access, org, "knowledge-file", "locked.pdf", knowledgetest.EncryptedPDF())

		pdf := addKnowledgeFile(t, a, ada, kb.ID, pdfLink)
		if pdf.Status != "parsing" || pdf.Type != "pdf" || pdf.Name != "manual.pdf" || pdf.URL == nil || pdf.Pages != nil {
			t.Fatalf("added: %+v", pdf)
		}
		docx := addKnowledgeFile(t, a, ada, kb.ID, docxLink)
		scan := addKnowledgeFile(t, a, ada, kb.ID, scanLink)
		broken := addKnowledgeFile(t, a, ada, kb.ID, brokenLink)
		locked := addKnowledgeFile(t, a, ada, kb.ID, lockedLink)

		if f := waitForParsing(t, a, ada.Access, org, pdf.ID); f.Status != "success" || f.Pages == nil || *f.Pages != 3 || f.ErrorMessage != nil {
			t.Fatalf("pdf: %+v", f)
		}
		if f := waitForParsing(t, a, ada.Access, org, docx.ID); f.Status != "success" || f.Pages == nil || *f.Pages != 2 {
			t.Fatalf("docx: %+v", f)
		}
		for _, c := range []struct {
			f    kfJSON
			want string
		}{{scan, "no text layer"}, {broken, "looks damaged"}, {locked, "password-protected"}} {
			if f := waitForParsing(t, a, ada.Access, org, c.f.ID); f.Status != "error" || f.ErrorMessage == nil || !strings.Contains(*f.ErrorMessage, c.want) {
				t.Fatalf("%s: %+v", c.f.Name, f)
			}
		}

		faq := struct{ Data kfJSON }{}
		a.want(http.StatusCreated, ada.Access, "POST", "/v1/campaigns/knowledge-base/faq",
			map[string]any{"knowledgeBaseId": kb.ID, "name": "Opening hours", "faq": "Q: When do you open?\nA: At eight every weekday."}, &faq)
		if faq.Data.Type != "faq" || faq.Data.Status != "success" || faq.Data.FaqName == nil || *faq.Data.FaqName != "Opening hours" || faq.Data.URL != nil {
			t.Fatalf("faq: %+v", faq.Data)
		}

		// Newest first, 10 a page.
		var files struct {
			Data []kfJSON
			Meta metaJSON
		}
		a.want(http.StatusOK, ada.Access, "GET", "/v1/campaigns/knowledge-base/files/"+kb.ID+"?organizationId="+org+"&limit=2&page=1", nil, &files)
		if len(files.Data) != 2 || files.Data[0].ID != faq.Data.ID || files.Meta.TotalSize != 6 || files.Meta.TotalPages != 3 {
			t.Fatalf("files: %+v", files)
		}

		// Search: stemming, page, file name, highlight; by knowledge base and by campaign.
		hits := search(t, a, ada.Access, org, url.Values{"knowledgeBaseId": {kb.ID}, "q": {"delivering on saturday?"}})
		if len(hits) == 0 || hits[0].Name != "manual.pdf" || hits[0].Page == nil || *hits[0].Page != 1 || !strings.Contains(hits[0].Snippet, "**deliver") {
			t.Fatalf("search: %+v", hits)
		}
		hits = search(t, a, ada.Access, org, url.Values{"campaignId": {camp.ID}, "q": {"exchanges"}, "limit": {"1"}})
		if len(hits) != 1 || hits[0].Name != "policy.docx" || hits[0].Page == nil || *hits[0].Page != 2 {
			t.Fatalf("search by campaign: %+v", hits)
		}
		hits = search(t, a, ada.Access, org, url.Values{"knowledgeBaseId": {kb.ID}, "q": {"when do you open"}})
		if len(hits) == 0 || hits[0].FileID != faq.Data.ID || hits[0].Type != "faq" {
			t.Fatalf("faq search: %+v", hits)
		}
		a.want(http.StatusOK, ada.Access, "PUT", "/v1/campaigns/knowledge-base/faq/"+faq.Data.ID,
			map[string]any{"name": "Hours", "faq": "Q: Sundays?\nA: Closed on Sundays."}, &faq)
		if hits := search(t, a, ada.Access, org, url.Values{"knowledgeBaseId": {kb.ID}, "q": {"weekday"}}); len(hits) != 0 {
			t.Fatalf("old FAQ text still found: %+v", hits)
		}
		if hits := search(t, a, ada.Access, org, url.Values{"knowledgeBaseId": {kb.ID}, "q": {"sundays"}}); len(hits) != 1 {
			t.Fatalf("new FAQ text: %+v", hits)
		}
		a.problem(http.StatusUnprocessableEntity, ada.Access, "PUT", "/v1/campaigns/knowledge-base/faq/"+pdf.ID, map[string]any{"name": "x", "faq": "y"})
		// Bad questions are 4xx naming the field; hostile syntax is just words.
		p := a.problem(http.StatusBadRequest, ada.Access, "GET", "/v1/campaigns/knowledge-base/search?organizationId="+org+"&q=x", nil)
		if len(p.Errors) == 0 || p.Errors[0].Field != "query.knowledgeBaseId" {
			t.Fatalf("%+v", p)
		}
		a.problem(http.StatusBadRequest, ada.Access, "GET", "/v1/campaigns/knowledge-base/search?organizationId="+org+"&q=%22%3F%21&knowledgeBaseId="+kb.ID, nil)
		search(t, a, ada.Access, org, url.Values{"knowledgeBaseId": {kb.ID}, "q": {`NEAR(" OR ') -- :* & | !`}})
		search(t, a, ada.Access, org, url.Values{"knowledgeBaseId": {kb.ID}, "q": {"名前😀\u202e\u0301 ǅ café 1½ or and"}})

		// Deleting a file takes its passages and its stored bytes.
		a.want(http.StatusOK, ada.Access, "DELETE", "/v1/campaigns/knowledge-base/files/"+pdf.ID+"?organizationId="+org, nil, nil)
		if hits := search(t, a, ada.Access, org, url.Values{"knowledgeBaseId": {kb.ID}, "q": {"saturdays"}}); len(hits) != 0 {
			t.Fatalf("passages of a deleted file: %+v", hits)
		}
		if res := env.Get(requestURI(t, *pdf.URL)); res.Status != http.StatusNotFound {
			t.Fatalf("the deleted file's bytes are still served: %d", res.Status)
		}
		a.problem(http.StatusNotFound, ada.Access, "GET", "/v1/campaigns/knowledge-base/file/"+pdf.ID+"?organizationId="+org, nil)

		// Deleting the knowledge base takes the rest.
		a.want(http.StatusOK, ada.Access, "DELETE", "/v1/campaigns/knowledge-base/delete/"+kb.ID+"?organizationId="+org, nil, nil)
		a.problem(http.StatusNotFound, ada.Access, "GET", "/v1/campaigns/knowledge-base/file/"+docx.ID+"?organizationId="+org, nil)
		if res := env.Get(requestURI(t, docxLink)); res.Status != http.StatusNotFound {
			t.Fatalf("the bytes of a deleted knowledge base's file are still served: %d", res.Status)
		}
		hits = search(t, a, ada.Access, org, url.Values{"campaignId": {camp.ID}, "q": {"exchanges"}})
		if len(hits) != 0 {
			t.Fatalf("campaign search after deleting its knowledge base: %+v", hits)
		}
	})
}

// One active knowledge base per campaign; activation switches in one go; deactivating leaves
// none; lists by name, 20 a page, and by campaign.
func TestKnowledgeBaseActivation(t *testing.T) {
	apitest.Each(t, func(t *testing.T, env *apitest.Env) {
		a := newTeamAPI(t, env)
		ada := env.SignUp(t, "ada@example.com")
		org := env.Team(t, ada, "Acme")
		camp := createCampaign(t, env, ada, org, map[string]any{"name": "Renewals"})
		first := createKB(t, a, ada, org, map[string]any{"name": "Beta", "campaignId": camp.ID})
		second := createKB(t, a, ada, org, map[string]any{"name": "alpha", "campaignId": camp.ID})
		if !first.Active || second.Active {
			t.Fatalf("the second of a campaign is inactive: %+v %+v", first, second)
		}
		activate := func(path, kb string) {
			var out struct {
				Data struct {
					Active                      bool
					KnowledgeBaseID, CampaignID string
				}
			}
			a.want(http.StatusOK, ada.Access, "POST", "/v1/campaigns/knowledge-base/"+path,
				map[string]any{"organizationId": org, "knowledgeBaseId": kb, "campaignId": camp.ID}, &out)
			if out.Data.Active != (path == "activate") || out.Data.KnowledgeBaseID != kb {
				t.Fatalf("%s: %+v", path, out.Data)
			}
		}
		list := func(query string) []kbJSON {
			var out struct{ Data []kbJSON }
			a.want(http.StatusOK, ada.Access, "GET", "/v1/campaigns/knowledge-base/list/"+org+"?"+query, nil, &out)
			return out.Data
		}
		activate("activate", second.ID)
		got := list("campaignId=" + camp.ID)
		if len(got) != 2 || got[0].Name != "alpha" || !got[0].Active || got[1].Active {
			t.Fatalf("after activating the second: %+v", got)
		}
		activate("activate", second.ID) // again: the same
		activate("deactivate", second.ID)
		for _, kb := range list("campaignId=" + camp.ID) {
			if kb.Active {
				t.Fatalf("still active: %+v", kb)
			}
		}
		orgWide := createKB(t, a, ada, org, map[string]any{"name": "Gamma"})
		a.problem(http.StatusNotFound, ada.Access, "POST", "/v1/campaigns/knowledge-base/deactivate",
			map[string]any{"organizationId": org, "knowledgeBaseId": orgWide.ID, "campaignId": camp.ID})
		activate("activate", orgWide.ID) // links it
		if got := list("campaignId=" + camp.ID); len(got) != 3 || !got[2].Active || got[2].Name != "Gamma" {
			t.Fatalf("activating an organisation-wide one: %+v", got)
		}

		for i := range 21 {
			createKB(t, a, ada, org, map[string]any{"name": fmt.Sprintf("kb %02d", i)})
		}
		var page struct {
			Data []kbJSON
			Meta metaJSON
		}
		a.want(http.StatusOK, ada.Access, "GET", "/v1/campaigns/knowledge-base/list/"+org, nil, &page)
		if len(page.Data) != 20 || page.Meta.TotalSize != 24 || page.Data[0].Name != "alpha" {
			t.Fatalf("first page: %d %+v", len(page.Data), page.Meta)
		}

		var renamed struct{ Data kbJSON }
		a.want(http.StatusOK, ada.Access, "PUT", "/v1/campaigns/knowledge-base/update/"+first.ID, map[string]any{"name": "Zeta"}, &renamed)
		if renamed.Data.Name != "Zeta" {
			t.Fatalf("%+v", renamed.Data)
		}
		a.problem(http.StatusConflict, ada.Access, "PUT", "/v1/campaigns/knowledge-base/update/"+first.ID, map[string]any{"name": "GAMMA"})
		a.problem(http.StatusNotFound, ada.Access, "PUT", "/v1/campaigns/knowledge-base/update/"+first.ID, map[string]any{"name": "Eta", "organizationId": "other"})
	})
}

// An agent answers from its campaign's active knowledge base and the files linked to it.
func TestAgentKnowledgeFiles(t *testing.T) {
	apitest.Each(t, func(t *testing.T, env *apitest.Env) {
		a := newTeamAPI(t, env)
		ada := env.SignUp(t, "ada@example.com")
		org := env.Team(t, ada, "Acme")
		camp := createCampaign(t, env, ada, org, map[string]any{"name": "Renewals"})
		active := createKB(t, a, ada, org, map[string]any{"name": "Active", "campaignId": camp.ID})
		other := createKB(t, a, ada, org, map[string]any{"name": "Other"})
		_, l1 := finishedUpload(t, env, ada.Access, org, "knowledge-file", "a.txt", []byte("Kettles boil water quickly."))
		_, l2 := finishedUpload(t, env, ada.Access, org, "knowledge-file", "b.md", []byte("# Toasters\n\nToasters brown bread evenly."))
		inActive := addKnowledgeFile(t, a, ada, active.ID, l1)
		elsewhere := addKnowledgeFile(t, a, ada, other.ID, l2)
		waitForParsing(t, a, ada.Access, org, inActive.ID)
		if f := waitForParsing(t, a, ada.Access, org, elsewhere.ID); f.Status != "success" || f.Type != "md" || f.Pages != nil {
			t.Fatalf("markdown: %+v", f)
		}

		ag := createAgent(t, a, ada, org, map[string]any{"campaignId": camp.ID,
			"knowledgeFiles": []map[string]any{{"fileUrl": *elsewhere.URL, "name": "b.md"}}})
		if len(ag.KnowledgeFiles) != 1 {
			t.Fatalf("linked on create: %+v", ag.KnowledgeFiles)
		}
		var files struct {
			Data []struct{ ID, Name, Status, Type, FileURL string }
			Meta metaJSON
		}
		a.want(http.StatusOK, ada.Access, "GET", "/v1/agent/list/knowledge-file/"+ag.ID+"?organizationId="+org, nil, &files)
		if len(files.Data) != 2 || files.Data[0].ID != elsewhere.ID || files.Data[1].ID != inActive.ID || files.Data[1].Status != "success" {
			t.Fatalf("agent files: %+v", files)
		}
		var copied struct{ Data agentJSON }
		a.want(http.StatusCreated, ada.Access, "POST", "/v1/agent/duplicate", map[string]any{"organizationId": org, "id": ag.ID}, &copied)
		if len(copied.Data.KnowledgeFiles) != 1 {
			t.Fatalf("the copy's linked files: %+v", copied.Data.KnowledgeFiles)
		}
		// A link that is not a knowledge file is refused with the reason; an empty list unlinks.
		p := a.problem(http.StatusUnprocessableEntity, ada.Access, "PATCH", "/v1/agent/"+ag.ID, map[string]any{"organizationId": org,
			"knowledgeFiles": []map[string]any{{"fileUrl": "https://example.com/x.pdf", "name": "x.pdf"}}})
		if !strings.Contains(p.Detail, "knowledge base") {
			t.Fatalf("%+v", p)
		}
		a.want(http.StatusOK, ada.Access, "PATCH", "/v1/agent/"+ag.ID, map[string]any{"organizationId": org, "knowledgeFiles": []any{}}, nil)
		a.want(http.StatusOK, ada.Access, "GET", "/v1/agent/list/knowledge-file/"+ag.ID+"?organizationId="+org, nil, &files)
		if len(files.Data) != 1 || files.Data[0].ID != inActive.ID {
			t.Fatalf("after unlinking: %+v", files)
		}
	})
}

// Another team's upload cannot be added, and nothing of a team is searchable by another.
func TestKnowledgeIsolation(t *testing.T) {
	apitest.Each(t, func(t *testing.T, env *apitest.Env) {
		a := newTeamAPI(t, env)
		ada := env.SignUp(t, "ada@example.com")
		org := env.Team(t, ada, "Acme")
		bob := env.SignUp(t, "bob@example.com")
		orgB := env.Team(t, bob, "Rival")
		kb := createKB(t, a, ada, org, map[string]any{"name": "Secrets"})
		kbB := createKB(t, a, bob, orgB, map[string]any{"name": "Mine"})
		_, link := finishedUpload(t, env, ada.Access, org, "knowledge-file", "secret.txt", []byte("The launch date is in April."))
		f := addKnowledgeFile(t, a, ada, kb.ID, link)
		waitForParsing(t, a, ada.Access, org, f.ID)

		a.problem(http.StatusNotFound, bob.Access, "POST", "/v1/campaigns/knowledge-base/files", map[string]any{"knowledgeBaseId": kbB.ID, "fileUrl": link})
		a.problem(http.StatusNotFound, bob.Access, "GET", "/v1/campaigns/knowledge-base/search?"+url.Values{"organizationId": {orgB}, "knowledgeBaseId": {kb.ID}, "q": {"launch"}}.Encode(), nil)
		if hits := search(t, a, bob.Access, orgB, url.Values{"knowledgeBaseId": {kbB.ID}, "q": {"launch april"}}); len(hits) != 0 {
			t.Fatalf("another team's passages: %+v", hits)
		}
	})
}

// Isolation fixtures: a knowledge base, and a FAQ, of team A.
func knowledgeBaseFixture(t *testing.T, env *apitest.Env, owner apitest.Caller, org string) map[string]string {
	kb := createKB(t, newTeamAPI(t, env), owner, org, map[string]any{"name": fmt.Sprintf("Fixture %d", time.Now().UnixNano())})
	_, link := finishedUpload(t, env, owner.Access, org, "knowledge-file", "notes.txt", []byte("Some notes."))
	return map[string]string{"id": kb.ID, "knowledgeBaseId": kb.ID, "fileUrl": link}
}

func knowledgeFAQFixture(t *testing.T, env *apitest.Env, owner apitest.Caller, org string) map[string]string {
	values := knowledgeBaseFixture(t, env, owner, org)
	var out struct{ Data kfJSON }
	newTeamAPI(t, env).want(http.StatusCreated, owner.Access, "POST", "/v1/campaigns/knowledge-base/faq",
		map[string]any{"knowledgeBaseId": values["knowledgeBaseId"], "name": "FAQ", "faq": "Q? A."}, &out)
	values["id"] = out.Data.ID
	return values
}

// requestURI is the path and query of a link the server gave.
func requestURI(t *testing.T, link string) string {
	t.Helper()
	u, err := url.Parse(link)
	if err != nil {
		t.Fatal(err)
	}
	return u.RequestURI()
}
