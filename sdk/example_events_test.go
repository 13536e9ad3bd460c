package betty_test

import (
	"context"
	"fmt"
	"log"
	"net/http"
	"net/http/httptest"

	betty "github.com/bettyhq/betty/sdk"
	"github.com/bettyhq/betty/sdk/client"
)

// fakeStream stands in for GET /v1/events and GET /v2/jobs/status of `betty serve`: a run
// that goes from 40% to done.
func fakeStream() *httptest.Server {
	job := func(status string, done int) string {
		return fmt.Sprintf(`{"id":"job-1","type":"workflow-run","workflowId":"wf-1","organizationId":"team-1","status":%q,`+
			`"progress":{"total":10,"completed":%d,"failed":0,"pending":%d,"percent":%d},"triggeredBy":"ada@example.com","isTest":false,`+
			`"startedAt":"2026-03-14T09:26:53Z","finishedAt":null,"error":null,"createdAt":"2026-03-14T09:26:53Z","updatedAt":"2026-03-14T09:26:53Z"}`,
			status, done, 10-done, done*10)
	}
	mux := http.NewServeMux()
	mux.HandleFunc("GET /v2/jobs/status", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		fmt.Fprintf(w, `{"status":200,"data":[%s]}`, job("in-progress", 4))
	})
	mux.HandleFunc("GET /v1/events", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/event-stream")
		fmt.Fprint(w, "retry: 5000\n\n: keep-alive\n\n")
		fmt.Fprintf(w, "id: 7\nevent: job.updated\ndata: %s\n\n", job("in-progress", 7))
		fmt.Fprintf(w, "id: 8\nevent: job.updated\ndata: %s\n\n", job("success", 10))
		http.NewResponseController(w).Flush()
		<-r.Context().Done()
	})
	return httptest.NewServer(mux)
}

// Follow a run to its end: from the event stream, or by polling when there is none.
func ExampleClient_WaitForJob() {
	srv := fakeStream()
	defer srv.Close()
	c, _ := betty.New(srv.URL, betty.WithAPIKey("betty_sk_example"))

	job, err := c.WaitForJob(context.Background(), "team-1", "job-1", func(j client.Job) {
		fmt.Printf("%d%% (%s)\n", j.Progress.Percent, j.Status)
	})
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println("done:", job.Status)
	// Output:
	// 40% (in-progress)
	// 70% (in-progress)
	// 100% (success)
	// done: success
}

// Read a team's live events; the stream reconnects by itself with Last-Event-ID.
func ExampleClient_Events() {
	srv := fakeStream()
	defer srv.Close()
	c, _ := betty.New(srv.URL, betty.WithAPIKey("betty_sk_example"))

	ctx, stop := context.WithCancel(context.Background())
	defer stop()
	for ev, err := range c.Events(ctx, "team-1", betty.EventsOptions{Types: []client.EventType{client.JobUpdated}}) {
		if err != nil {
			log.Print(err) // it connects again unless the error is permanent
			continue
		}
		if ev.Type == betty.EventReset {
			continue // events were missed: refetch what is shown
		}
		j, _ := ev.Job()
		fmt.Println(ev.ID, ev.Type, j.Progress.Percent)
		if betty.JobFinished(j) {
			break
		}
	}
	// Output:
	// 7 job.updated 70
	// 8 job.updated 100
}
